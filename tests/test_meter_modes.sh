#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_meter_modes.sh: a meter's modes (bar, text, graph, LED), beside
# htop's. In Setup's Meters panel the same keys in both tools (Tab into the
# meters, Down to Memory, Space) cycle Memory from bar to text, graph and
# LED and back to bar; after each, the header takes as many rows in ptop as
# in htop (a graph four rows, LED three). ptop's graph is block elements
# under "Mem" and its figure; its LED digits are box-drawing lines in UTF-8
# and bars and underscores with --no-unicode. Closing Setup writes the mode
# to ptoprc's meters line; an htoprc whose column_meter_modes say 3 (graph)
# and 4 (LED) gives ptop the header htop draws from it. The CPUs are a
# graph and LED digits each, as htop's, and the tasks meter cycles text,
# graph (of how many), LED and bar as htop's task counter, each as many
# rows high as htop's. make check sets PTOP, srcdir and TMUX_BIN.

NAME=test_meter_modes
WAIT_SECONDS=30
. "${srcdir:-.}/tests/tmux-lib.sh"
need_tmux
tm_env
htop_beside
rc=$XDG_CONFIG_HOME/ptop/ptoprc

# header_rows PATTERN MARGIN: the rows above the first line matching
# PATTERN, less MARGIN (htop's blank rows above and below its header).
header_rows() {
	screen | awk -v m="$2" -v p="$1" '$0 ~ p { print NR - 1 - m; found = 1; exit }
		END { if (!found) print -1 }'
}
# htop's Setup: its tab line ("[Setup]"), or without screen tabs its categories
htop_rows() { header_rows '\[Setup\]|^Categories' 2; }
ptop_rows() { header_rows '^Setup' 0; }
# rows_are WHO N: WHO's header is N rows
rows_are() { test "$("$1"_rows)" -eq "$2"; }
# changed WHO N: WHO's header is no longer N rows
changed() { test "$("$1"_rows)" -ne "$2"; }

# --- htop: Memory through its four modes ------------------------------------
h_bar= h_text= h_graph= h_led= c_graph= c_led= t_graph= t_led=
if [ -n "$HTOP" ]; then
	tm_start htop "$HTOP"
	expect '^ *PID +USER'
	keys F2
	expect '\[Setup\]'
	keys Down Down Tab
	expect 'Memory \[Bar\]'
	wait_for positive htop_rows || fail "htop: no header above Setup"
	h_bar=$(htop_rows)
	keys Down Space
	expect 'Memory \[Text\]'
	wait_for rows_are htop "$h_bar" || fail "htop: text is not as high as the bar"
	h_text=$(htop_rows)
	keys Space
	expect 'Memory \[Graph\]'
	wait_for changed htop "$h_bar" ||
		fail "htop: the graph did not change the header"
	h_graph=$(htop_rows)
	keys Space
	expect 'Memory \[LED\]'
	wait_for changed htop "$h_graph" ||
		fail "htop: LED did not change the header"
	h_led=$(htop_rows)
	keys Space
	expect 'Memory \[Bar\]'
	# the CPUs above it: a graph and LED for each CPU
	keys Up Space Space
	expect 'CPUs? [^[]*\[Graph\]'
	wait_for changed htop "$h_bar" || fail "htop: the CPU graphs did not change the header"
	c_graph=$(htop_rows)
	keys Space
	expect 'CPUs? [^[]*\[LED\]'
	wait_for changed htop "$c_graph" || fail "htop: the CPU LEDs did not change the header"
	c_led=$(htop_rows)
	keys Space
	expect 'CPUs? [^[]*\[Bar\]'
	# the task counter, heading the right column: text, graph, LED, bar
	keys Right
	expect 'Task counter \[Text\]'
	keys Space
	expect 'Task counter \[Graph\]'
	wait_for changed htop "$h_bar" || fail "htop: the tasks graph did not change the header"
	t_graph=$(htop_rows)
	keys Space
	expect 'Task counter \[LED\]'
	wait_for changed htop "$t_graph" || fail "htop: the tasks LED did not change the header"
	t_led=$(htop_rows)
	keys Space
	expect 'Task counter \[Bar\]'
	keys Space
	expect 'Task counter \[Text\]'
	keys F10
	expect '^ *PID +USER'
	htop_quit
	echo "$NAME: htop's header rows: bar $h_bar, text $h_text, graph $h_graph, LED $h_led;" \
		"CPUs as graphs $c_graph, as LED $c_led; tasks as a graph $t_graph, as LED $t_led"
fi

# --- ptop: the same keys -----------------------------------------------------
tm_start ptop "$PTOP" -d 0.5
expect '^ *PID +USER'
keys F2
expect '^Setup +Left column'
expect ' memory +\[bar\]'
wait_for positive ptop_rows || fail "ptop: no header above Setup"
p_bar=$(ptop_rows)
# without htop: a graph is three rows more than a bar, LED two
: "${h_bar:=$p_bar}" "${h_text:=$p_bar}" "${h_graph:=$((p_bar + 3))}" "${h_led:=$((p_bar + 2))}"
[ "$p_bar" -eq "$h_bar" ] || fail "ptop's header is $p_bar rows with bars, htop's $h_bar"
keys Tab Down Space
expect ' memory +\[text\]'
expect '^Mem +[0-9.]+[KMGT]?/[0-9.]+[KMGT]? *'
wait_for rows_are ptop "$h_text" || fail "ptop: text is $(ptop_rows) rows high, htop's $h_text"
keys Space
expect ' memory +\[graph\]'
wait_for rows_are ptop "$h_graph" || fail "ptop: graph is $(ptop_rows) rows high, htop's $h_graph"
# the graph: its caption, its figure under it, block elements at its foot
expect '^Mem  '
expect '^ *[0-9]+%( |$)'
expect '^ {5}[▁▂▃▄▅▆▇█ ]*[▁▂▃▄▅▆▇█]'
keys Space
expect ' memory +\[led\]'
wait_for rows_are ptop "$h_led" || fail "ptop: LED is $(ptop_rows) rows high, htop's $h_led"
# three rows of digits, the caption on the middle one
expect '^Mem +[┃┏┗┣┓┛┫━]'
keys Space
expect ' memory +\[bar\]'
wait_for rows_are ptop "$h_bar" || fail "ptop: back to a bar, $(ptop_rows) rows"
# the CPUs above it: as htop, a graph of its own for each CPU, and LED digits
# (compared where Setup's header, a third of the screen at most, holds them all)
if [ $(($(getconf _NPROCESSORS_ONLN) * 4 + 2)) -gt 16 ]; then
	partial_skip "too many CPUs for their graphs in Setup's header: their rows are not compared"
	c_graph= c_led=
fi
keys Up Space Space
expect ' (cpu|left_cpus) +\[graph\]'
expect '^(0|CPU)( |$)'
if [ -n "$c_graph" ]; then
	wait_for rows_are ptop "$c_graph" ||
		fail "ptop: the CPU graphs are $(ptop_rows) rows high, htop's $c_graph"
fi
keys Space
expect ' (cpu|left_cpus) +\[led\]'
if [ -n "$c_led" ]; then
	wait_for rows_are ptop "$c_led" ||
		fail "ptop: the CPU LEDs are $(ptop_rows) rows high, htop's $c_led"
fi
keys Space
expect ' (cpu|left_cpus) +\[bar\]'
wait_for rows_are ptop "$p_bar" || fail "ptop: CPUs back to bars, $(ptop_rows) rows"
# the tasks meter, as htop's task counter: text, graph, LED, bar
keys Down Down Down
expect ' tasks +\[text\]'
keys Space
expect ' tasks +\[graph\]'
if [ -n "$t_graph" ]; then
	wait_for rows_are ptop "$t_graph" ||
		fail "ptop: the tasks graph is $(ptop_rows) rows high, htop's $t_graph"
fi
# its caption over its count
expect ' Tasks +'
expect ' +[0-9]+ +[▁▂▃▄▅▆▇█ ]*[▁▂▃▄▅▆▇█]'
keys Space
expect ' tasks +\[led\]'
if [ -n "$t_led" ]; then
	wait_for rows_are ptop "$t_led" ||
		fail "ptop: the tasks LED is $(ptop_rows) rows high, htop's $t_led"
fi
keys Space
expect ' tasks +\[bar\]'
expect ' Tasks +\[\|*.*[0-9]+/[0-9]+\]'
keys Space
expect ' tasks +\[text\]'

keys Up Up Space Space Space
expect ' memory +\[led\]'


keys F10
wait_for test -f "$rc" || fail "closing Setup did not write ptoprc"
wait_for grep -q '^meters = cpu,memory:led,swap | tasks,load,uptime$' "$rc" ||
	fail "ptoprc's meters: $(grep meters "$rc")"
expect '^ *PID +USER'
keys q

# --- ptoprc's modes, ASCII digits without Unicode ------------------------------
echo 'meters = cpu:graph,memory:led | load:bar' >"$rc"
tm_start ascii "$PTOP" -d 0.5 --no-unicode
expect '^ *PID +USER'
expect '^(CPU|0) '
expect '^ {5}[ _.:=*#+-]*[_.:=*#+-]'
expect '^Mem +[|_ ]*\|'
# a load of 10 and more has two digits before the point
expect '(^| )Load +\[.*[0-9]+\.[0-9]{2} [0-9]+\.[0-9]{2} [0-9]+\.[0-9]{2}\]'
keys q

# --- htoprc's column_meter_modes 3 and 4, beside htop reading the same ----------
rm -f "$rc"
cat >"$tmp/htoprc" <<'EOF'
# Beware! This file is rewritten by htop when settings are changed in the interface.
htop_version=3.2.2
config_reader_min_version=3
header_layout=two_50_50
column_meters_0=AllCPUs Memory Swap
column_meter_modes_0=1 3 4
column_meters_1=Tasks LoadAverage Uptime
column_meter_modes_1=2 2 2
EOF
want=$((h_bar + 5))
if [ -n "$HTOP" ]; then
	mkdir -p "$XDG_CONFIG_HOME/htop"
	cp "$tmp/htoprc" "$XDG_CONFIG_HOME/htop/htoprc"
	tm_start htop2 "$HTOP"
	expect '^ *PID +USER'
	keys F2
	expect '^Categories'
	wait_for positive htop_rows || fail "htop: no header above Setup"
	want=$(htop_rows)
	keys F10
	expect '^ *PID +USER'
	keys q
fi
mkdir -p "$XDG_CONFIG_HOME/htop"
cp "$tmp/htoprc" "$XDG_CONFIG_HOME/htop/htoprc"
tm_start ptop2 "$PTOP" -d 0.5
expect '^ *PID +USER'
keys F2
expect ' memory +\[graph\]'
expect ' swap +\[led\]'
wait_for rows_are ptop "$want" || fail "ptop's header from htoprc: $(ptop_rows) rows, htop's $want"
keys Escape
keys q
finish
