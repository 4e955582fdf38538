#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_record_crash.sh: what a recording survives. A recorder killed with
# SIGKILL leaves a file that replays to its last frame (also with a frame cut
# in the middle, as a kill during a write leaves it) and that the next
# --record appends to; a full disk (a small tmpfs: skipped where mounting is
# not permitted) ends the recorder with "No space left on device" and status
# 1 and leaves a file that replays whole; a corrupt byte in a frame is
# skipped to the next keyframe, every intact frame printed, then one line
# naming it and counting those skipped, status 1, and so is a damaged
# keyframe head (the chain of keyframes broken); a torn tail is told,
# unless a recorder holds the file. Waits end on what they wait for, DEADLINE seconds at most.
set -eu

# ptop_st OUT ERR ARGS...: ptop ARGS, its output in OUT and its errors in
# ERR, its exit status in $st (set -e stays as it was for the rest)
ptop_st() {
	out=$1
	err=$2
	shift 2
	set +e
	"$PTOP" "$@" >"$out" 2>"$err"
	st=$?
	set -e
}

NAME=test_record_crash
. "${srcdir:-.}/tests/lib.sh"
need_python "to edit recordings"

mounted=
at_exit() {
	[ -z "$mounted" ] || umount "$tmp/full" 2>/dev/null
}

frames() {
	"$PTOP" -r "$1" -b -o json >"$tmp/frames.out" || return 1
	wc -l <"$tmp/frames.out" | tr -d ' '
}

# 1. SIGKILL: wait for 8 frames on disk, kill, replay, cut the last frame, append.
"$PTOP" --record "$tmp/k.rec" -d 0.05 &
rec_pid=$!
kids=$rec_pid
eight_frames() {
	n=$("$PTOP" -r "$tmp/k.rec" --summary 2>/dev/null | sed -n 's/.* \([0-9][0-9]*\) frames$/\1/p')
	[ "${n:-0}" -ge 8 ]
}
wait_until eight_frames || fail "the recorder wrote no 8 frames"
stop "$rec_pid"
n=$(frames "$tmp/k.rec") || fail "a killed recorder's file does not replay"
[ "${n:-0}" -ge 8 ] || fail "a killed recorder's file replays $n frames"
# a kill in the middle of a write: the last frame loses its end
"$PYTHON" -c 'import os, sys; os.truncate(sys.argv[1], os.path.getsize(sys.argv[1]) - 7)' "$tmp/k.rec"
m=$(frames "$tmp/k.rec") || fail "a torn file does not replay"
[ "$m" -eq $((n - 1)) ] || fail "a torn file replays $m frames, not $((n - 1))"
"$PTOP" --record "$tmp/k.rec" -d 0.05 -n 2 || fail "--record on a torn file exited $?"
m=$(frames "$tmp/k.rec") || fail "an appended torn file does not replay"
[ "$m" -eq $((n + 1)) ] || fail "appending 2 frames gave $m frames, not $((n + 1))"

# 2. A corrupt byte in the data of the fourth frame: frames 0 to 2, then
# those from the next keyframe on (the appended run's first frame), one line
# that counts the frames skipped, status 1; --summary sums up the same.
total=$("$PTOP" -r "$tmp/k.rec" --summary | sed -n 's/.* \([0-9][0-9]*\) frames$/\1/p')
"$PTOP" -r "$tmp/k.rec" -b -o json >"$tmp/good.out" || fail "replaying k.rec exited $?"
"$PYTHON" - "$tmp/k.rec" "$tmp/bad.rec" <<'EOF'
import sys
b = bytearray(open(sys.argv[1], "rb").read())
at = 256
for _ in range(3):
    at = b.index(b"PTFR", at + 4)
b[at + 48 + 3] ^= 0x20
open(sys.argv[2], "wb").write(b)
EOF
ptop_st "$tmp/bad.out" "$tmp/bad.err" -r "$tmp/bad.rec" -b -o json
[ "$st" -eq 1 ] || fail "a corrupt frame: status $st, not 1"
printed=$(wc -l <"$tmp/bad.out" | tr -d ' ')
grep -q "^ptop: .*bad.rec: frame 3 at byte [0-9]* is corrupt (checksum mismatch); $((total - printed)) frames skipped in all" \
	"$tmp/bad.err" || fail "a corrupt frame: $(cat "$tmp/bad.err")"
[ "$(wc -l <"$tmp/bad.err")" -eq 1 ] || fail "a corrupt frame: not one line: $(cat "$tmp/bad.err")"
head -3 "$tmp/bad.out" >"$tmp/bad.head"
head -3 "$tmp/good.out" | cmp -s - "$tmp/bad.head" || fail "the frames before a corrupt one were not printed"
# the appended run's two frames come after its keyframe: printed too, as recorded
[ "$printed" -ge 5 ] || fail "only $printed frames printed: none after the damage"
tail -2 "$tmp/bad.out" >"$tmp/bad.tail"
tail -2 "$tmp/good.out" | cmp -s - "$tmp/bad.tail" || fail "the frames after the damage differ"
ptop_st "$tmp/sum.out" "$tmp/sum.err" -r "$tmp/bad.rec" --summary
[ "$st" -eq 1 ] || fail "--summary of a corrupt file: status $st, not 1"
grep -q " $printed frames$" "$tmp/sum.out" || fail "--summary of a corrupt file: $(cat "$tmp/sum.out")"
grep -q "frames skipped in all" "$tmp/sum.err" || fail "--summary of a corrupt file: $(cat "$tmp/sum.err")"

# 2a. A flipped bit in the first keyframe's head, which breaks the chain of
# keyframes: the file opens all the same, the frames of the appended run (from
# its own keyframe on) are printed as recorded, one line counts the rest.
"$PYTHON" - "$tmp/k.rec" "$tmp/head.rec" <<'EOF'
import sys
b = bytearray(open(sys.argv[1], "rb").read())
b[256 + 20] ^= 0x04
open(sys.argv[2], "wb").write(b)
EOF
ptop_st "$tmp/head.out" "$tmp/head.err" -r "$tmp/head.rec" -b -o json
[ "$st" -eq 1 ] || fail "a damaged keyframe head: status $st, not 1"
printed=$(wc -l <"$tmp/head.out" | tr -d ' ')
[ "$printed" -eq 2 ] || fail "a damaged keyframe head: $printed frames printed, not the last 2"
tail -2 "$tmp/good.out" | cmp -s - "$tmp/head.out" || fail "a damaged keyframe head: the frames after it differ"
grep -q "^ptop: .*head.rec: frame 0 at byte 256 is corrupt (bad frame head); $((total - 2)) frames skipped in all" \
	"$tmp/head.err" || fail "a damaged keyframe head: $(cat "$tmp/head.err")"
[ "$(wc -l <"$tmp/head.err")" -eq 1 ] || fail "a damaged keyframe head: not one line: $(cat "$tmp/head.err")"

# 2b. A torn tail is told in one line, status 0, unless a recorder holds the
# file (the frame it is writing): a lock held as the recorder holds it.
cp "$tmp/k.rec" "$tmp/torn.rec"
"$PYTHON" -c 'import os, sys; os.truncate(sys.argv[1], os.path.getsize(sys.argv[1]) - 5)' "$tmp/torn.rec"
"$PTOP" -r "$tmp/torn.rec" -b -o json >/dev/null 2>"$tmp/torn.err" || fail "a torn file: status $?"
grep -q "^ptop: .*torn.rec: [0-9]* bytes after its last complete frame are not a frame" "$tmp/torn.err" ||
	fail "a torn tail is not told: $(cat "$tmp/torn.err")"
mkfifo "$tmp/held"
"$PYTHON" -c 'import fcntl, sys
f = open(sys.argv[1], "r+b")
fcntl.lockf(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
print("locked", flush=True)
sys.stdin.read()' "$tmp/torn.rec" <"$tmp/held" >"$tmp/lock.out" &
locker=$!
kids="$kids $locker"
exec 8>"$tmp/held"
locked() { grep -q locked "$tmp/lock.out"; }
wait_until locked || fail "the lock was not taken"
"$PTOP" -r "$tmp/torn.rec" -b -o json >/dev/null 2>"$tmp/torn.err" || fail "a torn file, locked: status $?"
[ -s "$tmp/torn.err" ] && fail "a torn tail under a recorder's lock is told: $(cat "$tmp/torn.err")"
exec 8>&-
stop "$locker"

# 3. A full disk: a small tmpfs fills; the file replays whole, without its partial frame.
# A keyframe holds every process of the machine: the room freed afterwards (a
# filler's) must take a keyframe and a delta however many processes there
# are, so 32 KiB or four one-frame recordings, and the tmpfs three times that.
"$PTOP" --record "$tmp/probe.rec" -n 1 || fail "a one-frame recording exited $?"
room=$(($(wc -c <"$tmp/probe.rec") * 4 / 4096 * 4096 + 4096))
[ "$room" -ge 32768 ] || room=32768
mkdir "$tmp/full"
if ! mount -t tmpfs -o size=$((3 * room / 1024))k tmpfs "$tmp/full" 2>/dev/null; then
	echo "SKIP (part): cannot mount a tmpfs here, the full disk is not tested"
	[ "$failures" -eq 0 ] || exit 1
	exit 77
fi
mounted=1
head -c "$room" /dev/zero >"$tmp/full/filler"
set +e
"$PTOP" --record "$tmp/full/f.rec" -d 0.02 -n 100000 2>"$tmp/full.err"
st=$?
set -e
[ "$st" -eq 1 ] || fail "a full disk: status $st, not 1"
grep -q "^ptop: .*f.rec: No space left on device" "$tmp/full.err" ||
	fail "a full disk: $(cat "$tmp/full.err")"
n=$(frames "$tmp/full/f.rec") || fail "a file that filled the disk does not replay"
[ "${n:-0}" -ge 1 ] || fail "a file that filled the disk has no frame"
# the partial frame was removed: the file ends with the last frame
"$PTOP" -r "$tmp/full/f.rec" --summary >"$tmp/sum" || fail "--summary of a full-disk file"
"$PYTHON" - "$tmp/full/f.rec" <<'EOF' || fail "the file does not end with its last frame"
import sys, struct
b = open(sys.argv[1], "rb").read()
at = b.rindex(b"PTFR")
clen = struct.unpack_from("<I", b, at + 4)[0]
assert at + 48 + clen == len(b), "%d bytes after the last frame" % (len(b) - at - 48 - clen)
EOF
# room again: the next --record appends after the last frame
rm -f "$tmp/full/filler"
"$PTOP" --record "$tmp/full/f.rec" -n 2 -d 0.02 || fail "--record after freeing space exited $?"
[ "$(frames "$tmp/full/f.rec")" -eq $((n + 2)) ] || fail "recording after freeing space did not append"

finish
