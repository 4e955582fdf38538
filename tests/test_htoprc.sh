#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_htoprc.sh: an htop user's settings where ptop has none. With no
# ptoprc, the viewer takes htoprc (as htop 3.2 writes it, with its first
# screen's columns changed, sorted by memory, the meters changed and the
# delay 2 s): the same columns in the same order (less the one ptop lacks,
# named on the status line), the same sort, the meters htop shows (and not
# the ones it does not), as htop itself shows with the same file; W writes
# them to ptoprc; once there is a ptoprc, htoprc is not read. An htop 2 file
# (columns and sort by number) gives the columns and order htop 3 takes from
# it. make check sets PTOP, srcdir and TMUX_BIN.

NAME=test_htoprc
WAIT_SECONDS=30
. "${srcdir:-.}/tests/tmux-lib.sh"
need_tmux
tm_env

htop_beside

mkdir -p "$XDG_CONFIG_HOME/htop"
# htop 3.2.2's own file, as it writes it, with the first screen changed
cat >"$XDG_CONFIG_HOME/htop/htoprc" <<'EOF'
# Beware! This file is rewritten by htop when settings are changed in the interface.
# The parser is also very primitive, and not human-friendly.
htop_version=3.2.2
config_reader_min_version=3
fields=0 48 17 18 38 39 40 2 46 47 49 1
hide_kernel_threads=1
hide_userland_threads=1
highlight_changes=0
highlight_changes_delay_secs=5
color_scheme=0
enable_mouse=1
delay=20
header_layout=two_50_50
column_meters_0=AllCPUs Memory
column_meter_modes_0=1 1
column_meters_1=Tasks Uptime PressureStallIOSome
column_meter_modes_1=2 2 2
tree_view=0
sort_key=47
sort_direction=-1
screen:Main=PID USER PERCENT_MEM M_RESIDENT M_PSS Command
.sort_key=PERCENT_MEM
.tree_sort_key=PID
.tree_view=0
.sort_direction=-1
.tree_sort_direction=1
screen:I/O=PID USER IO_PRIORITY IO_RATE IO_READ_RATE IO_WRITE_RATE Command
.sort_key=IO_RATE
.sort_direction=-1
EOF
# htop rewrites its file on quitting: a copy for ptop's turns
cp "$XDG_CONFIG_HOME/htop/htoprc" "$tmp/htoprc"

if [ -n "$HTOP" ]; then
	tm_start htop "$HTOP"
	expect '^ *PID[^ ]* +USER +MEM%[^ ]* +RES +PSS +Command'
	expect 'PSI some IO:'
	off_screen '^ *Swp' || fail "htop: a swap meter htoprc does not ask for"
	keys q
	cp "$tmp/htoprc" "$XDG_CONFIG_HOME/htop/htoprc"
fi

tm_start ptop "$PTOP"
expect '^ *PID +USER +MEM%▼ +RES +PSS +Command'
# every column of the screen is ptop's (test_config names what ptop lacks)
expect "Settings from .*htoprc \\(W saves them"
off_screen 'no such column' || fail "a column of htop's said missing"
# htop's two columns: the CPUs and memory left, the rest right
expect '^(CPU|0) +\[.*\] +Tasks: '
expect '\] +Uptime: '
expect '^Mem +\[.*\] +'
expect ' PSI I/O: +some'
off_screen '^Swp' || fail "ptop: a swap meter htoprc does not ask for"
# W keeps them in ptoprc
keys W
rc=$XDG_CONFIG_HOME/ptop/ptoprc
wait_for grep -q '^columns = pid,user,mem,res,pss,command$' "$rc" ||
	fail "W did not write htoprc's columns: $(grep columns "$rc")"
grep -q '^sort = mem$' "$rc" || fail "W did not write htoprc's sort: $(grep '^sort' "$rc")"
grep -q '^delay = 2$' "$rc" || fail "W did not write htoprc's delay: $(grep delay "$rc")"
grep -q '^meters = cpu,memory | tasks,uptime,psi_io,cost$' "$rc" ||
	fail "W did not write htoprc's meters: $(grep meters "$rc")"
keys q

# With a ptoprc, htoprc is not read.
printf 'columns = pid,user,cpu,command\n' >"$rc"
tm_start again "$PTOP"
expect '^ *PID +USER +CPU%▼ *Command'
off_screen 'Settings from' || fail "htoprc read though ptoprc exists"
keys q

# An htop 2 file (no screens: fields and sort by number, meters left and
# right), read by htop 3 as by ptop: PID PPID USER RES and the command,
# PIDs highest first, tasks and memory meters.
rm -f "$rc"
cat >"$XDG_CONFIG_HOME/htop/htoprc" <<'EOF'
# Beware! This file is rewritten by htop when settings are changed in the interface.
# The parser is also very primitive, and not human-friendly.
fields=0 3 48 39 1
sort_key=0
sort_direction=-1
hide_kernel_threads=0
tree_view=0
delay=15
left_meters=Memory
left_meter_modes=1
right_meters=Tasks
right_meter_modes=2
EOF
cp "$XDG_CONFIG_HOME/htop/htoprc" "$tmp/htoprc"
# first_pids: the PIDs of the first two rows under the header (htop's or ptop's)
first_pids() {
	screen | awk '/^ *PID/ { on = 1; next } on && $1 ~ /^[0-9]+$/ && n++ < 2 { printf "%s ", $1 }'
}
descending() {
	set -- $(first_pids)
	[ $# -eq 2 ] && [ "$1" -gt "$2" ]
}
if [ -n "$HTOP" ]; then
	tm_start htop2 "$HTOP"
	expect '^ *PID. +PPID +USER +RES +Command'
	wait_for descending || fail "htop: PIDs not highest first: $(first_pids)"
	keys q
	cp "$tmp/htoprc" "$XDG_CONFIG_HOME/htop/htoprc"
fi
tm_start ptop2 "$PTOP"
expect '^ *PID. +PPID +USER +RES +Command'
wait_for descending || fail "ptop: PIDs not highest first: $(first_pids)"
expect 'Tasks: '
off_screen 'Swp' || fail "ptop: a swap meter the htop 2 file does not ask for"
keys q
finish
