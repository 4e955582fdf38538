#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_counters_sort.sh: the Counters pane as a first-time user meets it. A
# busy child (a shell loop) and an idle one (sleep) are shown with ptop -p in
# a private tmux server; on the Counters pane their rows say "counting…"
# until a whole interval is counted, then task-clock in ms; `>` sorts by the
# first counter (task-clock, as the status line says), R reverses it, and
# the rows follow the counts, not %CPU; a click on the TCLK% or SCALE heading
# sorts by that column and < > move over them too; F6 lists the counters by
# name; the figures that need a PMU are not columns of '-' where there is
# none. In batch, -s ctr1 sorts by the first counter too, -s and --fields
# take the derived figures (IPC '-' and JSON's null, never 0, where cycles
# are not counted), and the processes over --counter-budget are named as
# such. The Processes pane counts too while it shows a counter column. Skips (77) without tmux or where perf
# events cannot be opened at all.

NAME=test_counters_sort
. "${srcdir:-.}/tests/tmux-lib.sh"
need_tmux
tm_env
WAIT_SECONDS=30

sh -c 'while :; do :; done' &
busy=$!
sleep 1000 &
idle=$!
kids="$busy $idle"
# the busy child has run when the kernel has counted it a tick
has_run() { [ "$(awk '{ print $14 + $15 }' "/proc/$1/stat")" -gt 0 ]; }
wait_for has_run "$busy" || fail "the busy child never ran"

"$PTOP" -b -n 1 --counters=task-clock -p "$busy" >"$tmp/probe" 2>&1 ||
	skip "no perf events here: $(cat "$tmp/probe")"

# ---- batch: -s ctr1 and the budget ----
"$PTOP" -b -n 2 -d 0.5 --counters=task-clock,context-switches -s ctr1 -o json \
	-p "$idle,$busy" >"$tmp/json" 2>"$tmp/err" || fail "-s ctr1 exited $?: $(cat "$tmp/err")"
python3 - "$tmp/json" "$busy" "$idle" <<'PY' || fail "-s ctr1: $(tail -n 1 "$tmp/json")"
import json, sys
f = [json.loads(l) for l in open(sys.argv[1])][-1]
order = [p["pid"] for p in f["processes"]]
clock = [p["counters"]["task-clock"] for p in f["processes"]]
assert order == [int(sys.argv[2]), int(sys.argv[3])], (order, clock)
assert clock == sorted(clock, reverse=True), clock
PY
# the derived figures are columns: -s and --fields take them, JSON has them, and
# where the events a figure needs are not counted (no PMU: no cycles) it is
# unknown, never 0
"$PTOP" -b -n 2 -d 0.5 --counters=task-clock,cycles,instructions -s ctr_cpu -o json \
	--fields pid,ipc,cache_mpki,branch_mpki,ctr_cpu,scale,command \
	-p "$idle,$busy" >"$tmp/json" 2>"$tmp/err" || fail "-s ctr_cpu exited $?: $(cat "$tmp/err")"
python3 - "$tmp/json" "$busy" "$idle" <<'PY' || fail "-s ctr_cpu: $(tail -n 1 "$tmp/json")"
import json, sys
f = [json.loads(l) for l in open(sys.argv[1])][-1]
rows = f["processes"]
assert [p["pid"] for p in rows] == [int(sys.argv[2]), int(sys.argv[3])], rows
assert rows[0]["ctr_cpu_pct"] > rows[1]["ctr_cpu_pct"], rows
for p in rows:
    assert p["ctr_scale"] > 0, p
    if p["counters"]["source"] != "hardware" or "cycles" not in p["counters"]:
        assert p["ipc"] is None, p
        assert p["cache_mpki"] is None and p["branch_mpki"] is None, p
busy = rows[0]
if busy["counters"].get("cycles"):
    assert busy["ipc"] > 0, busy
PY
"$PTOP" -b -n 2 -d 0.5 --counters=task-clock -s ipc --fields pid,ipc,ctr_cpu,scale,command \
	-p "$idle,$busy" >"$tmp/text" 2>"$tmp/err" || fail "-s ipc exited $?: $(cat "$tmp/err")"
grep -Eq "^ *PID +IPC +TCLK% +SCALE COMMAND" "$tmp/text" || fail "--fields ipc: $(cat "$tmp/text")"
grep -Eq "^ *$busy +- +[0-9.]+ +1\.00 " "$tmp/text" ||
	fail "IPC without cycles counted is not '-': $(grep -E "^ *$busy " "$tmp/text")"
"$PTOP" -b -n 1 --counters=task-clock --counter-budget 1 -p "$idle,$busy" >"$tmp/text" 2>&1 ||
	fail "--counter-budget 1 exited $?"
grep -q "1 not attached (1 over the budget of 1, --counter-budget)" "$tmp/text" ||
	fail "the text does not say why a process is not attached: $(grep Counters "$tmp/text")"

# ---- the pane ----
# top's keys: < and > move the sort column (htop's open the sort menu, F6 below)
mkdir -p "$XDG_CONFIG_HOME/ptop" && echo "keys = top" >"$XDG_CONFIG_HOME/ptop/ptoprc"
TM_LINES=30
tm_run "$PTOP" -d 0.5 -p "$busy,$idle"
expect '^ *PID +USER'
keys 2
# attached during an interval: no figure that is not one
expect "^ *$busy +counting… "
expect "^ *PID +~?task-clock "
expect "^ *$busy +[0-9.]+ms "
if off_screen 'counters: hardware'; then
	expect 'IPC, misses per kilo-instruction: n/a: no PMU'
	off_screen '^ *PID .* IPC ' || fail "a column of IPC without a PMU"
fi

row_of() { screen | grep -nE "^ *$1 " | head -n 1 | cut -d: -f1; }
busy_above() { [ "$(row_of "$busy")" -lt "$(row_of "$idle")" ]; }
idle_above() { [ "$(row_of "$idle")" -lt "$(row_of "$busy")" ]; }

keys '>'
expect 'Sorted by task-clock'
wait_for busy_above || fail "sorted by task-clock, the busy child is not above the idle one"
keys R
wait_for idle_above || fail "task-clock reversed, the idle child is not above the busy one"

# the pane is a screen of the same columns: TCLK% (from task-clock) and SCALE
# sort from a click on their headings, and < > move over them too
# the headings, the sort mark (one column, three bytes in UTF-8) as one byte
heading_line() { screen | sed -e 's/▲/^/' -e 's/▼/^/' | grep -nE '^ *PID.* SCALE COMMAND' | head -n 1; }
click_heading() { # click_heading TITLE: xterm's reports of a press and a release on it
	line=$(heading_line)
	y=$((${line%%:*} - 1))
	x=$(printf '%s\n' "${line#*:}" | awk -v t="$1" '{ print index($0, t) - 1 }')
	[ "$x" -ge 0 ] || fail "no heading $1"
	tm send-keys -t "$session" -l "$(awk -v x="$x" -v y="$y" \
		'BEGIN { printf "\033[M %c%c\033[M#%c%c", x + 33, y + 33, x + 33, y + 33 }')"
}
expect '^ *PID.* TCLK% +SCALE COMMAND'
click_heading 'TCLK%'
expect 'Sorted by TCLK%'
wait_for busy_above || fail "sorted by TCLK%, the busy child is not above the idle one"
click_heading SCALE
expect 'Sorted by SCALE'
expect "^ *$busy .* 1\.00 +sh"
keys '<'
expect 'Sorted by TCLK%'
keys '>'
expect 'Sorted by SCALE'
keys F6
expect 'Sort by:'
expect 'context-switches'
keys Escape
keys q

# ---- the Processes pane: the same columns, counted while it shows them ----
printf 'keys = top\ncolumns = pid,ctr1,ctr_cpu,scale,ipc,command\nsort = ctr_cpu\n' \
	>"$XDG_CONFIG_HOME/ptop/ptoprc"
tm_new_server
tm_run "$PTOP" -d 0.5 -p "$busy,$idle"
expect '^ *PID +task-clock +TCLK%'
expect "^ *$busy +[0-9.]+ms +[0-9.]+ +1\.00 +[-0-9.]+ sh"
wait_for busy_above || fail "sorted by TCLK% on the Processes pane, the busy child is not first"
if ! "$PTOP" -b -n 1 -o json --counters -p "$idle" 2>/dev/null | grep -q '"source":"hardware"'; then
	# no PMU here: no cycles, so no IPC, and never a 0 for it
	expect "^ *$idle +[0-9.]+ms +[0-9.]+ +1\.00 +- sleep"
fi
keys q
finish
