#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_psi.sh: the pressure meters and the header as a setting. ptoprc's
# meters line chooses the header's meters and their order: with the three
# PSI meters, the viewer shows "PSI CPU/memory/I/O" with some (and full for
# memory and I/O) over 10, 60 and 300 s, as /proc/pressure says and as htop's
# PSI meters show beside it (the 300 s averages agree within a point); with
# "meters = cpu" the header is one line, so the table gets the rows; W keeps
# the line; an unknown meter is reported and the rest applies. The default
# header has no PSI meter. Skips (77) where the kernel has no PSI. make check
# sets PTOP, srcdir and TMUX_BIN.

NAME=test_psi
WAIT_SECONDS=30
. "${srcdir:-.}/tests/tmux-lib.sh"
need_tmux
tm_env
need_python "to compare the averages"

cat /proc/pressure/cpu /proc/pressure/memory /proc/pressure/io >/dev/null 2>&1 ||
	skip "no pressure stall information here (/proc/pressure: CONFIG_PSI, psi=1)"
htop_beside

mkdir -p "$XDG_CONFIG_HOME/ptop" "$XDG_CONFIG_HOME/htop"
rc=$XDG_CONFIG_HOME/ptop/ptoprc

# The default header: no PSI meter.
tm_start plain "$PTOP" -d 5
expect '^Mem '
off_screen '^PSI' || fail "a PSI meter in the default header"
keys q

echo 'meters = uptime,cpu,psi_cpu,psi_memory,psi_io' >"$rc"
tm_start psi "$PTOP" -d 1
expect '^PSI CPU: +some +[0-9]+\.[0-9]{2}% +[0-9]+\.[0-9]{2}% +[0-9]+\.[0-9]{2}%$'
expect '^PSI memory: +some( +[0-9]+\.[0-9]{2}%){3} +full( +[0-9]+\.[0-9]{2}%){3}$'
expect '^PSI I/O: +some( +[0-9]+\.[0-9]{2}%){3} +full( +[0-9]+\.[0-9]{2}%){3}$'
off_screen '^Mem ' || fail "meters = ...: the memory meter was not asked for"
screen >"$tmp/ptop.screen"
# the 300 s averages, as the kernel has them now
for r in cpu memory io; do
	sed -n 's/^\(some\|full\) .*avg300=\([0-9.]*\) .*/\1 \2/p' "/proc/pressure/$r" |
		sed "s/^/$r /"
done >"$tmp/kernel"
keys q

# ptop's 300 s averages (some, full) for cpu, memory, io, from a screen.
ptop_avg300() {
	python3 - "$1" <<'EOF'
import re, sys
rows = {"CPU": "cpu", "memory": "memory", "I/O": "io"}
for line in open(sys.argv[1]):
    m = re.match(r"PSI (CPU|memory|I/O): +(.*)", line)
    if not m:
        continue
    for kind, vals in re.findall(r"(some|full)((?: +[0-9.]+%){3})", m.group(2)):
        print(rows[m.group(1)], kind, vals.split()[2].rstrip("%"))
EOF
}
ptop_avg300 "$tmp/ptop.screen" >"$tmp/ptop.avg"
# agree: within a point for memory and I/O, five for CPU, which a loaded machine
# moves between the two reads
agree() {
	python3 - "$1" "$2" <<'EOF'
import sys
def load(p):
    return {(r, k): float(v) for r, k, v in (l.split() for l in open(p) if l.strip())}
a, b = load(sys.argv[1]), load(sys.argv[2])
both = set(a) & set(b)
assert both, (a, b)
bad = [(k, a[k], b[k]) for k in both if abs(a[k] - b[k]) > (5.0 if k[0] == "cpu" else 1.0)]
assert not bad, bad
EOF
}
agree "$tmp/ptop.avg" "$tmp/kernel" || fail "ptop's PSI averages are not the kernel's: $(cat "$tmp/ptop.avg")"

if [ -n "$HTOP" ]; then
	cat >"$XDG_CONFIG_HOME/htop/htoprc" <<'EOF'
htop_version=3.2.2
config_reader_min_version=3
column_meters_0=PressureStallCPUSome PressureStallMemorySome PressureStallMemoryFull PressureStallIOSome PressureStallIOFull
column_meter_modes_0=2 2 2 2 2
column_meters_1=
column_meter_modes_1=
EOF
	tm_start htop "$HTOP" -d 10
	expect 'PSI full IO: +[0-9.]+%'
	screen | python3 -c '
import re, sys
names = {"CPU": "cpu", "memory": "memory", "IO": "io"}
for line in sys.stdin:
    m = re.search(r"PSI (some|full) (CPU|memory|IO): +([0-9.]+)% +([0-9.]+)% +([0-9.]+)%", line)
    if m:
        print(names[m.group(2)], m.group(1), m.group(5))
' >"$tmp/htop.avg"
	keys q
	agree "$tmp/ptop.avg" "$tmp/htop.avg" ||
		fail "ptop's and htop's PSI meters differ: $(cat "$tmp/ptop.avg") / $(cat "$tmp/htop.avg")"
fi

# One line of header: the table has the rest of a 24-line terminal.
echo 'meters = cpu' >"$rc"
echo 'per_cpu = no' >>"$rc"
TM_LINES=24 tm_start short "$PTOP" -d 5
expect '^CPU'
rows=$(screen | awk '/^ *PID /{on=1; next} on' | grep -c '^ *[0-9]')
[ "$rows" -ge 18 ] || fail "a one-line header leaves $rows process rows at 24 lines"
# W keeps the meters line
# (the file said so before: wait for W's own message, or a late write could
# overwrite what the next part writes)
keys W
expect 'Settings written to'
grep -q '^meters = cpu$' "$rc" || fail "W did not keep the meters: $(grep meters "$rc")"
keys q

# An unknown meter is reported; the others apply.
echo 'meters = cpu,psi_cpu,thermometer' >"$rc"
tm_start bad "$PTOP" -d 5
expect 'ptoprc:1: .*unknown meter'
keys q
finish
