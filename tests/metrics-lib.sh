# SPDX-License-Identifier: GPL-2.0-or-later
# metrics-lib.sh: sourced by the metrics endpoint's tests (ptop --listen):
# a temporary directory and cleanup of everything started, failure counting,
# waits that end on what they wait for (DEADLINE seconds at most), ptop
# started on a free loopback port, and busy children with a name of their own.

: "${PTOP:?PTOP must name the ptop binary}"
: "${srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
DEADLINE=${DEADLINE:-30}

if ! command -v python3 >/dev/null 2>&1; then
	echo "SKIP: python3 is needed to talk to the endpoint"
	exit 77
fi
PYTHON=$(python3 -c 'import sys; print(sys.executable or "python3")') || PYTHON=python3
CLIENT="$srcdir/tests/metrics_client.py"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptop-metrics.XXXXXX")
started=
cleanup() {
	for p in $started; do
		kill "$p" 2>/dev/null || :
	done
	for p in $started; do
		wait "$p" 2>/dev/null || :
	done
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

failures=0
fail() {
	echo "FAIL: $*" >&2
	failures=$((failures + 1))
}

# wait_until CMD...: run CMD every 0.1 s until it succeeds, for DEADLINE seconds
# at most, by the clock: a CMD that starts python3 takes seconds on a loaded machine.
wait_until() {
	end=$(($(date +%s) + DEADLINE))
	while ! "$@"; do
		[ "$(date +%s)" -ge "$end" ] && return 1
		sleep 0.1
	done
}

client() {
	"$PYTHON" "$CLIENT" "$@"
}

# busy NAME: a child named NAME (at most 15 bytes) that spins; its PID in $busy_pid.
busy() {
	ln -sf "$(command -v sh)" "$tmp/$1"
	"$tmp/$1" -c 'while :; do :; done' &
	busy_pid=$!
	started="$started $busy_pid"
}

port_of() {
	sed -n 's|.*serving metrics on http://[^ ]*:\([0-9]*\)/metrics.*|\1|p' "$1"
}

serving() {
	[ -n "$(port_of "$1")" ] &&
		[ "$(client get "$(port_of "$1")" /metrics 2>/dev/null | cut -d' ' -f1)" = 200 ]
}

# start_ptop NAME ARGS...: ptop --listen 127.0.0.1:0 ARGS in the background, its
# stderr in $tmp/NAME.err; returns once /metrics answers 200, with $port and $ptop_pid.
start_ptop() {
	name=$1
	shift
	"$PTOP" --listen 127.0.0.1:0 "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" &
	ptop_pid=$!
	started="$started $ptop_pid"
	if ! wait_until serving "$tmp/$name.err"; then
		echo "FAIL: ptop $* does not serve /metrics:" >&2
		cat "$tmp/$name.err" >&2
		exit 1
	fi
	port=$(port_of "$tmp/$name.err")
}

# rss_kb PID: resident memory from the kernel.
rss_kb() {
	awk '/^VmRSS:/ { print $2 }' "/proc/$1/status"
}
