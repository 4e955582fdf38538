# SPDX-License-Identifier: GPL-2.0-or-later
#
# tmux-lib.sh: what the tests that drive ptop in tmux share, sourced after
# setting NAME (for messages); it sources lib.sh first. A private server
# (tm, on socket $sock, killed at exit) with a session ($session), ptop
# started in it (tm_run) in a known environment (tm_env), the screen as
# text, waiting for a pattern, sending keys, failing with the screen shown.

# shellcheck source=tests/lib.sh
. "${srcdir:-.}/tests/lib.sh"

TMUX_BIN=${TMUX_BIN-$(command -v tmux)}
sock=ptop$NAME$$
session=$NAME

# need_tmux: exit 77 (automake's SKIP) without tmux.
need_tmux() {
	if [ -z "$TMUX_BIN" ] || ! command -v "$TMUX_BIN" >/dev/null 2>&1; then
		skip "tmux is not installed"
	fi
}

# tm_env: what the viewer under test sees, from before the server starts: a
# home of its own ($tmp/home) and settings in $tmp/config (not made: a test
# may write ptoprc there first, or see W make it), UTF-8 without a locale's
# other conventions, a terminal type, and no tmux or NO_COLOR of the caller's.
tm_env() {
	mkdir -p "$tmp/home" || exit 1
	HOME=$tmp/home
	XDG_CONFIG_HOME=$tmp/config
	LANG=C.UTF-8
	LC_ALL=
	TERM=${TERM:-xterm}
	export HOME XDG_CONFIG_HOME LANG LC_ALL TERM
	unset TMUX TMUX_PANE NO_COLOR
}

# one_column_meters: ptoprc's line for the header in one column across the
# screen, top's lines and ptop's own below them (the top key profile's
# default), for a test that reads those lines from the start of a row.
one_column_meters='meters = uptime,tasks,cpu,memory,swap,disk,network,cost,accounted'

# tm_run CMD...: a new session of TM_COLS x TM_LINES (160x48) running CMD
# (ptop, or a command that execs it), kept on screen after it ends: its PID
# in $tmp/ptop.pid (killed at exit), its exit status in $tmp/status once it
# ended.
tm_run() {
	rm -f "$tmp/ptop.pid" "$tmp/status"
	# shellcheck disable=SC2016 # expanded by the shells in the session
	tm new-session -d -s "$session" -x "${TM_COLS:-160}" -y "${TM_LINES:-48}" \
		sh -c 'sh -c '\''echo $$ >"$0/ptop.pid"; exec "$@"'\'' "$0" "$@"; echo $? >"$0/status"' \
		"$tmp" "$@" || fail "tmux cannot start a session"
	tm set-option -t "$session" remain-on-exit on >/dev/null 2>&1
}

tm() {
	"$TMUX_BIN" -L "$sock" -f /dev/null "$@"
}

# tm_new_server: end this test's tmux server, if any, and take a new socket
# for the next one. A server killed and started again at once on the same
# socket races: the new client can reach the dying server ("server exited
# unexpectedly"). The test's cleanup kills the last one, through $sock.
# The last session's ptop, if still running, is killed first rather than
# left to the hangup of its vanishing terminal: sanitized ptops exiting on
# that were found spinning for good in the leak check's stop of their
# threads, long after test_inspect.sh had passed.
tm_servers=0
tm_new_server() {
	kill_ptop
	tm kill-server >/dev/null 2>&1
	tm_servers=$((tm_servers + 1))
	sock=${sock%_[0-9]*}_$tm_servers
}

# tm_start NAME CMD...: CMD in a new session NAME on a server of its own
# (ptop and htop, one after the other, each ask their terminal for things).
tm_start() {
	tm_new_server
	session=$1
	shift
	tm_run "$@"
}

# start_keys PROFILE ARGS...: ptop -d 0.5 ARGS with "keys = PROFILE" in its
# ptoprc, on a server of its own (the last one may still be going away),
# its table shown, headed as the profile heads it (htop's PRI, top's PR).
start_keys() {
	heads='^ *PID +USER +PRI +NI'
	[ "$1" != top ] || heads='^ *PID +USER +PR +NI'
	mkdir -p "$tmp/config/ptop"
	printf 'keys = %s\n' "$1" >"$tmp/config/ptop/ptoprc"
	shift
	tm_new_server
	tm_run "$PTOP" -d 0.5 "$@"
	expect "$heads"
}

# htop_beside: $HTOP, to run beside ptop, or a note that ptop is checked alone.
htop_beside() {
	HTOP=$(command -v htop)
	[ -n "$HTOP" ] || partial_skip "htop is not installed (Debian package htop): ptop alone is checked"
}

# htop_ended: wait until the session's htop has ended (it writes its htoprc
# as it quits, and a file written after the removal is found by the next
# ptop), then remove what it wrote there: not ptop's to import.
htop_ended() {
	wait_for test -s "$tmp/status" || fail "htop did not end"
	rm -rf "$XDG_CONFIG_HOME/htop"
}

# htop_quit: q to the session's htop, then htop_ended
htop_quit() {
	keys q
	htop_ended
}

# selected_line: the screen's line number of the selected row (drawn black on cyan)
selected_line() {
	tm capture-pane -e -p -t "$session" 2>/dev/null | grep -n "$(printf '\033')\\[46m" |
		head -n 1 | cut -d: -f1
}

# positive CMD...: whether CMD prints a number above 0, now: for wait_for, which runs it again
# each time (a $(CMD) among wait_for's arguments would be the screen before the wait)
positive() {
	n=$("$@")
	[ "${n:-0}" -gt 0 ] 2>/dev/null
}

# selected_on [LINE]: whether the selection is on that line of the screen (on any line,
# without one), as the screen shows it now: for wait_for, which runs it again each time
selected_on() {
	if [ $# -eq 0 ]; then
		[ -n "$(selected_line)" ]
	else
		[ "$(selected_line)" = "$1" ]
	fi
}

# select_row TEXT: move the selection of a list longer than the screen (the
# column chooser) onto the row that holds TEXT, up from the list's end: a
# page at a time until the row is on screen, then row by row (the list may
# scroll as the selection moves). Fails when no such row is reached.
select_row() {
	keys End
	wait_for selected_on || fail "no row is selected"
	wait_for settled || fail "the screen does not settle"
	pages=0
	at=$(screen | grep -nF -- "$1" | head -n 1 | cut -d: -f1)
	while [ -z "$at" ]; do
		[ "$pages" -lt 40 ] || fail "no row holds '$1'"
		pages=$((pages + 1))
		page_before=$(tm capture-pane -e -p -t "$session" 2>/dev/null)
		keys PageUp
		wait_for page_moved || fail "PageUp did not move the list toward '$1'"
		wait_for settled || fail "the screen does not settle"
		at=$(screen | grep -nF -- "$1" | head -n 1 | cut -d: -f1)
	done
	up=$(($(selected_line) - at))
	while [ "$up" -gt 0 ]; do
		keys Up
		up=$((up - 1))
	done
	while [ "$up" -lt 0 ]; do
		keys Down
		up=$((up + 1))
	done
	wait_for selected_is "$1" || fail "the selection did not reach '$1'"
}
# selected_is TEXT: the selected row holds TEXT (where the list scrolled it to)
selected_is() {
	screen | sed -n "$(selected_line)p" | grep -qF -- "$1"
}
# page_moved: the selection or the list moved since page_before
page_moved() {
	[ "$(tm capture-pane -e -p -t "$session" 2>/dev/null)" != "$page_before" ]
}
# settled: the screen, selection included, is the same twice 0.2 s apart (drawn whole)
settled() {
	before=$(tm capture-pane -e -p -t "$session" 2>/dev/null)
	sleep 0.2
	[ "$(tm capture-pane -e -p -t "$session" 2>/dev/null)" = "$before" ]
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

# table_rows: the rows of the table on the screen, the lines between the
# column headings (PID first, the sort mark may follow it, USER need not) and
# the status line.
table_rows() {
	screen | awk '/^ *PID(▲|▼)?( |[A-Z]).*(COMMAND|Command)/ { on = 1; next } on { print }' | sed '$d' |
		grep -v '^ *$'
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
