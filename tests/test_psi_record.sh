#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_psi_record.sh: the machine's pressure kept in a recording (format
# version 6). ptop -b --record records three frames; replayed as JSON each
# has its psi object, and the viewer's PSI meters on the replay show one of
# the recorded frames' averages (some, and full for memory and I/O), driven
# in tmux. A recording from before version 6 replays with "not recorded" in
# the meters and no psi object. (htop neither records nor replays.) Skips
# (77) where the kernel has no PSI. make check sets PTOP, srcdir, TMUX_BIN.

NAME=test_psi_record
WAIT_SECONDS=30
. "${srcdir:-.}/tests/tmux-lib.sh"
need_tmux
tm_env
need_python "to read the JSON"
cat /proc/pressure/cpu /proc/pressure/memory /proc/pressure/io >/dev/null 2>&1 ||
	skip "no pressure stall information here (/proc/pressure: CONFIG_PSI, psi=1)"

"$PTOP" -b -n 3 -d 0.3 --record "$tmp/r.rec" >/dev/null 2>"$tmp/err" ||
	die "ptop --record failed: $(cat "$tmp/err")"
"$PTOP" -r "$tmp/r.rec" -b -o json >"$tmp/replay.json" 2>"$tmp/err" ||
	die "replaying as JSON failed: $(cat "$tmp/err")"
# the meters' lines each recorded frame gives, one a line in $tmp/want
"$PYTHON" - "$tmp/replay.json" >"$tmp/want" <<'EOF' || fail "a replayed frame without its pressure"
import json, sys
frames = [json.loads(l) for l in open(sys.argv[1])]
assert len(frames) == 3, len(frames)
def avgs(l):
    return " ".join("%6.2f%%" % l[k] for k in ("avg10", "avg60", "avg300"))
for f in frames:
    psi = f["psi"]
    for r in ("cpu", "memory", "io"):
        line = "some " + avgs(psi[r]["some"])
        if r != "cpu" and "full" in psi[r]:
            line += "   full " + avgs(psi[r]["full"])
        print(r, line)
EOF

mkdir -p "$XDG_CONFIG_HOME/ptop"
echo 'meters = uptime,psi_cpu,psi_memory,psi_io' >"$XDG_CONFIG_HOME/ptop/ptoprc"
tm_start replay "$PTOP" -r "$tmp/r.rec"
expect '^PSI CPU: +some '
expect '^PSI I/O: +some '
# recorded: the screen's lines are one frame's
recorded() {
	screen | sed -n 's/^PSI CPU: *\(some.*\)$/cpu \1/p; s/^PSI memory: *\(some.*\)$/memory \1/p
		s/^PSI I\/O: *\(some.*\)$/io \1/p' | sed 's/  */ /g' >"$tmp/got"
	[ "$(wc -l <"$tmp/got")" -eq 3 ] || return 1
	sed 's/  */ /g' "$tmp/want" >"$tmp/want1"
	while read -r line; do
		grep -qxF "$line" "$tmp/want1" || return 1
	done <"$tmp/got"
}
wait_for recorded || fail "the replay's PSI meters are no recorded frame's: $(cat "$tmp/got")"
keys q

# a recording of format version 2: its frames have no pressure
tm_start old "$PTOP" -r "$srcdir/tests/fixtures/record/v2.rec"
expect '^PSI CPU: +not recorded'
expect '^PSI memory: +not recorded'
keys q
"$PTOP" -r "$srcdir/tests/fixtures/record/v2.rec" -b -o json 2>/dev/null | head -n 1 |
	grep -q '"psi"' && fail "a version 2 frame replayed with a psi object"
finish
