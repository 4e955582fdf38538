/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * gettext.h: the _() and N_() marks for user-visible strings. The build
 * extracts them into po/ptop.pot; translations live in po/LANG.po.
 */
#ifndef PTOP_GETTEXT_H
#define PTOP_GETTEXT_H

#include <libintl.h>
#include <locale.h>

#define _(s) gettext(s)
#define N_(s) (s)

#endif
