#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_metrics_groups.sh: the metrics' groups follow the workload, on a fake
# proc root (--proc-root) of a machine with 300 kernel threads of 150 names
# beside kthreadd, and six user programs: with the defaults the kernel
# threads are one group, "kernel", and each program has series of its own
# (promtool lints them); with --kernel-threads=grouped and 10 slots the
# programs, which hold memory, still win slots over the idle kernel threads'
# names. Then, with the windows' clock scaled (PTOP_TEST_METRICS_SCALE) and
# two slots, a program that appears holding 10% of memory, lighter than the
# two that hold them, is counted in "other", which then holds too much (the
# gauge says so, and stderr, at most once an hour); it takes the slot of one
# that ends; when that one starts again it wins its slot back once the
# newcomer's tenure ends, and its CPU counter goes on from where it was.
# A bad PTOP_TEST_METRICS_SCALE ends ptop with status 1 and a message.
# Skips (77) without promtool, after running everything else.
set -eu

NAME=test_metrics_groups
. "${srcdir:-$(dirname "$0")/..}/tests/metrics-lib.sh"

have_promtool=yes
command -v promtool >/dev/null 2>&1 || have_promtool=

# mkproc PID PPID NAME TICKS MEM_SHARE...: process directories under $tmp/proc,
# written by the generator below (see it for the files); MEM_SHARE is of
# this machine's memory, as the frames' totals come from the real /proc.
cat >"$tmp/mkproc.py" <<'EOF'
import os, sys
root, spec = sys.argv[1], sys.argv[2:]
page = os.sysconf("SC_PAGE_SIZE")
mem_kb = int(next(l.split()[1] for l in open("/proc/meminfo") if l.startswith("MemTotal:")))
for i in range(0, len(spec), 5):
    pid, ppid, name, ticks, share = spec[i:i + 5]
    d = os.path.join(root, pid)
    tmp = d + ".new"
    os.makedirs(tmp)
    pages = int(float(share) * mem_kb * 1024 / page)
    kthread = ppid == "2" or pid == "2"
    state = "I" if kthread and pid != "2" else "S"
    flags = 0x208040 if kthread else 0x400000
    with open(os.path.join(tmp, "stat"), "w") as f:
        f.write("%s (%s) %s %s %s %s 0 -1 %d 0 0 0 0 %s 0 0 0 20 0 1 0 100 %d %d "
                "18446744073709551615 0 0 0 0 0 0 0 0 0 0 0 0 17 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n"
                % (pid, name, state, ppid, pid, pid, flags, ticks, pages * page, pages))
    with open(os.path.join(tmp, "statm"), "w") as f:
        f.write("%d %d 0 0 0 0 0\n" % (pages, pages))
    with open(os.path.join(tmp, "status"), "w") as f:
        f.write("Name:\t%s\nState:\t%s\nTgid:\t%s\nPid:\t%s\nPPid:\t%s\n"
                "Uid:\t0\t0\t0\t0\nGid:\t0\t0\t0\t0\nThreads:\t1\n"
                "voluntary_ctxt_switches:\t1\nnonvoluntary_ctxt_switches:\t0\n"
                % (name, state, pid, pid, ppid))
    with open(os.path.join(tmp, "io"), "w") as f:
        f.write("rchar: 0\nwchar: 0\nsyscr: 0\nsyscw: 0\nread_bytes: 0\n"
                "write_bytes: 0\ncancelled_write_bytes: 0\n")
    os.rename(tmp, d)
EOF
mkproc() {
	"$PYTHON" "$tmp/mkproc.py" "$tmp/proc" "$@"
}

# A many-core server's kernel threads: kthreadd and 300 of 150 names.
mkdir "$tmp/proc"
set -- 2 0 kthreadd 0 0
pid=3
for n in $(seq 0 149); do
	for c in 0 1; do
		set -- "$@" "$pid" 2 "kworker/$n:$c" 0 0
		pid=$((pid + 1))
	done
done
mkproc "$@"
[ "$(ls "$tmp/proc" | wc -l)" = 301 ] || die "the fake proc root has not 301 kernel threads"
# Six programs, three of them with several processes, each over 1% of
# memory or of a CPU (utime over its life, as the first frame counts it).
progs="postgres nginx java redis-server myapp cron"
mkproc 1000 1 postgres 500 0.01 1001 1000 postgres 100 0.01 1002 1000 postgres 100 0.01 \
	1010 1 nginx 200 0.005 1011 1010 nginx 200 0.005 \
	1020 1 java 90000 0.05 1030 1 redis-server 300 0.02 \
	1040 1 myapp 500000 0.001 1050 1 cron 10 0.011 1051 1050 cron 10 0.0

# series NAME: the label sets of NAME's samples, one a line.
series() { client series "$port" "$1"; }

# Defaults: kernel threads one group; every program its own series.
start_ptop defaults --proc-root "$tmp/proc" -d 0.3
all_there() {
	for p in $progs kernel; do
		series ptop_group_processes | grep -x "comm=$p" >/dev/null || return 1
	done
}
wait_until all_there || fail "with the defaults, not every program has its series: $(series ptop_group_processes)"
[ "$(client value "$port" ptop_group_processes comm=kernel)" = 301.0 ] ||
	fail "the group kernel should hold the 301 kernel threads: $(client value "$port" ptop_group_processes comm=kernel)"
[ "$(client value "$port" ptop_group_processes comm=postgres)" = 3.0 ] ||
	fail "the group postgres should hold 3 processes"
series ptop_group_processes | grep kworker >/dev/null && fail "a kernel thread's name has series of its own"
[ "$(client value "$port" ptop_group_other_high)" = 0.0 ] || fail "other should not hold too much"
BODY="$tmp/defaults.text" client get "$port" /metrics >/dev/null
if [ "$have_promtool" ]; then
	promtool check metrics <"$tmp/defaults.text" >"$tmp/lint" 2>&1 ||
		fail "promtool: $(cat "$tmp/lint")"
fi
# user and system split: a new family, beside the old one's labels
series ptop_group_cpu_mode_seconds_total | grep -x 'comm=myapp mode=user' >/dev/null ||
	fail "no user CPU series of myapp: $(series ptop_group_cpu_mode_seconds_total | head)"
kill_ptop_now() { kill "$ptop_pid" && wait "$ptop_pid" 2>/dev/null || :; }
kill_ptop_now

# Kernel threads by name, 10 slots: the programs outweigh 151 idle names.
start_ptop grouped --proc-root "$tmp/proc" -d 0.3 --kernel-threads=grouped --max-groups 10
progs_there() {
	for p in $progs; do
		series ptop_group_processes | grep -x "comm=$p" >/dev/null || return 1
	done
}
wait_until progs_there || fail "grouped: not every program has its series: $(series ptop_group_processes)"
[ "$(series ptop_group_processes | wc -l)" = 11 ] || fail "grouped: not 10 groups and other"
series ptop_group_processes | grep kworker >/dev/null || fail "grouped: no kernel thread's name in the other slots"
kill_ptop_now

# Two slots, time 300 times as fast: 5 minutes are 1 s, a tenure 2 s, an hour 12 s.
rm -rf "$tmp/proc"
mkdir "$tmp/proc"
mkproc 2 0 kthreadd 0 0 1000 1 postgres 500 0.30 1040 1 myapp 50000 0.20
t0=$(date +%s)
export PTOP_TEST_METRICS_SCALE=300
start_ptop scaled --proc-root "$tmp/proc" -d 0.1 --max-groups 2
unset PTOP_TEST_METRICS_SCALE
held() { series ptop_group_processes | grep -x "comm=$1" >/dev/null; }
wait_until held postgres && wait_until held myapp || fail "scaled: no series of postgres and myapp"
myapp_cpu=$(client value "$port" ptop_group_cpu_seconds_total comm=myapp)
# a newcomer with 10% of memory, lighter than both: other holds too much
mkproc 1100 1 hog 0 0.10
said() { grep -q "the group 'other' held" "$tmp/scaled.err"; }
wait_until said || fail "scaled: stderr never said that other held too much: $(cat "$tmp/scaled.err")"
[ "$(client value "$port" ptop_group_other_high)" = 1.0 ] || fail "scaled: ptop_group_other_high is not 1"
held hog && fail "scaled: hog took a heavier group's slot"
# myapp ends: hog takes its slot when it has been gone 10 frames
rm -rf "$tmp/proc/1040"
wait_until held hog || fail "scaled: hog never took myapp's slot: $(series ptop_group_processes)"
# myapp starts again (another process): in other until hog's tenure ends, then
# hog's slot is the lighter group's; myapp's counter goes on from where it was
mkproc 1041 1 myapp 0 0.20
wait_until held myapp || fail "scaled: myapp never won its slot back: $(series ptop_group_processes)"
held hog && fail "scaled: hog kept its slot beside two heavier groups"
back=$(client value "$port" ptop_group_cpu_seconds_total comm=myapp)
[ "$back" = "$myapp_cpu" ] || fail "scaled: myapp's CPU seconds were $myapp_cpu, $back after it came back"
[ "$(client value "$port" ptop_group_slot_changes_total)" = 2.0 ] ||
	fail "scaled: slot changes: $(client value "$port" ptop_group_slot_changes_total), not 2"
# said at most once an hour (12 s here)
n=$(grep -c "the group 'other' held" "$tmp/scaled.err")
[ "$n" -le $((($(date +%s) - t0) / 12 + 1)) ] || fail "scaled: said $n times in $(($(date +%s) - t0)) s"
kill_ptop_now

st=0
PTOP_TEST_METRICS_SCALE=0 "$PTOP" --listen 127.0.0.1:0 -n 1 >/dev/null 2>"$tmp/err" || st=$?
[ "$st" = 1 ] && grep -q '^ptop: PTOP_TEST_METRICS_SCALE=0 is not a value it takes' "$tmp/err" ||
	fail "PTOP_TEST_METRICS_SCALE=0: status $st, $(cat "$tmp/err")"

[ "$failures" = 0 ] || exit 1
[ -n "$have_promtool" ] || skip "promtool (Debian package prometheus) is missing: the output not linted"
finish
