#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_tui.sh: the interactive viewer driven as a user drives it, through a
# private tmux server: ptop starts and draws its header and column headings;
# a filter narrows the table to one process started for the test; k and
# Enter send it SIGTERM, which it dies of; shrinking the terminal keeps a
# sensible screen (COMMAND cut first, the sort column and TIME+ kept), then
# says "terminal too small", and growing it back
# redraws everything; h shows help; W writes ptoprc under $XDG_CONFIG_HOME;
# q quits with status 0 and leaves no process behind. make check sets PTOP,
# srcdir and TMUX_BIN (empty when configure found no tmux: the test skips).

NAME=test_tui
. "${srcdir:-.}/tests/tmux-lib.sh"
need_tmux

resize() {
	tm resize-window -t "$session" -x "$1" -y "$2" 2>/dev/null ||
		tm resize-pane -t "$session" -x "$1" -y "$2"
}

# A process with a name nothing else has, to filter for and to kill; fixed-width,
# so that no other run's name contains this one (comm keeps 15 bytes).
victim=$(printf 'ptvictim%07d' $$)
cp "$(command -v sleep)" "$tmp/$victim" || exit 1
"$tmp/$victim" 600 &
victim_pid=$!
kids=$victim_pid

tm_env
tm_run "$PTOP" -d 0.5 --source=procfs

# the header, htop's by default (CPUs, memory, swap beside tasks, load,
# uptime), and the column headings
expect '^(CPU|0) +\[.*\] +Tasks: [0-9]+ total, [0-9]+ running'
expect '^Mem +\[.*\] '
expect '^Swp +\['
expect '\] +Load average: [0-9.]+ [0-9.]+ [0-9.]+'
expect '\] +Uptime: '
expect '^ *PID +USER +PRI +NI +VIRT +RES +SHR +S +CPU%▼ *MEM% +TIME\+ +Command'

# filter for the victim: its row is the only one
keys -l '\'
expect 'Filter: _'
# line editing: Ctrl-W takes the last word, Ctrl-U the whole line
keys -l "no such words"
expect 'Filter: no such words_'
keys C-w
expect 'Filter: no such _'
keys C-u
expect 'Filter: _'
keys -l "$victim"
keys Enter
only_victim() {
	rows=$(table_rows)
	[ "$(printf '%s\n' "$rows" | grep -c .)" -eq 1 ] &&
		printf '%s\n' "$rows" | grep -Eq "^ *$victim_pid .*$victim\$"
}
wait_for only_victim || fail "the filter should leave only $victim ($victim_pid)"

# p: command lines instead of names, read for the rows in view; p again: names
keys p
expect "^ *$victim_pid .*/$victim 600\$"
keys p
expect "^ *$victim_pid .* $victim\$"

# k: the signal menu, SIGTERM chosen; Enter sends it
keys k
expect 'Send signal to '"$victim_pid"' \('"$victim"'\):'
expect '15 TERM'
keys Enter
expect "Sent SIGTERM to $victim_pid \($victim\)"
victim_gone() {
	! kill -0 "$victim_pid" 2>/dev/null ||
		[ "$(sed 's/.*) \([A-Za-z]\).*/\1/' "/proc/$victim_pid/stat" 2>/dev/null)" = Z ]
}
wait_for victim_gone || fail "$victim ($victim_pid) is still running"
vp=$victim_pid
wait "$vp"
st=$?
victim_pid=
[ "$st" -eq 143 ] || fail "$victim exited with $st, not of SIGTERM (143)"
kill -0 "$vp" 2>/dev/null && fail "$victim ($vp) is still there"

# a small terminal still gets the whole layout; a tiny one is told so
resize 40 10
small_layout() {
	on_screen '^(CPU|0) +\[' && on_screen '^ *PID +CPU%▼ *MEM% +TIME\+ Command' && on_screen '1 Processes'
}
wait_for small_layout || fail "40x10 should still show the header and the table"
resize 30 8
expect '^terminal too small'
resize 160 48
expect '^(CPU|0) +\[.*\] +Tasks: [0-9]+ total'
expect '^ *PID +USER +PRI +NI +VIRT +RES +SHR +S +CPU%▼ *MEM% +TIME\+ +Command'
wait_for off_screen 'terminal too small' || fail "still too small at 160x48"

# 1 on the Processes pane: one bar for all CPUs, or one per CPU (up to 32
# CPUs the header starts with one per CPU, as htop's); 1 again: back
if [ "$(getconf _NPROCESSORS_CONF)" -le 32 ]; then
	expect '^0 +\['
	keys 1
	expect '^CPU \['
	keys 1
	expect '^0 +\['
else
	expect '^CPU \['
	keys 1
	expect '^0 +\['
	keys 1
	expect '^CPU \['
fi

# help, then back
keys h
expect 'keys \(Up and Down scroll'
expect '^ +q F10 \^C +Quit'
keys Escape
wait_for off_screen 'keys \(Up and Down scroll' || fail "Esc should close the help"
expect '\] +Tasks: '

# W writes the settings where XDG_CONFIG_HOME says, making the directory
[ -e "$XDG_CONFIG_HOME" ] && fail "$XDG_CONFIG_HOME should not exist yet"
keys W
config_written() {
	[ -f "$XDG_CONFIG_HOME/ptop/ptoprc" ] && grep -q '^columns = ' "$XDG_CONFIG_HOME/ptop/ptoprc"
}
wait_for config_written || fail "W did not write $XDG_CONFIG_HOME/ptop/ptoprc"
expect 'Settings written to '
grep -q '^delay = 0.5$' "$XDG_CONFIG_HOME/ptop/ptoprc" ||
	fail "ptoprc should hold the delay given by -d: $(cat "$XDG_CONFIG_HOME/ptop/ptoprc")"

# q quits with status 0, and ptop is gone
keys q
exited() {
	[ -s "$tmp/status" ]
}
wait_for exited || fail "ptop did not exit after q"
[ "$(cat "$tmp/status")" = 0 ] || fail "ptop exited with status $(cat "$tmp/status")"
ptop_pid=$(cat "$tmp/ptop.pid")
ptop_gone() {
	! kill -0 "$ptop_pid" 2>/dev/null
}
wait_for ptop_gone || fail "ptop ($ptop_pid) is still running after q"
finish
