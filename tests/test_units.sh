#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_units.sh: the systemd units make install puts beside ptop run the ptop
# it installs. Each unit made in the build tree (doc/ptop-record.service,
# doc/ptop-exporter.service) starts $bindir/ptop, the directory configure
# gave make install (make check passes it), is its template with that
# directory put in and nothing else changed, and leaves no @name@ behind.
# tests/test_record.sh and tests/test_metrics.sh run their command lines.

NAME=test_units
. "${srcdir:-.}/tests/lib.sh"
[ -n "${bindir:-}" ] || skip "bindir is not set (make check sets it)"

for u in ptop-record ptop-exporter; do
	unit=$builddir/doc/$u.service
	if [ ! -f "$unit" ]; then
		fail "$unit was not made"
		continue
	fi
	run=$(sed -n 's/^ExecStart=//p' "$unit")
	case $run in
	"$bindir/ptop "*) ;;
	*) fail "$u.service starts '$run', not $bindir/ptop" ;;
	esac
	! grep -n '@[A-Za-z_]*@' "$unit" || fail "$u.service keeps a template's @name@"
	sed "s|@bindir@|$bindir|g" "$srcdir/doc/$u.service.in" | cmp -s - "$unit" ||
		fail "$u.service is not its template with $bindir put in"
done
finish
