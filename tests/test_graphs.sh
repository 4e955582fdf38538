#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_graphs.sh: the CPU and memory history meters (ptoprc's meters =
# cpu_graph, memory_graph), driven in tmux. Each is one row as wide as the
# terminal at 160 and at 80 columns ("CPU [", the graph, "] 45.2%"), its
# newest column as high as the value it prints; Unicode blocks in a UTF-8
# locale, the ASCII ramp with --no-unicode and in the C locale. While CPU
# burners (one per CPU) run, the CPU graph rises: after the burners have
# run (their ticks in /proc/PID/stat), a column from before them that was
# lower than three quarters stands left of newer ones at three quarters or
# more. A machine too busy before the burners for any column below that has
# no rise to show: said so (partial skip), the rest is checked.

NAME=test_graphs
WAIT_SECONDS=30
DEADLINE=120
. "${srcdir:-.}/tests/tmux-lib.sh"
need_tmux
tm_env
need_python "to read the graphs"

mkdir -p "$XDG_CONFIG_HOME/ptop"
echo 'meters = uptime,cpu_graph,memory_graph' >"$XDG_CONFIG_HOME/ptop/ptoprc"

# graphs COLS CHECK...: the screen's two graph rows hold, for each CHECK:
#   width: each is COLS wide, its graph COLS - 13;
#   newest: the newest column's height is the value printed;
#   unicode|ascii: the columns are block elements, or the ASCII ramp;
#   filled N: the CPU graph has at least N columns;
#   low: the CPU graph has a column below three quarters;
#   rise: a column below three quarters, then the newest ones (2) at three quarters or more.
graphs() {
	screen | "$PYTHON" -c '
import sys
cols, checks = int(sys.argv[1]), sys.argv[2:]
blocks, ascii = "\u2581\u2582\u2583\u2584\u2585\u2586\u2587\u2588", "_.:-=+*#"
rows = {}
for line in sys.stdin.read().splitlines():
    if line[:5] in ("CPU [", "Mem [") and line.endswith("%") and "] " in line:
        rows[line[:3]] = line
assert set(rows) == {"CPU", "Mem"}, "no graph rows: %r" % rows
def levels(g):
    return [(blocks + ascii).index(c) % 8 for c in g if c != " "]
for name, line in rows.items():
    graph, value = line[5:].rsplit("] ", 1)
    v = float(value.rstrip("%"))
    cells = graph.lstrip(" ")
    for c in checks:
        if c == "width":
            assert len(line) == cols and len(graph) == cols - 13, (name, len(line), len(graph))
        elif c == "newest" and cells:
            # the value is printed to a tenth: either side of a step is its height
            want = {min(int(x * 8 / 100), 7) for x in (v - 0.05, v + 0.05)}
            assert levels(cells)[-1] in want, (name, cells[-1], v)
        elif c in ("unicode", "ascii"):
            ok = blocks if c == "unicode" else ascii
            assert cells and all(ch in ok for ch in cells), (name, c, cells)
        elif name != "CPU":
            continue
        elif c.startswith("filled"):
            assert len(cells) >= int(c.split("=")[1]), (name, len(cells))
        elif c == "low":
            assert min(levels(cells)) <= 5, (name, cells)
        elif c == "rise":
            lv = levels(cells)
            assert len(lv) >= 3 and min(lv[-2:]) >= 6 and min(lv[:-2]) <= 5, (name, cells)
' "$@" 2>"$tmp/graphs.err"
}
expect_graphs() { # COLS CHECK...
	wait_for graphs "$@" || fail "the graphs: $* ($(tail -n 1 "$tmp/graphs.err"))"
}

tm_run "$PTOP" -d 1
expect_graphs 160 width newest unicode filled=3

# a column from before the burners, below three quarters: the rise's foot
rise=yes
if ! DEADLINE=30 wait_until graphs 160 low; then
	partial_skip "every CPU column was at three quarters or more before the burners: no rise to see"
	rise=
fi
hz=$(getconf CLK_TCK)
ncpu=$(getconf _NPROCESSORS_ONLN)
burners=
i=0
while [ "$i" -lt "$ncpu" ]; do
	sh -c 'while :; do :; done' &
	burners="$burners $!"
	kids="$kids $!"
	i=$((i + 1))
done
# ran: every burner has half a second of CPU, as the kernel counts it
ran() {
	for p in $burners; do
		t=$(awk '{ print $14 + $15 }' "/proc/$p/stat" 2>/dev/null) || return 1
		[ "$t" -ge $((hz / 2)) ] || return 1
	done
}
wait_until ran || die "the burners did not run for half a second in ${DEADLINE}s"
if [ -n "$rise" ]; then
	expect_graphs 160 width newest rise
else
	busy() { graphs 160 width newest && screen | grep -q '^CPU \[.*[▇█]\] '; }
	wait_for busy || fail "the CPU graph is not at three quarters or more while the burners run"
fi
for p in $burners; do
	stop "$p"
done
keys q
wait_for test -s "$tmp/status" || fail "ptop did not quit"

# 80 columns: as wide as the screen; ASCII with --no-unicode, and in the C locale
TM_COLS=80 tm_start narrow "$PTOP" -d 0.3
expect_graphs 80 width newest unicode filled=2
keys q
TM_COLS=80 tm_start ascii "$PTOP" -d 0.3 --no-unicode
expect_graphs 80 width newest ascii filled=2
keys q
LANG=C
export LANG
TM_COLS=80 tm_start c "$PTOP" -d 0.3
expect_graphs 80 width newest ascii filled=2
keys q
finish
