#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_replay_tui.sh: the viewer on a recording (ptop -r FILE), driven in a
# private tmux server. The recording has a process with a name nothing else
# has in its first frames and not in its last. ptop opens on the last frame
# with "replay" and the frame number in the header and the travel keys in the
# footer; with a filter for that name, Home travels back to where it is, ]
# and [ step, End returns to where it is gone, { goes back a minute, g goes
# to a typed time (the frame the JSON dump says); sorting by PID and its
# reverse order the rows; the Counters pane shows the recorded counters; k is refused with a message; q quits with status 0.

NAME=test_replay_tui
. "${srcdir:-.}/tests/tmux-lib.sh"
need_tmux
WAIT_SECONDS=30
need python3 "to read the recording's times"

victim_pid=
at_exit() {
	[ -z "$victim_pid" ] || kill -KILL "$victim_pid" 2>/dev/null
}

# 6 frames with the victim, 4 without it
victim=$(printf 'ptreplay%07d' $$)
cp "$(command -v sleep)" "$tmp/$victim" || exit 1
"$tmp/$victim" 600 &
victim_pid=$!
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

tm_run "$PTOP" -r "$tmp/r.rec"

expect '^ptop - .*\[replay [0-9-]+, frame 10/10\]'
expect '^ *PID +USER +PR +NI +VIRT +RES +SHR +S +%CPU(▲|▼)? *%MEM +TIME\+ +COMMAND'
expect '\[\]Frame.*\{\}Minute.*gGoTo.*Home/EndEnds'

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

# g: a time typed as HH:MM:SS goes to the last frame at or before it
want=$(python3 - "$tmp/dump.json" <<'EOF'
import json, sys
t = [json.loads(l)["time"] for l in open(sys.argv[1])]
# the second of frame 8: the last frame at or before that second's start
sec = t[7][11:19]
n = max([i for i, x in enumerate(t) if x[11:23] <= sec + ".000"] or [0])
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

keys q
wait_for test -s "$tmp/status" || fail "ptop did not quit"
[ "$(cat "$tmp/status")" = 0 ] || fail "ptop exited with $(cat "$tmp/status")"
finish
