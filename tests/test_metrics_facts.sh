#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_metrics_facts.sh: the facts ptop's own metrics read beyond the rows,
# and when they are read again. A program ("fdhold", one thread) with a
# descriptor limit of 100 shows its open descriptors and their share of the
# limit; after it opens 40 more files (it ran) the next frames show them;
# after prlimit raises its limit from outside (it did not run: its facts are
# kept) the ratio follows within the recheck of 64 frames. Another program
# ("thr3") shows its three threads sleeping. Each value is compared with
# what /proc says. FACTS_SOURCE: ptop's --source (default procfs;
# test_metrics_facts_bpf.sh: bpf, whose facts come from the task walk).
set -eu

NAME=test_metrics_facts
. "${srcdir:-$(dirname "$0")/..}/tests/metrics-lib.sh"
one_at_a_time

need prlimit "to change a process's limit from outside (util-linux)"
[ "$(ulimit -Hn)" = unlimited ] || [ "$(ulimit -Hn)" -ge 1000 ] || skip "a hard descriptor limit below 1000"
ln -sf "$PYTHON" "$tmp/fdhold"
"$tmp/fdhold" -c '
import os, resource, signal, sys, threading, time
resource.setrlimit(resource.RLIMIT_NOFILE, (100, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))
held = []
def more(*_):
    held.extend(os.open("/dev/null", os.O_RDONLY) for _ in range(40))
    open(sys.argv[1] + ".more", "w").write("done")
signal.signal(signal.SIGUSR1, more)
open(sys.argv[1], "w").write("ready")
while True:
    signal.pause()
' "$tmp/ready" &
hold=$!
kids="$kids $hold"
wait_until test -s "$tmp/ready" || die "fdhold did not start"
ln -sf "$PYTHON" "$tmp/thr3"
"$tmp/thr3" -c '
import sys, threading, time
for _ in range(2):
    threading.Thread(target=time.sleep, args=(3600,), daemon=True).start()
open(sys.argv[1], "w").write("ready")
time.sleep(3600)
' "$tmp/thr3.ready" &
kids="$kids $!"
wait_until test -s "$tmp/thr3.ready" || die "thr3 did not start"

start_ptop facts -d 0.1 --source="${FACTS_SOURCE:-procfs}"
if [ "${FACTS_SOURCE:-procfs}" = bpf ] && grep -q "using /proc" "$tmp/facts.err"; then
	skip "no BPF source here: $(cat "$tmp/facts.err")"
fi

# value NAME [LABEL] [COMM]: the sample's value for COMM (fdhold), or status 1.
value() {
	client value "$port" "$1" "comm=${3:-fdhold}" ${2:+"$2"}
}
fds() {
	ls "/proc/$hold/fd" | wc -l
}
is() {
	[ "$(value "$1" "${3:-}" "${4:-}")" = "$2" ]
}
# ratio_is N LIMIT: the group's fd ratio is N/LIMIT
ratio_is() {
	"$PYTHON" -c "import sys; sys.exit(abs(float(sys.argv[1]) - int(sys.argv[2]) / int(sys.argv[3])) > 1e-9)" \
		"$(value ptop_group_fd_limit_ratio)" "$1" "$2"
}

n=$(fds)
wait_until is ptop_group_open_fds "$n.0" || die "open fds: $(value ptop_group_open_fds), not $n"
wait_until ratio_is "$n" 100 || die "fd ratio: $(value ptop_group_fd_limit_ratio), not $n/100"
wait_until is ptop_group_thread_states 3.0 state=sleeping thr3 ||
	die "thr3's sleeping threads: $(value ptop_group_thread_states state=sleeping thr3), not 3"

# it opens 40 more: it ran, so they are read again
kill -USR1 "$hold"
wait_until test -s "$tmp/ready.more" || die "fdhold did not open more"
n=$(fds)
wait_until is ptop_group_open_fds "$n.0" || die "after 40 more: $(value ptop_group_open_fds), not $n"

# its limit raised from outside while it sleeps: kept, then read at the recheck
prlimit --pid "$hold" --nofile=1000:
wait_until ratio_is "$n" 1000 || die "after prlimit: ratio $(value ptop_group_fd_limit_ratio), not $n/1000"
finish
