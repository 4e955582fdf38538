#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_accum_time.sh: -S (top's cumulative time) is how TIME+ is shown, not
# what ptop keeps. For a shell that waited for a child that burned CPU: the
# text's TIME+ with -S is its own time and its dead child's (cutime and
# cstime of its stat file, as top -S shows it, and as top shows it where top
# is installed), without -S its own; JSON gives its own utime and stime
# either way; a recording made with -S holds the same times as one made
# without, and its replay shows them as the replay's own -S says; the
# metrics' group CPU counter is its own time, -S or not.
set -eu

NAME=test_accum_time
# the waits: a child that must use 0.3 s of CPU on a loaded machine
DEADLINE=${DEADLINE:-60}
. "${srcdir:-$(dirname "$0")/..}/tests/metrics-lib.sh"

# The child counts its own CPU time (what the kernel counts, not a sleep) and
# the shell waits for it, so the shell's cutime holds it; the shell then
# becomes sleep, whose own times stay as they are.
sh -c '"$2" -c "import os
while os.times().user + os.times().system < 0.3:
    pass"; : >"$1"; exec sleep 600' sh "$tmp/ready" "$PYTHON" &
cum=$!
kids="$kids $cum"
wait_until test -e "$tmp/ready" || die "the child never used its 0.3 s of CPU"
asleep() { [ "$(cat "/proc/$cum/comm")" = sleep ] && [ "$(state "$cum")" = S ]; }
wait_until asleep || die "the shell never became sleep"

# utime stime cutime cstime of $cum, in clock ticks
times_of() {
	sed 's/.*) //' "/proc/$cum/stat" | awk '{ print $12, $13, $14, $15 }'
}
hz=$(getconf CLK_TCK)
read -r ut st cut cst <<EOF
$(times_of)
EOF
[ $((cut + cst)) -gt 0 ] || die "the shell's cutime is 0 after its child's 0.3 s"
# TIME+ of ticks, as top prints it
time_plus() {
	awk -v t="$1" -v hz="$hz" 'BEGIN { cs = int(t * 100 / hz)
		printf "%d:%02d.%02d\n", int(cs / 6000), int(cs / 100) % 60, cs % 100 }'
}
own=$(time_plus $((ut + st)))
all=$(time_plus $((ut + st + cut + cst)))
time_col() { awk -v p="$cum" '$1 == p { print $11 }'; }

# --- text: TIME+ with -S is the shell's and its child's; without, its own -------------
"$PTOP" -b -n 1 -p "$cum" -S >"$tmp/S.txt" || fail "ptop -b -S exited non-zero"
"$PTOP" -b -n 1 -p "$cum" >"$tmp/plain.txt" || fail "ptop -b exited non-zero"
got=$(time_col <"$tmp/S.txt")
[ "$got" = "$all" ] || fail "-S: TIME+ $got, want $all (own $own and the child's)"
got=$(time_col <"$tmp/plain.txt")
[ "$got" = "$own" ] || fail "without -S: TIME+ $got, want $own"
if command -v top >/dev/null 2>&1; then
	got=$(HOME=$tmp top -b -n 1 -p "$cum" -S | time_col)
	[ "$got" = "$all" ] || fail "top -S: TIME+ $got, ptop -S: $all"
else
	partial_skip "no top to compare -S with"
fi

# --- JSON: the process's own times, -S or not -------------------------------------------
json_times() {
	"$PYTHON" -c '
import json, sys
for line in open(sys.argv[1]):
    for p in json.loads(line)["processes"]:
        if p["pid"] == int(sys.argv[2]):
            print(p["utime_ticks"], p["stime_ticks"])
' "$1" "$cum"
}
"$PTOP" -b -n 1 -p "$cum" -S -o json >"$tmp/S.json" || fail "ptop -b -S -o json exited non-zero"
[ "$(json_times "$tmp/S.json")" = "$ut $st" ] ||
	fail "-S -o json: utime, stime $(json_times "$tmp/S.json"), want the own $ut $st"

# --- recordings: -S changes nothing kept; the replay's -S shows it -----------------------
"$PTOP" -b -n 1 -S -o json --record "$tmp/S.rec" >/dev/null || fail "-S --record exited non-zero"
"$PTOP" -b -n 1 -o json --record "$tmp/plain.rec" >/dev/null || fail "--record exited non-zero"
"$PTOP" -r "$tmp/S.rec" -b -o json -p "$cum" >"$tmp/S.replay.json" || fail "replay of -S exited non-zero"
"$PTOP" -r "$tmp/plain.rec" -b -o json -p "$cum" >"$tmp/plain.replay.json" || fail "replay exited non-zero"
[ "$(json_times "$tmp/S.replay.json")" = "$ut $st" ] ||
	fail "recorded with -S: utime, stime $(json_times "$tmp/S.replay.json"), want $ut $st"
[ "$(json_times "$tmp/plain.replay.json")" = "$ut $st" ] ||
	fail "recorded without -S: utime, stime $(json_times "$tmp/plain.replay.json"), want $ut $st"
got=$("$PTOP" -r "$tmp/S.rec" -b -p "$cum" | time_col)
[ "$got" = "$own" ] || fail "replay without -S of a -S recording: TIME+ $got, want $own"
got=$("$PTOP" -r "$tmp/plain.rec" -b -S -p "$cum" | time_col)
[ "$got" = "$all" ] || fail "replay with -S: TIME+ $got, want $all"

# --- metrics: the group's CPU counter is the process's own time ------------------------
start_ptop metrics -b -S -p "$cum" -d 3600 -o json
counted() { client value "$port" ptop_group_cpu_seconds_total comm=sleep >"$tmp/cpu"; }
wait_until counted || die "no ptop_group_cpu_seconds_total{comm=\"sleep\"}: $(cat "$tmp/metrics.err")"
"$PYTHON" -c 'import sys; sys.exit(abs(float(sys.argv[1]) - float(sys.argv[2]) / float(sys.argv[3])) > 1e-6)' \
	"$(cat "$tmp/cpu")" $((ut + st)) "$hz" ||
	fail "-S: the group's CPU seconds are $(cat "$tmp/cpu"), want the own $((ut + st)) ticks / $hz"
finish
