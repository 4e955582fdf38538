#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_actions.sh: a signal or a renice reaches the process the user chose,
# and no other, however the rows move while the menu or prompt is open. Driven
# in a private tmux server as a user would: processes of a set (A, B, C) are
# filtered and sorted by name, B is selected, the menu opens on it, then A is
# killed from outside so that the rows shift and C takes B's place; Enter must
# still reach B. Also: k and Enter typed before a redraw; a chosen process that
# is gone by Enter; F8 pressed three times within one refresh adds up to 3.
# make check sets PTOP, srcdir and TMUX_BIN.

NAME=test_actions

# Every wait here expects success: a loaded machine may slow it, not fail it.
WAIT_SECONDS=30
. "${srcdir:-.}/tests/tmux-lib.sh"
need_tmux

# spawn SET LETTER: a sleeping process named for this run, set and letter;
# its PID is left in $spawned and in $kids for the cleanup.
spawn() {
	spawn_sleeper "$(printf 'pa%07d%s%s' $$ "$1" "$2")"
}

# The nice value the children are born with: make check may run under nice(1).
born=$(nice)
[ "$born" -le 16 ] || skip "running at nice $born: no room for three steps of F8"

# show SET N: filter for a set and wait for its N rows
show() {
	keys -l '\'
	expect 'Filter: '
	keys C-u
	keys -l "$(printf 'pa%07d%s' $$ "$1")"
	keys Enter
	rows_are() {
		[ "$(table_rows | grep -c "pa[0-9]*$1")" -eq "$2" ]
	}
	wait_for rows_are "$1" "$2" || fail "set $1 should show $2 rows"
}

# Select the second row (B): Home, then Down.
select_second() {
	keys Home
	keys Down
}

tm_env

# the sets: A, B and C of each sort in that order by name
spawn 1 A
a1=$spawned
spawn 1 B
b1=$spawned
spawn 1 C
c1=$spawned
spawn 2 A
a2=$spawned
spawn 2 B
b2=$spawned
spawn 2 C
c2=$spawned
spawn 3 A
a3=$spawned
spawn 3 B
b3=$spawned
spawn 3 C
c3=$spawned
spawn 4 A
a4=$spawned
spawn 4 B
b4=$spawned
spawn 5 X
x5=$spawned

tm_run "$PTOP" -d 0.5
expect '^ *PID +USER .*Command'
# sort by name (F6, the last column: COMMAND), so A, B, C come in that order
# whatever their PIDs (they wrap, with pid_max at 32768)
keys F6
expect 'Sort by:'
keys End Enter
wait_for off_screen 'Sort by:' || fail "the sort menu did not close"

# 1. k and Enter in one go, before any redraw: SIGTERM reaches B, nothing crashes.
show 1 3
select_second
keys k Enter
wait_for gone "$b1" || fail "k Enter typed ahead should have ended B ($b1)"
alive "$a1" || fail "A ($a1) was hit"
alive "$c1" || fail "C ($c1) was hit"
expect "Sent SIGTERM to $b1 "
ptop_alive() {
	[ ! -s "$tmp/status" ]
}
ptop_alive || fail "ptop ended with status $(cat "$tmp/status") after k Enter"

# 2. The menu opens on B; A exits and the rows shift under the menu; Enter hits B.
show 2 3
select_second
keys k
expect "Send signal to $b2 \\(pa[0-9]+2B\\):"
kill -KILL "$a2"
wait_for off_screen "pa[0-9]+2A" || fail "A ($a2) should leave the table"
on_screen "^ *$c2 .*pa[0-9]+2C" || fail "C ($c2) should be on screen"
keys Enter
wait_for gone "$b2" || fail "the signal should have ended B ($b2)"
alive "$c2" || fail "the signal chosen for B ($b2) hit C ($c2)"
expect "Sent SIGTERM to $b2 \\(pa[0-9]+2B\\)"

# 3. The renice prompt opens on B; A exits; the value reaches B, not C.
show 3 3
select_second
keys r
expect "Renice $b3 \\(pa[0-9]+3B\\) to \\(-20\\.\\.19\\): _"
kill -KILL "$a3"
wait_for off_screen "pa[0-9]+3A" || fail "A ($a3) should leave the table"
keys -l 5
keys Enter
expect "Process $b3 \\(pa[0-9]+3B\\) reniced to 5"
[ "$(nice_of "$b3")" = 5 ] || fail "B ($b3) has nice $(nice_of "$b3"), not 5"
[ "$(nice_of "$c3")" = "$born" ] || fail "C ($c3) was reniced to $(nice_of "$c3")"

# 4. The chosen process is gone by Enter: nothing is sent, and ptop says so.
show 4 2
select_second
keys k
expect "Send signal to $b4 "
kill -KILL "$b4"
wait_for off_screen "^ *$b4 " || fail "B ($b4) should leave the table"
keys Enter
expect "Process $b4 \\(pa[0-9]+4B\\) is gone: nothing was done"
alive "$a4" || fail "A ($a4) took the signal meant for B ($b4)"

# 5. F8 three times within one refresh: 3 above where it was born, not 1; then F7 once: 2.
show 5 1
keys Home
keys F8 F8 F8
nice_is() {
	[ "$(nice_of "$1")" = "$2" ]
}
wait_for nice_is "$x5" $((born + 3)) ||
	fail "three F8 left nice at $(nice_of "$x5"), not $((born + 3))"
expect "Process $x5 \\(pa[0-9]+5X\\) reniced to $((born + 3))"
keys F7
wait_for nice_is "$x5" $((born + 2)) || fail "F7 left nice at $(nice_of "$x5"), not $((born + 2))"

keys q
wait_for test -s "$tmp/status" || fail "ptop did not exit after q"
[ "$(cat "$tmp/status")" = 0 ] || fail "ptop exited with status $(cat "$tmp/status")"
finish
