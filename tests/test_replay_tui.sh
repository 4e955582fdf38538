#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_replay_tui.sh: the viewer on a recording (ptop -r FILE), driven in a
# private tmux server, each step checked on the screen against the recording's
# JSON dump. The recording has a process with a name nothing else has in its
# first frames and not in its last. ptop opens on the last frame with
# "replay" and the frame number in the header and the travel keys in the
# footer; with a filter for that name, Home travels back to where it is, ]
# and [ step, End returns to where it is gone, { goes back a minute, g goes
# to the first frame at or after a typed time (HH:MM:SS, and a whole date)
# as the dump says; sorting by PID and its reverse order the rows. Back in the first frame: the header
# shows its recorded time; F6 sorts by RES and R inverts it, in the dump's
# order; F4 filters; / searches, in the tree (F5) too, where the process sits
# under its parent; the column chooser adds PPID (the dump's) and removes
# USER; the Cost line's share is the recorded frame's; the help lists the
# travel keys first. k, r, F7, F8, D, Del, e, d and H are refused with a
# message; the Counters pane shows the recorded counters and the Breakpoints
# pane says none were recorded; q quits with status 0. On a recording of
# frames 2 s apart, g to a second between two frames lands on the later one
# (its time in the header), as atop's b does. On a file that is not
# a recording the viewer does not start: ptop says why, with status 1.

NAME=test_replay_tui
. "${srcdir:-.}/tests/tmux-lib.sh"
need_tmux
WAIT_SECONDS=30
need python3 "to read the recording's times"

victim_pid=
slow_pid=
at_exit() {
	[ -z "$victim_pid" ] || kill -KILL "$victim_pid" 2>/dev/null
	[ -z "$slow_pid" ] || kill -KILL "$slow_pid" 2>/dev/null
}

# 3 frames 2 s apart, for g between two frames, recorded meanwhile
"$PTOP" --record "$tmp/slow.rec" -d 2 -n 3 2>"$tmp/slow.err" &
slow_pid=$!

# 6 frames with the victim, 4 without it
victim=$(printf 'ptreplay%07d' $$)
cp "$(command -v sleep)" "$tmp/$victim" || exit 1
"$tmp/$victim" 600 &
victim_pid=$!
victim_pid_rec=$victim_pid
"$PTOP" --record "$tmp/r.rec" -d 0.2 -n 6 --counters 2>/dev/null || fail "recording exited $?"
kill "$victim_pid"
wait "$victim_pid" 2>/dev/null
victim_pid=
"$PTOP" --record "$tmp/r.rec" -d 0.3 -n 4 || fail "appending exited $?"
TZ=UTC "$PTOP" -r "$tmp/r.rec" -b -o json >"$tmp/dump.json" || fail "dump exited $?"
[ "$(wc -l <"$tmp/dump.json")" -eq 10 ] || fail "the recording is not 10 frames"

tm_env
# LC_ALL, not LANG: an LC_CTYPE (or other LC_*) from the caller's
# environment would win over LANG, and a non-UTF-8 one draws the sort
# arrow in ASCII
LC_ALL=C.UTF-8
TZ=UTC
export TZ
# without colours the selected row is in reverse video, which the search checks
NO_COLOR=1
export NO_COLOR

# the header in one column: top's first line carries the replay's place
mkdir -p "$XDG_CONFIG_HOME/ptop"
echo "$one_column_meters" >"$XDG_CONFIG_HOME/ptop/ptoprc"
tm_run "$PTOP" -r "$tmp/r.rec"

expect '^ptop - .*\[replay [0-9-]+, frame 10/10\]'
expect '^ *PID +USER +PRI +NI +VIRT +RES +SHR +S +CPU%(▲|▼)? *MEM% +TIME\+ +Command'
expect 'tTFrame.*\{\}Minute.*gGoTo.*Home/EndEnds'

# the filter, on the last frame: the victim is gone
keys -l '\'
expect 'Filter: _'
keys -l "$victim"
keys Enter
no_rows() { [ -z "$(table_rows)" ]; }
wait_for no_rows || fail "$victim should not be in the last frame"
victim_row() { table_rows | grep -Eq " $victim\$"; }

# Home: the first frame, the victim there
keys Home
expect 'frame 1/10\]'
wait_for victim_row || fail "$victim should be in frame 1"
keys ']'
expect 'frame 2/10\]'
keys ']' ']' ']' ']'
expect 'frame 6/10\]'
wait_for victim_row || fail "$victim should be in frame 6"
keys ']'
expect 'frame 7/10\]'
wait_for no_rows || fail "$victim should be gone in frame 7"
keys '['
expect 'frame 6/10\]'
keys End
expect 'frame 10/10\]'
wait_for no_rows || fail "$victim should be gone in frame 10"
# a minute back from the end of a recording of seconds: its first frame
keys '{'
expect 'frame 1/10\]'
wait_for victim_row || fail "{ should go back to $victim"
keys '}'
expect 'frame 10/10\]'

# g: a time typed as HH:MM:SS goes to the first frame at or after it
want=$(python3 - "$tmp/dump.json" <<'EOF'
import json, sys
t = [json.loads(l)["time"] for l in open(sys.argv[1])]
# the second of frame 8: the first frame at or after that second's start
sec = t[7][11:19]
n = min([i for i, x in enumerate(t) if x[11:23] >= sec + ".000"])
print("%s %d" % (sec, n + 1))
EOF
)
keys g
expect 'Go to \(HH:MM'
keys -l "${want% *}"
keys Enter
expect "frame ${want#* }/10\\]"

# sorting: by PID up, then reversed, without the filter
keys -l '\'
expect 'Filter: '
keys Escape
# the filter let the victim alone through: every process of the frame is back
unfiltered() { [ "$(table_rows | wc -l)" -gt 1 ] && off_screen '\[filter: '; }
wait_for unfiltered || fail "Esc should clear the filter"
pids_sorted() { # up|down
	table_rows | awk -v dir="$1" '{ if (NR > 1 && ((dir == "up" && $1 < last) ||
		(dir == "down" && $1 > last))) bad = 1; last = $1 } END { exit bad || NR < 3 }'
}
keys N
wait_for pids_sorted up || fail "N should sort by PID up"
keys R
wait_for pids_sorted down || fail "R should reverse the order"

# actions on live processes are refused
keys k
expect 'Replaying a recording: its processes cannot be signalled'

# the Counters pane shows what was recorded (where this machine could count)
if grep -q '"counters":{"events"' "$tmp/dump.json"; then
	keys End Home 2
	expect '^counters: .*[0-9]+ attached'
	off_screen 'perf events are not available' || fail "the replay's counters are not shown"
	keys 1
fi

# ---- the first frame, looked at as live ----
# dump QUERY ARGS...: what the JSON dump says
dump() {
	python3 - "$tmp/dump.json" "$@" <<'EOF'
import json, sys
q, args = sys.argv[2], sys.argv[3:]
# frame N only: on a machine of thousands of processes the whole dump is
# gigabytes as Python objects, and this runs at every poll of a wait
with open(sys.argv[1]) as lines:
    frame = json.loads(next(l for i, l in enumerate(lines, 1) if i == int(args[0])))
if q == "time":  # N: the frame's HH:MM:SS
    print(frame["time"][11:19])
elif q == "ppid":  # N PID
    print(next(p["ppid"] for p in frame["processes"] if p["pid"] == int(args[1])))
elif q == "sorted":  # N KEY up|down PID...: the PIDs in that order, the first the extreme
    procs = {p["pid"]: p[args[1]] for p in frame["processes"]}
    vals = [procs[int(pid)] for pid in args[3:]]
    want = sorted(vals, reverse=args[2] == "down")
    ext = (min if args[2] == "up" else max)(procs.values())
    sys.exit(0 if len(vals) >= 3 and vals == want and vals[0] == ext else 1)
elif q == "share":  # N SHOWN: the Cost line's share is the recorded one
    f = frame
    want = f["cost"]["cpu_ms"] / (f["interval_s"] * 1000) * 100
    sys.exit(0 if abs(float(args[1]) - want) <= 0.1 else 1)
EOF
}
# column TITLE: the field number of TITLE in the heading (values have no spaces but
# COMMAND's); the sort arrow may take the space after a title
column() {
	screen | grep -E '^ *PID(▲|▼)?( |[A-Z]).*(COMMAND|Command)' | head -n 1 | sed 's/[▲▼]/ /' |
		awk -v t="$1" '{ for (i = 1; i <= NF; i++) if ($i == t) print i }'
}
screen_pids() {
	table_rows | awk '{ print $1 }' | tr '\n' ' '
}
rows_sorted() { # KEY up|down
	# shellcheck disable=SC2046
	dump sorted 1 "$1" "$2" $(screen_pids)
}
# victim_selected: the victim's row is in reverse video (the pane bar's current pane is too)
# (reverse video, then maybe colours reset before the PID, as tmux writes a tree's row)
victim_selected() {
	tm capture-pane -p -e -t "$session" |
		grep -Eq "\\[([0-9]+;)*7m($(printf '\033')\\[[0-9;]*m)* *[0-9]+ .* $victim"
}

keys Home
expect 'frame 1/10\]'
expect "^ptop - $(dump time 1) .*\\[replay "
keys ']'
expect 'frame 2/10\]'
expect "^ptop - $(dump time 2) .*\\[replay "
share_right() {
	share=$(screen | sed -n 's/^Cost: .* \([0-9.]*\)% CPU;.*/\1/p')
	[ -n "$share" ] && dump share 2 "$share"
}
wait_for share_right || fail "the Cost line's share should be frame 2's recorded one"
keys Home
expect 'frame 1/10\]'

# F6: sort by RES (found in the menu by its place among the headings), R inverts
res=$(column RES)
[ -n "$res" ] || fail "no RES column"
keys F6
expect 'Sort by:'
keys Home
i=1
while [ "$i" -lt "$res" ]; do
	keys Down
	i=$((i + 1))
done
keys Enter
expect '^ *PID +USER .* RES▼ '
# the selection stays on its process, wherever it sorts now: page up to the top
# (Home is the first frame in a replay; a busy machine may have thousands of processes)
keys -N 200 PPage
wait_for rows_sorted rss_kb down || fail "F6 RES: the rows are not frame 1's by RES, largest first"
keys R
expect '^ *PID +USER .* RES▲ '
keys -N 200 PPage
wait_for rows_sorted rss_kb up || fail "R: the rows are not frame 1's by RES, smallest first"

# F4: the filter, and the victim alone
keys F4
expect 'Filter: _'
keys -l "$victim"
keys Enter
only_victim() { [ "$(table_rows | wc -l)" -eq 1 ] && victim_row; }
wait_for only_victim || fail "F4 $victim should leave its row alone in frame 1"

# the column chooser: PPID added (the recorded parent), USER removed
keys C
expect '^Columns: '
choose() { # TITLE: select the chooser's row of TITLE and toggle it
	at=$(screen | awk -v t="$1" 'NR > 2 && $0 ~ ("^ \\[.\\] " t " ") { print NR - 3; exit }')
	[ -n "$at" ] || fail "no $1 in the column chooser"
	keys Home
	while [ "$at" -gt 0 ]; do
		keys Down
		at=$((at - 1))
	done
	keys Space
}
choose PPID
wait_for on_screen '^ \[x\] PPID ' || fail "Space should show PPID"
choose USER
wait_for on_screen '^ \[ \] USER ' || fail "Space should hide USER"
keys Enter
ppid=$(dump ppid 1 "$victim_pid_rec")
ppid_right() {
	c=$(column PPID)
	[ -n "$c" ] && [ -z "$(column USER)" ] &&
		table_rows | awk -v c="$c" -v want="$ppid" '{ exit $c != want }'
}
wait_for ppid_right || fail "PPID should show $ppid for $victim, USER be gone"

# /: the search selects the victim among every row; in the tree too, under its parent
keys F4
expect 'Filter: '
keys Escape
wait_for off_screen '\[filter: ' || fail "Esc should clear the filter"
keys /
expect 'Search: _'
keys -l "$victim"
keys Enter
wait_for victim_selected || fail "/ should select $victim"
# the tree keeps the selected row's place, not its process (as live): search again
# (F5: in a replay t is atop's, a frame forward)
keys F5
keys / C-u
keys -l "$victim"
keys Enter
wait_for victim_selected || fail "/ in the tree should select $victim"
# its parent at most three rows above it (its siblings are the two recorders,
# in CPU% order, which load changes): in view
keys Up Up Up
in_tree() {
	screen | awk -v v="$victim" -v pp="$ppid" '
		/^ *PID / { t = 1; next }
		t && $1 == pp { parent = 1 }
		t && parent && $0 ~ ("[|`]- " v "$") { found = 1 }
		END { exit !found }'
}
wait_for in_tree || fail "F5: $victim should be a branch under $ppid"
keys F5

# the help lists the travel keys first
keys h
expect '^ \[ \] +Replay: one frame back, one forward'
keys Escape

# what acts on live processes, or asks the frame source for other frames, is refused
refused() { # KEY PATTERN
	keys Z
	expect 'travel with t T \[ \] \{ \} g Home End'
	keys "$1"
	expect "$2"
}
for k in r F7 F8 D DC; do
	refused "$k" 'Replaying a recording: its processes cannot be signalled'
done
refused e 'Replaying a recording: its processes cannot be inspected'
refused H 'Replaying a recording of processes: it holds no threads'
keys d
expect 'travel with t T \[ \] \{ \} g Home End'

# a whole date and time goes to the frame the dump says, too
want=$(python3 - "$tmp/dump.json" <<'EOF'
import json, sys
t = [json.loads(l)["time"] for l in open(sys.argv[1])]
sec = t[2][:19].replace("T", " ")
n = min([i for i, x in enumerate(t) if x[:19].replace("T", " ") + x[19:23] >= sec + ".000"])
print("%s|%d" % (sec, n + 1))
EOF
)
keys g
expect 'Go to \(HH:MM'
keys -l "${want%|*}"
keys Enter
expect "frame ${want#*|}/10\\]"

# the Breakpoints pane: none were recorded
keys 3
expect 'No breakpoints in this frame of the recording'
keys 1

keys q
wait_for test -s "$tmp/status" || fail "ptop did not quit"
[ "$(cat "$tmp/status")" = 0 ] || fail "ptop exited with $(cat "$tmp/status")"

# g to a second between two frames 2 s apart: the later frame, as atop's b
wait "$slow_pid" || fail "recording frames 2 s apart exited $?: $(cat "$tmp/slow.err")"
slow_pid=
TZ=UTC "$PTOP" -r "$tmp/slow.rec" -b -o json >"$tmp/slow.json" || fail "dump exited $?"
# the first whole second between two frames: it, the later frame, that frame's time
want=$(python3 - "$tmp/slow.json" <<'EOF'
import calendar, json, sys, time
t = [json.loads(l)["time"] for l in open(sys.argv[1])]
s = [calendar.timegm(time.strptime(x[:19], "%Y-%m-%dT%H:%M:%S")) + float(x[19:-1] or 0) for x in t]
for i in range(len(s) - 1):
    sec = int(s[i]) + 1
    if s[i] < sec < s[i + 1]:
        print("%s %d %s" % (time.strftime("%H:%M:%S", time.gmtime(sec)), i + 2, t[i + 1][11:19]))
        break
EOF
)
[ -n "$want" ] || fail "no whole second between two frames: $(cat "$tmp/slow.json")"
# shellcheck disable=SC2086 # three words
set -- $want
tm_new_server
tm_run "$PTOP" -r "$tmp/slow.rec"
expect 'frame 3/3\]'
keys g
expect 'Go to \(HH:MM'
keys -l "$1"
keys Enter
expect "^ptop - $3 .*\\[replay [0-9-]+, frame $2/3\\]"
keys q
wait_for test -s "$tmp/status" || fail "ptop did not quit"

# a file that is not a recording: the viewer does not start; ptop says why, status 1
echo 'not a recording' >"$tmp/not.rec"
rm -f "$tmp/status"
tm_new_server
tm new-session -d -s "$session" -x 160 -y 48 \
	sh -c '"$PTOP" -r "$1/not.rec" 2>"$1/err"; echo $? > "$1/status"' sh "$tmp" ||
	fail "tmux cannot start a session"
wait_for test -s "$tmp/status" || fail "ptop -r on a file that is not a recording did not end"
[ "$(cat "$tmp/status")" = 1 ] && grep -q '^ptop: .*not.rec: not a ptop recording' "$tmp/err" ||
	fail "ptop -r not.rec: status $(cat "$tmp/status"), $(cat "$tmp/err")"
finish
