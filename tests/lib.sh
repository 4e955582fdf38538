# SPDX-License-Identifier: GPL-2.0-or-later
#
# lib.sh: the opening every shell test shares, sourced first, after setting
# NAME (the test's name, for messages; else the script's) and, if the
# scratch directory must be elsewhere than $TMPDIR, TMP_IN:
#
# - PTOP, the binary under test (./ptop unless make check names it): a test
#   without it fails; srcdir and builddir default to the current directory;
# - skip WHY, need CMD WHY, need_python WHY: exit 77 (automake's SKIP) with
#   the reason, when the test cannot run here; need_python sets PYTHON;
#   partial_skip WHY says that a part is not checked here;
# - $tmp, a new directory, removed at exit with what the test started: the
#   PIDs in $kids (killed, then waited for), the tmux server of $sock, the
#   process whose PID is in $tmp/ptop.pid; a test that started anything
#   else defines at_exit, which runs first; stop PID ends one of $kids
#   before that;
# - spawn_sleeper NAME, a sleeping process of that name; frame_sources, the
#   frame sources ptop has here in $sources;
# - a process's state, whether it is alive or gone, its nice value; waits
#   with a deadline and no timing besides: wait_until CMD... (until CMD
#   succeeds), wait_state PID LETTER (until a process is in that state);
# - fail WHY (counted; the test goes on), die WHY (the test ends now) and
#   finish (exit 1 after any failure, else PASS). A test that counted a
#   failure never exits 0, finish or not.

NAME=${NAME:-$(basename "$0" .sh)}
PTOP=${PTOP:-./ptop}
srcdir=${srcdir:-.}
builddir=${builddir:-.}
DEADLINE=${DEADLINE:-30}
export PTOP
if [ ! -x "$PTOP" ]; then
	echo "$NAME: FAIL: no ptop binary at $PTOP"
	exit 1
fi

skip() {
	echo "$NAME: SKIP: $*"
	exit 77
}

# partial_skip WHY: a part of the test this machine cannot check, said so;
# the rest is checked.
partial_skip() {
	echo "$NAME: partial skip: $*"
}

# need CMD WHY: skip, saying "CMD is needed WHY", without CMD.
need() {
	command -v "$1" >/dev/null 2>&1 || skip "$1 is needed $2"
}

# need_python WHY: need python3; PYTHON is then the interpreter's own path,
# so that it stays the same whatever PATH a test sets later.
need_python() {
	need python3 "$1"
	PYTHON=$(python3 -c 'import sys; print(sys.executable or "python3")') || PYTHON=python3
}

failures=0
fail() {
	echo "$NAME: FAIL: $*" >&2
	failures=$((failures + 1))
}

die() {
	echo "$NAME: FAIL: $*" >&2
	exit 1
}

finish() {
	[ "$failures" -eq 0 ] || exit 1
	echo "$NAME: PASS"
	exit 0
}

# kill_ptop: kill the ptop whose PID is in $tmp/ptop.pid, unless it ended
# (tmux-lib.sh's tm_run writes its status then).
kill_ptop() {
	if [ -s "$tmp/ptop.pid" ] && [ ! -e "$tmp/status" ]; then
		kill -KILL "$(cat "$tmp/ptop.pid")" 2>/dev/null || :
	fi
}

# Every step may fail (what it ends may be gone already): none may keep the
# rest from running, under set -e too.
kids=
lib_cleanup() {
	status=$?
	if command -v at_exit >/dev/null 2>&1; then
		at_exit || :
	fi
	if [ -n "${sock:-}" ] && [ -n "${TMUX_BIN:-}" ]; then
		"$TMUX_BIN" -L "$sock" -f /dev/null kill-server >/dev/null 2>&1 || :
	fi
	kill_ptop
	for p in $kids; do
		kill -KILL "$p" 2>/dev/null || : # a stopped one would not see a TERM
	done
	for p in $kids; do
		wait "$p" 2>/dev/null || :
	done
	rm -rf "$tmp"
	if [ "$status" -eq 0 ] && [ "$failures" -ne 0 ]; then
		exit 1
	fi
	exit "$status"
}

# wait_until CMD...: run CMD every 0.1 s until it succeeds, for DEADLINE
# seconds (default 30) at most, by the clock: on a loaded machine the test
# is slower, not failed, and a CMD that starts python3 (seconds there) does
# not stretch it.
wait_until() {
	end=$(($(date +%s) + DEADLINE))
	while ! "$@"; do
		[ "$(date +%s)" -ge "$end" ] && return 1
		sleep 0.1
	done
	return 0
}

# state PID: the state letter of process PID (R, S, D, T, Z...), as stat says.
state() {
	sed 's/.*) //; s/ .*//' "/proc/$1/stat" 2>/dev/null
}

# unified_cgroups: $unified, where the cgroup2 (unified) hierarchy is mounted
# (/sys/fs/cgroup, or /sys/fs/cgroup/unified on a hybrid machine), and $own,
# this process's cgroup in it; skips (77) when there is none.
unified_cgroups() {
	if [ -f /sys/fs/cgroup/cgroup.controllers ]; then
		unified=/sys/fs/cgroup
	elif [ -f /sys/fs/cgroup/unified/cgroup.controllers ]; then
		unified=/sys/fs/cgroup/unified
	else
		skip "no cgroup2 (unified) hierarchy mounted"
	fi
	own=$(sed -n 's/^0:://p' /proc/self/cgroup)
	[ -n "$own" ] || skip "this process is in no cgroup of the unified hierarchy"
}

# own_cgroup NAME: $cg, a new cgroup NAME under $unified, removed at the end
# once $kids (which the test moves into it) are killed; skips (77) when its
# cpu.pressure cannot be read (a kernel without PSI). Status 1 when it cannot
# be made (not root, cgroup2 not writable).
own_cgroup() {
	cg=$unified/$1
	mkdir "$cg" 2>/dev/null || return 1
	at_exit() {
		for p in $kids; do
			kill -KILL "$p" 2>/dev/null
			wait "$p" 2>/dev/null
		done
		kids=
		wait_until rmdir "$cg" 2>/dev/null
	}
	[ -r "$cg/cpu.pressure" ] || skip "no cpu.pressure in a cgroup: a kernel without PSI"
}

# waits_in PID: each of its tasks with its state, wchan and (as root) the
# top of its kernel stack, one line: for a failure's message where a process
# made no progress.
waits_in() {
	for t in /proc/"$1"/task/*; do
		printf '%s %s %s [%s]; ' "${t##*/}" "$(sed 's/.*) //; s/ .*//' "$t/stat" 2>/dev/null)" \
			"$(cat "$t/wchan" 2>/dev/null)" "$(head -4 "$t/stack" 2>/dev/null | tr '\n' ' ')"
	done
}

# alive PID: the process is there and not a zombie; gone PID: it is not.
alive() {
	kill -0 "$1" 2>/dev/null && [ "$(state "$1")" != Z ]
}

gone() {
	! alive "$1"
}

# nice_of PID: its nice value, as stat says.
nice_of() {
	sed 's/.*) //' "/proc/$1/stat" | cut -d' ' -f17
}

# wait_state PID LETTER: wait until process PID is in that state, or end
# the test failed (see wait_until).
in_state() {
	[ "$(state "$1")" = "$2" ]
}

wait_state() {
	wait_until in_state "$1" "$2" || die "process $1 never got to state $2"
}

# stop PID: end one of $kids now (SIGKILL) and wait for it; it is then no
# longer in $kids, so the cleanup never signals a PID that may have been reused.
stop() {
	kill -KILL "$1" 2>/dev/null || :
	wait "$1" 2>/dev/null || :
	rest=
	for p in $kids; do
		[ "$p" = "$1" ] || rest="$rest $p"
	done
	kids=$rest
}

# frame_sources: $sources, the frame sources ptop has here (procfs, and bpf and
# bpf-delta where they load: a frame of one that says it made it), said on stdout.
frame_sources() {
	sources=procfs
	for s in bpf bpf-delta; do
		if "$PTOP" -b -n 1 -o json --source=$s -p 1 2>"$tmp/src.err" |
			grep -q "\"source\":\"$s\""; then
			sources="$sources $s"
		fi
	done
	echo "sources: $sources"
}

# spawn_named NAME [PROGRAM ARGS...]: a copy of PROGRAM (sleep unless told)
# named NAME, run with ARGS (600 unless told); its PID is left in $spawned
# and in $kids for the cleanup.
spawn_named() {
	name=$1
	shift
	prog=${1:-sleep}
	[ $# -gt 0 ] && shift
	cp "$(command -v "$prog")" "$tmp/$name" || exit 1
	if [ $# -gt 0 ]; then
		"$tmp/$name" "$@" &
	else
		"$tmp/$name" 600 &
	fi
	spawned=$!
	kids="$kids $spawned"
}

# spawn_sleeper NAME: a copy of sleep 600 named NAME (as spawn_named).
spawn_sleeper() {
	spawn_named "$1"
}

tmp=$(mktemp -d "${TMP_IN:-${TMPDIR:-/tmp}}/ptop-$NAME.XXXXXX") || exit 1
trap lib_cleanup EXIT
trap 'exit 1' HUP INT TERM
