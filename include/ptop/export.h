/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * export.h: the metrics endpoint as a presenter's part (--listen): the
 * server (serve.h) and the aggregator (metrics.h) held together, fed once per
 * frame by whichever loop builds frames (batch mode, or the viewer). Nothing
 * here prints: messages come back for the presenter to show.
 */
#ifndef PTOP_EXPORT_H
#define PTOP_EXPORT_H

#include "ptop/metrics.h"
#include "ptop/pipeline.h"
#include "ptop/serve.h"

struct exporter;

/* The /proc files the metrics need of every frame, beyond stat (PROC_NEED bits). */
unsigned exporter_needs(const struct exporter *x);

/*
 * Listen on a and serve metrics grouped as mo says. Returns 0 with msg
 * saying where it serves ("ptop: serving metrics on http://...", no newline),
 * or -errno (see serve_start()) with msg saying why it cannot, -EINVAL when
 * PTOP_TEST_METRICS_SCALE is set to what it does not take or mo->config is
 * not a configuration process-exporter would take (msg says where), or the
 * -errno of reading it; *out is NULL then. msg is translated. Warnings about
 * the configuration (keys it skips) go to stderr.
 */
int exporter_start(const struct serve_addr *a, const struct metrics_opts *mo, struct exporter **out,
		   char msg[256]);

/*
 * Publish frame f's metrics: its rows (n of them), or every process of f when
 * rows is NULL, and the processes that ended in the interval that flt wants
 * (NULL: all). Reads the top processes' command lines through p when
 * expose_cmdline asked for them. Returns a message for the presenter to show
 * (translated, no newline; valid until the next call), at most once an hour:
 * that the group "other" holds too much. NULL otherwise.
 */
const char *exporter_frame(struct exporter *x, struct pipeline *p, struct frame *f,
			   const struct frame_proc *const *rows, size_t n,
			   const struct row_filter *flt);

/* Stop serving and free x (NULL is fine). */
void exporter_stop(struct exporter *x);

#endif
