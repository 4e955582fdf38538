#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_summary.sh: the processes ptop -r FILE --summary lists, against what
# the kernel counted and what the recording holds. While two ptops record a
# frame every 0.25 s (one from the frame source ptop chooses, with an exit
# hook where it can load one, one from /proc, which sees no exits), two
# children (python3) burn CPU on their own clock (0.6 s and 0.3 s) and then
# sleep; once a frame of each recording shows each child with the CPU time
# its stat says, the first is killed and a frame without it recorded; the
# second lives on past the recordings. In each summary's table the first
# child's CPU seconds are its stat's ticks (within 0.05 s) and it ended, the
# second's are its own and it did not; every row (20 at most, most CPU
# first, none left out that used more) has the CPU seconds, average and peak
# %CPU, peak RES, first and last frame times and ending that the
# recording's JSON dump gives, and each process is seen once, its exit
# record a frame late or not. Needs python3.
set -eu

NAME=test_summary
. "${srcdir:-.}/tests/lib.sh"
need_python "to burn CPU and to read the recording"

recs=
at_exit() {
	for p in $recs; do
		kill -KILL "$p" 2>/dev/null
	done
}
"$PTOP" --record "$tmp/auto.rec" -d 0.25 2>"$tmp/auto.err" &
recs=$!
"$PTOP" --record "$tmp/procfs.rec" --source procfs -d 0.25 2>"$tmp/procfs.err" &
recs="$recs $!"

# frames NAME WHAT...: the recording NAME.rec so far as JSON, asked about (below)
frames() {
	rec=$1
	shift
	"$PTOP" -r "$tmp/$rec.rec" -b -o json 2>/dev/null | "$PYTHON" -c '
import json, sys
frames = [json.loads(l) for l in sys.stdin if l.strip()]
q, args = sys.argv[1], [int(a) for a in sys.argv[2:]]
def row(f, pid):
    return next((p for p in f["processes"] if p["pid"] == pid), None)
if q == "any":  # a frame at all
    sys.exit(not frames)
if q == "ticks":  # PID TICKS: a frame shows PID with that much CPU time
    sys.exit(not any((p := row(f, args[0])) and p["utime_ticks"] + p["stime_ticks"] >= args[1]
                     for f in frames))
if q == "gone":  # PID: the last frame has no row of it
    sys.exit(not frames or row(frames[-1], args[0]) is not None)
' "$@"
}
for r in auto procfs; do
	wait_until frames $r any || die "no frame recorded in $r.rec: $(cat "$tmp/$r.err")"
done

# burn SECONDS FILE: a child that uses SECONDS of CPU, makes FILE, then sleeps
burn() {
	"$PYTHON" -c '
import sys, time
while time.process_time() < float(sys.argv[1]):
    pass
open(sys.argv[2], "w").close()
time.sleep(600)
' "$1" "$2" &
	kids="$kids $!"
}
burn 0.6 "$tmp/ended.done"
ended=$!
burn 0.3 "$tmp/alive.done"
alive=$!
wait_until test -e "$tmp/ended.done" -a -e "$tmp/alive.done" || die "the children did not burn their CPU"
wait_state "$ended" S
wait_state "$alive" S
# ticks PID: utime + stime, as stat says
ticks() {
	sed 's/.*) //' "/proc/$1/stat" | awk '{ print $12 + $13 }'
}
ended_ticks=$(ticks "$ended")
alive_ticks=$(ticks "$alive")
for r in auto procfs; do
	wait_until frames $r ticks "$ended" "$ended_ticks" ||
		die "no frame of $r.rec shows $ended's $ended_ticks ticks"
	wait_until frames $r ticks "$alive" "$alive_ticks" ||
		die "no frame of $r.rec shows $alive's $alive_ticks ticks"
done
stop "$ended"
for r in auto procfs; do
	wait_until frames $r gone "$ended" || die "no frame recorded in $r.rec after $ended ended"
done
for p in $recs; do
	kill -TERM "$p"
	st=0
	wait "$p" 2>/dev/null || st=$?
	[ "$st" = 143 ] || die "a recorder ended with status $st, not 143 (SIGTERM)"
done
recs=

for r in auto procfs; do
	TZ=UTC LC_ALL=C "$PTOP" -r "$tmp/$r.rec" --summary >"$tmp/$r.sum" ||
		die "--summary of $r.rec exited $?"
	TZ=UTC "$PTOP" -r "$tmp/$r.rec" -b -o json >"$tmp/$r.json" || die "the dump of $r.rec exited $?"
	"$PYTHON" - "$tmp/$r.json" "$tmp/$r.sum" "$(getconf CLK_TCK)" "$ended" "$ended_ticks" \
		"$alive" "$alive_ticks" <<'EOF' ||
import json, re, sys

frames = [json.loads(l) for l in open(sys.argv[1])]
summary = open(sys.argv[2]).read().split("\n")
hz = int(sys.argv[3])
ended, ended_ticks, alive, alive_ticks = map(int, sys.argv[4:8])

# what the dump says of each process: CPU from the second frame on (the
# first frame's %CPU is of the time before the range)
procs = {}
for i, f in enumerate(frames):
    last = i == len(frames) - 1
    for p in f["processes"] + f.get("exited", []):
        key = (p["pid"], p["start_ticks"])
        e = procs.setdefault(key, {"cpu": 0.0, "run": 0.0, "peak": 0.0, "res": 0,
                                   "first": f["time"][11:19], "ended": True})
        if i > 0:
            e["cpu"] += p["cpu_pct"] / 100 * f["interval_s"]
            e["run"] += f["interval_s"]
            e["peak"] = max(e["peak"], p["cpu_pct"])
        e["res"] = max(e["res"], p["rss_kb"], p.get("exit", {}).get("maxrss_kb", 0))
        e["last"] = f["time"][11:19]
        e["exit"] = "exit" in p
        e["ended"] = not last or "exit" in p or p["state"] in "ZX"
by_pid = {}
for (pid, _), e in procs.items():
    by_pid.setdefault(pid, []).append(e)

# each process once, whenever its exit record came
seen = re.search(r"^Seen: +(\d+) processes", "\n".join(summary), re.M)
assert seen and int(seen.group(1)) == len(procs), "Seen: %s, the dump %d" % (seen and seen.group(1), len(procs))
head = next(i for i, l in enumerate(summary) if re.match(r" +PID USER +COMMAND +CPU s ", l))
row_re = re.compile(r" *(\d+) (.{8}) (.{15}) +([\d.]+) +([\d.]+|-) +([\d.]+|-) +(\d+) "
                    r"(\d\d:\d\d:\d\d) (\d\d:\d\d:\d\d) (.+)$")
rows = [row_re.match(l) for l in summary[head + 1:] if l]
assert all(rows), "a row is not PID USER COMMAND CPU AVG PEAK RES FIRST LAST ENDED"
assert 0 < len(rows) <= 20 and (len(rows) == 20 or len(rows) == len(procs)), len(rows)
cpus = [float(r.group(4)) for r in rows]
assert cpus == sorted(cpus, reverse=True), "not by CPU seconds, most first"
listed = set(int(r.group(1)) for r in rows)
more = [e["cpu"] for (pid, _), e in procs.items() if pid not in listed]
assert not more or max(more) <= min(cpus) + 0.01, "one left out used %.2f s" % max(more)
for r in rows:
    pid = int(r.group(1))
    if len(by_pid[pid]) != 1:
        continue  # a PID used twice: which row is which is not told
    e = by_pid[pid][0]
    what = "%d %s" % (pid, r.group(3).strip())
    assert abs(float(r.group(4)) - e["cpu"]) <= 0.011, "%s: CPU s %s, dump %.3f" % (what, r.group(4), e["cpu"])
    if e["run"] > 0:
        assert abs(float(r.group(5)) - e["cpu"] / e["run"] * 100) <= 0.15, "%s: AVG%% %s" % (what, r.group(5))
        assert abs(float(r.group(6)) - e["peak"]) <= 0.15, "%s: PEAK%% %s, dump %.2f" % (what, r.group(6), e["peak"])
    else:
        assert r.group(5) == r.group(6) == "-", "%s: a share with no interval" % what
    assert int(r.group(7)) == e["res"], "%s: PEAK RES %s, dump %d" % (what, r.group(7), e["res"])
    assert (r.group(8), r.group(9)) == (e["first"], e["last"]), "%s: seen %s to %s, dump %s to %s" % (
        what, r.group(8), r.group(9), e["first"], e["last"])
    end = r.group(10)
    want = "exit/signal" if e["exit"] else "yes" if e["ended"] else "no"
    assert (re.match(r"(exit \d+|SIG\w+)", end) if e["exit"] else end == want), "%s: ENDED %s, want %s" % (what, end, want)

# the children: CPU seconds as the kernel counted them; the killed one ended
got = {int(r.group(1)): r for r in rows}
for pid, t, end in ((ended, ended_ticks, r"(yes|SIGKILL)"), (alive, alive_ticks, "no")):
    # on a machine busy with other work twenty others can use more: then it is
    # rightly left out of the twenty
    if pid not in got and len(rows) == 20 and min(cpus) >= t / hz - 0.05:
        print("%d (%.2f s) is not among the twenty that used most" % (pid, t / hz))
        continue
    assert pid in got, "no row of %d" % pid
    cpu = float(got[pid].group(4))
    assert abs(cpu - t / hz) <= 0.05, "%d: CPU s %.2f, its stat %.2f" % (pid, cpu, t / hz)
    assert re.fullmatch(end, got[pid].group(10)), "%d: ENDED %s" % (pid, got[pid].group(10))
assert ended_ticks / hz >= 0.55 and alive_ticks / hz >= 0.25, (ended_ticks, alive_ticks)
EOF
		fail "$r.rec: the summary's table is wrong: $(cat "$tmp/$r.sum")"
done
finish
