/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * delta.h: the figures of an interval that two frames of a process give
 * (delta.c), inside the pipeline: for live frames only, as a recording keeps
 * what was made when it was recorded.
 */
#ifndef PTOP_FRAME_DELTA_H
#define PTOP_FRAME_DELTA_H

#include "ptop/frame.h"

struct deltas;

/* Never NULL (allocation fails loudly). */
struct deltas *deltas_new(void);
void deltas_free(struct deltas *d);

/*
 * Fill each row of f (not f->exited's) with what changed since the frame
 * given before: minflt_delta and majflt_delta (has_dflt), ctxsw_delta
 * (has_dctx), cpu_delay_pct (has_cpud) and io_delay_pct (has_iod), each only
 * where both frames read what it comes from for the same process (PID and
 * start time, a thread's row matched with its thread's); then keep f's as the
 * next frame's before. A flag is false where a figure cannot be made.
 */
void deltas_frame(struct deltas *d, struct frame *f);

#endif
