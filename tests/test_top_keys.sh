#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_top_keys.sh: the keys of the top profile ("keys = top" in ptoprc)
# that mean in ptop what they mean in top, checked beside top itself where
# top is installed (in a second session of the same private tmux server, on
# the same processes through -p), else against what top's manual says:
# N sorts by PID, highest first, and keeps the direction when pressed again
# (R reverses it). The htop profile's N stays htop's (PID, lowest first).
# S turns cumulative time on and off (TIME+ of a shell that waited for a
# child that burned CPU: its own, then with the child's), as -S starts it;
# the htop profile's S stays the column chooser. i hides the processes
# idle in the interval (a sleep) and keeps a busy one (a copy of yes), and
# the footer says so; -i starts the viewer with them hidden. u and U ask
# "Which user (blank for all): " as top does and take a name, a uid or !
# (u the effective user, U any of real, effective, saved, fs: a process
# with nobody's real uid and root's effective one tells them apart); a
# blank answer shows all, Esc changes nothing, an unknown user says
# "Invalid user" and shows all, as top does.
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

# ---- S: cumulative time, as -S ----------------------------------------------
if command -v python3 >/dev/null 2>&1; then
	# the child counts its own CPU time (what the kernel counts, not a sleep);
	# the shell waits for it, so its cutime holds it, then becomes sleep
	sh -c '"$2" -c "import os
while os.times().user + os.times().system < 0.3:
    pass"; : >"$1"; exec sleep 600' sh "$tmp/ready" python3 &
	cum=$!
	kids="$kids $cum"
	wait_for test -e "$tmp/ready" || fail "the child never used its 0.3 s of CPU"
	asleep() { [ "$(cat "/proc/$cum/comm")" = sleep ] && [ "$(state "$cum")" = S ]; }
	wait_for asleep || fail "the shell never became sleep"
	set -- $(sed 's/.*) //' "/proc/$cum/stat" | awk '{ print $12, $13, $14, $15 }')
	ut=$1 st=$2 cut=$3 cst=$4
	hz=$(getconf CLK_TCK)
	time_plus() { # TIME+ of ticks, as top prints it
		awk -v t="$1" -v hz="$hz" 'BEGIN { cs = int(t * 100 / hz)
			printf "%d:%02d.%02d\n", int(cs / 6000), int(cs / 100) % 60, cs % 100 }'
	}
	own=$(time_plus $((ut + st)))
	all=$(time_plus $((ut + st + cut + cst)))
	[ "$own" != "$all" ] || fail "the shell's TIME+ is $own with its child's time too"
	# time_is SCREEN TIME: the row of $cum shows TIME+ TIME
	time_is() {
		"$1" | awk -v p="$cum" -v t="$2" '$1 == p { for (i = 2; i <= NF; i++) if ($i == t) ok = 1 }
			END { exit !ok }'
	}
	start top -p "$cum"
	wait_for time_is screen "$own" || fail "TIME+ should be the own $own at start"
	keys S
	expect 'Cumulative time on'
	wait_for time_is screen "$all" || fail "S: TIME+ should be $all, with the child's"
	keys S
	expect 'Cumulative time off'
	wait_for time_is screen "$own" || fail "S again: TIME+ should be the own $own"
	keys S S S
	wait_for time_is screen "$all" || fail "S S S typed together: TIME+ should be $all"
	if top_start -p "$cum"; then
		wait_for time_is top_screen "$own" || fail "top: TIME+ should be $own"
		top_keys S
		top_expect 'Cumulative time On'
		wait_for time_is top_screen "$all" || fail "top's S: TIME+ should be $all"
	fi
	keys q
	# -S starts the viewer with it on, in either profile; htop's S is the column chooser
	start htop -S -p "$cum"
	wait_for time_is screen "$all" || fail "-S: TIME+ should be $all at start"
	keys S
	expect '^Columns: '
	keys Escape q
	if top_start -S -p "$cum"; then
		wait_for time_is top_screen "$all" || fail "top -S: TIME+ should be $all"
	fi
else
	partial_skip "no python3 for a child that burns CPU: S not checked"
fi

# ---- i: the idle processes hidden, as -i -------------------------------------
# a (asleep) is idle; y (a copy of yes) runs all the time, for this part only
cp "$(command -v yes)" "$tmp/${prefix}y" || exit 1
"$tmp/${prefix}y" >/dev/null &
y=$!
kids="$kids $y"
has_row() { # SCREEN PID
	case " $(pids_of "$1")" in *" $2 "*) return 0 ;; esac
	return 1
}
only_busy() { has_row "$1" "$y" && ! has_row "$1" "$a"; }
both() { has_row "$1" "$y" && has_row "$1" "$a"; }
start top -p "$a,$y"
wait_for both screen || fail "a and y should show at start: $(pids_of screen)"
keys i
expect 'Idle processes hidden'
wait_for only_busy screen || fail "i should hide a ($a), not y ($y): $(pids_of screen)"
expect 'F10Quit .*\[idle hidden\]'
keys i
expect 'Idle processes shown'
wait_for both screen || fail "i again should show a: $(pids_of screen)"
wait_for off_screen '\[idle hidden\]' || fail "the footer should not say idle hidden"
keys i i i
wait_for only_busy screen || fail "i i i typed together should hide a: $(pids_of screen)"
expect 'F10Quit .*\[idle hidden\]'
if top_start -p "$a,$y"; then
	wait_for both top_screen || fail "top should show a and y: $(pids_of top_screen)"
	top_keys i
	wait_for only_busy top_screen || fail "top's i should hide a: $(pids_of top_screen)"
fi
keys q
# -i starts the viewer with them hidden, said in the footer; i shows them
start htop -i -p "$a,$y"
wait_for only_busy screen || fail "-i: a should be hidden: $(pids_of screen)"
expect 'F10Quit .*\[idle hidden\]'
keys i
wait_for both screen || fail "i after -i should show a: $(pids_of screen)"
keys q
if top_start -i -p "$a,$y"; then
	wait_for only_busy top_screen || fail "top -i: a should be hidden: $(pids_of top_screen)"
fi
stop "$y"

# ---- u, U: a user asked for, by name or uid ----------------------------------
# n is nobody's through and through; r has nobody's real uid and root's
# effective one (u does not take it for nobody's, U does); a is root's
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1 &&
	[ "$(id -un 65534 2>/dev/null)" = nobody ]; then
	cp "$(command -v sleep)" "$tmp/${prefix}n" && cp "$(command -v sleep)" "$tmp/${prefix}r" &&
		chmod 755 "$tmp" || exit 1
	setpriv --reuid=65534 --regid=65534 --clear-groups "$tmp/${prefix}n" 600 &
	n=$!
	setpriv --ruid=65534 "$tmp/${prefix}r" 600 &
	r=$!
	kids="$kids $n $r"
	users=$a,$n,$r
	# shows SCREEN PIDS...: the rows are these processes, in any order
	shows() {
		scr=$1
		shift
		[ "$(pids_of "$scr" | tr ' ' '\n' | grep . | sort -n | tr '\n' ' ')" = \
			"$(printf '%s\n' "$@" | sort -n | tr '\n' ' ')" ]
	}
	start top -p "$users"
	wait_for shows screen "$a" "$n" "$r" || fail "a, n and r should show: $(pids_of screen)"
	keys u
	expect 'Which user \(blank for all\): _'
	keys -l nobody
	keys Enter
	wait_for shows screen "$n" || fail "u nobody: only n ($n) should show: $(pids_of screen)"
	keys U
	expect 'Which user \(blank for all\): _'
	keys -l nobody
	keys Enter
	wait_for shows screen "$n" "$r" || fail "U nobody: n and r should show: $(pids_of screen)"
	# typed together, before a redraw: a uid, and ! for every other user
	keys u 65534 Enter
	wait_for shows screen "$n" || fail "u 65534: only n should show: $(pids_of screen)"
	keys U '!nobody' Enter
	wait_for shows screen "$a" || fail "U !nobody: only a should show: $(pids_of screen)"
	# Esc changes nothing; a blank answer shows every user; an unknown one says so
	keys u nobody Escape
	wait_for off_screen 'Which user' || fail "Esc should close the prompt"
	shows screen "$a" || fail "Esc should keep the filter: $(pids_of screen)"
	keys u Enter
	wait_for shows screen "$a" "$n" "$r" || fail "a blank user should show all: $(pids_of screen)"
	keys u nobody Enter
	wait_for shows screen "$n" || fail "u nobody again: $(pids_of screen)"
	keys u
	keys -l "${prefix}nosuchuser"
	keys Enter
	expect 'Invalid user'
	wait_for shows screen "$a" "$n" "$r" || fail "an unknown user shows all, as top: $(pids_of screen)"
	# top's prompt and message beside ptop's (top's u drops its -p list, so
	# its rows are not compared here)
	if top_start; then
		top_keys u
		top_expect 'Which user \(blank for all\)'
		top_keys x y z z y Enter
		top_expect 'Invalid user'
	fi
	keys q
	stop "$n"
	stop "$r"
else
	partial_skip "u and U need root, setpriv and a user nobody (65534)"
fi

finish
