// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * meter_cost.c: what watching costs: ptop's CPU per frame, per process, the
 * descriptors it holds, its share of one CPU between frames, and where the
 * rows came from (procfs or bpf).
 */
#include "meter.h"

static void cost_draw(struct ui *ui, int y, int h)
{
	const struct frame *f = &ui->frame;

	(void)h;
	attron(ui_attr(ui, COLOR_LABEL, A_BOLD));
	mvaddstr(y, 0, _("Cost"));
	attroff(ui_attr(ui, COLOR_LABEL, A_BOLD));
	printw(_(": %.2f ms CPU/frame, %.1f us/process, %u fds held, %.1f%% CPU"),
	       f->cost.cpu_s * 1e3, f->nprocs ? f->cost.cpu_s * 1e6 / (double)f->nprocs : 0.0,
	       f->cost.fds_held, ui->own_cpu_pct);
	printw(_(", from %s"), f->cost.source ? f->cost.source : "procfs");
}

const struct meter_def meter_cost = {
    .name = "cost",
    .height = meter_one_row,
    .draw = cost_draw,
};
