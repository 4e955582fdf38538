#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_mem_columns.sh: the columns over smaps_rollup (PSS, PSan, PSfd, PSsh,
# USS, PSSWP), maps (htop's LIB), io's system calls, cancelled bytes and rate (ioRop/SYSCR,
# ioWop/SYSCW, CNCLWB, IO_RATE) and statm's dirty count (nDRT) against what
# the kernel's files (and procps top 4, given a toprc showing its fields)
# say of a child that touched anonymous memory and a
# shared memory mapping, read and wrote with system calls and truncated a
# file it had written, then sleeps; through each frame source this machine
# has, in JSON, CSV and text. top's titles, htop's names and ptop's name each
# sort and choose the column (ioR and ioW are RBYTES and WBYTES); the rollup
# columns are in JSON only when asked; and another user's process without
# privilege shows '-' and null (as root: ptop run as nobody with setpriv).
# Nothing is timed: the child is waited for until it says it is ready.
set -eu

NAME=test_mem_columns
. "${srcdir:-.}/tests/lib.sh"
need_python "to run the child and parse ptop's output"
[ -r /proc/self/smaps_rollup ] || skip "no /proc/PID/smaps_rollup (Linux 4.14 on)"

# The child: 8 MiB of anonymous memory and 2 MiB of shared memory touched, 64 KiB written and
# read back, the file truncated while dirty (cancelled bytes where the file system counts them).
cat >"$tmp/memchild.py" <<'PY'
import mmap, os, sys, time
anon = bytearray(8 << 20)
for i in range(0, len(anon), 4096):
    anon[i] = 1
shm = mmap.mmap(-1, 2 << 20, flags=mmap.MAP_SHARED)
for i in range(0, len(shm), 4096):
    shm[i] = 1
path = sys.argv[1] + "/written"
fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o600)
for _ in range(16):
    os.write(fd, b"w" * 4096)
os.pread(fd, 65536, 0)
os.ftruncate(fd, 0)
os.close(fd)
open(sys.argv[1] + "/ready", "w").close()
while True:
    time.sleep(600)
PY
"$PYTHON" "$tmp/memchild.py" "$tmp" &
child=$!
kids="$kids $child"
wait_until test -e "$tmp/ready" || die "the child never got ready"
wait_state "$child" S

frame_sources

fields=pid,rss,pss,PSan,pss_file,M_PSS,PSsh,USS,M_PSSWP,ioRop,SYSCW,cnclwb,IO_RATE,read_rate,write_rate,nDRT,ioR,ioW,M_LRS
for s in $sources; do
	"$PTOP" -b -n 2 -d 0.2 -o json --source="$s" -p "$child" --fields "$fields" \
		>"$tmp/$s.json" || fail "$s: json"
	"$PTOP" -b -n 1 -o csv --source="$s" -p "$child" --fields pid,pss,uss,syscr,ndrt \
		>"$tmp/$s.csv" || fail "$s: csv"
	"$PTOP" -b -n 1 -o text -w 300 --source="$s" -p "$child" --fields pid,PSS,USS,ioRop,ioWop \
		>"$tmp/$s.txt" || fail "$s: text"
	# sorted by each: top's title, htop's name, ptop's name
	for k in PSS PSan PSfd PSsh USS M_PSSWP ioRop SYSCW CNCLWB IO_RATE nDRT ioR ioW LIB M_LRS; do
		"$PTOP" -b -n 1 -o "$k" --source="$s" -p "$child" >/dev/null || fail "$s: -o $k"
	done
	"$PTOP" -b -n 1 --sort=pss_swap --source="$s" -p "$child" >/dev/null || fail "$s: --sort"
	# what the kernel says, after ptop: the child sleeps all along
	"$PYTHON" - "$tmp" "$s" "$child" <<'PY' || fail "$s: not what /proc says"
import csv, json, sys
tmp, src, child = sys.argv[1], sys.argv[2], int(sys.argv[3])
frames = [json.loads(l) for l in open(f"{tmp}/{src}.json")]
r = frames[-1]["processes"][0]
assert r["pid"] == child, r
roll = {}
for line in open(f"/proc/{child}/smaps_rollup").read().splitlines()[1:]:
    k, v = line.split(":")
    roll[k] = int(v.split()[0])
io = {k: int(v) for k, v in (l.split(": ") for l in open(f"/proc/{child}/io"))}
statm = open(f"/proc/{child}/statm").read().split()
# anonymous and shared memory it alone maps: what ptop read is what the file says now
assert r["pss_anon_kb"] == roll["Pss_Anon"] >= 8192, (r, roll)
assert r["pss_shmem_kb"] == roll["Pss_Shmem"] >= 2048, (r, roll)
assert r["swap_pss_kb"] == roll["SwapPss"], (r, roll)
# top's RSS: the rollup's Rss, whole (a sleeping process's pages stay mapped)
assert abs(r["rss_smaps_kb"] - roll["Rss"]) <= 64, (r, roll)
# file pages are shared with whatever maps the same files (this script's python, while it runs),
# so the figures over them move: bounded by what cannot move
def near(a, b):
    return abs(a - b) <= 4  # the kernel rounds each Pss line on its own
def within(v):
    return roll["Pss_Anon"] + roll["Pss_Shmem"] <= v <= roll["Rss"]
assert within(r["pss_kb"]) and 0 <= r["pss_file_kb"] <= roll["Rss"], (r, roll)
assert near(r["pss_kb"], r["pss_anon_kb"] + r["pss_file_kb"] + r["pss_shmem_kb"]), r
# USS: Private_Clean + Private_Dirty, the dirty ones its anonymous and shared memory it wrote
assert roll["Private_Dirty"] <= r["uss_kb"] <= roll["Rss"] and r["uss_kb"] >= 8192 + 2048, (r, roll)
# io: it makes no system call while it sleeps
assert r["io_syscr"] == io["syscr"] and r["io_syscw"] == io["syscw"] >= 16, (r, io)
assert r["io_cancelled_write_bytes"] == io["cancelled_write_bytes"], (r, io)
assert r["io_read_bytes"] == io["read_bytes"] and r["io_write_bytes"] == io["write_bytes"], (r, io)
assert r["io_bytes_per_s"] == r["io_read_bytes_per_s"] + r["io_write_bytes_per_s"], r
assert r["dirty_pages"] == int(statm[6]), (r, statm)
# htop's LIB: the mapped size of each file (device and inode) some mapping of which executes
files = {}
for line in open(f"/proc/{child}/maps"):
    f = line.split()
    if "/" not in line or f[3] == "00:00" or f[4] == "0":
        continue
    lo, hi = (int(x, 16) for x in f[0].split("-"))
    e = files.setdefault((f[3], f[4]), [0, False])
    e[0] += hi - lo
    e[1] |= f[1][2] == "x"
assert r["lib_kb"] == sum(n for n, x in files.values() if x) // 1024 > 0, (r, files)
body = list(csv.DictReader(l for l in open(f"{tmp}/{src}.csv") if not l.startswith("top")))
assert body and int(body[0]["io_syscr"]) == io["syscr"] and within(int(body[0]["pss_kb"])), body
assert int(body[0]["dirty_pages"]) == int(statm[6]), body
lines = open(f"{tmp}/{src}.txt").read().splitlines()
head = next(i for i, l in enumerate(lines) if l.split()[:1] == ["PID"])
assert lines[head].split() == ["PID", "PSS", "USS", "ioRop", "ioWop"], lines[head]
cells = lines[head + 1].split()
assert cells[0] == str(child) and int(cells[3]) == io["syscr"] and int(cells[4]) == io["syscw"], cells
assert within(int(cells[1])) and roll["Private_Dirty"] <= int(cells[2]) <= roll["Rss"], (cells, roll)
PY
done

# top 4's own figures for the same child, where this top is procps 4 (its rcfile format 'k'):
# a toprc showing PID, RSS, PSS, PSan, PSfd, PSsh, USS, ioR, ioRop, ioW, ioWop, nDRT, CODE, DATA
if top -V 2>/dev/null | grep -q 'procps-ng 4\.'; then
	mkdir -p "$tmp/home/.config/procps"
	"$PYTHON" - "$tmp/home/.config/procps/toprc" <<'PY'
import sys
# top 4.0's enum pflag: PID 0, COD 25, DAT 26, DRT 30, RSS 60, PSS 61 ... USS 65, IRB 66 ... IWO
# 69; 78 in all
show = [0, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 30, 25, 26]
order = show + [i for i in range(78) if i not in show]
def fields(on):
    return " ".join(str((i + ord("%")) << 1 | (on and i in show)) for i in order)
flags = 0x4000 | 0x2000 | 0x8000 | 0x1000 | 0x20 | 0x10 | 0x20000 | 0x4
out = ["top's Config File (Linux processes with windows)",
       "Id:k, Mode_altscr=0, Mode_irixps=1, Delay_time=3.0, Curwin=0"]
for name, on in (("Def", True), ("Job", False), ("Mem", False), ("Usr", False)):
    out += [f"{name}\tfieldscur={fields(on)}",
            f"\twinflags={flags}, sortindx=0, maxtasks=0, graph_cpus=0, graph_mems=0, "
            "double_up=0, combine_cpus=0, core_types=0",
            "\tsummclr=1, msgsclr=1, headclr=3, taskclr=1"]
out.append("Fixed_widest=0, Summ_mscale=0, Task_mscale=0, Zero_suppress=0, Tics_scaled=0")
open(sys.argv[1], "w").write("\n".join(out) + "\n")
PY
	HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/home/.config" top -b -n 1 -w 512 -p "$child" \
		>"$tmp/top.txt" || fail "top -b"
	"$PTOP" -b -n 1 -o json -p "$child" \
		--fields pid,RSS,PSS,PSan,PSfd,PSsh,USS,ioR,ioRop,ioW,ioWop,nDRT,CODE,DATA \
		>"$tmp/vs-top.json" || fail "json beside top"
	"$PYTHON" - "$tmp" "$child" <<'PY' || fail "not what top shows"
import json, sys
tmp, child = sys.argv[1], sys.argv[2]
lines = open(f"{tmp}/top.txt").read().splitlines()
head = next(i for i, l in enumerate(lines) if l.split()[:1] == ["PID"])
want = ["PID", "RSS", "PSS", "PSan", "PSfd", "PSsh", "USS", "ioR", "ioRop", "ioW", "ioWop", "nDRT",
        "CODE", "DATA"]
assert lines[head].split() == want, lines[head]
top = dict(zip(want, lines[head + 1].split()))
assert top["PID"] == child, top
r = json.loads(open(f"{tmp}/vs-top.json").readline())["processes"][0]
def n(v):  # top scales what its column cannot hold: k, m, g
    unit = {"k": 1024, "m": 1024 ** 2, "g": 1024 ** 3}.get(v[-1:], 1)
    return float(v[:-1] if unit > 1 else v) * unit, unit
exact = {"PSan": r["pss_anon_kb"], "PSsh": r["pss_shmem_kb"], "ioR": r["io_read_bytes"],
         "ioRop": r["io_syscr"], "ioW": r["io_write_bytes"], "ioWop": r["io_syscw"],
         "nDRT": r["dirty_pages"], "CODE": r["code_kb"], "DATA": r["data_kb"]}
for k, mine in exact.items():
    v, unit = n(top[k])
    assert abs(v - mine) < unit, (k, top[k], mine)
# RSS: the rollup's Rss, which does not move while the child sleeps
v, unit = n(top["RSS"])
assert abs(v - r["rss_smaps_kb"]) <= max(unit, 64), (top["RSS"], r["rss_smaps_kb"])
# over file pages, which this script's python shares: both within what cannot move
for k, mine in (("PSS", r["pss_kb"]), ("USS", r["uss_kb"])):
    v, unit = n(top[k])
    assert r["pss_anon_kb"] <= v <= 2 * mine + unit and mine <= 2 * v + unit, (k, top[k], mine)
PY
else
	partial_skip "no procps 4 top here: not compared with top"
fi

# Asked for only: a JSON frame without --fields reads and writes none of the rollup's.
"$PTOP" -b -n 1 -o json --source=procfs -p "$child" >"$tmp/plain.json" || fail "plain json"
"$PYTHON" -c 'import json,sys
r = json.loads(open(sys.argv[1]).readline())["processes"][0]
assert not {"pss_kb", "pss_anon_kb", "pss_file_kb", "pss_shmem_kb", "uss_kb", "swap_pss_kb",
            "lib_kb"} & set(r), r
assert "io_syscr" in r and "dirty_pages" in r, r' "$tmp/plain.json" || fail "keys written unasked"

# Another user's process without privilege: '-' and null, never a 0.
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1 && id nobody >/dev/null 2>&1; then
	nobody=$(id -u nobody)
	nogroup=$(id -g nobody)
	chmod 755 "$tmp"
	setpriv --reuid="$nobody" --regid="$nogroup" --clear-groups sleep 600 &
	n_pid=$!
	kids="$kids $n_pid"
	wait_until sh -c "[ \"\$(stat -c %u /proc/$n_pid)\" = $nobody ] &&
		grep -q 'Name:.*sleep' /proc/$n_pid/status" || fail "the nobody child never ran"
	wait_state "$n_pid" S
	for s in $sources; do
		setpriv --reuid="$nobody" --regid="$nogroup" --clear-groups "$PTOP" -b -n 1 -o json \
			--source="$s" -p "$n_pid,$child" --fields pid,pss,pss_anon,uss,pss_swap,syscr,cnclwb,lib \
			>"$tmp/nb-$s.json" || fail "$s: nobody json"
		setpriv --reuid="$nobody" --regid="$nogroup" --clear-groups "$PTOP" -b -n 1 -o text \
			-w 300 --source="$s" -p "$child" --fields pid,pss,uss,syscr >"$tmp/nb-$s.txt" ||
			fail "$s: nobody text"
		setpriv --reuid="$nobody" --regid="$nogroup" --clear-groups "$PTOP" -b -n 1 -o csv \
			--source="$s" -p "$child" --fields pid,pss,uss >"$tmp/nb-$s.csv" ||
			fail "$s: nobody csv"
		"$PYTHON" - "$tmp" "$s" "$n_pid" "$child" <<'PY' || fail "$s: another user's as nobody"
import csv, json, sys
tmp, src, mine, roots = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
rows = {r["pid"]: r for r in json.loads(open(f"{tmp}/nb-{src}.json").readline())["processes"]}
assert set(rows) == {mine, roots}, rows
# its own: read
assert rows[mine]["pss_kb"] > 0 and rows[mine]["uss_kb"] > 0, rows[mine]
assert rows[mine]["io_syscr"] is not None and rows[mine]["lib_kb"] > 0, rows[mine]
# root's: refused by the kernel, so unknown
for k in ("pss_kb", "pss_anon_kb", "uss_kb", "swap_pss_kb", "io_syscr", "io_cancelled_write_bytes",
          "lib_kb"):
    assert rows[roots][k] is None, (k, rows[roots])
lines = open(f"{tmp}/nb-{src}.txt").read().splitlines()
head = next(i for i, l in enumerate(lines) if l.split()[:1] == ["PID"])
assert lines[head + 1].split() == [str(roots), "-", "-", "-"], lines[head:]
body = list(csv.DictReader(l for l in open(f"{tmp}/nb-{src}.csv") if not l.startswith("top")))
assert body and body[0]["pss_kb"] == "" and body[0]["uss_kb"] == "", body
PY
	done
else
	partial_skip "not root with setpriv and nobody: another user's values not checked"
fi

finish
