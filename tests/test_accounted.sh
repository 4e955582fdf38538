#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_accounted.sh: every CPU-second accounted. A process that burns
# 200 ms of CPU and ends between two frames is found again: as its reaping
# parent's CHILD% through /proc, and, with the BPF source's exit hook, as an
# exited row with its name, exit code and CPU. A shell's loop of short
# processes between frames is found again as what the kernel counted of
# its reaped children (its cutime + cstime): their rows and CHILD% through
# /proc, their rows, exited rows and the lost exits' CPU with BPF (the walk,
# and the delta auto takes). Under a churn of short processes (a python3
# loop and a sh -c true loop at hundreds of execs a second), the rows
# explain the summary's busy CPU, summed over 12 frames: within 5% through
# /proc, 2% with BPF (the walk and the delta), there beside a thousand
# sleeps that ran under a tick each, which end in the window (the walk) or
# start in it and live on (the delta). What is recorded replays the
# same. The burn waits on the child's own CPU clock, the loop on its
# shell's word that it reaped the last child, and frames are read as ptop
# writes them: no fixed sleep stands in for what the kernel counts.
set -eu

NAME=test_accounted
. "${srcdir:-.}/tests/lib.sh"
need_python "to drive the processes and read ptop's JSON"

bpf=yes
"$PTOP" -b -n 1 --source=bpf -o json >/dev/null 2>"$tmp/bpf.err" || bpf=
[ -s "$tmp/bpf.err" ] && bpf=
if [ -z "$bpf" ]; then
	partial_skip "no BPF source here ($(head -1 "$tmp/bpf.err")): /proc only"
fi
# the delta, which auto takes where it loads
delta=
if [ -n "$bpf" ]; then
	delta=bpf-delta
	"$PTOP" -b -n 1 --source=bpf-delta -o json >/dev/null 2>"$tmp/delta.err" || delta=
	[ -s "$tmp/delta.err" ] && delta=
	[ -n "$delta" ] || partial_skip "no BPF delta here ($(head -1 "$tmp/delta.err"))"
fi

# One burn: the parent forks, after ptop's second frame, a child named
# ptop-burn that runs 200 ms of CPU and exits 7; the parent reaps it at
# once. Frames are taken until two after the reaping.
burn() {
	"$PYTHON" - "$PTOP" "$1" <<'EOF'
import ctypes, json, os, subprocess, sys, time

ptop, source = sys.argv[1], sys.argv[2]
r, w = os.pipe()
parent = os.fork()
if parent == 0:
    os.close(w)
    os.read(r, 1)
    child = os.fork()
    if child == 0:
        ctypes.CDLL(None).prctl(15, b"ptop-burn", 0, 0, 0)
        t = time.process_time()
        while time.process_time() - t < 0.2:
            pass
        os._exit(7)
    os.waitpid(child, 0)
    os._exit(0)
os.close(r)
cmd = [ptop, "-b", "-d", "2", "-n", "30", "-o", "json", "--source=" + source]
p = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
frames, reaped_at = [], None
deadline = time.monotonic() + 120
for line in p.stdout:
    frames.append(json.loads(line))
    if len(frames) == 2:
        os.write(w, b"x")
    if reaped_at is None and len(frames) >= 2:
        pid, status = os.waitpid(parent, os.WNOHANG)
        if pid:
            reaped_at = len(frames)
    if reaped_at is not None and len(frames) >= reaped_at + 2:
        break
    if time.monotonic() > deadline:
        break
p.kill()
p.wait()
if reaped_at is None:
    os.waitpid(parent, 0)
    sys.exit("the burn did not end while ptop ran")
# the parent's CHILD% and the child's rows, over the frames after the trigger
child_s = row_s = 0.0
exited = []
for f in frames[2:]:
    iv = f["interval_s"]
    for r in f["processes"]:
        if r["pid"] == parent:
            child_s += r["child_cpu_pct"] / 100 * iv
        elif r["comm"] == "ptop-burn" and r["ppid"] == parent:
            row_s += r["cpu_pct"] / 100 * iv
    # this parent's child only: another test may burn under the same name
    exited += [(e, iv) for e in f.get("exited", [])
               if e["comm"] == "ptop-burn" and e["ppid"] == parent]
print(json.dumps({"child_s": child_s, "row_s": row_s,
                  "exited": [dict(e, iv=iv) for e, iv in exited]}))
EOF
}

# /proc: the reaping parent's CHILD% holds what no row showed of the child
burn procfs >"$tmp/proc.out" || fail "the /proc burn did not run: $(cat "$tmp/proc.out")"
"$PYTHON" - "$tmp/proc.out" <<'EOF' || fail "/proc: the burn is not in its parent's CHILD%"
import json, sys
d = json.loads(open(sys.argv[1]).read())
total = d["child_s"] + d["row_s"]
# under load the child's rows can show most of its 200 ms; what they did not
# show (at least 50 ms when they showed under 150 ms) is the parent's CHILD%
assert d["row_s"] >= 0.15 or d["child_s"] > 0.05, d
assert 0.12 <= total <= 0.4, "parent's CHILD%% + the child's rows: %.3f s, not ~0.2 s: %r" % (total, d)
EOF

if [ -n "$bpf" ]; then
	burn bpf >"$tmp/bpf.out" || fail "the BPF burn did not run: $(cat "$tmp/bpf.out")"
	"$PYTHON" - "$tmp/bpf.out" <<'EOF' || fail "bpf: the burn is not an exited row"
import json, sys
d = json.loads(open(sys.argv[1]).read())
ex = d["exited"]
assert len(ex) == 1, "exited rows named ptop-burn: %r" % ex
e = ex[0]
assert e["exit"]["exit_code"] == 7, e
assert 0.15e9 <= e["exit"]["cpu_ns"] <= 0.4e9, "cpu_ns %d, not ~200 ms" % e["exit"]["cpu_ns"]
assert e["exit"]["maxrss_kb"] > 0, e
share = e["cpu_pct"] / 100 * e["iv"] + d["row_s"]
assert 0.12 <= share <= 0.4, "its share of the intervals: %.3f s" % share
EOF
fi

# A loop of short processes: a shell forks and reaps N pairs (/bin/true, an
# awk that sums for some ms) on a word from the driver after ptop's second
# frame, then says "done". What the kernel counted of its reaped children
# (its cutime + cstime, from /proc/PID/stat, at the word and at "done") is
# what ptop must show of them over the frames after the word: their rows
# and, with exit records, their exited rows and the CPU of exits lost
# (machine-wide: 0 unless the ring overflowed), or without, the shell's
# CHILD%. Within 10%, and two ticks for each sum the kernel truncated to
# ticks and for each row shown of a child (its CPU taken off later in
# ticks). Frames are read until two after "done" (an exit record comes
# after the reap, often a frame late), or more while short, up to eight.
loop() {
	"$PYTHON" - "$PTOP" "$1" 60 <<'EOF'
import json, os, select, subprocess, sys, time

ptop, source, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
hz = os.sysconf("SC_CLK_TCK")
script = """read go
i=0
while [ $i -lt %d ]; do
	/bin/true
	awk 'BEGIN { for (i = 0; i < 300000; i++) s += i }'
	i=$((i + 1))
done
echo done
read end
""" % n
sh = subprocess.Popen(["sh", "-c", script], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                      text=True, bufsize=1)

def cticks():
    with open("/proc/%d/stat" % sh.pid) as f:
        v = f.read().rsplit(")", 1)[1].split()
    return int(v[13]) + int(v[14])

cmd = [ptop, "-b", "-d", "1", "-n", "120", "-o", "json", "--source=" + source]
p = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
nf, c0, c1, done_at, exits = 0, None, None, None, None
kernel = got = tol = 0.0
rows_seen = 0
deadline = time.monotonic() + 180
for line in p.stdout:
    f = json.loads(line)
    nf += 1
    if nf == 2:
        c0 = cticks()
        sh.stdin.write("go\n")
    if nf > 2:
        exits = f["accounted"]["exits"]
        iv = f["interval_s"]
        for r in f["processes"]:
            if r["pid"] == sh.pid:
                if not exits:
                    got += r["child_cpu_pct"] / 100 * iv
            elif r["ppid"] == sh.pid:
                got += r["cpu_pct"] / 100 * iv
                rows_seen += 1
        if exits:
            got += sum(e["cpu_pct"] / 100 * iv for e in f.get("exited", [])
                       if e["ppid"] == sh.pid)
            got += f["accounted"]["lost_s"]
        if done_at is None and select.select([sh.stdout], [], [], 0)[0]:
            if sh.stdout.readline() != "done\n":
                break
            c1 = cticks()
            done_at = nf
    if done_at is not None:
        kernel = (c1 - c0) / hz
        tol = 2 * (rows_seen + 1) / hz + 0.1 * kernel
        if nf >= done_at + 2 and got >= kernel - tol or nf >= done_at + 8:
            break
    if time.monotonic() > deadline:
        break
p.kill()
p.wait()
sh.stdin.write("end\n")
sh.wait()
if done_at is None:
    sys.exit("the loop did not end while ptop ran")
print("%s: the children's %.3f s, ptop's %.3f s (tolerance %.3f s, %d child rows, exits %s)" % (
    source, kernel, got, tol, rows_seen, exits))
assert kernel >= 0.1, "the loop's children ran %.3f s: too little to compare" % kernel
assert abs(got - kernel) <= tol, "not within the tolerance"
EOF
}
loop procfs || fail "/proc: the loop's children's CPU is not their rows and their shell's CHILD%"
for s in ${bpf:+bpf} $delta; do
	loop "$s" || fail "$s: the loop's children's CPU is not their rows, exited rows and lost"
done

# Sleepers: 1000 sleep processes that one shell holds (setpriv makes each
# die with it), started on "start", killed and reaped on "end"; it says "ok"
# after each. A shell starts them in seconds where Python's subprocess took a
# minute under the churn. Each ran a millisecond or two, under a tick: what
# the rows showed of them was their ticks, none, while what their exit
# records told was all of it, so their CPU was missing where they lived past
# the window's end, and counted twice, before it and in it, where they lived
# before its start. Not with /proc's churn: /proc/PID/stat tells ticks, as
# it did.
sleepers_sh='
pids=
while read -r word; do
	case $word in
	start)
		i=0
		while [ $i -lt 1000 ]; do
			setpriv --pdeathsig KILL sleep 600 &
			pids="$pids $!"
			i=$((i + 1))
		done
		;;
	end)
		kill -KILL $pids 2>/dev/null
		wait
		pids=
		;;
	esac
	echo ok
done
'
if [ -n "$bpf" ]; then
	mkfifo "$tmp/sleepers.in" "$tmp/sleepers.out"
	sh -c "$sleepers_sh" <"$tmp/sleepers.in" >"$tmp/sleepers.out" &
	kids="$kids $!"
	exec 3>"$tmp/sleepers.in" 4<"$tmp/sleepers.out"
fi
sleepers() {
	echo "$1" >&3
	read -r said <&4 && [ "$said" = ok ]
}
frames_in() {
	[ "$(wc -l <"$1")" -ge "$2" ]
}

# The churn: short processes, most of the busy CPU, summed over 12 frames;
# with $3 "before", sleepers that started before the first frame end after
# the fourth; with "after", sleepers start after the fourth and live on.
churn() {
	[ "${3:-}" != before ] || sleepers start || return 1
	"$PTOP" -b -d 1 -n 13 -o json --source="$1" >"$tmp/churn.$1.json" &
	churn_ptop=$!
	echo "$churn_ptop" >"$tmp/ptop.pid"
	churn_ok=yes
	if [ -n "${3:-}" ]; then
		wait_until frames_in "$tmp/churn.$1.json" 4 &&
			sleepers "$([ "$3" = before ] && echo end || echo start)" || churn_ok=
		[ -n "$churn_ok" ] || kill "$churn_ptop" 2>/dev/null || :
	fi
	wait "$churn_ptop" || churn_ok=
	rm -f "$tmp/ptop.pid" # waited for: its PID may be another's now
	[ "${3:-}" != after ] || sleepers end || churn_ok=
	[ -n "$churn_ok" ] || return 1
	"$PYTHON" - "$tmp/churn.$1.json" "$2" <<'EOF'
import json, sys
busy = got = 0.0
frames = [json.loads(l) for l in open(sys.argv[1])]
for f in frames[1:]:
    a = f["accounted"]
    busy += a["busy_s"]
    got += a["rows_s"] + (a["exited_s"] + a["lost_s"] if a["exits"] else a["children_s"])
share = 100 * got / busy
tol = float(sys.argv[2])
print("%s: %.1f%% of %.2f busy CPU-seconds accounted" % (sys.argv[1].split(".")[-2], share, busy))
assert abs(share - 100) <= tol, "%.1f%% accounted, not within %g%%" % (share, tol)
EOF
}
(while :; do "$PYTHON" -c 'sum(range(150000))'; done) >/dev/null 2>&1 &
kids="$kids $!"
(while :; do sh -c true; done) >/dev/null 2>&1 &
kids="$kids $!"
churn procfs 5 || fail "/proc: the churn's busy CPU is not accounted within 5%"
if [ -n "$bpf" ]; then
	churn bpf 2 before || fail "bpf: the churn's busy CPU is not accounted within 2%"
	if [ -n "$delta" ]; then
		churn bpf-delta 2 after ||
			fail "bpf-delta: the churn's busy CPU is not accounted within 2%"
	fi
	# what the exit hook costs, from the kernel's BPF statistics, when asked for
	PTOP_HOOK_COST=1 "$PTOP" -b -d 1 -n 3 -o json --source=bpf >"$tmp/hook.json" ||
		fail "PTOP_HOOK_COST=1 ptop failed"
	"$PYTHON" - "$tmp/hook.json" <<'EOF' || fail "no exit hook cost with PTOP_HOOK_COST=1"
import json, sys
c = [json.loads(l)["cost"] for l in open(sys.argv[1])][-1]
assert c["exit_hook_runs"] > 0 and c["exit_hook_ns"] > 0, c
EOF
fi

# Text is top's table unless asked (its Tasks: line counts its rows, as jc
# reads it); --exited adds the processes that ended, marked, as top's Z.
if [ -n "$bpf" ]; then
	# (Without --exited, rows are the processes listed; one that ended after it
	# was read carries its exit, "<exit N>", as a zombie does: not checked here.)
	"$PTOP" -b -d 1 -n 3 -w 512 --exited >"$tmp/exited.txt" || fail "ptop -b --exited failed"
	grep -Eq "^ *[0-9]+ .* Z +[0-9.]+ .* <exit [0-9]+>$" "$tmp/exited.txt" ||
		fail "--exited lists no exited process: $(tail -3 "$tmp/exited.txt")"
	if command -v jc >/dev/null 2>&1; then
		jc --top <"$tmp/exited.txt" >/dev/null || fail "jc --top cannot read ptop -b --exited"
	fi
fi

# What is recorded replays the same: the accounting and the exited rows.
"$PTOP" -b -d 1 -n 4 -o json --record "$tmp/churn.rec" >"$tmp/live.json" ||
	fail "recording the churn failed"
"$PTOP" -r "$tmp/churn.rec" -b -o json >"$tmp/replay.json" || fail "replaying the churn failed"
cmp -s "$tmp/live.json" "$tmp/replay.json" || fail "the replay differs from the live run"
"$PYTHON" - "$tmp/replay.json" "$bpf" <<'EOF' || fail "the replay lacks the accounting"
import json, sys
frames = [json.loads(l) for l in open(sys.argv[1])]
assert all("accounted" in f for f in frames)
assert frames[-1]["accounted"]["busy_s"] > 0
if sys.argv[2]:
    assert any(f.get("exited") for f in frames), "no exited rows recorded"
EOF
finish
