#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_header.sh: the header's layout as a setting, beside htop. At 80x24
# with each tool's default header (htop's: CPUs, memory and swap on the
# left; tasks, load average and uptime on the right), ptop shows at least as
# many process rows as htop. An htoprc whose columns hold other meters, some
# as text (column_meter_modes 2): ptop puts each where htop does, in the mode
# htop draws it, and W writes that layout to ptoprc's meters line; a ptoprc
# meters line with both columns and a mode draws the same header again after
# a restart. htoprc's AllCPUs2 on a machine of two CPUs: both bars on one
# row, in htop and in ptop, and W keeps it as all_cpus2. make check sets
# PTOP, srcdir and TMUX_BIN.

NAME=test_header
WAIT_SECONDS=30
. "${srcdir:-.}/tests/tmux-lib.sh"
need_tmux
tm_env
htop_beside

# processes enough to fill either table, whatever else runs
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30; do
	sleep 600 &
	kids="$kids $!"
done

# process_rows: the lines under the column headings that start with a PID
process_rows() {
	screen | awk '/^ *PID/ { on = 1; next } on && /^ *[0-9]+ / { n++ } END { print n + 0 }'
}

TM_COLS=80
TM_LINES=24
export TM_COLS TM_LINES

# --- each tool's default header at 80x24 -----------------------------------
htop_rows=
if [ -n "$HTOP" ]; then
	tm_start htop "$HTOP"
	expect '^ *PID +USER'
	expect 'Load average:'
	wait_for positive process_rows || fail "htop: no process rows"
	htop_rows=$(process_rows)
	htop_quit
fi

tm_start ptop "$PTOP" -d 5
expect '^ *PID +USER'
expect '\] +Load average: [0-9.]+ [0-9.]+ [0-9.]+$'
expect '^(CPU|0) +\[.*\] +Tasks: '
expect '^Mem +\[.*\]'
expect '^Swp +\['
expect ' Uptime: '
wait_for positive process_rows || fail "ptop: no process rows"
ptop_rows=$(process_rows)
keys q
echo "$NAME: process rows at 80x24: htop ${htop_rows:-(not run)}, ptop $ptop_rows"
if [ -n "$htop_rows" ]; then
	[ "$ptop_rows" -ge "$htop_rows" ] ||
		fail "ptop shows $ptop_rows process rows at 80x24, htop $htop_rows"
fi
# without htop: the header's own budget (4 meter rows on this layout up to 2 CPUs)
if [ "$(getconf _NPROCESSORS_CONF)" -le 2 ]; then
	[ "$ptop_rows" -ge 17 ] || fail "ptop shows $ptop_rows process rows at 80x24 (want 17)"
fi

# --- htop's layout and modes from htoprc -----------------------------------
mkdir -p "$XDG_CONFIG_HOME/htop"
cat >"$tmp/htoprc" <<'EOF'
# Beware! This file is rewritten by htop when settings are changed in the interface.
htop_version=3.2.2
config_reader_min_version=3
header_layout=two_50_50
column_meters_0=Memory Swap
column_meter_modes_0=2 1
column_meters_1=LoadAverage Tasks
column_meter_modes_1=2 2
EOF
cp "$tmp/htoprc" "$XDG_CONFIG_HOME/htop/htoprc"
if [ -n "$HTOP" ]; then
	tm_start htop2 "$HTOP"
	# memory as text, swap as a bar on the left; load average first on the right
	expect '^ *Mem:.* +Load average: [0-9.]+ [0-9.]+ [0-9.]+$'
	expect '^ *Swp\[.*\] +Tasks: '
	keys q
	cp "$tmp/htoprc" "$XDG_CONFIG_HOME/htop/htoprc"
fi
tm_start ptop2 "$PTOP" -d 5
expect '^Mem [0-9.]+[KMGTPE]?/[0-9.]+[KMGTPE]? +Load average: [0-9.]+ [0-9.]+ [0-9.]+$'
expect '^Swp \[.*\] +Tasks: '
off_screen '^(CPU|0) ' || fail "ptop: a CPU meter htoprc does not ask for"
keys W
rc=$XDG_CONFIG_HOME/ptop/ptoprc
wait_for grep -q '^meters = memory:text,swap | load,tasks,cost$' "$rc" ||
	fail "W did not write htoprc's layout: $(grep meters "$rc")"
keys q

# --- htoprc's AllCPUs2: the number in the name is the CPUs a row ------------
# (two CPUs side by side on one row, where one a row is what the count gives)
if [ "$(getconf _NPROCESSORS_ONLN)" -eq 2 ]; then
	cat >"$tmp/htoprc2" <<'EOF'
htop_version=3.2.2
config_reader_min_version=3
header_layout=two_50_50
column_meters_0=AllCPUs2
column_meter_modes_0=1
column_meters_1=Tasks
column_meter_modes_1=2
EOF
	rm -f "$rc"
	cp "$tmp/htoprc2" "$XDG_CONFIG_HOME/htop/htoprc"
	if [ -n "$HTOP" ]; then
		tm_start htop3 "$HTOP"
		expect '^ *0 *\[.*\] +1 *\[.*\] +Tasks: '
		keys q
		cp "$tmp/htoprc2" "$XDG_CONFIG_HOME/htop/htoprc"
	fi
	tm_start ptop5 "$PTOP" -d 5
	expect '^ *0 *\[.*\] +1 *\[.*\] +Tasks: '
	keys W
	wait_for grep -q '^meters = all_cpus2 | tasks,cost$' "$rc" ||
		fail "W did not write all_cpus2: $(grep meters "$rc")"
	keys q
	rm -f "$XDG_CONFIG_HOME/htop/htoprc"
	tm_start ptop6 "$PTOP" -d 5
	expect '^ *0 *\[.*\] +1 *\[.*\] +Tasks: '
	keys q
fi

# --- ptoprc's layout, written by W, drawn the same after a restart ---------
# header_shape: the header's rows with the figures (and their units: the
# memory used may cross a GiB between the two) and bars taken out
header_shape() {
	screen | awk '/Processes/ { exit } { print }' | sed -E 's/[0-9.]+[KMGTPE]?//g; s/[|]//g; s/  */ /g'
}
printf 'meters = swap,cpu:text | uptime,memory\nper_cpu = no\n' >"$rc"
tm_start ptop3 "$PTOP" -d 5
expect '^Swp \[.*\] +Uptime: '
expect '^CPU +[0-9.]+% +Mem \['
header_shape >"$tmp/shape1"
keys W
wait_for grep -q '^meters = swap,cpu:text | uptime,memory$' "$rc" ||
	fail "W did not keep the meters line: $(grep meters "$rc")"
keys q
tm_start ptop4 "$PTOP" -d 5
expect '^CPU +[0-9.]+% +Mem \['
header_shape >"$tmp/shape2"
cmp -s "$tmp/shape1" "$tmp/shape2" ||
	fail "the header changed across a restart: $(diff "$tmp/shape1" "$tmp/shape2")"
keys q

# --- a meters line ptop cannot use is named; the default header stays -------
printf 'meters = cpu | tasks | load\n' >"$rc"
tm_start bad "$PTOP" -d 5
expect 'ptoprc:1: meters: more than two columns of meters'
expect '\] +Load average: '
keys q
printf 'meters = uptime:bar\n' >"$rc"
tm_start bad2 "$PTOP" -d 5
expect 'ptoprc:1: meters: a meter shown in a mode it has not'
keys q
finish
