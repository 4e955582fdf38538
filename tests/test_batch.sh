#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_batch.sh: batch mode (ptop -b) driven as a user drives it: the JSON,
# CSV and text formats parsed back, a process with a hostile name found by
# its exact name, -p/-u/-s, a closed pipe, SIGTERM between frames, and every
# kind of bad option (status 2, a message naming ptop). Run by `make check`
# with PTOP set to the binary; needs python3 to parse output (skips without).
# Nothing here is timed: waits end on what they wait for, DEADLINE seconds
# at most (default 30), so that a loaded machine makes the test slower, not
# failed.
set -eu

NAME=test_batch
. "${srcdir:-.}/tests/lib.sh"
need_python "to parse ptop's output"

py() {
	script=$1
	shift
	"$PYTHON" -c "$script" "$@"
}


# A process with spaces and a ')' in its name: the kernel's comm is the
# executable's name, so copy sleep under that name.
hostile="pt op)x"
cp "$(command -v sleep)" "$tmp/$hostile"
"$tmp/$hostile" 600 &
bg_pid=$!
kids=$bg_pid
# Wait until the exec is done and the name is the new one.
renamed() { [ "$(cat "/proc/$bg_pid/comm" 2>/dev/null)" = "$hostile" ]; }
wait_until renamed || fail "the test process never took its name"

# --- JSON Lines ---------------------------------------------------------------
if ! "$PTOP" -b -n 2 -d 0.2 -o json >"$tmp/out.json" 2>"$tmp/err"; then
	fail "-o json exited non-zero: $(cat "$tmp/err")"
fi
[ -s "$tmp/err" ] && fail "-o json wrote to stderr: $(cat "$tmp/err")"
py '
import json, sys
lines = open(sys.argv[1], "rb").read().decode("utf-8", "surrogateescape").split("\n")
assert lines[-1] == "", "output does not end with a newline"
lines = lines[:-1]
assert len(lines) == 2, "%d frames, expected 2" % len(lines)
keys = {"time", "uptime_s", "load", "tasks", "cpu", "mem", "swap", "processes"}
pkeys = {"pid", "ppid", "state", "comm", "user", "uid", "nice", "priority", "threads",
	 "vsize_kb", "rss_kb", "shared_kb", "cpu_pct", "mem_pct", "utime_ticks",
	 "stime_ticks", "start_ticks"}
want = sys.argv[3].encode("utf-8", "surrogateescape")
for n, line in enumerate(lines):
	f = json.loads(line)
	missing = keys - f.keys()
	assert not missing, "frame %d lacks %s" % (n, missing)
	assert len(f["load"]) == 3
	assert f["time"].endswith("Z") and len(f["time"]) == 24, f["time"]
	t = f["tasks"]
	assert t["total"] == t["running"] + t["sleeping"] + t["stopped"] + t["zombie"], t
	assert t["total"] == len(f["processes"]), "tasks.total %d, %d processes" % (
		t["total"], len(f["processes"]))
	assert f["mem"]["total_kb"] > 0
	pids = [p["pid"] for p in f["processes"]]
	assert len(pids) == len(set(pids)), "a PID twice"
	for p in f["processes"]:
		missing = pkeys - p.keys()
		assert not missing, "process %d lacks %s" % (p["pid"], missing)
		assert p["pid"] > 0 and len(p["state"]) == 1
	mine = [p for p in f["processes"] if p["pid"] == int(sys.argv[2])]
	assert mine, "frame %d: the test process %s is missing" % (n, sys.argv[2])
	got = mine[0]["comm"].encode("utf-8", "surrogateescape")
	assert got == want, "comm %r, expected %r" % (got, want)
	assert mine[0]["state"] == "S", mine[0]
' "$tmp/out.json" "$bg_pid" "$hostile" || fail "-o json: output did not check out"

# --- -p, -u, -s -----------------------------------------------------------------
"$PTOP" -b -n 1 -o json -p "$bg_pid" >"$tmp/p.json" || fail "-p exited non-zero"
py '
import json, sys
f = json.loads(open(sys.argv[1]).read())
pids = [p["pid"] for p in f["processes"]]
assert pids == [int(sys.argv[2])], "-p %s gave %s" % (sys.argv[2], pids)
' "$tmp/p.json" "$bg_pid" || fail "-p PID did not filter"

"$PTOP" -b -n 1 -o json -p "$bg_pid,$$" -p 1 -s pid >"$tmp/p2.json" || fail "-p list exited non-zero"
py '
import json, sys
f = json.loads(open(sys.argv[1]).read())
pids = [p["pid"] for p in f["processes"]]
want = sorted({int(x) for x in sys.argv[2:]})
assert pids == want, "-p gave %s, expected %s" % (pids, want)
' "$tmp/p2.json" "$bg_pid" "$$" 1 || fail "-p PID,PID -p PID did not filter"

uid=$(id -u)
user=$(id -un)
for who in "$user" "$uid"; do
	"$PTOP" -b -n 1 -o json -u "$who" >"$tmp/u.json" || fail "-u $who exited non-zero"
	py '
import json, sys
f = json.loads(open(sys.argv[1]).read())
procs = f["processes"]
assert procs, "no processes for the test user"
bad = [p for p in procs if p["uid"] != int(sys.argv[2]) or p["user"] != sys.argv[3]]
assert not bad, "other users: %s" % bad[:3]
assert int(sys.argv[4]) in [p["pid"] for p in procs], "the test process is missing"
' "$tmp/u.json" "$uid" "$user" "$bg_pid" || fail "-u $who did not filter"
done

# A uid that owns nothing: the frame is empty but well-formed.
"$PTOP" -b -n 1 -o json -u 4000000000 >"$tmp/u0.json" || fail "-u unused uid exited non-zero"
py '
import json, sys
f = json.loads(open(sys.argv[1]).read())
assert f["processes"] == [], f["processes"][:3]
' "$tmp/u0.json" || fail "-u with an unused uid listed processes"

# sort key, direction: checked as a sequence of values
for spec in "pid:pid:up" "-pid:pid:down" "+pid:pid:up" "cpu:cpu_pct:down" "+cpu:cpu_pct:up" \
	"res:rss_kb:down" "command:comm:up" "ppid:ppid:up"; do
	arg=${spec%%:*}
	rest=${spec#*:}
	"$PTOP" -b -n 1 -o json --sort="$arg" >"$tmp/s.json" || fail "--sort=$arg exited non-zero"
	py '
import json, sys
f = json.loads(open(sys.argv[1], "rb").read().decode("utf-8", "surrogateescape"))
key, way = sys.argv[2], sys.argv[3]
vals = [p[key] for p in f["processes"]]
if key == "comm":
	vals = [v.encode("utf-8", "surrogateescape") for v in vals]
assert len(vals) > 2
ok = sorted(vals, reverse=(way == "down"))
assert vals == ok, "-s %s: not %s: %s" % (sys.argv[4], way, vals[:10])
if key not in ("pid", "cpu_pct"):
	# equal values keep PID order (%CPU is printed rounded: ties cannot be seen)
	procs = f["processes"]
	for a, b in zip(procs, procs[1:]):
		if a[key] == b[key]:
			assert a["pid"] < b["pid"], "-s %s: tie %d before %d" % (sys.argv[4], a["pid"], b["pid"])
' "$tmp/s.json" "${rest%%:*}" "${rest#*:}" "$arg" || fail "-s $arg did not sort"
done

# --- CSV ------------------------------------------------------------------------
"$PTOP" -b -n 2 -d 0.1 -o csv >"$tmp/out.csv" || fail "-o csv exited non-zero"
py '
import csv, sys
text = open(sys.argv[1], "rb").read().decode("utf-8", "surrogateescape")
rows = list(csv.reader(text.splitlines(keepends=True)))
header = rows[0]
assert header[0] == "time" and "pid" in header and "comm" in header, header
assert sum(1 for r in rows if r == header) == 1, "more than one header row"
body = [dict(zip(header, r)) for r in rows[1:]]
assert all(len(r) == len(header) for r in rows), "ragged rows"
times = sorted({r["time"] for r in body})
assert len(times) == 2, "%d distinct frame times, expected 2" % len(times)
for t in times:
	pids = [r["pid"] for r in body if r["time"] == t]
	assert len(pids) == len(set(pids)), "a PID twice in one frame"
	int(pids[0])
mine = [r for r in body if r["pid"] == sys.argv[2]]
assert len(mine) == 2, "the test process in %d frames" % len(mine)
got = mine[0]["comm"].encode("utf-8", "surrogateescape")
assert got == sys.argv[3].encode(), "comm %r" % got
' "$tmp/out.csv" "$bg_pid" "$hostile" || fail "-o csv: output did not check out"

# CSV injection: a process named as a spreadsheet formula, its command line
# one too. Text cells that start like a formula carry a quote before it, so
# a spreadsheet shows them as text; numbers stay numbers (a negative nice).
cp "$(command -v sleep)" "$tmp/=HYPERLINK"
"$PYTHON" -c 'import os, sys; os.execv(sys.argv[1], ["=cmd", "600"])' "$tmp/=HYPERLINK" &
f_pid=$!
kids="$kids $f_pid"
formula() { [ "$(cat "/proc/$f_pid/comm" 2>/dev/null)" = "=HYPERLINK" ]; }
wait_until formula || fail "the formula-named process never took its name"
want_nice=0
if renice -n -5 -p "$f_pid" >/dev/null 2>&1; then
	want_nice=-5
else
	partial_skip "cannot set a negative nice here: -o csv's numbers checked at nice 0"
fi
"$PTOP" -b -n 1 -c -o csv -p "$f_pid" >"$tmp/formula.csv" ||
	fail "-c -o csv -p exited non-zero"
py '
import csv, sys
text = open(sys.argv[1], "rb").read().decode("utf-8", "surrogateescape")
rows = list(csv.reader(text.splitlines(keepends=True)))
body = [dict(zip(rows[0], r)) for r in rows[1:]]
mine = [r for r in body if r["pid"] == sys.argv[2]]
assert len(mine) == 1, "the formula-named process in %d rows" % len(mine)
r = mine[0]
assert r["comm"] == "\x27=HYPERLINK", "comm cell %r" % r["comm"]
assert r["cmdline"] == "\x27=cmd 600", "cmdline cell %r" % r["cmdline"]
assert r["nice"] == sys.argv[3], "nice cell %r, not %s" % (r["nice"], sys.argv[3])
for k, v in r.items():
	assert v[:1] not in ("=", "+", "-", "@", "\t", "\r") or k in ("nice", "priority", "tpgid"), \
		"%s cell %r reads as a formula" % (k, v)
assert "\"\x27=HYPERLINK\"" in text, "the comm cell is not quoted"
' "$tmp/formula.csv" "$f_pid" "$want_nice" || fail "-o csv: a formula-named process not neutralised"

# --- text, as top -b ---------------------------------------------------------------
"$PTOP" -b -n 2 -d 0.1 >"$tmp/out.txt" || fail "-o text exited non-zero"
py '
import re, sys
lines = open(sys.argv[1], "rb").read().decode("utf-8", "replace").split("\n")
assert lines[-1] == ""
starts = [i for i, l in enumerate(lines) if l.startswith("top - ")]
assert len(starts) == 2, "%d frames" % len(starts)
assert starts[1] > 0 and lines[starts[1] - 1] == "", "no blank line between frames"
for s in starts:
	assert re.match(r"top - \d\d:\d\d:\d\d up .*load average: [\d.]+, [\d.]+, [\d.]+$", lines[s]), lines[s]
	assert lines[s + 1].startswith("Tasks:"), lines[s + 1]
	assert lines[s + 2].startswith("%Cpu(s):"), lines[s + 2]
	assert lines[s + 3].startswith("MiB Mem :"), lines[s + 3]
	assert lines[s + 4].startswith("MiB Swap:"), lines[s + 4]
	assert lines[s + 5] == "", "no blank line after the summary"
	head = lines[s + 6]
	assert head.split()[0] == "PID" and head.rstrip().endswith("COMMAND"), head
	pid_end = head.index("PID") + 3
	row = lines[s + 7]
	assert row[:pid_end].strip().isdigit() and row[pid_end] == " ", "PID column: %r" % row
	total = int(lines[s + 1].split()[1])
	end = starts[1] - 1 if s == starts[0] else len(lines) - 1
	assert end - (s + 7) == total, "%d rows, Tasks says %d" % (end - s - 7, total)
' "$tmp/out.txt" || fail "text output does not look like top -b"
grep -q "^ *$bg_pid .* pt op)x\$" "$tmp/out.txt" || fail "text: the test process not shown by name"

# --- -H (a row per thread) and -c (command lines), as top's -H and -c ------------------
# A process with two threads besides its main one, and arguments to show.
cat >"$tmp/threaded.py" <<'EOF'
import threading, time
for _ in range(2):
    threading.Thread(target=time.sleep, args=(600,), daemon=True).start()
time.sleep(600)
EOF
"$PYTHON" "$tmp/threaded.py" ptop-threaded "an arg" &
thr_pid=$!
kids="$kids $thr_pid"
three_tasks() {
	set -- "/proc/$thr_pid/task/"[0-9]*
	[ "$#" -ge 3 ] && [ -e "$1" ]
}
wait_until three_tasks || fail "the threaded process did not start its threads"
"$PTOP" -b -n 1 -H -c -o json >"$tmp/thr.json" || fail "-H -c -o json exited non-zero"
"$PTOP" -b -n 1 -H -c -o csv -p "$thr_pid" >"$tmp/thr.csv" || fail "-H -c -o csv exited non-zero"
"$PTOP" -b -n 1 -H -c -w 512 >"$tmp/thr.txt" || fail "-H -c exited non-zero"
py '
import csv, json, sys
pid = int(sys.argv[4])
f = json.loads(open(sys.argv[1]).readline())
rows = f["processes"]
mine = [r for r in rows if r["tgid"] == pid]
assert len(mine) == 3, "%d rows of the threaded process, expected 3: %r" % (len(mine), mine)
assert pid in [r["pid"] for r in mine], "the main thread is not among them"  # TIDs may wrap below it
assert len({r["pid"] for r in mine}) == 3, "a thread twice"
for r in mine:
    assert r["cmdline"].endswith("ptop-threaded an arg"), r
assert f["tasks"]["total"] == len(rows), (f["tasks"], len(rows))
assert f["rows"] == "threads", f["rows"]
assert all("cmdline" in r for r in rows), "a row without its command line"
kthreads = [r for r in rows if r["ppid"] == 2]
assert all(r["cmdline"] == "[%s]" % r["comm"] for r in kthreads), "kernel threads as [name]"
text = open(sys.argv[2], "rb").read().decode("utf-8", "replace").split("\n")
assert text[1].startswith("Threads:"), text[1]
# the rows of this process only: another run of this test may have its twin
tids = {r["pid"] for r in mine}
ours = [l for l in text if l.split()[:1] and l.split()[0].isdigit() and int(l.split()[0]) in tids]
assert len(ours) == 3, "text: %d thread rows, expected 3" % len(ours)
assert all(l.endswith("ptop-threaded an arg") for l in ours), ours
rows = list(csv.reader(open(sys.argv[3], newline="")))
# the command line last; the columns added since exit after it, in table order
h = rows[0]
assert h[-1] == "cmdline" and h[h.index("container"):h.index("exit") + 1] == [
    "container", "child_cpu_pct", "exit"], h
assert h[h.index("exit") + 1:h.index("exit") + 3] == ["minflt", "majflt"], h
body = [dict(zip(rows[0], r)) for r in rows[1:]]
assert len(body) == 3 and all(int(r["tgid"]) == pid for r in body), body
assert all(r["cmdline"].endswith("ptop-threaded an arg") for r in body), body
' "$tmp/thr.json" "$tmp/thr.txt" "$tmp/thr.csv" "$thr_pid" || fail "-H -c: output did not check out"
stop "$thr_pid"
# Without -H a process is one row, its tgid its pid; without -c no cmdline.
"$PTOP" -b -n 1 -o json -p "$bg_pid" >"$tmp/one.json" || fail "-p -o json exited non-zero"
py '
import json, sys
f = json.loads(open(sys.argv[1]).readline())
r = f["processes"]
assert f["rows"] == "processes", f["rows"]
assert len(r) == 1 and r[0]["tgid"] == r[0]["pid"] and "cmdline" not in r[0], r
' "$tmp/one.json" || fail "without -H -c: one row, no cmdline"

# --- a closed pipe ends ptop quietly -----------------------------------------------------
("$PTOP" -b -d 0 2>"$tmp/pipe.err"; echo $? >"$tmp/pipe.status") | head -n 3 >"$tmp/pipe.out"
[ "$(wc -l <"$tmp/pipe.out")" -eq 3 ] || fail "head -n 3 did not get 3 lines"
[ "$(cat "$tmp/pipe.status")" = 0 ] || fail "ptop | head: status $(cat "$tmp/pipe.status")"
[ -s "$tmp/pipe.err" ] && fail "ptop | head wrote to stderr: $(cat "$tmp/pipe.err")"

# --- SIGTERM between frames: prompt exit by SIGTERM (143), whole frames only --------------
# The next frame is an hour away: ptop ending within DEADLINE seconds of
# SIGTERM is prompt, and one frame is all it can have written, on any machine.
# The shell reports its child killed ("Terminated") on its own stderr: only
# ptop's goes to term.err.
(
	status=0
	sh -c 'echo $$ >"$1"; exec "$2" -b -d 3600 -o json 2>"$3"' sh "$tmp/term.pid" "$PTOP" \
		"$tmp/term.err" >"$tmp/term.json" || status=$?
	echo "$status" >"$tmp/term.status"
) 2>/dev/null &
term_sub=$!
first_frame() { [ -s "$tmp/term.json" ]; }
wait_until first_frame || fail "-d 3600: no first frame within $DEADLINE s"
kill -TERM "$(cat "$tmp/term.pid")" || fail "SIGTERM: ptop was already gone"
ended() { [ -s "$tmp/term.status" ]; }
if wait_until ended; then
	status=$(cat "$tmp/term.status")
	[ "$status" -eq 143 ] || fail "SIGTERM: status $status, expected 143"
else
	fail "SIGTERM: ptop still runs $DEADLINE s later"
	kill -KILL "$(cat "$tmp/term.pid")" 2>/dev/null || :
fi
wait "$term_sub" 2>/dev/null || :
if [ -s "$tmp/term.err" ]; then fail "SIGTERM: wrote to stderr: $(cat "$tmp/term.err")"; fi
py '
import json, sys
data = open(sys.argv[1], "rb").read().decode("utf-8", "surrogateescape")
assert data.endswith("\n"), "a frame cut short"
lines = data.split("\n")[:-1]
assert len(lines) == 1, "%d frames, expected 1" % len(lines)
for l in lines:
	json.loads(l)
' "$tmp/term.json" || fail "SIGTERM: output is not whole frames"

# --- bad options: status 2, a message naming ptop --------------------------------------------
bad() {
	status=0
	"$PTOP" "$@" >"$tmp/bad.out" 2>"$tmp/bad.err" || status=$?
	if [ "$status" -ne 2 ]; then
		fail "'$*': status $status, expected 2"
	elif ! grep -q ptop "$tmp/bad.err"; then
		fail "'$*': no message naming ptop on stderr"
	elif [ -s "$tmp/bad.out" ]; then
		fail "'$*': wrote to stdout"
	fi
}
bad -b -n 0
bad -b -n x
bad -b -n -3
bad -b -n ""
bad -b -d -1
bad -b -d abc
bad -b -d 1x
bad -b -d nan
bad -b -o xml
bad -b -o ""
bad -b -s nosuch
bad -b -s ""
bad -b -p 0
bad -b -p 1,,2
bad -b -p 1,
bad -b -p ,1
bad -b -p x
bad -b -p -5
bad -b -u nosuchuser_zz
bad -b -u ""
bad -b --bogus
bad -b -Z
bad -b -n
bad -b stray

status=0
"$PTOP" --help >"$tmp/help" 2>&1 || status=$?
[ "$status" -eq 0 ] || fail "--help: status $status"
grep -q -- "-b" "$tmp/help" || fail "--help does not mention -b"
status=0
"$PTOP" --version >"$tmp/version" 2>&1 || status=$?
[ "$status" -eq 0 ] || fail "--version: status $status"
grep -q "^ptop " "$tmp/version" || fail "--version does not print 'ptop '"

finish
