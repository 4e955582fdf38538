#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_accounted_tui.sh: the viewer says how much of the busy CPU its rows
# explain. While a loop starts children that burn 300 ms of CPU each and
# exit 7: through /proc the Accounted line counts reaped children and their
# parent's CHILD% column shows them; with the BPF source's exit hook, they
# are rows of their own, marked "<exit 7>", sorted with the rest by %CPU.
set -eu

NAME=test_accounted_tui
. "${srcdir:-.}/tests/tmux-lib.sh"
need_tmux
need_python "to run the burning children"
WAIT_SECONDS=30

"$PYTHON" - <<'EOF' >/dev/null 2>&1 &
import ctypes, os, time
ctypes.CDLL(None).prctl(15, b"ptop-parent", 0, 0, 0)
while True:
    child = os.fork()
    if child == 0:
        ctypes.CDLL(None).prctl(15, b"ptop-burn", 0, 0, 0)
        t = time.process_time()
        while time.process_time() - t < 0.3:
            pass
        os._exit(7)
    os.waitpid(child, 0)
    time.sleep(0.2)
EOF
kids="$kids $!"

tm_env
mkdir -p "$tmp/config/ptop"
printf 'columns = pid,user,cpu,child,command\nsort = child\n%s\n' "$one_column_meters" \
	>"$tmp/config/ptop/ptoprc"
tm_run "$PTOP" -d 1 --source=procfs
expect "^Accounted: [0-9.]+% of busy CPU: rows [0-9.]+ s, reaped children [0-9.]+ s"
# the parent's children's share: a burn of 300 ms every half second or so
expect "^ *[0-9]+ [a-z0-9]+ +[0-9.]+ +([1-9][0-9]|[5-9])\.[0-9] ptop-parent"

bpf=yes
"$PTOP" -b -n 1 --source=bpf -o json >/dev/null 2>"$tmp/bpf.err" || bpf=
[ -s "$tmp/bpf.err" ] && bpf=
if [ -z "$bpf" ]; then
	partial_skip "no BPF source here ($(head -1 "$tmp/bpf.err")): no exited rows to see"
	finish
fi
tm_new_server
echo "$one_column_meters" >"$tmp/config/ptop/ptoprc"
tm_run "$PTOP" -d 1 --source=bpf
expect "^Accounted: [0-9.]+% of busy CPU: rows [0-9.]+ s, [0-9]+ exited [0-9.]+ s"
# filtered to the burns (F4), as a user would look for them: where other
# work ends a hundred processes a second, a burn's row, whose CPU its live
# row showed a frame before, sorts below the fold
keys F4
expect 'Filter: _'
keys -l ptop-burn
keys Enter
expect " X +[0-9.]+ +[0-9.]+ +[0-9:.]+ ptop-burn <exit 7>"
finish
