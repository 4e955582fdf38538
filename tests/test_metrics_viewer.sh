#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_metrics_viewer.sh: the viewer serves metrics with --listen --viewer
# (in tmux): its screen shows processes and says where it serves, /metrics
# answers with a busy child's group, and q ends both the viewer and the
# server (the port is closed). make check sets PTOP, srcdir and TMUX_BIN.
NAME=test_metrics_viewer
WAIT_SECONDS=30
. "${srcdir:-.}/tests/tmux-lib.sh"
need_tmux
need_python "to talk to the endpoint"

client() {
	"$PYTHON" "$srcdir/tests/metrics_client.py" "$@"
}

b=pmv$$b
ln -s "$(command -v sh)" "$tmp/$b"
"$tmp/$b" -c 'while :; do :; done' &
kids=$!
port=$("$PYTHON" -c '
import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])')

tm_env
tm_run "$PTOP" --listen "127.0.0.1:$port" --viewer -d 0.5
expect "serving metrics on http://127.0.0.1:$port/metrics"
expect '^ *PID +USER'
cpu() { client value "$port" ptop_group_cpu_seconds_total "comm=$b"; }
grows() { v=$(cpu) && "$PYTHON" -c "import sys; sys.exit(not $v > 0.2)"; }
wait_for grows || fail "the viewer serves no CPU time of $b: $(cpu 2>&1)"
keys q
wait_for test -s "$tmp/status" || fail "q did not end the viewer"
[ "$(cat "$tmp/status")" = 0 ] || fail "the viewer ended with $(cat "$tmp/status")"
client get "$port" /metrics >/dev/null 2>&1 && fail "the port is still served after q"
finish
