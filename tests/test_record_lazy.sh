#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_record_lazy.sh: what a recording keeps of status, io and cgroup when
# no column shows them, which ptop reads for a process only where they may
# have changed (ptop(1), RECORDING). Through each frame source, while
# `ptop --record` runs at -d 0.1: a child that writes a known number of bytes
# at each step (a pipe handshake) shows its write count and its context
# switches, as /proc says them after the step, in the recording's last frame
# two frames later (not 16: that it ran is seen); as root with a writable
# unified hierarchy, a sleeping child moved to a cgroup of its own by the test
# shows there within 16 frames and two (it did not run: its turn). The
# recording is replayed while it is written. make check sets PTOP and srcdir.

NAME=test_record_lazy
. "${srcdir:-.}/tests/lib.sh"
need_python "to drive the writer and read the JSON"

# the writer: at each byte on its stdin, 100,000 bytes more written (to
# /dev/null: wchar counts what write() was given), then a byte on stdout
mkfifo "$tmp/go" "$tmp/ack" || die "mkfifo failed"
"$PYTHON" -c '
import os, sys
go = os.open(sys.argv[1], os.O_RDONLY)
ack = os.open(sys.argv[2], os.O_WRONLY)
null = os.open("/dev/null", os.O_WRONLY)
while os.read(go, 1):
    os.write(null, b"x" * 100000)
    os.write(ack, b".")
' "$tmp/go" "$tmp/ack" &
writer=$!
kids="$kids $writer"
exec 3>"$tmp/go" 4<"$tmp/ack"
sleep 600 &
sleeper=$!
kids="$kids $sleeper"

cg=
moved=
unified=
if [ -f /sys/fs/cgroup/cgroup.controllers ]; then
	unified=/sys/fs/cgroup
elif [ -f /sys/fs/cgroup/unified/cgroup.controllers ]; then
	unified=/sys/fs/cgroup/unified
fi
if [ -n "$unified" ] && mkdir "$unified/ptop_test_lazy_$$" 2>/dev/null; then
	cg=$unified/ptop_test_lazy_$$
	at_exit() {
		for p in $kids; do
			kill -KILL "$p" 2>/dev/null
			wait "$p" 2>/dev/null
		done
		kids=
		wait_until rmdir "$cg" 2>/dev/null
	}
else
	partial_skip "cannot make a cgroup in a unified hierarchy (root, a writable cgroup2): no move checked"
fi

sources=procfs
if "$PTOP" --version | grep -q 'procfs, bpf'; then
	"$PTOP" -b -n 1 -p 1 --source=bpf-delta >/dev/null 2>"$tmp/probe.err" || :
	if [ -s "$tmp/probe.err" ]; then
		partial_skip "the BPF source: $(head -n 1 "$tmp/probe.err")"
	else
		sources="procfs bpf-delta"
	fi
fi

# frames: how many complete frames the recording has now
frames() {
	"$PTOP" -r "$rec" -b -o json --fields pid 2>/dev/null | wc -l
}
# after N: the recording has N frames or more
after() {
	[ "$(frames)" -ge "$1" ]
}
# last PID KEY: KEY of PID's row in the recording's last frame ("-": no row)
last() {
	"$PTOP" -r "$rec" -b -o json --fields pid,wchar,nvcsw,cgroup 2>/dev/null | tail -n 1 |
		"$PYTHON" -c '
import json, sys
rows = [p for p in json.loads(sys.stdin.read())["processes"] if p["pid"] == int(sys.argv[1])]
print(rows[0][sys.argv[2]] if rows else "-")' "$1" "$2"
}

for src in $sources; do
	rec=$tmp/$src.rec
	"$PTOP" --record "$rec" --source="$src" -d 0.1 -n 3000 2>"$tmp/rec.err" &
	recorder=$!
	kids="$kids $recorder"
	wait_until after 3 || fail "$src: no frame recorded: $(cat "$tmp/rec.err")"
	for step in 1 2 3; do
		printf . >&3
		dd bs=1 count=1 <&4 >/dev/null 2>&1 || die "the writer did not answer"
		n=$(frames)
		wait_until after $((n + 2)) || fail "$src: the recording stopped: $(cat "$tmp/rec.err")"
		want=$(sed -n 's/^wchar: //p' "/proc/$writer/io")
		got=$(last "$writer" io_wchar)
		[ "$got" = "$want" ] ||
			fail "$src: step $step: the writer's wchar is $got two frames on, /proc says $want"
		want=$(sed -n 's/^voluntary_ctxt_switches:\t*//p' "/proc/$writer/status")
		got=$(last "$writer" ctxsw_voluntary)
		[ "$got" = "$want" ] ||
			fail "$src: step $step: the writer's voluntary switches are $got, /proc says $want"
	done
	if [ -n "$cg" ]; then
		echo "$sleeper" >"$cg/cgroup.procs" ||
			die "cannot move the sleeper into $cg"
		n=$(frames)
		wait_until after $((n + 18)) || fail "$src: the recording stopped: $(cat "$tmp/rec.err")"
		got=$(last "$sleeper" cgroup)
		[ "$got" = "/ptop_test_lazy_$$" ] ||
			fail "$src: the sleeper moved 18 frames ago shows in $got"
		moved=1
		# back where it was, for the next source
		echo "$sleeper" >"$unified$(sed -n 's/^0:://p' /proc/self/cgroup)/cgroup.procs" ||
			die "cannot move the sleeper back"
	fi
	kill "$recorder"
	wait "$recorder" 2>/dev/null
done
echo "$NAME: sources: $sources; cgroup move checked: ${moved:-no}"
finish
