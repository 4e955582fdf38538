#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_watch_name.sh: a first-time user watches a program's variables by
# name in the viewer. tests/watched writes where its variables are; ptop,
# in a private tmux server, is told `w counter` (a global), `w daylight`
# (also one of libc's: refused, naming both), `w libc.so.6:daylight`,
# `w count` (unknown: names containing it offered), `w watched+ADDR` (an
# address as nm shows it, in .bss past the file's pages), the same watch
# twice (refused), and each armed address must be the one the program
# printed. The Breakpoints pane lists them by name; when the program exits
# its rows stay, marked "(exited)". `h` says how to find a name. Batch
# --watch by name gives the same address in JSON; a watched process that
# runs another program ends its watch, under its new command. Hit counts are checked by
# test_watch_cost.sh, on machines that deliver them. Skips (77) without
# tmux or nm. make check sets PTOP, srcdir, builddir and TMUX_BIN.

WATCHED=${builddir:-.}/tests/watched

NAME=test_watch_name
. "${srcdir:-.}/tests/tmux-lib.sh"
need_tmux
need nm "to find the test program's variables (binutils)"
[ -x "$WATCHED" ] || fail "no test program at $WATCHED"
tm_env
WAIT_SECONDS=30

"$WATCHED" "$tmp/addr" &
child=$!
at_exit() {
	[ -z "$child" ] || kill -KILL "$child" 2>/dev/null
}
wait_for test -s "$tmp/addr" || fail "the test program wrote no addresses"
addr() { sed -n "s/^$1 0x//p" "$tmp/addr"; }
counter=$(addr counter)
deep=$(addr deep)
libc_daylight=$(addr libc_daylight)
# big.deep is 1 MiB into big: an address of the binary, as nm shows big's
big=$(nm "$WATCHED" | sed -n 's/^\([0-9a-f]*\) [bB] big$/\1/p')
[ -n "$big" ] || fail "nm shows no big in $WATCHED"
deep_vaddr=$(printf '%x' $((0x$big + 0x100000)))
# it is in .bss past the pages the file maps: an anonymous mapping
python3 - "$child" "$deep" <<'PY' || fail "big.deep is not in an anonymous mapping"
import sys
a = int(sys.argv[2], 16)
for line in open("/proc/%s/maps" % sys.argv[1]):
    f = line.split()
    lo, hi = (int(x, 16) for x in f[0].split("-"))
    if lo <= a < hi:
        sys.exit(0 if len(f) == 5 else 1)
sys.exit(1)
PY

TM_LINES=40
tm_run "$PTOP" -d 0.5 -p "$child"
expect '^ *PID +USER'
expect "^ *$child "

# watch: keys typed at the prompt, then the status line expected
watch() {
	keys D
	expect 'Watch NAME'
	keys -l "$1"
	keys Enter
	expect "$2"
}

watch counter "Watching counter on $child \\(watched\\): 0x$counter in watched, 8 bytes"
watch counter "Cannot watch $child \\(watched\\): already watched with that address, length and type"
watch daylight "daylight is in more than one file: .*watched:daylight.*libc\.so\.6:daylight"
watch libc.so.6:daylight "Watching libc\.so\.6:daylight on $child \\(watched\\): 0x$libc_daylight in libc\.so\.6, 4 bytes"
watch count "no variable count; names containing it: .*watched:counter"
watch "watched+0x$deep_vaddr" "Watching watched\+0x$deep_vaddr on $child \\(watched\\): 0x$deep in watched"

# the same in batch, by name
"$PTOP" -b -n 1 -o json -p "$child" --watch "$child:counter" >"$tmp/json" 2>"$tmp/err" ||
	fail "batch --watch by name exited $?: $(cat "$tmp/err")"
python3 - "$tmp/json" "$counter" "$child" <<'PY' || fail "batch --watch by name: $(cat "$tmp/json")"
import json, sys
f = json.loads(open(sys.argv[1]).readline())
bp = f["breakpoints"][0]
assert int(bp["addr"], 16) == int(sys.argv[2], 16), bp
assert (bp["pid"], bp["len"], bp["watch"], bp["comm"]) == (int(sys.argv[3]), 8, "counter", "watched"), bp
assert bp["exited"] is False, bp
assert "est_cpu_pct" in bp, bp
PY
"$PTOP" -b -n 1 -p "$child" --watch "$child:daylight" >/dev/null 2>"$tmp/err" &&
	fail "batch --watch of an ambiguous name succeeded"
grep -q "watched:daylight libc.so.6:daylight" "$tmp/err" ||
	fail "batch --watch daylight: $(cat "$tmp/err")"

keys 3
expect "^ *PID +WATCH +ADDRESS +LEN +TYPE +HITS +HITS/s +~%CPU"
expect "^ *$child +counter +0x$counter +8 +w .* watched *$"
expect "^ *$child +libc\.so\.6:daylight +0x$libc_daylight +4 +w "
expect "^ *$child +watched\+0x$deep_vaddr +0x$deep "

kill -TERM "$child"
wait "$child" 2>/dev/null
child=

expect "^ *[0-9]+ +counter +0x$counter +8 +w +[0-9]+ .* watched \(exited\) *$"

# A process that runs another program: the watch ends there (the address is
# another program's), named by its new command. A shell that execs sleep
# once told to, through a FIFO, after ptop has armed and shown a frame.
mkfifo "$tmp/go" || fail "mkfifo"
sh -c 'read -r x <"$0"; exec sleep 600' "$tmp/go" &
execer=$!
kids="$kids $execer"
"$PTOP" -b -d 0.3 -n 40 -o json -p "$execer" --watch "$execer:[stack]+0:4:w" \
	>"$tmp/exec.json" 2>"$tmp/exec.err" &
batch=$!
if ! wait_for test -s "$tmp/exec.json"; then
	where=$(waits_in "$batch")
	kill "$batch" 2>/dev/null
	bst=0
	wait "$batch" 2>/dev/null || bst=$?
	fail "batch --watch on a shell wrote no frame in ${WAIT_SECONDS} s (its status $bst, 143 if still running; its tasks, state, wait, stack: $where): $(cat "$tmp/exec.err")"
fi
echo go >"$tmp/go"
wait "$batch" || fail "batch --watch across an exec exited non-zero: $(cat "$tmp/exec.err")"
python3 - "$tmp/exec.json" <<'PY' || fail "the watch across an exec: $(tail -n 1 "$tmp/exec.json")"
import json, sys
frames = [json.loads(l) for l in open(sys.argv[1])]
first, last = frames[0]["breakpoints"][0], frames[-1]["breakpoints"][0]
assert first["comm"] == "sh" and not first["execd"], first
assert last["comm"] == "sleep" and last["execd"] and last["exited"], last
PY

keys h
expect 'This help'
# the panes' keys are at the end of the help: scroll down to them
i=0
while [ $i -lt 40 ] && off_screen 'Breakpoints pane'; do
	keys Down
	i=$((i + 1))
done
expect 'D NAME watches a variable: find names with nm -C PROGRAM'
keys q
finish
