#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_setup_scroll.sh: Setup's lists scroll when longer than the screen,
# beside htop's. At 80x24 and at 80x12, in the Meters panel End selects the
# last meter and it is on the screen (the first ones scrolled off), Home
# brings the first back, and two pages down scroll the first off and two up
# bring it back, as htop's Available meters do with the same keys;
# at 80x12 the Display options scroll the same way (Tree view, their first,
# off the screen after End and back after Home), as htop's.
# make check sets PTOP, srcdir and TMUX_BIN.

NAME=test_setup_scroll
WAIT_SECONDS=30
. "${srcdir:-.}/tests/tmux-lib.sh"
need_tmux
tm_env
htop_beside

# gone PATTERN: no line matches PATTERN (waited for)
gone() {
	wait_for off_screen "$1" || fail "expected /$1/ off the screen"
}

for size in 80x24 80x12; do
	TM_COLS=${size%x*}
	TM_LINES=${size#*x}
	export TM_COLS TM_LINES

	# --- htop: Available meters, then Display options ----------------------
	if [ -n "$HTOP" ]; then
		tm_start "htop$TM_LINES" "$HTOP"
		expect 'PID +USER'
		keys F2
		expect '^Categories'
		keys Down Down Right Right Right
		expect 'Available meters'
		expect ' Clock'
		keys End
		# the last of htop's list is a CPU of this machine's
		expect ' CPU [0-9]+ *$'
		gone ' Clock'
		keys Home
		expect ' Clock'
		# a page down twice scrolls the first off; a page up twice brings it back
		keys NPage NPage
		gone ' Clock'
		keys PPage PPage
		expect ' Clock'
		if [ "$TM_LINES" -le 12 ]; then
			keys Left Left Left Up Up Right
			expect 'Tree view'
			keys End
			gone 'Tree view'
			keys Home
			expect 'Tree view'
		fi
		keys F10
		expect 'PID +USER'
		htop_quit
	fi

	# --- ptop: the meters, then the display options ---------------------------
	tm_start "ptop$TM_LINES" "$PTOP" -d 1
	expect 'PID +USER'
	keys F2
	expect '^Setup +Left column'
	keys Tab
	expect ' cpu +\[bar\]'
	keys End
	# the last row is the table's last meter not shown
	expect ' (right_cpus8|memory_graph) *$'
	gone 'Left column'
	keys Home
	expect 'Left column'
	expect ' cpu +\[bar\]'
	keys NPage NPage
	gone 'Left column'
	keys PPage PPage
	expect 'Left column'
	if [ "$TM_LINES" -le 12 ]; then
		keys Tab Down Tab
		expect 'Tree view'
		keys End
		expect 'Memory columns from this unit up'
		gone 'Tree view'
		keys Home
		expect 'Tree view'
	fi
	keys Escape
	expect 'PID +USER'
	keys q
done
finish
