#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_threads_tui.sh: H in both key profiles, driven in a private tmux
# server as a user would, on a child with three threads, one of which wrote
# 4 MiB. htop's (the default): H shows each thread as a row after its
# process (under it in the tree), in the thread colour, the Tasks line still
# counting processes; H hides them again (and leaves the threads view -H
# starts), and W keeps the choice. top's: H shows a row per thread instead
# of per process, the summary counting Threads. Every thread row shows that
# thread's own I/O, not the process's. make check sets PTOP, srcdir and
# TMUX_BIN.

NAME=test_threads_tui

# Every wait here expects success: a loaded machine may slow it, not fail it.
WAIT_SECONDS=30
. "${srcdir:-.}/tests/tmux-lib.sh"
need_tmux
need python3 "it makes the threads"
[ -r /proc/self/io ] || skip "this kernel has no /proc/PID/io"

mkdir -p "$tmp/config/ptop" || exit 1
tm_env

# The child: a writer thread (4 MiB) and an idle one beside the main thread.
python3 -c '
import os, sys, threading, time
tmp = sys.argv[1]
def writer():
    with open(tmp + "/data", "wb") as f:
        f.write(b"x" * (4 << 20))
    with open(tmp + "/writer.new", "w") as f:
        f.write("%d\n" % threading.get_native_id())
    os.rename(tmp + "/writer.new", tmp + "/writer")
    time.sleep(600)
threading.Thread(target=writer, daemon=True).start()
threading.Thread(target=time.sleep, args=(600,), daemon=True).start()
time.sleep(600)
' "$tmp" &
child=$!
kids="$kids $child"
wait_for test -e "$tmp/writer" || fail "the writer thread never finished"
writer=$(cat "$tmp/writer")
wait_for sh -c "[ \$(ls /proc/$child/task | wc -l) -eq 3 ]" || fail "the child has no three threads"
idle=$(ls "/proc/$child/task" | grep -vx -e "$child" -e "$writer")

# start PROFILE [ARGS]: ptop on the child, ptoprc keys = PROFILE and an I/O column
start() {
	printf 'keys = %s\ncolumns = pid,wchar,command\nsort = pid\n' "$1" \
		>"$tmp/config/ptop/ptoprc"
	shift
	again "$@"
}

# again [ARGS]: ptop on the child, ptoprc as it is, rows from $source
again() {
	tm_new_server
	tm new-session -d -s "$session" -x 120 -y 40 \
		"$PTOP" -d 0.5 --source "$source" -p "$child" "$@" ||
		fail "tmux cannot start a session"
	expect "^ *$child "
}

# row TID WCHAR: the row of TID shows WCHAR (a regex)
row() {
	on_screen "^ *$1 +$2 "
}

# thread_coloured TID: the row of TID is drawn in the thread colour (green)
thread_coloured() {
	tm capture-pane -p -e -t "$session" | grep -E "^(.\[[0-9;]*m| )*$1(.\[[0-9;]*m)* " |
		grep -Eq '.\[([0-9]+;)*32m'
}

# ---- htop's: the threads after their process; from /proc, and from BPF where it loads ----
for source in procfs auto; do
	start htop
	expect 'Tasks: 1 total'
	off_screen "^ *$writer " || fail "threads shown before H"
	keys H
	expect 'Showing user threads'
	expect "^ *$writer +4\\.0M "
	expect "^ *$idle +0 "
	# the process's row: its own figures, the sum of its threads'
	expect "^ *$child +4\\.[0-9]M "
	expect 'Tasks: 1 total'
	off_screen 'Threads:' || fail "user threads are not top's threads view"
	wait_for thread_coloured "$writer" || fail "a thread's row is not in the thread colour"
	thread_coloured "$child" && fail "the process's row is in the thread colour"
	# the tree: each thread under its process
	keys t
	expect "^ *$writer +4\\.0M .*- python3"
	keys t
	keys H
	expect 'Hiding user threads'
	wait_for off_screen "^ *$writer " || fail "H did not hide the threads"
	# W keeps the choice
	keys H
	expect "^ *$idle +0 "
	keys W
	expect 'Settings written to'
	grep -qx 'user_threads = yes' "$tmp/config/ptop/ptoprc" ||
		fail "ptoprc lacks user_threads = yes: $(cat "$tmp/config/ptop/ptoprc")"
	keys q
	again
	expect "^ *$writer +4\\.0M "
	keys q
done
# -H starts top's view in htop's profile too; H leaves it for processes
source=auto
start htop -H
expect 'Threads: 3 total'
keys H
expect 'Showing processes'
expect 'Tasks: 1 total'
wait_for off_screen "^ *$writer " || fail "H did not leave the threads view"
keys q

# ---- top's: a row per thread instead ----
source=auto
start top
expect 'Tasks: 1 total'
keys H
expect 'Showing threads'
expect 'Threads: 3 total'
expect "^ *$writer +4\\.0M "
expect "^ *$idle +0 "
# the main thread's row: its own I/O, not the writer's
wait_for row "$child" '[0-9.]+[K]?' || fail "no row for the main thread"
row "$child" '4\.[0-9]M' && fail "the main thread shows the process's I/O"
keys H
expect 'Showing processes'
expect 'Tasks: 1 total'
keys q

finish
