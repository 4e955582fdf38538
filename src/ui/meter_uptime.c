// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * meter_uptime.c: top's first line: the clock, uptime, users and load
 * averages, and "[paused]" while updates are paused; top's l hides it.
 */
#include <time.h>

#include "meter.h"

static void uptime_draw(struct ui *ui, int y, int h)
{
	const struct frame *f = &ui->frame;
	struct sbuf up = {0};
	struct tm tm;

	(void)h;
	localtime_r(&f->time.tv_sec, &tm);
	attron(ui_attr(ui, COLOR_LABEL, A_BOLD));
	mvprintw(y, 0, "ptop");
	attroff(ui_attr(ui, COLOR_LABEL, A_BOLD));
	fmt_uptime(&up, f->uptime_s);
	printw(_(" - %02d:%02d:%02d up %s, %u users, load average: %.2f, %.2f, %.2f"), tm.tm_hour,
	       tm.tm_min, tm.tm_sec, sbuf_cstr(&up), f->nusers, f->load[0], f->load[1], f->load[2]);
	sbuf_free(&up);
	if (replay_on(ui))
		replay_draw_note(ui);
	if (ui->paused) {
		attron(ui_attr(ui, COLOR_STATUS, A_BOLD));
		printw("  %s", _("[paused]"));
		attroff(ui_attr(ui, COLOR_STATUS, A_BOLD));
	}
}

static int uptime_height(const struct ui *ui, bool compact)
{
	(void)compact;
	return ui->cfg.load_line ? 1 : 0;
}

const struct meter_def meter_uptime = {
    .name = "uptime",
    .height = uptime_height,
    .draw = uptime_draw,
};
