/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * account.h: where an interval's busy CPU went, from each frame and the one
 * before it (account.c), inside the pipeline: for live frames only, as a
 * recording keeps what was accounted when it was made.
 */
#ifndef PTOP_FRAME_ACCOUNT_H
#define PTOP_FRAME_ACCOUNT_H

#include "ptop/frame.h"

struct account;

/* Never NULL (allocation fails loudly). */
struct account *account_new(void);
void account_free(struct account *a);

/*
 * Account f against the frame given before: fill f->acct (keeping what the
 * source set: exits, lost, lost_s), each process row's child_ticks and
 * child_pct, and each exit record's cpu_pct and io_*_rate (its share of the
 * interval: since its last row, in this frame's before or, for a record
 * that came late, one of the last ACCT_GRAVE_S seconds');
 * an exit record whose process still has a row (a zombie, or one that
 * ended after its row was read) is merged into that row (exited,
 * exit_status, end_ticks, maxrss_kb, run_ns; what it ran past the row's
 * CPU times added to its cpu_pct and to f->acct.rows_s) and leaves
 * f->exited. The first frame, with no frame before, accounts nothing.
 */
void account_frame(struct account *a, struct frame *f);

#endif
