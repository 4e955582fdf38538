#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_htop_options.sh: htop's command-line options, as an htop user types
# them, beside htop itself where it is installed: -t starts in the tree view
# (a child under its parent), -F keeps the commands that contain the text in
# any case, -C draws without colour, -M asks the terminal for no mouse
# events, --no-unicode draws in ASCII; and ptop's --keys=top (over ptoprc's
# keys), --sort-key with htop's names (PERCENT_MEM), and --highlight-changes
# (htop's -H) colouring a process that started meanwhile, as htop does. In batch mode -F keeps
# the rows whose name (or command line, with -c) holds the text, and -t is
# refused. A mistyped option or field says what may have been meant (exit
# status 2). make check sets PTOP, srcdir and TMUX_BIN.

NAME=test_htop_options
WAIT_SECONDS=30
. "${srcdir:-.}/tests/tmux-lib.sh"
need_tmux
tm_env

htop_beside
# ptop's own settings, empty: the htoprc htop writes as it quits is not taken
mkdir -p "$XDG_CONFIG_HOME/ptop"
echo '# defaults' >"$XDG_CONFIG_HOME/ptop/ptoprc"

# A parent with a child, and a third process: names made for this run.
p=$(printf 'ho%05d' $(($$ % 100000)))
cp "$(command -v sh)" "$tmp/${p}par" || exit 1
cp "$(command -v sleep)" "$tmp/${p}kid" || exit 1
"$tmp/${p}par" -c "\"$tmp/${p}kid\" 600; :" &
kids="$kids $!"
spawn_sleeper "${p}other"
wait_until pgrep -x "${p}kid" >/dev/null || die "the child never started"
# the child too, or it outlives the test by ten minutes when its parent is killed
kids="$kids $(pgrep -x "${p}kid")"

# The rows matching the run's prefix, in screen order, their names only.
ours() {
	screen | grep -o "${p}[a-z]*" | tr '\n' ' '
}

# -t and -F: the tree, only our three; the child right after its parent, on a branch.
tm_start tree "$PTOP" -d 0.5 -t -F "$(echo "$p" | tr a-z A-Z)"
expect "\`- *${p}kid"
three_rows() { [ "$(table_rows | wc -l)" -eq 3 ]; }
wait_for three_rows ||
	fail "-F ${p} in any case: not just the three processes"
screen | grep -A1 "${p}par" | grep -q "${p}kid" || fail "-t: the child is not under its parent"
on_screen "${p}other" || fail "-F: ${p}other is missing"
keys q
if [ -n "$HTOP" ]; then
	tm_start htree "$HTOP" -d 5 -t -F "$p"
	expect "(└─|\`-) *[^ ]*${p}kid"
	screen | grep -A1 "${p}par" | grep -q "${p}kid" || fail "htop -t: the child is not under its parent"
	on_screen "${p}other" || fail "htop -F: ${p}other is missing"
	keys q
fi

# turned_off FLAG PRED WHAT: in ptop and htop, PRED holds on the screen
# without FLAG, and not with it.
turned_off() {
	for prog in "$PTOP" ${HTOP:+"$HTOP"}; do
		tm_start on "$prog" -d 5
		expect 'PID'
		wait_for "$2" || fail "$prog: no $3 without $1"
		keys q
		tm_start off "$prog" -d 5 "$1"
		expect 'PID'
		! "$2" || fail "$prog $1: still $3"
		keys q
	done
}

# -C: no colour in the escapes the pane holds; without it, colour.
colours() {
	tm capture-pane -e -p -t "$session" |
		grep -Eq "$(printf '\033')\\[([0-9]*;)*(3[0-7]|4[0-7]|38|48)(;[0-9]*)*m"
}
turned_off -C colours colour

# -M: the terminal is asked for no mouse events.
mouse() {
	tm display-message -p -t "$session" \
		'#{mouse_standard_flag}#{mouse_button_flag}#{mouse_any_flag}#{mouse_all_flag}' |
		grep -q 1
}
turned_off -M mouse "mouse events asked for"

# --no-unicode: the sort mark and the branches in ASCII, under a UTF-8 locale.
tm_start uni "$PTOP" -d 5
expect 'CPU%▼'
keys q
tm_start ascii "$PTOP" -d 5 --no-unicode -t -F "$p"
expect "\`- *${p}kid"
off_screen '▼|▲' || fail "--no-unicode: a sort mark outside ASCII"
keys q
if [ -n "$HTOP" ]; then
	tm_start hascii "$HTOP" -d 5 --no-unicode -t -F "$p"
	expect "\`- *[^ ]*${p}kid"
	keys q
fi

# --keys=top over ptoprc's keys = htop: s asks for the delay, as top's s does.
mkdir -p "$XDG_CONFIG_HOME/ptop"
echo 'keys = htop' >"$XDG_CONFIG_HOME/ptop/ptoprc"
tm_start keys "$PTOP" -d 5 --keys=top
expect '^ *PID +USER +PR +NI .* %CPU'
keys s
expect 'Delay in seconds: '
keys Escape q

# --sort-key with htop's name for %MEM.
tm_start sortkey "$PTOP" -d 5 --sort-key=PERCENT_MEM
expect 'MEM%▼'
keys q

# --highlight-changes (htop's -H): a process started after the first frame is
# drawn on green, one that was there is not; in ptop as in htop.
# Every look below passes the run's names through the environment: htop's filter
# matches command lines, and with --highlight-changes=60 it keeps each process a
# look started (a grep holding a name) on screen for a minute, new then ended,
# sorted by ELAPSED above the rows the test looks for.
# our_lines [-e]: the pane's lines that hold the run's prefix, not a grep's
our_lines() {
	tm capture-pane "$@" -p -t "$session" | P="$p" awk 'index($0, ENVIRON["P"]) && !/grep/'
}
# green_row NAME: the pane's line for NAME has its name on a green background.
# tmux writes an attribute where it changes, so a row right under a green heading
# (htop's) starts green with no code of its own: the background is followed
# through the codes of every line above it.
green_row() {
	tm capture-pane -e -p -t "$session" | P="$p" ROW="$1" awk '
	# bg: the background in effect (-1 the default, 2 green), the codes of s applied
	function codes(s,    n, i, k, c) {
		while (match(s, /\033\[[0-9;]*m/)) {
			n = split(substr(s, RSTART + 2, RLENGTH - 3), c, ";")
			if (n == 0) bg = -1
			for (i = 1; i <= n; i++) {
				k = c[i] + 0
				if (k == 0 || k == 49) bg = -1
				else if (k >= 40 && k <= 47) bg = k - 40
				else if (k == 48 && c[i + 1] == 5) { bg = c[i + 2] + 0; i += 2 }
				else if (k == 48 && c[i + 1] == 2) { bg = -2; i += 4 }
			}
			s = substr(s, RSTART + RLENGTH)
		}
	}
	BEGIN { bg = -1 }
	{
		# the background where the name is written
		at = index($0, ENVIRON["ROW"])
		if (at && !/grep/) {
			codes(substr($0, 1, at - 1))
			if (bg == 2)
				found = 1
			codes(substr($0, at))
		} else {
			codes($0)
		}
	}
	END { exit !found }'
}
# row_shown NAME: a line for NAME is on the screen
row_shown() {
	our_lines | ROW="$1" awk 'index($0, ENVIRON["ROW"]) { found = 1 } END { exit !found }'
}
# old_selected: the selected row (black on cyan) is one of the processes started first
old_selected() {
	our_lines -e | grep "$(printf '\033')\\[46m" | head -n 1 |
		P="$p" awk '{ for (w = split("par kid other", n); w; w--) if (index($0, ENVIRON["P"] n[w])) found = 1 }
			END { exit !found }'
}
# The selected row is drawn as selected, never highlighted, and a viewer keeps
# the selection at its place on the screen (htop by index): sorted by ELAPSED
# a new process can come first, where the selection starts. The selection goes
# to the last row before the process starts, to an old process.
# highlighted VIEWER N: in VIEWER, a process started after the first frame (the
# Nth such) is drawn on green and an old one is not.
highlighted() {
	# htop reads a process's command line once, unless asked to on every refresh: a
	# scan between the fork and the exec kept the test shell's, which -F then hid
	if [ "$1" = "$HTOP" ]; then
		mkdir -p "$XDG_CONFIG_HOME/htop"
		echo 'update_process_names=1' >"$XDG_CONFIG_HOME/htop/htoprc"
	fi
	tm_start hl "$1" -d 1 --highlight-changes=60 --sort-key=ELAPSED -F "$p"
	wait_for row_shown "${p}other" || fail "$1: ${p}other is not shown"
	keys End
	wait_for old_selected || fail "$1: End did not select the oldest process"
	spawn_sleeper "${p}new$2"
	wait_for green_row "${p}new$2" || return 1
	! green_row "${p}other" || fail "$1 --highlight-changes: an old process on green"
}
highlighted "$PTOP" 1 || fail "--highlight-changes: the new process is not on green"
keys q
# htop 3.2.2 finds a process by its PID alone and keeps an ended one for the
# highlight's minute: a PID used again within it (this machine's pid_max can be
# 32768, which a loaded test run wraps in minutes) is the old process to it,
# not new. Another process, another PID: of three, one is highlighted.
# new_again N: ${p}newN started in the running viewer is on green, the old one is not
new_again() {
	spawn_sleeper "${p}new$1"
	wait_for green_row "${p}new$1" && ! green_row "${p}other"
}
if [ -n "$HTOP" ]; then
	highlighted "$HTOP" 2 || new_again 3 || new_again 4 ||
		fail "htop --highlight-changes: three new processes, none on green"
	htop_quit
fi

# Batch: -F keeps what holds the text, in any case; with -c, the command line too.
"$PTOP" -b -n 1 -w 512 -F "${p}KID" >"$tmp/f.txt" || fail "ptop -b -F failed"
[ "$(grep -c "${p}" "$tmp/f.txt")" -eq 1 ] && grep -q "${p}kid" "$tmp/f.txt" ||
	fail "-b -F ${p}KID: $(grep "$p" "$tmp/f.txt")"
"$PTOP" -b -n 1 -w 512 -c -F " 600; :" >"$tmp/fc.txt" || fail "ptop -b -c -F failed"
grep -q "${p}par" "$tmp/fc.txt" || fail "-b -c -F: the parent's command line did not match"
! grep -q "${p}other" "$tmp/fc.txt" || fail "-b -c -F: a row that does not hold the text"
"$PTOP" -b -n 1 -o json --sort-key=PERCENT_MEM >"$tmp/sk.json" || fail "--sort-key failed"
need_python "to read the JSON frames"
python3 - "$tmp/sk.json" <<'EOF' || fail "--sort-key=PERCENT_MEM does not sort by %MEM, highest first"
import json, sys
rows = json.load(open(sys.argv[1]))["processes"]
mem = [(p["mem_pct"], p["rss_kb"]) for p in rows]
assert len(mem) > 5 and all(a >= b for a, b in zip(mem, mem[1:])), mem[:10]
EOF

# Usage errors, with what was meant.
usage() {
	want=$1
	shift
	"$PTOP" "$@" >/dev/null 2>"$tmp/err"
	st=$?
	[ "$st" -eq 2 ] || fail "ptop $*: exit status $st, not 2"
	grep -qF -- "$want" "$tmp/err" || fail "ptop $*: $(head -1 "$tmp/err"), not: $want"
}
usage "unknown option '--sourec' (did you mean '--source'?)" -b -n 1 --sourec=bpf
usage "unknown sort field: 'CPU%%' (did you mean '%CPU'?)" -b -n 1 --sort=CPU%%
usage "not 'NLPW' (did you mean 'NLWP'?)" -b -n 1 -o NLPW
usage "not 'CGROPU' (did you mean 'CGROUP'?)" -b -n 1 -o CGROPU
usage "'comand' (did you mean 'COMMAND'?)" -b -n 1 --fields=pid,comand
usage "option '--no' is ambiguous: --no-color" -b -n 1 --no
usage "--keys takes htop or top, not 'vim'" -b -n 1 --keys=vim
usage "-t/--tree is the viewer's" -b -n 1 -t
usage "unknown option '--frobnicate'" -b -n 1 --frobnicate
finish
