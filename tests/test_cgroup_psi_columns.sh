#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_cgroup_psi_columns.sh: the cgroup pressure columns (cg_cpu_some ..
# cg_io_full60) in batch CSV and JSON, through each frame source this ptop
# has, against the cgroup's own files (htop has no such columns, so the
# kernel's files are the reference). As root
# with a writable unified hierarchy (/sys/fs/cgroup, or its "unified"
# directory on a hybrid machine), two busy children are moved into a cgroup
# of their own and the test waits for the kernel to count CPU pressure
# there (which it need not, with CPUs to spare); otherwise the test's own cgroup is read. Each of the ten values is
# its file's avg10 or avg60, all ten as the files said them when
# read just before or just after ptop (a value moves every 2 s: tried
# again until a run saw one update at most). The root cgroup's rows (PID 2, kthreadd) show
# the machine's pressure; with 0 written to the cgroup's cgroup.pressure
# (Linux 6.5 on) every value is null in JSON and '-' in text, never 0.
# Skips (77) where there is no unified hierarchy or no PSI. make check sets
# PTOP and srcdir.

NAME=test_cgroup_psi_columns
. "${srcdir:-.}/tests/lib.sh"
need_python "to read the JSON"
DEADLINE=60

unified_cgroups

fields=pid,cg_cpu_some,cg_mem_some,cg_mem_full,cg_io_some,cg_io_full
fields=$fields,cg_cpu_some60,cg_mem_some60,cg_mem_full60,cg_io_some60,cg_io_full60

made=
if own_cgroup "ptop_test_psi_$$"; then
	made=1
	for i in 1 2; do
		sh -c 'while :; do :; done' &
		kids="$kids $!"
		echo $! >"$cg/cgroup.procs" || die "cannot move a child into $cg"
	done
	target=${kids##* }
	grep -qx "0::/ptop_test_psi_$$" "/proc/$target/cgroup" || die "the child is not in its cgroup"
	# the kernel counts the children's waits for a CPU: some avg10 leaves 0.00
	# (not where CPUs are to spare: the values are compared all the same)
	DEADLINE=20
	if wait_until sh -c "! grep -q '^some avg10=0.00 ' '$cg/cpu.pressure'"; then
		busy=1
	else
		partial_skip "no CPU pressure counted in $cg (CPUs to spare): zeros compared"
	fi
	DEADLINE=60
else
	partial_skip "cannot make a cgroup under $unified (root, a writable cgroup2): the test's own cgroup is read"
	cg=$unified$own
	[ "$own" = / ] && cg=$unified
	target=$$
	[ -r "$cg/cpu.pressure" ] || skip "no cpu.pressure in $cg: a kernel without PSI, or PSI off"
fi

# The ten values as the files say them, in the columns' order, one line
# (read at once: they move every 2 s).
files_say() {
	c=$(cat "$1/cpu.pressure") && m=$(cat "$1/memory.pressure") && i=$(cat "$1/io.pressure") ||
		return 1
	for a in avg10 avg60; do
		printf '%s\n' "$c" | sed -n "s/^some.* $a=\([0-9.]*\) .*/\1/p"
		printf '%s\n' "$m" | sed -n "s/^some.* $a=\([0-9.]*\) .*/\1/p"
		printf '%s\n' "$m" | sed -n "s/^full.* $a=\([0-9.]*\) .*/\1/p"
		printf '%s\n' "$i" | sed -n "s/^some.* $a=\([0-9.]*\) .*/\1/p"
		printf '%s\n' "$i" | sed -n "s/^full.* $a=\([0-9.]*\) .*/\1/p"
	done | tr '\n' ' ' | sed 's/ $//'
}

# The frame sources to compare through: BPF's rows take their cgroup from its
# walk (or /proc on a hybrid machine) and their pressure from the same files.
sources=procfs
if "$PTOP" --version | grep -q 'procfs, bpf'; then
	"$PTOP" -b -n 1 -p 1 --source=bpf -o json >"$tmp/probe" 2>"$tmp/probe.err" || :
	if [ -s "$tmp/probe.err" ]; then
		partial_skip "the BPF source: $(cat "$tmp/probe.err")"
	else
		sources="procfs bpf"
	fi
else
	partial_skip "the BPF source: not built"
fi
source=procfs

# ptop's CSV row of PID $2 (the columns of $fields after the time and PID), one line.
ptop_says() {
	"$PTOP" -b -n 1 --source="$source" -p "$2" -o csv --fields "$fields" >"$tmp/csv" ||
		return 1
	sed -n 2p "$tmp/csv" | tr -d '\r' | cut -d, -f3- | tr , ' '
}

# One run of ptop between two reads of the files of $1, for PID $2: ptop's
# values are the files' of one of them (the kernel updates the averages every
# 2 s: a run that sees two updates is tried again).
compare() {
	before=$(files_say "$1")
	got=$(ptop_says "$1" "$2")
	after=$(files_say "$1")
	[ -n "$got" ] && { [ "$got" = "$before" ] || [ "$got" = "$after" ]; }
}

for source in $sources; do
	wait_until compare "$cg" "$target" ||
		fail "$source, PID $target: ptop says '$got', $cg says '$before' then '$after'"
done
source=procfs
head -1 "$tmp/csv" | grep -q ',cgroup_cpu_some_avg10_pct,cgroup_memory_some_avg10_pct,' ||
	fail "CSV headings: $(head -1 "$tmp/csv")"
if [ -n "${busy:-}" ]; then
	case $got in
	0.00\ *) fail "the busy children's cgroup shows no CPU pressure: $got" ;;
	esac
fi

# The root cgroup is the machine's: its files where it has them, else /proc/pressure.
if grep -qx '0::/' /proc/2/cgroup 2>/dev/null; then
	root=$unified
	[ -r "$unified/cpu.pressure" ] || root=/proc/pressure
	if [ "$root" = /proc/pressure ]; then
		mkdir -p "$tmp/sys" && for r in cpu memory io; do
			ln -s "/proc/pressure/$r" "$tmp/sys/$r.pressure"
		done
		root=$tmp/sys
	fi
	wait_until compare "$root" 2 ||
		fail "PID 2 (root cgroup): ptop says '$got', the machine '$before' then '$after'"
else
	partial_skip "PID 2 is not in the unified root here"
fi

# The same values in JSON, as numbers; a process asked for without the columns has no keys.
"$PTOP" -b -n 1 -p "$target" -o json --fields "$fields" >"$tmp/json" || fail "ptop -o json failed"
python3 - "$tmp/json" <<'EOF' || fail "JSON: $(cat "$tmp/json")"
import json, sys
p = json.load(open(sys.argv[1]))["processes"][0]
keys = [k for k in p if k.startswith("cgroup_")]
assert len(keys) == 10, keys
assert all(isinstance(p[k], float) or isinstance(p[k], int) for k in keys), p
EOF

# PSI off for the cgroup: unknown, never 0
if [ -n "$made" ] && [ -w "$cg/cgroup.pressure" ] && echo 0 >"$cg/cgroup.pressure" 2>/dev/null; then
	"$PTOP" -b -n 1 -p "$target" -o json --fields "$fields" >"$tmp/json" || fail "ptop -o json failed"
	python3 - "$tmp/json" <<'EOF' || fail "PSI off, JSON: $(cat "$tmp/json")"
import json, sys
p = json.load(open(sys.argv[1]))["processes"][0]
keys = [k for k in p if k.startswith("cgroup_")]
assert len(keys) == 10 and all(p[k] is None for k in keys), p
EOF
	COLUMNS=200 "$PTOP" -b -n 1 -p "$target" -o text --fields "$fields" >"$tmp/text" ||
		fail "ptop -o text failed"
	row=$(grep -E "^ *$target " "$tmp/text")
	[ "$(echo "$row" | tr -s ' ' '\n' | grep -cx -- -)" -eq 10 ] ||
		fail "PSI off, text: '$row'"
else
	partial_skip "no cgroup.pressure to turn PSI off with (a kernel before 6.5, or not root)"
fi
finish
