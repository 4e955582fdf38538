#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_perf_batch.sh: the perf options of batch mode driven as a user would:
# --counters on a busy and an idle child (JSON parsed by python3: the
# top-level counters object, each process's counters, the busy child's
# task-clock against the kernel's tick accounting and above the idle one's,
# the source and reason on a machine without a PMU), threads that ran before
# ptop attached, -H with a row per thread, --counter-budget, --perf-fds,
# --watch on a child's [stack] given as a region and as a hex address (the
# top-level breakpoints list; hits are not checked here, test_breakpoints
# does that where the machine delivers them), the usage errors (status 2) of
# bad --counters and --watch arguments, the fifth breakpoint on one process
# (status 1, a message naming the four debug registers), and the text
# output's Counters and Breakpoints sections. Skips (77) without python3.
# make check sets PTOP.
#
# No check assumes how much CPU a child gets in a given time: on a loaded
# machine that is the scheduler's choice. ptop runs until the kernel's tick
# accounting says the child has had the CPU time a check needs (DEADLINE
# seconds at most, default 30), and the counters are checked against those
# ticks.

NAME=test_perf_batch
. "${srcdir:-.}/tests/lib.sh"
# Started by its path: a version manager's shim in PATH can cost a second a start.
need_python "to probe the kernel and check ptop's JSON"

# Where the kernel refuses perf_event_open itself (perf_event_paranoid 3, a
# seccomp filter), no counter can be checked, and where it has no hardware
# breakpoints, no --watch can. The kernel is asked directly, not through
# ptop, so that a ptop that fails to attach still fails the test.
probe=$("$PYTHON" - <<'EOF'
import ctypes, errno, os, platform, struct
nr = {"x86_64": 298, "aarch64": 241, "riscv64": 241, "ppc64le": 319, "s390x": 331,
      "i686": 336, "armv7l": 364}.get(platform.machine())
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
# disabled | exclude_kernel | exclude_hv: what an unprivileged user may ask for
FLAGS = 1 | 1 << 5 | 1 << 6

def refused(attr, errs):
    buf = ctypes.create_string_buffer(attr, len(attr))
    fd = libc.syscall(ctypes.c_long(nr), buf, 0, -1, -1, ctypes.c_ulong(0))
    err = ctypes.get_errno()
    if fd >= 0:
        os.close(fd)
        return None
    return os.strerror(err) if err in errs else None

if nr is not None:
    # PERF_TYPE_SOFTWARE, PERF_ATTR_SIZE_VER0, PERF_COUNT_SW_TASK_CLOCK
    why = refused(struct.pack("=IIQQQQQ", 1, 64, 1, 0, 0, 0, FLAGS) + bytes(16),
                  (errno.EACCES, errno.EPERM, errno.ENOSYS))
    if why:
        print("counters:", why)
    else:
        # PERF_TYPE_BREAKPOINT, PERF_ATTR_SIZE_VER1, HW_BREAKPOINT_W on 4 bytes of ours
        word = ctypes.c_uint32()
        why = refused(struct.pack("=IIQQQQQIIQQ", 5, 72, 0, 0, 0, 0, FLAGS, 0, 2,
                                  ctypes.addressof(word), 4),
                      (errno.ENODEV, errno.EOPNOTSUPP, errno.ENOENT))
        if why:
            print("breakpoints:", why)
EOF
)
refused=$(echo "$probe" | sed -n 's/^counters: //p')
no_breakpoints=$(echo "$probe" | sed -n 's/^breakpoints: //p')
[ -z "$refused" ] || skip "the kernel refuses perf_event_open here: $refused" \
	"(perf_event_paranoid $(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null))"
[ -z "$no_breakpoints" ] || partial_skip "no hardware breakpoints here ($no_breakpoints):" \
	"--watch is checked for its usage errors only"

# What the python checks share: the children's pids (BUSY, IDLE, THREADED in
# the environment), proc() to find a row, and both sides of a cross-check:
# the kernel's ticks and the counters' sums over the same frames.
cat >"$tmp/perfcheck.py" <<'EOF'
import os

busy, idle, threaded = (int(os.environ.get(k) or 0) for k in ("BUSY", "IDLE", "THREADED"))

def proc(frame, pid):
    for p in frame["processes"]:
        if p["pid"] == pid:
            return p
    raise AssertionError("pid %d not in the frame" % pid)

def ticks(frames, pid):
    """CPU ticks of pid (a process, or a thread under -H) from the first frame to the last."""
    a, b = proc(frames[0], pid), proc(frames[-1], pid)
    return b["utime_ticks"] + b["stime_ticks"] - a["utime_ticks"] - a["stime_ticks"]

def counted(frames, pid, event):
    """The event over the same frames: each frame counts the interval since the one before."""
    return sum(proc(f, pid)["counters"][event] for f in frames[1:])

def near_ticks(frames, pid, ns, slack):
    """ns agrees with pid's ticks within a fraction slack, and three ticks of rounding
    (each side is read at its own moment of the frame)."""
    t, tick_ns = ticks(frames, pid), 1e9 / frames[-1]["hz"]
    assert abs(ns - t * tick_ns) <= slack * t * tick_ns + 3 * tick_ns, (pid, ns, t)
EOF

# check NAME PYTHON-CHECK: run the check with `frames`, the JSON lines of $tmp/out.
check() {
	PYTHONPATH=$tmp "$PYTHON" - "$tmp/out" "$2" <<'EOF' || fail "$1"
import json, sys
from perfcheck import *
frames = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
assert frames, "no output"
exec(sys.argv[2])
EOF
}

# frames_until NAME CONDITION PTOP-ARGS...: run ptop (JSON, no -n) and keep its
# frames in $tmp/out until the python CONDITION holds of `frames`, then stop
# it; fail NAME if ptop ends first or DEADLINE seconds pass.
frames_until() {
	name=$1
	shift
	PYTHONPATH=$tmp "$PYTHON" - "$tmp/out" "$tmp/err" "$DEADLINE" "$PTOP" "$@" <<'EOF' ||
import json, subprocess, sys, threading
from perfcheck import *
out, err, deadline, cond = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[5]
frames = []
with open(out, "w") as o, open(err, "w") as e:
    p = subprocess.Popen([sys.argv[4]] + sys.argv[6:], stdout=subprocess.PIPE, stderr=e,
                         text=True)
    timer = threading.Timer(deadline, p.kill)
    timer.start()
    try:
        for line in p.stdout:
            o.write(line)
            frames.append(json.loads(line))
            if eval(cond):
                break
        else:
            if p.wait() == -9:
                sys.exit("%s: not so after %g s, %d frames" % (cond, deadline, len(frames)))
            sys.exit("ptop exited %d: %s" % (p.returncode, open(err).read()))
    finally:
        timer.cancel()
        p.kill()
        p.wait()
EOF
		fail "$name"
}

# expect_status WANT NAME ARGS...: run ptop, want that exit status and a message on stderr.
expect_status() {
	want=$1
	name=$2
	shift 2
	"$PTOP" "$@" >"$tmp/out" 2>"$tmp/err"
	got=$?
	if [ "$got" -ne "$want" ]; then
		fail "$name: exit status $got, want $want"
	elif [ ! -s "$tmp/err" ]; then
		fail "$name: no message on stderr"
	fi
}

sh -c 'while :; do :; done' &
busy=$!
sleep 600 &
idle=$!
kids="$busy $idle"
BUSY=$busy IDLE=$idle
export BUSY IDLE

# --counters in JSON: software events on this machine, values that move, until
# the busy child has had 0.3 s of CPU (30 ticks at USER_HZ 100).
frames_until "--counters json: frames" 'len(frames) >= 2 and ticks(frames, busy) >= 30' \
	-b -d 0.3 --counters -o json -p "$busy,$idle"
check "--counters json" '
for f in frames:
    c = f["counters"]
    assert isinstance(c["events"], list) and 1 <= len(c["events"]) <= 8, c
    assert c["source"] in ("hardware", "software"), c
    if c["source"] == "software":
        assert c["events"] == ["task-clock", "context-switches", "cpu-migrations",
                               "page-faults"], c
        assert isinstance(c["reason"], str) and c["reason"], c
    else:
        assert c["events"] == ["cycles", "instructions", "cache-misses", "branch-misses"], c
        assert "reason" not in c, c
    assert c["attached"] == 2 and c["not_attached"] == 0 and c["partial"] == 0, c
    assert c["self"]["read"] in ("rdpmc", "syscall"), c
    for e in c["events"]:
        assert c["self"][e] >= 0, (e, c["self"])
    for pid in (busy, idle):
        pc = proc(f, pid)["counters"]
        assert pc["source"] == c["source"], pc
        # attached in the first frame: no count until a whole interval, never a 0
        if f is frames[0]:
            assert pc.get("counting") is True, pc
            assert all(pc[e] is None for e in c["events"]), pc
            continue
        assert "counting" not in pc, pc
        for e in c["events"]:
            assert isinstance(pc[e], (int, float)) and pc[e] >= 0, (e, pc)
        assert 0 < proc(f, pid)["ctr_scale"] <= 1, proc(f, pid)
        assert "partial" not in pc, pc
if frames[-1]["counters"]["source"] == "software":
    b = counted(frames, busy, "task-clock")
    i = counted(frames, idle, "task-clock")
    near_ticks(frames, busy, b, 0.2)
    # 30 ticks of a spinning shell against a sleep that never wakes
    assert b > 100e6, b
    assert i < 10e6, i
    assert b > 10 * i, (b, i)
    assert all(proc(f, busy)["ctr_scale"] == 1 for f in frames), frames[-1]
else:
    ins = [counted(frames, pid, "instructions") for pid in (busy, idle)]
    assert ins[0] > ins[1], ins
'

# Threads that were running before ptop attached count: the main thread of
# this process sleeps while two threads spin, so its task-clock is theirs. The
# kernel's tick accounting, which covers every thread, is the cross-check.
"$PYTHON" -c '
import threading, time
def spin():
    while True:
        pass
for _ in range(2):
    threading.Thread(target=spin, daemon=True).start()
time.sleep(600)
' &
threaded=$!
kids="$kids $threaded"
THREADED=$threaded
export THREADED
tasks() { set -- "/proc/$1/task/"[0-9]*; [ -e "$1" ] && echo $# || echo 0; }
three_tasks() { [ "$(tasks "$threaded")" -ge 3 ]; }
wait_until three_tasks || fail "the threaded child did not start its threads"
frames_until "--counters on a threaded process: frames" \
	'len(frames) >= 2 and ticks(frames, threaded) >= 30' \
	-b -d 0.5 --counters -o json -p "$threaded"
check "--counters, threads that ran before attaching" '
last = frames[-1]
c = last["counters"]
assert c["attached"] == 1 and c["partial"] == 0, c
assert "partial" not in proc(last, threaded)["counters"], proc(last, threaded)
if c["source"] == "software":
    # the main thread alone would read next to nothing
    near_ticks(frames, threaded, counted(frames, threaded, "task-clock"), 0.25)
'
# With -H each thread is a row with counters of its own: the sleeping main
# thread next to nothing, each spinning one its own ticks.
frames_until "-H --counters: frames" '
len(frames) >= 2 and min(ticks(frames, p["pid"]) for p in frames[0]["processes"]
                         if p["tgid"] == threaded and p["pid"] != threaded) >= 15' \
	-b -d 0.5 -H --counters -o json -p "$threaded"
check "-H --counters, a row per thread" '
last = frames[-1]
c = last["counters"]
rows = [p["pid"] for p in last["processes"] if p["tgid"] == threaded]
assert len(rows) == 3 and c["attached"] == 3, (rows, c)
assert sorted(p["pid"] for p in frames[0]["processes"] if p["tgid"] == threaded) == sorted(rows)
if c["source"] == "software":
    main = counted(frames, threaded, "task-clock")
    others = [counted(frames, t, "task-clock") for t in rows if t != threaded]
    for t, ns in zip([t for t in rows if t != threaded], others):
        near_ticks(frames, t, ns, 0.25)
    assert main < 0.1 * min(others), (main, others)
'
stop "$threaded"

# --counters=EVENT,... names the events; an unknown one is an error before any output.
"$PTOP" -b -n 1 --counters=task-clock,page-faults -o json -p "$idle" >"$tmp/out" 2>"$tmp/err" ||
	fail "--counters=task-clock,page-faults exited $?"
check "--counters=task-clock,page-faults" '
c = frames[0]["counters"]
assert c["events"] == ["task-clock", "page-faults"] and c["source"] == "software", c
assert "reason" not in c, c
pc = proc(frames[0], idle)["counters"]
assert set(pc) >= {"source", "task-clock", "page-faults"}, pc
# the scale and the derived figures are keys of the row itself, once
assert "scale" not in pc and "ctr_scale" in proc(frames[0], idle), proc(frames[0], idle)
assert "context-switches" not in pc, pc
'
expect_status 2 "--counters=bogus" -b -n 1 --counters=bogus -p "$idle"
grep -q "bogus" "$tmp/err" || fail "--counters=bogus: message does not name the event"
[ -s "$tmp/out" ] && fail "--counters=bogus: printed a frame"

# --counter-budget: the first pid gets counters, the other is reported.
"$PTOP" -b -n 1 --counters --counter-budget 1 -o json -p "$busy,$idle" >"$tmp/out" 2>"$tmp/err" ||
	fail "--counter-budget 1 exited $?"
check "--counter-budget 1" '
c = frames[0]["counters"]
assert c["attached"] == 1 and c["not_attached"] == 1, c
assert sum("counters" in p for p in frames[0]["processes"]) == 1, frames[0]["processes"]
'

# --perf-fds: the children hold no perf_event descriptors.
"$PTOP" -b -n 1 --perf-fds -o json -p "$busy,$idle" >"$tmp/out" 2>"$tmp/err" ||
	fail "--perf-fds exited $?"
check "--perf-fds" '
for pid in (busy, idle):
    assert proc(frames[0], pid)["perf_fds"] == 0, proc(frames[0], pid)
assert "counters" not in frames[0], frames[0].keys()
'

# --watch on the idle child's stack, as a region and as the address it resolves to.
stack=$(awk '$6 == "[stack]" { split($1, a, "-"); print a[1]; exit }' "/proc/$idle/maps")
if [ -z "$stack" ]; then
	fail "no [stack] in /proc/$idle/maps"
	stack=0
fi
# check_watch: the breakpoints in JSON, and the fifth on one process; where
# the machine has breakpoints to give.
check_watch() {
	"$PTOP" -b -n 2 -d 0.1 -o json -p "$idle" --watch "$idle:[stack]+0x40" \
		--watch "$idle:0x$stack:8:rw" >"$tmp/out" 2>"$tmp/err" ||
		fail "--watch exited $?: $(cat "$tmp/err")"
	STACK=$stack check "--watch json" '
import os
start = int(os.environ["STACK"], 16)
for f in frames:
    bps = f["breakpoints"]
    assert len(bps) == 2, bps
    for bp in bps:
        assert set(bp) >= {"pid", "addr", "len", "type", "hits"}, bp
        assert bp["pid"] == idle, bp
        assert isinstance(bp["addr"], str) and bp["addr"].startswith("0x"), bp
        assert isinstance(bp["hits"], int) and bp["hits"] >= 0, bp
    assert int(bps[0]["addr"], 16) == start + 0x40, (bps[0], hex(start))
    assert (bps[0]["len"], bps[0]["type"]) == (4, "w"), bps[0]
    assert int(bps[1]["addr"], 16) == start, (bps[1], hex(start))
    assert (bps[1]["len"], bps[1]["type"]) == (8, "rw"), bps[1]
    if "breakpoints_note" in f:
        assert "no breakpoint hits" in f["breakpoints_note"], f["breakpoints_note"]
'

	# Five breakpoints on one process: the fifth finds no debug register.
	expect_status 1 "five --watch" -b -n 1 -p "$idle" \
		--watch "$idle:[stack]+0x0:8" --watch "$idle:[stack]+0x8:8" \
		--watch "$idle:[stack]+0x10:8" --watch "$idle:[stack]+0x18:8" \
		--watch "$idle:[stack]+0x20:8"
	grep -q "four" "$tmp/err" ||
		fail "five --watch: message does not mention four: $(cat "$tmp/err")"
}
[ -n "$no_breakpoints" ] || check_watch

# Bad --watch arguments are usage errors.
expect_status 2 "--watch 1:0xzz" -b -n 1 --watch 1:0xzz
expect_status 2 "--watch 1:0x10:3" -b -n 1 --watch 1:0x10:3
expect_status 2 "--watch 1:0x10:4:q" -b -n 1 --watch 1:0x10:4:q
expect_status 2 "--watch 0:0x10" -b -n 1 --watch 0:0x10
expect_status 2 "--watch without a value" -b -n 1 --watch

# A region the process lacks, and a process that is gone, are plain errors too.
expect_status 1 "--watch [nosuch]" -b -n 1 --watch "$idle:[nosuch]+0x0"
grep -q "region" "$tmp/err" || fail "--watch [nosuch]: message: $(cat "$tmp/err")"
sh -c 'exit 0' &
gone=$!
wait "$gone"
expect_status 1 "--watch gone pid" -b -n 1 --watch "$gone:0x1000:8"
grep -q "no such process" "$tmp/err" || fail "--watch gone pid: message: $(cat "$tmp/err")"

# Text output: the Counters and Breakpoints sections.
set --
[ -z "$no_breakpoints" ] && set -- --watch "$idle:[stack]+0x40"
"$PTOP" -b -n 1 --counters -p "$busy,$idle" "$@" >"$tmp/out" 2>"$tmp/err" ||
	fail "text --counters exited $?"
grep -q "^Counters (" "$tmp/out" || fail "text: no Counters section"
grep -q "2 attached, 0 not attached" "$tmp/out" || fail "text: Counters header lacks the counts"
grep -q "task-clock" "$tmp/out" || grep -q "cycles" "$tmp/out" || fail "text: no event names"
# one frame: attached in it, the counts start with the next interval
grep -Eq "^ *$busy +counting\.\.\. " "$tmp/out" || fail "text: no counter row for the busy child"
if [ -z "$no_breakpoints" ]; then
	grep -q "^Breakpoints" "$tmp/out" || fail "text: no Breakpoints section"
	grep -Eq "^ *$idle +\[stack\]\+0x40 +0x[0-9a-f]+ +4 w " "$tmp/out" ||
		fail "text: no breakpoint row"
fi

finish
