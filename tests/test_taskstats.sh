#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_taskstats.sh: htop's SWPD% (swapd, PERCENT_SWAP_DELAY), which comes
# from the kernel's taskstats over netlink, through each frame source this
# machine has: as root, a number (>= 0) for a live child from its second
# frame on while kernel.task_delayacct is 1, else null with the sysctl named
# once on stderr; as nobody (no CAP_NET_ADMIN), null and '-' with that
# reason said once; and nothing said when no column asks for it. Needs root
# and a kernel with taskstats; otherwise skipped with the reason. (That the
# reader reads the kernel's reply right is test_taskstats.c's: a child's
# cpu_delay_total against its schedstat.)
set -eu

NAME=test_taskstats
. "${srcdir:-.}/tests/lib.sh"
need_python "to parse ptop's output"
[ "$(id -u)" = 0 ] || skip "not root: taskstats answers only CAP_NET_ADMIN"

spawn_sleeper swpdsleep
sleeper=$spawned
wait_state "$sleeper" S

"$PTOP" -b -n 1 -o json --source=procfs -p "$sleeper" --fields pid,swapd >"$tmp/probe.json" \
	2>"$tmp/probe.err" || die "probe"
if grep -q "no taskstats" "$tmp/probe.err"; then
	skip "this kernel has no taskstats: $(cat "$tmp/probe.err")"
fi
if grep -q "CAP_NET_ADMIN" "$tmp/probe.err"; then
	skip "root here has no CAP_NET_ADMIN (a container?): $(cat "$tmp/probe.err")"
fi
delayacct=$(cat /proc/sys/kernel/task_delayacct 2>/dev/null || echo absent)
[ "$delayacct" = 0 ] &&
	partial_skip "kernel.task_delayacct is 0: no figure to check, only null and its reason"

frame_sources
for s in $sources; do
	"$PTOP" -b -n 3 -d 0.2 -o json --source="$s" -p "$sleeper,1" --fields pid,swapd,cpud \
		>"$tmp/$s.json" 2>"$tmp/$s.err" || fail "$s: json"
	"$PTOP" -b -n 2 -d 0.2 -o text -w 200 --source="$s" -p "$sleeper" --fields pid,swapd \
		>"$tmp/$s.txt" 2>"$tmp/$s-txt.err" || fail "$s: text"
	"$PTOP" -b -n 2 -d 0.2 --sort-key=PERCENT_SWAP_DELAY --source="$s" -p "$sleeper" \
		>/dev/null 2>&1 || fail "$s: --sort-key=PERCENT_SWAP_DELAY"
	"$PYTHON" - "$tmp" "$s" "$sleeper" "$delayacct" <<'PY' || fail "$s: SWPD% as root"
import json, sys
tmp, src, sleeper, delayacct = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
frames = [json.loads(l) for l in open(f"{tmp}/{src}.json")]
assert len(frames) == 3, frames
err = open(f"{tmp}/{src}.err").read()
for f in frames[1:]:
    rows = {r["pid"]: r for r in f["processes"]}
    for pid in (sleeper, 1):
        v = rows[pid]["swap_delay_pct"]
        if delayacct == "0":
            assert v is None, rows[pid]
        else:
            assert isinstance(v, (int, float)) and 0 <= v <= 100.5, rows[pid]
if delayacct == "0":
    assert err.count("SWPD%") == 1 and "kernel.task_delayacct is 0" in err, err
else:
    assert "SWPD%" not in err, err
lines = open(f"{tmp}/{src}.txt").read().splitlines()
heads = [i for i, l in enumerate(lines) if l.split()[:1] == ["PID"]]
assert len(heads) == 2 and lines[heads[1]].split() == ["PID", "SWPD%"], lines
cells = lines[heads[1] + 1].split()
assert cells[0] == str(sleeper), cells
if delayacct == "0":
    assert cells[1] == "-", cells
else:
    assert float(cells[1]) >= 0, cells
PY
done

# Without CAP_NET_ADMIN: null, '-', and the reason once.
if command -v setpriv >/dev/null 2>&1 && id nobody >/dev/null 2>&1; then
	nobody=$(id -u nobody)
	nogroup=$(id -g nobody)
	asnobody() { setpriv --reuid="$nobody" --regid="$nogroup" --clear-groups "$@"; }
	asnobody "$PTOP" -b -n 3 -d 0.2 -o json --source=procfs -p "$sleeper" \
		--fields pid,swapd >"$tmp/nb.json" 2>"$tmp/nb.err" || fail "nobody json"
	asnobody "$PTOP" -b -n 2 -d 0.2 -o text -w 200 --source=procfs -p "$sleeper" \
		--fields pid,swapd >"$tmp/nb.txt" 2>/dev/null || fail "nobody text"
	# not asked for: not read, nothing said
	asnobody "$PTOP" -b -n 2 -d 0.2 -o json --source=procfs -p "$sleeper" \
		--fields pid,cpud >/dev/null 2>"$tmp/nb-unasked.err" || fail "nobody unasked"
	"$PYTHON" - "$tmp" "$sleeper" <<'PY' || fail "SWPD% as nobody"
import json, sys
tmp, sleeper = sys.argv[1], int(sys.argv[2])
for l in open(f"{tmp}/nb.json"):
    r = {r["pid"]: r for r in json.loads(l)["processes"]}[sleeper]
    assert r["swap_delay_pct"] is None, r
err = open(f"{tmp}/nb.err").read()
assert err.count("SWPD%") == 1 and "taskstats needs CAP_NET_ADMIN" in err, err
lines = open(f"{tmp}/nb.txt").read().splitlines()
heads = [i for i, l in enumerate(lines) if l.split()[:1] == ["PID"]]
assert lines[heads[-1] + 1].split() == [str(sleeper), "-"], lines
assert "SWPD%" not in open(f"{tmp}/nb-unasked.err").read()
PY
else
	partial_skip "no setpriv or no user nobody: the refusal not checked"
fi

finish
