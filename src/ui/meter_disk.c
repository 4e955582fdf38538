// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * meter_disk.c: storage throughput, read and written per second over the
 * whole disks (frame.sysio, which the pipeline reads for the viewer).
 */
#include <string.h>

#include "meter.h"

void meter_rate(struct sbuf *b, const char *what, double bps, bool known)
{
	sbuf_adds(b, what);
	sbuf_addc(b, ' ');
	if (known)
		fmt_size_kb(b, (uint64_t)(bps / 1024.0 + 0.5));
	else
		sbuf_addc(b, '-');
	sbuf_adds(b, "/s");
}

void meter_line(struct ui *ui, const struct meter_at *at, const char *label,
		const struct sbuf *text)
{
	int lw = (int)strlen(label);

	attron(ui_attr(ui, COLOR_LABEL, A_BOLD));
	mvaddnstr(at->y, at->x, label, at->w);
	attroff(ui_attr(ui, COLOR_LABEL, A_BOLD));
	if (lw < at->w)
		ui_put(ui, at->y, at->x + lw, at->w - lw, text->p, text->len);
}

static void disk_draw(struct ui *ui, const struct meter_at *at)
{
	const struct frame_sysio *io = &ui->frame.sysio;
	struct sbuf *b = meter_scratch(0);

	if (at->h < 1)
		return;
	if (io->disk_error) {
		sbuf_adds(b, _("unavailable"));
	} else {
		meter_rate(b, _("read"), io->disk_read_bps, io->disk_rates);
		sbuf_adds(b, ", ");
		meter_rate(b, _("written"), io->disk_write_bps, io->disk_rates);
	}
	meter_line(ui, at, _("Disk: "), b);
}

const struct meter_def meter_disk = {
    .name = "disk",
    .needs = METER_NEEDS_SYSIO,
    .height = meter_spare_row,
    .draw = disk_draw,
};
