#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_columns.sh: the columns top and htop have, against ps(1) and the
# kernel's own figures, for a few quiet processes: a sleeper, a shell that
# waited for a child before it became a sleeper (its children's faults are
# not 0) and PID 1. Their page faults in batch JSON and CSV are what ps -o
# min_flt,maj_flt prints (the children's, which ps leaves out, what stat's
# fields 11 and 13 say), through each frame source this ptop has; -o,
# --fields, --sort and --sort-key take top's title and htop's name of a
# column alike, and the JSON key stays the same. Skips (77) without ps or python3.
set -eu

NAME=test_columns
. "${srcdir:-.}/tests/lib.sh"
need ps "to compare with"
need_python "to parse ptop's output"

spawn_sleeper ptop-cols-sleep
sleeper=$spawned
# /bin/true is a child it waits for: its faults are the shell's children's
sh -c '/bin/true; : >"$1/ready"; exec sleep 600' sh "$tmp" &
waiter=$!
kids="$kids $waiter"
wait_until test -e "$tmp/ready" || die "the waiting shell never got ready"
wait_state "$sleeper" S || die "the sleeper never slept"
wait_state "$waiter" S || die "the waiting shell never slept"
pids="$sleeper,$waiter,1"

sources=procfs
if "$PTOP" --version | grep -q 'procfs, bpf'; then
	"$PTOP" -b -n 1 -p 1 --source=bpf -o json >"$tmp/probe" 2>"$tmp/probe.err" || :
	if [ -s "$tmp/probe.err" ]; then
		partial_skip "the BPF source: $(cat "$tmp/probe.err")"
	else
		sources="procfs bpf"
	fi
else
	partial_skip "the BPF source: not built"
fi

# check SOURCE: ptop's JSON and CSV of the three against ps and stat, read
# just after (PID 1 may fault between the two looks: its figures may only grow).
check() {
	"$PTOP" -b -n 1 -o json --source="$1" -p "$pids" >"$tmp/$1.json" ||
		fail "$1: json: exit $?"
	"$PTOP" -b -n 1 -o csv --source="$1" -p "$pids" >"$tmp/$1.csv" ||
		fail "$1: csv: exit $?"
	ps -o pid=,min_flt=,maj_flt= -p "$pids" >"$tmp/$1.ps" || fail "$1: ps: exit $?"
	for p in $sleeper $waiter 1; do
		cat "/proc/$p/stat"
	done >"$tmp/$1.stat"
	"$PYTHON" - "$tmp/$1.json" "$tmp/$1.csv" "$tmp/$1.ps" "$tmp/$1.stat" "$sleeper" "$waiter" <<'PY' ||
import csv, json, sys
js, cs, pss, stats, sleeper, waiter = sys.argv[1:7]
quiet = {int(sleeper), int(waiter)}
rows = {r["pid"]: r for r in json.loads(open(js).readline())["processes"]}
body = list(csv.DictReader(open(cs, newline="")))
crow = {int(r["pid"]): r for r in body}
ps = {int(l.split()[0]): [int(x) for x in l.split()[1:]] for l in open(pss) if l.strip()}
stat = {}
for l in open(stats):
    f = l[l.rindex(")") + 2:].split()
    # fields 3.. from f[0]: minflt 10, cminflt 11, majflt 12, cmajflt 13
    stat[int(l.split()[0])] = {"minflt": int(f[7]), "cminflt": int(f[8]),
                               "majflt": int(f[9]), "cmajflt": int(f[10])}
bad = []
assert set(rows) == set(ps) == set(stat) == set(crow), (set(rows), set(ps), set(crow))
for pid, r in rows.items():
    want = {"minflt": ps[pid][0], "majflt": ps[pid][1],
            "cminflt": stat[pid]["cminflt"], "cmajflt": stat[pid]["cmajflt"]}
    for k, v in want.items():
        got = r[k]
        if not isinstance(got, int):
            bad.append("%d %s: %r in JSON" % (pid, k, got))
        elif got != v if pid in quiet else got > v:
            bad.append("%d %s: %d, ps/stat %d" % (pid, k, got, v))
        if crow[pid][k] != str(got):
            bad.append("%d %s: CSV %r, JSON %r" % (pid, k, crow[pid][k], got))
if rows[int(waiter)]["cminflt"] == 0:
    bad.append("the shell that waited for /bin/true: its children's minor faults are 0")
assert not bad, bad
PY
		fail "$1: the page faults are not ps's"
}
for s in $sources; do
	check "$s"
done

# One column, two titles: top's (nMaj) and htop's (MAJFLT) name it, in -o,
# --fields and the sorts alike; the heading is top's, the JSON key one.
"$PTOP" -b -n 1 -p "$pids" --fields PID,nMin,MAJFLT,cminflt -o nMaj >"$tmp/two.txt" ||
	fail "--fields with top's and htop's names: exit $?"
head_line=$(grep '^ *PID ' "$tmp/two.txt" | tr -s ' ' | sed 's/^ //')
[ "$head_line" = "PID nMin nMaj CMINFLT" ] || fail "headings: '$head_line'"
"$PTOP" -b -n 1 -p "$pids" -o MAJFLT --fields PID,MINFLT >/dev/null ||
	fail "-o MAJFLT (htop's name): exit $?"
"$PTOP" -b -n 1 -p "$pids" --sort-key MAJFLT -o json >/dev/null || fail "--sort-key MAJFLT: exit $?"
"$PTOP" -b -n 1 -p "$pids" --sort nMaj >/dev/null || fail "--sort nMaj: exit $?"
for t in nMin nMaj CMINFLT CMAJFLT; do
	"$PTOP" -O | grep -qx "$t" || fail "-O does not list $t"
done

finish
