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
# "Invalid user" and shows all, as top does. k asks "PID to signal/kill
# [default pid = N]: " (N the selected process, where top's is its first
# row), then "Send pid N signal [15/sigterm]: ", taking a number or a name
# with or without SIG in any case: the signal reaches that process alone
# (each victim's exit status says which signal; the others stay alive); Esc
# at either prompt sends nothing; a PID no row shows is refused; a default
# that ended is reported. r asks "PID to renice [default pid = N]: " then
# "Renice PID N to value: " and renices that process alone. Secure mode
# refuses both.
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
	letter=$1
	shift
	spawn_named "$prefix$letter" "$@"
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
	"$1" | awk '/^ *PID.*(COMMAND|Command)/ { on = 1; next } on && $1 ~ /^[0-9]+$/ { printf "%s ", $1 }'
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
start_keys top -p "$pids"
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
start_keys htop -p "$pids"
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
	start_keys top -p "$cum"
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
	# -S starts the viewer with it on, in either profile; htop's S is Setup, as in htop
	start_keys htop -S -p "$cum"
	wait_for time_is screen "$all" || fail "-S: TIME+ should be $all at start"
	keys S
	expect '^Setup +Left column'
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
start_keys top -p "$a,$y"
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
start_keys htop -i -p "$a,$y"
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
	start_keys top -p "$users"
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

# ---- k, r: a PID (the selected one by default), then a signal or a nice ------
spawn d
d=$spawned
spawn e
e=$spawned
spawn f
f=$spawned
spawn g
g=$spawned
spawn h
h=$spawned
spawn j
j=$spawned
victims=$d,$e,$f,$g,$h,$j
# reaped PID: wait for our child PID, its exit status in $st; it leaves
# $kids, so the cleanup never signals its PID, which another may have now
reaped() {
	wait "$1"
	st=$?
	rest=
	for p in $kids; do
		[ "$p" = "$1" ] || rest="$rest $p"
	done
	kids=$rest
}
start_keys top -p "$victims"
# by PID, highest first: v1 to v6
set -- $(printf '%s\n' "$d" "$e" "$f" "$g" "$h" "$j" | sort -rn)
v1=$1 v2=$2 v3=$3 v4=$4 v5=$5 v6=$6
# Home then Down selects v2, with v1 above it (top's default would be v1)
keys N Home Down
keys k
expect "PID to signal/kill \\[default pid = $v2\\]: _"
keys Escape
wait_for off_screen 'PID to signal' || fail "Esc should close the PID prompt"
keys k Enter
expect "Send pid $v2 signal \\[15/sigterm\\]: _"
keys Escape
wait_for off_screen 'Send pid' || fail "Esc should close the signal prompt"
alive "$v2" || fail "Esc at either prompt must send nothing ($v2 is gone)"
# the default, then TERM by default: the selected process, not the first row
keys k Enter Enter
expect "Sent SIGTERM to $v2 "
reaped "$v2"; [ "$st" = 143 ] || fail "k Enter Enter: $v2 should have died of SIGTERM, not $st"
alive "$v1" || fail "the first row ($v1) must be alive"
# a PID typed, and a signal by name, number, with or without SIG, any case;
# each typed together before a redraw
keys k "$v3" Enter kill Enter
expect "Sent SIGKILL to $v3 "
reaped "$v3"; [ "$st" = 137 ] || fail "k $v3 kill: $v3 should have died of SIGKILL, not $st"
keys k "$v4" Enter SIGKILL Enter
expect "Sent SIGKILL to $v4 "
reaped "$v4"; [ "$st" = 137 ] || fail "k $v4 SIGKILL: $v4 should have died of SIGKILL, not $st"
keys k "$v5" Enter 10 Enter
expect "Sent SIGUSR1 to $v5 "
reaped "$v5"; [ "$st" = 138 ] || fail "k $v5 10: $v5 should have died of SIGUSR1, not $st"
keys k "$v6" Enter sigusr2 Enter
expect "Sent SIGUSR2 to $v6 "
reaped "$v6"; [ "$st" = 140 ] || fail "k $v6 sigusr2: $v6 should have died of SIGUSR2, not $st"
alive "$v1" || fail "$v1 was not chosen and must be alive"
# a PID no row shows is refused, never signalled: the test's shell (in the
# frame, left out by -p), and one no process can have
keys k $$ Enter
expect "No process $$ in view: nothing was done"
keys k 99999999 Enter
expect 'No process 99999999 in view: nothing was done'
keys k "$v1" Enter nosuchsignal Enter
expect 'Invalid signal'
alive "$v1" || fail "an invalid signal must send nothing to $v1"
# the default's process ended before Enter: said, nothing sent to another
keys Home
keys k
expect "PID to signal/kill \\[default pid = $v1\\]: _"
kill -KILL "$v1"
reaped "$v1"
keys Enter
expect "is gone: nothing was done"

# r: the selected process by default, a PID typed; only it is reniced
keys q
spawn x
x=$spawned
spawn w
w=$spawned
start_keys top -p "$x,$w"
w_nice=$(nice_of "$w")
x_nice=$(nice_of "$x")
filter() {
	keys -l '\'
	expect 'Filter: '
	keys C-u
	keys -l "$1"
	keys Enter
}
filter "$(cat "/proc/$x/comm")"
wait_for order_is screen "$x " || fail "the filter should leave $x: $(pids_of screen)"
filter "$prefix"
wait_for has_row screen "$w" || fail "$w should show again"
keys r
expect "PID to renice \\[default pid = $x\\]: _"
keys Enter
expect "Renice PID $x to value: _"
keys Escape
wait_for off_screen 'Renice PID' || fail "Esc should close the nice prompt"
[ "$(nice_of "$x")" = "$x_nice" ] || fail "Esc must renice nothing"
keys r Enter 5 Enter
expect "Process $x \\(${prefix}[a-z]\\) reniced to 5"
[ "$(nice_of "$x")" = 5 ] || fail "r Enter 5: $x should have nice 5, not $(nice_of "$x")"
[ "$(nice_of "$w")" = "$w_nice" ] || fail "r Enter 5: $w must keep its nice"
keys r "$w" Enter 7 Enter
expect "Process $w \\(${prefix}[a-z]\\) reniced to 7"
[ "$(nice_of "$w")" = 7 ] || fail "r $w 7: $w should have nice 7"
[ "$(nice_of "$x")" = 5 ] || fail "r $w 7: $x must keep nice 5"
keys r $$ Enter
expect "No process $$ in view: nothing was done"
if top_start -p "$x,$w"; then
	top_keys k
	top_expect 'PID to signal/kill \[default pid = [0-9]+\]'
	tfirst=$(pids_of top_screen | cut -d' ' -f1)
	top_on_screen "default pid = $tfirst\\]" || fail "top's default should be its first row $tfirst"
	top_keys Enter
	top_expect "Send pid $tfirst signal \\[15/sigterm\\]"
	top_keys Escape
	top_keys r
	top_expect "PID to renice \\[default pid = $tfirst\\]"
	top_keys Enter
	top_expect "Renice PID $tfirst to value"
	top_keys Escape
	alive "$x" && alive "$w" || fail "Esc in top's prompts should have sent nothing"
fi
keys q

# secure mode (-s) refuses both, before any prompt
start_keys top -s -p "$x,$w"
keys k
expect 'Secure mode \(-s\): no signals, no renice'
keys r
expect 'Secure mode \(-s\): no signals, no renice'
off_screen 'PID to' || fail "secure mode should ask for no PID"
keys q

finish
