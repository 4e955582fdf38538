#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_tree_clean.sh: building and packing ptop leave the sources as they
# were. gettext's po/Makefile can merge the template into po/de.po on
# `make` (PO_DEPENDS_ON_POT) or `make dist` (DIST_DEPENDS_ON_UPDATE_PO),
# rewriting a file under version control with new dates and line numbers.
# A dry run of both targets (make -n runs nothing, sub-makes included)
# must not merge into a .po file (update-po's "msgmerge ... -o LANG.new.po"
# or msgmerge --update; the .gmo rule's merge into a scratch LANG.1po is
# fine). The licence the SPDX lines name is shipped.

NAME=test_tree_clean
. "${srcdir:-.}/tests/lib.sh"

[ -f "$builddir/po/Makefile" ] ||
	skip "no po/Makefile in the build tree (configured with --disable-nls?)"
for target in all dist; do
	out=$(make -n -C "$builddir/po" distdir=ptop-dry-run $target 2>&1)
	merges=$(printf '%s\n' "$out" | grep -E 'msgmerge.*(\.new\.po|--update|-U )')
	[ -z "$merges" ] || die "'make $target' in po/ would merge into po/de.po:
$(printf '%s\n' "$merges" | head -3)"
done

# The licence text the SPDX lines name, shipped by make dist.
grep -q 'GNU GENERAL PUBLIC LICENSE' "$srcdir/COPYING" &&
	grep -q 'Version 2, June 1991' "$srcdir/COPYING" ||
	die "COPYING is not the GPL version 2 the sources' SPDX lines name"
grep -rhq 'SPDX-License-Identifier: GPL-2.0-or-later' "$srcdir/src" ||
	die "the sources name another licence than COPYING holds"
grep -q '^EXTRA_DIST.*COPYING\|^DIST_COMMON.*COPYING\|COPYING' "$builddir/Makefile" ||
	die "COPYING is not in what make dist ships"
finish
