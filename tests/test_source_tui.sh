#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_source_tui.sh: the viewer's frame source, as a user sets it. ptoprc's
# "source = procfs" shows "from procfs" on the Cost line; --source=bpf
# overrides it ("from bpf"); run unprivileged (setpriv, as nobody), the
# viewer says in its status line why it reads /proc, and goes on. make check
# sets PTOP, srcdir and TMUX_BIN; skips (77) without tmux, where BPF cannot
# load as root, or when ptop is built without BPF.

PTOP=${PTOP:-./ptop}
TMUX_BIN=${TMUX_BIN-$(command -v tmux)}

NAME=test_source_tui
. "${srcdir:-.}/tests/tmux-lib.sh"
need_tmux_and_ptop
WAIT_SECONDS=30

if ! "$PTOP" --version | grep -q 'procfs, bpf'; then
	echo "$NAME: SKIP: this ptop was built without BPF"
	exit 77
fi
if ! err=$("$PTOP" -b -n 1 -p 1 --source=bpf 2>&1 >/dev/null) || [ -n "$err" ]; then
	echo "$NAME: SKIP: $err"
	exit 77
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptop-srctui.XXXXXX") || exit 1
chmod 755 "$tmp"
sock=ptopsrc$$
session=
cleanup() {
	tm kill-server >/dev/null 2>&1
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' HUP INT TERM

HOME=$tmp
XDG_CONFIG_HOME=$tmp/config
LANG=C.UTF-8
LC_ALL=
TERM=${TERM:-xterm}
export HOME XDG_CONFIG_HOME LANG LC_ALL PTOP
unset TMUX TMUX_PANE NO_COLOR
mkdir -p "$XDG_CONFIG_HOME/ptop"
echo "source = procfs" >"$XDG_CONFIG_HOME/ptop/ptoprc"

# run NAME CMD...: a new session NAME running CMD (ptop and its arguments), kept
# after it ends; one server for all, as one killed and started again at once races.
run() {
	session=$1
	shift
	tm new-session -d -s "$session" -x 160 -y 48 "$@" || fail "tmux cannot start a session"
	tm set-option -t "$session" remain-on-exit on >/dev/null 2>&1
}

run rc "$PTOP" -d 0.5
expect '^Cost: .*; procfs: [0-9]+ read'
off_screen 'bpf:' || fail "ptoprc's procfs: a note about bpf"
keys q

run option "$PTOP" -d 0.5 --source=bpf
expect '^Cost: .*; bpf: [0-9]+ read, 0 unchanged, [1-9][0-9]* bpf'
keys q

if command -v setpriv >/dev/null 2>&1 && id nobody >/dev/null 2>&1; then
	rm "$XDG_CONFIG_HOME/ptop/ptoprc"
	run nobody setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups --inh-caps=-all \
		"$PTOP" -d 0.5
	expect 'bpf: needs CAP_BPF and CAP_PERFMON; using /proc'
	expect '^Cost: .*; procfs: [0-9]+ read'
	expect '^ *[0-9]+ +[a-z0-9_]+ +[-0-9rRt]+ '
	keys q
else
	echo "$NAME: note: no setpriv or no user nobody: the unprivileged note is not tried"
fi
echo "$NAME: PASS"
