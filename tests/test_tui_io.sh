#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_tui_io.sh: the viewer's Disk and Network meters and its I/O, CGROUP
# and CONTAINER columns, as a user sees them in tmux. As root, ptop runs as
# nobody (setpriv) beside two children: nobody's own shows its I/O figures,
# root's shows "-" (unreadable without privilege, not 0); both show their
# cgroup. Without root the columns are checked on the user's own child.
NAME=test_tui_io
. "${srcdir:-.}/tests/tmux-lib.sh"
need_tmux
WAIT_SECONDS=30
chmod 755 "$tmp"

mine=$(printf 'ptiomine%06d' $$)
other=$(printf 'ptioroot%06d' $$)
cp "$(command -v sleep)" "$tmp/$mine" && cp "$(command -v sleep)" "$tmp/$other" || exit 1
chmod 755 "$tmp/$mine" "$tmp/$other"

as=
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1 && id nobody >/dev/null 2>&1; then
	as="setpriv --reuid=$(id -u nobody) --regid=$(id -g nobody) --clear-groups"
	$as "$tmp/$mine" 600 &
	mine_pid=$!
	"$tmp/$other" 600 &
	other_pid=$!
	kids="$mine_pid $other_pid"
else
	echo "$NAME: not root: only the user's own process is checked"
	"$tmp/$mine" 600 &
	mine_pid=$!
	kids=$mine_pid
fi

mkdir -p "$tmp/config/ptop" "$tmp/home"
printf 'columns = pid,user,read_rate,write_rate,write_bytes,rchar,container,cgroup,command\n%s\n' \
	"$one_column_meters" >"$tmp/config/ptop/ptoprc"
chmod -R a+rX "$tmp/config"
tm_env

# shellcheck disable=SC2086 # as is a command's words
tm_run $as "$PTOP" -d 0.5

expect '^Disk: read [0-9.]+[KMGTPE]/s, written [0-9.]+[KMGTPE]/s'
expect '^Network: received [0-9.]+[KMGTPE]/s, sent [0-9.]+[KMGTPE]/s'
expect '^ *PID +USER +DISK READ +DISK WRITE +IO_W +RCHAR +CONTAINER +CGROUP \(raw\) +Command'

keys -l '\'
expect 'Filter: _'
keys -l ptio
keys Enter
cg=$(awk -F: '$1 == "0" && $2 == "" { print $3 }' "/proc/$mine_pid/cgroup")
[ -n "$cg" ] || cg=$(awk -F: '$2 == "name=systemd" { print $3 }' "/proc/$mine_pid/cgroup")
# its own process: figures (sleep read its libraries: RCHAR above 0), and its cgroup
expect "^ *$mine_pid +[^ ]+ +[0-9.]+[KMGTPE]? +[0-9.]+[KMGTPE]? +[0-9.]+[KMGTPE]? +[1-9][0-9.]*[KMGTPE]? .*$cg.* $mine\$"
if [ -n "$as" ]; then
	# root's, read by nobody: unknown, never 0
	expect "^ *$other_pid +root +- +- +- +- .* $other\$"
fi
keys q
wait_for test -s "$tmp/status" || :
finish
