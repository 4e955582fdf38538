#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_many_cpus.sh: the CPU bars of a machine of 8 and of 16 CPUs, beside
# htop on the same machine. The machine is made up: in a mount namespace of
# its own, each tool sees a /proc/stat of N CPUs (CPU c busy c/N of its
# time, the counters moving on) and a /sys/devices/system/cpu listing N
# CPUs online. With htop's default header, htop splits the bars across the
# two columns (LeftCPUs, RightCPUs: one CPU a row up to 8 CPUs, two beyond);
# ptop draws the same: CPU 0 heads the left column and CPU N/2 the right,
# on the same row, both tools' headers take as many rows, and the last CPU
# shows the same figure in both. Needs root (a mount namespace).
# make check sets PTOP, srcdir and TMUX_BIN.

NAME=test_many_cpus
WAIT_SECONDS=30
. "${srcdir:-.}/tests/tmux-lib.sh"
need_tmux
need_python "to write the made-up /proc/stat"
tm_env
htop_beside
command -v unshare >/dev/null 2>&1 || skip "no unshare (util-linux) for a mount namespace"
unshare -m sh -c "mount --bind /proc/stat /proc/stat" 2>/dev/null ||
	skip "a mount namespace with a bind mount needs root here"

# machine N: $tmp/N/stat and $tmp/N/cpu of N CPUs; the counters move on
# every 0.2 s by whole steps (at fixed widths, so that a reader never sees
# the file short).
machine() {
	d=$tmp/$1
	mkdir -p "$d/cpu"
	i=0
	while [ "$i" -lt "$1" ]; do
		mkdir -p "$d/cpu/cpu$i"
		echo 1 >"$d/cpu/cpu$i/online"
		i=$((i + 1))
	done
	for f in online possible present; do
		echo "0-$(($1 - 1))" >"$d/cpu/$f"
	done
	"$PYTHON" - "$d/stat" "$1" <<'EOF' &
import sys, time
path, n = sys.argv[1], int(sys.argv[2])
rest = "".join(l for l in open("/proc/stat") if not l.startswith("cpu"))
def line(name, busy, idle):
    return "%s %012d 000000000000 000000000000 %012d 000000000000 000000000000 000000000000 0 0 0\n" % (name, busy, idle)
# each step gives every CPU 100 * n ticks, 100 * c of them busy for CPU c:
# its share is exact over any interval
step = 100 * n
t = step
open(path, "w").close()
while True:
    busy = [t * c // n for c in range(n)]
    text = line("cpu", sum(busy), t * n - sum(busy))
    text += "".join(line("cpu%d" % c, busy[c], t - busy[c]) for c in range(n))
    with open(path, "r+") as f:
        f.write(text + rest)
    t += step
    time.sleep(0.2)
EOF
	kids="$kids $!"
	wait_for test -s "$d/stat" || die "no made-up /proc/stat"
}

# on N CMD...: CMD on the machine of N CPUs
on() {
	n=$1
	shift
	tm_start "cpus$n" unshare -m sh -c 'mount --bind "$0/stat" /proc/stat &&
		mount --bind "$0/cpu" /sys/devices/system/cpu && exec "$@"' "$tmp/$n" "$@"
}

# rows_above PATTERN MARGIN: the rows above the first line matching PATTERN, less MARGIN
rows_above() {
	screen | awk -v p="$1" -v m="$2" '$0 ~ p { print NR - 1 - m; exit }'
}
# shows C FIGURE: CPU C's bar ends in FIGURE ("87.5%")
shows() {
	[ "$(screen | grep -Eo "(^| )$1 *\\[[^]]*%\\]" | sed -E 's/.*[^0-9.]([0-9.]+%)\]$/\1/')" = "$2" ]
}

for n in 8 16; do
	machine "$n"
	half=$((n / 2))
	last=$((n - 1))
	want=$(awk -v c="$last" -v n="$n" 'BEGIN { printf "%.1f", c * 100 / n }')
	# the first row: CPU 0 at the left, CPU N/2 at the right; beyond 8, two
	# a row in each column, numbered down the column first
	if [ "$n" -le 8 ]; then
		first="(^|[^0-9])0 *\\[.*\\] +$half *\\["
	else
		q=$((half / 2))
		first="(^|[^0-9])0 *\\[.*\\] +$q *\\[.*\\] +$half *\\[.*\\] +$((half + q)) *\\["
	fi
	h_rows=
	if [ -n "$HTOP" ]; then
		on "$n" "$HTOP"
		expect '^ *PID +USER'
		expect "$first"
		# htop: a blank row above its header, and a blank row and its tabs below
		h_rows=$(rows_above '^ *PID +USER' 3)
		wait_for shows "$last" "$want%" ||
			fail "htop: CPU $last is not at $want%"
		htop_quit
	fi
	on "$n" "$PTOP" -d 0.5
	expect '^ *PID +USER'
	expect "$first"
	p_rows=$(rows_above '^ 1 Processes' 0)
	echo "$NAME: $n CPUs: header rows htop ${h_rows:-(not run)}, ptop $p_rows"
	# without htop: the taller column is the right one, half the CPUs and three meters
	: "${h_rows:=$((half / (n > 8 ? 2 : 1) + 3))}"
	[ "$p_rows" -eq "$h_rows" ] || fail "$n CPUs: ptop's header is $p_rows rows, htop's $h_rows"
	wait_for shows "$last" "$want%" ||
		fail "ptop: CPU $last is not at $want%"
	keys q
done
finish
