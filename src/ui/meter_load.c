// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * meter_load.c: htop's "Load average:" over 1, 5 and 15 minutes (frame.load,
 * from /proc/loadavg), for a header whose uptime meter is too narrow to
 * carry top's whole first line. As a bar or a graph, the last minute's load
 * in a share of the CPUs (full when every CPU has a task running or waiting).
 */
#include <stdio.h>

#include "meter.h"

static void load_figures(const struct ui *ui, struct sbuf *b)
{
	const double *l = ui->frame.load;

	sbuf_printf(b, "%.2f %.2f %.2f", l[0], l[1], l[2]);
}

static double load_percent(const struct frame *f)
{
	double pct = f->load[0] * 100.0 / (f->ncpu ? f->ncpu : 1);

	return pct > 100 ? 100 : pct;
}

static void load_draw(struct ui *ui, const struct meter_at *at)
{
	struct sbuf *b = meter_scratch(0);

	load_figures(ui, b);
	if (at->mode == METER_BAR) {
		struct bar_part part = {load_percent(&ui->frame), COLOR_BAR_USER};

		meter_bar(ui, at, at->y, "Load ", &part, 1, sbuf_cstr(b));
		return;
	}
	meter_line(ui, at, _("Load average: "), b);
}

const struct meter_def meter_load = {
    .name = "load",
    .modes = METER_ALL_MODES,
    .default_mode = METER_TEXT,
    .height = meter_one_row,
    .draw = load_draw,
    .label = "Load",
    .percent = load_percent,
    .figures = load_figures,
};
