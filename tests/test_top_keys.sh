#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_top_keys.sh: the keys of the top profile ("keys = top" in ptoprc)
# that mean in ptop what they mean in top, checked beside top itself where
# top is installed (in a second session of the same private tmux server, on
# the same processes through -p), else against what top's manual says:
# N sorts by PID, highest first, and keeps the direction when pressed again
# (R reverses it). The htop profile's N stays htop's (PID, lowest first).
# Keys are also sent several at once, typed before a redraw. make check sets
# PTOP, srcdir and TMUX_BIN.

NAME=test_top_keys

# Every wait here expects success: a loaded machine may slow it, not fail it.
WAIT_SECONDS=30
. "${srcdir:-.}/tests/tmux-lib.sh"
need_tmux

prefix=$(printf 'tk%07d' $$)

# spawn LETTER [PROGRAM ARGS]: a process named for this run and letter (a copy
# of sleep 600 unless told); its PID is left in $spawned and in $kids.
spawn() {
	name=$prefix$1
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

# start PROFILE ARGS...: ptop with ptoprc keys = PROFILE and ARGS, in a new
# server; top, when installed, is started in it by top_start.
start() {
	profile=$1
	shift
	mkdir -p "$tmp/config/ptop"
	printf 'keys = %s\n' "$profile" >"$tmp/config/ptop/ptoprc"
	tm_new_server # a server of its own: the last one may still be going away
	tm_run "$PTOP" -d 0.5 "$@"
	expect '^ *PID +USER +PR +NI'
}

# top_start ARGS...: top (its defaults: no toprc in this home) in session
# "top" of the same server, false when top is not installed.
have_top=
command -v top >/dev/null 2>&1 && have_top=1
[ -n "$have_top" ] || partial_skip "no top to compare with: checked against top's manual"
top_start() {
	[ -n "$have_top" ] || return 1
	tm new-session -d -s top -x 160 -y 48 top -d 0.5 "$@" || fail "tmux cannot start top"
	top_expect '^ *PID +USER +PR +NI'
}
top_screen() {
	tm capture-pane -p -t top 2>/dev/null
}
top_on_screen() {
	top_screen | grep -Eq -- "$1"
}
top_expect() {
	wait_for top_on_screen "$1" || fail "expected /$1/ on top's screen: $(top_screen)"
}
# top_keys KEY...: top reads the keys that came together as one (it takes
# them for an escape sequence): each is sent on its own, a second apart,
# which paces the input, not the waits for what it does
top_keys() {
	for k in "$@"; do
		sleep 1
		tm send-keys -t top "$k"
	done
}

# pids_of SCREEN: the PIDs of the table's rows, in order, on one line
pids_of() {
	"$1" | awk '/^ *PID.*COMMAND/ { on = 1; next } on && $1 ~ /^[0-9]+$/ { printf "%s ", $1 }'
}
# order_is SCREEN PIDS: the table lists PIDS ("1 2 3 "), in that order
order_is() {
	[ "$(pids_of "$1")" = "$2" ]
}

tm_env

spawn a
a=$spawned
spawn b
b=$spawned
spawn c
c=$spawned
pids=$a,$b,$c
up=$(printf '%s\n' "$a" "$b" "$c" | sort -n | tr '\n' ' ')
down=$(printf '%s\n' "$a" "$b" "$c" | sort -rn | tr '\n' ' ')

# ---- N: PID, highest first; again, the same; R reverses --------------------
start top -p "$pids"
keys N
wait_for order_is screen "$down" || fail "N: want PIDs $down highest first, got $(pids_of screen)"
expect 'PID▼'
keys N
keys X # a key after it: N has been taken once the hint for X shows
expect 'X: no such key'
order_is screen "$down" || fail "N again: want $down still, got $(pids_of screen)"
keys R
wait_for order_is screen "$up" || fail "R after N: want $up, got $(pids_of screen)"
# typed fast, before a redraw: R N N R (N keeps the direction R gave)
keys R N N R
wait_for order_is screen "$up" || fail "R N N R: want $up, got $(pids_of screen)"
if top_start -p "$pids"; then
	top_keys N
	wait_for order_is top_screen "$down" || fail "top's N: $(pids_of top_screen), not $down"
	top_keys N R
	wait_for order_is top_screen "$up" || fail "top's N R: $(pids_of top_screen), not $up"
	top_keys R N N R
	wait_for order_is top_screen "$up" || fail "top's R N N R: $(pids_of top_screen), not $up"
	top_keys R
	wait_for order_is top_screen "$down" || fail "top's R: $(pids_of top_screen), not $down"
fi
keys q

# the htop profile's N is htop's: PID, lowest first; again, reversed
start htop -p "$pids"
keys N
wait_for order_is screen "$up" || fail "htop's N: want $up, got $(pids_of screen)"
keys N
wait_for order_is screen "$down" || fail "htop's N N: want $down, got $(pids_of screen)"
keys q

finish
