#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_metrics_facts_bpf.sh: test_metrics_facts.sh with ptop's BPF source:
# the open descriptors, their limit (raised from outside by prlimit) and the
# threads' states from the task walk, each against what /proc says. Skips
# (77) where BPF does not load.
FACTS_SOURCE=bpf
export FACTS_SOURCE
exec "${srcdir:-$(dirname "$0")/..}/tests/test_metrics_facts.sh"
