// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * meter_uptime.c: top's first line: the clock, uptime, users and load
 * averages across the screen, or in a half of the header htop's "Uptime:"
 * (its Load average is meter_load.c's); then "[paused]" while updates are
 * paused, and where a replay is. top's l hides it.
 */
#include <string.h>
#include <time.h>

#include "meter.h"

static void uptime_draw(struct ui *ui, const struct meter_at *at)
{
	const struct frame *f = &ui->frame;
	struct sbuf *up = meter_scratch(0), *line = meter_scratch(1);
	struct tm tm;

	localtime_r(&f->time.tv_sec, &tm);
	fmt_uptime(up, f->uptime_s);
	sbuf_printf(line, _(" - %02d:%02d:%02d up %s, %u users, load average: %.2f, %.2f, %.2f"),
		    tm.tm_hour, tm.tm_min, tm.tm_sec, sbuf_cstr(up), f->nusers, f->load[0],
		    f->load[1], f->load[2]);
	/* in a half of htop's header its Load average meter says the rest */
	if (at->w >= COLS && (int)line->len + 4 <= at->w) {
		attron(ui_attr(ui, COLOR_LABEL, A_BOLD));
		mvaddstr(at->y, at->x, "ptop");
		attroff(ui_attr(ui, COLOR_LABEL, A_BOLD));
		ui_put(ui, at->y, at->x + 4, at->w - 4, line->p, line->len);
	} else {
		const char *label = _("Uptime: ");

		sbuf_reset(line);
		sbuf_adds(line, sbuf_cstr(up));
		attron(ui_attr(ui, COLOR_LABEL, A_BOLD));
		mvaddnstr(at->y, at->x, label, at->w);
		attroff(ui_attr(ui, COLOR_LABEL, A_BOLD));
		ui_put(ui, at->y, at->x + (int)strlen(label), at->w - (int)strlen(label), line->p,
		       line->len);
	}
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

static void uptime_figures(const struct ui *ui, struct sbuf *b)
{
	fmt_uptime(b, ui->frame.uptime_s);
}

/* htop's Uptime meter is text or LED */
const struct meter_def meter_uptime = {
    .name = "uptime",
    .modes = 1u << METER_TEXT | 1u << METER_LED,
    .height = uptime_height,
    .draw = uptime_draw,
    .label = "Uptime",
    .figures = uptime_figures,
};
