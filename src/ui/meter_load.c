// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * meter_load.c: htop's "Load average:" over 1, 5 and 15 minutes (frame.load,
 * from /proc/loadavg), for a header whose uptime meter is too narrow to
 * carry top's whole first line.
 */
#include "meter.h"

static void load_draw(struct ui *ui, const struct meter_at *at)
{
	const double *l = ui->frame.load;
	struct sbuf b = {0};

	sbuf_printf(&b, "%.2f %.2f %.2f", l[0], l[1], l[2]);
	meter_line(ui, at, _("Load average: "), &b);
	sbuf_free(&b);
}

const struct meter_def meter_load = {
    .name = "load",
    .height = meter_one_row,
    .draw = load_draw,
};
