#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_record_safe.sh: what --record and -r refuse to open, and the lock.
# A FIFO (for -r and --record: refused at once, never waited on), a
# character device, a block device node made with mknod (numbers no device
# has: nothing may be opened), a symbolic link to a device, a link to one in
# a --record DIRECTORY's day file, and a real loop device over a file whose
# bytes must stay as they were: each ends with a message and status 1, the
# file untouched. A new recording is 0600; a file another user owns is not
# recorded into. Two recorders on one file: the second is refused, naming
# the first's PID; a run after the first ended appends every frame it
# records. Devices, chown and loop devices need root: those parts are
# skipped, with the reason, without it.
set -eu

NAME=test_record_safe
. "${srcdir:-.}/tests/lib.sh"
need timeout "to bound what must not block"

loopdev=
at_exit() {
	[ -z "$loopdev" ] || losetup -d "$loopdev" 2>/dev/null
}

# refused WORDS CMD...: status 1 within 20 s, "ptop: ...WORDS" on stderr.
refused() {
	words=$1
	shift
	set +e
	timeout 20 "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
	got=$?
	set -e
	[ "$got" -eq 1 ] || fail "$* exited $got, not 1 (124: it blocked): $(cat "$tmp/err")"
	grep -q "^ptop: .*$words" "$tmp/err" || fail "$*: no '$words' in: $(cat "$tmp/err")"
}

# 1. A FIFO: nobody writes or reads it, and neither must block.
mkfifo "$tmp/fifo"
refused "fifo: a FIFO, not a regular file: not read" "$PTOP" -r "$tmp/fifo" -b
refused "fifo: a FIFO, not a regular file: not read" "$PTOP" -r "$tmp/fifo" --summary
refused "fifo: a FIFO, not a regular file: not recorded into" "$PTOP" --record "$tmp/fifo" -n 1
[ -p "$tmp/fifo" ] || fail "the FIFO is gone"

# 2. Character devices, directly and through a link; a day file that is one.
refused "/dev/null: a character device, not a regular file: not recorded into" \
	"$PTOP" --record /dev/null -n 1
ln -s /dev/null "$tmp/null.rec"
refused "null.rec: a character device, not a regular file: not recorded into" \
	"$PTOP" --record "$tmp/null.rec" -n 1
refused "null.rec: a character device, not a regular file: not read" "$PTOP" -r "$tmp/null.rec" -b
mkdir "$tmp/days"
ln -s /dev/null "$tmp/days/ptop-$(date +%Y-%m-%d).rec"
refused "a character device, not a regular file: not recorded into" \
	"$PTOP" --record "$tmp/days" -n 1
refused "a character device, not a regular file: not read" "$PTOP" -r "$tmp/days" -b
[ -L "$tmp/days/ptop-$(date +%Y-%m-%d).rec" ] || fail "the day file's link was replaced"

# 3. A new recording is the user's alone, whatever the umask.
(umask 0 && "$PTOP" --record "$tmp/new.rec" -n 1) || fail "--record new.rec exited $?"
[ "$(stat -c %a "$tmp/new.rec")" = 600 ] || fail "a new recording is $(stat -c %a "$tmp/new.rec"), not 600"

# 4. Two recorders on one file: the second is refused and names the first.
"$PTOP" --record "$tmp/two.rec" -d 0.1 &
first=$!
kids=$first
one_frame() {
	"$PTOP" -r "$tmp/two.rec" --summary >"$tmp/sum" 2>/dev/null && grep -q ' frames$' "$tmp/sum"
}
wait_until one_frame || fail "the first recorder wrote no frame"
refused "two.rec is being recorded by process $first" "$PTOP" --record "$tmp/two.rec" -n 2 -d 0.1
stop "$first"

# after it: every frame of a second run is appended, 6 of 6
frames() {
	"$PTOP" -r "$tmp/two.rec" --summary 2>/dev/null | sed -n 's/.* \([0-9][0-9]*\) frames$/\1/p'
}
before=$(frames)
"$PTOP" --record "$tmp/two.rec" -n 6 -d 0.1 || fail "appending after the first recorder exited $?"
after=$(frames)
[ "$after" -eq $((before + 6)) ] || fail "appending 6 frames to $before gave $after"

# 5. What needs root: a file another user owns, device nodes, a loop device.
if [ "$(id -u)" -ne 0 ]; then
	partial_skip "not root: no other user's file, no device node, no loop device"
	finish
fi
: >"$tmp/theirs.rec"
chmod 666 "$tmp/theirs.rec"
chown nobody "$tmp/theirs.rec" || die "cannot chown to nobody"
refused "theirs.rec: owned by another user (uid [0-9]*): not recorded into" \
	"$PTOP" --record "$tmp/theirs.rec" -n 1
[ ! -s "$tmp/theirs.rec" ] || fail "another user's file was recorded into"
ln -s "$tmp/theirs.rec" "$tmp/link-to-theirs.rec"
refused "owned by another user" "$PTOP" --record "$tmp/link-to-theirs.rec" -n 1
# a link another user made is not followed, even to a file of one's own
if ln -s "$tmp/new.rec" "$tmp/their-link.rec" && chown -h nobody "$tmp/their-link.rec"; then
	refused "their-link.rec: a symbolic link another user made, not followed" \
		"$PTOP" -r "$tmp/their-link.rec" -b
fi
# loop's major with a minor no loop device has: refused by its type, never opened
if mknod "$tmp/blk" b 7 250 2>/dev/null && mknod "$tmp/chr" c 1 3 2>/dev/null; then
	refused "blk: a block device, not a regular file: not recorded into" \
		"$PTOP" --record "$tmp/blk" -n 1
	refused "blk: a block device, not a regular file: not read" "$PTOP" -r "$tmp/blk" -b
	refused "chr: a character device, not a regular file: not recorded into" \
		"$PTOP" --record "$tmp/chr" -n 1
	ln -s "$tmp/blk" "$tmp/blk.rec"
	refused "blk.rec: a block device, not a regular file: not recorded into" \
		"$PTOP" --record "$tmp/blk.rec" -n 1
	[ -b "$tmp/blk" ] || fail "the block device node changed"
else
	partial_skip "mknod is not permitted here: no device nodes"
fi
# a real block device: its bytes stay as they were
head -c 1048576 /dev/urandom >"$tmp/disk"
cp "$tmp/disk" "$tmp/disk.orig"
if command -v losetup >/dev/null 2>&1 && loopdev=$(losetup -f --show "$tmp/disk" 2>"$tmp/loop.err"); then
	refused "a block device, not a regular file: not recorded into" \
		"$PTOP" --record "$loopdev" -n 1
	ln -s "$loopdev" "$tmp/loop.rec"
	refused "loop.rec: a block device, not a regular file: not recorded into" \
		"$PTOP" --record "$tmp/loop.rec" -n 1
	losetup -d "$loopdev"
	loopdev=
	cmp -s "$tmp/disk" "$tmp/disk.orig" || fail "the loop device's bytes changed"
else
	loopdev=
	partial_skip "no loop device: $(cat "$tmp/loop.err" 2>/dev/null || echo no losetup)"
fi

finish
