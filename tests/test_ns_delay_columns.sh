#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_ns_delay_columns.sh: top's namespace columns (nsCGROUP ... nsTIME),
# its per-interval faults (vMj, vMn) and cgroup lines (CGROUPS, CGNAME, LXC),
# and htop's CTXT, CPUD%, IOD%, SWPD% and CCGROUP, through each frame source
# this machine has, against what the kernel's files say of live children and
# against what ps (procps, whose library top shares) prints for the same
# fields: the namespaces' inodes as the links give them, '-' and null for
# root's processes when ptop runs as nobody; each delta the difference of
# two frames' counts; CPUD% a share while schedstat has a run delay; IOD%
# and SWPD% null while kernel.task_delayacct is 0 (SWPD%, from taskstats, is
# test_taskstats.sh's). Nothing is timed: the busy child is waited for until the kernel
# counts its faults and switches.
set -eu

NAME=test_ns_delay_columns
. "${srcdir:-.}/tests/lib.sh"
need_python "to parse ptop's output"

spawn_sleeper nsdsleep
sleeper=$spawned
# faults and switches of its own: a page mapped, touched and dropped, then a short sleep, forever
"$PYTHON" -c 'import mmap, time
while True:
    m = mmap.mmap(-1, 1 << 16)
    m[::4096] = b"x" * 16
    m.close()
    time.sleep(0.005)' &
busy=$!
kids="$kids $busy"
wait_state "$sleeper" S
flt() { sed 's/.*) //' "/proc/$busy/stat" | cut -d' ' -f8; }
f0=$(flt)
wait_until sh -c "[ \$(sed 's/.*) //' /proc/$busy/stat | cut -d' ' -f8) -gt $((f0 + 100)) ]" ||
	fail "the busy child never faulted"

frame_sources

nsfields=pid,nscgroup,nsIPC,nsmnt,nsNET,nspid,nsuser,nsuts,nsTIME
cgfields=cgroups,CGNAME,lxc,CCGROUP,cgroup
dfields=minflt,majflt,nvcsw,nivcsw,vMn,vmj,CTXT,cpud,PERCENT_IO_DELAY,swapd
ps -o pid=,cgroup:4000=,cgname:4000=,lxc:200= -p "$sleeper" >"$tmp/ps-cg.txt" 2>/dev/null ||
	: >"$tmp/ps-cg.txt"
ps -o pid=,ipcns=,mntns=,netns=,pidns=,userns=,utsns= -p "$sleeper" >"$tmp/ps-ns.txt" 2>/dev/null ||
	: >"$tmp/ps-ns.txt"
[ -s "$tmp/ps-ns.txt" ] || partial_skip "no ps with ipcns and cgname: not compared with procps"
delayacct=$(cat /proc/sys/kernel/task_delayacct 2>/dev/null || echo absent)

for s in $sources; do
	"$PTOP" -b -n 3 -d 0.3 -o json --source="$s" -p "$sleeper,$busy" \
		--fields "$nsfields,$cgfields,$dfields" >"$tmp/$s.json" || fail "$s: json"
	"$PTOP" -b -n 1 -o csv --source="$s" -p "$sleeper" --fields "$nsfields,lxc,swapd" \
		>"$tmp/$s.csv" || fail "$s: csv"
	"$PTOP" -b -n 1 -o text -w 300 --source="$s" -p "$sleeper" --fields pid,nsipc,vmn,ctxt,swapd,lxc \
		>"$tmp/$s.txt" || fail "$s: text"
	# sorted by either name, top's title or htop's
	"$PTOP" -b -n 1 -o nsNET --source="$s" -p "$sleeper" >/dev/null || fail "$s: -o nsNET"
	"$PTOP" -b -n 1 --sort-key=PERCENT_CPU_DELAY --source="$s" -p "$sleeper" >/dev/null ||
		fail "$s: --sort-key=PERCENT_CPU_DELAY"
	"$PYTHON" - "$tmp" "$s" "$sleeper" "$busy" "$delayacct" <<'PY' || fail "$s: not what the kernel says"
import csv, json, os, sys
tmp, src, sleeper, busy, delayacct = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
frames = [json.loads(l) for l in open(f"{tmp}/{src}.json")]
assert len(frames) == 3, frames
rows = [{r["pid"]: r for r in f["processes"]} for f in frames]
names = ["cgroup", "ipc", "mnt", "net", "pid", "user", "uts", "time"]

def inode(pid, n):
    try:
        return os.stat(f"/proc/{pid}/ns/{n}").st_ino
    except FileNotFoundError:
        return None  # a kernel without that namespace type

for pid in (sleeper, busy):
    r = rows[-1][pid]
    for n in names:
        assert r["ns_" + n] == inode(pid, n), (n, r)

# top's cgroup lines, as procps joins them
lines = open(f"/proc/{sleeper}/cgroup").read().splitlines()
joined = ",".join(l for l in lines if not l.endswith("/"))
r = rows[-1][sleeper]
assert r["cgroups"] == joined, (r, joined)
at = joined.find(":name=")
assert r["cgname"] == (joined[at + 6:] if at >= 0 and joined[at + 6:] else joined), r
assert (r["lxc"] == "") == ("lxc" not in open(f"/proc/{sleeper}/cgroup").read()), r
assert (r["ccgroup"] is None) == (r["cgroup"] is None), r
if r["cgroup"] == "/":
    assert r["ccgroup"] == "/", r
ps = open(f"{tmp}/ps-cg.txt").read().split()
if ps:
    assert r["cgroups"] == (ps[1] if ps[1] != "-" else ""), (r, ps)
    assert r["lxc"] == ("" if ps[-1] == "-" else ps[-1]), (r, ps)
ps = open(f"{tmp}/ps-ns.txt").read().split()
if ps:
    assert [str(r["ns_" + n]) for n in ("ipc", "mnt", "net", "pid", "user", "uts")] == ps[1:], (r, ps)

# the deltas: each the difference of two printed frames' counts
for a, b in zip(rows, rows[1:]):
    for pid in (sleeper, busy):
        x, y = a[pid], b[pid]
        assert y["minflt_delta"] == y["minflt"] - x["minflt"], (x, y)
        assert y["majflt_delta"] == y["majflt"] - x["majflt"], (x, y)
        want = y["ctxsw_voluntary"] + y["ctxsw_involuntary"]
        want -= x["ctxsw_voluntary"] + x["ctxsw_involuntary"]
        assert y["ctxsw_delta"] == want, (x, y)
        assert y["cpu_delay_pct"] is not None and 0 <= y["cpu_delay_pct"] <= 100.5, y
        if delayacct == "0":
            assert y["io_delay_pct"] is None, y
        else:
            assert y["io_delay_pct"] is not None and y["io_delay_pct"] >= 0, y
        if delayacct == "0":
            assert y["swap_delay_pct"] is None, y
busy_rows = [f[busy] for f in rows[1:]]
assert sum(r["minflt_delta"] for r in busy_rows) > 0, busy_rows
assert sum(r["ctxsw_delta"] for r in busy_rows) > 0, busy_rows
for f in rows:
    assert f[sleeper]["minflt_delta"] == 0 and f[sleeper]["ctxsw_delta"] == 0, f[sleeper]

body = list(csv.DictReader(l for l in open(f"{tmp}/{src}.csv") if not l.startswith("top")))
assert body and body[0]["ns_net"] == str(inode(sleeper, "net")), body
assert delayacct != "0" or body[0]["swap_delay_pct"] == "", body
text = open(f"{tmp}/{src}.txt").read().splitlines()
head = next(i for i, l in enumerate(text) if l.split()[:1] == ["PID"])
assert text[head].split() == ["PID", "nsIPC", "vMn", "CTXT", "SWPD%", "LXC"], text[head]
cells = text[head + 1].split()
swpd = ["-"] if delayacct == "0" else [cells[4]]
assert cells == [str(sleeper), str(inode(sleeper, "ipc")), "0", "0"] + swpd + [r["lxc"] or "-"], cells
PY
done

# Asked for only: a JSON frame without --fields writes none of them.
"$PTOP" -b -n 1 -o json --source=procfs -p "$sleeper" >"$tmp/plain.json" || fail "plain json"
"$PYTHON" -c 'import json,sys
r = json.loads(open(sys.argv[1]).readline())["processes"][0]
assert not {"ns_net", "minflt_delta", "ctxsw_delta", "cpu_delay_pct", "cgroups", "lxc",
            "ccgroup"} & set(r), r' "$tmp/plain.json" || fail "keys written unasked"

# Another user's process without privilege: the ns links are refused, so '-' and null.
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1 && id nobody >/dev/null 2>&1; then
	nobody=$(id -u nobody)
	nogroup=$(id -g nobody)
	setpriv --reuid="$nobody" --regid="$nogroup" --clear-groups "$tmp/nsdsleep" 600 &
	n_pid=$!
	kids="$kids $n_pid"
	wait_until sh -c "[ \"\$(stat -c %u /proc/$n_pid)\" = $nobody ] &&
		grep -q 'Name:.*nsdsleep' /proc/$n_pid/status" || fail "the nobody child never ran"
	for s in $sources; do
		setpriv --reuid="$nobody" --regid="$nogroup" --clear-groups "$PTOP" -b -n 2 -d 0.2 \
			-o json --source="$s" -p "$n_pid,$sleeper" --fields "$nsfields,cpud,ctxt" \
			>"$tmp/nb-$s.json" 2>"$tmp/nb-$s.err" || {
			# an unprivileged user may not load BPF: that source is not this test's
			[ "$s" = procfs ] && fail "nobody json"
			continue
		}
		setpriv --reuid="$nobody" --regid="$nogroup" --clear-groups "$PTOP" -b -n 1 -o text \
			-w 200 --source="$s" -p "$sleeper" --fields pid,nsnet,nspid >"$tmp/nb-$s.txt" ||
			fail "$s: nobody text"
		"$PYTHON" - "$tmp" "$s" "$n_pid" "$sleeper" <<'PY' || fail "$s: another user's namespaces as nobody"
import json, os, sys
tmp, src, mine, roots = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
rows = {r["pid"]: r for r in json.loads(open(f"{tmp}/nb-{src}.json").read().splitlines()[-1])["processes"]}
assert rows[mine]["ns_net"] == os.stat(f"/proc/{mine}/ns/net").st_ino, rows[mine]
for k in ("ns_cgroup", "ns_ipc", "ns_mnt", "ns_net", "ns_pid", "ns_user", "ns_uts", "ns_time"):
    assert rows[roots][k] is None, rows[roots]
# schedstat and status need no privilege
assert rows[roots]["cpu_delay_pct"] is not None and rows[roots]["ctxsw_delta"] is not None, rows[roots]
lines = open(f"{tmp}/nb-{src}.txt").read().splitlines()
head = next(i for i, l in enumerate(lines) if l.split()[:1] == ["PID"])
assert lines[head + 1].split() == [str(roots), "-", "-"], lines[head:]
PY
	done
else
	partial_skip "not root with setpriv and nobody: another user's namespaces not checked"
fi

finish
