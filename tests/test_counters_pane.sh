#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_counters_pane.sh: the Counters pane says why a process has no
# counters when the kernel refused them. ptop runs as an unprivileged user
# (given up with setpriv when the test runs as root) in a private tmux
# server, shows PID 1 only, and its Counters pane must name the refusal and
# the perf_event_paranoid level instead of a bare '-'. Skips (77) without
# tmux, or as root without setpriv. make check sets PTOP, srcdir and TMUX_BIN.

PTOP=${PTOP:-./ptop}
TMUX_BIN=${TMUX_BIN-$(command -v tmux)}

NAME=test_counters_pane
. "${srcdir:-.}/tests/tmux-lib.sh"
need_tmux_and_ptop
as_user=
if [ "$(id -u)" -eq 0 ]; then
	if ! command -v setpriv >/dev/null 2>&1; then
		echo "test_counters_pane: SKIP: running as root without setpriv: nobody to be refused"
		exit 77
	fi
	as_user="setpriv --reuid=65534 --regid=65534 --clear-groups"
	if ! $as_user true 2>/dev/null; then
		echo "test_counters_pane: SKIP: running as root and cannot become another user"
		exit 77
	fi
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptop-ctrpane.XXXXXX") || exit 1
chmod 755 "$tmp"
sock=ptopctr$$
session=ptopctr

cleanup() {
	tm kill-server >/dev/null 2>&1
	if [ -s "$tmp/ptop.pid" ]; then
		kill -KILL "$(cat "$tmp/ptop.pid")" 2>/dev/null
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' HUP INT TERM

HOME=$tmp
XDG_CONFIG_HOME=$tmp/config
LANG=C.UTF-8
LC_ALL=
TERM=${TERM:-xterm}
export HOME XDG_CONFIG_HOME LANG LC_ALL PTOP
unset TMUX TMUX_PANE NO_COLOR

tm new-session -d -s "$session" -x 200 -y 30 \
	sh -c 'echo $$ > "$1/ptop.pid"; exec $2 "$PTOP" -d 0.5 -p 1' sh "$tmp" "$as_user" ||
	fail "tmux cannot start a session"
tm set-option -t "$session" remain-on-exit on >/dev/null 2>&1

expect '^ *PID +USER'
keys 2
expect 'counters: '
# the kernel's word for it, and the level that decides it
expect '1 refused: (Permission denied|Operation not permitted) \(perf_event_paranoid=-?[0-9]+\)'
keys q
exit 0
