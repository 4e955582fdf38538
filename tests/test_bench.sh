#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_bench.sh: `ptop bench` driven as a user (or the TUI's Bench pane)
# drives it: `list` names every benchmark; `status` and `breakpoint-thread`
# with tiny parameters and --format=json print JSON lines that python3 parses
# and checks for shape and sanity (type, params, results with value and unit,
# times > 0, progress lines in [0, 1] before the result, a sweep's series);
# `rdpmc`'s read() row has TSC ticks > 0 and its rdpmc rows are figures or are
# listed under "unavailable" with a reason (this VM has no PMU);
# the default format has perf bench's lines; bad options exit with status 2.
# synthesize: JSON and perf's lines, and its --output stream read back by
# `perf script` where perf is installed (that part skipped, saying so, if not),
# also from a fixture tree given as --proc-root.
# Skips (77) without python3. Where the machine lacks what one benchmark
# needs (hardware breakpoints, a PMU), that benchmark's checks are skipped
# and the test says so on a line starting "test_bench: partial skip:", while
# the rest is checked. make check sets PTOP.

NAME=test_bench
. "${srcdir:-.}/tests/lib.sh"
need_python "to read ptop bench's JSON lines"

# check NAME PYTHON-CHECK: run the check on the JSON lines in $tmp/out.
check() {
	"$PYTHON" - "$tmp/out" "$2" "$1" <<'EOF' || fail "$1"
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
assert lines, "no output"
for l in lines:
    assert l["type"] in ("progress", "result", "skipped", "error"), l
res = lines[-1]
prog = [l["progress"] for l in lines if l["type"] == "progress"]
assert all(0 <= p <= 1 for p in prog) and prog == sorted(prog), prog
if res["type"] == "skipped":
    print("test_bench: partial skip: %s: %s" % (sys.argv[3], res["message"]))
    sys.exit(0)
assert res["type"] == "result", res
assert isinstance(res["params"], dict) and res["params"]["repeat"] >= 1, res
counts = ("IPIs", "switches", "migrations", "IPIs/op")
for k, v in res["results"].items():
    assert set(v) >= {"value", "unit"}, (k, v)
    assert isinstance(v["value"], (int, float)), (k, v)
    assert v["value"] >= 0 if v["unit"] in counts else v["value"] > 0, (k, v)
    if "samples" in v:
        assert v["min"] <= v["median"] <= v["max"] and v["samples"] >= 1, (k, v)
        assert isinstance(v["bimodal"], bool) and v["of"], (k, v)
exec(sys.argv[2])
EOF
}

# list: one line per benchmark, name then summary.
"$PTOP" bench list >"$tmp/out" 2>"$tmp/err" || fail "bench list exited $?"
for name in status breakpoint-thread breakpoint-enable rdpmc; do
	grep -q "^$name " "$tmp/out" || fail "bench list lacks $name"
done

# status, JSON.
"$PTOP" bench status --loops 200 --format=json >"$tmp/out" 2>"$tmp/err" ||
	fail "bench status exited $?: $(cat "$tmp/err")"
check "status json" '
assert res["name"] == "status" and res["params"]["loops"] == 200, res
for f in ("status", "stat", "statm"):
    for m in ("open_read_close", "pread"):
        assert res["results"][f + "_" + m]["unit"] == "usecs/op", res
assert "series" not in res
'

# status with threads, a path and progress lines.
"$PTOP" bench status --loops 50 --threads 2 --path /proc/self/stat -r 2 --format=json \
	--progress >"$tmp/out" 2>"$tmp/err" || fail "bench status --threads exited $?"
check "status threads json" '
assert len(prog) >= 2 and prog[0] == 0 and prog[-1] == 1, prog
assert set(res["results"]) == {"path_open_read_close", "path_pread", "path_bytes", "ops"}, res
assert res["params"]["path"] == "/proc/self/stat" and res["params"]["threads"] == 2, res
'

# breakpoint-thread, JSON, then a sweep.
"$PTOP" bench breakpoint-thread --breakpoints=1 --parallelism=1 --threads=2 -r 2 \
	--format=json >"$tmp/out" 2>"$tmp/err" || fail "bench breakpoint-thread exited $?"
check "breakpoint-thread json" '
r = res["results"]
assert r["usecs_per_op"]["unit"] == "usecs/op" and r["total_time"]["unit"] == "sec", r
assert res["params"] == {"breakpoints": 1, "parallelism": 1, "threads": 2, "sweep": False,
                         "repeat": 2}, res["params"]
'
"$PTOP" bench breakpoint-thread --breakpoints=0 --sweep -r 1 --format=json --progress \
	>"$tmp/out" 2>"$tmp/err" || fail "bench breakpoint-thread --sweep exited $?"
cpus=$(getconf _NPROCESSORS_ONLN)
check "breakpoint-thread sweep json" "
s = {x['name']: x for x in res['series']}
assert [p['x'] for p in s['breakpoints']['points']][:2] == [0, 1], s
assert len(s['threads']['points']) == 2 * $cpus, s
assert all(p['value'] > 0 for x in s.values() for p in x['points']), s
"

# rdpmc, JSON: the read() row has TSC ticks > 0 (percentiles around the median);
# each rdpmc row is measured the same way or listed as unavailable with a reason.
"$PTOP" bench rdpmc --runs 8 -r 1 --format=json >"$tmp/out" 2>"$tmp/err" ||
	fail "bench rdpmc exited $?: $(cat "$tmp/err")"
"$PYTHON" - "$tmp/out" <<'EOF2' || fail "rdpmc json"
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
assert len(lines) == 1, lines
res = lines[0]
if res["type"] == "skipped":
    print("test_bench: partial skip: rdpmc json: %s" % res["message"])
    sys.exit(0)
assert res["type"] == "result" and res["name"] == "rdpmc", res
assert res["params"] == {"runs": 8, "event": "instructions", "repeat": 1}, res["params"]
r, gone = res["results"], res.get("unavailable", {})
def measured(key):
    lo, mid, hi = (r[key + s]["value"] for s in ("_p10", "", "_p90"))
    assert r[key]["unit"] == "TSC ticks" and 0 < lo <= mid <= hi, (key, lo, mid, hi)
measured("read_syscall")
assert r["runs"]["value"] == 8, r["runs"]
for key in ("rdpmc_cold", "rdpmc_warm"):
    assert (key in r) != (key in gone), key
    if key in r:
        measured(key)
    else:
        assert gone[key]["unit"] == "TSC ticks" and gone[key]["reason"], gone[key]
        print("test_bench: partial skip: rdpmc json, %s: %s" % (key, gone[key]["reason"]))
EOF2
"$PTOP" bench rdpmc --runs 4 -r 1 >"$tmp/out" 2>"$tmp/err" || fail "bench rdpmc text exited $?"
if ! grep -q "^Skipping" "$tmp/out"; then
	grep -Eq '^ +[0-9]+\.[0-9]{6} TSC ticks  read\(\) syscall on the [a-z-]+ fd$' "$tmp/out" ||
		fail "rdpmc text has no read() row: $(cat "$tmp/out")"
	[ "$(grep -Ec 'rdpmc, page (cold|pre-faulted)' "$tmp/out")" = 2 ] ||
		fail "rdpmc text lacks an rdpmc row: $(cat "$tmp/out")"
else
	partial_skip "rdpmc text:" "$(grep "^Skipping" "$tmp/out")"
fi

# The default format speaks perf bench's lines.
"$PTOP" bench breakpoint-enable --passive=1 >"$tmp/out" 2>"$tmp/err" ||
	fail "bench breakpoint-enable exited $?"
if ! grep -q "^Skipping" "$tmp/out"; then
	for pattern in "^# Running 'breakpoint/enable' benchmark:\$" \
		"^# Enabled/disabled breakpoint 10 time with 1 passive and 0 active threads\$" \
		'^ +Total time: [0-9]+\.[0-9]{3} \[sec\]$' '^ +[0-9]+\.[0-9]{6} usecs/op$'; do
		grep -Eq "$pattern" "$tmp/out" || fail "no '$pattern' in: $(cat "$tmp/out")"
	done
else
	partial_skip "breakpoint-enable text:" "$(grep "^Skipping" "$tmp/out")"
fi
"$PTOP" bench status --loops 10 -r 1 --format=simple >"$tmp/out" 2>"$tmp/err" ||
	fail "bench status --format=simple exited $?"
# where perf has no such benchmark, simple prints labelled values, nothing bare
if [ "$(grep -Ec '^[a-z_]+ [0-9]+\.[0-9]+ usecs/op$' "$tmp/out")" != 6 ] ||
	grep -Eq '^[0-9.]+$' "$tmp/out"; then
	fail "simple format: $(cat "$tmp/out")"
fi

# Every figure that repeats has its spread: min, median, max over its samples.
"$PTOP" bench status --loops 20 -r 5 --format=json >"$tmp/out" 2>"$tmp/err" ||
	fail "bench status -r 5 exited $?"
check "status spread json" '
for k in ("status_open_read_close", "statm_pread"):
    v = res["results"][k]
    assert v["samples"] == 5 and v["of"] == "runs" and v["median"] == v["value"], v
assert any("not pinned" in n for n in res["notes"]), res["notes"]
'
"$PTOP" bench status --loops 20 -r 5 >"$tmp/out" 2>"$tmp/err" || fail "bench status exited $?"
grep -Eq '^# /proc/self/status: open\+read\+close: min [0-9.]+, median [0-9.]+, max [0-9.]+ usecs/op over 5 runs$' \
	"$tmp/out" || fail "status text has no spread line: $(cat "$tmp/out")"

# The breakpoint benchmarks: spread over blocks, and the causes counted while timed.
"$PTOP" bench breakpoint-enable --active=1 -r 40 --format=json >"$tmp/out" 2>"$tmp/err" ||
	fail "bench breakpoint-enable exited $?"
check "breakpoint-enable causes json" '
r, notes = res["results"], res["notes"]
v = r["usecs_per_op"]
assert v["samples"] == 40 and v["of"] == "flips", v
assert v["min"] <= v["value"] * 40, v
gone = res.get("unavailable", {})
for k in ("ipis", "context_switches", "migrations"):
    assert (k in r) != (k in gone), k
assert any(n.startswith("during the timed part: ") for n in notes), notes
if "ipis" in r:
    assert any(n.startswith(("cross-CPU mode", "same-CPU mode")) for n in notes), notes
assert ("bimodal" in v and v["bimodal"]) == any("BIMODAL" in n for n in notes), (v, notes)
'
for r in "200 blocks of 2 flips" "250 blocks of 2-3 flips"; do
	"$PTOP" bench breakpoint-enable -r "${r%% *}" --format=json >"$tmp/out" 2>"$tmp/err" ||
		fail "bench breakpoint-enable -r ${r%% *} exited $?"
	check "breakpoint-enable blocks json" "
v = res['results']['usecs_per_op']
assert v['samples'] == 100 and v['of'] == '${r#* }', v
"
done
"$PTOP" bench breakpoint-thread --threads=2 -r 30 --format=json >"$tmp/out" 2>"$tmp/err" ||
	fail "bench breakpoint-thread exited $?"
check "breakpoint-thread spread json" '
v = res["results"]["usecs_per_op"]
assert v["samples"] == 30 and v["of"].startswith("batches"), v
'

# --cpu pins the benchmark (all its threads) as taskset would, and says so.
"$PTOP" bench status --loops 10 -r 1 --cpu 0 --format=json >"$tmp/out" 2>"$tmp/err" ||
	fail "bench status --cpu 0 exited $?: $(cat "$tmp/err")"
check "status --cpu json" '
assert res["params"]["cpu"] == "0", res["params"]
assert "pinned to CPUs 0 (--cpu)" in res["notes"], res["notes"]
'
"$PTOP" bench breakpoint-thread --cpu 0 --threads=2 -r 1000000 >/dev/null 2>&1 &
bpid=$!
# Threads first, then the affinity: read before them, it could be the shell's
# from before the exec (seen under load: '0-1').
for _ in $(seq 300); do
	# shellcheck disable=SC2012 # task/ holds numbers only
	[ "$(ls "/proc/$bpid/task" 2>/dev/null | wc -l)" -gt 1 ] && break
	sleep 0.1
done
allowed=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "/proc/$bpid/status" 2>/dev/null)
for t in /proc/"$bpid"/task/*; do
	a=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "$t/status" 2>/dev/null)
	[ -z "$a" ] || [ "$a" = 0 ] || fail "thread $t of a --cpu 0 run may run on CPUs $a"
done
kill "$bpid" 2>/dev/null
wait "$bpid" 2>/dev/null
[ "$allowed" = 0 ] || fail "a --cpu 0 run may run on CPUs '$allowed'"
for bad in "" "x" "1-0" "0," "99999"; do
	"$PTOP" bench status --loops 1 -r 1 --cpu="$bad" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ "$rc" = 2 ] || fail "'ptop bench status --cpu=$bad' exited $rc, not 2"
	grep -q "cannot pin" "$tmp/err" || fail "--cpu=$bad: $(cat "$tmp/err")"
done

# Bad usage: status 2, a message on stderr, nothing on stdout.
for args in "status --loops=0" "status --loops" "status --bogus" "status --format=xml" \
	"status -r 0" "nope" "breakpoint-thread --threads=x" "breakpoint-enable --passive=-1" \
	"list extra" ""; do
	# shellcheck disable=SC2086 # split on purpose
	"$PTOP" bench $args >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ "$rc" = 2 ] || fail "'ptop bench $args' exited $rc, not 2"
	[ -s "$tmp/err" ] || fail "'ptop bench $args' said nothing on stderr"
done
"$PTOP" bench status --help >"$tmp/out" 2>&1 || fail "bench status --help exited $?"
grep -q -- "--loops" "$tmp/out" || fail "bench status --help lacks --loops"

# synthesize: perf bench internals synthesize's figures, -s and -t, in JSON.
"$PTOP" bench synthesize -s -i 3 --format=json >"$tmp/out" 2>"$tmp/err" ||
	fail "bench synthesize -s exited $?: $(cat "$tmp/err")"
check "synthesize -s json" '
r = res["results"]
for k in ("st", "st_data"):
    assert r[k + "_usec"]["unit"] == "usec", r
    assert r[k + "_usec_per_event"]["unit"] == "usec/event", r
    assert r[k + "_events"]["value"] >= 2, r
assert r["st_data_events"]["value"] > r["st_events"]["value"], r
assert not [k for k in r if k.startswith("mt_")], r
assert res["params"]["iterations"] == 3 and res["params"]["st"] is True, res["params"]
assert res["params"]["reopen"] is False, res["params"]
assert res["params"]["like-perf"] is False, res["params"]
assert any("held open" in n and "--like-perf" in n for n in res["notes"]), res["notes"]
assert r["st_usec"]["samples"] == 3 and r["st_data_usec"]["samples"] == 3, r
'
"$PTOP" bench synthesize -t -m 1 -M 2 -I 1 --format=json --progress >"$tmp/out" 2>"$tmp/err" ||
	fail "bench synthesize -t exited $?: $(cat "$tmp/err")"
check "synthesize -t json" '
r = res["results"]
assert prog and prog[-1] == 1, prog
assert r["mt_processes"]["value"] >= 1, r
for t in (1, 2):
    assert r["mt_%d_threads" % t]["value"] == t, r
    assert r["mt_%d_usec_per_event" % t]["unit"] == "usec/event", r
    assert r["mt_%d_events" % t]["value"] >= 2 * r["mt_processes"]["value"] * 0.9, r
assert not [k for k in r if k.startswith("st_")], r
assert r["mt_1_opens"]["value"] >= r["mt_processes"]["value"], r
assert r["mt_1_dirreads"]["value"] >= 1, r
assert any(" opens and " in n and " directory reads " in n for n in res["notes"]), res
import re
ours = [n for n in res["notes"] if n.startswith("every process (")][0]
perfs = [n for n in res["notes"] if n.startswith("perf\x27s method, for the same processes")][0]
o = [float(x) for x in re.findall(r"([0-9]+) opens and ([0-9]+) directory reads", ours)[0]]
p = [float(x) for x in re.findall(r"least ([0-9]+) opens and ([0-9]+) directory", perfs)[0]]
# the same records from fewer directory reads: task/ only where there are threads
assert p[1] > o[1] and p[0] >= r["mt_processes"]["value"], (ours, perfs)
'

# ... and in perf's own lines.
"$PTOP" bench synthesize -s -i 2 >"$tmp/out" 2>"$tmp/err" || fail "bench synthesize exited $?"
for pattern in "^# Running 'internals/synthesize' benchmark:\$" \
	'^  Average synthesis took: [0-9]+\.[0-9]{3} usec \(\+- [0-9]+\.[0-9]{3} usec\)$' \
	'^  Average num\. events: [0-9]+\.[0-9]{3} \(\+- [0-9]+\.[0-9]{3}\)$' \
	'^  Average time per event [0-9]+\.[0-9]{3} usec$' \
	'^# comm and maps held open and re-read with pread .*--like-perf does perf.s file work$' \
	'^  Average data synthesis took: [0-9]+\.[0-9]{3} usec'; do
	grep -Eq "$pattern" "$tmp/out" || fail "no '$pattern' in: $(cat "$tmp/out")"
done
"$PTOP" bench synthesize -s -i 2 --reopen >"$tmp/out" 2>"$tmp/err" ||
	fail "bench synthesize --reopen exited $?: $(cat "$tmp/err")"
grep -q '^# --reopen: comm and maps opened and closed every run, as perf does' "$tmp/out" ||
	fail "synthesize --reopen does not say so: $(cat "$tmp/out")"
grep -Eq '^  Average data synthesis took: [0-9]+\.[0-9]{3} usec' "$tmp/out" ||
	fail "synthesize --reopen: no data figure in: $(cat "$tmp/out")"
for args in "--min-threads=0" "-i x" "-t -m 3 -M 2" "--output" "-t --proc-root=/nonexistent"; do
	# shellcheck disable=SC2086 # split on purpose
	"$PTOP" bench synthesize $args >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ "$rc" != 0 ] || fail "'ptop bench synthesize $args' exited 0"
	[ -s "$tmp/err" ] || fail "'ptop bench synthesize $args' said nothing on stderr"
done

# The --output stream, read back by perf itself where it is installed.
if command -v perf >/dev/null 2>&1; then
	"$PTOP" bench synthesize -s -i 1 -o "$tmp/synth.data" >"$tmp/out" 2>"$tmp/err" &
	pid=$!
	wait "$pid" || fail "bench synthesize -o exited $?: $(cat "$tmp/err")"
	if perf script -i "$tmp/synth.data" --show-task-events --show-mmap-events \
		>"$tmp/script" 2>"$tmp/err"; then
		grep -Eq "PERF_RECORD_COMM: .*:$pid/$pid\$" "$tmp/script" ||
			fail "perf script shows no COMM of pid $pid: $(head -5 "$tmp/script")"
		grep -q "PERF_RECORD_MMAP2 $pid/$pid: " "$tmp/script" ||
			fail "perf script shows no MMAP2 of pid $pid: $(head -5 "$tmp/script")"
	else
		fail "perf script -i synth.data exited $?: $(cat "$tmp/err")"
	fi
	# Through a pipe, as perf record -o - | perf script -i - (the report on stderr).
	"$PTOP" bench synthesize -t -m 1 -M 1 -I 1 -o - 2>"$tmp/err" |
		perf script -i - --show-task-events --show-mmap-events >"$tmp/script" 2>"$tmp/err2" ||
		fail "ptop bench synthesize -o - | perf script -i - failed: $(cat "$tmp/err2")"
	grep -q "PERF_RECORD_FORK" "$tmp/script" || fail "perf script -i - shows no FORK"
	grep -q "PERF_RECORD_MMAP2" "$tmp/script" || fail "perf script -i - shows no MMAP2"
	grep -q "Average synthesis took" "$tmp/err" || fail "no report on stderr with -o -"
	# --proc-root: a fixture tree's process and its second thread, nothing of /proc.
	cp -r "${srcdir:-.}/tests/fixtures/threaded/proc" "$tmp/root"
	mkdir -p "$tmp/root/9789/task/9789" "$tmp/root/9789/task/9790"
	echo ptop-mt >"$tmp/root/9789/task/9789/comm"
	echo worker-b >"$tmp/root/9789/task/9790/comm"
	"$PTOP" bench synthesize -t -m 1 -M 1 -I 1 --proc-root="$tmp/root" -o - 2>"$tmp/err" |
		perf script -i - --show-task-events --show-mmap-events >"$tmp/script" 2>"$tmp/err2" ||
		fail "synthesize --proc-root | perf script failed: $(cat "$tmp/err" "$tmp/err2")"
	grep -q "PERF_RECORD_COMM: worker-b:9789/9790" "$tmp/script" ||
		fail "synthesize --proc-root: no COMM of the fixture's thread: $(cat "$tmp/script")"
	grep -q "PERF_RECORD_MMAP2 9789/9789: .* r-xp .*/libc.so.6" "$tmp/script" ||
		fail "synthesize --proc-root: no MMAP2 of the fixture's libc: $(cat "$tmp/script")"
	[ "$(grep -c PERF_RECORD_FORK "$tmp/script")" = 2 ] ||
		fail "synthesize --proc-root: not 2 FORKs (one process, two threads): $(cat "$tmp/script")"
else
	partial_skip "perf script on synthesize --output:" "perf is not installed"
fi

# The default and simple formats are perf bench's own lines, for every
# benchmark perf has: the same lines in the same order once the numbers (and
# the padding %14lf gives them) and the program's name are masked. ptop's
# additions are "# " lines after perf's, which a parser of perf's output skips
# as it skips perf's own comments; they are dropped here, past the header.
mask() {
	awk 'NR == 1 || !/^# / || (NR == 2 && /^# /)' |
		sed -E 's/[0-9]+(\.[0-9]+)?/N/g; s/\<(perf|ptop)\>/P/g; s/ +/ /g'
}
if command -v perf >/dev/null 2>&1; then
	while IFS='|' read -r pargs fargs; do
		# shellcheck disable=SC2086 # split on purpose
		perf bench $fargs >"$tmp/perf" 2>&1 || {
			echo "test_bench: perf bench $fargs exited $?: not compared"
			continue
		}
		if grep -q '^Skipping' "$tmp/perf"; then
			echo "test_bench: perf bench $fargs skipped here: not compared"
			continue
		fi
		# shellcheck disable=SC2086
		"$PTOP" bench $pargs >"$tmp/out" 2>&1 || fail "ptop bench $pargs exited $?"
		mask <"$tmp/perf" >"$tmp/perf.masked"
		mask <"$tmp/out" >"$tmp/out.masked"
		diff "$tmp/perf.masked" "$tmp/out.masked" >"$tmp/diff" ||
			fail "ptop bench $pargs does not print perf bench $fargs's lines: $(cat "$tmp/diff")"
	done <<EOF3
breakpoint-thread --threads=2 -r 5|-r 5 breakpoint thread --threads=2
breakpoint-enable --passive=1 --active=1 -r 5|-r 5 breakpoint enable --passive=1 --active=1
synthesize -s -i 3|internals synthesize -s -i 3
synthesize -t -m 1 -M 2 -I 1|internals synthesize -t -m 1 -M 2 -I 1
--format=simple breakpoint-thread -r 5|--format=simple -r 5 breakpoint thread
--format=simple breakpoint-enable -r 5|--format=simple -r 5 breakpoint enable
--format=simple synthesize -s -i 3|--format=simple internals synthesize -s -i 3
EOF3
else
	echo "test_bench: perf is not installed: formats not compared with perf bench's"
fi

finish
