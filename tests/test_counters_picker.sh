#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_counters_picker.sh: events chosen in the Counters pane, as a
# first-time user would. A child that forks in a loop (so it switches
# context and takes page faults) is shown with ptop -p in a private tmux
# server; E opens the picker, which lists the software events and says
# whether a hardware PMU was found; task-clock is unticked and
# context-switches and page-faults ticked (the --counters= line follows);
# closing it counts them: their columns come, with figures after a frame.
# Typing (or /) filters the list, Esc clears the filter (htop's IncSet).
# W saves them in ptoprc, and a new ptop with the same HOME shows the same
# columns; --counters overrides them, without a list too (the defaults).
# A bad counters line in ptoprc, and an unknown event in it, are named.
# Skips (77) without tmux or where perf events cannot be opened.

NAME=test_counters_picker
. "${srcdir:-.}/tests/tmux-lib.sh"
need_tmux
tm_env
WAIT_SECONDS=30
rc=$XDG_CONFIG_HOME/ptop/ptoprc

sh -c 'while :; do /bin/true; sleep 0.01; done' &
busy=$!
kids=$busy

"$PTOP" -b -n 1 --counters=context-switches -p "$busy" >"$tmp/probe" 2>&1 ||
	skip "no perf events here: $(cat "$tmp/probe")"

# start: ptop ARGS... in a new session
start() {
	tm_new_server
	tm_run "$PTOP" -d 0.5 -p "$busy" "$@"
	expect '^ *PID '
}

# the two chosen columns, with a figure in each (a count, K/M/G past 5 digits)
figures="^ *$busy +[0-9.]+[KMGT]? +[0-9.]+[KMGT]? "

start --counters=task-clock
keys 2
expect '^ *PID +~?task-clock '
expect 'E: choose events'
keys E
expect 'Choose events'
expect '(no hardware PMU: software events only|hardware PMU found)'
expect '^--counters=task-clock *$'
expect '^ *\[ctr1\] +task-clock '
expect '^ *\[    \] +context-switches '
keys Home Enter
expect '^--counters= *$'
keys Down Down Space
expect '^--counters=context-switches *$'
keys Down Down Space
expect '^--counters=context-switches,page-faults *$'
expect '^ *\[ctr2\] +page-faults '

# / filters the list by name or description, in any case (htop's IncSet);
# Esc clears it
expect '^Type or / to filter the list'
keys /
expect '^Filter: _'
keys f A u l
expect '^Filter: fAul_ +[0-9]+ of [0-9]+ events; Esc clears'
expect '^ *\[ctr2\] +page-faults '
expect '^ *\[    \] +major-faults '
off_screen ' context-switches ' || fail "the filter kept context-switches"
keys x y z
expect '^ *\(no event matches\)'
keys Escape
expect '^Type or / to filter the list'
expect '^ *\[ctr1\] +context-switches '
# typing starts it too; Space ticks in the filtered list, Enter keeps it
keys m i g r
expect '^Filter: migr_ '
expect '^ *\[    \] +cpu-migrations '
keys Space
expect '^--counters=context-switches,page-faults,cpu-migrations *$'
keys Enter
expect '^Filter: migr  '
keys Space
expect '^--counters=context-switches,page-faults *$'
# the first Esc clears a kept filter, the next closes the picker
keys Escape
expect '^Type or / to filter the list'
expect 'Choose events'
keys E
expect 'Counting from the next frame: context-switches,page-faults '
expect '^ *PID +~?ctx-sw +~?faults '
expect "$figures"
off_screen 'task-clock' || fail "task-clock is still counted"

keys W
expect 'Settings written to'
grep -qx 'counters = context-switches,page-faults' "$rc" ||
	fail "ptoprc has no counters line: $(cat "$rc")"
keys q

# the saved events, without --counters
start
keys 2
expect '^ *PID +~?ctx-sw +~?faults '
expect "$figures"
keys q

# --counters overrides ptoprc's
start --counters=cpu-migrations
keys 2
expect '^ *PID +~?migrations '
off_screen 'ctx-sw' || fail "--counters did not override ptoprc"
keys q

# --counters without a list: the defaults, not ptoprc's
start --counters
keys 2
expect '^ *PID +~?(cycles|task-clock) '
keys q

# a bad line is named, the rest of ptoprc is read
printf 'delay = 0.5\ncounters = context-switches,,page-faults\n' >"$rc"
start
expect 'ptoprc:2: counters: an empty event name'
keys q
printf 'counters = a,b,c,d,e,f,g,h,i\n' >"$rc"
start
expect 'ptoprc:1: counters: at most 8 events'
keys q
printf 'counters = context-switches,no-such-event\n' >"$rc"
start
keys 2
expect "counters: unknown event 'no-such-event' in ptoprc's counters line"
keys E
expect 'Choose events'
keys Escape
keys q
finish
