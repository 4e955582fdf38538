#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_screen_collapsed.sh: htop 3.2's ".all_branches_collapsed", a screen
# whose tree starts with every branch collapsed but the roots'. A process p
# (a copy of sh) left to init, with its child q (a copy of sleep): from an
# htoprc whose first screen is a tree so marked, p's row shows closed and q
# is not on the screen, in htop (where installed) as in ptop; * opens every
# branch and q shows, * again closes them. ptop's Setup has the screen's
# "Tree view is collapsed by default" ticked, ptoprc's screen line says
# "collapsed", and a new ptop from it starts with p's branch closed again.
# The tree is ordered by htop's tree sort (.tree_sort_key PID, ascending),
# not by the screen's list sort (PID, descending): p shows above r, another
# child of init started after it, in htop as in ptop; t shows the list by
# its own sort, r above p, and t again the tree by its own; ptoprc keeps
# both sorts.
# make check sets PTOP, srcdir and TMUX_BIN.

NAME=test_screen_collapsed
WAIT_SECONDS=30
. "${srcdir:-.}/tests/tmux-lib.sh"
need_tmux
tm_env
htop_beside
rc=$XDG_CONFIG_HOME/ptop/ptoprc
prefix=$(printf 'sc%07d' $$)

cp "$(command -v sleep)" "$tmp/${prefix}q" || exit 1
cp "$(command -v sh)" "$tmp/${prefix}p" || exit 1
cp "$(command -v sleep)" "$tmp/${prefix}r" || exit 1
# its starter ends at once: p is init's, a child of one of the tree's roots
# shellcheck disable=SC2016 # expanded by p
sh -c '"$0" -c "\"\$0\" 600 & echo \$! >\"\$1\"; wait" "$1" "$2" & echo $! >"$3"' \
	"$tmp/${prefix}p" "$tmp/${prefix}q" "$tmp/q.pid" "$tmp/p.pid"
wait_for test -s "$tmp/p.pid" || fail "p did not start"
wait_for test -s "$tmp/q.pid" || fail "p did not start q"
# shellcheck disable=SC2016 # expanded by the starter
sh -c '"$0" 600 & echo $! >"$1"' "$tmp/${prefix}r" "$tmp/r.pid"
wait_for test -s "$tmp/r.pid" || fail "r did not start"
p=$(cat "$tmp/p.pid")
q=$(cat "$tmp/q.pid")
r=$(cat "$tmp/r.pid")
kids="$kids $p $q $r"
ppid_of() {
	awk '{ print $4 }' "/proc/$1/stat"
}
if [ "$(ppid_of "$p")" != 1 ] || [ "$(ppid_of "$r")" != 1 ]; then
	skip "p or r was left to a subreaper, not to init: their place in the tree is unknown"
fi
# the lower PID first in the tree (PIDs may have wrapped between them)
first=$p
second=$r
[ "$p" -lt "$r" ] || {
	first=$r
	second=$p
}

cat >"$tmp/htoprc" <<'EOF'
htop_version=3.2.2
config_reader_min_version=3
screen_tabs=1
delay=10
hide_kernel_threads=1
screen:Tree=PID USER Command
.sort_key=PID
.tree_sort_key=PID
.tree_view=1
.sort_direction=-1
.tree_sort_direction=1
.tree_view_always_by_pid=0
.all_branches_collapsed=1
screen:Flat=PID USER PERCENT_CPU Command
.sort_key=PID
.tree_view=0
.sort_direction=1
EOF

heads='^ *PID[^ ]* *USER +Command'

# find_p: the rows whose command has this run's prefix: p's and q's, or p's alone
# while p is closed (p is a child of init, whose branch a collapsed screen
# leaves open, so htop too shows it; htop's and ptop's \)
find_p() {
	keys -l '\'
	expect 'Filter:'
	keys -l "$prefix"
	keys Enter
}

# only_p: p's row shows, closed (its branch drawn with a +), and q's does not
only_p() {
	on_screen "^ *$p .*\\+ .*${prefix}p" && off_screen "^ *$q "
}

# pid_above A B: the row of PID A shows above that of PID B, now
pid_above() {
	a=$(screen | grep -n "^ *$1 " | head -n 1 | cut -d: -f1)
	b=$(screen | grep -n "^ *$2 " | head -n 1 | cut -d: -f1)
	[ -n "$a" ] && [ -n "$b" ] && [ "$a" -lt "$b" ]
}

# by_pid: the lower of p and r shows above the other, as the tree's sort says
by_pid() {
	pid_above "$first" "$second"
}

# two_sorts: t shows the list, by its own sort (PID, highest first), and t
# again the tree, by PID ascending
two_sorts() {
	keys t
	wait_for pid_above "$second" "$first" || fail "$1: the list not by its own sort"
	keys t
	wait_for by_pid || fail "$1: the tree not by its own sort again"
}

# --- htop: the same file ----------------------------------------------------
if [ -n "$HTOP" ]; then
	mkdir -p "$XDG_CONFIG_HOME/htop"
	cp "$tmp/htoprc" "$XDG_CONFIG_HOME/htop/htoprc"
	tm_start htop "$HTOP"
	expect "$heads"
	find_p
	wait_for only_p || fail "htop shows q under p collapsed at start: not the htop this test knows"
	wait_for by_pid || fail "htop's tree is not by PID ascending: not the htop this test knows"
	keys '*'
	expect "^ *$q .*${prefix}q"
	two_sorts htop
	htop_quit
fi

# --- ptop: p's branch closed at start, * opens and closes every branch ------
mkdir -p "$XDG_CONFIG_HOME/htop"
cp "$tmp/htoprc" "$XDG_CONFIG_HOME/htop/htoprc"
tm_start ptop "$PTOP"
expect '^\[Tree\] \[Flat\]'
expect "$heads"
find_p
wait_for only_p || fail "q shown under p, whose branch starts collapsed"
wait_for by_pid || fail "the tree not ordered by htop's tree sort (PID, ascending)"
keys '*'
expect "^ *$q .*${prefix}q"
keys '*'
wait_for only_p || fail "* did not close p's branch again"
# Setup shows the screen's box ticked, named for it; closing it writes ptoprc
keys F2
expect '^Display options'
keys Down Tab Down
expect '\[x\] Tree view is collapsed by default \(screen Tree\)'
keys Escape
wait_for test -f "$rc" || fail "closing Setup did not write ptoprc"
wait_for grep -q '^screen = Tree | pid,user,command | pid reverse tree collapsed | pid$' "$rc" ||
	fail "ptoprc's screens: $(grep screen "$rc")"
grep -q '^screen = Flat | pid,user,cpu,command | pid$' "$rc" ||
	fail "ptoprc's Flat: $(grep screen "$rc")"
keys q

# --- a new ptop, from ptoprc: closed again at start -------------------------
rm -rf "$XDG_CONFIG_HOME/htop"
tm_start again "$PTOP"
expect "$heads"
find_p
wait_for only_p || fail "ptoprc's collapsed not taken at start"
wait_for by_pid || fail "ptoprc's tree sort not taken"
keys '*'
expect "^ *$q .*${prefix}q"
two_sorts ptop
keys q
finish
