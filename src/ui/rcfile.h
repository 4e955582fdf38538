/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rcfile.h: ptoprc as a file (rcfile.c), read and replaced safely for
 * config.c, which knows what it says. Curses-free, as config.c is.
 */
#ifndef PTOP_UI_RCFILE_H
#define PTOP_UI_RCFILE_H

#include <stddef.h>

#include "ptop/ui.h"

/*
 * The whole of the regular file at path, of at most CONFIG_MAX_SIZE bytes,
 * appended to text (see config_read() for what is refused, and how). Returns
 * 0, -ENOENT when there is none, -EISDIR, -EINVAL or -EFBIG with a line
 * "PATH: why" in *errors, or -errno.
 */
int rcfile_read(const char *path, struct sbuf *text, struct sbuf *errors);

/*
 * Replace path with the len bytes at data, as config_write_why() says: a new
 * file beside it, renamed over it; links followed only to the user's own
 * files. Returns 0 or -errno, and on failure appends one translated line
 * saying why to *why (not NULL).
 */
int rcfile_replace(const char *path, const char *data, size_t len, struct sbuf *why);

/* s without the blanks around it (and a line's end), cut in place. */
char *config_trim(char *s);

/* "pid,user,...", ptoprc's columns (in place, cut at commas and spaces) into
 * out (room for UI_MAX_COLUMNS), *nout how many: known names, none twice,
 * COMMAND moved last (added when missing), as the table needs. 0, or -EINVAL. */
int config_parse_columns(char *v, enum field_id *out, size_t *nout);

/* htop's settings file: $XDG_CONFIG_HOME/htop/htoprc or ~/.config/htop/htoprc, malloc'd;
 * NULL when neither variable gives a home. */
char *htoprc_path(void);

/*
 * An htop user's settings (htoprc.c) over c: its screens (each one's
 * columns, sort, its tree's sort, tree view and whether that
 * starts collapsed; the first shown; their tabs' line as screen_tabs says,
 * off when it says nothing), threads, delay,
 * highlighting, monochrome and meters, as htop 3 writes them. Returns 0 with a sentence for the status line in
 * *said (what was taken, what ptop lacks), -ENOENT when there is no such
 * file, or another -errno.
 */
int htoprc_import(const char *path, struct ui_config *c, struct sbuf *said);

#endif
