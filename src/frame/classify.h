/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * classify.h: processes into the groups of a process-exporter configuration
 * (pecfg.h), as prometheus-process-exporter assigns them with its defaults:
 * a process is matched once, when first seen, and keeps that group for life
 * (no -recheck); a process no rule matches joins the group of its nearest
 * ancestor that has one (-children); a process in no group is not counted.
 */
#ifndef PTOP_CLASSIFY_H
#define PTOP_CLASSIFY_H

#include "ptop/frame.h"
#include "ptop/pecfg.h"

struct classifier;

/* A classifier over cfg, which it owns from now on (freed with it). */
struct classifier *classifier_new(struct pecfg *cfg);
void classifier_free(struct classifier *c);

/* What the configuration needs read of every frame (PROC_NEED bits). */
unsigned classifier_needs(const struct classifier *c);

/*
 * Match the processes of frame f seen for the first time: rows (n, into
 * f->procs) and the processes that ended in the interval (nexited). Their
 * command lines (and working directories, when a name asks for them) are
 * read under root when live, else taken as unknown; the command line of a
 * process that ended cannot be read, so only comm rules match it.
 */
void classifier_frame(struct classifier *c, const char *root, bool live, const struct frame *f,
		      const struct frame_proc *const *rows, size_t n,
		      const struct frame_proc *const *exited, size_t nexited);

/*
 * The group of p, as of the last classifier_frame() that saw it (a thread's
 * row: its process's): its name (not NUL-terminated, *len bytes), or NULL
 * when p is in none.
 */
const char *classifier_group(const struct classifier *c, const struct frame_proc *p, size_t *len);

#endif
