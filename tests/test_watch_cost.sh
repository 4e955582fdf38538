#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_watch_cost.sh: on a machine that delivers breakpoint hits, a watch
# set by name counts every write exactly, and the cost ptop estimates for
# the watched program (hits/s times the per-hit cost it calibrated) is
# within a factor of 2 of the program's measured slowdown.
#
# Exact hits: tests/watched writes `counter` 1000 times per SIGUSR1; after
# three rounds the Breakpoints pane (driven in tmux, the watch set with
# `w counter`) shows 3000 hits. Cost: the same work (one write to `counter`
# and some arithmetic per round) is run unwatched, then watched by ptop -b
# -o json; the CPU time the watched run spent beyond the unwatched one, per
# second of its wall time, is the share of a CPU its traps cost; ptop's
# est_cpu_pct over the frames within the run must be within a factor of 2.
# The runs are waited for as long as the kernel counts CPU time to them; the
# pane part or a watched run the kernel ends with a stray SIGTRAP is run again
# once, then the test skips, saying so.
# Skips (77) with the reason where hits are not delivered (VMs whose
# hypervisor drops debug exceptions) or without tmux.

WATCHED=${builddir:-.}/tests/watched
ROUNDS=${ROUNDS:-1000000}

NAME=test_watch_cost
. "${srcdir:-.}/tests/tmux-lib.sh"
need_tmux
[ -x "$WATCHED" ] || fail "no test program at $WATCHED"

child=
batch=
at_exit() {
	[ -z "$child" ] || kill -KILL "$child" 2>/dev/null
	[ -z "$batch" ] || kill -KILL "$batch" 2>/dev/null
}
tm_env
WAIT_SECONDS=30

# start_watched: the test program, waiting for rounds; its counter's address
start_watched() {
	rm -f "$tmp/addr" "$tmp/addr.rounds"
	"$WATCHED" "$tmp/addr" &
	child=$!
	wait_for test -s "$tmp/addr" || fail "the test program wrote no addresses"
	counter=$(sed -n 's/^counter 0x//p' "$tmp/addr")
}
start_watched

# Does this machine deliver hits? ptop says so in JSON after its self-test.
"$PTOP" -b -n 1 -o json -p "$child" --watch "$child:counter" >"$tmp/probe" 2>"$tmp/err" ||
	fail "batch --watch exited $?: $(cat "$tmp/err")"
why=$(python3 -c '
import json, sys
f = json.loads(open(sys.argv[1]).readline())
print(f.get("breakpoints_note", ""))' "$tmp/probe") || fail "no JSON: $(cat "$tmp/probe")"
[ -z "$why" ] || skip "$why"

# trapped: the test program ended, and of SIGTRAP (see watched_run below);
# the pane closed (ptop -p ends with its processes)
trapped() {
	alive "$child" && return 1
	wait "$child"
	st=$?
	child=
	tm kill-server 2>/dev/null
	[ "$st" = 133 ]
}

# pane_hits: the watch set by name in the pane counts 3000 writes exactly;
# 133 when the kernel ended the program with a stray SIGTRAP on the way
pane_hits() {
	tm_run "$PTOP" -d 0.5 -p "$child"
	expect "^ *$child "
	keys D
	expect 'Watch NAME'
	keys -l counter
	keys Enter
	if ! wait_for on_screen "Watching counter on $child \\(watched\\): 0x$counter"; then
		trapped && return 133
		fail "expected /Watching counter on $child (watched): 0x$counter/ on the screen"
	fi
	for n in 1 2 3; do
		kill -USR1 "$child"
		if ! wait_for grep -sqx "$n" "$tmp/addr.rounds"; then
			trapped && return 133
			fail "round $n not done"
		fi
	done
	keys 3
	expect "^ *$child +counter +0x$counter +8 +w +3000 "
	tm kill-server
	kill -TERM "$child"
	wait "$child" 2>/dev/null
	child=
}

# ---- exact hits, in the pane (a stray SIGTRAP: once again, as below) ----
TM_LINES=40
st=0
pane_hits || st=$?
if [ "$st" = 133 ]; then
	partial_skip "the kernel sent the watched program SIGTRAP in the pane (a stray debug exception); again"
	start_watched
	st=0
	pane_hits || st=$?
	[ "$st" = 133 ] &&
		skip "the kernel sent the watched program SIGTRAP twice (stray debug exceptions on this machine)"
fi

# cpu_ticks PID: the CPU time (utime + stime, clock ticks) the kernel counted for PID.
cpu_ticks() {
	sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | awk '{ print $12 + $13 }'
}

# run_ends PID FILE: wait until the run of PID writes FILE, for as long as
# the kernel counts CPU time to it (a loaded machine gives it less, and each
# trap costs it more): failing only when it ran for no tick in 60 s.
run_ends() {
	last=-1
	stalled=0
	while [ ! -s "$2" ]; do
		now=$(cpu_ticks "$1")
		if [ -z "$now" ]; then
			# it ended: its file is there, or it says why not
			wait "$1"
			st=$?
			[ -s "$2" ] && return 0
			echo "$NAME: the run ended with status $st, without $2" >&2
			return 1
		fi
		if [ "$now" = "$last" ]; then
			stalled=$((stalled + 1))
			[ "$stalled" -lt 120 ] || return 1
		else
			stalled=0
			last=$now
		fi
		sleep 0.5
	done
}

# ---- the cost estimate against the measured slowdown ----
"$WATCHED" "$tmp/plain" spin "$ROUNDS" &
child=$!
wait_for test -s "$tmp/plain" || fail "the unwatched run did not start"
touch "$tmp/plain.go"
run_ends "$child" "$tmp/plain.took" || fail "the unwatched run did not end"
wait "$child"

# watched_run: the same work, watched by ptop -b -o json; status 133 when
# the program died of SIGTRAP
watched_run() {
	rm -f "$tmp/watched" "$tmp/watched.go" "$tmp/watched.took" "$tmp/json"
	"$WATCHED" "$tmp/watched" spin "$ROUNDS" &
	child=$!
	wait_for test -s "$tmp/watched" || fail "the watched run did not start"
	"$PTOP" -b -o json -d 0.5 -n 100000 -p "$child" --watch "$child:counter" >"$tmp/json" \
		2>"$tmp/err" &
	batch=$!
	if ! wait_for test -s "$tmp/json"; then
		# where ptop waits, for the failure's message (once seen under load, unexplained)
		where=$(waits_in "$batch")
		kill "$batch" 2>/dev/null
		bst=0
		wait "$batch" 2>/dev/null || bst=$?
		batch=
		trapped && return 133
		fail "no frame from ptop in ${WAIT_SECONDS} s (its status $bst, 143 if still running; its tasks, state and wait: $where): $(cat "$tmp/err")"
	fi
	touch "$tmp/watched.go"
	ended=0
	run_ends "$child" "$tmp/watched.took" || ended=$?
	sleep 1.2 # a frame after the end, so that the last frames within the run are complete
	kill "$batch"
	wait "$batch" 2>/dev/null
	batch=
	wait "$child" 2>/dev/null
	child=
	[ "$ended" = 0 ] && return 0
	grep -q "status 133" "$tmp/ends" && return 133
	return 1
}
# Some of these VMs, loaded, deliver a debug exception to the watched program
# that no breakpoint claims, and the kernel sends it SIGTRAP (ptop asks for no
# signal): seen a few times in dozens of runs. Once is retried; twice is this
# machine, said and skipped.
st=0
watched_run 2>"$tmp/ends" || st=$?
if [ "$st" = 133 ]; then
	partial_skip "the kernel sent the watched program SIGTRAP (a stray debug exception); again"
	st=0
	watched_run 2>"$tmp/ends" || st=$?
	[ "$st" = 133 ] &&
		skip "the kernel sent the watched program SIGTRAP twice (stray debug exceptions on this machine)"
fi
[ "$st" = 0 ] || fail "the watched run did not end: $(cat "$tmp/ends")"

python3 - "$tmp/plain.took" "$tmp/watched.took" "$tmp/json" <<'PY' || fail "cost estimate"
import json, statistics, sys
wall_u, cpu_u = map(float, open(sys.argv[1]).read().split())
wall_w, cpu_w = map(float, open(sys.argv[2]).read().split())
measured = max(cpu_w - cpu_u, 0) / wall_w * 100
est = []
for line in open(sys.argv[3]):
    try:
        f = json.loads(line)
    except ValueError:
        continue  # the line the kill cut
    bp = f["breakpoints"][0]
    if bp["hits_per_s"] > 0 and bp["est_cpu_pct"] is not None:
        est.append(bp["est_cpu_pct"])
# the first and last frames with hits cover the run only in part
inner = est[1:-1] if len(est) > 2 else est
assert inner, "no frame with hits: %s" % est
e = statistics.median(inner)
print("test_watch_cost: unwatched %.2f s CPU, watched %.2f s CPU in %.2f s: "
      "measured %.1f%% of a CPU, estimated %.1f%% (median of %d frames)"
      % (cpu_u, cpu_w, wall_w, measured, e, len(inner)))
assert measured > 0 and 0.5 <= e / measured <= 2, (e, measured)
PY
finish
