#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_exits.sh: ptop's exit statuses on every command-line output path.
# Output that cannot be written (/dev/full) is an error on stderr and status
# 1, never a silent 0; a reader that went away (a closed pipe, `| head -1`)
# ends ptop quietly with 0, never by SIGPIPE; a numeric option out of range
# is a usage error naming the option (status 2), never truncated; batch mode
# and a benchmark stopped by SIGINT, SIGTERM or SIGHUP end with 128+signal.
# Run by `make check` with PTOP set to the binary.
set -eu

NAME=test_exits
. "${srcdir:-.}/tests/lib.sh"
[ -w /dev/full ] || skip "/dev/full is needed to make standard output fail"
need mkfifo "to give ptop a pipe without a reader"

bg_pid=
at_exit() {
	[ -z "$bg_pid" ] || kill -KILL "$bg_pid" 2>/dev/null
}

dflt=
if env --default-signal=PIPE true 2>/dev/null; then
	dflt="env --default-signal=PIPE,INT,TERM,HUP"
fi

# A small run of each output path of `ptop bench`, and the other outputs.
BENCH="status --loops 50 --threads 1 -r 1"
set -- \
	"--help" \
	"--version" \
	"bench --help" \
	"bench list" \
	"bench status --help" \
	"bench $BENCH" \
	"bench $BENCH --format=simple" \
	"bench $BENCH --format=json" \
	"bench $BENCH --format=json --progress" \
	"bench --format=simple all" \
	"-b -n 1" \
	"-b -n 1 -o json"

# --- standard output on a full disk: "write error", status 1 ---------------------------
for args in "$@"; do
	status=0
	# shellcheck disable=SC2086 # the words of args are ptop's arguments
	$dflt "$PTOP" $args >/dev/full 2>"$tmp/full.err" || status=$?
	if [ "$status" -ne 1 ]; then
		fail "'ptop $args >/dev/full': status $status, expected 1"
	elif ! grep -q "^ptop: write error: No space left on device$" "$tmp/full.err"; then
		fail "'ptop $args >/dev/full': stderr is not the write error: $(cat "$tmp/full.err")"
	fi
done

# --- a pipe whose reader is gone: quiet, status 0 -----------------------------------------
# The reader opens the FIFO and closes it before ptop starts, so ptop's
# first write meets no reader however the machine schedules us.
mkfifo "$tmp/fifo"
closed_pipe() {
	rm -f "$tmp/closed" "$tmp/pipe.status"
	(
		exec >"$tmp/fifo"
		i=0
		while [ ! -e "$tmp/closed" ] && [ "$i" -lt 600 ]; do
			sleep 0.05
			i=$((i + 1))
		done
		status=0
		# shellcheck disable=SC2086
		$dflt "$PTOP" "$@" 2>"$tmp/pipe.err" || status=$?
		echo "$status" >"$tmp/pipe.status"
	) &
	bg_pid=$!
	exec 3<"$tmp/fifo"
	exec 3<&-
	: >"$tmp/closed"
	wait "$bg_pid" || :
	bg_pid=
}
for args in "$@"; do
	# shellcheck disable=SC2086
	closed_pipe $args
	status=$(cat "$tmp/pipe.status" 2>/dev/null || echo none)
	if [ "$status" != 0 ]; then
		fail "'ptop $args' into a closed pipe: status $status, expected 0"
	elif [ -s "$tmp/pipe.err" ]; then
		fail "'ptop $args' into a closed pipe wrote to stderr: $(cat "$tmp/pipe.err")"
	fi
done

# A benchmark's own stream on stdout (synthesize's perf.data) into a closed pipe.
closed_pipe bench synthesize --output - --iterations 3
status=$(cat "$tmp/pipe.status" 2>/dev/null || echo none)
if [ "$status" != 0 ]; then
	fail "'ptop bench synthesize --output -' into a closed pipe: status $status, expected 0"
elif [ -s "$tmp/pipe.err" ]; then
	fail "'ptop bench synthesize --output -' into a closed pipe wrote to stderr: $(cat "$tmp/pipe.err")"
fi

# The same as users write it: the first line is read, then the reader exits
# while the benchmark runs.
for args in "bench status --loops 2000 --threads 2 -r 3" \
	"bench status --loops 2000 --threads 2 -r 3 --format=json --progress" \
	"bench list" "--help" "-b -d 0"; do
	rm -f "$tmp/head.status"
	# shellcheck disable=SC2086
	(
		status=0
		$dflt "$PTOP" $args 2>"$tmp/head.err" || status=$?
		echo "$status" >"$tmp/head.status"
	) | head -n 1 >"$tmp/head.out"
	status=$(cat "$tmp/head.status" 2>/dev/null || echo none)
	if [ "$status" != 0 ]; then
		fail "'ptop $args | head -n 1': status $status, expected 0"
	elif [ -s "$tmp/head.err" ]; then
		fail "'ptop $args | head -n 1' wrote to stderr: $(cat "$tmp/head.err")"
	elif [ ! -s "$tmp/head.out" ]; then
		fail "'ptop $args | head -n 1': no first line"
	fi
done

# --- numeric options: each its own message, nothing truncated, status 2 -------------------
# bad NAME ARGS...: status 2, a message on stderr naming NAME, nothing on stdout.
bad() {
	name=$1
	shift
	status=0
	"$PTOP" "$@" >"$tmp/bad.out" 2>"$tmp/bad.err" || status=$?
	if [ "$status" -ne 2 ]; then
		fail "'ptop $*': status $status, expected 2"
	elif ! grep -q -e "$name" "$tmp/bad.err"; then
		fail "'ptop $*': the message does not name $name: $(head -n 1 "$tmp/bad.err")"
	elif grep -q "iterations" "$tmp/bad.err" && [ "$name" != "--iterations" ]; then
		fail "'ptop $*': the message speaks of iterations: $(head -n 1 "$tmp/bad.err")"
	elif [ -s "$tmp/bad.out" ]; then
		fail "'ptop $*': wrote to stdout"
	fi
}
big=99999999999999999999
bad "--counter-budget must be at least 1" -b -n 1 --counter-budget=0
bad --counter-budget -b -n 1 --counter-budget=$big
# 2^32 + 1: the old parser kept its low 32 bits, a budget of 1
bad --counter-budget -b -n 1 --counter-budget=4294967297
bad --counter-budget -b -n 1 --counter-budget=-1
bad --counter-budget -b -n 1 --counter-budget=x
bad --iterations -b -n 0
bad --iterations -b -n $big
bad --iterations -b -n 1x
bad --delay -b -n 1 -d $big
bad --delay -b -n 1 -d -1
bad --pid -b -n 1 -p 4294967297
bad --pid -b -n 1 -p $big
bad --pid -b -n 1 -p 0
bad --repeat bench status -r $big
bad --repeat bench status -r 4294967297
bad --repeat bench status -r 0
bad --loops bench status --loops=$big
bad --loops bench status --loops=4294967297

# --- signals: 128+signal once stopped and cleaned up --------------------------------------
# stopped SIG NUM WHAT ARGS...: run ptop ARGS in the background, wait for its
# first output, send SIG; its status must be 128+NUM, its stderr empty.
stopped() {
	sig=$1 num=$2 what=$3
	shift 3
	rm -f "$tmp/sig.out"
	$dflt "$PTOP" "$@" >"$tmp/sig.out" 2>"$tmp/sig.err" &
	bg_pid=$!
	if ! wait_until test -s "$tmp/sig.out"; then
		fail "$what: no output within $DEADLINE s"
		# the next call takes bg_pid over: this one is not left running
		kill -KILL "$bg_pid" 2>/dev/null
		wait "$bg_pid" 2>/dev/null
		bg_pid=
		return
	fi
	kill -"$sig" "$bg_pid" || fail "$what: ptop was already gone"
	status=0
	wait "$bg_pid" || status=$?
	pid=$bg_pid
	bg_pid=
	[ "$status" -eq $((128 + num)) ] || fail "$what: SIG$sig gave status $status, expected $((128 + num))"
	[ -s "$tmp/sig.err" ] && fail "$what: SIG$sig: wrote to stderr: $(cat "$tmp/sig.err")"
	# nothing of it is left: no thread, no child still running
	[ -d "/proc/$pid" ] && fail "$what: SIG$sig: process $pid is still there"
	if ps -o pid= --ppid "$pid" >"$tmp/children" 2>/dev/null && [ -s "$tmp/children" ]; then
		fail "$what: SIG$sig: children left: $(cat "$tmp/children")"
	fi
	return 0
}
for s in "TERM 15" "INT 2" "HUP 1"; do
	# shellcheck disable=SC2086
	set -- $s
	stopped "$1" "$2" "batch" -b -d 5 -o json
	if [ "$1" = INT ] && [ -z "$dflt" ]; then
		echo "note: env cannot reset SIGINT for a background job: bench SIGINT not tested"
		continue
	fi
	stopped "$1" "$2" "bench" bench status --loops 100000 --threads 4 -r 1000 \
		--format=json --progress
done

finish
