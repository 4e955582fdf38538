// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * meters.c: the header, as a table of meters stacked from the top (htop's
 * Platform_meterTypes[] with Meter.c): each meter is a file of its own
 * (meter_*.c); this file orders them, gives them their heights and draws
 * the bars they share.
 */
#include <string.h>

#include "meter.h"

/* Every meter; the header shows ptoprc's list of them, by default the first METERS_DEFAULT. */
static const struct meter_def *const meter_table[] = {
    &meter_uptime,     &meter_tasks,  &meter_cpu,	&meter_mem,	  &meter_swap,
    &meter_disk,       &meter_net,    &meter_cost,	&meter_accounted, &meter_psi_cpu,
    &meter_psi_memory, &meter_psi_io, &meter_cpu_graph, &meter_mem_graph,
};
#define NMETERS (sizeof(meter_table) / sizeof(meter_table[0]))
#define METERS_DEFAULT 9
_Static_assert(NMETERS <= UI_METERS_MAX, "ui_config.meters holds every meter");

int meter_by_name(const char *name)
{
	for (size_t i = 0; i < NMETERS; i++)
		if (!strcmp(name, meter_table[i]->name))
			return (int)i;
	return -1;
}

const char *meter_name(unsigned id)
{
	return id < NMETERS ? meter_table[id]->name : "?";
}

unsigned meters_default(unsigned char *ids)
{
	for (unsigned i = 0; i < METERS_DEFAULT; i++)
		ids[i] = (unsigned char)i;
	return METERS_DEFAULT;
}

/* The i-th meter of the header. */
static const struct meter_def *shown(const struct ui *ui, unsigned i)
{
	return meter_table[ui->cfg.meters[i] < NMETERS ? ui->cfg.meters[i] : 0];
}

unsigned meters_needs(const struct ui *ui)
{
	unsigned needs = 0;

	for (unsigned i = 0; i < ui->cfg.nmeters; i++)
		needs |= shown(ui, i)->needs;
	return needs;
}

void meter_bar(struct ui *ui, int y, int x, int width, const char *label,
	       const struct bar_part *parts, int nparts, const char *text)
{
	int inner, filled = 0, tlen = (int)strlen(text);

	attron(ui_attr(ui, COLOR_LABEL, A_BOLD));
	mvaddstr(y, x, label);
	attroff(ui_attr(ui, COLOR_LABEL, A_BOLD));
	x += (int)strlen(label);
	inner = width - (int)strlen(label) - 2;
	if (inner < 1)
		return;
	mvaddch(y, x, '[');
	for (int i = 0; i < nparts; i++) {
		int n = (int)(parts[i].pct / 100.0 * inner + 0.5);

		if (n > inner - filled)
			n = inner - filled;
		attron(ui_attr(ui, parts[i].color, A_NORMAL));
		for (int k = 0; k < n; k++)
			mvaddch(y, x + 1 + filled + k, '|');
		attroff(ui_attr(ui, parts[i].color, A_NORMAL));
		filled += n;
	}
	for (int k = filled; k < inner; k++)
		mvaddch(y, x + 1 + k, ' ');
	if (tlen <= inner)
		mvaddstr(y, x + 1 + inner - tlen, text);
	mvaddch(y, x + 1 + inner, ']');
}

int meter_one_row(const struct ui *ui, bool compact)
{
	(void)ui;
	(void)compact;
	return 1;
}

int meter_spare_row(const struct ui *ui, bool compact)
{
	(void)ui;
	return compact ? 0 : 1;
}

/* The meters' rows: as they like, or compact when that leaves the table no room. */
static bool meters_compact(const struct ui *ui, int max_rows)
{
	int h = 0;

	for (unsigned i = 0; i < ui->cfg.nmeters; i++)
		h += shown(ui, i)->height(ui, false);
	return h > max_rows;
}

int meters_height(const struct ui *ui, int max_rows)
{
	bool compact = meters_compact(ui, max_rows);
	int h = 0;

	for (unsigned i = 0; i < ui->cfg.nmeters; i++)
		h += shown(ui, i)->height(ui, compact);
	return h;
}

int meters_draw(struct ui *ui, int max_rows)
{
	bool compact = meters_compact(ui, max_rows);
	int y = 0;

	for (unsigned i = 0; i < ui->cfg.nmeters; i++) {
		const struct meter_def *m = shown(ui, i);
		int h = m->height(ui, compact);

		/* a hidden meter (top's l) draws nothing: the next one takes its row */
		if (h <= 0)
			continue;
		m->draw(ui, y, h);
		y += h;
	}
	return y;
}
