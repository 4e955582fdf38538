#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_keys.sh: the viewer's keys in both profiles, driven in a private tmux
# server as a user would. Default (htop's meanings): an unbound key says so;
# Space tags and moves down, c tags a process with its children, U untags;
# k and r act on every tagged process, and a tagged process that ended is
# reported, not replaced; Z pauses; the kept filter shows in the footer. With
# "keys = top" in ptoprc: Space refreshes, c shows command lines, s asks for
# the delay, U for a user (top's prompt), k and r for a PID (the selected
# one's by default), and the keys both share (I, Z, /, F8, K, *) do what
# they do in htop's; help lists the profile's keys. Keys are also sent
# several at once, typed before a redraw. make check sets PTOP, srcdir and
# TMUX_BIN.

NAME=test_keys

# Every wait here expects success: a loaded machine may slow it, not fail it.
WAIT_SECONDS=30
. "${srcdir:-.}/tests/tmux-lib.sh"
need_tmux

prefix=$(printf 'pk%07d' $$)

# spawn LETTER [PROGRAM ARGS]: a process named for this run and letter (a copy
# of sleep 600 unless told); its PID is left in $spawned and in $kids.
spawn() {
	letter=$1
	shift
	spawn_named "$prefix$letter" "$@"
}

rows_are() {
	[ "$(table_rows | grep -c "$prefix")" -eq "$1" ]
}

# start PROFILE: ptop with ptoprc keys = PROFILE, in a new session
start() {
	start_keys "$1" --sort command
}

# filter TEXT: filter the rows for TEXT, replacing any filter kept
filter() {
	keys -l '\'
	expect 'Filter: '
	keys C-u
	keys -l "$1"
	keys Enter
}

# tagged_row PID: the row of PID is drawn tagged (bold or yellow)
tagged_row() {
	tm capture-pane -p -e -t "$session" | grep -E "^(.\[[0-9;]*m| )*$1.\[" |
		grep -Eq '.\[(1|33)m'
}

tm_env

spawn a
a=$spawned
spawn b
b=$spawned
spawn c
c=$spawned
c_nice=$(nice_of "$c") # the test's own (a test run under nice(1) starts above 0)

# ---- htop profile (the default) ----
start htop

# an unbound key says so
keys X
expect 'X: no such key; h lists the keys'
keys F12
expect 'F\(12\): no such key; h lists the keys'

# the kept filter shows in the footer; prompts show the current value,
# which typing replaces (d 0.5, then 2: a delay of 2 s, not 0.52)
filter "$prefix"
wait_for rows_are 3 || fail "the filter should leave 3 rows"
expect "F10Quit .*\[filter: $prefix\]"

# the sort direction is marked; I inverts it
expect 'Command▲'
keys I
expect 'Command▼'
keys I
expect 'Command▲'

# Space Space, typed before a redraw: a and b tagged (sorted by name), the
# selection moved down twice
keys Home
keys Space Space
expect '\[2 tagged\]'
wait_for tagged_row "$a" || fail "$a should be drawn tagged"
wait_for tagged_row "$b" || fail "$b should be drawn tagged"

# b ends before k: the signal reaches a, and b is reported, not replaced
kill -KILL "$b"
wait_for gone "$b" || fail "$b did not die"
keys k
expect 'Send signal to 2 tagged processes:'
keys Enter
expect "Sent SIGTERM to 1 of 2 tagged processes; gone, nothing done: $b \(${prefix}b\)"
wait_for gone "$a" || fail "a ($a) should have had SIGTERM"
alive "$c" || fail "c ($c) was not tagged and must be alive"
expect '\[1 tagged\]'

# U untags all
keys U
wait_for off_screen 'tagged\]' || fail "U should untag all"

# c tags a process with its descendants; r renices all of them
cp "$(command -v sleep)" "$tmp/${prefix}q" || exit 1
spawn p sh -c "\"$tmp/${prefix}q\" 600 & wait"
parent=$spawned
child_of() {
	child=$(tr -d " " <"/proc/$parent/task/$parent/children" 2>/dev/null)
	[ -n "$child" ]
}
wait_for child_of || fail "no child under $parent"
kids="$kids $child"
filter "$prefix"
wait_for rows_are 3 || fail "c, p and q should show"
keys /
keys -l "${prefix}p"
keys Enter
keys c
expect '\[2 tagged\]'
keys r
expect 'Renice 2 tagged processes to \(-20\.\.19\): '
keys -l 5
keys Enter
expect 'Reniced 2 of 2 tagged processes to 5'
[ "$(nice_of "$parent")" = 5 ] || fail "parent nice $(nice_of "$parent"), not 5"
[ "$(nice_of "$child")" = 5 ] || fail "child nice $(nice_of "$child"), not 5"
[ "$(nice_of "$c")" = "$c_nice" ] || fail "c was reniced"
# F8 twice, typed together: both tagged ones move by 2
keys F8 F8
both_at_7() {
	[ "$(nice_of "$parent")" = 7 ] && [ "$(nice_of "$child")" = 7 ]
}
wait_for both_at_7 || fail "F8 F8 should give 7, not $(nice_of "$parent")/$(nice_of "$child")"

# a prompt shows the current value; typing replaces it, Backspace edits it
keys d
expect 'Delay in seconds: 0\.5_'
keys -l 2
keys Enter
expect 'Delay: 2 s'
keys d
expect 'Delay in seconds: 2_'
keys BSpace
keys -l 1
keys Enter
expect 'Delay: 1 s'
keys -l '\'
expect "Filter: ${prefix}_"
keys -l "${prefix}c"
expect "Filter: ${prefix}c_"
wait_for rows_are 1 || fail "typing should replace the filter shown, leaving c"
keys Enter
expect "\[filter: ${prefix}c\]"
filter "$prefix"
wait_for rows_are 3 || fail "c, p and q should show again"

# the filter and the search take any case
upper=$(printf '%s' "$prefix" | tr 'a-z' 'A-Z')
filter "${upper}C"
wait_for rows_are 1 || fail "the filter ${upper}C should find ${prefix}c in any case"
# with command lines shown, the filter matches them: the arguments, the path
tmpname=$(basename "$tmp")
keys p
filter "$tmpname"
wait_for rows_are 3 || fail "with command lines shown, $tmpname should match c, p and q"
keys p
wait_for rows_are 0 || fail "with names shown, $tmpname should match nothing"
filter "$prefix"
wait_for rows_are 3 || fail "c, p and q should show again"
keys U
wait_for off_screen 'tagged\]' || fail "U should untag p and q"
keys / C-u
keys -l "${upper}P"
keys Enter Space
wait_for tagged_row "$parent" || fail "the search ${upper}P should have selected p ($parent)"
keys U

# o: top's field filters, shown in the footer; ! negates; empty clears
keys o
expect 'Field filter, any case'
keys -l "COMMAND=${upper}C"
keys Enter
wait_for rows_are 1 || fail "COMMAND=${upper}C should leave c"
expect "\\[Command=${upper}C\\]"
keys o Enter
wait_for rows_are 3 || fail "o and an empty answer should clear the field filters"
keys o
keys -l "!COMMAND=${prefix}c"
keys Enter
wait_for rows_are 2 || fail "!COMMAND=${prefix}c should leave p and q"
keys o Enter
above=0
for pid in "$c" "$parent" "$child"; do
	[ "$pid" -gt "$c" ] && above=$((above + 1))
done
keys o
keys -l "PID>$c"
keys Enter
wait_for rows_are "$above" || fail "PID>$c should leave $above rows"
keys o Enter
# a column not shown, over a row's side (USED: resident and swapped): read for the filter
keys o
keys -l "USED>0"
keys Enter
wait_for rows_are 3 || fail "USED>0 should leave c, p and q: a filter's column is read unshown"
keys o Enter
keys O
keys -l "COMMAND=${upper}"
keys Enter
wait_for rows_are 0 || fail "O is exact case: COMMAND=${upper} should match nothing"
keys o Enter
wait_for rows_are 3 || fail "the field filters should be cleared"
keys o
keys -l "NOSUCH=1"
keys Enter
expect 'No such field: NOSUCH=1'

# K hides kernel threads (where this kernel shows kthreadd), and shows them
if [ "$(cat /proc/2/comm 2>/dev/null)" = kthreadd ]; then
	filter kthreadd
	expect '^ +2 .* kthreadd$'
	keys K
	expect 'Kernel threads hidden'
	wait_for off_screen ' kthreadd$' || fail "K should hide kthreadd"
	# W keeps it, as htop keeps hide_kernel_threads
	keys W
	expect 'Settings written to'
	grep -qx 'hide_kernel_threads = yes' "$tmp/config/ptop/ptoprc" ||
		fail "ptoprc lacks hide_kernel_threads = yes: $(cat "$tmp/config/ptop/ptoprc")"
	keys K
	expect '^ +2 .* kthreadd$'
	filter "$prefix"
	wait_for rows_are 3 || fail "c, p and q should show again"
fi

# *: in the tree, every branch collapsed (q under p goes), then all expanded
keys t
wait_for rows_are 3 || fail "the tree should show c, p and q"
keys '*'
wait_for rows_are 2 || fail "* should collapse p's branch"
keys '*'
wait_for rows_are 3 || fail "* again should expand it"
keys t

# the mouse wheel moves the selection (an xterm wheel-down report, button 65)
keys Home
expect '^ *[0-9]+ .*'"${prefix}c"
tm send-keys -t "$session" -l "$(printf '\033[Ma!*')"
keys Space
wait_for tagged_row "$child" || fail "the wheel should move the selection down to q"
keys U

# the signal menu has every signal, by the C library's names; digits pick one
keys k
expect '15 TERM'
keys 6 4
expect '64 RTMAX'
expect '6[0-3] RTMIN\+[0-9]+'
keys Escape
spawn d
d=$spawned
filter "${prefix}d"
wait_for rows_are 1 || fail "only d should show"
keys k 9 Enter
expect "Sent SIGKILL to $d \\(${prefix}d\\)"
wait_for gone "$d" || fail "d ($d) should have had SIGKILL"
wait "$d"
[ $? -eq 137 ] || fail "d should have died of SIGKILL"
filter "$prefix"

# u: a menu of the users with processes
keys u
expect 'Show the processes of:'
expect 'All users'
expect "$(id -un)"
keys Escape

# Z pauses and resumes
keys Z
expect '\[paused\]'
keys Z
wait_for off_screen '\[paused\]' || fail "Z should resume"

# help lists the htop profile's keys
keys h
expect 'htop keys'
expect '^ +Space +Tag or untag'
expect '^ +c +Tag the selected process and its descendants'
keys Escape
keys q

# ---- top profile ----
start top
filter "${prefix}c"
wait_for rows_are 1 || fail "only c should show"
# Space is a refresh, not a tag: the next key's message comes, no tag
keys Space X
expect 'X: no such key'
off_screen 'tagged\]' || fail "Space should not tag in the top profile"
# c: command lines
keys c
expect "^ *$c .*/${prefix}c 600\$"
# Right and Left scroll long command lines by 8 columns
full="$tmp/${prefix}c 600"
cut8=$(printf '%s' "$full" | cut -c9-)
keys Right
expect "^ *$c .* $(printf '%s' "$cut8" | sed 's/[.]/\\./g')\$"
off_screen "$(printf '%s' "$full" | sed 's/[.]/\\./g')\$" || fail "Right should scroll the command line"
keys Left
expect "^ *$c .*/${prefix}c 600\$"
keys c
expect "^ *$c .* ${prefix}c\$"
# s: the delay; U: a user
keys s
expect 'Delay in seconds: '
keys Escape
keys U
expect 'Which user \(blank for all\): '
keys Escape
# o and O in the top profile too
keys o
keys -l "COMMAND=${prefix}C"
keys Enter
wait_for rows_are 1 || fail "o in the top profile should keep c"
keys o Enter
# the keys both profiles share do here what they do in htop's: I inverts the
# sort, Z pauses, / searches, F8 renices the selected process by one, K hides
# kernel threads, * collapses the tree; k and r ask top's questions, the
# selected process's PID the default (test_top_keys.sh checks the rest)
expect 'COMMAND▲'
keys I
expect 'COMMAND▼'
keys I
expect 'COMMAND▲'
keys Z
expect '\[paused\]'
keys Z
wait_for off_screen '\[paused\]' || fail "Z should resume in the top profile"
keys /
expect 'Search: '
keys Escape
keys k
expect "PID to signal/kill \\[default pid = $c\\]: "
keys Escape
keys r
expect "PID to renice \\[default pid = $c\\]: "
keys Escape
c_was=$(nice_of "$c")
keys F8
c_plus_one() {
	[ "$(nice_of "$c")" = $((c_was + 1)) ]
}
wait_for c_plus_one || fail "F8 should renice c by one in the top profile"
keys K
expect 'Kernel threads hidden'
keys K
expect 'Kernel threads shown'
filter "$prefix"
keys t
wait_for rows_are 3 || fail "the tree should show c, p and q in the top profile"
keys '*'
wait_for rows_are 2 || fail "* should collapse p's branch in the top profile"
keys '*' t
filter "${prefix}c"
wait_for rows_are 1 || fail "only c should show again"
# a narrow terminal cuts COMMAND first and keeps the sort column and TIME+
resize() {
	tm resize-window -t "$session" -x "$1" -y "$2" 2>/dev/null ||
		tm resize-pane -t "$session" -x "$1" -y "$2"
}
keys P
resize 80 30
expect '^ *PID +USER +PR +NI +VIRT +RES +SHR +S +%CPU▼ *%MEM +TIME\+ +COMMAND'
resize 60 30
expect '^ *PID +USER.* %CPU▼ *%MEM +TIME\+ COMMAND'
resize 40 20
expect '^ *PID +%CPU▼ *%MEM +TIME\+ COMMAND'
resize 160 48
expect '^ *PID +USER +PR +NI +VIRT'
keys h
expect 'top keys'
expect '^ +p c +Show full command lines'
expect '^ +d s +Set the update delay'
keys Escape
keys q
# ---- monochrome (NO_COLOR): the headings and the selection differ; z colours ----
NO_COLOR=1
export NO_COLOR
start htop
heading_sgr() {
	tm capture-pane -p -e -t "$session" | grep -E 'PID.*USER' | head -n 1
}
selected_sgr() {
	tm capture-pane -p -e -t "$session" | grep -E '.\[([0-9]+;)*7m *[0-9]+ ' | head -n 1
}
mono_apart() {
	heading_sgr | grep -Eq '.\[([0-9]+;)*4m' && ! heading_sgr | grep -Eq '.\[([0-9]+;)*7m' &&
		[ -n "$(selected_sgr)" ]
}
wait_for mono_apart || fail "without colours the headings should be underlined, the selection reversed"
keys z
coloured() {
	heading_sgr | grep -q '42m'
}
wait_for coloured || fail "z should give colours"
keys z
wait_for mono_apart || fail "z again should give monochrome"
keys q
unset NO_COLOR
finish
