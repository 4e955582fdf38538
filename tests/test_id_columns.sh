#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_id_columns.sh: top's RUID, SUID, RUSER, SUSER, GID, GROUP, LOGID,
# Flags, NU, RSan, RSfd, RSlk, RSsh, USED, TIME, %CUU, %CUC, ENVIRON and
# htop's NCPU%, COMM and EXE (EXENAME here) against what /proc (and ps) say
# of a child with a known environment, as root with different real, effective
# and saved ids, through each frame source this machine has: JSON, CSV and
# text. As nobody (setpriv), root's child's environment is refused: '-' and
# null, never an empty string; its own child's is shown. Nothing is timed:
# the child is waited for until it sleeps.
set -eu

NAME=test_id_columns
. "${srcdir:-.}/tests/lib.sh"
need_python "to parse ptop's output"

cp "$(command -v sleep)" "$tmp/idsleep"
ids=""
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1 && id nobody >/dev/null 2>&1; then
	# real uid nobody's, effective and saved root's; effective gid nobody's
	ids="--ruid=$(id -u nobody) --egid=$(id -g nobody) --clear-groups"
fi
# shellcheck disable=SC2086
env -i IDTEST_A=one "IDTEST_B=two words" ${ids:+setpriv $ids} "$tmp/idsleep" 600 &
child=$!
kids="$kids $child"
wait_until sh -c "grep -q '^idsleep' /proc/$child/comm" || die "the child never ran"
wait_state "$child" S

frame_sources

fields=pid,ruid,suid,ruser,suser,gid,group,logid,flags,nu,rsan,rsfd,rslk,rssh,used,res,cuu,cuc,ncpu,cpu,environ
for s in $sources; do
	"$PTOP" -b -n 1 -o json --source="$s" -p "$child,$$" --fields "$fields,utime,stime,cutime,cstime,start" \
		>"$tmp/$s.json" || fail "$s: json"
	"$PTOP" -b -n 1 -o csv --source="$s" -p "$child" --fields "$fields" \
		>"$tmp/$s.csv" || fail "$s: csv"
	# top's titles and htop's names: the columns shown as top and htop show them
	"$PTOP" -b -n 1 -o text -w 400 --source="$s" -p "$child" \
		--fields PID,COMM,EXENAME,TIME,TIME+,Flags,LOGID,NU,GROUP,RUSER,%CUU >"$tmp/$s.txt" ||
		fail "$s: text"
	"$PTOP" -b -n 1 -o %CUU --source="$s" -p "$child" >/dev/null || fail "$s: -o %CUU"
	"$PTOP" -b -n 1 --sort-key=PERCENT_NORM_CPU --source="$s" -p "$child" >/dev/null ||
		fail "$s: --sort-key=PERCENT_NORM_CPU"
	ps -o ruid=,suid=,ruser=,suser=,egid=,egroup= -p "$child" >"$tmp/$s.ps" || fail "ps"
	"$PYTHON" - "$tmp" "$s" "$child" "$$" "$ids" <<'PY' || fail "$s: not what /proc says"
import csv, grp, json, os, pwd, sys
tmp, src, child, me, ids = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
frame = json.loads(open(f"{tmp}/{src}.json").readline())
rows = {r["pid"]: r for r in frame["processes"]}
assert set(rows) == {child, me}, rows

def status(pid):
    return {l.split(":")[0]: l.split(":", 1)[1].split() for l in open(f"/proc/{pid}/status")}

def user(u):
    try:
        return pwd.getpwuid(u).pw_name
    except KeyError:
        return str(u)

def group(g):
    try:
        return grp.getgrgid(g).gr_name
    except KeyError:
        return str(g)

def node_of(cpu):
    base = "/sys/devices/system/node"
    if not os.path.isdir(base):
        return None
    for d in os.listdir(base):
        if not (d.startswith("node") and d[4:].isdigit()):
            continue
        for part in open(f"{base}/{d}/cpulist").read().strip().split(","):
            if not part:
                continue
            lo, _, hi = part.partition("-")
            if int(lo) <= cpu <= int(hi or lo):
                return int(d[4:])
    return None

for pid, r in rows.items():
    st = status(pid)
    uid, gid = list(map(int, st["Uid"])), list(map(int, st["Gid"]))
    assert (r["ruid"], r["suid"], r["gid"]) == (uid[0], uid[2], gid[1]), (r, uid, gid)
    assert (r["ruser"], r["suser"], r["group"]) == (user(uid[0]), user(uid[2]), group(gid[1])), r
    kb = lambda k: int(st[k][0]) if k in st else None
    split = (r["rss_anon_kb"], r["rss_file_kb"], r["rss_shmem_kb"])
    assert sum(split) == r["rss_kb"], r
    # the sleeping child's memory stands still; this shell's moved since ptop read it
    if pid == child:
        assert split + (r["rss_locked_kb"],) == (
            kb("RssAnon"), kb("RssFile"), kb("RssShmem"), kb("VmLck")), (r, st)
    assert r["used_kb"] == r["rss_kb"] + (kb("VmSwap") or 0), r
    stat = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    assert r["task_flags"] == int(stat[6]), (r, stat[6])
    assert r["numa_node"] == node_of(int(stat[36])), (r, stat[36])
    try:
        login = int(open(f"/proc/{pid}/loginuid").read())
    except OSError:
        login = None
    assert r["loginuid"] == login, (r, login)
    # derived from what the row says, over the frame's uptime
    life = frame["uptime_s"] - r["start_ticks"] / frame["hz"]
    own = (r["utime_ticks"] + r["stime_ticks"]) / frame["hz"]
    kids = (r["cutime_ticks"] + r["cstime_ticks"]) / frame["hz"]
    # ptop's clock and the frame's rounded uptime differ by a little, which over
    # this shell's short life is a little more than rounding
    near = lambda a, b: abs(a - b) < max(0.5, 0.03 * b)
    assert near(r["cpu_life_pct"], own * 100 / life), (r, own, life)
    assert near(r["cpu_life_children_pct"], (own + kids) * 100 / life), (r, kids, life)
    assert abs(r["cpu_norm_pct"] - r["cpu_pct"] / frame["ncpu"]) < 0.01, r
env = open(f"/proc/{child}/environ").read().rstrip("\0").replace("\0", " ")
assert env == "IDTEST_A=one IDTEST_B=two words", env
assert rows[child]["environ"] == env, rows[child]
if ids:
    r = rows[child]
    assert r["ruid"] != r["suid"] and r["suid"] == 0 and r["gid"] != 0, r
# as ps shows them
ps = open(f"{tmp}/{src}.ps").read().split()
r = rows[child]
assert ps[0:2] + ps[4:5] == [str(r["ruid"]), str(r["suid"]), str(r["gid"])], (ps, r)
# ps shows a name longer than its column by its number
for shown, name in zip((ps[2], ps[3], ps[5]), (r["ruser"], r["suser"], r["group"])):
    assert shown == name or len(name) > 8, (ps, r)
body = list(csv.DictReader(l for l in open(f"{tmp}/{src}.csv") if not l.startswith("top")))
assert body and body[0]["environ"] == env and body[0]["gid"] == str(r["gid"]), body
# text: as top and htop show them
lines = open(f"{tmp}/{src}.txt").read().splitlines()
head = next(i for i, l in enumerate(lines) if l.split()[:1] == ["PID"])
assert lines[head].split() == ["PID", "COMM", "EXENAME", "TIME", "TIME+", "Flags", "LOGID",
                               "NU", "GROUP", "RUSER", "%CUU"], lines[head]
cells = lines[head + 1].split()
assert cells[1] == cells[2] == "idsleep", cells
# TIME+ in hundredths, as the JSON's ticks (setpriv and exec can take a tick under load)
cs = (r["utime_ticks"] + r["stime_ticks"]) * 100 // frame["hz"]
assert cells[3] == "0:00" and cells[4] == "0:%02d.%02d" % (cs // 100, cs % 100), (cells, cs)
assert cells[5] == ("%08x" % r["task_flags"]).replace("0", "."), cells
login = r["loginuid"]
assert cells[6] == ("-" if login is None else "-1" if login == 4294967295 else str(login)), cells
assert cells[7] == ("-" if r["numa_node"] is None else str(r["numa_node"])), cells
assert cells[8] == r["group"][:8] or cells[8].endswith("+"), cells
PY
done

# Asked for only: a JSON frame without --fields reads and writes none of them.
"$PTOP" -b -n 1 -o json --source=procfs -p "$child" >"$tmp/plain.json" || fail "plain json"
"$PYTHON" -c 'import json,sys
r = json.loads(open(sys.argv[1]).readline())["processes"][0]
assert not {"ruid", "ruser", "gid", "group", "loginuid", "task_flags", "numa_node", "environ",
            "rss_anon_kb", "used_kb", "cpu_life_pct", "cpu_norm_pct"} & set(r), r' \
	"$tmp/plain.json" || fail "keys written unasked"

# Another user's environment without privilege: '-' and null; its own is shown.
if [ -n "$ids" ]; then
	nobody=$(id -u nobody)
	nogroup=$(id -g nobody)
	chmod 755 "$tmp"
	setpriv --reuid="$nobody" --regid="$nogroup" --clear-groups env -i IDTEST_C=mine \
		"$tmp/idsleep" 600 &
	n_pid=$!
	kids="$kids $n_pid"
	wait_until sh -c "[ \"\$(stat -c %u /proc/$n_pid)\" = $nobody ] &&
		grep -q '^idsleep' /proc/$n_pid/comm" || fail "the nobody child never ran"
	wait_state "$n_pid" S
	for s in $sources; do
		setpriv --reuid="$nobody" --regid="$nogroup" --clear-groups "$PTOP" -b -n 1 -o json \
			--source="$s" -p "$n_pid,$child" --fields pid,environ,gid,logid \
			>"$tmp/nb-$s.json" 2>"$tmp/nb-$s.err" || {
			# the BPF sources need privilege: as nobody only /proc is read
			[ "$s" = procfs ] && fail "nobody json"
			continue
		}
		setpriv --reuid="$nobody" --regid="$nogroup" --clear-groups "$PTOP" -b -n 1 -o text \
			-w 300 --source="$s" -p "$child" --fields pid,environ >"$tmp/nb-$s.txt" 2>>"$tmp/nb-$s.err" ||
			fail "$s: nobody text"
		"$PYTHON" - "$tmp" "$s" "$n_pid" "$child" <<'PY' || fail "$s: another user's environment"
import json, sys
tmp, src, mine, roots = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
rows = {r["pid"]: r for r in json.loads(open(f"{tmp}/nb-{src}.json").readline())["processes"]}
assert rows[mine]["environ"] == "IDTEST_C=mine", rows[mine]
# root's: refused by the kernel, so unknown; its ids are anyone's to read
assert rows[roots]["environ"] is None and rows[roots]["gid"] is not None, rows[roots]
lines = open(f"{tmp}/nb-{src}.txt").read().splitlines()
head = next(i for i, l in enumerate(lines) if l.split()[:1] == ["PID"])
assert lines[head + 1].split() == [str(roots), "-"], lines[head:]
PY
	done
else
	partial_skip "not root with setpriv and nobody: other ids and a refused environment not checked"
fi

finish
