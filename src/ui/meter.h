/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * meter.h: a meter is one line or a few of the viewer's header (htop's
 * Meter.h): one small file exporting a struct meter_def, and one row in
 * meters.c's meter_table[]. meters.c stacks them and shares the bar drawing.
 */
#ifndef PTOP_UI_METER_H
#define PTOP_UI_METER_H

#include "tui.h"

struct meter_def {
	const char *name; /* ptoprc's meters line names it so */
	unsigned needs;	  /* METER_NEEDS_* */
	/* Rows it takes for this frame; compact: as few as it can (a short screen). */
	int (*height)(const struct ui *ui, bool compact);
	/* Draw its rows from row y, in the height it was given. */
	void (*draw)(struct ui *ui, int y, int h);
};

extern const struct meter_def meter_uptime;
extern const struct meter_def meter_tasks;
extern const struct meter_def meter_cpu;
extern const struct meter_def meter_mem;
extern const struct meter_def meter_swap;
extern const struct meter_def meter_cost;
extern const struct meter_def meter_disk;
extern const struct meter_def meter_net;
extern const struct meter_def meter_accounted;
extern const struct meter_def meter_psi_cpu;
extern const struct meter_def meter_psi_memory;
extern const struct meter_def meter_psi_io;
extern const struct meter_def meter_cpu_graph;
extern const struct meter_def meter_mem_graph;

/* One bar's share of a coloured part, in percent of the whole. */
struct bar_part {
	double pct;
	enum ui_color color;
};

/* "label[|||||     text]" across width columns from (y, x). */
void meter_bar(struct ui *ui, int y, int x, int width, const char *label,
	       const struct bar_part *parts, int nparts, const char *text);

/* "what 1.2M/s" (bytes per second in K/M/G), or "what -/s" when not known yet. */
void meter_rate(struct sbuf *b, const char *what, double bps, bool known);
/* A text meter's row: the label in the label colour, then text, cut to the screen. */
void meter_line(struct ui *ui, int y, const char *label, const struct sbuf *text);

/* A meter of one row, whatever the screen. */
int meter_one_row(const struct ui *ui, bool compact);
/* A meter of one row that a short screen leaves out (compact: none). */
int meter_spare_row(const struct ui *ui, bool compact);

#endif
