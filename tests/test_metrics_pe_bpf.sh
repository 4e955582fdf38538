#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_metrics_pe_bpf.sh: test_metrics_pe.sh with ptop's BPF source, whose
# facts beyond the rows (open descriptors and their limit, threads' states
# and counts) come from the task walk, not /proc. Skips (77) where BPF does
# not load (not root, no CAP_BPF + CAP_PERFMON, built without it).
PE_SOURCE=bpf
export PE_SOURCE
exec "${srcdir:-$(dirname "$0")/..}/tests/test_metrics_pe.sh"
