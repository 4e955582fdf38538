/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * meter.h: a meter is one line or a few of the viewer's header (htop's
 * Meter.h): one small file exporting a struct meter_def, and one row in
 * meters.c's meter_table[]. meters.c stacks them and shares the bar drawing.
 */
#ifndef PTOP_UI_METER_H
#define PTOP_UI_METER_H

#include "tui.h"

/* Where a meter is drawn: h rows from row y, w columns from column x, as mode. */
struct meter_at {
	int y, x, w, h;
	enum meter_mode mode;
};

struct meter_def {
	const char *name; /* ptoprc's meters line names it so */
	unsigned needs;	  /* METER_NEEDS_* */
	/* 1 << METER_* for each mode it can be drawn as; the lowest is its default.
	 * 0: text only. */
	unsigned modes;
	/* Rows it takes for this frame; compact: as few as it can (a short screen). */
	int (*height)(const struct ui *ui, bool compact);
	/* Draw its rows in at (a column of the header may be narrow: say less). */
	void (*draw)(struct ui *ui, const struct meter_at *at);
};

extern const struct meter_def meter_uptime;
extern const struct meter_def meter_load;
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

/* "label[|||||     text]" on row y across at's columns; in text mode,
 * "label text", as htop's text meters. */
void meter_bar(struct ui *ui, const struct meter_at *at, int y, const char *label,
	       const struct bar_part *parts, int nparts, const char *text);

/* "what 1.2M/s" (bytes per second in K/M/G), or "what -/s" when not known yet. */
void meter_rate(struct sbuf *b, const char *what, double bps, bool known);
/* A text meter's row: the label in the label colour, then text, cut to its width. */
void meter_line(struct ui *ui, const struct meter_at *at, const char *label,
		const struct sbuf *text);

/* A meter of one row, whatever the screen. */
int meter_one_row(const struct ui *ui, bool compact);
/* A meter of one row that a short screen leaves out (compact: none). */
int meter_spare_row(const struct ui *ui, bool compact);

#endif
