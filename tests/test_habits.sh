#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_habits.sh: what a top user sees at a glance, beside top in tmux. At
# 80 columns a command too long for its column ends in '+' in both (top
# writes "prometheu+"), in the default profile and in top's. make check sets
# PTOP, srcdir and TMUX_BIN.

NAME=test_habits
WAIT_SECONDS=30
. "${srcdir:-.}/tests/tmux-lib.sh"
need_tmux
tm_env

TOP=$(command -v top)
[ -n "$TOP" ] || partial_skip "top is not installed (Debian package procps): ptop alone is checked"

# A process whose name fills the kernel's 15 bytes, longer than COMMAND at 80 columns.
long=$(printf 'hb%05dlongname' $(($$ % 100000)))
spawn_sleeper "$long"
pid=$spawned
cut=$(printf '%s' "$long" | cut -c1-8)

start() {
	tm_new_server
	session=$1
	shift
	TM_COLS=80 TM_LINES=24 tm_run "$@"
}

if [ -n "$TOP" ]; then
	start top "$TOP" -d 1 -p "$pid"
	expect "^ *$pid .* ${cut}[a-z]*\\+\$"
	keys q
fi
start ptop "$PTOP" -d 1 -p "$pid"
expect "^ *$pid .* ${cut}[a-z]*\\+\$"
off_screen " $long\$" || fail "the whole name fit: nothing to check"
keys q
mkdir -p "$XDG_CONFIG_HOME/ptop"
echo 'keys = top' >"$XDG_CONFIG_HOME/ptop/ptoprc"
start ptoptop "$PTOP" -d 1 -p "$pid"
expect "^ *$pid .* ${cut}[a-z]*\\+\$"
keys q
finish
