#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_cgroup_psi_tui.sh: the cgroup pressure columns in the viewer, driven
# in tmux. htop has no per-cgroup pressure column (its pressure meters are
# the machine's), so the cgroup's own files are the reference. A sleeper
# and a busy child share a cgroup of their own under the unified hierarchy
# (/sys/fs/cgroup, or its "unified" directory on a hybrid machine) as root,
# else the sleeper stays in the test's own cgroup. ptoprc shows memory's
# and I/O's some avg10 (CGMEMs10, CGIOs10); the column chooser (C) adds
# CPU's some avg10 and avg60 (CGCPUs10, CGCPUs60): the heading shows them
# and the sleeper's row the values its cgroup's files say (read before or
# after the screen: they move every 2 s, so tried until they hold still).
# With 0 written to the cgroup's cgroup.pressure (Linux 6.5 on) the row
# shows '-' in each, never 0. Skips (77) without a unified hierarchy or PSI.
# make check sets PTOP, srcdir and TMUX_BIN.

NAME=test_cgroup_psi_tui
WAIT_SECONDS=60
. "${srcdir:-.}/tests/tmux-lib.sh"
need_tmux
tm_env

unified_cgroups

name=$(printf 'cp%07d' $$)
cp "$(command -v sleep)" "$tmp/$name" || exit 1
"$tmp/$name" 600 &
target=$!
kids=$target
wait_for grep -q "^Name:.$name" "/proc/$target/status" || die "the sleeper did not start"

made=
if own_cgroup "ptop_test_tui_$$"; then
	made=1
	echo "$target" >"$cg/cgroup.procs" || die "cannot move the sleeper into $cg"
	sh -c 'while :; do :; done' &
	kids="$kids $!"
	echo $! >"$cg/cgroup.procs" || die "cannot move the busy child into $cg"
	# the kernel counts the busy child's waits for a CPU (not where CPUs are to spare)
	WAIT_SECONDS=20
	if wait_for sh -c "! grep -q '^some avg10=0.00 ' '$cg/cpu.pressure'"; then
		busy=1
	else
		partial_skip "no CPU pressure counted in $cg (CPUs to spare): zeros compared"
	fi
	WAIT_SECONDS=60
else
	partial_skip "cannot make a cgroup under $unified (root, a writable cgroup2): the test's own cgroup is read"
	cg=$unified$own
	[ "$own" = / ] && cg=$unified
	[ -r "$cg/cpu.pressure" ] || skip "no cpu.pressure in $cg: a kernel without PSI, or PSI off"
fi

mkdir -p "$tmp/config/ptop"
printf 'columns = pid,cg_mem_some,cg_io_some,command\n' >"$tmp/config/ptop/ptoprc"
tm_run "$PTOP" -d 1 -p "$target"
expect '^ *PID +CGMEMs10 +CGIOs10 +Command'
expect "^ *$target +[0-9]+\.[0-9]{2} +[0-9]+\.[0-9]{2} +$name\$"

# the column chooser: CGCPUs10 and CGCPUs60 added
keys C
expect '^Columns: '
# choose TITLE: TITLE's row of the chooser selected (the list scrolls), and Space.
choose() {
	select_row "[ ] $1 "
	keys Space
	# a shown column is listed first: at the top
	keys Home
	wait_for on_screen "^ \[x\] $1 " || fail "Space should show $1"
}
# a list longer than the screen scrolls only to keep the selection on it, as htop's panels:
# Up from its last row moves the selection up the screen, not the list under it
keys End
wait_for settled || fail "the chooser does not settle"
last=$(selected_line)
keys Up
wait_for selected_on "$((last - 1))" ||
	fail "Up from the chooser's last row (line $last) left the selection on line $(selected_line)"
choose CGCPUs10
choose CGCPUs60
keys Enter
expect '^ *PID +CGCPUs10 +CGMEMs10 +CGIOs10 +CGCPUs60 +Command|^ *PID +CGMEMs10 +CGIOs10 +CGCPUs10 +CGCPUs60 +Command'

# The four values as the files say them, in the heading's order.
files_say() {
	c=$(cat "$cg/cpu.pressure") && m=$(cat "$cg/memory.pressure") && i=$(cat "$cg/io.pressure") ||
		return 1
	c10=$(printf '%s\n' "$c" | sed -n 's/^some avg10=\([0-9.]*\) .*/\1/p')
	c60=$(printf '%s\n' "$c" | sed -n 's/^some .* avg60=\([0-9.]*\) .*/\1/p')
	m10=$(printf '%s\n' "$m" | sed -n 's/^some avg10=\([0-9.]*\) .*/\1/p')
	i10=$(printf '%s\n' "$i" | sed -n 's/^some avg10=\([0-9.]*\) .*/\1/p')
	heading=$(screen | grep -E '^ *PID ')
	case $heading in
	*CGCPUs10\ *CGMEMs10*) echo "$c10 $m10 $i10 $c60" ;;
	*) echo "$m10 $i10 $c10 $c60" ;;
	esac
}
shown() {
	screen | awk -v t="$target" '$1 == t { print $2, $3, $4, $5 }'
}
agree() {
	before=$(files_say)
	got=$(shown)
	after=$(files_say)
	[ -n "$got" ] && { [ "$got" = "$before" ] || [ "$got" = "$after" ]; }
}
wait_for agree || fail "the row shows '$got', $cg says '$before' then '$after'"
# the busy child's waits show in its cgroup's CPU column
case $(screen | grep -E '^ *PID ') in
*CGCPUs10\ *CGMEMs10*) cpu10=$(echo "$got" | cut -d' ' -f1) ;;
*) cpu10=$(echo "$got" | cut -d' ' -f3) ;;
esac
[ -z "${busy:-}" ] || [ "$cpu10" != 0.00 ] || fail "CGCPUs10 is 0.00 in a cgroup with a busy child"

# PSI off for the cgroup: '-' in every pressure column, never 0
if [ -n "$made" ] && [ -w "$cg/cgroup.pressure" ] && echo 0 >"$cg/cgroup.pressure" 2>/dev/null; then
	expect "^ *$target +- +- +- +- +$name\$"
else
	partial_skip "no cgroup.pressure to turn PSI off with (a kernel before 6.5, or not root)"
fi
keys q
wait_for test -s "$tmp/status" || fail "q should end ptop"
finish
