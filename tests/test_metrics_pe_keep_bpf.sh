#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_metrics_pe_keep_bpf.sh: test_metrics_pe_keep.sh with ptop's BPF
# source, whose rows say whether a process ran. Skips (77) where BPF does
# not load (not root, no CAP_BPF + CAP_PERFMON, built without it).
PE_SOURCE=bpf
export PE_SOURCE
exec "${srcdir:-$(dirname "$0")/..}/tests/test_metrics_pe_keep.sh"
