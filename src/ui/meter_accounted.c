// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * meter_accounted.c: how much of the interval's busy CPU (user, nice and
 * system) the processes explain (frame.acct): the rows, and the processes
 * that ended in the interval, through an exit hook (its count, and what its
 * buffer lost) or, without one, through their parents' children's time,
 * with what that cannot see. On a replay, as it was recorded.
 */
#include "meter.h"

static void accounted_draw(struct ui *ui, const struct meter_at *at)
{
	const struct frame_account *a = &ui->frame.acct;
	double pct = frame_accounted_pct(a);
	struct sbuf *b = meter_scratch(0);

	if (at->h < 1)
		return;
	if (pct < 0) {
		sbuf_adds(b, _("nothing busy yet"));
	} else if (a->exits) {
		sbuf_printf(b, _("%.1f%% of busy CPU: rows %.2f s, %zu exited %.2f s"), pct,
			    a->rows_s, ui->frame.nexited, a->exited_s);
		if (a->lost)
			sbuf_printf(b, _(", %llu exits not recorded %.2f s"),
				    (unsigned long long)a->lost, a->lost_s);
	} else {
		sbuf_printf(b, _("%.1f%% of busy CPU: rows %.2f s, reaped children %.2f s"), pct,
			    a->rows_s, a->children_s);
		/* what the children's time cannot see (orphans count where they are reaped) */
		sbuf_adds(b, _(" (no exit hook: children of parents ignoring SIGCHLD are missed)"));
	}
	meter_line(ui, at, _("Accounted: "), b);
}

const struct meter_def meter_accounted = {
    .name = "accounted",
    .height = meter_spare_row,
    .draw = accounted_draw,
};
