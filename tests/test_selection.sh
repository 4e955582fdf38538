#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_selection.sh: the selection is a process, not a row. Driven in tmux
# as an htop user would, with no key pressed between choosing and acting:
# a process chosen by a search keeps the selection when a new one sorts
# above it, so F8 renices the chosen one; when the chosen one ends, the
# selection moves to its neighbour and the status line says so. And F3
# opens the search bar, as htop's does: what is typed after it is a search,
# never keys (`F3 kworker Enter` once sent SIGTERM: k opened the signal
# menu, Enter confirmed). make check sets PTOP, srcdir and TMUX_BIN.

NAME=test_selection

# Every wait here expects success: a loaded machine may slow it, not fail it.
WAIT_SECONDS=30
. "${srcdir:-.}/tests/tmux-lib.sh"
need_tmux

set_name=$(printf 'ps%07d' $$)

# spawn LETTER: a sleeping process named for this run and the letter; its
# PID in $spawned and in $kids for the cleanup.
spawn() {
	spawn_sleeper "$set_name$1"
}

born=$(nice)
[ "$born" -le 18 ] || skip "running at nice $born: no room for F8"

# selected PID: the signal menu names the selected process; Esc closes it.
selected() {
	keys k
	expect "Send signal to $1 "
	keys Escape
	wait_for off_screen 'Send signal' || fail "Esc should close the signal menu"
}

tm_env
spawn B
b=$spawned
spawn C
c=$spawned

tm_run "$PTOP" -d 0.3
expect '^ *PID +USER .*Command'
# by name (F6, the last column: COMMAND), only this run's processes
keys F6
expect 'Sort by:'
keys End Enter
wait_for off_screen 'Sort by:' || fail "the sort menu did not close"
keys -l '\'
expect 'Filter: '
keys -l "$set_name"
keys Enter
rows_are() {
	[ "$(table_rows | grep -c "$set_name")" -eq "$1" ]
}
wait_for rows_are 2 || fail "the filter should show B and C"

# 1. B chosen by a search; A starts and sorts above it; F8 renices B, not A.
keys /
expect 'Search: '
keys -l "${set_name}B"
keys Enter
wait_for off_screen 'Search: ' || fail "the search bar did not close"
selected "$b"
spawn A
a=$spawned
wait_for rows_are 3 || fail "A ($a) should join the table"
# a frame or two more, with nothing typed: the rows re-sort under the selection
on_a_then_b() {
	table_rows | grep -n "$set_name" | grep -q "^1:.*${set_name}A" &&
		table_rows | grep -n "$set_name" | grep -q "^2:.*${set_name}B"
}
wait_for on_a_then_b || fail "A should sort above B"
keys F8
nice_is() {
	[ "$(nice_of "$1")" = "$2" ]
}
wait_for nice_is "$b" $((born + 1)) || fail "F8 should renice the chosen B ($b)"
[ "$(nice_of "$a")" = "$born" ] || fail "F8 reniced A ($a), which sorted above the chosen B"
expect "Process $b \\(${set_name}B\\) reniced to $((born + 1))"

# 2. The chosen process ends: the neighbour is selected, and the status line says so.
kill -KILL "$b"
expect "Process $b \\(${set_name}B\\) ended: selected [0-9]+ "
wait_for rows_are 2 || fail "B ($b) should leave the table"

# 3. F3 opens the search bar: "kworker" is a search, Enter ends it; nothing is signalled.
keys /
expect 'Search: '
keys C-u
keys -l "${set_name}C"
keys Enter
wait_for off_screen 'Search: ' || fail "the search bar did not close"
selected "$c"
keys F3 k w o r k e r Enter
wait_for off_screen 'Search: ' || fail "the search bar opened by F3 did not close"
off_screen 'Send signal' || fail "F3 kworker Enter opened the signal menu"
sleep 1
alive "$c" || fail "F3 kworker Enter signalled C ($c)"
alive "$a" || fail "F3 kworker Enter signalled A ($a)"
off_screen 'Sent SIG' || fail "F3 kworker Enter sent a signal"

# 4. In the bar, F3 goes to the next match: from A to C, both of this run.
keys /
expect 'Search: '
keys C-u
keys -l "${set_name}A"
wait_for on_screen "Search: ${set_name}A" || fail "the search bar should show the text"
keys BSpace F3 Enter
selected "$c"

keys q
wait_for test -s "$tmp/status" || fail "ptop did not exit after q"
[ "$(cat "$tmp/status")" = 0 ] || fail "ptop exited with status $(cat "$tmp/status")"
finish
