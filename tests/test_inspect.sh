#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_inspect.sh: one process looked at closely, as htop's keys do it, driven
# in a private tmux server as a user would: e shows its environment, l its
# open files (a descriptor it holds, with its mode and path; control bytes
# in a path escaped, so a newline forges no line), a its CPU
# affinity, which Space and Enter change (the kernel's Cpus_allowed_list
# says so), s runs strace on it and Ctrl-C brings ptop back, or says strace
# is missing. Esc and q close a panel. Another user's process gives a message,
# not a crash; secure mode (-s) refuses to set or trace. With "keys = top",
# s asks for the delay, e changes the memory columns' unit and l hides the
# load line, as in top. make check sets PTOP,
# srcdir and TMUX_BIN.

NAME=test_inspect

# Every wait here expects success: a loaded machine may slow it, not fail it.
WAIT_SECONDS=30
. "${srcdir:-.}/tests/tmux-lib.sh"
need_tmux

chmod 755 "$tmp"
mkdir -p "$tmp/config/ptop" "$tmp/nobin" || exit 1
tm_env

# The process looked at: a copy of sleep named for this run, holding the
# file opened-file on descriptor 7, with a variable of its own, and on
# descriptor 8 a file whose path has a tab and a newline followed by what
# the panel would draw for another descriptor: the panel must show the
# name escaped on one line, never that forged line.
name=$(printf 'pi%07d' $$)
cp "$(command -v sleep)" "$tmp/$name" || exit 1
echo data >"$tmp/opened-file"
forged='   99r REG                0 0100000 '
evil_dir=$(printf '%s/x\ty\n%s/etc' "$tmp" "$forged")
mkdir -p "$evil_dir" && echo secret >"$evil_dir/shadow" || exit 1
# A variable whose value holds a newline and what looks like another
# variable: the environment panel shows it escaped on one line.
# (a bare environment: all of it fits on the screen)
env -i PTOP_INSPECT_MARK=mark$$ PTOP_INSPECT_FORGED="$(printf 'a\nLD_PRELOAD=/forged.so')" \
	/bin/sh -c 'exec 7<"$1"; exec 8<"$3"; exec "$2" 600' sh \
	"$tmp/opened-file" "$tmp/$name" "$evil_dir/shadow" &
target=$!
kids=$target
wait_for grep -q "^Name:.$name" "/proc/$target/status" || fail "the target did not start"

# start PROFILE COMMAND...: COMMAND (ptop on the target alone, maybe behind a
# command that execs it) with ptoprc keys = PROFILE
start() {
	profile=$1
	shift
	printf 'keys = %s\n' "$profile" >"$tmp/config/ptop/ptoprc"
	tm_new_server
	tm_run "$@"
	expect "^ *$target .*$name"
}

# back_in_table: the table again, headed as the profile heads it
back_in_table() {
	if [ "$profile" = top ]; then
		expect '^ *PID +USER +PR +NI'
	else
		expect '^ *PID +USER +PRI +NI'
	fi
	expect "^ *$target .*$name"
}

# ---- htop's profile (the default) ----
start htop "$PTOP" -d 0.5 -p "$target"

keys e
expect "^Environment of $target \($name\): [0-9]+ variables"
expect "^PTOP_INSPECT_MARK=mark$$\$"
expect '^PTOP_INSPECT_FORGED=a\\nLD_PRELOAD=/forged\.so$'
off_screen '^LD_PRELOAD=/forged' || fail "a newline in a variable forged a line in the e panel"
keys End
expect "Esc or q closes"
keys q
back_in_table

keys l
expect "^Open files of $target \($name\): [0-9]+ descriptors"
expect '^ +FD +TYPE +POS FLAGS +PATH'
expect "^ +7r REG +0 [0-7]+ $tmp/opened-file\$"
expect "^ +8r REG +0 [0-7]+ $tmp/x\\\\x09y\\\\n +99r REG +0 0100000 /etc/shadow\$"
off_screen '^ +99r REG +0 0100000 /etc/shadow$' ||
	fail "a newline in a file name forged a line in the open files panel"
keys Escape
back_in_table

# the test may run pinned to some CPUs: the target is let run on all it can
ncpus=$(getconf _NPROCESSORS_ONLN)
all=0-$((ncpus - 1))
[ "$ncpus" -ge 2 ] && command -v taskset >/dev/null 2>&1 &&
	taskset -pc "$all" "$target" >/dev/null 2>&1
keys a
expect "^CPU affinity of $target \($name\): Space toggles"
expect '^\[x\] CPU [0-9]'
if [ "$ncpus" -ge 2 ] && grep -Eq "^Cpus_allowed_list:.$all\$" "/proc/$target/status"; then
	expect '^\[x\] CPU 0'
	keys Space
	expect '^\[ \] CPU 0'
	keys Enter
	expect "CPU affinity of $target \($name\) set to $((ncpus - 1)) CPUs"
	back_in_table
	want=1
	[ "$ncpus" -gt 2 ] && want=1-$((ncpus - 1))
	wait_for grep -Eq "^Cpus_allowed_list:.$want\$" "/proc/$target/status" ||
		fail "the affinity of $target is $(grep Cpus_allowed_list "/proc/$target/status"), not $want"
else
	echo "$NAME: affinity not set: one CPU, or the target may not run on every CPU"
	keys q
	back_in_table
fi

if command -v strace >/dev/null 2>&1 && [ "$(id -u)" -eq 0 ]; then
	keys s
	expect "^Tracing $target \($name\) with strace"
	expect "Process $target attached"
	keys C-c
	back_in_table
	expect "strace of $target \($name\) ended"
	# ptop itself outlived the Ctrl-C and still takes keys
	keys e
	expect "^Environment of $target"
	keys q
	back_in_table
else
	echo "$NAME: strace not run: not installed, or not root"
fi

start htop env PATH="$tmp/nobin" "$PTOP" -d 0.5 -p "$target"
keys s
expect "strace is not installed: cannot trace $target \($name\)"
[ ! -e "$tmp/status" ] || fail "ptop ended"

# ---- secure mode: shown, never set or traced ----
start htop "$PTOP" -s -d 0.5 -p "$target"
keys a
expect "^CPU affinity of $target \($name\) \(secure mode: shown only\)"
keys Space Enter
expect 'Secure mode \(-s\): the CPU affinity stays'
keys Escape
back_in_table
keys s
expect 'Secure mode \(-s\): no strace'

# ---- another user's process: a message, not a crash ----
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null 2>&1 &&
	setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$PTOP"; then
	start htop setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$PTOP" -d 0.5 -p "$target"
	keys e
	expect "Cannot read the environment of $target \($name\): Permission denied"
	keys l
	expect "Cannot list the open files of $target \($name\): Permission denied"
	keys a
	expect '^\[x\] CPU [0-9]'
	keys Space Enter
	expect "Cannot set the CPU affinity of $target \($name\): Operation not permitted"
	back_in_table
else
	echo "$NAME: another user's process not tried: not root, or nobody cannot run $PTOP"
fi

# ---- top's profile: s is the delay, e and l are top's (not htop's) ----
start top "$PTOP" -d 0.5 -p "$target"
keys s
expect 'Delay in seconds: '
keys Escape
back_in_table
keys e
expect 'Memory columns from MiB up'
off_screen "^Environment of" || fail "e showed the environment in top's profile"
keys e e e e e
expect 'Memory columns from KiB up'
keys l
wait_for off_screen '^ptop - .*load average' || fail "l left the load line in top's profile"
off_screen "^Open files of" || fail "l listed open files in top's profile"
keys l
expect '^ptop - .*load average' 
keys a
expect "^CPU affinity of $target"
keys q
back_in_table
keys h
# shellcheck disable=SC2046
keys $(yes Down | head -n 20)
expect '^ *a +Show or set the CPU affinity'
off_screen 'Show the environment' || fail "top's help lists htop's e"
keys q

finish
