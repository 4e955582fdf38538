#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_columns.sh: the columns top and htop have, against ps(1) and the
# kernel's own figures, for a few quiet processes: a sleeper, a shell that
# waited for a child before it became a sleeper (its children's faults are
# not 0), a session on a terminal of its own (script(1)), a real-time
# sleeper (chrt -f 10) and PID 1. Through each frame source this ptop has,
# batch JSON and CSV hold what ps -o min_flt,maj_flt,pgid,sid,tpgid prints,
# and what stat and status say where ps has no figure (children's faults and
# times, the terminal's number, policy, context switches); batch text shows
# TTY, CLS and RTPRIO as ps does and ELAPSED and STARTED as top does; -o,
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
quiet="$sleeper $waiter"
# a session on a terminal of its own: TTY pts/N, TPGID its group
if command -v script >/dev/null 2>&1; then
	script -q -c "echo \$\$ >$tmp/tty.pid; exec sleep 600" /dev/null </dev/null >/dev/null 2>&1 &
	kids="$kids $!"
	wait_until test -s "$tmp/tty.pid" || die "the terminal's session never started"
	on_tty=$(cat "$tmp/tty.pid")
	kids="$kids $on_tty"
	wait_state "$on_tty" S || die "the terminal's sleeper never slept"
	pids="$pids,$on_tty"
	quiet="$quiet $on_tty"
else
	partial_skip "a process on a terminal: no script(1)"
fi
# a real-time one: CLS FF, RTPRIO 10
if chrt -f 10 true 2>/dev/null; then
	chrt -f 10 sleep 600 &
	rt=$!
	kids="$kids $rt"
	wait_state "$rt" S || die "the real-time sleeper never slept"
	pids="$pids,$rt"
	quiet="$quiet $rt"
else
	partial_skip "a real-time process: chrt -f refused here"
fi

sources=procfs
if "$PTOP" --version | grep -q 'procfs, bpf'; then
	"$PTOP" -b -n 1 -p 1 --source=bpf -o json >"$tmp/probe" 2>"$tmp/probe.err" || :
	if [ -s "$tmp/probe.err" ]; then
		partial_skip "the BPF source: $(cat "$tmp/probe.err")"
	else
		sources="procfs bpf"
	fi
	# auto's choice as root: the delta pass, where it loads
	"$PTOP" -b -n 1 -p 1 --source=bpf-delta -o json >"$tmp/probe" 2>"$tmp/probe.err" || :
	if [ -s "$tmp/probe.err" ]; then
		partial_skip "the BPF delta: $(cat "$tmp/probe.err")"
	elif [ "$sources" != procfs ]; then
		sources="$sources bpf-delta"
	fi
else
	partial_skip "the BPF source: not built"
fi

# check SOURCE: ptop's JSON, CSV and text of them against ps, stat and status,
# read just after (PID 1 may run between the two looks: its counts may only grow).
check() {
	"$PTOP" -b -n 1 -o json --source="$1" -p "$pids" >"$tmp/$1.json" ||
		fail "$1: json: exit $?"
	"$PTOP" -b -n 1 -o csv --source="$1" -p "$pids" >"$tmp/$1.csv" ||
		fail "$1: csv: exit $?"
	# the context switches are in JSON when asked for (status costs every frame)
	"$PTOP" -b -n 1 -o json --source="$1" -p "$pids" --fields PID,nvcsw,IVCSW \
		>"$tmp/$1.csw.json" || fail "$1: json --fields: exit $?"
	"$PTOP" -b -n 1 -w 200 --source="$1" -p "$pids" \
		--fields PID,TTY,CLS,RTPRIO,ELAPSED,STARTED >"$tmp/$1.txt" || fail "$1: text: exit $?"
	ps -o pid=,min_flt=,maj_flt=,pgid=,sid=,tpgid=,tty=,cls=,rtprio=,etimes= -p "$pids" \
		>"$tmp/$1.ps" || fail "$1: ps: exit $?"
	for p in $(echo "$pids" | tr , ' '); do
		printf '%s ' "$(cat "/proc/$p/statm")"
		cat "/proc/$p/stat"
		grep ctxt_switches "/proc/$p/status" | tr '\n' ' '
		echo
	done >"$tmp/$1.proc"
	"$PYTHON" - "$tmp/$1" "$quiet" "$(getconf CLK_TCK)" "$(getconf PAGESIZE)" <<'PY' || fail "$1: columns differ from ps and /proc"
import csv, json, sys
base, quiet, hz = sys.argv[1], {int(p) for p in sys.argv[2].split()}, int(sys.argv[3])
rows = {r["pid"]: r for r in json.loads(open(base + ".json").readline())["processes"]}
for r in json.loads(open(base + ".csw.json").readline())["processes"]:
    assert set(r) == {"pid", "ctxsw_voluntary", "ctxsw_involuntary"}, r
    assert "ctxsw_voluntary" not in rows[r["pid"]], "context switches in JSON unasked"
    rows[r["pid"]].update(r)
crow = {int(r["pid"]): r for r in csv.DictReader(open(base + ".csv", newline=""))}
lines = [l.split() for l in open(base + ".txt")]
head = next(i for i, l in enumerate(lines) if l[:1] == ["PID"])
text = {int(l[0]): dict(zip(lines[head], l)) for l in lines[head + 1:] if l}
ps = {}
for l in open(base + ".ps"):
    w = l.split()
    if w:
        ps[int(w[0])] = w[1:]
proc = {}
lines = open(base + ".proc").read().split("\n")
page_kb = int(sys.argv[4]) // 1024
for stat, status in zip(lines[0::2], lines[1::2]):
    statm, stat = stat.split()[:7], " ".join(stat.split()[7:])
    f = stat[stat.rindex(")") + 2:].split()  # f[0] is field 3
    st = status.split()
    proc[int(stat.split()[0])] = {
        "pgrp": int(f[2]), "session": int(f[3]), "tty_nr": int(f[4]), "tpgid": int(f[5]),
        "minflt": int(f[7]), "cminflt": int(f[8]), "majflt": int(f[9]), "cmajflt": int(f[10]),
        "cutime_ticks": int(f[13]), "cstime_ticks": int(f[14]), "start_ticks": int(f[19]),
        "rt_priority": int(f[37]), "policy": int(f[38]),
        "ctxsw_voluntary": int(st[1]), "ctxsw_involuntary": int(st[3]),
        "code_kb": int(statm[3]) * page_kb, "data_kb": int(statm[5]) * page_kb}
bad = []
assert set(rows) == set(ps) == set(proc) == set(crow) == set(text), (rows, ps, crow, text)
growing = ("minflt", "majflt", "cminflt", "cmajflt", "cutime_ticks", "cstime_ticks",
           "ctxsw_voluntary", "ctxsw_involuntary")
for pid, r in rows.items():
    w = ps[pid]
    want = dict(proc[pid], minflt=int(w[0]), majflt=int(w[1]), pgrp=int(w[2]),
                session=int(w[3]), tpgid=int(w[4]))
    for k, v in want.items():
        if k == "data_kb" and pid not in quiet:
            continue  # PID 1 may map or unmap between the looks
        got = r.get(k)
        if not isinstance(got, int):
            bad.append("%d %s: %r in JSON" % (pid, k, got))
        elif got != v if pid in quiet or k not in growing else got > v:
            bad.append("%d %s: %d, ps or /proc %d" % (pid, k, got, v))
        elif k in crow[pid] and crow[pid][k] != str(got) and (pid in quiet or k not in growing or
                                           int(crow[pid][k]) < got):
            bad.append("%d %s: CSV %r, JSON %r" % (pid, k, crow[pid][k], got))
    t = text[pid]
    rtprio = 0 if w[7] == "-" else int(w[7])
    for k, v in (("TTY", w[5]), ("CLS", w[6]), ("RTPRIO", str(rtprio))):
        if t[k] != v:
            bad.append("%d %s: %r, ps %r" % (pid, k, t[k], v))
    h, m = (int(x) for x in t["ELAPSED"].split(","))
    if abs(h * 3600 + m * 60 - int(w[8])) > 61:
        bad.append("%d ELAPSED %s, ps %s s" % (pid, t["ELAPSED"], w[8]))
    mins, secs = (int(x) for x in t["STARTED"].split(":")) if ":" in t["STARTED"] else (0, -1)
    if secs >= 0 and mins * 60 + secs != proc[pid]["start_ticks"] // hz:
        bad.append("%d STARTED %s, stat %d ticks" % (pid, t["STARTED"], proc[pid]["start_ticks"]))
if max(r["cminflt"] for p, r in rows.items() if p in quiet) == 0:
    bad.append("the shell that waited for /bin/true: its children's minor faults are 0")
assert not bad, bad
PY
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
