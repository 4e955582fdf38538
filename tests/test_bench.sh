#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_bench.sh: `ptop bench` driven as a user (or the TUI's Bench pane)
# drives it: `list` names every benchmark; `status` and `breakpoint-thread`
# with tiny parameters and --format=json print JSON lines that python3 parses
# and checks for shape and sanity (type, params, results with value and unit,
# times > 0, progress lines in [0, 1] before the result, a sweep's series);
# the default format has perf bench's lines; bad options exit with status 2.
# Skips (77) without python3; breakpoint cases accept a "skipped" line where
# the machine has no hardware breakpoints. make check sets PTOP.

PTOP=${PTOP:-./ptop}

if ! command -v python3 >/dev/null 2>&1; then
	echo "test_bench: SKIP: python3 is not installed"
	exit 77
fi
if [ ! -x "$PTOP" ]; then
	echo "test_bench: FAIL: no ptop binary at $PTOP"
	exit 1
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptop-bench.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
failed=0

fail() {
	echo "test_bench: FAIL: $*"
	failed=1
}

# check NAME PYTHON-CHECK: run the check on the JSON lines in $tmp/out.
check() {
	python3 - "$tmp/out" "$2" <<'EOF' || fail "$1"
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
assert lines, "no output"
for l in lines:
    assert l["type"] in ("progress", "result", "skipped", "error"), l
res = lines[-1]
prog = [l["progress"] for l in lines if l["type"] == "progress"]
assert all(0 <= p <= 1 for p in prog) and prog == sorted(prog), prog
if res["type"] == "skipped":
    print("skipped:", res["message"])
    sys.exit(0)
assert res["type"] == "result", res
assert isinstance(res["params"], dict) and res["params"]["repeat"] >= 1, res
for k, v in res["results"].items():
    assert set(v) >= {"value", "unit"}, (k, v)
    assert isinstance(v["value"], (int, float)) and v["value"] > 0, (k, v)
exec(sys.argv[2])
EOF
}

# list: one line per benchmark, name then summary.
"$PTOP" bench list >"$tmp/out" 2>"$tmp/err" || fail "bench list exited $?"
for name in status breakpoint-thread breakpoint-enable; do
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

# The default format speaks perf bench's lines.
"$PTOP" bench breakpoint-enable --passive=1 >"$tmp/out" 2>"$tmp/err" ||
	fail "bench breakpoint-enable exited $?"
if ! grep -q "^Skipping" "$tmp/out"; then
	for pattern in "^# Running 'breakpoint/enable' benchmark:\$" \
		"^# Enabled/disabled breakpoint 10 time with 1 passive and 0 active threads\$" \
		'^ +Total time: [0-9]+\.[0-9]{3} \[sec\]$' '^ +[0-9]+\.[0-9]{6} usecs/op$'; do
		grep -Eq "$pattern" "$tmp/out" || fail "no '$pattern' in: $(cat "$tmp/out")"
	done
fi
"$PTOP" bench status --loops 10 -r 1 --format=simple >"$tmp/out" 2>"$tmp/err" ||
	fail "bench status --format=simple exited $?"
[ "$(grep -Ec '^[0-9]+\.[0-9]+$' "$tmp/out")" = 6 ] || fail "simple format: $(cat "$tmp/out")"

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

[ "$failed" = 0 ] && echo "test_bench: PASS"
exit "$failed"
