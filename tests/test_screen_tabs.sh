#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_screen_tabs.sh: the Processes pane's screens, as htop 3.2's. With no
# ptoprc, an htoprc of two screens (Main: PID USER MEM% RES; I/O: PID USER
# IO DISK R/W, sorted by it) gives two tabs, [Main] shown first with its
# columns; Tab shows I/O's columns, then the Counters pane, and Shift-Tab
# comes back to I/O; a click on a tab shows it. htop, where installed, reads
# the same file with the same two tabs. In Setup's Screens, F5 makes a
# screen after the one selected, named at the prompt; Columns adds a column
# to it; closing Setup writes every screen to ptoprc, and a new ptop shows
# the three tabs and the new screen's column when Tab reaches it.
# With screen_tabs=0 in the htoprc, htop and ptop draw no tabs, the table's
# headings right under the pane bar, and Tab still goes through the
# screens. Setup's "Show tabs for screens" hides and shows the line at once,
# and ptoprc's screen_tabs keeps it for the next ptop. In Setup's Screens,
# as in htop's, Enter picks the selected screen up, Up moves it, Enter puts
# it down and Down then selects the next one; ptoprc keeps the new order.
# make check sets PTOP, srcdir and TMUX_BIN.

NAME=test_screen_tabs
WAIT_SECONDS=30
. "${srcdir:-.}/tests/tmux-lib.sh"
need_tmux
tm_env
htop_beside
rc=$XDG_CONFIG_HOME/ptop/ptoprc

mkdir -p "$XDG_CONFIG_HOME/htop"
cat >"$tmp/htoprc" <<'EOF'
htop_version=3.2.2
config_reader_min_version=3
screen_tabs=1
delay=10
screen:Main=PID USER PERCENT_MEM M_RESIDENT Command
.sort_key=PERCENT_MEM
.tree_sort_key=PID
.tree_view=0
.sort_direction=-1
.tree_sort_direction=1
screen:I/O=PID USER IO_PRIORITY IO_RATE Command
.sort_key=IO_RATE
.tree_sort_key=PID
.tree_view=0
.sort_direction=-1
.tree_sort_direction=1
EOF

main_heads='^ *PID +USER +MEM%[^ ]* +RES +Command'
io_heads='^ *PID +USER +IO +DISK R/W[^ ]* *Command'
mine_heads='^ *PID[^ ]* +PPID +Command'

# under_bar PATTERN: whether the line under ptop's pane bar matches, now
under_bar() {
	screen | grep -A 1 '^ 1 Processes ' | tail -n 1 | grep -Eq "$1"
}

# --- htop: the same file, the same tabs (htop rewrites it as it quits) ------
if [ -n "$HTOP" ]; then
	cp "$tmp/htoprc" "$XDG_CONFIG_HOME/htop/htoprc"
	tm_start htop "$HTOP"
	expect '\[Main\] *\[I/O\]'
	expect "$main_heads"
	keys Tab
	expect "$io_heads"
	htop_quit
fi

# --- ptop: both screens, Tab between them, then the next pane ---------------
mkdir -p "$XDG_CONFIG_HOME/htop"
cp "$tmp/htoprc" "$XDG_CONFIG_HOME/htop/htoprc"
tm_start ptop "$PTOP"
expect '^\[Main\] \[I/O\]'
expect "$main_heads"
wait_for under_bar '^\[Main\] \[I/O\]' || fail "the tabs are not under the pane bar"
keys Tab
expect "$io_heads"
keys Tab
expect 'E: choose events'
off_screen '^\[Main\]' || fail "the tabs shown in the Counters pane"
keys BTab
expect "$io_heads"
keys BTab
expect "$main_heads"
# a click on a tab shows it (xterm's reports of a press and a release on
# column 9, within "[I/O]", of the tabs' line)
y=$(($(screen | grep -n '^\[Main\]' | head -n 1 | cut -d: -f1) - 1))
tm send-keys -t "$session" -l "$(awk -v y="$y" \
	'BEGIN { printf "\033[M %c%c\033[M#%c%c", 8 + 33, y + 33, 8 + 33, y + 33 }')"
expect "$io_heads"
keys q

# --- Setup: a new screen, named, with a column of its own -------------------
# (still no ptoprc: htoprc's two screens again)
tm_start setup "$PTOP"
expect "$main_heads"
# Screens is Setup's fourth category; F5 makes one after Main, named at once
keys F2
expect '^Screens'
keys Down Down Down Tab
expect '\(\*\) Main '
keys F5
expect 'Screen name: '
keys C-u 'Mine' Enter
expect '\(\*\) Mine +pid command'
expect '\( \) I/O '
# Columns: the new screen's, PPID added
keys Tab Down Enter
select_row '[ ] PPID '
keys Space
keys Escape
expect 'Enter: choose and order the columns'
keys Up
wait_for on_screen '\(\*\) Mine +pid ppid command' || fail "the column went elsewhere"
keys F10
wait_for test -f "$rc" || fail "closing Setup did not write ptoprc"
wait_for grep -q '^screen = Mine | pid,ppid,command | pid$' "$rc" ||
	fail "ptoprc's screens: $(grep screen "$rc")"
# htop's screens sort their trees by PID (their .tree_sort_key), their lists not
grep -q '^screen = Main | pid,user,mem,res,command | mem | pid$' "$rc" ||
	fail "ptoprc's Main: $(grep screen "$rc")"
grep -q '^screen = I/O | pid,user,io,io_rate,command | io_rate | pid$' "$rc" ||
	fail "ptoprc's I/O: $(grep screen "$rc")"
keys q

# --- a restart: ptoprc's three screens --------------------------------------
rm -rf "$XDG_CONFIG_HOME/htop"
tm_start again "$PTOP"
expect '^\[Main\] \[Mine\] \[I/O\]'
expect "$main_heads"
keys Tab
expect "$mine_heads"
keys Tab
expect "$io_heads"
keys q

# --- screen_tabs=0: no tabs' line in htop nor in ptop, the headings take it,
# and Tab still goes through the screens (htop's Tab does not look at it) ---
sed 's/^screen_tabs=1$/screen_tabs=0/' "$tmp/htoprc" >"$tmp/htoprc0"
if [ -n "$HTOP" ]; then
	mkdir -p "$XDG_CONFIG_HOME/htop"
	cp "$tmp/htoprc0" "$XDG_CONFIG_HOME/htop/htoprc"
	tm_start htop0 "$HTOP"
	expect "$main_heads"
	off_screen '\[Main\]' || fail "htop drew tabs with screen_tabs=0: not the htop this test knows"
	keys Tab
	expect "$io_heads"
	htop_quit
fi
mv "$rc" "$tmp/ptoprc.three"
mkdir -p "$XDG_CONFIG_HOME/htop"
cp "$tmp/htoprc0" "$XDG_CONFIG_HOME/htop/htoprc"
tm_start notabs "$PTOP"
expect "$main_heads"
off_screen '\[Main\]' || fail "tabs drawn with htoprc's screen_tabs=0"
wait_for under_bar "$main_heads" || fail "the headings are not under the pane bar"
keys Tab
expect "$io_heads"
wait_for under_bar "$io_heads" || fail "I/O's headings are not under the pane bar"
keys Tab
expect 'E: choose events'
keys BTab
expect "$io_heads"
keys BTab
expect "$main_heads"
off_screen '\[I/O\]' || fail "tabs drawn after Tab"
keys q

# --- Setup's "Show tabs for screens" (Display options' third box): off,
# the line goes at once and Tab still shows the next screen; ptoprc keeps
# it (every screen's, where the tree's boxes say whose they are); on again,
# the line is back -----------------------------------------------------------
rm -rf "$XDG_CONFIG_HOME/htop"
mv "$tmp/ptoprc.three" "$rc"
tm_start toggle "$PTOP"
expect '^\[Main\] \[Mine\] \[I/O\]'
keys F2
expect '^Display options'
keys Down Tab Down Down
expect '\[x\] Show tabs for screens *$'
# the tree's boxes are the shown screen's own, as htop's "For current screen tab"
expect '\[ \] Tree view \(screen Main\) *$'
keys Space
expect '\[ \] Show tabs for screens'
keys Escape
expect "$main_heads"
wait_for under_bar "$main_heads" || fail "the tabs' line stayed after Setup hid it"
wait_for grep -q '^screen_tabs = no$' "$rc" || fail "ptoprc's screen_tabs: $(grep tabs "$rc")"
keys Tab
expect "$mine_heads"
keys q

tm_start hidden "$PTOP"
expect "$main_heads"
wait_for under_bar "$main_heads" || fail "ptoprc's screen_tabs = no not taken"
keys Tab
expect "$mine_heads"
keys F2
expect '^Display options'
keys Down Tab Down Down
expect '\[ \] Show tabs for screens'
keys Space
expect '\[x\] Show tabs for screens'
keys Escape
wait_for under_bar '^\[Main\] \[Mine\] \[I/O\]' || fail "Setup did not show the tabs again"
expect "$mine_heads"
wait_for grep -q '^screen_tabs = yes$' "$rc" || fail "ptoprc's screen_tabs: $(grep tabs "$rc")"
keys q

# --- Setup's Screens: Enter picks a screen up, Up moves it, Enter puts it
# down, as htop's -------------------------------------------------------------
# above A B: a line matching A shows above one matching B, now
above() {
	a=$(screen | grep -En "$1" | head -n 1 | cut -d: -f1)
	b=$(screen | grep -En "$2" | head -n 1 | cut -d: -f1)
	[ -n "$a" ] && [ -n "$b" ] && [ "$a" -lt "$b" ]
}
# rc_names_are LIST: ptoprc's screens are named so, in that order ("A,B,")
rc_names_are() {
	[ "$(sed -n 's/^screen = \([^|]*\) |.*/\1/p' "$rc" | tr '\n' ,)" = "$1" ]
}
tm_start move "$PTOP"
expect '^\[Main\] \[Mine\] \[I/O\]'
keys F2
expect '^Screens'
keys Down Down Down Tab Down
expect '\(\*\) Mine '
keys Enter
expect 'Up/Down: move the screen'
keys Up
wait_for above '\(\*\) Mine ' '\( \) Main ' || fail "Up did not move the picked-up screen"
expect '\(\*\) Mine '
keys Enter
expect 'Enter, \[ \]: move'
keys Down
expect '\(\*\) Main '
above '\( \) Mine ' '\(\*\) Main ' || fail "Down after Enter moved the screen"
keys Escape
expect '^\[Mine\] \[Main\] \[I/O\]'
wait_for rc_names_are Mine,Main,I/O, || fail "ptoprc's screens in order: $(grep '^screen = ' "$rc")"
keys q
finish
