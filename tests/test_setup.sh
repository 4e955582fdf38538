#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_setup.sh: F2 Setup, beside htop's. F2 opens Setup in both, with its
# categories (Meters, Display options, Colors; ptop's Columns too), the
# header shown live above them; F10 closes it, and the settings file is
# written (htop's htoprc as htop quits, ptop's ptoprc as Setup closes). In ptop's Meters panel Left moves
# the selected meter to the left half (the header shows it there at once)
# and Space changes its mode (bar to text); in Display options Space ticks
# the tree view; in Colors Enter picks the scheme for light terminals. Esc
# leaves Setup, ptoprc holds all of it, and a new ptop draws the same header.
# make check sets PTOP, srcdir and TMUX_BIN.

NAME=test_setup
WAIT_SECONDS=30
. "${srcdir:-.}/tests/tmux-lib.sh"
need_tmux
tm_env
htop_beside
rc=$XDG_CONFIG_HOME/ptop/ptoprc

# --- htop: F2 opens Setup; F10 leaves it and htoprc is written ------------
if [ -n "$HTOP" ]; then
	tm_start htop "$HTOP"
	expect '^ *PID +USER'
	keys F2
	expect '\[Setup\]'
	expect '^Categories'
	expect '^Meters'
	expect '^Display options'
	expect '^Colors'
	# the header stays above Setup
	expect '\] +Tasks: '
	keys F10
	expect '^ *PID +USER'
	keys q
	# htop 3.2 writes htoprc as it quits; ptop as Setup closes
	wait_for grep -q '^column_meters_0=' "$XDG_CONFIG_HOME/htop/htoprc" ||
		fail "htop: no htoprc after Setup and q"
	htop_ended
fi

# --- ptop: the same keys ----------------------------------------------------
tm_start ptop "$PTOP" -d 1
expect '^ *PID +USER'
keys F2
expect '^Setup'
expect '^Setup +Left column'
expect '^Meters +cpu +\[bar\]'
expect '^Display options'
expect '^Colors'
expect '^Columns'
# the header stays above Setup, as htop's does
expect '\] +Tasks: '
[ -e "$rc" ] && fail "ptoprc written before Setup closed"

# Meters: the fourth row is tasks (the right half's first); Left moves it left
keys Tab
expect '^(Columns)? +tasks +\[text\]'
keys Down Down Down Left
expect '^Tasks: [0-9]+ total'
# Space on the first row (cpu) shows it as text
keys Home Space
expect ' cpu +\[text\]'
expect '^(CPU|0) +[0-9.]+%'
off_screen '^(CPU|0) +\[' || fail "cpu:text still draws a bar"

# Display options: the first box is the tree view
keys Tab Down Tab
expect ' \[ \] Tree view'
keys Space
expect ' \[x\] Tree view'

# Colors: the third scheme is for light terminals (labels in blue, 34)
keys Tab Down Tab
expect ' \(\*\) Default'
keys Down Down Enter
expect ' \(\*\) Light terminal'
wait_for sh -c "'$TMUX_BIN' -L '$sock' -f /dev/null capture-pane -p -e -t '$session' | grep -q '\[34m'" ||
	fail "the light scheme drew no blue"

# F10 (or Esc) closes Setup and writes ptoprc
keys F10
wait_for test -f "$rc" || fail "closing Setup did not write ptoprc"
wait_for grep -q '^meters = cpu:text,memory,swap,tasks | load,uptime$' "$rc" ||
	fail "ptoprc's meters: $(grep meters "$rc")"
grep -q '^tree = yes$' "$rc" || fail "ptoprc's tree: $(grep tree "$rc")"
grep -q '^color_scheme = light$' "$rc" || fail "ptoprc's scheme: $(grep color "$rc")"
expect '^ *PID +USER'
keys q

# --- a restart draws the same header ----------------------------------------
tm_start again "$PTOP" -d 1
expect '^Tasks: [0-9]+ total'
expect '^(CPU|0) +[0-9.]+%'
expect '^(CPU|0) +[0-9.]+% +Load average: '
keys q

# --- -C (htop's --no-color) wins over the scheme -----------------------------
tm_start mono "$PTOP" -d 1 -C
expect '^Tasks: [0-9]+ total'
tm capture-pane -p -e -t "$session" | grep -q '\[3[0-7]m' &&
	fail "-C drew colours"
keys q
finish
