#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_source_tui.sh: the viewer's frame source, as a user sets it. ptoprc's
# "source = procfs" shows "from procfs" on the Cost line; --source=bpf
# overrides it ("from bpf"); --source=bpf-delta's Cost line shows what its
# switch hook costs the machine; by default, as root, the rows are the
# delta's ("from bpf-delta"), with -H the walk's; run unprivileged (setpriv,
# as nobody), the viewer says in its status line why it reads /proc, and
# goes on. make check sets PTOP, srcdir and TMUX_BIN; skips (77) without
# tmux, where BPF cannot load as root, or when ptop is built without BPF.

NAME=test_source_tui
. "${srcdir:-.}/tests/tmux-lib.sh"
need_tmux
WAIT_SECONDS=30

"$PTOP" --version | grep -q 'procfs, bpf' || skip "this ptop was built without BPF"
if ! err=$("$PTOP" -b -n 1 -p 1 --source=bpf 2>&1 >/dev/null) || [ -n "$err" ]; then
	skip "$err"
fi

chmod 755 "$tmp"
tm_env
mkdir -p "$XDG_CONFIG_HOME/ptop"
printf 'source = procfs\n%s\n' "$one_column_meters" >"$XDG_CONFIG_HOME/ptop/ptoprc"

# run NAME CMD...: a new session NAME running CMD (ptop and its arguments), kept
# after it ends; one server for all, as one killed and started again at once races.
run() {
	session=$1
	shift
	tm_run "$@"
}

run rc "$PTOP" -d 0.5
# where the rows came from: out of view, idle processes keep their rows
expect '^Cost: .*; procfs: [0-9]+ read, [1-9][0-9]* unchanged, 0 bpf'
off_screen 'bpf:' || fail "ptoprc's procfs: a note about bpf"
keys q

run option "$PTOP" -d 0.5 --source=bpf
expect '^Cost: .*; bpf: [0-9]+ read, 0 unchanged, [1-9][0-9]* bpf'
keys q

# bpf-delta: what its switch hook costs every process, beside ptop's own CPU
run delta "$PTOP" -d 0.5 --source=bpf-delta
expect '^Cost: .*% CPU; bpf-delta: [0-9]+ read, .*; switch hook [0-9]+[.][0-9]{3}% CPU'
keys q

# auto, as root: the delta, named on the Cost line; rows per thread are the walk's
echo "$one_column_meters" >"$XDG_CONFIG_HOME/ptop/ptoprc"
run auto "$PTOP" -d 0.5
expect '^Cost: .*% CPU; bpf-delta: [0-9]+ read, .*; switch hook'
keys q
run threads "$PTOP" -d 0.5 -H
expect '^Cost: .*% CPU; bpf: [0-9]+ read, 0 unchanged, [1-9][0-9]* bpf'
keys q

if command -v setpriv >/dev/null 2>&1 && id nobody >/dev/null 2>&1; then
	run nobody setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups --inh-caps=-all \
		"$PTOP" -d 0.5
	expect 'bpf: needs CAP_BPF and CAP_PERFMON; using /proc'
	expect '^Cost: .*; procfs: [0-9]+ read'
	expect '^ *[0-9]+ +[a-z0-9_]+ +[-0-9rRt]+ '
	keys q
else
	echo "$NAME: note: no setpriv or no user nobody: the unprivileged note is not tried"
fi
finish
