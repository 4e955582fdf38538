// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * meter_cost.c: what watching costs: ptop's CPU per frame, per process, the
 * descriptors it holds, its share of one CPU between frames (on a replay,
 * the recorder's, as recorded), and where the rows came from: how many
 * processes were read in full, kept unchanged (read-less) or came from BPF.
 */
#include "meter.h"

static void cost_draw(struct ui *ui, const struct meter_at *at)
{
	const struct frame *f = &ui->frame;
	double share = ui->own_cpu_pct;
	struct sbuf *b = meter_scratch(0);

	/* a replay's share is the recorder's over the recorded interval, not this viewer's */
	if (replay_on(ui))
		share = f->interval_s > 0 ? f->cost.cpu_s * 100.0 / f->interval_s : 0.0;
	sbuf_printf(b, _(": %.2f ms CPU/frame, %.1f us/process, %u fds held, %.1f%% CPU"),
		    f->cost.cpu_s * 1e3, f->nprocs ? f->cost.cpu_s * 1e6 / (double)f->nprocs : 0.0,
		    f->cost.fds_held, share);
	/* where the rows came from, and how many were read, kept or from BPF */
	sbuf_printf(b, _("; %s: %u read, %u unchanged, %u bpf"),
		    f->cost.source ? f->cost.source : "procfs", f->cost.read_full,
		    f->cost.read_kept, f->cost.read_bpf);
	/* what the exit hook costs every process that ends, beside ptop's own */
	if (f->cost.hook_known && f->interval_s > 0)
		sbuf_printf(b, _("; exit hook %.3f%% CPU"), f->cost.hook_s * 100.0 / f->interval_s);
	/* and what the delta's hook costs every context switch of the machine */
	if (f->cost.switch_known && f->interval_s > 0)
		sbuf_printf(b, _("; switch hook %.3f%% CPU"),
			    f->cost.switch_s * 100.0 / f->interval_s);
	meter_line(ui, at, _("Cost"), b);
}

const struct meter_def meter_cost = {
    .name = "cost",
    .height = meter_one_row,
    .draw = cost_draw,
};
