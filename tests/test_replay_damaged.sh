#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_replay_damaged.sh: the viewer on a damaged recording, driven in a
# private tmux server. The recording is tests/fixtures/record/v2.rec (65
# frames one second apart, keyframes 1 and 61 as the viewer numbers them)
# with a bit flipped in the data of frame 21 (frames 21 to 60 do not read)
# and one in the head of frame 64 (64 and 65 do not). ptop opens on the last
# frame that reads, 63, shows its rows and names the damage on the status
# line; [ goes back across frames 21 to 60 to frame 20 and ] forward across
# them to 61, each saying which frames it skipped and which is damaged; End
# stays on 63 saying no frame after it reads; Home goes to frame 1; g to a
# time in the damage lands on the first frame after it that reads (61); }
# goes a minute forward to 63; q quits with status 0. Between two steps that would say the same,
# k puts another message on the status line.

NAME=test_replay_damaged
. "${srcdir:-.}/tests/tmux-lib.sh"
need_tmux
need_python "to damage a recording"
WAIT_SECONDS=30

"$PYTHON" - "$srcdir/tests/fixtures/record/v2.rec" "$tmp/d.rec" <<'EOF' || die "cannot damage v2.rec"
import struct, sys
b = bytearray(open(sys.argv[1], "rb").read())
off, at = [], 256
while at < len(b):
    off.append(at)
    at += 48 + struct.unpack_from("<I", b, at + 4)[0]
assert len(off) == 65, len(off)
b[off[20] + 48 + 3] ^= 0x20  # frame 21's data
b[off[63] + 20] ^= 0x01  # frame 64's head (its number)
open(sys.argv[2], "wb").write(b)
EOF

tm_env
TZ=UTC
export TZ
tm_run "$PTOP" -r "$tmp/d.rec"

# other: a message of its own on the status line, so that the next is seen anew
other() {
	keys k
	expect 'Replaying a recording: its processes cannot be signalled'
}
shows_rows() { table_rows | grep -q ' systemd$'; }

# the last frame that reads, its rows, and the damage named
expect '\[replay 2025-12-02, frame 63/65\]'
expect '^Skipped frames 64 to 65: frame 64 is damaged \(bad frame head\)'
wait_for shows_rows || fail "the viewer shows no rows of frame 63"

# [ across the damage: frame 20, then ] back across it: frame 61
keys '[' '['
expect 'frame 61/65\]'
other
keys '['
expect 'frame 20/65\]'
expect '^Skipped frames 21 to 60: frame 21 is damaged \(checksum mismatch\)'
wait_for shows_rows || fail "the viewer shows no rows of frame 20"
other
keys ']'
expect 'frame 61/65\]'
expect '^Skipped frames 21 to 60: frame 21 is damaged \(checksum mismatch\)'

# End: the last frames do not read, the viewer stays on the last that does
other
keys End
expect '^No frame after frame 63 reads: frame 64 is damaged \(bad frame head\)'
expect 'frame 63/65\]'
keys Home
expect 'frame 1/65\]'
wait_for shows_rows || fail "the viewer shows no rows of frame 1"

# g: 14:41:21 is frame 41's second, before its time: frame 41, in the damage
keys g
expect 'Go to \(HH:MM'
keys -l '14:41:21'
keys Enter
expect 'frame 61/65\]'
expect '^Skipped frames 41 to 60: frame 21 is damaged \(checksum mismatch\)'
# } a minute on: past the damage, to the last frame that reads
keys '}'
expect 'frame 63/65\]'
wait_for shows_rows || fail "the viewer shows no rows of frame 63"

keys q
wait_for test -s "$tmp/status" || fail "ptop did not quit"
[ "$(cat "$tmp/status")" = 0 ] || fail "ptop exited with $(cat "$tmp/status")"
finish
