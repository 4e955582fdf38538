#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_metrics_viewer.sh: the viewer serves metrics with --listen --viewer
# (in tmux): its screen shows processes and says where it serves, /metrics
# answers with a busy child's group, and q ends both the viewer and the
# server (the port is closed). make check sets PTOP, srcdir and TMUX_BIN.
PTOP=${PTOP:-./ptop}
NAME=test_metrics_viewer
srcdir=${srcdir:-.}
WAIT_SECONDS=30
sock=ptopmv$$
session=mv
. "$srcdir/tests/tmux-lib.sh"
need_tmux_and_ptop
if ! command -v python3 >/dev/null 2>&1; then
	echo "$NAME: SKIP: python3 is not installed"
	exit 77
fi
PYTHON=$(python3 -c 'import sys; print(sys.executable or "python3")') || PYTHON=python3
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptop-mv.XXXXXX") || exit 1
busy_pid=
cleanup() {
	tm kill-server 2>/dev/null
	[ -n "$busy_pid" ] && kill "$busy_pid" 2>/dev/null && wait "$busy_pid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' HUP INT TERM

client() {
	"$PYTHON" "$srcdir/tests/metrics_client.py" "$@"
}

b=pmv$$b
ln -s "$(command -v sh)" "$tmp/$b"
"$tmp/$b" -c 'while :; do :; done' &
busy_pid=$!
port=$("$PYTHON" -c '
import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])')

tm new-session -d -s "$session" -x 160 -y 48 \
	"HOME=$tmp '$PTOP' --listen 127.0.0.1:$port --viewer -d 0.5; echo \$? > '$tmp/status'; sleep 60"
expect "serving metrics on http://127.0.0.1:$port/metrics"
expect '^ *PID +USER'
cpu() { client value "$port" ptop_group_cpu_seconds_total "comm=$b"; }
grows() { v=$(cpu) && "$PYTHON" -c "import sys; sys.exit(not $v > 0.2)"; }
wait_for grows || fail "the viewer serves no CPU time of $b: $(cpu 2>&1)"
keys q
wait_for test -s "$tmp/status" || fail "q did not end the viewer"
[ "$(cat "$tmp/status")" = 0 ] || fail "the viewer ended with $(cat "$tmp/status")"
client get "$port" /metrics >/dev/null 2>&1 && fail "the port is still served after q"
echo "$NAME: PASS"
