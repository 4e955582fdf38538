#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_bench_pane.sh: the Bench pane driven in tmux: pane 4 lists the
# benchmarks; a slow breakpoint-thread run shows its progress bar and its
# child `ptop bench`; Esc cancels it, and no child (nor any of its threads)
# is left; a quick status run finishes and its table shows, with the spread
# of its figures and its notes; c pins it to CPU 0 (and the next run says
# so) and c again unpins it; the figures read back with their labels and
# units (us/op, counts without decimals); a short breakpoint-thread sweep
# shows its total time in us or ms and charts titled by both axes; q exits
# with 0.
# Every wait is for something that must come: each may take 30 s on a loaded
# machine.

NAME=test_bench_pane
WAIT_SECONDS=${WAIT_SECONDS:-30}

. "${srcdir:-.}/tests/tmux-lib.sh"
need_tmux
need pgrep "to find the benchmark's child"
tm_env

tm_run "$PTOP" -d 0.5
expect '^Mem +\['
ptop_pid=$(cat "$tmp/ptop.pid")

# The benchmark children of this ptop.
children() {
	pgrep -P "$ptop_pid" 2>/dev/null
}

keys 4
expect 'Bench'
expect '^ status '
expect '^ breakpoint-thread '

# a run long enough to be seen and cancelled
keys Down e
expect 'Options for breakpoint-thread: '
keys -l -- '--threads 50 --repeat 5000'
keys Enter Enter
expect '\(running\)'
has_child() { [ -n "$(children)" ]; }
wait_for has_child || fail "no benchmark child while it runs"
expect '[0-9]+% \['
child=$(children)
keys Escape
expect '\(cancelled\)'
no_child() { [ -z "$(children)" ] && ! kill -0 "$child" 2>/dev/null; }
wait_for no_child || fail "the cancelled benchmark $child is still there"

# a short run that finishes, with its table
keys Up e
keys -l -- '--loops 500 --repeat 2'
keys Enter Enter
expect 'Run 2: status --loops 500 --repeat 2 \(done\)'
# read back as a person reads it: labels whole, not keys; us, not usecs;
# counts without decimals
expect '^   /proc/self/status: pread on a held descriptor +[0-9.]+ us/op  '
expect '^   /proc/self/statm: open\+read\+close +[0-9.]+ us/op  '
expect '^   reads per run and mode +500 reads *$'
off_screen 'status_pread|usecs' || fail "raw keys or perf's units in the pane"
expect 'Earlier runs'
# a figure that repeats shows its spread; the notes say the run was not pinned
expect 'us/op  min [0-9.]+  median [0-9.]+  max [0-9.]+  \(2 runs\)'
expect '# not pinned'

# c pins the selected benchmark to CPU 0, and the run says so
keys c
expect '^ status +--loops 500 --repeat 2 --cpu=0 '
keys Enter
expect 'Run 3: status --loops 500 --repeat 2 --cpu=0 \(done\)'
expect '# pinned to CPUs 0 \(--cpu\)'
keys c
expect '^ status +--loops 500 --repeat 2 +open\+read\+close'

# a breakpoint-thread sweep, too short for whole milliseconds: its total
# time is in us or ms, its figures named, its charts titled by both axes
keys Down e
keys C-u
keys -l -- '--repeat 2 --sweep'
keys Enter Enter
expect 'Run 4: breakpoint-thread --repeat 2 --sweep \(done\)'
expect '^   Total time +[0-9.]+ (us|ms) *$'
expect '^   time per operation +[0-9.]+ us/op'
expect '^ us/op by number of breakpoints'
expect '^ us/op by threads per batch'
off_screen '0\.000 sec' || fail "a run too short to show as 0.000 sec"

keys q
ended() { [ -s "$tmp/status" ]; }
wait_for ended || fail "ptop did not exit after q"
[ "$(cat "$tmp/status")" = 0 ] || fail "ptop exited with $(cat "$tmp/status")"
finish
