#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_replay_timeline.sh: the replay's timeline (top and htop have no
# counterpart), driven in tmux: under the header, the first frame's time, a
# bar with a mark, the last frame's time, as wide as the terminal. The mark
# stands where the frame shown is between the first and last frames' times,
# as the recording's JSON dump has them: on the last frame at start, the
# first after Home, and it moves with atop's t (a frame forward) and T (a
# frame back), ] and [, and g HH:MM:SS (the first frame at or after it).
# At 80 columns with --no-unicode it is drawn in ASCII, End at its end.

NAME=test_replay_timeline
WAIT_SECONDS=30
. "${srcdir:-.}/tests/tmux-lib.sh"
need_tmux
need_python "to read the recording's times"

"$PTOP" --record "$tmp/r.rec" -d 0.3 -n 8 || fail "recording exited $?"
TZ=UTC "$PTOP" -r "$tmp/r.rec" -b -o json >"$tmp/dump.json" || fail "dump exited $?"
[ "$(wc -l <"$tmp/dump.json")" -eq 8 ] || fail "the recording is not 8 frames"

tm_env
TZ=UTC
export TZ

# at N [COLS]: the header says frame N/8 (where it has room) and the timeline's mark is where
# frame N's time is between the first and last frames' (the dump's, to the
# millisecond: half a cell either way, and a little), the line COLS wide
at() {
	screen | "$PYTHON" -c '
import calendar, json, re, sys, time
n, cols = int(sys.argv[2]), int(sys.argv[3])
def secs(x):
    return calendar.timegm(time.strptime(x[:19], "%Y-%m-%dT%H:%M:%S")) + float(x[19:-1] or 0)
t = [secs(json.loads(l)["time"]) for l in open(sys.argv[1])]
hms = lambda s: time.strftime("%H:%M:%S", time.gmtime(int(s)))
screen = sys.stdin.read().splitlines()
# the note in the header is cut off at 80 columns: the mark alone tells there
assert cols < 100 or any(re.search(r"\[replay [0-9-]+, frame %d/%d\]" % (n, len(t)), l) for l in screen), "not frame %d" % n
line = [l for l in screen if l.startswith(hms(t[0]) + " [") and l.endswith("] " + hms(t[-1]))]
assert len(line) == 1, "no timeline from %s to %s" % (hms(t[0]), hms(t[-1]))
line = line[0]
bar = line[len(hms(t[0])) + 2 : -len(hms(t[-1])) - 2]
marks = [i for i, c in enumerate(bar) if c in "\u25cf|"]
assert len(line) == cols and len(marks) == 1, (len(line), marks, line)
want = (t[n - 1] - t[0]) / (t[-1] - t[0]) * (len(bar) - 1)
assert abs(marks[0] - want) <= 0.65, "the mark at %d, frame %d at %.2f of %d" % (marks[0], n, want, len(bar))
before, after = set(bar[: marks[0]]), set(bar[marks[0] + 1 :])
assert before <= set("\u2501=") and after <= set("\u2500-"), line
' "$tmp/dump.json" "$1" "${2:-160}" 2>"$tmp/at.err"
}
expect_at() { # N [COLS]
	wait_for at "$@" || fail "the timeline on frame $1: $(tail -n 1 "$tmp/at.err")"
}

tm_run "$PTOP" -r "$tmp/r.rec"
expect_at 8
keys Home
expect_at 1
keys t
expect_at 2
keys t t t
expect_at 5
keys T
expect_at 4
keys ']'
expect_at 5
keys '['
expect_at 4

# g: the first frame at or after a whole second that lies within the recording
want=$("$PYTHON" - "$tmp/dump.json" <<'EOF'
import json, sys
t = [json.loads(l)["time"] for l in open(sys.argv[1])]
for k in range(1, len(t)):
    sec = t[k][11:19]
    if t[0][11:19] < sec:
        n = min(i for i, x in enumerate(t) if x[11:23] >= sec + ".000")
        print("%s %d" % (sec, n + 1))
        break
EOF
)
[ -n "$want" ] || fail "no whole second within the recording"
keys g
expect 'Go to \(HH:MM'
keys -l "${want% *}"
keys Enter
expect_at "${want#* }"
keys End
expect_at 8
keys q
wait_for test -s "$tmp/status" || fail "ptop did not quit"

# 80 columns, ASCII
TM_COLS=80 tm_start ascii "$PTOP" -r "$tmp/r.rec" --no-unicode
expect_at 8 80
keys Home
expect_at 1 80
keys t
expect_at 2 80
keys q
wait_for test -s "$tmp/status" || fail "ptop did not quit"
finish
