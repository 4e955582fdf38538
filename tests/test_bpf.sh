#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_bpf.sh: the BPF frame source against the /proc one, field by field.
# For PID 1 and for test children with a known thread count, memory and nice
# value, a BPF frame taken between two /proc frames agrees with them: every
# field that did not change between the two /proc frames is equal, and CPU
# times lie between them (ptop(1), FRAME SOURCES, gives the bounds). Rows per
# thread (-H) agree likewise, and start times in a time namespace with its
# boot time offset. RES is statm's exact figure. A load out of memory says
# so. Under a parent pid namespace's /proc, BPF is not used (auto) or
# refused (--source=bpf). As an unprivileged user, ptop says once why it
# reads /proc and its figures are still right. Skips (77) with the reason
# where BPF cannot load.
set -eu

NAME=test_bpf
. "${srcdir:-.}/tests/lib.sh"
"$PTOP" --version | grep -q 'procfs, bpf' || skip "this ptop was built without BPF"
need python3 "to compare frames"

"$PTOP" -b -n 1 -p 1 --source=bpf -o json >"$tmp/probe" 2>"$tmp/probe.err" || :
[ ! -s "$tmp/probe.err" ] || skip "$(cat "$tmp/probe.err")"

# child NICE MIB THREADS: a process that raises its nice value by NICE,
# touches MIB MiB, has a thread burn 0.3 s of CPU and end (its time is then
# the dead threads' share), starts THREADS-1 more threads, says so by a file,
# and sleeps for good.
child() {
	python3 - "$tmp/ready.$1.$2.$3" "$1" "$2" "$3" <<'PY' &
import os, sys, threading, time
path, nice, mib, threads = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
os.nice(nice)
block = bytearray(mib << 20)
for i in range(0, len(block), 4096):
    block[i] = 1
def burn():
    t0 = time.thread_time()
    while time.thread_time() - t0 < 0.3:
        pass
burner = threading.Thread(target=burn)
burner.start()
burner.join()
stop = threading.Event()
for _ in range(threads - 1):
    threading.Thread(target=stop.wait, daemon=True).start()
open(path, "w").close()
stop.wait()
PY
	kids="$kids $!"
	wait_until test -e "$tmp/ready.$1.$2.$3" || die "a test child never got ready"
}

child 7 16 3
child 0 4 1
set -- $kids
a=$1
b=$2
# A stopped process (T) and one with a zombie child (Z) that it never reaps.
sleep 600 &
stopped=$!
kids="$kids $stopped"
sleep_started() { [ "$(cat "/proc/$stopped/comm")" = sleep ]; }
wait_until sleep_started || die "sleep never started"
kill -STOP "$stopped"
sh -c 'sleep 0 & exec sleep 600' &
parent=$!
kids="$kids $parent"
zombie_and_stopped() {
	zombie=$(ps -o pid= --ppid "$parent" | tr -d ' ') && [ -n "$zombie" ] &&
		[ "$(state "$zombie")" = Z ] && [ "$(state "$stopped")" = T ]
}
wait_until zombie_and_stopped || die "no zombie or no stopped process"

# Wait until both children sleep, as a loaded machine may take a while.
for p in $a $b; do
	wait_state "$p" S
done

# PID 1, kthreadd (a kernel thread), the children
pids=1,2,$a,$b,$stopped,$parent,$zombie
page_kb=$(($(getconf PAGESIZE) / 1024))

# compare NAME: procfs, bpf, procfs frames in $tmp/NAME.{1,b,2}, rows keyed by pid.
compare() {
	python3 - "$tmp/$1" "$1" "$a" "$b" "$stopped" "$zombie" <<'PY' || failures=$((failures + 1))
import json, os, sys
base, name = sys.argv[1], sys.argv[2]
a, b, stopped, zombie = (int(x) for x in sys.argv[3:7])
def load(s):
    with open(base + "." + s) as f:
        return json.loads(f.readline())
p1, bf, p2 = load("1"), load("b"), load("2")
bad = 0
if bf["cost"]["source"] != "bpf" or p1["cost"]["source"] != "procfs":
    print("FAIL: %s: sources %s/%s" % (name, bf["cost"]["source"], p1["cost"]["source"]))
    bad += 1
rows = [{r["pid"]: r for r in fr["processes"]} for fr in (p1, bf, p2)]
if set(rows[1]) != set(rows[0]) & set(rows[2]) and set(rows[1]) != set(rows[0]) | set(rows[2]):
    print("FAIL: %s: rows %s by BPF, %s and %s by /proc" % (name, sorted(rows[1]), sorted(rows[0]), sorted(rows[2])))
    bad += 1
checked = 0
for pid in sorted(set(rows[0]) & set(rows[1]) & set(rows[2])):
    x, y, z = rows[0][pid], rows[1][pid], rows[2][pid]
    for k in x:
        if k in ("cpu_pct", "mem_pct", "child_cpu_pct"):
            continue  # derived over different intervals (a child reaped in one, not another)
        if x["tgid"] == 1 and k in ("state", "processor", "vsize_kb", "rss_kb", "shared_kb",
                                    "data_kb"):
            # PID 1 works now and then: its threads wake and move between frames,
            # and its memory can grow and shrink back between the two /proc frames
            continue
        if x[k] == z[k] and y[k] != x[k]:
            print("FAIL: %s: pid %d %s: bpf %r, /proc %r" % (name, pid, k, y[k], x[k]))
            bad += 1
        elif k.endswith("_ticks") and not min(x[k], z[k]) <= y[k] <= max(x[k], z[k]):
            print("FAIL: %s: pid %d %s: bpf %r not within /proc's %r..%r" % (name, pid, k, y[k], x[k], z[k]))
            bad += 1
    checked += 1
tg = {}
for r in bf["processes"]:
    tg.setdefault(r["tgid"], []).append(r)
# child a raised its nice value by 7 from what it was born with (make check may run under nice)
for r in tg.get(a, []):
    if r["nice"] != min(19, os.nice(0) + 7) or r["threads"] != 3 or r["rss_kb"] < 16384:
        print("FAIL: %s: child %d shows nice %d, %d threads, %d KiB" % (name, r["pid"], r["nice"], r["threads"], r["rss_kb"]))
        bad += 1
    if bf["rows"] == "processes" and r["utime_ticks"] + r["stime_ticks"] < 30:
        print("FAIL: %s: child %d lacks its ended thread's 0.3 s: %d ticks" % (name, r["pid"], r["utime_ticks"] + r["stime_ticks"]))
        bad += 1
want = (3, 1) if bf["rows"] == "threads" else (1, 1)
if (len(tg.get(a, [])), len(tg.get(b, []))) != want:
    print("FAIL: %s: %d rows of child %d, %d of child %d" % (name, len(tg.get(a, [])), a, len(tg.get(b, [])), b))
    bad += 1
# I/O and cgroup come from BPF (or, on a hybrid machine, cgroup from /proc)
# too; a thread's I/O is its own (the main thread read the program, the
# others may have read nothing)
for r in tg.get(a, []):
    if (not r["io_rchar"] if r["pid"] == r["tgid"] else r["io_rchar"] is None) or r["cgroup"] is None:
        print("FAIL: %s: child %d shows rchar %r, cgroup %r" % (name, r["pid"], r["io_rchar"], r["cgroup"]))
        bad += 1
states = {r["pid"]: r["state"] for r in bf["processes"]}
if states.get(stopped) != "T" or states.get(zombie) != "Z":
    print("FAIL: %s: the stopped process is %s, the zombie %s" % (name, states.get(stopped), states.get(zombie)))
    bad += 1
if checked < 7:
    print("FAIL: %s: only %d rows to compare" % (name, checked))
    bad += 1
print("%s: %d rows compared" % (name, checked))
sys.exit(1 if bad else 0)
PY
}

# A frame from each source, BPF between two from /proc.
frames() {
	out=$1
	shift
	"$PTOP" -b -n 1 --source=procfs -o json "$@" >"$tmp/$out.1"
	"$PTOP" -b -n 1 --source=bpf -o json "$@" >"$tmp/$out.b" 2>"$tmp/$out.err"
	"$PTOP" -b -n 1 --source=procfs -o json "$@" >"$tmp/$out.2"
	if [ -s "$tmp/$out.err" ]; then
		fail "$out: ptop said: $(cat "$tmp/$out.err")"
	fi
}

frames procs -p "$pids"
compare procs
frames threads -H -p "$pids"
compare threads

# Where the kernel has the open-coded task iterator (6.7), frames come from
# the walk; PTOP_BPF_WALK=0 reads the task iterator instead: both agree.
major=$(uname -r | cut -d. -f1)
minor=$(uname -r | cut -d. -f2)
if command -v strace >/dev/null 2>&1; then
	# (LeakSanitizer cannot run under ptrace: the sanitizer build leaves it out here)
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		strace -f -e trace=bpf -o "$tmp/strace" "$PTOP" -b -n 2 -d 0.1 --source=bpf -p 1 >/dev/null
	runs=$(grep -c 'BPF_PROG_TEST_RUN' "$tmp/strace" || :)
	iters=$(grep -c 'BPF_ITER_CREATE' "$tmp/strace" || :)
	if [ "$major" -gt 6 ] || { [ "$major" -eq 6 ] && [ "$minor" -ge 7 ]; }; then
		[ "$runs" -ge 2 ] && [ "$iters" = 0 ] ||
			fail "kernel $(uname -r): $runs walks and $iters iterator passes, not the walk"
	else
		echo "note: kernel $(uname -r) has no open-coded task iterator: frames come from the task iterator"
	fi
else
	echo "note: no strace: which BPF way the frames took is not checked"
fi
export PTOP_BPF_WALK=0
frames iter_procs -p "$pids"
compare iter_procs
frames iter_threads -H -p "$pids"
compare iter_threads

# Kernel threads' names, which the walk keeps apart from the records: the
# same from the walk, the iterator and /proc (pool workers' names carry
# their last work, which moves, and are left out).
"$PTOP" -b -n 1 --source=bpf -o json >"$tmp/names.iter"
unset PTOP_BPF_WALK
"$PTOP" -b -n 1 --source=bpf -o json >"$tmp/names.walk"
"$PTOP" -b -n 1 --source=procfs -o json >"$tmp/names.proc"
python3 - "$tmp/names.walk" "$tmp/names.iter" "$tmp/names.proc" <<'PY' || failures=$((failures + 1))
import json, re, sys
frames = [{p["pid"]: p["comm"] for p in json.load(open(f))["processes"] if p["ppid"] == 2}
          for f in sys.argv[1:]]
pids = set(frames[0]) & set(frames[1]) & set(frames[2])
stable = [p for p in pids if not re.match(r"kworker/u?[0-9]", frames[2][p])]
bad = [(p, [f[p] for f in frames]) for p in stable if len({f[p] for f in frames}) > 1]
assert not bad, "kernel thread names differ (walk, iterator, /proc): %s" % bad[:5]
long = [frames[2][p] for p in stable if len(frames[2][p]) > 15]
print("kernel threads: %d names agree, %d longer than comm" % (len(stable), len(long)))
PY

# In a time namespace whose boot time is offset (unshare -T --boottime),
# /proc/PID/stat shows start times with the offset of the reader's
# namespace, and the viewer's actions compare a row's start time with it:
# BPF rows must carry the same offset, or every action says "gone".
if ! unshare -T --boottime 1000000 true 2>/dev/null; then
	partial_skip "no time namespaces here (util-linux unshare -T --boottime, CONFIG_TIME_NS): start times in one not checked"
elif ! unshare -T --boottime 1000000 cat /proc/self/timens_offsets | grep -q '^boottime  *1000000 '; then
	partial_skip "unshare -T --boottime did not offset the boot time here: not checked"
else
	unshare -T --boottime 1000000 sh -c '
		"$PTOP" -b -n 1 --source=procfs -o json -p "$1" >"$2.1" &&
		"$PTOP" -b -n 1 --source=bpf -o json -p "$1" >"$2.b" 2>"$2.err"' \
		sh "$a" "$tmp/timens" || fail "ptop in a time namespace exited non-zero"
	[ -s "$tmp/timens.err" ] && fail "time namespace: ptop said: $(cat "$tmp/timens.err")"
	python3 - "$tmp/timens" "$a" <<'PY' || failures=$((failures + 1))
import json, sys
base, a = sys.argv[1], int(sys.argv[2])
p, b = (json.load(open(base + s)) for s in (".1", ".b"))
assert (p["cost"]["source"], b["cost"]["source"]) == ("procfs", "bpf"), "sources"
ps, bs = ([r["start_ticks"] for r in f["processes"] if r["pid"] == a] for f in (p, b))
assert ps and bs, "no row of %d" % a
# the offset is 1,000,000 s: 10^8 ticks at 100 Hz
assert ps[0] > p["hz"] * 1000000, "/proc shows no offset: %d" % ps[0]
assert bs == ps, "time namespace: start_ticks of %d: bpf %d, /proc %d" % (a, bs[0], ps[0])
PY
fi

# Out of memory while loading (libbpf parses the kernel's BTF, some 10 MB):
# the note names it, not libbpf's stand-in -ESRCH ("No such process"). An
# address-space limit (RLIMIT_AS) low enough for that and high enough for
# ptop to read /proc is searched for; a build that cannot start under such
# a limit at all (the sanitizers reserve terabytes) finds none.
if command -v prlimit >/dev/null 2>&1; then
	oom=0
	for mib in 8 10 12 14 16 18 20 24 28 32 40 48 64; do
		prlimit --as=$((mib << 20)) "$PTOP" -b -n 1 --source=bpf -o json -p "$a" \
			>"$tmp/oom" 2>"$tmp/oom.err" || continue
		grep -q '"source":"procfs"' "$tmp/oom" || continue
		oom=$((oom + 1))
		grep -q 'bpf: cannot load the task iterator: out of memory' "$tmp/oom.err" ||
			fail "BPF out of memory at $mib MiB of address space: $(cat "$tmp/oom.err")"
	done
	[ "$oom" -gt 0 ] ||
		partial_skip "no address-space limit lets ptop read /proc but not load BPF: out of memory not tried"
else
	partial_skip "no prlimit: a BPF load out of memory is not tried"
fi

# A pid namespace that sees its parent's /proc (unshare -p -f without
# --mount-proc): BPF numbers tasks in ptop's namespace, /proc in the
# parent's, so its rows would carry other processes' command lines. auto
# reads /proc then, saying why; --source=bpf is refused.
if ! unshare -p -f true 2>/dev/null; then
	partial_skip "unshare -p -f fails here: BPF under a parent's /proc not tried"
else
	unshare -p -f "$PTOP" -b -n 1 -c -o json >"$tmp/pidns" 2>"$tmp/pidns.err" ||
		fail "auto in a pid namespace with its parent's /proc exited non-zero: $(cat "$tmp/pidns.err")"
	grep -q '"source":"procfs"' "$tmp/pidns" ||
		fail "auto in a pid namespace with its parent's /proc: not from procfs"
	grep -q "bpf: /proc is not this pid namespace's" "$tmp/pidns.err" ||
		fail "auto in a pid namespace with its parent's /proc said: $(cat "$tmp/pidns.err")"
	python3 - "$tmp/pidns" <<'PY' || failures=$((failures + 1))
import json, sys
f = json.load(open(sys.argv[1]))
# /proc's rows: each pid's command line is that process's own
bad = [(p["pid"], p["comm"], p["cmdline"]) for p in f["processes"]
       if p["pid"] == 1 and p["comm"] in ("ptop", "unshare")]
assert not bad, "pid 1 is ptop's namespace's, its command line another's: %s" % bad
PY
	st=0
	unshare -p -f "$PTOP" -b -n 1 --source=bpf -o json >"$tmp/pidns.bpf" 2>"$tmp/pidns.bpf.err" || st=$?
	[ "$st" -ne 0 ] || fail "--source=bpf in a pid namespace with its parent's /proc was taken"
	[ -s "$tmp/pidns.bpf" ] && fail "--source=bpf refused, yet wrote a frame"
	grep -q "source bpf: /proc is not the proc of ptop's pid namespace" "$tmp/pidns.bpf.err" ||
		fail "--source=bpf refused with: $(cat "$tmp/pidns.bpf.err")"
	# with its own /proc the namespace is BPF's again
	if unshare -p -f --mount-proc true 2>/dev/null; then
		unshare -p -f --mount-proc "$PTOP" -b -n 1 --source=bpf -o json >"$tmp/pidns.own" \
			2>"$tmp/pidns.own.err" || fail "--source=bpf under --mount-proc exited non-zero"
		grep -q '"source":"bpf"' "$tmp/pidns.own" ||
			fail "--source=bpf under --mount-proc: not from bpf: $(cat "$tmp/pidns.own.err")"
	fi
fi

# The default source as root is BPF's delta, where its pass loads, else the walk.
"$PTOP" -b -n 1 -o json -p "$a" >"$tmp/auto" 2>"$tmp/auto.err"
[ ! -s "$tmp/auto.err" ] || fail "auto said: $(cat "$tmp/auto.err")"
"$PTOP" -b -n 1 --source=bpf-delta -o json -p "$a" >/dev/null 2>"$tmp/delta.err"
if grep -q 'delta pass did not load' "$tmp/delta.err"; then
	grep -q '"source":"bpf"' "$tmp/auto" || fail "auto did not walk as root without the delta"
else
	grep -q '"source":"bpf-delta"' "$tmp/auto" || fail "auto did not choose bpf-delta as root"
fi

# %CPU is over the interval: each row finds its own in the frame before
# (batch primes one), among every process. Child a burnt 0.3 s in a thread
# that ended and sleeps since: 0 in both frames, where a row that missed its
# previous one would show its life's average; per thread too.
for how in processes threads; do
	flag=
	[ "$how" = threads ] && flag=-H
	"$PTOP" -b -n 2 -d 0.2 --source=bpf -o json $flag >"$tmp/rate.$how"
	python3 - "$tmp/rate.$how" "$a" "$how" <<'PY' || failures=$((failures + 1))
import json, sys
frames = [json.loads(l) for l in open(sys.argv[1])]
a, how = int(sys.argv[2]), sys.argv[3]
mine = [[r for r in f["processes"] if r["tgid"] == a] for f in frames]
assert len(frames) == 2 and mine[0] and mine[1], "%s: no rows of %d" % (how, a)
ticks = sum(r["utime_ticks"] + r["stime_ticks"] for r in mine[1])
assert how == "threads" or ticks >= 30, "%s: %d has %d ticks, not its 0.3 s" % (how, a, ticks)
busy = [(r["pid"], r["cpu_pct"]) for m in mine for r in m if r["cpu_pct"] != 0]
assert not busy, "%s: %%CPU of sleeping %d over the interval: %s" % (how, a, busy)
PY
done

# RES is statm's exact figure (the per-CPU counters summed), read around it.
before=$(awk -v k="$page_kb" '{ print $2 * k }' "/proc/$a/statm")
res=$("$PTOP" -b -n 1 --source=bpf -o json -p "$a" |
	python3 -c 'import json, sys; print(json.load(sys.stdin)["processes"][0]["rss_kb"])')
after=$(awk -v k="$page_kb" '{ print $2 * k }' "/proc/$a/statm")
[ "$before" = "$after" ] && [ "$res" != "$before" ] &&
	fail "RES $res KiB by BPF, statm says $before KiB"

# A table that grows past its first size (1024 rows) in a later frame, at a
# row that was in the frame before: its figures from the previous frame must
# stay valid while the table moves (the sanitizer build catches a stale
# pointer). Frame 1 has 1,100 rows; then 200 processes start with PIDs below
# most of them (the next PID set low, as when PIDs wrap around), so that row
# 1025 of frame 2 is an old one. Where the next PID cannot be set, only the
# many rows are checked.
many=
spawn() { # N: start N sleeping processes
	for i in $(seq "$1"); do
		sleep 600 &
		many="$many $!"
	done
	kids="$kids $many"
}
now=$(ls /proc | grep -c '^[0-9]')
# a margin over 1024: processes of others counted now may end before the frames
[ "$now" -lt 1100 ] && spawn $((1100 - now))
# ptop runs until two frames were taken after the last of them started
# (however long starting 200 processes takes on a loaded machine), then a
# SIGTERM ends it after the frame it is on.
"$PTOP" -b -d 1 --source=bpf -o json >"$tmp/many" 2>"$tmp/many.err" &
many_ptop=$!
kids="$kids $many_ptop"
wait_until test -s "$tmp/many" || :
echo 300 >/proc/sys/kernel/ns_last_pid 2>/dev/null ||
	echo "note: the next PID cannot be set here: rows that move are not tried"
spawn 200
before=$(wc -l <"$tmp/many")
two_more() { [ "$(wc -l <"$tmp/many")" -ge $((before + 2)) ]; }
wait_until two_more || :
kill -TERM "$many_ptop" 2>/dev/null || :
status=0
wait "$many_ptop" || status=$?
[ "$status" = 143 ] || fail "many processes: ptop exited $status: $(cat "$tmp/many.err")"
python3 - "$tmp/many" $many <<'PY' || failures=$((failures + 1))
import json, sys
frames = [json.loads(l) for l in open(sys.argv[1]) if l.endswith("\n")]
assert len(frames) >= 3, "%d frames" % len(frames)
last = frames[-1]
assert len(last["processes"]) > 1024, "%d rows" % len(last["processes"])
missing = set(map(int, sys.argv[2:])) - {p["pid"] for p in last["processes"]}
assert not missing, "started processes missing: %s" % sorted(missing)[:5]
bad = [p["pid"] for p in last["processes"] if not 0 <= p["cpu_pct"] <= 100 * last["ncpu"]]
assert not bad, "impossible %%CPU for %s" % bad[:5]
PY
kill $many 2>/dev/null || :
for p in $many; do wait "$p" 2>/dev/null || :; done

# A bad source is a usage error.
if "$PTOP" -b -n 1 --source=ebpf >/dev/null 2>"$tmp/bad.err"; then
	fail "--source=ebpf was taken"
else
	st=$?
	[ $st -eq 2 ] || fail "--source=ebpf exited $st, not 2"
	grep -q "unknown source: 'ebpf'" "$tmp/bad.err" || fail "--source=ebpf: $(cat "$tmp/bad.err")"
fi

# bpf-delta's switch hook: its cost is the machine's context switches (the
# kernel's count, /proc/stat's ctxt) times a run's cost timed at the start,
# which a hook made heavier (PTOP_TEST_SWITCH_SPIN) raises; the walk has no
# such hook and shows none. A bad value of the variable is refused. The
# count is read before ptop starts (c0), once its first frame is out (cf: a
# slow start, the sanitizer build's under load, is no part of the frames),
# and after it ends (c1).
ctxt() { awk '$1 == "ctxt" { print $2 }' /proc/stat; }
first_frame_out() { [ -s "$tmp/switch" ]; }
switch_frames() {
	c0=$(ctxt)
	"$@" -b -n 4 -d 0.3 -o json -p 1 >"$tmp/switch" 2>"$tmp/switch.err" &
	sw=$!
	wait_until first_frame_out || :
	cf=$(ctxt)
	wait "$sw" || fail "$* failed: $(cat "$tmp/switch.err")"
	c1=$(ctxt)
}
# a pair of processes passing a byte back and forth: most of the switches
python3 -c '
import os
a, b = os.pipe(), os.pipe()
if os.fork() == 0:
    os.close(a[1])
    os.close(b[0])
    while os.write(b[1], os.read(a[0], 1)):
        pass
    os._exit(0)
os.close(a[0])
os.close(b[1])
while os.write(a[1], b"x") and os.read(b[0], 1):
    pass
' &
pingpong=$!
switch_frames "$PTOP" --source=bpf-delta
kill "$pingpong"
wait "$pingpong" 2>/dev/null || :
if grep -q 'delta pass did not load' "$tmp/switch.err"; then
	partial_skip "$(cat "$tmp/switch.err"): the switch hook's cost is not tried"
else
	python3 - "$tmp/switch" "$c0" "$cf" "$c1" >"$tmp/base_ns" <<'PY' || fail "bpf-delta's switch hook cost"
import json, sys
frames = [json.loads(l)["cost"] for l in open(sys.argv[1])]
total = int(sys.argv[4]) - int(sys.argv[2])
framed = int(sys.argv[4]) - int(sys.argv[3])
runs = 0
for c in frames:
    assert c["switch_hook_runs"] > 0, c
    assert 0 < c["switch_hook_run_ns"] < 100000, c
    want = c["switch_hook_runs"] * c["switch_hook_run_ns"]
    assert abs(c["switch_hook_ns"] - want) <= 0.01 * want + 1, c
    assert c["switch_hook_pct"] >= 0, c
    runs += c["switch_hook_runs"]
# every run counted is a switch of the machine over the run, and most of
# those after the first frame are (ptop's start times the hook over 2,000)
assert framed / 4 <= runs <= total, "%d runs over frames, %d switches after the first, %d over the run" % (
    runs, framed, total)
print(frames[-1]["switch_hook_run_ns"])
PY
	PTOP_TEST_SWITCH_SPIN=5000 switch_frames "$PTOP" --source=bpf-delta
	python3 - "$tmp/switch" "$(cat "$tmp/base_ns")" <<'PY' || fail "a heavier switch hook costs no more"
import json, sys
c = [json.loads(l)["cost"] for l in open(sys.argv[1])][-1]
base = float(sys.argv[2])
assert c["switch_hook_run_ns"] > 2 * base, "%s ns a run with 5000 turns more, %s without" % (c["switch_hook_run_ns"], base)
PY
	switch_frames "$PTOP" --source=bpf
	! grep -q switch_hook "$tmp/switch" || fail "--source=bpf shows a switch hook it does not have"
	if PTOP_TEST_SWITCH_SPIN=abc "$PTOP" -b -n 1 --source=bpf-delta >/dev/null 2>"$tmp/spin.err"; then
		fail "PTOP_TEST_SWITCH_SPIN=abc was taken"
	fi
	grep -q 'PTOP_TEST_SWITCH_SPIN=abc is not a value' "$tmp/spin.err" ||
		fail "PTOP_TEST_SWITCH_SPIN=abc: $(cat "$tmp/spin.err")"
fi

# Unprivileged: the reason once on stderr, then right figures from /proc.
if command -v setpriv >/dev/null 2>&1 && id nobody >/dev/null 2>&1; then
	nobody() {
		setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups --inh-caps=-all "$@"
	}
	if nobody "$PTOP" -b -n 2 -d 0.1 -o json -p "$a" >"$tmp/nobody" 2>"$tmp/nobody.err"; then
		n=$(grep -c 'bpf: needs CAP_BPF and CAP_PERFMON; using /proc' "$tmp/nobody.err" || :)
		[ "$n" = 1 ] || fail "unprivileged: said $n times: $(cat "$tmp/nobody.err")"
		grep -q '"source":"procfs"' "$tmp/nobody" || fail "unprivileged: not from procfs"
		"$PTOP" -b -n 1 --source=procfs -o json -p "$a" >"$tmp/root"
		python3 - "$tmp/nobody" "$tmp/root" <<'PY' || failures=$((failures + 1))
import json, sys
mine = json.loads(open(sys.argv[1]).readline())["processes"][0]
root = json.loads(open(sys.argv[2]).readline())["processes"][0]
keys = ("pid", "ppid", "state", "user", "nice", "threads", "rss_kb", "vsize_kb", "utime_ticks", "stime_ticks", "start_ticks", "comm")
bad = [k for k in keys if mine[k] != root[k]]
if bad:
    print("FAIL: unprivileged frame differs in %s: %s / %s" % (bad, mine, root))
sys.exit(1 if bad else 0)
PY
		nobody "$PTOP" -b -n 1 --source=procfs -o json -p "$a" >/dev/null 2>"$tmp/quiet.err"
		[ ! -s "$tmp/quiet.err" ] || fail "--source=procfs said: $(cat "$tmp/quiet.err")"
	else
		fail "ptop as nobody failed: $(cat "$tmp/nobody.err")"
	fi
else
	echo "note: no setpriv or no user nobody: the unprivileged fallback is not tried"
fi

finish
