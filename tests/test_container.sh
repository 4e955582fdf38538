#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_container.sh: htop's ISCONTAINER (CONT here) against what status's
# NSpid line says, through each frame source this machine has: a sleep in a
# pid namespace of its own (unshare --pid --fork) and one two levels down
# are YES (true in JSON and CSV), this shell is NO; as nobody too, since
# status is anyone's to read; sorted by it as top's -o and htop's
# --sort-key name it. Nothing is timed: the children are waited for until
# they sleep.
set -eu

NAME=test_container
. "${srcdir:-.}/tests/lib.sh"
need_python "to parse ptop's output"
need unshare
[ "$(id -u)" = 0 ] || skip "not root: a pid namespace of its own needs CAP_SYS_ADMIN"
unshare --pid --fork true 2>/dev/null || skip "unshare --pid is refused here"

cp "$(command -v sleep)" "$tmp/contsleep"
# one level down, and two (a namespace made inside the first)
unshare --pid --fork "$tmp/contsleep" 600 &
kids="$kids $!"
unshare --pid --fork unshare --pid --fork "$tmp/contsleep" 601 &
kids="$kids $!"
# the sleeps are the unshares' children (and grandchild): found by their names
wait_until sh -c "[ \$(pgrep -c -x contsleep) -ge 2 ]" || die "the sleeps in namespaces never ran"
one=$(pgrep -x -f "$tmp/contsleep 600")
two=$(pgrep -x -f "$tmp/contsleep 601")
kids="$kids $one $two"
wait_state "$one" S
wait_state "$two" S
for p in $one $two $$; do
	grep NSpid "/proc/$p/status"
done

frame_sources
for s in $sources; do
	"$PTOP" -b -n 1 -o json --source="$s" -p "$one,$two,$$" --fields pid,cont >"$tmp/$s.json" ||
		fail "$s: json"
	"$PTOP" -b -n 1 -o csv --source="$s" -p "$one,$two,$$" --fields pid,cont >"$tmp/$s.csv" ||
		fail "$s: csv"
	# top's -o and htop's --sort-key: the containers' rows first, as htop sorts YES above NO
	"$PTOP" -b -n 1 -o CONT --source="$s" -p "$one,$two,$$" --fields PID,CONT,COMMAND \
		>"$tmp/$s.txt" || fail "$s: -o CONT"
	"$PTOP" -b -n 1 --sort-key=ISCONTAINER --keys=htop --source="$s" -p "$one,$$" \
		--fields PID,ISCONTAINER >"$tmp/$s.htop.txt" || fail "$s: --sort-key=ISCONTAINER"
	"$PYTHON" - "$tmp" "$s" "$one" "$two" "$$" <<'PY' || fail "$s: not what NSpid says"
import csv, json, sys
tmp, src, one, two, me = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])

def levels(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("NSpid:"):
            return len(line.split()[1:])
    return None

want = {one: True, two: True, me: False}
assert levels(one) == 2 and levels(two) == 3 and levels(me) == 1, (levels(one), levels(two))
rows = {r["pid"]: r for r in json.loads(open(f"{tmp}/{src}.json").readline())["processes"]}
assert {p: r["in_container"] for p, r in rows.items()} == want, rows
body = list(csv.DictReader(l for l in open(f"{tmp}/{src}.csv") if not l.startswith("top")))
assert {int(r["pid"]): r["in_container"] for r in body} == {
    p: str(v).lower() for p, v in want.items()}, body
# text: YES and NO, the containers' first
lines = open(f"{tmp}/{src}.txt").read().splitlines()
head = next(i for i, l in enumerate(lines) if l.split()[:1] == ["PID"])
assert lines[head].split()[:2] == ["PID", "CONT"], lines[head]
cells = [l.split() for l in lines[head + 1:] if l.strip()]
assert {int(c[0]): c[1] for c in cells} == {p: "YES" if v else "NO" for p, v in want.items()}, cells
assert [c[1] for c in cells] == ["YES", "YES", "NO"], cells
lines = open(f"{tmp}/{src}.htop.txt").read().splitlines()
head = next(i for i, l in enumerate(lines) if l.split()[:1] == ["PID"])
assert lines[head].split() == ["PID", "CONT"], lines[head]
assert [l.split()[1] for l in lines[head + 1:] if l.strip()] == ["YES", "NO"], lines
PY
done

# As nobody: status is anyone's to read, so the answer is the same (the BPF sources need
# privilege: /proc only).
if command -v setpriv >/dev/null 2>&1 && id nobody >/dev/null 2>&1; then
	chmod 755 "$tmp"
	setpriv --reuid="$(id -u nobody)" --regid="$(id -g nobody)" --clear-groups "$PTOP" -b -n 1 \
		-o json --source=procfs -p "$one,$$" --fields pid,cont >"$tmp/nobody.json" ||
		fail "nobody: json"
	"$PYTHON" -c 'import json,sys
rows = {r["pid"]: r["in_container"] for r in json.loads(open(sys.argv[1]).readline())["processes"]}
assert rows == {int(sys.argv[2]): True, int(sys.argv[3]): False}, rows' \
		"$tmp/nobody.json" "$one" "$$" || fail "nobody: not what NSpid says"
else
	partial_skip "no setpriv or no nobody: the unprivileged reading not checked"
fi

# Asked for only: a JSON frame without --fields has no in_container key.
"$PTOP" -b -n 1 -o json --source=procfs -p "$one" >"$tmp/plain.json" || fail "plain json"
grep -q '"in_container"' "$tmp/plain.json" && fail "in_container written unasked"

finish
