#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_held_fds.sh: batch mode holds its /proc descriptors across frames,
# with a row per thread (-H) as without: under strace(1), over six frames,
# a test process with four threads has each thread's task/TID/stat opened
# once (then re-read with pread), and its own stat and statm once each; the
# pread calls on them show every frame read them. Also that the rows are
# right: -H prints one row per thread of it. Skips (77) without strace or
# python3, where ptrace is not allowed, or where the open-file limit cannot
# hold a descriptor set for every task on the machine.
set -eu

NAME=test_held_fds
. "${srcdir:-.}/tests/lib.sh"
FRAMES=6

need strace "to see which files ptop opens and reads"
need_python "for a threaded test process"
strace -f -o /dev/null true 2>/dev/null || skip "strace cannot trace here (ptrace refused)"

hard=$(ulimit -Hn)
set -- /proc/[0-9]*/task/[0-9]*
if [ "$hard" != unlimited ] && [ "$hard" -lt $((768 + 8 * ($# + 64))) ]; then
	skip "an open-file limit of $hard cannot hold the descriptors of $# tasks"
fi

cat >"$tmp/threaded.py" <<'PY'
import threading, time
for _ in range(3):
    threading.Thread(target=time.sleep, args=(600,), daemon=True).start()
time.sleep(600)
PY
"$PYTHON" "$tmp/threaded.py" &
thr_pid=$!
kids=$thr_pid
four_threads() {
	set -- "/proc/$thr_pid/task/"[0-9]*
	[ "$#" -ge 4 ] && [ -e "$1" ]
}
wait_until four_threads || die "the test process never had four threads"

# LeakSanitizer cannot work under ptrace: a sanitizer build runs without it here.
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
	strace -f -qq -e trace=openat,pread64 -o "$tmp/trace" \
	"$PTOP" -b -H -n "$FRAMES" -d 0.05 -o csv -p "$thr_pid" --source=procfs >"$tmp/out.csv"

"$PYTHON" - "$tmp/trace" "$tmp/out.csv" "$thr_pid" "$FRAMES" <<'PY'
import collections, csv, re, sys

trace, out, pid, frames = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
opens = collections.Counter()
fd_path = {}
preads = collections.Counter()
for line in open(trace):
    m = re.search(r'openat\(\w+, "([^"]+)", [^)]*\) = (\d+)', line)
    if m:
        opens[m.group(1)] += 1
        fd_path[m.group(2)] = m.group(1)
        continue
    m = re.search(r'pread64\((\d+),', line)
    if m and m.group(1) in fd_path:
        preads[fd_path[m.group(1)]] += 1

rows = list(csv.reader(open(out)))
col = rows[0].index("pid")
tids = sorted(set(r[col] for r in rows[1:]))
assert len(rows) - 1 == 4 * frames, "want 4 rows a frame, got %d in %d" % (len(rows) - 1, frames)
assert len(tids) == 4, "want 4 thread rows of %s, got %s" % (pid, tids)
bad = []
for tid in tids:
    path = "%s/task/%s/stat" % (pid, tid)
    if opens[path] != 1:
        bad.append("%s opened %d times in %d frames" % (path, opens[path], frames))
    if preads[path] < frames:
        bad.append("%s read %d times in %d frames" % (path, preads[path], frames))
for name in ("stat", "statm"):
    path = "%s/%s" % (pid, name)
    if opens[path] != 1:
        bad.append("%s opened %d times in %d frames" % (path, opens[path], frames))
assert not bad, "; ".join(bad)
PY
finish
