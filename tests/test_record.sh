#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_record.sh: recording and replaying as a user does it. Under a fork
# storm of short-lived children, `ptop -b --record FILE` prints JSON (then
# CSV with command lines, then text sorted by RES) and records at once; `ptop
# -r FILE -b` with the same display options must print the very same
# bytes, frame by frame (without -c, no command lines). --begin/--end
# pick the frames of a time range, --summary counts what the live JSON
# showed (in all, and in a range) and what recording cost, --record alone
# prints nothing and a second run appends, a directory gets a file per day
# and loses those past --keep, and replays as one recording; older formats
# read (version 2 also appended to), and bad files (a huge one too) and
# options end with a clear message and status 1 or 2. The systemd unit's
# command line records, and SIGTERM ends it as the unit expects. Needs python3.
set -eu

NAME=test_record
. "${srcdir:-.}/tests/lib.sh"
need_python "to parse ptop's output"

# A fork storm: children that live a moment each (up to 8 at once, 50 ms
# each, so that every frame catches some whatever the machine's speed), so
# frames differ in their rows.
"$PYTHON" -c '
import os, time
end = time.time() + 120
alive = 0
while time.time() < end:
    if alive >= 8:
        os.wait()
        alive -= 1
    pid = os.fork()
    if pid == 0:
        time.sleep(0.05)
        os._exit(0)
    alive += 1
' &
kids=$!

# 1. JSON live and recorded at once, replayed byte for byte.
"$PTOP" -b -o json -d 0.2 -n 15 --record "$tmp/a.rec" >"$tmp/live.json" ||
	fail "ptop -b --record exited $?"
"$PTOP" -r "$tmp/a.rec" -b -o json >"$tmp/replay.json" || fail "ptop -r -b exited $?"
"$PYTHON" - "$tmp/live.json" "$tmp/replay.json" <<'EOF' || fail "replayed JSON differs"
import json, sys
live = open(sys.argv[1], "rb").read().split(b"\n")
replay = open(sys.argv[2], "rb").read().split(b"\n")
assert len(live) == 16, "live has %d frames" % (len(live) - 1)
assert len(replay) == len(live), "replay has %d frames, live %d" % (len(replay) - 1, len(live) - 1)
pids = set()
for i, (a, b) in enumerate(zip(live, replay)):
    if a != b:
        sys.exit("frame %d differs:\n%s\n%s" % (i, a[:300], b[:300]))
    if a:
        pids.update(p["pid"] for p in json.loads(a)["processes"])
# the storm's children come and go: the frames really differ
assert len(pids) > 15 + len(json.loads(live[0])["processes"]), "no storm seen: %d pids" % len(pids)
EOF

# 1b. With counters: the first frame's processes were attached during it, and
# the replay says so ("counting") as the live frame did, byte for byte.
if "$PTOP" -b -o json --counters -d 0.2 -n 3 --record "$tmp/k.rec" >"$tmp/live-k.json" 2>"$tmp/k.err" &&
	grep -q '"counting":true' "$tmp/live-k.json"; then
	"$PTOP" -r "$tmp/k.rec" -b -o json >"$tmp/replay-k.json" || fail "ptop -r of a --counters recording exited $?"
	cmp -s "$tmp/live-k.json" "$tmp/replay-k.json" ||
		fail "a --counters recording replays otherwise: $(cmp "$tmp/live-k.json" "$tmp/replay-k.json")"
else
	partial_skip "no counters here ($(head -n 1 "$tmp/k.err")): their replay is not checked"
fi

# 2. CSV with command lines, and text sorted by RES, the same way: how a replay
# shows them is its own options', as any presenter's (-c, -s), what it shows
# is what was recorded.
"$PTOP" -b -o csv -c -d 0.2 -n 5 --record "$tmp/c.rec" >"$tmp/live.csv" || fail "csv record"
"$PTOP" -r "$tmp/c.rec" -b -o csv -c >"$tmp/replay.csv" || fail "csv replay"
cmp -s "$tmp/live.csv" "$tmp/replay.csv" || fail "replayed CSV differs"
grep -q '/' "$tmp/replay.csv" || fail "no command line in the replayed CSV"
"$PTOP" -r "$tmp/c.rec" -b -o csv >"$tmp/replay-names.csv" || fail "csv replay without -c"
head -n 1 "$tmp/replay-names.csv" | grep -q ',cmdline' && fail "a cmdline column without -c"
"$PTOP" -b -s res -d 0.2 -n 4 --record "$tmp/t.rec" >"$tmp/live.txt" || fail "text record"
"$PTOP" -r "$tmp/t.rec" -b -s res >"$tmp/replay.txt" || fail "text replay"
cmp -s "$tmp/live.txt" "$tmp/replay.txt" || fail "replayed text differs"

# 3. --begin/--end: the frames of a range, by the seconds of frame 5 and frame 9.
"$PYTHON" - "$tmp/live.json" "$tmp/range" <<'EOF'
import json, sys, datetime
frames = [json.loads(l) for l in open(sys.argv[1])]
def t(f):
    return datetime.datetime.strptime(f["time"], "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=datetime.timezone.utc)
b = t(frames[5]).replace(microsecond=0)
e = t(frames[9]).replace(microsecond=0) + datetime.timedelta(seconds=1)
# JSON's times are cut to the millisecond: a frame printed at e itself may
# have been taken up to 1 ms after it, and left out; any other is sure
want = [i for i, f in enumerate(frames) if b <= t(f) < e]
maybe = [i for i, f in enumerate(frames) if t(f) == e]
with open(sys.argv[2], "w") as out:
    out.write("%s\n%s\n%s\n%s\n" % (b.strftime("%Y-%m-%d %H:%M:%S"), e.strftime("%Y-%m-%d %H:%M:%S"),
                                     ",".join(map(str, want)), ",".join(map(str, want + maybe))))
EOF
begin=$(sed -n 1p "$tmp/range")
end=$(sed -n 2p "$tmp/range")
TZ=UTC "$PTOP" -r "$tmp/a.rec" -b -o json --begin "$begin" --end "$end" >"$tmp/range.json" ||
	fail "--begin/--end exited $?"
"$PYTHON" - "$tmp/live.json" "$tmp/range.json" "$(sed -n 3p "$tmp/range")" "$(sed -n 4p "$tmp/range")" \
	<<'EOF' || fail "--begin/--end gave other frames"
import sys
live = open(sys.argv[1], "rb").read().split(b"\n")
got = [l for l in open(sys.argv[2], "rb").read().split(b"\n") if l]
want = [[live[int(i)] for i in arg.split(",")] for arg in sys.argv[3:5]]
assert got in want, "got %d frames, want %d" % (len(got), len(want[0]))
EOF

# 4. --summary: when, the frames, and the processes the live JSON showed (PID
# and start); over --begin and --end, those of the frames -b printed for them.
TZ=UTC "$PTOP" -r "$tmp/a.rec" --summary >"$tmp/summary" || fail "--summary exited $?"
TZ=UTC "$PTOP" -r "$tmp/a.rec" --summary --begin "$begin" --end "$end" >"$tmp/summary.range" ||
	fail "--summary --begin --end exited $?"
"$PYTHON" - "$tmp/range.json" "$tmp/summary.range" <<'EOF' || fail "--summary over a range is wrong"
import json, re, sys
frames = [json.loads(l) for l in open(sys.argv[1])]
seen = set((p["pid"], p["start_ticks"]) for f in frames for p in f["processes"] + f.get("exited", []))
s = open(sys.argv[2]).read()
when = "From:     %s to %s" % (frames[0]["time"][:19].replace("T", " "), frames[-1]["time"][:19].replace("T", " "))
assert when in s and re.search(r"\b%d frames\b" % len(frames), s), "%s\n%s" % (when, s)
m = re.search(r"Seen: +(\d+) processes", s)
assert m and int(m.group(1)) == len(seen), "%s vs %d" % (m and m.group(1), len(seen))
EOF
"$PYTHON" - "$tmp/live.json" "$tmp/summary" <<'EOF' || fail "--summary is wrong"
import json, re, sys
seen = set()
times = []
for l in open(sys.argv[1]):
    f = json.loads(l)
    seen.update((p["pid"], p["start_ticks"]) for p in f["processes"] + f.get("exited", []))
    times.append(json.loads(l)["time"][:19].replace("T", " "))
s = open(sys.argv[2]).read()
assert re.search(r"\b15 frames\b", s), s
assert "From:     %s to %s" % (times[0], times[-1]) in s, s
m = re.search(r"Seen: +(\d+) processes", s)
assert m and int(m.group(1)) == len(seen), "%s vs %d" % (m and m.group(1), len(seen))
assert re.search(r"bytes per frame", s) and "Top CPU consumers" in s, s
m = re.search(r"Recorder: +([0-9.]+) ms CPU per frame to encode and write", s)
assert m and float(m.group(1)) > 0, s
EOF

# 5. --record alone prints nothing; a second run appends after the first.
"$PTOP" --record "$tmp/q.rec" -d 0.1 -n 3 >"$tmp/q.out" || fail "--record alone exited $?"
[ -s "$tmp/q.out" ] && fail "--record alone printed something"
"$PTOP" --record "$tmp/q.rec" -d 0.1 -n 2 >/dev/null || fail "second --record exited $?"
"$PTOP" -r "$tmp/q.rec" -b -o json | wc -l | grep -qx 5 || fail "appended recording is not 5 frames"

# 5b. What every recording keeps, whatever the columns shown: --record alone
# (default columns: no CGROUP, I/O, status or job control column) replays
# this shell's cgroup, container, I/O, status and job control members known,
# and as /proc has them.
"$PTOP" -r "$tmp/q.rec" -b -o json -n 1 --fields pid,cgroup,container,rchar,read_bytes,pgrp,session,tpgid,nvcsw \
	>"$tmp/q.json" || fail "replay of --record alone exited $?"
"$PYTHON" - "$tmp/q.json" "$$" <<'EOF' || fail "a recording made with the default columns lost members"
import json, sys
pid = int(sys.argv[2])
rows = [p for p in json.loads(open(sys.argv[1]).readline())["processes"] if p["pid"] == pid]
assert rows, "no row of the test's shell %d" % pid
row = rows[0]
for k in ("cgroup", "container", "io_rchar", "io_read_bytes", "pgrp", "session", "tpgid",
          "ctxsw_voluntary"):
    assert row.get(k) is not None, (k, row)
stat = open("/proc/%d/stat" % pid).read()
fields = stat[stat.rindex(")") + 2:].split()
assert (row["pgrp"], row["session"]) == (int(fields[2]), int(fields[3])), (row, fields[:6])
unified = [l.split(":", 2)[2].strip() for l in open("/proc/%d/cgroup" % pid) if l.startswith("0::")]
if unified:
    assert row["cgroup"] == unified[0], (row["cgroup"], unified)
EOF

# A reader that goes away ends the run quietly, its frame recorded all the same.
"$PTOP" -b -o json -d 0.1 -n 5 --record "$tmp/p.rec" | head -c 10 >/dev/null
n=$("$PTOP" -r "$tmp/p.rec" -b -o json | wc -l) || n=0
[ "$n" -ge 1 ] || fail "a closed pipe lost the frame's record"

# 6. A directory: today's file, an old one removed by --keep, other files left alone.
mkdir "$tmp/dir"
cp "$tmp/q.rec" "$tmp/dir/ptop-2000-01-01.rec"
echo keep >"$tmp/dir/notes.txt"
"$PTOP" --record "$tmp/dir" --keep 2 -d 0.1 -n 2 || fail "--record DIR exited $?"
today=$(date +%Y-%m-%d)
[ -f "$tmp/dir/ptop-$today.rec" ] || fail "no file for today in the directory"
[ -e "$tmp/dir/ptop-2000-01-01.rec" ] && fail "--keep 2 left a file of 2000"
[ -f "$tmp/dir/notes.txt" ] || fail "--keep removed a file that is not a recording"
"$PTOP" -r "$tmp/dir/ptop-$today.rec" -b -o json | wc -l | grep -qx 2 || fail "day file is not 2 frames"

# 6b. A directory replays as one recording, its days in order: two runs a
# day apart in local time (TZ) give two files; the replay prints what both
# printed live, --begin/--end pick frames across the two, --summary counts all.
mkdir "$tmp/days"
TZ=UTC+12 "$PTOP" -b -o json -d 1.5 -n 3 --record "$tmp/days" >"$tmp/days1.json" || fail "day 1 exited $?"
TZ=UTC-14 "$PTOP" -b -o json -d 1.5 -n 3 --record "$tmp/days" >"$tmp/days2.json" || fail "day 2 exited $?"
[ "$(ls "$tmp/days" | wc -l)" = 2 ] || fail "two days should make two files: $(ls "$tmp/days")"
cat "$tmp/days1.json" "$tmp/days2.json" >"$tmp/days.json"
"$PTOP" -r "$tmp/days" -b -o json >"$tmp/days.out" 2>"$tmp/err" || fail "-r DIR exited $?: $(cat "$tmp/err")"
cmp -s "$tmp/days.json" "$tmp/days.out" || fail "-r DIR does not print the frames both days printed"
# frames are 1.5 s apart: frame 2's second begins after frame 1, frame 4's next second ends before 5
range=$("$PYTHON" - "$tmp/days.json" <<'EOF'
import datetime, json, sys
t = [json.loads(l)["time"][:19] for l in open(sys.argv[1])]
e = datetime.datetime.strptime(t[4], "%Y-%m-%dT%H:%M:%S") + datetime.timedelta(seconds=1)
print(t[2].replace("T", " ") + "|" + e.strftime("%Y-%m-%d %H:%M:%S"))
EOF
)
TZ=UTC "$PTOP" -r "$tmp/days" -b -o json --begin "${range%|*}" --end "${range#*|}" >"$tmp/days.range" ||
	fail "-r DIR --begin/--end exited $?"
sed -n 3,5p "$tmp/days.json" | cmp -s - "$tmp/days.range" ||
	fail "-r DIR --begin ${range%|*} --end ${range#*|}: not frames 2 to 4 across the days"
"$PTOP" -r "$tmp/days" --summary >"$tmp/days.sum" || fail "-r DIR --summary exited $?"
grep -q ' 6 frames$' "$tmp/days.sum" || fail "-r DIR --summary: $(cat "$tmp/days.sum")"
mkdir "$tmp/nodays"
echo x >"$tmp/nodays/notes.txt"

# 7. Bad files: status 1 and a message; bad options: status 2.
expect() { # STATUS WORDS CMD...
	want=$1 words=$2
	shift 2
	set +e
	"$@" >"$tmp/out" 2>"$tmp/err"
	got=$?
	set -e
	[ "$got" -eq "$want" ] || fail "$* exited $got, not $want"
	grep -q "^ptop: .*$words" "$tmp/err" || fail "$*: no '$words' in: $(cat "$tmp/err")"
}
: >"$tmp/empty.rec"
expect 1 "empty" "$PTOP" -r "$tmp/empty.rec" -b
expect 1 "not a ptop recording" "$PTOP" -r /etc/passwd -b
expect 1 "No such file" "$PTOP" -r "$tmp/none.rec" -b
expect 1 "not a ptop recording" "$PTOP" -r "$tmp/empty.rec" --summary -r /etc/passwd
# a newer format by its version and that field's CRC-32 (at byte 252), a damaged one without
"$PYTHON" -c 'import sys, zlib
b = bytearray(open(sys.argv[1], "rb").read())
b[8] = 99
b[252:256] = zlib.crc32(bytes(b[8:16])).to_bytes(4, "little")
open(sys.argv[2], "wb").write(b)
b[8] = 3 ^ 0x40
open(sys.argv[3], "wb").write(b)' "$tmp/q.rec" "$tmp/v2.rec" "$tmp/flip.rec"
expect 1 "newer ptop" "$PTOP" -r "$tmp/v2.rec" -b
expect 1 "newer ptop" "$PTOP" --record "$tmp/v2.rec" -n 1
expect 1 "corrupt header: its version field (67) is damaged" "$PTOP" -r "$tmp/flip.rec" -b
expect 1 "corrupt header: its version field (67) is damaged" "$PTOP" --record "$tmp/flip.rec" -n 1
head -c 100 "$tmp/q.rec" >"$tmp/cut.rec"
expect 1 "truncated header" "$PTOP" -r "$tmp/cut.rec" --summary
expect 1 "no recorded frames" "$PTOP" -r "$tmp/nodays" -b
# a day file that is a link to its directory is read as a file, not followed round
mkdir "$tmp/loop"
ln -s . "$tmp/loop/ptop-2030-01-01.rec"
expect 1 "a directory, not a regular file: not read" "$PTOP" -r "$tmp/loop" --summary
cp "$tmp/cut.rec" "$tmp/days/ptop-2001-01-01.rec"
expect 1 "truncated header" "$PTOP" -r "$tmp/days" --summary
expect 2 "need -r" "$PTOP" -b --begin 10:00
expect 2 "do not go together" "$PTOP" -r "$tmp/q.rec" --record "$tmp/x.rec"
expect 2 "needs --record" "$PTOP" -b --keep 3
expect 2 "not a time" "$PTOP" -r "$tmp/q.rec" -b --begin 25:99
expect 2 "not a time" "$PTOP" -r "$tmp/q.rec" --summary --end 25:99
expect 2 "need -b or --summary" "$PTOP" -r "$tmp/q.rec" --begin 10:00
# an empty range is an error, saying what the recording spans; times past 2262 are no times
expect 1 "no frame between .* and 2000-01-01 00:00:00; the recording spans " \
	"$PTOP" -r "$tmp/q.rec" --summary --end 2000-01-01
expect 1 "no frame between 2030-01-01 00:00:00 and .*; the recording spans " \
	"$PTOP" -r "$tmp/q.rec" -b --begin 2030-01-01
[ -s "$tmp/out" ] && fail "an empty range printed frames"
expect 1 "no frame between" "$PTOP" -r "$tmp/dir" -b --begin 2030-01-01 --end 2030-01-02
expect 2 "--begin: '2300-01-01' is out of the times a recording holds" \
	"$PTOP" -r "$tmp/q.rec" -b --begin 2300-01-01
expect 2 "--end: '9999-12-31 23:59' is out of the times" "$PTOP" -r "$tmp/q.rec" --summary --end "9999-12-31 23:59"
# huge files: one that is not a recording is refused by its first bytes; a
# recording followed by a long run of zeros (what a crash can leave on some
# file systems) reads back to its last frame
echo 'not a recording' >"$tmp/huge.rec"
truncate -s 1G "$tmp/huge.rec"
expect 1 "not a ptop recording" "$PTOP" -r "$tmp/huge.rec" -b
cp "$tmp/q.rec" "$tmp/zeros.rec"
truncate -s 64M "$tmp/zeros.rec"
"$PTOP" -r "$tmp/zeros.rec" -b -o json | wc -l | grep -qx 5 ||
	fail "a recording with a tail of zeros does not replay its 5 frames"
# an older format is read, never appended to
cp "${srcdir:-.}/tests/fixtures/record/v1.rec" "$tmp/v1.rec"
expect 1 "format version 1" "$PTOP" -b -n 1 --record "$tmp/v1.rec"
"$PTOP" -r "$tmp/v1.rec" -b -o json >"$tmp/out" 2>"$tmp/err" || fail "v1.rec no longer reads: $(cat "$tmp/err")"
"$PTOP" -r "$tmp/v1.rec" --summary >"$tmp/out" || fail "--summary of v1.rec exited $?"
grep -q "^Recorder: cost not recorded (format version 1;" "$tmp/out" ||
	fail "--summary of v1.rec: $(cat "$tmp/out")"
# version 2 is appended to as version 2, and reads back whole
cp "${srcdir:-.}/tests/fixtures/record/v2.rec" "$tmp/v2a.rec"
"$PTOP" -n 2 -d 0.1 --record "$tmp/v2a.rec" || fail "appending to v2.rec exited $?"
"$PTOP" -r "$tmp/v2a.rec" --summary >"$tmp/out" || fail "--summary of v2.rec appended to exited $?"
grep -q "format version 2)" "$tmp/out" && grep -q ' 67 frames$' "$tmp/out" ||
	fail "v2.rec appended to: $(cat "$tmp/out")"

# 8. The systemd unit's command line records into its directory, writing
# nothing; SIGTERM (systemctl stop) ends it with status 143, which the unit
# counts as success, its frames readable.
unit="${builddir:-.}/doc/ptop-record.service"
args=$(sed -n 's|^ExecStart=[^ ]*/ptop ||p' "$unit" | sed "s|/var/log/ptop|$tmp/unit|")
grep -q '^SuccessExitStatus=SIGTERM$' "$unit" || fail "the unit does not count SIGTERM as success"
mkdir "$tmp/unit"
# shellcheck disable=SC2086
"$PTOP" $args -n 1 >"$tmp/unit.out" 2>&1 || fail "the unit's ptop $args: status $?, $(cat "$tmp/unit.out")"
[ -s "$tmp/unit.out" ] && fail "the unit's ptop $args wrote: $(cat "$tmp/unit.out")"
# shellcheck disable=SC2086
"$PTOP" $args -d 0.1 >"$tmp/unit.out" 2>&1 &
unit_pid=$!
at_exit() {
	[ -z "$unit_pid" ] || kill -KILL "$unit_pid" 2>/dev/null
}
unit_frames() {
	"$PTOP" -r "$tmp/unit" --summary 2>/dev/null | sed -n 's/.* \([0-9][0-9]*\) frames$/\1/p'
}
three_frames() { [ "$(unit_frames)" -ge 3 ] 2>/dev/null; }
wait_until three_frames || :
kill -TERM "$unit_pid"
st=0
wait "$unit_pid" 2>/dev/null || st=$? # no "Terminated" from the shell
unit_pid=
[ "$st" = 143 ] || fail "SIGTERM: the unit's ptop ended with status $st, not 143"
[ "$(unit_frames)" -ge 3 ] 2>/dev/null || fail "the unit's recording has $(unit_frames) frames, not 3 or more"

finish
