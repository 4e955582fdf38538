#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_screens.sh: a screen open (a menu, help, a prompt, the event picker)
# owns the keys; none reaches the process table behind it, however fast
# they are typed. In tmux, as htop and top users type: F6 then F9 Enter
# picks a sort column and signals nothing; k Esc F8 typed at once opens and
# closes the signal menu, then renices the selected process; help closes on
# the next key, which does nothing else; in the event picker a digit is
# text, not the pane switch; the D prompt names its process and arms on it
# only if it is still the one chosen. make check sets PTOP, srcdir, TMUX_BIN.

NAME=test_screens

WAIT_SECONDS=30
. "${srcdir:-.}/tests/tmux-lib.sh"
need_tmux

set_name=$(printf 'sc%07d' $$)

# spawn LETTER: a sleeping process of this run; its PID in $spawned and $kids.
spawn() {
	spawn_sleeper "$set_name$1"
}

born=$(nice)
[ "$born" -le 18 ] || skip "running at nice $born: no room for F8"

tm_env
spawn A
a=$spawned
spawn B
b=$spawned

tm_run "$PTOP" -d 0.3
expect '^ *PID +USER .*Command'
keys -l '\'
expect 'Filter: '
keys -l "$set_name"
keys Enter
rows_are() {
	[ "$(table_rows | grep -c "$set_name")" -eq "$1" ]
}
wait_for rows_are 2 || fail "the filter should show A and B"
keys /
expect 'Search: '
keys -l "${set_name}B"
keys Enter
wait_for off_screen 'Search: ' || fail "the search bar did not close"

# 1. F6 F9 Enter at once: the sort menu has F9 and Enter; nothing is signalled.
keys F6 F9 Enter
wait_for off_screen 'Sort by:' || fail "the sort menu did not close"
sleep 0.5
alive "$b" || fail "F9 Enter in the sort menu signalled B ($b)"
alive "$a" || fail "F9 Enter in the sort menu signalled A ($a)"
off_screen 'Send signal' || fail "F9 in the sort menu opened the signal menu"

# 2. k Esc F8 at once: the menu opens and closes, then F8 renices B.
keys k Escape F8
nice_is() {
	[ "$(nice_of "$1")" = "$2" ]
}
wait_for nice_is "$b" $((born + 1)) || fail "k Esc F8 should renice B ($b)"
alive "$b" || fail "k Esc F8 signalled B ($b)"
[ "$(nice_of "$a")" = "$born" ] || fail "k Esc F8 reniced A ($a)"

# 3. Help closes on the next key, which does nothing else: h k shows no signal menu.
keys h k
wait_for off_screen 'Send signal' || fail "k after help opened the signal menu"
expect '^ *PID +USER .*Command'

# 4. The D prompt: its process fixed when it opened; gone by Enter, nothing is armed.
if "$PTOP" -b -n 1 -p "$b" --watch "$b:[stack]+0:4:w" >"$tmp/probe" 2>&1; then
	keys D
	expect 'Watch NAME'
	kill -KILL "$b"
	# (not reaped yet, maybe: a zombie is gone to ptop too)
	wait_for gone "$b" || fail "B ($b) should end"
	keys -l '[stack]+0:4:w'
	keys Enter
	expect "Cannot watch $b \\(${set_name}B\\): it is gone"
else
	partial_skip "no breakpoints here: $(head -n 1 "$tmp/probe")"
fi

# 5. In the event picker a digit is text, not the pane switch (1 is the Processes pane).
if "$PTOP" -b -n 1 --counters=task-clock -p "$a" >"$tmp/probe" 2>&1; then
	keys 2
	expect '^ *PID +~?task-clock '
	keys E
	expect 'Choose events'
	keys /
	expect '^Filter: _'
	keys 1
	expect '^Filter: 1_'
	expect 'Choose events'
	keys Escape Escape
	wait_for off_screen 'Choose events' || fail "Esc Esc should close the picker"
else
	partial_skip "no perf events here: $(head -n 1 "$tmp/probe")"
fi

keys q
wait_for test -s "$tmp/status" || fail "ptop did not exit after q"
[ "$(cat "$tmp/status")" = 0 ] || fail "ptop exited with status $(cat "$tmp/status")"
finish
