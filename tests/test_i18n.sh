#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_i18n.sh: ptop speaks German when asked: `LANGUAGE=de ptop --help`
# prints the German usage, with LANG unset as on a bare machine, and a usage
# error is German too. The build's po/de.gmo is installed into a scratch
# locale tree that PTOP_LOCALEDIR points at (ptop is not installed here).
# Every message in the sources has a German translation in po/de.po, and
# po/de.po has none that the sources lack.
# A ptop built with --disable-nls speaks only English, and without xgettext
# or msgcmp the sources cannot be read for messages: either part is then
# skipped, saying so; with both skipped the test skips (77).

NAME=test_i18n
. "${srcdir:-.}/tests/lib.sh"
checked=0

check_german() {
	gmo=
	for d in "${builddir:-.}/po" "${srcdir:-.}/po" ./po; do
		if [ -f "$d/de.gmo" ]; then
			gmo=$d/de.gmo
			break
		fi
	done
	[ -n "$gmo" ] || die "no po/de.gmo was built"
	mkdir -p "$tmp/de/LC_MESSAGES" && cp "$gmo" "$tmp/de/LC_MESSAGES/ptop.mo" || exit 1

	out=$(env -u LANG -u LC_ALL -u LC_MESSAGES LANGUAGE=de PTOP_LOCALEDIR="$tmp" \
		"$PTOP" --help) || die "--help exited with $?"
	echo "$out" | grep -q '^Aufruf: ' || die "--help is not German: $(echo "$out" | head -n 2)"
	echo "$out" | grep -q -- '--batch' || die "--help lost its options"

	err=$(env -u LANG -u LC_ALL LANGUAGE=de PTOP_LOCALEDIR="$tmp" "$PTOP" -b -n 0 2>&1 >/dev/null)
	status=$?
	[ "$status" -eq 2 ] || die "a bad -n exited with $status, not 2"
	echo "$err" | grep -q 'Weitere Informationen\|ungültig' ||
		die "the usage error is not German: $err"

	# and English without LANGUAGE
	out=$(env -u LANG -u LC_ALL -u LANGUAGE PTOP_LOCALEDIR="$tmp" "$PTOP" --help) ||
		die "--help"
	echo "$out" | grep -q '^Usage: ' || die "without LANGUAGE --help should be English"
}

config=${builddir:-.}/config.h
if [ -f "$config" ] && ! grep -q '^#define ENABLE_NLS 1' "$config"; then
	partial_skip "ptop is built without NLS: not checking that it speaks German"
else
	check_german
	checked=1
fi

# Every message in the sources has a German translation (none missing or
# fuzzy): the catalogue is taken from the sources now, not from po/ptop.pot,
# which is only remade by `make -C po update-po`.
src=${srcdir:-.}
if command -v xgettext >/dev/null && command -v msgcmp >/dev/null; then
	files=$(grep -v '^#' "$src/po/POTFILES.in" | grep .)
	# shellcheck disable=SC2086 # one file per word on purpose
	(cd "$src" && xgettext --language=C --keyword=_ --keyword=N_ --from-code=UTF-8 \
		-o "$tmp/ptop.pot" $files) || die "xgettext failed"
	msgcmp "$src/po/de.po" "$tmp/ptop.pot" >"$tmp/msgcmp" 2>&1 ||
		fail "po/de.po lacks translations: $(head -n 20 "$tmp/msgcmp")"
	# and none for a message the sources no longer have (the po update makes
	# those obsolete, to be removed)
	msgcmp --use-untranslated "$tmp/ptop.pot" "$src/po/de.po" >"$tmp/msgcmp" 2>&1 ||
		fail "po/de.po has messages the sources lack: $(head -n 20 "$tmp/msgcmp")"
	grep -q '^#~' "$src/po/de.po" && fail "po/de.po keeps obsolete (#~) entries"
	checked=1
else
	partial_skip "xgettext or msgcmp is not installed: not checking that" \
		"po/de.po is complete"
fi

[ "$checked" != 0 ] || skip "ptop is built without NLS and xgettext or msgcmp is missing"
finish
