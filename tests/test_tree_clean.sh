#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_tree_clean.sh: building and packing ptop leave the sources as they
# were. gettext's po/Makefile can merge the template into po/de.po on
# `make` (PO_DEPENDS_ON_POT) or `make dist` (DIST_DEPENDS_ON_UPDATE_PO),
# rewriting a file under version control with new dates and line numbers.
# A dry run of both targets (make -n runs nothing, sub-makes included)
# must not merge into a .po (gettext writes LANG.new.po, then moves it over
# LANG.po); building a stale .gmo runs msgmerge --for-msgfmt into a scratch
# LANG.1po, which leaves de.po alone. The licence the SPDX lines name is shipped.

NAME=test_tree_clean
builddir=${builddir:-.}
srcdir=${srcdir:-.}

fail() {
	echo "$NAME: FAIL: $*"
	exit 1
}

[ -f "$builddir/po/Makefile" ] || {
	echo "$NAME: SKIP: no po/Makefile in the build tree (configured with --disable-nls?)"
	exit 77
}
for target in all dist; do
	out=$(make -n -C "$builddir/po" distdir=ptop-dry-run $target 2>&1)
	case $out in
	*.new.po*) fail "'make $target' in po/ would merge into po/de.po:
$(printf '%s\n' "$out" | grep '\.new\.po' | head -3)" ;;
	esac
done

# The licence text the SPDX lines name, shipped by make dist.
grep -q 'GNU GENERAL PUBLIC LICENSE' "$srcdir/COPYING" &&
	grep -q 'Version 2, June 1991' "$srcdir/COPYING" ||
	fail "COPYING is not the GPL version 2 the sources' SPDX lines name"
grep -rhq 'SPDX-License-Identifier: GPL-2.0-or-later' "$srcdir/src" ||
	fail "the sources name another licence than COPYING holds"
grep -q '^EXTRA_DIST.*COPYING\|^DIST_COMMON.*COPYING\|COPYING' "$builddir/Makefile" ||
	fail "COPYING is not in what make dist ships"
echo "$NAME: PASS"
