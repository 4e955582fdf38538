#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_counters_units.sh: batch text shows counter columns as the Counters
# pane does (task-clock in ms, counts with K/M/G past five digits), ptop's
# own counts too, while JSON and CSV keep the kernel's raw numbers (ns,
# counts). A busy child is counted for a whole interval. Skips (77) where
# perf events cannot be opened.

NAME=test_counters_units
. "${srcdir:-.}/tests/lib.sh"
LC_ALL=C
export LC_ALL

sh -c 'while :; do :; done' &
busy=$!
kids=$busy
ev=task-clock,context-switches
"$PTOP" -b -n 1 --counters=$ev -p "$busy" >"$tmp/probe" 2>&1 ||
	skip "no perf events here: $(cat "$tmp/probe")"

# a count is 1 to 5 digits, or a figure with its unit
count='([0-9]{1,5}|[0-9.]+[KMGT])'
# on a loaded machine the child may not run in an interval: try a few frames
ok=
for try in 1 2 3 4 5 6; do
	"$PTOP" -b -n 2 -d 0.5 --counters=$ev -p "$busy" >"$tmp/text" 2>&1 ||
		die "ptop -b exited $?: $(cat "$tmp/text")"
	grep -Eq "^ *$busy +[0-9.]+ms +$count +1\.00 " "$tmp/text" && ok=1 && break
done
[ -n "$ok" ] || die "no row in ms and counts: $(tail -n 3 "$tmp/text")"
grep -Eq "ptop itself read by [^:]+: task-clock [0-9.]+ms context-switches $count$" "$tmp/text" ||
	die "ptop's own counts have no units: $(grep 'ptop itself' "$tmp/text")"

"$PTOP" -b -n 2 -d 0.5 --counters=$ev -p "$busy" -o json >"$tmp/json" 2>&1 ||
	die "ptop -o json exited $?"
tail -n 1 "$tmp/json" | grep -Eq '"task-clock":[0-9]{4,},"context-switches":[0-9]+' ||
	die "JSON has no raw task-clock in ns: $(tail -n 1 "$tmp/json" | grep -o '"counters":{[^}]*}')"
"$PTOP" -b -n 2 -d 0.5 --counters=$ev -p "$busy" -o csv >"$tmp/csv" 2>&1 ||
	die "ptop -o csv exited $?"
tail -n 1 "$tmp/csv" | grep -Eq ',[0-9]{4,},[0-9]+.$' ||
	die "CSV has no raw numbers: $(tail -n 1 "$tmp/csv")"
finish
