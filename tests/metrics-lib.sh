# SPDX-License-Identifier: GPL-2.0-or-later
# metrics-lib.sh: sourced by the metrics endpoint's tests (ptop --listen),
# after lib.sh's opening (which it sources): the test client, ptop started on
# a free loopback port, and busy children with a name of their own.

: "${srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
NAME=${NAME:-$(basename "$0" .sh)}
# shellcheck source=tests/lib.sh
. "$srcdir/tests/lib.sh"

need_python "to talk to the endpoint"
CLIENT="$srcdir/tests/metrics_client.py"

client() {
	"$PYTHON" "$CLIENT" "$@"
}

# busy NAME: a child named NAME (at most 15 bytes) that spins; its PID in $busy_pid.
busy() {
	ln -sf "$(command -v sh)" "$tmp/$1"
	"$tmp/$1" -c 'while :; do :; done' &
	busy_pid=$!
	kids="$kids $busy_pid"
}

port_of() {
	sed -n 's|.*serving metrics on http://[^ ]*:\([0-9]*\)/metrics.*|\1|p' "$1"
}

serving() {
	[ -n "$(port_of "$1")" ] &&
		[ "$(client get "$(port_of "$1")" /metrics 2>/dev/null | cut -d' ' -f1)" = 200 ]
}

# one_at_a_time: wait until no other run of this test (its BPF twin runs the
# same script) holds its lock, then hold it until this one ends: the two start
# processes of the same names, which each one's ptop would group together
# under make -j.
one_at_a_time() {
	need flock "to run a test and its BPF twin one after the other (util-linux)"
	exec 9>"${builddir:-.}/tests/$NAME.lock"
	flock -w 300 9 || die "another run of $NAME held $builddir/tests/$NAME.lock for 5 minutes"
}

# start_ptop NAME ARGS...: ptop --listen 127.0.0.1:0 ARGS in the background, its
# stderr in $tmp/NAME.err; returns once /metrics answers 200, with $port and $ptop_pid.
start_ptop() {
	name=$1
	shift
	"$PTOP" --listen 127.0.0.1:0 "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" &
	ptop_pid=$!
	kids="$kids $ptop_pid"
	if ! wait_until serving "$tmp/$name.err"; then
		die "ptop $* does not serve /metrics: $(cat "$tmp/$name.err")"
	fi
	port=$(port_of "$tmp/$name.err")
}

# rss_kb PID: resident memory from the kernel.
rss_kb() {
	awk '/^VmRSS:/ { print $2 }' "/proc/$1/status"
}
