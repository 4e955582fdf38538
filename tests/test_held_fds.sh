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

: "${PTOP:?PTOP must name the ptop binary}"

DEADLINE=${DEADLINE:-30}
FRAMES=6

command -v strace >/dev/null 2>&1 || {
	echo "SKIP: strace is not installed"
	exit 77
}
command -v python3 >/dev/null 2>&1 || {
	echo "SKIP: python3 is needed for a threaded test process"
	exit 77
}
PYTHON=$(python3 -c 'import sys; print(sys.executable or "python3")') || PYTHON=python3
strace -f -o /dev/null true 2>/dev/null || {
	echo "SKIP: strace cannot trace here (ptrace refused)"
	exit 77
}

# ptop holds descriptors up to its open-file limit (raised to the hard limit)
# less a reserve of 768, first come first served over every task on the
# machine: under a low hard limit (1024 is common) the test process, started
# last, gets none and its files are opened each frame, as designed. A few
# descriptors a task, with room for tasks that come meanwhile.
hard=$(ulimit -Hn)
set -- /proc/[0-9]*/task/[0-9]*
if [ "$hard" != unlimited ] && [ "$hard" -lt $((768 + 8 * ($# + 64))) ]; then
	echo "SKIP: an open-file limit of $hard cannot hold the descriptors of $# tasks"
	exit 77
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptop-heldfds.XXXXXX")
thr_pid=
cleanup() {
	if [ -n "$thr_pid" ]; then
		kill "$thr_pid" 2>/dev/null || :
		wait "$thr_pid" 2>/dev/null || :
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

cat >"$tmp/threaded.py" <<'PY'
import threading, time
for _ in range(3):
    threading.Thread(target=time.sleep, args=(600,), daemon=True).start()
time.sleep(600)
PY
"$PYTHON" "$tmp/threaded.py" &
thr_pid=$!
i=0
while :; do
	set -- "/proc/$thr_pid/task/"[0-9]*
	[ "$#" -ge 4 ] && [ -e "$1" ] && break
	[ "$i" -ge $((DEADLINE * 10)) ] && {
		echo "FAIL: the test process never had four threads" >&2
		exit 1
	}
	sleep 0.1
	i=$((i + 1))
done

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
