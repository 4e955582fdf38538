#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_cgroup_pressure.sh: G, the selected process's cgroup pressure (htop
# has nothing like it; atop shows pressure per cgroup), driven in tmux. A
# sleeper is moved into a cgroup of its own under the unified hierarchy
# (/sys/fs/cgroup, or /sys/fs/cgroup/unified on a hybrid machine); G on it
# shows the cgroup, the directory read, and CPU, memory and I/O with their
# some (and full) lines, whose 300 s averages are the kernel's files'; with
# 0 written to the cgroup's cgroup.pressure (kernels from 6.5, which then
# hide the files) each says PSI is off for this cgroup. Needs root and a
# cgroup2 hierarchy with PSI: skips (77) with the reason otherwise. make
# check sets PTOP, srcdir and TMUX_BIN.

NAME=test_cgroup_pressure
WAIT_SECONDS=30
. "${srcdir:-.}/tests/tmux-lib.sh"
need_tmux
tm_env

unified_cgroups
cg=$unified/ptop_test_$$
mkdir "$cg" 2>/dev/null || skip "cannot make a cgroup under $unified (root, a writable cgroup2)"
# the cgroup goes once its sleeper is gone (killed here before the kids are)
at_exit() {
	if [ -n "${target:-}" ]; then
		kill "$target" 2>/dev/null
		wait "$target" 2>/dev/null
	fi
	wait_for rmdir "$cg" 2>/dev/null
}
[ -r "$cg/cpu.pressure" ] || skip "no cpu.pressure in a cgroup: a kernel without PSI"

name=$(printf 'cg%07d' $$)
cp "$(command -v sleep)" "$tmp/$name" || exit 1
"$tmp/$name" 600 &
target=$!
kids=$target
wait_for grep -q "^Name:.$name" "/proc/$target/status" || die "the sleeper did not start"
echo "$target" >"$cg/cgroup.procs" || die "cannot move the sleeper into $cg"
grep -qx "0::/ptop_test_$$" "/proc/$target/cgroup" || die "the sleeper is not in its cgroup"

tm_run "$PTOP" -d 0.5 -p "$target"
expect "^ *$target .*$name"
keys G
expect "^Cgroup pressure of $target \($name\): /ptop_test_$$\$"
expect "^Read from $cg( |\$)"
expect '^ +avg10 +avg60 +avg300$'
expect '^CPU$'
expect '^memory$'
expect '^I/O$'
expect '^  some +[0-9]+\.[0-9]{2}% +[0-9]+\.[0-9]{2}% +[0-9]+\.[0-9]{2}% +[0-9.]+ s stalled$'
# each some line's 300 s average is its file's (a sleeper's cgroup hardly moves)
kernel=$(for r in cpu memory io; do
	sed -n 's/^some .*avg300=\([0-9.]*\) .*/\1%/p' "$cg/$r.pressure"
done)
shown=$(screen | sed -n 's/^  some .* \([0-9.]*%\) .*stalled$/\1/p')
[ "$shown" = "$kernel" ] || fail "some avg300: shown $(echo $shown), the kernel's $(echo $kernel)"
keys q
expect "^ *$target .*$name"

# PSI off for this cgroup: each file refuses to be read
if [ -w "$cg/cgroup.pressure" ] && echo 0 >"$cg/cgroup.pressure" 2>/dev/null; then
	keys G
	expect "^Cgroup pressure of $target"
	expect '^  not available: PSI is off for this cgroup'
	[ "$(screen | grep -c '^  not available: PSI is off for this cgroup')" -eq 3 ] ||
		fail "not each resource said PSI is off"
	keys Escape
	expect "^ *$target .*$name"
else
	partial_skip "no cgroup.pressure to turn PSI off with (a kernel before 6.5)"
fi
keys q
stop "$target"
finish
