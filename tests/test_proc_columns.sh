#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_proc_columns.sh: the columns read from a process's own files and
# links only when asked for (WCHAN, EXE, CWD, AGID, AGNI, IO, SUPGIDS,
# SUPGRPS, SECATTR) against what /proc says of a child with a known program and
# working directory (and of one in a session, so an autogroup, of its own,
# reniced; of children given each I/O class with ionice; of one given
# supplementary groups), through each frame
# source this machine has: JSON, CSV and text; a deleted program shows as
# the kernel gives it; and another user's process, without privilege, shows
# '-' in text and null in JSON, never a path or an empty string (as root: ptop
# run as nobody with setpriv, beside a child of root's). Nothing is timed:
# the child is waited for until it sleeps.
set -eu

NAME=test_proc_columns
. "${srcdir:-.}/tests/lib.sh"
need_python "to parse ptop's output"

mkdir "$tmp/cwd dir"
cp "$(command -v sleep)" "$tmp/pcolsleep"
cp "$tmp/pcolsleep" "$tmp/pcolgone"
(cd "$tmp/cwd dir" && exec "$tmp/pcolsleep" 600) &
child=$!
(cd / && exec "$tmp/pcolgone" 600) &
gone_child=$!
kids="$kids $child $gone_child"
wait_state "$child" S
wait_state "$gone_child" S
rm "$tmp/pcolgone"

frame_sources

for s in $sources; do
	"$PTOP" -b -n 1 -o json --source="$s" -p "$child,$gone_child" \
		--fields pid,exe,cwd,wchan,command >"$tmp/$s.json" || fail "$s: json"
	"$PTOP" -b -n 1 -o csv --source="$s" -p "$child" --fields pid,exe,cwd,wchan \
		>"$tmp/$s.csv" || fail "$s: csv"
	# sorted by either, by top's title or ptop's name
	"$PTOP" -b -n 1 -o EXE --source="$s" -p "$child" >/dev/null || fail "$s: -o EXE"
	"$PTOP" -b -n 1 --sort=cwd --source="$s" -p "$child" >/dev/null || fail "$s: --sort=cwd"
	"$PTOP" -b -n 1 -o text -w 300 --source="$s" -p "$child" --fields pid,exe,cwd \
		>"$tmp/$s.txt" || fail "$s: text"
	# what the kernel says, after ptop: the child sleeps all along
	"$PYTHON" - "$tmp" "$s" "$child" "$gone_child" <<'PY' || fail "$s: not what /proc says"
import csv, json, os, sys
tmp, src, child, gone = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
rows = {r["pid"]: r for r in json.loads(open(f"{tmp}/{src}.json").readline())["processes"]}
assert set(rows) == {child, gone}, rows
r = rows[child]
assert r["exe"] == os.readlink(f"/proc/{child}/exe") == f"{tmp}/pcolsleep", r
assert r["cwd"] == os.readlink(f"/proc/{child}/cwd") == f"{tmp}/cwd dir", r
w = open(f"/proc/{child}/wchan").read()
assert r["wchan"] == (None if w == "0" else w), (r, w)
g = rows[gone]
assert g["exe"] == f"{tmp}/pcolgone (deleted)" == os.readlink(f"/proc/{gone}/exe"), g
assert g["cwd"] == "/", g
body = list(csv.DictReader(l for l in open(f"{tmp}/{src}.csv") if not l.startswith("top")))
assert body and body[0]["exe"] == f"{tmp}/pcolsleep" and body[0]["cwd"] == f"{tmp}/cwd dir", body
# text: each path as wide as its column, cut with a '+' as top cuts a field
lines = open(f"{tmp}/{src}.txt").read().splitlines()
head = next(i for i, l in enumerate(lines) if l.split()[:1] == ["PID"])
exe, cwd = lines[head + 1].split(None, 1)[1][:24], lines[head + 1].split(None, 1)[1][25:49]
for cell, path in ((exe, f"{tmp}/pcolsleep"), (cwd, f"{tmp}/cwd dir")):
    cell = cell.rstrip()
    assert path == cell or (cell.endswith("+") and path.startswith(cell[:-1])), (cell, path)
PY
done

# The autogroup: a child in a session of its own has one of its own, whose nice is set here.
if [ -r /proc/self/autogroup ] && command -v setsid >/dev/null 2>&1; then
	setsid "$tmp/pcolsleep" 600 &
	sess=$!
	kids="$kids $sess"
	wait_until sh -c "grep -q '^pcolsleep' /proc/$sess/comm && grep -q autogroup- /proc/$sess/autogroup" ||
		fail "the child in a session of its own never ran"
	echo 5 >"/proc/$sess/autogroup" || fail "autogroup nice not set"
	for s in $sources; do
		"$PTOP" -b -n 1 -o json --source="$s" -p "$sess,$child" --fields pid,agrp,AGNI \
			>"$tmp/ag-$s.json" || fail "$s: autogroup json"
		"$PYTHON" - "$tmp/ag-$s.json" "$sess" "$child" <<'PY' || fail "$s: autogroup not as /proc says"
import json, re, sys
rows = {r["pid"]: r for r in json.loads(open(sys.argv[1]).readline())["processes"]}
for pid in map(int, sys.argv[2:]):
    m = re.fullmatch(r"/autogroup-(\d+) nice (-?\d+)\n", open(f"/proc/{pid}/autogroup").read())
    want = (int(m.group(1)), int(m.group(2))) if m else (None, None)
    assert (rows[pid]["autogroup_id"], rows[pid]["autogroup_nice"]) == want, (rows[pid], want)
assert rows[int(sys.argv[2])]["autogroup_nice"] == 5, rows
assert rows[int(sys.argv[2])]["autogroup_id"] != rows[int(sys.argv[3])]["autogroup_id"], rows
PY
	done
else
	partial_skip "no /proc/PID/autogroup (CONFIG_SCHED_AUTOGROUP) or no setsid: AGID not checked"
fi

# The I/O priority: htop's B/R/id, with none set the best effort its nice gives.
if command -v ionice >/dev/null 2>&1 && ionice -c 3 true 2>/dev/null; then
	ionice -c 3 "$tmp/pcolsleep" 600 &
	io_idle=$!
	ionice -c 2 -n 6 "$tmp/pcolsleep" 600 &
	io_be=$!
	nice -n 10 "$tmp/pcolsleep" 600 &
	io_nice=$!
	kids="$kids $io_idle $io_be $io_nice"
	want="$io_idle=id $io_be=B6 $io_nice=B6"
	if ionice -c 1 -n 2 true 2>/dev/null; then
		ionice -c 1 -n 2 "$tmp/pcolsleep" 600 &
		io_rt=$!
		kids="$kids $io_rt"
		want="$want $io_rt=R2"
	else
		partial_skip "no real-time I/O class for this user: R not checked"
	fi
	pids=$(echo "$want" | sed 's/=[^ ]*//g; s/ /,/g')
	for p in $(echo "$pids" | tr , ' '); do
		wait_until sh -c "grep -q '^pcolsleep' /proc/$p/comm" || fail "child $p never ran"
	done
	for s in $sources; do
		"$PTOP" -b -n 1 -o json --source="$s" -p "$pids" --fields pid,io >"$tmp/io-$s.json" ||
			fail "$s: io json"
		"$PTOP" -b -n 1 -o text -w 200 --source="$s" -p "$pids" --fields pid,io --sort-key=IO_PRIORITY \
			>"$tmp/io-$s.txt" || fail "$s: io text"
		"$PYTHON" - "$tmp/io-$s" $want <<'PY' || fail "$s: I/O priority not as set"
import json, sys
base, want = sys.argv[1], dict(w.split("=") for w in sys.argv[2:])
rows = {str(r["pid"]): r["ioprio"] for r in json.loads(open(base + ".json").readline())["processes"]}
cls = {"id": 3, "B6": 2, "R2": 1}
for pid, shown in want.items():
    # the kernel's number: class << 13; none set (class 0) for the one only niced
    assert rows[pid] >> 13 == (0 if pid == sys.argv[4].split("=")[0] else cls[shown]), (pid, rows)
lines = open(base + ".txt").read().splitlines()
head = next(i for i, l in enumerate(lines) if l.split()[:1] == ["PID"])
table = [l.split() for l in lines[head + 1:] if l.strip()]
assert {c[0]: c[1] for c in table} == want, (table, want)
# sorted as served: real-time first, idle last
order = [c[1] for c in table]
assert order == sorted(order, key=lambda v: {"R": 0, "B": 1, "i": 2}[v[0]]), order
PY
	done
else
	partial_skip "no ionice, or no idle I/O class here: IO not checked"
fi

# Supplementary groups as status gives them, and their names; as root, a child given some.
grouped=$child
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1; then
	setpriv --groups=4,24,27,2000000003 "$tmp/pcolsleep" 600 &
	grouped=$!
	kids="$kids $grouped"
	wait_until sh -c "grep -q '^pcolsleep' /proc/$grouped/comm" || fail "the grouped child never ran"
fi
for s in $sources; do
	"$PTOP" -b -n 1 -o json --source="$s" -p "$child,$grouped" --fields pid,supgids,SUPGRPS \
		>"$tmp/gr-$s.json" || fail "$s: groups json"
	"$PTOP" -b -n 1 -o text -w 200 --source="$s" -p "$grouped" --fields pid,supgids \
		>"$tmp/gr-$s.txt" || fail "$s: groups text"
	"$PYTHON" - "$tmp/gr-$s" "$child" "$grouped" "$(id -u)" <<'PY' || fail "$s: groups not as status says"
import grp, json, sys
base, pids, root = sys.argv[1], list(map(int, sys.argv[2:4])), sys.argv[4] == "0"
rows = {r["pid"]: r for r in json.loads(open(base + ".json").readline())["processes"]}

def name(g):
    try:
        return grp.getgrgid(g).gr_name
    except KeyError:
        return str(g)

for pid in pids:
    line = next(l for l in open(f"/proc/{pid}/status") if l.startswith("Groups:"))
    ids = [int(t) for t in line.split()[1:]]
    assert rows[pid]["supgids"] == ",".join(map(str, ids)), (rows[pid], ids)
    assert rows[pid]["supgrps"] == ",".join(name(g) for g in ids), (rows[pid], ids)
if root:
    assert rows[pids[1]]["supgids"] == "4,24,27,2000000003", rows
    assert rows[pids[1]]["supgrps"].endswith(",2000000003"), rows
text = open(base + ".txt").read().splitlines()
head = next(i for i, l in enumerate(text) if l.split()[:1] == ["PID"])
shown = text[head + 1].split()[1]
want = rows[pids[1]]["supgids"] or "-"
assert shown == want[:20] or (shown.endswith("+") and want.startswith(shown[:-1])), (shown, want)
PY
done

# The security label as the module gives it, null where there is none (no module: the read
# fails) or it cannot be read.
for s in $sources; do
	"$PTOP" -b -n 1 -o json --source="$s" -p "$child,$$" --fields pid,secattr \
		>"$tmp/sa-$s.json" || fail "$s: secattr json"
	"$PYTHON" - "$tmp/sa-$s.json" "$child" "$$" <<'PY' || fail "$s: label not as attr/current says"
import json, sys
rows = {r["pid"]: r for r in json.loads(open(sys.argv[1]).readline())["processes"]}
for pid in map(int, sys.argv[2:]):
    try:
        want = open(f"/proc/{pid}/attr/current", "rb").read().rstrip(b"\n\0").decode() or None
    except OSError:
        want = None
    assert rows[pid]["secattr"] == want, (rows[pid], want)
PY
done
[ -r /sys/kernel/security/lsm ] && [ -s /sys/kernel/security/lsm ] ||
	partial_skip "no security module here: SECATTR seen null only"

# Asked for only: a JSON frame without --fields reads and writes none of them.
"$PTOP" -b -n 1 -o json --source=procfs -p "$child" >"$tmp/plain.json" || fail "plain json"
"$PYTHON" -c 'import json,sys
r = json.loads(open(sys.argv[1]).readline())["processes"][0]
assert not {"exe", "cwd", "wchan", "autogroup_id", "autogroup_nice", "ioprio", "supgids",
            "supgrps", "secattr"} & set(r), r' "$tmp/plain.json" || fail "keys written unasked"

# Another user's process without privilege: '-' and null, never a path or "".
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1 && id nobody >/dev/null 2>&1; then
	nobody=$(id -u nobody)
	nogroup=$(id -g nobody)
	chmod 755 "$tmp" "$tmp/cwd dir"
	(cd "$tmp/cwd dir" && exec setpriv --reuid="$nobody" --regid="$nogroup" --clear-groups \
		"$tmp/pcolsleep" 600) &
	n_pid=$!
	kids="$kids $n_pid"
	wait_until sh -c "[ \"\$(stat -c %u /proc/$n_pid)\" = $nobody ] &&
		grep -q 'Name:.*pcolsleep' /proc/$n_pid/status" || fail "the nobody child never ran"
	wait_state "$n_pid" S
	as_nobody() {
		setpriv --reuid="$nobody" --regid="$nogroup" --clear-groups "$PTOP" "$@"
	}
	as_nobody -b -n 1 -o json --source=procfs -p "$n_pid,$child" --fields pid,exe,cwd,wchan \
		>"$tmp/nb.json" || fail "nobody json"
	as_nobody -b -n 1 -o text -w 300 --source=procfs -p "$child" --fields pid,exe,cwd,wchan \
		>"$tmp/nb.txt" || fail "nobody text"
	as_nobody -b -n 1 -o csv --source=procfs -p "$child" --fields pid,exe,cwd \
		>"$tmp/nb.csv" || fail "nobody csv"
	"$PYTHON" - "$tmp" "$n_pid" "$child" <<'PY' || fail "another user's paths as nobody"
import csv, json, sys
tmp, mine, roots = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rows = {r["pid"]: r for r in json.loads(open(tmp + "/nb.json").readline())["processes"]}
assert set(rows) == {mine, roots}, rows
# its own process: the paths
assert rows[mine]["exe"] == f"{tmp}/pcolsleep" and rows[mine]["cwd"] == f"{tmp}/cwd dir", rows[mine]
# root's: refused by the kernel, so unknown
assert rows[roots]["exe"] is None and rows[roots]["cwd"] is None, rows[roots]
assert rows[roots]["wchan"] is None, rows[roots]
lines = open(tmp + "/nb.txt").read().splitlines()
head = next(i for i, l in enumerate(lines) if l.split()[:1] == ["PID"])
cells = lines[head + 1].split()
assert cells[0] == str(roots) and cells[1:] == ["-", "-", "-"], lines[head:]
body = list(csv.DictReader(l for l in open(tmp + "/nb.csv") if not l.startswith("top")))
assert body and body[0]["exe"] == "" and body[0]["cwd"] == "", body
PY
elif [ "$(id -u)" != 0 ] && ! readlink /proc/1/exe >/dev/null 2>&1; then
	"$PTOP" -b -n 1 -o json --source=procfs -p 1 --fields pid,exe,cwd >"$tmp/one.json" ||
		fail "json -p 1"
	"$PYTHON" -c 'import json,sys
r = json.loads(open(sys.argv[1]).readline())["processes"][0]
assert r["exe"] is None and r["cwd"] is None, r' "$tmp/one.json" ||
		fail "PID 1's paths shown though unreadable"
else
	partial_skip "neither root with setpriv and nobody, nor a PID 1 whose exe is refused:" \
		"another user's paths not checked"
fi

finish
