#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_fields_cover.sh: every field top lists with -O is one ptop sorts by
# with top's -o, and every column htop lists with --sort-key=help is one
# ptop sorts by with htop's --sort-key, each asked of the installed top and
# htop; a field ptop leaves out must be named, with its reason, in the man
# page's FIELDS section, in the paragraph that starts "Not in ptop". The
# names are the tools' own, so a field missing here is one a user of them
# looks for. make check sets PTOP and srcdir.

NAME=test_fields_cover
. "${srcdir:-.}/tests/lib.sh"

man=${srcdir:-.}/doc/ptop.1
[ -r "$man" ] || die "no man page at $man"
# the paragraph that names what ptop leaves out, as one line
excluded=$(awk '/^Not in ptop/ { on = 1 } on && /^\.(PP|SH|SS)/ { exit } on' "$man" | tr '\n' ' ')
[ -n "$excluded" ] || fail "the man page has no paragraph starting 'Not in ptop'"

# covered TOOL NAME ARGS...: ptop takes the field (ARGS name it), or the man
# page's paragraph names it. From /proc: the names are the same for every
# source, and loading BPF's (as root) takes longer than the frame, 150 times.
missing=
covered() {
	tool=$1
	field=$2
	shift 2
	"$PTOP" -b -n 1 -p $$ --source=procfs "$@" >/dev/null 2>"$tmp/err" && return 0
	case " $excluded " in
	*"$field"*) return 0 ;;
	esac
	missing="$missing $tool:$field"
}

checked=
if top_fields=$(top -O 2>/dev/null) && [ -n "$top_fields" ]; then
	for f in $top_fields; do
		covered top "$f" -o "$f"
	done
	checked="top -O ($(echo "$top_fields" | wc -l) fields)"
else
	partial_skip "no top with -O (Debian package procps): its fields are not checked"
fi
if htop_fields=$(htop --sort-key=help 2>/dev/null | awk 'NF { print $1 }') && [ -n "$htop_fields" ]; then
	for f in $htop_fields; do
		covered htop "$f" --sort-key "$f"
	done
	checked="$checked, htop --sort-key=help ($(echo "$htop_fields" | wc -l) columns)"
else
	partial_skip "no htop (Debian package htop): its columns are not checked"
fi
[ -n "$checked" ] || skip "neither top -O nor htop --sort-key=help answers here"
if [ -n "$missing" ]; then
	fail "not in ptop, nor named in the man page's 'Not in ptop' paragraph:$missing"
else
	echo "$NAME: every field of $checked is ptop's or named as left out"
fi
finish
