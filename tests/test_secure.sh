#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_secure.sh: -s is top's secure mode, a flag: in the viewer k, r, F7
# and d refuse, saying so, and the process k would have signalled lives on;
# without -s, k opens the signal menu. In batch mode -s changes nothing.
# Skips (77) without tmux.

NAME=test_secure
. "${srcdir:-.}/tests/tmux-lib.sh"
need_tmux_and_ptop

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptop-secure.XXXXXX") || exit 1
sock=ptopsecure$$
session=ptopsecure
victim_pid=
cleanup() {
	tm kill-server >/dev/null 2>&1
	[ -n "$victim_pid" ] && kill -KILL "$victim_pid" 2>/dev/null && wait "$victim_pid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' HUP INT TERM
WAIT_SECONDS=30

"$PTOP" -b -n 1 -s -p 1 >"$tmp/batch" || fail "-b -s exited non-zero"
grep -q '^top - ' "$tmp/batch" || fail "-b -s wrote no frame"

sleep 600 &
victim_pid=$!
mkdir "$tmp/home"
HOME=$tmp/home
XDG_CONFIG_HOME=$tmp/config
TERM=${TERM:-xterm}
export HOME XDG_CONFIG_HOME TERM PTOP
unset TMUX TMUX_PANE

# start ARGS: ptop in a fresh session, its stderr and status kept if it ends
start() {
	tm kill-session -t "$session" >/dev/null 2>&1
	# shellcheck disable=SC2016
	tm new-session -d -s "$session" -x 160 -y 48 \
		sh -c '"$@" 2>"$ERR"; echo "status $?" >>"$ERR"; sleep 600' sh \
		"$PTOP" -d 0.5 -p "$victim_pid" $1 ||
		fail "tmux cannot start a session: $(cat "$tmp/err" 2>/dev/null)"
	wait_for on_screen "^ *$victim_pid .*sleep" ||
		fail "ptop $1 did not show the process: $(cat "$tmp/err" 2>/dev/null)"
}
ERR=$tmp/err
export ERR

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
echo "$NAME: PASS"
