#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_display.sh: how the viewer's header and memory columns show what they
# show, driven in a private tmux server as a user would. With -p the Tasks
# line counts the processes shown, as top's does. Up to 32 CPUs the header
# has one bar per CPU from the start (htop's default) and 1 gives one bar
# for all of them; m cycles the memory meters between bars, top's two
# text lines and nothing (in both key profiles); E changes the text lines'
# unit. A process of 100 GiB of address space shows VIRT in top's units
# (100.0g, not 102400m) in the viewer and in ptop -b, as top -b prints it.
# With "keys = top", e starts the memory columns from MiB and l hides the
# load line; W keeps m, E, e and l in ptoprc, a new ptop starts with them,
# and -E and -e on its command line win over them. make check sets PTOP,
# srcdir and TMUX_BIN.

NAME=test_display

# Every wait here expects success: a loaded machine may slow it, not fail it.
WAIT_SECONDS=30
. "${srcdir:-.}/tests/tmux-lib.sh"
need_tmux
need python3 "to make the large process"

mkdir -p "$tmp/config/ptop" || exit 1
tm_env

# A process with 100 GiB of address space and little resident: PROT_NONE,
# which is not accounted as committed memory, never touched.
python3 -c '
import ctypes, time
libc = ctypes.CDLL(None, use_errno=True)
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int,
                      ctypes.c_int, ctypes.c_long]
# PROT_NONE (0), MAP_PRIVATE | MAP_ANONYMOUS (0x22)
if libc.mmap(None, 100 << 30, 0, 0x22, -1, 0) in (None, ctypes.c_void_p(-1).value):
    raise SystemExit("mmap failed")
print("ready", flush=True)
time.sleep(600)
' >"$tmp/ready" &
target=$!
kids=$target
wait_for grep -q ready "$tmp/ready" || fail "the large process did not start"

# start PROFILE: ptop on the large process alone, ptoprc keys = PROFILE
start() {
	printf 'keys = %s\n' "$1" >"$tmp/config/ptop/ptoprc"
	tm_new_server
	tm_run "$PTOP" -d 0.5 -p "$target"
	expect "^ *$target "
}

# the VIRT cell of the target's row (the fifth column)
virt() {
	screen | awk -v p="$target" '$1 == p { print $5 }'
}

# ---- per-CPU bars by default, up to 32 CPUs ----
start htop
# -p: the Tasks line counts what it shows, as top's
expect 'Tasks: 1 total, '
ncpus=$(getconf _NPROCESSORS_CONF)
if [ "$ncpus" -le 32 ]; then
	expect '^0 +\['
	expect "^$((ncpus - 1)) +\\["
	off_screen '^CPU +\[' || fail "a summary CPU bar beside the per-CPU bars"
	keys 1
	expect '^CPU +\['
	off_screen '^0 +\[' || fail "1 left the per-CPU bars"
	keys 1
	expect '^0 +\['
else
	expect '^CPU +\['
fi

# ---- large values in top's units ----
expect "^ *$target .* 100\\.[0-9]g "
[ "$(virt)" = 100.0g ] || fail "VIRT is $(virt), not 100.0g"
bvirt=$("$PTOP" -b -n 1 -p "$target" | awk -v p="$target" '$1 == p { print $5 }')
[ "$bvirt" = 100.0g ] || fail "ptop -b shows VIRT $bvirt, not 100.0g"
if command -v top >/dev/null 2>&1; then
	tvirt=$(top -b -n 1 -p "$target" | awk -v p="$target" '$1 == p { print $5 }')
	[ "$tvirt" = "$bvirt" ] || fail "top -b shows VIRT $tvirt, ptop -b $bvirt"
fi

# ---- m cycles the memory display: bars, text, hidden ----
expect '^Mem +\['
expect '^Swp +\['
keys m
expect '^MiB Mem : +[0-9.]+ total, +[0-9.]+ free, +[0-9.]+ used, +[0-9.]+ buff/cache'
expect '^MiB Swap: +[0-9.]+ total, .* avail Mem'
off_screen '^Mem +\[' || fail "the memory bar stayed beside the text"
keys E
expect '^GiB Mem : '
keys m
expect 'Memory: hidden'
off_screen '^(GiB|MiB) Mem' || fail "the memory lines stayed hidden"
off_screen '^Mem +\[' || fail "the memory bar is not hidden"
keys m
expect '^Mem +\['

# ---- top's profile: m as well, e the memory columns' unit, l the load line ----
start top
expect '^Mem +\['
keys m
expect '^MiB Mem : '
expect '^ptop - .*load average'
keys l
wait_for off_screen '^ptop - .*load average' || fail "l left the load line"
# the first line is the Tasks line alone: no tail of the load line under it
expect '^Tasks: .* zombie *$'
off_screen 'load average' || fail "l left a part of the load line"
keys l
expect '^ptop - .*load average'
res0=$(screen | awk -v p="$target" '$1 == p { print $6 }')
case $res0 in *[0-9]) ;; *) fail "RES is $res0 before e, not KiB" ;; esac
keys e
expect 'Memory columns from MiB up'
res_mib() {
	screen | awk -v p="$target" '$1 == p { print $6 }' | grep -Eq '^[0-9]+\.[0-9]m$'
}
wait_for res_mib || fail "RES is not in MiB after e"

# ---- W keeps m, E, e and l; a new ptop starts with them; -E and -e win ----
keys E
expect '^GiB Mem : '
keys l
wait_for off_screen '^ptop - .*load average' || fail "l left the load line"
keys W
expect 'Settings written to'
for line in 'memory = text' 'summary_unit = GiB' 'task_unit = MiB' 'load_line = no'; do
	grep -qx "$line" "$tmp/config/ptop/ptoprc" ||
		fail "ptoprc lacks '$line': $(cat "$tmp/config/ptop/ptoprc")"
done
keys q
# again: ARGS... for ptop, ptoprc as W left it
again() {
	tm_new_server
	tm new-session -d -s "$session" -x 160 -y 48 "$PTOP" -d 0.5 -p "$target" "$@" ||
		fail "tmux cannot start a session"
	expect "^ *$target "
}
again
expect '^GiB Mem : '
wait_for res_mib || fail "RES is not in MiB after a restart"
off_screen '^ptop - .*load average' || fail "the load line came back after a restart"
off_screen '^Mem +\[' || fail "the memory bars came back after a restart"
keys q
again -E k -e g
expect '^KiB Mem : '
res_gib() {
	screen | awk -v p="$target" '$1 == p { print $6 }' | grep -Eq '^[0-9]+\.[0-9]g$'
}
wait_for res_gib || fail "-e g did not start the memory columns from GiB"
keys q

finish
