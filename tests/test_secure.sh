#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_secure.sh: -s is top's secure mode, a flag: in the viewer k, r, F7
# and d refuse, saying so, and the process k would have signalled lives on;
# without -s, k opens the signal menu. In batch mode -s changes nothing.
# Skips (77) without tmux.

NAME=test_secure
. "${srcdir:-.}/tests/tmux-lib.sh"
need_tmux
WAIT_SECONDS=30

"$PTOP" -b -n 1 -s -p 1 >"$tmp/batch" || fail "-b -s exited non-zero"
grep -q '^top - ' "$tmp/batch" || fail "-b -s wrote no frame"

sleep 600 &
victim_pid=$!
kids=$victim_pid
tm_env

# start ARGS: ptop in a fresh session (kept on screen, with what it said, if it ends)
start() {
	tm kill-session -t "$session" >/dev/null 2>&1
	# shellcheck disable=SC2086 # ARGS are words
	tm_run "$PTOP" -d 0.5 -p "$victim_pid" $1
	wait_for on_screen "^ *$victim_pid .*sleep" || fail "ptop $1 did not show the process"
}

start -s
keys k
expect 'Secure mode \(-s\): no signals'
off_screen 'Send signal to' || fail "-s: k opened the signal menu"
keys r
expect 'Secure mode \(-s\): no signals, no renice'
keys F7
expect 'Secure mode \(-s\): no signals, no renice'
keys d
expect 'Secure mode \(-s\): the delay stays'
kill -0 "$victim_pid" || fail "-s: the process was signalled"

# without -s, k opens the signal menu (Escape closes it unsent)
start ""
keys k
expect 'Send signal to '
keys Escape
kill -0 "$victim_pid" || fail "the signal menu sent a signal on Escape"
finish
