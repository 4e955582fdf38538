#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_inject.sh: `ptop bench inject-build-id` as a user drives it, its
# injected stream read by perf itself. With --output, perf script reads the
# stream (MMAP2 records and samples), perf report --header-only reads it,
# and perf buildid-list -i - lists one build-id for each DSO the MMAP2
# records name (every one is hit by samples), equal to the one readelf finds
# in the file's note; without samples nothing is injected, and with --all
# every DSO mapped is (counted in perf script -D's dump). Both readers' streams are read the same. In JSON, the
# buffered reader makes fewer read(2) calls per event than the unbuffered
# one, which makes about two (counts, not times). Hostile streams given to
# --input end with status 1 and a message saying what is wrong. Skips (77)
# without perf, readelf or python3, or without ELF files with build-ids
# under /usr/lib. make check sets PTOP.

NAME=test_inject
. "${srcdir:-.}/tests/lib.sh"
need perf "to read the injected streams"
need readelf "to read the build-id notes (binutils)"
need_python "to read ptop bench's JSON lines"

fixtures=${srcdir:-.}/tests/fixtures/perfdata

# inject OUT ARGS...: the benchmark's injected stream into OUT (stdout as the stream).
inject() {
	out=$1
	shift
	"$PTOP" bench inject-build-id -i 1 "$@" -o - >"$out" 2>"$tmp/err" ||
		die "ptop bench inject-build-id $* -o - exited $?: $(cat "$tmp/err")"
}

inject "$tmp/hit.data" -m 12 -n 3
grep -q "Average build-id injection took" "$tmp/err" ||
	fail "-o -: perf's lines did not go to stderr: $(cat "$tmp/err")"
[ -s "$tmp/hit.data" ] || skip "no ELF files with build-ids under /usr/lib"

# mapped FILE: the files the MMAP2 records of the stream name, one a line, sorted.
mapped() {
	perf script -i - --show-mmap-events <"$1" >"$tmp/script" 2>"$tmp/perr" ||
		fail "perf script -i - exited $?: $(cat "$tmp/perr")"
	sed -n 's/.*PERF_RECORD_MMAP2 .*: [-r][-w][-x][-sp] \(\/.*\)$/\1/p' "$tmp/script" | sort -u
}

# ids FILE: "BUILD-ID PATH" of perf buildid-list -i -, sorted by path.
ids() {
	perf buildid-list -i - <"$1" 2>"$tmp/perr" | sort -k2 ||
		fail "perf buildid-list -i - exited $?: $(cat "$tmp/perr")"
}

# expected PATHS: "BUILD-ID PATH" from readelf -n for each path, sorted by path.
expected() {
	while read -r path; do
		id=$(readelf -n "$path" 2>/dev/null | sed -n 's/.*Build ID: \([0-9a-f]*\).*/\1/p' | head -n 1)
		[ -n "$id" ] || fail "readelf finds no build-id in $path"
		echo "$id $path"
	done | sort -k2
}

mapped "$tmp/hit.data" >"$tmp/mapped"
[ "$(wc -l <"$tmp/mapped")" -ge 1 ] || fail "perf script shows no MMAP2 record: $(head -5 "$tmp/script")"
grep -q 'task-clock' "$tmp/script" || fail "perf script shows no sample: $(head -5 "$tmp/script")"
expected <"$tmp/mapped" >"$tmp/want"
ids "$tmp/hit.data" >"$tmp/got"
[ -s "$tmp/want" ] && cmp -s "$tmp/want" "$tmp/got" ||
	fail "build-ids of the hit DSOs: perf buildid-list says
$(cat "$tmp/got")
readelf says
$(cat "$tmp/want")"
perf report --header-only -i - <"$tmp/hit.data" >"$tmp/header" 2>"$tmp/perr" ||
	fail "perf report --header-only -i - exited $?: $(cat "$tmp/perr")"
grep -q '^# ====' "$tmp/header" || fail "perf report --header-only: $(cat "$tmp/header")"

# The unbuffered reader's stream reads the same.
inject "$tmp/unbuf.data" -m 12 -n 3 --unbuffered
mapped "$tmp/unbuf.data" | expected >"$tmp/want"
ids "$tmp/unbuf.data" >"$tmp/got"
[ -s "$tmp/want" ] && cmp -s "$tmp/want" "$tmp/got" ||
	fail "--unbuffered: build-ids: perf buildid-list says $(cat "$tmp/got"), readelf $(cat "$tmp/want")"

# No samples: no DSO is hit, none injected; with --all every mapped one is
# (perf buildid-list lists hit DSOs only: the records are counted in perf's dump).
injected() {
	perf script -D -i - <"$1" 2>/dev/null | grep -c ': PERF_RECORD_BUILD_ID$'
}
inject "$tmp/none.data" -m 6 -n 0
[ "$(injected "$tmp/none.data")" = 0 ] || fail "no samples, yet build-ids: $(ids "$tmp/none.data")"
inject "$tmp/all.data" -m 6 -n 0 --all
n=$(mapped "$tmp/all.data" | wc -l)
[ "$n" -ge 1 ] && [ "$(injected "$tmp/all.data")" = "$n" ] ||
	fail "--all: $(injected "$tmp/all.data") build-id records for $n mapped DSOs"

# JSON: both readers, their calls per event counted.
"$PTOP" bench inject-build-id -i 2 -m 5 -n 20 --format=json >"$tmp/out" 2>"$tmp/err" ||
	fail "bench inject-build-id --format=json exited $?: $(cat "$tmp/err")"
"$PYTHON" - "$tmp/out" <<'EOF2' || fail "inject-build-id json"
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
res = lines[-1]
assert res["type"] == "result" and res["name"] == "inject-build-id", res
r = res["results"]
for k in ("buffered", "unbuffered"):
    for f in ("msec", "usec_per_event", "cpu_usec_per_event", "memory_kb"):
        assert r[k + "_" + f]["value"] > 0, (k, f, r[k + "_" + f])
    assert r[k + "_cpu_usec_per_event"]["samples"] == 2, r[k + "_cpu_usec_per_event"]
    assert r[k + "_build_ids"]["value"] >= 1, r[k + "_build_ids"]
ub, b = r["unbuffered_reads_per_event"]["value"], r["buffered_reads_per_event"]["value"]
assert 1.5 < ub < 2.5 and b < ub, (b, ub)
assert r["unbuffered_writes_per_event"]["value"] >= 1 > r["buffered_writes_per_event"]["value"], r
assert r["cpu_ratio"]["value"] > 0, r["cpu_ratio"]
assert res["params"]["nr-mmaps"] == 5 and res["params"]["all"] is False, res["params"]
EOF2

# Hostile streams: status 1, and stderr says what is wrong.
bad() {
	"$PTOP" bench inject-build-id --input "$fixtures/$1" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ "$rc" = 1 ] || fail "--input $1 exited $rc"
	grep -q "$2" "$tmp/err" || fail "--input $1 does not say '$2': $(cat "$tmp/err")"
}
bad truncated-header.data 'truncated header: 12 of the 16 bytes'
bad swapped-magic.data 'byte-swapped perf.data stream.*(little-endian) are supported'
bad bad-magic.data 'magic "PERFILEX", not "PERFILE2"'
bad short-record.data 'has size 4, less than its 8-byte header'
bad past-end.data 'runs past the end of the stream'
bad truncated-record.data 'truncated record header at offset 16'
bad file-header.data 'only pipe streams are supported'
"$PTOP" bench inject-build-id --input - <"$fixtures/past-end.data" >"$tmp/out" 2>"$tmp/err" &&
	fail "--input - of a bad stream exited 0"
grep -q 'standard input: record at offset 16' "$tmp/err" || fail "--input -: $(cat "$tmp/err")"
# A good stream through --input, unbuffered, to perf.
"$PTOP" bench inject-build-id --input - --unbuffered -o - <"$tmp/hit.data" >"$tmp/again.data" \
	2>"$tmp/err" || fail "--input - -o - exited $?: $(cat "$tmp/err")"
[ "$(ids "$tmp/again.data")" = "$(ids "$tmp/hit.data")" ] ||
	fail "re-injected stream lists other build-ids: $(ids "$tmp/again.data")"

finish
