# SPDX-License-Identifier: GPL-2.0-or-later
#
# tmux-lib.sh: what the tests that drive ptop in tmux share, sourced after
# setting NAME (for messages), sock and session: the private server (tm), the
# screen as text, waiting for a pattern, sending keys, failing with the
# screen shown; and the check every such test starts with.

# need_tmux_and_ptop: exit 77 (automake's SKIP) without tmux, 1 without the
# ptop binary at PTOP.
need_tmux_and_ptop() {
	if [ -z "$TMUX_BIN" ] || ! command -v "$TMUX_BIN" >/dev/null 2>&1; then
		echo "$NAME: SKIP: tmux is not installed"
		exit 77
	fi
	if [ ! -x "$PTOP" ]; then
		echo "$NAME: FAIL: no ptop binary at $PTOP"
		exit 1
	fi
}

tm() {
	"$TMUX_BIN" -L "$sock" -f /dev/null "$@"
}

# tm_new_server: end this test's tmux server, if any, and take a new socket
# for the next one. A server killed and started again at once on the same
# socket races: the new client can reach the dying server ("server exited
# unexpectedly"). The test's cleanup kills the last one, through $sock.
tm_servers=0
tm_new_server() {
	tm kill-server >/dev/null 2>&1
	tm_servers=$((tm_servers + 1))
	sock=${sock%_[0-9]*}_$tm_servers
}

screen() {
	tm capture-pane -p -t "$session" 2>/dev/null
}

fail() {
	echo "$NAME: FAIL: $*"
	echo "---- screen ----"
	screen
	echo "----------------"
	exit 1
}

# wait_for CMD...: run CMD every 0.1 s until it succeeds, for up to
# WAIT_SECONDS (default 5) s. A test whose waits all expect success sets
# WAIT_SECONDS=30, so that a loaded machine slows it down rather than fails it.
wait_for() {
	i=0
	while [ $i -lt $((${WAIT_SECONDS:-5} * 10)) ]; do
		"$@" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

# on_screen PATTERN: the pane shows a line matching the extended regex.
on_screen() {
	screen | grep -Eq -- "$1"
}

off_screen() {
	! screen | grep -Eq -- "$1"
}

expect() {
	wait_for on_screen "$1" || fail "expected /$1/ on the screen"
}

keys() {
	tm send-keys -t "$session" "$@"
}
