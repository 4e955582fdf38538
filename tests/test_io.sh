#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_io.sh: the I/O and cgroup columns in batch JSON and CSV, for children
# whose figures are known: one that wrote N bytes with fsync and read them
# back shows wchar, write_bytes and rchar of at least N; its cgroup is the
# one /proc/PID/cgroup names; a writer's rate is its bytes over the interval;
# and another user's io, unreadable without privilege, is null in JSON and
# empty in CSV, never 0 (as root: ptop and a child run as nobody with
# setpriv, beside a child of root's); with -H each thread shows its own
# I/O. Waits end on what the kernel counts, DEADLINE seconds at most.
set -eu

NAME=test_io
# on disk: tmpfs counts no storage writes
TMP_IN=${builddir:-.}
. "${srcdir:-.}/tests/lib.sh"
need_python "to parse ptop's output"
[ -r /proc/self/io ] || skip "this kernel has no /proc/PID/io (CONFIG_TASK_IO_ACCOUNTING)"

groups=
at_exit() {
	# a group's shell loop and the dd it runs at the moment: the dd would
	# outlive its shell, still writing into $tmp while it is removed
	for g in $groups; do
		kill -- "-$g" 2>/dev/null || :
	done
}

N=2097152
# The shell reaps dd and cat, so their I/O counts in its own; exec keeps the PID.
sh -c 'dd if=/dev/zero of="$1/data" bs=65536 count=32 conv=fsync 2>/dev/null &&
	cat "$1/data" >/dev/null && : >"$1/ready" && exec sleep 600' sh "$tmp" &
io_pid=$!
kids="$kids $io_pid"
wait_until test -e "$tmp/ready" || die "the writer never finished"
fstype=$(stat -f -c %T "$tmp")

"$PTOP" -b -n 1 -o json -p "$io_pid" >"$tmp/out.json" || fail "json: exit $?"
"$PTOP" -b -n 1 -o csv -p "$io_pid" >"$tmp/out.csv" || fail "csv: exit $?"
"$PYTHON" - "$tmp" "$io_pid" "$N" "$fstype" <<'PY' || fail "JSON/CSV figures of the writer"
import csv, json, sys
tmp, pid, n, fstype = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]

def cgroup_of(pid):
    # the unified line, or on a hybrid system where it is "/" the systemd line
    v2 = sd = None
    for line in open("/proc/%d/cgroup" % pid):
        hid, ctl, path = line.rstrip("\n").split(":", 2)
        if hid == "0" and ctl == "":
            v2 = path
        elif ctl == "name=systemd":
            sd = path
    return sd if (v2 is None or (v2 == "/" and sd is not None)) else v2

with open(tmp + "/out.json") as f:
    rows = [r for r in json.loads(f.readline())["processes"] if r["pid"] == pid]
assert len(rows) == 1, rows
r = rows[0]
assert r["io_wchar"] >= n, r
assert r["io_rchar"] >= n, r
if fstype != "tmpfs":
    assert r["io_write_bytes"] >= n, r
for k in ("io_read_bytes", "io_read_bytes_per_s", "io_write_bytes_per_s"):
    assert isinstance(r[k], int) and r[k] >= 0, (k, r)
want = cgroup_of(pid)
assert r["cgroup"] == want, (r["cgroup"], want)
assert isinstance(r["container"], str), r

with open(tmp + "/out.csv", newline="") as f:
    table = list(csv.reader(f))
head = table[0]
# appended after the columns that were there before: the CSV contract holds
assert head[1:21] == ["pid", "ppid", "state", "user", "uid", "priority", "nice", "threads",
                      "vsize_kb", "rss_kb", "shared_kb", "cpu_pct", "mem_pct", "utime_ticks",
                      "stime_ticks", "start_ticks", "processor", "comm", "tgid",
                      "io_read_bytes_per_s"], head
body = [dict(zip(head, row)) for row in table[1:] if row[1] == str(pid)]
assert len(body) == 1, table
c = body[0]
assert int(c["io_wchar"]) >= n and int(c["io_rchar"]) >= n, c
if fstype != "tmpfs":
    assert int(c["io_write_bytes"]) >= n, c
assert c["cgroup"] == want, (c, want)
PY

# Threads (-H) show their own I/O (task/TID/io), not the process's: a
# process whose second thread wrote N bytes, the main thread nothing. From
# /proc and, where it loads, from BPF.
"$PYTHON" -c '
import os, sys, threading, time
tmp, n = sys.argv[1], int(sys.argv[2])
def writer():
    with open(tmp + "/tdata", "wb") as f:
        f.write(b"x" * n)
    with open(tmp + "/tready.new", "w") as f:
        f.write("%d\n" % threading.get_native_id())
    os.rename(tmp + "/tready.new", tmp + "/tready")
    time.sleep(600)
threading.Thread(target=writer, daemon=True).start()
time.sleep(600)
' "$tmp" "$N" &
t_pid=$!
kids="$kids $t_pid"
wait_until test -e "$tmp/tready" || die "the writing thread never finished"
t_tid=$(cat "$tmp/tready")
for src in procfs bpf; do
	"$PTOP" -b -n 1 -H --source "$src" -o json -p "$t_pid" >"$tmp/thr.json" 2>"$tmp/thr.err" ||
		fail "-H --source $src: exit $?: $(cat "$tmp/thr.err")"
	"$PYTHON" - "$tmp/thr.json" "$t_pid" "$t_tid" "$N" "$src" <<'PY' || fail "-H --source $src: threads' own I/O"
import json, sys
path, pid, tid, n, src = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
fr = json.loads(open(path).readline())
if src == "bpf" and fr["cost"]["source"] != "bpf":
    print("note: no BPF here: threads' I/O checked from /proc only")
    sys.exit(0)
rows = {r["pid"]: r for r in fr["processes"]}
assert rows.keys() >= {pid, tid}, rows.keys()
assert rows[tid]["tgid"] == pid, rows[tid]
# the writer: its N bytes; the main thread: none of them
assert rows[tid]["io_wchar"] >= n, rows[tid]
assert rows[pid]["io_wchar"] < n, rows[pid]
PY
done

# A writer that keeps writing: each frame's rate is its bytes over its interval.
# In a process group of its own (setsid keeps the PID), so that cleanup ends
# the loop and its dd together.
setsid sh -c 'while :; do dd if=/dev/zero of="$1/w" bs=65536 count=8 conv=fsync 2>/dev/null; done' \
	sh "$tmp" &
w_pid=$!
kids="$kids $w_pid"
groups="$groups $w_pid"
"$PYTHON" - "$PTOP" "$w_pid" "$DEADLINE" <<'PY' || fail "rates over the interval"
import json, subprocess, sys, time
ptop, pid, deadline = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
p = subprocess.Popen([ptop, "-b", "-d", "0.5", "-o", "json", "-p", str(pid)],
                     stdout=subprocess.PIPE, text=True)
end = time.monotonic() + deadline
prev = None
try:
    for line in p.stdout:
        fr = json.loads(line)
        r = [x for x in fr["processes"] if x["pid"] == pid][0]
        if prev is not None and r["io_wchar"] > prev["io_wchar"]:
            iv = fr["interval_s"]
            d = r["io_write_bytes"] - prev["io_write_bytes"]
            want = d / iv
            got = r["io_write_bytes_per_s"]
            # the process is read at its own moment in each frame: a few percent apart
            assert abs(got - want) <= 0.15 * want + 1, (got, want, d, iv)
            if d > 0 or time.monotonic() > end:
                break
        prev = r
        if time.monotonic() > end:
            sys.exit("the writer's wchar never grew between two frames")
finally:
    p.kill()
    p.wait()
PY

# Another user's io without privilege: null and empty, not 0.
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1 && id nobody >/dev/null 2>&1; then
	nobody=$(id -u nobody)
	setpriv --reuid="$nobody" --regid="$(id -g nobody)" --clear-groups sleep 600 &
	n_pid=$!
	sleep 600 &
	r_pid=$!
	kids="$kids $n_pid $r_pid"
	chmod 755 "$tmp"
	wait_until sh -c "[ \"\$(stat -c %u /proc/$n_pid)\" = $nobody ] &&
		grep -q 'Name:.*sleep' /proc/$n_pid/status" || fail "the nobody child never ran"
	setpriv --reuid="$nobody" --regid="$(id -g nobody)" --clear-groups \
		"$PTOP" -b -n 1 -o json -p "$n_pid,$r_pid" >"$tmp/nb.json" || fail "nobody json"
	setpriv --reuid="$nobody" --regid="$(id -g nobody)" --clear-groups \
		"$PTOP" -b -n 1 -o csv -p "$n_pid,$r_pid" >"$tmp/nb.csv" || fail "nobody csv"
	"$PYTHON" - "$tmp" "$n_pid" "$r_pid" <<'PY' || fail "unreadable io as nobody"
import csv, json, sys
tmp, mine, roots = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
keys = ["io_read_bytes_per_s", "io_write_bytes_per_s", "io_read_bytes", "io_write_bytes",
        "io_rchar", "io_wchar"]
rows = {r["pid"]: r for r in json.loads(open(tmp + "/nb.json").readline())["processes"]}
assert set(rows) == {mine, roots}, rows
# its own process: figures (sleep read its libraries)
assert all(isinstance(rows[mine][k], int) for k in keys), rows[mine]
assert rows[mine]["io_rchar"] > 0, rows[mine]
# root's: unknown, null rather than 0, and the row is still there
assert all(rows[roots][k] is None for k in keys), rows[roots]
assert rows[roots]["cgroup"] is not None, rows[roots]
table = list(csv.reader(open(tmp + "/nb.csv", newline="")))
body = {int(r[1]): dict(zip(table[0], r)) for r in table[1:]}
assert all(body[roots][k] == "" for k in keys), body[roots]
assert all(body[mine][k].isdigit() for k in keys), body[mine]
PY
else
	echo "note: not root (or no setpriv, no nobody): unreadable io checked on PID 1 only"
	if [ "$(id -u)" != 0 ] && [ ! -r /proc/1/io ]; then
		"$PTOP" -b -n 1 -o json -p 1 >"$tmp/one.json" || fail "json -p 1"
		"$PYTHON" -c 'import json,sys; r=json.load(open(sys.argv[1]))["processes"][0]; assert r["io_rchar"] is None, r' \
			"$tmp/one.json" || fail "PID 1's io shown though unreadable"
	fi
fi

finish
