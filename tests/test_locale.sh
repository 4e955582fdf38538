#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_locale.sh: one decimal mark per locale, as top: under German
# (de_DE.UTF-8, generated into a scratch directory when the system lacks it)
# batch text writes "12,5" in the summary and in the process lines alike,
# the marks top writes under the same locale (TIME+ keeps top's point), and
# JSON and CSV keep the point; -d takes "0.5" and "0,5". The viewer's CPU bar, memory meter and
# process lines use the comma too. Skips (77) when no German locale can be
# had; the viewer part is skipped without tmux.

NAME=test_locale
py=python3
. "${srcdir:-.}/tests/tmux-lib.sh"

# A German locale: the system's, else one built here from the locales package.
de=
for l in de_DE.UTF-8 de_DE.utf8; do
	if locale -a 2>/dev/null | grep -qix "$l"; then
		de=$l
		break
	fi
done
if [ -z "$de" ]; then
	if command -v localedef >/dev/null 2>&1 && mkdir -p "$tmp/locale" &&
		localedef -i de_DE -f UTF-8 "$tmp/locale/de_DE.UTF-8" >/dev/null 2>&1; then
		LOCPATH=$tmp/locale
		export LOCPATH
		de=de_DE.UTF-8
	else
		skip "no German locale, and localedef cannot build one"
	fi
fi
[ "$(LC_ALL=$de locale decimal_point 2>/dev/null)" = "," ] ||
	skip "$de has no comma for a decimal mark here"

mkdir "$tmp/home"
HOME=$tmp/home
export HOME
unset COLUMNS LANGUAGE || :

# A CPU burner, so that %CPU has a fraction to show.
sh -c 'while :; do :; done' &
busy=$!
kids=$busy

# --- batch text ------------------------------------------------------------------
LC_ALL=$de "$PTOP" -b -n 1 -p "$busy,1" -e m >"$tmp/de.txt" || fail "ptop -b under $de"
if command -v top >/dev/null 2>&1; then
	LC_ALL=$de top -b -n 1 -p "$busy,1" -e m >"$tmp/top.txt"
else
	: >"$tmp/top.txt"
fi
$py - "$tmp/de.txt" "$tmp/top.txt" <<'EOF' || fail "batch text under $de: see above"
import re, sys

def marks(path):
    """Decimal marks by where they are: the summary's numbers, and the table's
    (TIME+ apart: top writes it with a point whatever the locale)."""
    lines = open(path, encoding="utf-8").read().split("\n")
    if len(lines) < 7:
        return None
    head = next(i for i, l in enumerate(lines) if l.split()[:2] == ["PID", "USER"])
    summary = " ".join(lines[:head])
    table = [l.split() for l in lines[head + 1:] if l.strip()]
    cells = [c for row in table for i, c in enumerate(row) if i != 10]
    return {
        "summary": set(re.findall(r"\d([.,])\d", summary)),
        "table": set(m for c in cells for m in re.findall(r"^\d+([.,])\d[mgtpe]?$", c)),
        "time": set(re.findall(r"\d([.,])\d", " ".join(r[10] for r in table))),
    }

got = marks(sys.argv[1])
assert got["summary"] == {","}, "summary marks %s" % got["summary"]
assert got["table"] == {","}, "table marks %s" % got["table"]
assert got["time"] == {"."}, "TIME+ marks %s" % got["time"]
top = marks(sys.argv[2])
if top is not None:
    assert got == top, "ptop %s, top %s" % (got, top)
    print("decimal marks as top's:", got)
EOF

# --- -d takes a point under any locale (scripts write one), and the locale's mark
for d in 0.2 0,2; do
	LC_ALL=$de "$PTOP" -b -n 2 -d $d -p 1 >"$tmp/d.txt" 2>"$tmp/d.err" ||
		fail "-d $d under $de: $(cat "$tmp/d.err")"
	[ "$(grep -c '^top - ' "$tmp/d.txt")" = 2 ] || fail "-d $d under $de: not 2 frames"
done

# --- JSON and CSV keep the point ---------------------------------------------------
LC_ALL=$de "$PTOP" -b -n 1 -p "$busy" -o json >"$tmp/de.json" || fail "-o json under $de"
$py -c '
import json, sys
f = json.load(open(sys.argv[1]))
assert isinstance(f["load"][0], float), f["load"]
assert isinstance(f["processes"][0]["cpu_pct"], (int, float)), f["processes"][0]
' "$tmp/de.json" || fail "JSON under $de is not JSON with points"
LC_ALL=$de "$PTOP" -b -n 1 -p "$busy" -o csv >"$tmp/de.csv" || fail "-o csv under $de"
$py -c '
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
float(rows[0]["cpu_pct"]), float(rows[0]["mem_pct"])
assert "," not in rows[0]["cpu_pct"], rows[0]
' "$tmp/de.csv" || fail "CSV under $de has a comma in a number"

# --- the viewer ---------------------------------------------------------------------
if [ -z "$TMUX_BIN" ] || ! command -v "$TMUX_BIN" >/dev/null 2>&1; then
	echo "$NAME: the viewer not checked: tmux is not installed"
	finish
fi
WAIT_SECONDS=30
tm_env
tm_run env LC_ALL="$de" "$PTOP" -d 0.5 -p "$busy,1"
# the CPU bar's share and the memory meter's total with a comma, the table too
expect '^(CPU|[0-9]+) .*[0-9],[0-9]%\]'
expect '^Mem .*/[0-9]+(,[0-9])?[KMGTPE]\]'
expect "^ *$busy .* [0-9]+,[0-9] +[0-9]+,[0-9] "
# and no point between digits anywhere but TIME+ and the Cost line's absent points
screen | awk '/^ *PID USER/ { exit } { print }' | grep -E '[0-9]\.[0-9]' &&
	fail "the viewer's header has a point for a decimal mark"
screen | awk 'f && NF { $11 = ""; print } /^ *PID USER/ { f = 1 }' | grep -E '[0-9]\.[0-9]' &&
	fail "the viewer's process lines have a point for a decimal mark"
finish
