#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_counters_pane.sh: the Counters pane says why a process has no
# counters when the kernel refused them. ptop runs as an unprivileged user
# (given up with setpriv when the test runs as root) in a private tmux
# server, shows PID 1 only, and its Counters pane must name the refusal and
# the perf_event_paranoid level instead of a bare '-'. Skips (77) without
# tmux, or as root without setpriv. make check sets PTOP, srcdir and TMUX_BIN.

NAME=test_counters_pane
. "${srcdir:-.}/tests/tmux-lib.sh"
need_tmux
as_user=
if [ "$(id -u)" -eq 0 ]; then
	command -v setpriv >/dev/null 2>&1 || skip "running as root without setpriv: nobody to be refused"
	as_user="setpriv --reuid=65534 --regid=65534 --clear-groups"
	$as_user true 2>/dev/null || skip "running as root and cannot become another user"
fi
chmod 755 "$tmp"
tm_env

TM_COLS=200 TM_LINES=30
# shellcheck disable=SC2086 # as_user is a command's words
tm_run $as_user "$PTOP" -d 0.5 -p 1

expect '^ *PID +USER'
keys 2
expect 'counters: '
# the kernel's word for it, and the level that decides it
expect 'not attached to 1 process: (Permission denied|Operation not permitted) \(perf_event_paranoid=-?[0-9]+\)'
keys q
finish
