#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_titles.sh: one column, two titles. The viewer heads its columns as its
# key profile says: in htop's (the default) the default columns' heading line
# is htop's, word for word beside a real htop's (PRI, CPU%, MEM%, Command); in
# top's it is top's (PR, %CPU, %MEM, COMMAND), and --keys on the command line
# wins over ptoprc's. The column chooser shows both titles. Batch text has
# top's headings, as top -b, unless --keys=htop; -o, --fields and --sort take
# either title (nTH and NLWP, %CPU and CPU%) and JSON's keys do not follow the
# headings. make check sets PTOP, srcdir and TMUX_BIN.

NAME=test_titles
WAIT_SECONDS=30
. "${srcdir:-.}/tests/tmux-lib.sh"
need_tmux
tm_env
htop_beside

# heading: the screen's column headings, one space apart, without sort marks
heading() {
	screen | grep -E '^ *PID' | head -n 1 | sed 's/[▲▼△▽↑↓]/ /g' | tr -s ' ' |
		sed 's/^ //; s/ $//'
}
# heading_is WORDS: the headings are WORDS
heading_is() {
	[ "$(heading)" = "$1" ]
}

htop_heads='PID USER PRI NI VIRT RES SHR S CPU% MEM% TIME+ Command'
top_heads='PID USER PR NI VIRT RES SHR S %CPU %MEM TIME+ COMMAND'

# --- htop's default columns, as htop heads them ------------------------------
if [ -n "$HTOP" ]; then
	tm_start htop "$HTOP" -d 10
	expect '^ *PID +USER'
	wait_for heading_is "$htop_heads" || fail "htop heads its columns '$(heading)'"
	htop_quit
fi

# --- the htop profile, the default: the same line ---------------------------
tm_start ptop "$PTOP" -d 5
expect '^ *PID +USER'
wait_for heading_is "$htop_heads" ||
	fail "the htop profile heads its columns '$(heading)', not htop's '$htop_heads'"
# the chooser shows the profile's title, then top's where it differs
keys C
expect '^Columns: '
expect '^ \[x\] PRI \(PR\) '
expect '^ \[x\] CPU% \(%CPU\) '
expect '^ \[ \] NLWP \(nTH\) '
keys Escape q
wait_for test -s "$tmp/status" || fail "ptop did not quit"

# --- the top profile: top's titles; --keys over ptoprc ----------------------
mkdir -p "$XDG_CONFIG_HOME/ptop"
printf 'keys = top\ncolumns = pid,user,threads,majflt,command\n' >"$XDG_CONFIG_HOME/ptop/ptoprc"
tm_start top "$PTOP" -d 5
expect '^ *PID +USER'
wait_for heading_is 'PID USER nTH nMaj COMMAND' || fail "the top profile heads '$(heading)'"
keys q
wait_for test -s "$tmp/status" || fail "ptop did not quit"
tm_start keys "$PTOP" -d 5 --keys=htop
expect '^ *PID +USER'
wait_for heading_is 'PID USER NLWP MAJFLT Command' ||
	fail "--keys=htop over ptoprc's top heads '$(heading)'"
keys q
wait_for test -s "$tmp/status" || fail "ptop did not quit"
printf 'keys = htop\n' >"$XDG_CONFIG_HOME/ptop/ptoprc"
tm_start keys2 "$PTOP" -d 5 --keys=top
expect '^ *PID +USER'
wait_for heading_is "$top_heads" || fail "--keys=top over ptoprc's htop heads '$(heading)'"
keys q
wait_for test -s "$tmp/status" || fail "ptop did not quit"
rm -f "$XDG_CONFIG_HOME/ptop/ptoprc"

# --- batch: top's titles unless --keys=htop; both titles taken --------------
# heads_of FILE: the first heading line of a text frame, one space apart
heads_of() {
	grep -E '^ *PID' "$1" | head -n 1 | tr -s ' ' | sed 's/^ //; s/ $//'
}
"$PTOP" -b -n 1 -d 0 -w 512 >"$tmp/top.txt" || fail "ptop -b failed"
[ "$(heads_of "$tmp/top.txt")" = "$top_heads" ] ||
	fail "batch text heads '$(heads_of "$tmp/top.txt")', not top's"
"$PTOP" -b -n 1 -d 0 -w 512 --keys=htop >"$tmp/htop.txt" || fail "ptop -b --keys=htop failed"
[ "$(heads_of "$tmp/htop.txt")" = "$htop_heads" ] ||
	fail "batch text with --keys=htop heads '$(heads_of "$tmp/htop.txt")', not htop's"
for f in pid,nTH,NLWP,threads,nMaj,MAJFLT pid,nTH,nlwp,THREADS,nMaj,majflt; do
	"$PTOP" -b -n 1 -d 0 -w 512 --fields="$f" -o NLWP >"$tmp/f.txt" ||
		fail "--fields=$f -o NLWP failed"
	[ "$(heads_of "$tmp/f.txt")" = 'PID nTH nTH nTH nMaj nMaj' ] ||
		fail "--fields=$f heads '$(heads_of "$tmp/f.txt")'"
done
"$PTOP" -b -n 1 -d 0 -w 512 --keys=htop --fields=pid,%CPU,CPU%,P,PRI >"$tmp/h.txt" ||
	fail "--fields with htop's titles failed"
[ "$(heads_of "$tmp/h.txt")" = 'PID CPU% CPU% CPU PRI' ] ||
	fail "--keys=htop --fields=pid,%CPU,CPU%,P,PRI heads '$(heads_of "$tmp/h.txt")'"
for o in CPU% %CPU MEM% -NLWP +nTH; do
	"$PTOP" -b -n 1 -d 0 -o "$o" >/dev/null || fail "-o $o failed"
	"$PTOP" -b -n 1 -d 0 --sort="$o" >/dev/null || fail "--sort=$o failed"
done
# JSON's keys are the same whichever headings the text has
"$PTOP" -b -n 1 -d 0 -o json --fields=pid,NLWP,MEM% >"$tmp/a.json" || fail "json failed"
"$PTOP" -b -n 1 -d 0 -o json --keys=htop --fields=pid,nTH,%MEM >"$tmp/b.json" ||
	fail "json --keys=htop failed"
for j in "$tmp/a.json" "$tmp/b.json"; do
	if ! grep -q '"threads":' "$j" || ! grep -q '"mem_pct":' "$j"; then
		fail "JSON keys in $j: $(head -c 300 "$j")"
	fi
done
finish
