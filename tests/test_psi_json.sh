#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_psi_json.sh: the machine's pressure in JSON output (-o json): a
# "psi" object with cpu, memory and io, each with "some" (and "full" where
# the kernel prints it) over 10, 60 and 300 s and the total stalled time, as
# /proc/pressure says: each total between the kernel's before and after the
# frame, each avg300 within a point of the kernel's. A proc root whose
# pressure directory has only memory: cpu and io are null. One without
# pressure: no "psi" key. (htop has no batch output to set beside this.)
# Skips (77) where the kernel has no PSI. make check sets PTOP and srcdir.

NAME=test_psi_json
. "${srcdir:-.}/tests/lib.sh"
need_python "to read the JSON"

cat /proc/pressure/cpu /proc/pressure/memory /proc/pressure/io >/dev/null 2>&1 ||
	skip "no pressure stall information here (/proc/pressure: CONFIG_PSI, psi=1)"

mkdir "$tmp/before" "$tmp/after"
cp /proc/pressure/cpu /proc/pressure/memory /proc/pressure/io "$tmp/before/"
"$PTOP" -b -n 1 -o json >"$tmp/out.json" 2>"$tmp/err" || fail "-o json failed: $(cat "$tmp/err")"
cp /proc/pressure/cpu /proc/pressure/memory /proc/pressure/io "$tmp/after/"

"$PYTHON" - "$tmp" <<'EOF' || fail "the psi object does not agree with /proc/pressure"
import json, sys
tmp = sys.argv[1]
f = json.loads(open(tmp + "/out.json").readline())
assert "psi" in f, sorted(f)
def kernel(when, r):
    out = {}
    for line in open("%s/%s/%s" % (tmp, when, r)):
        kind, *kv = line.split()
        out[kind] = {k: float(v) for k, v in (x.split("=") for x in kv)}
    return out
for r in ("cpu", "memory", "io"):
    got, before, after = f["psi"][r], kernel("before", r), kernel("after", r)
    assert set(got) == set(before), (r, sorted(got), sorted(before))
    for kind, line in got.items():
        assert set(line) == {"avg10", "avg60", "avg300", "total_us"}, (r, kind, line)
        lo, hi = before[kind]["total"], after[kind]["total"]
        assert lo <= line["total_us"] <= hi, (r, kind, lo, line["total_us"], hi)
        assert abs(line["avg300"] - after[kind]["avg300"]) <= 1, (r, kind, line, after[kind])
EOF

# a proc root with memory's pressure only, and one with none
mkdir -p "$tmp/half/pressure" "$tmp/none"
cp /proc/pressure/memory "$tmp/half/pressure/"
"$PTOP" -b -n 1 -o json --proc-root "$tmp/half" >"$tmp/half.json" || fail "-o json --proc-root failed"
"$PTOP" -b -n 1 -o json --proc-root "$tmp/none" >"$tmp/none.json" || fail "-o json --proc-root failed"
"$PYTHON" - "$tmp" <<'EOF' || fail "psi where the proc root has less"
import json, sys
tmp = sys.argv[1]
half = json.loads(open(tmp + "/half.json").readline())["psi"]
assert half["cpu"] is None and half["io"] is None, half
assert set(half["memory"]) == {"some", "full"}, half
none = json.loads(open(tmp + "/none.json").readline())
assert "psi" not in none, sorted(none)
EOF
finish
