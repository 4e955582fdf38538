/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * meter.h: a meter is one line or a few of the viewer's header (htop's
 * Meter.h): one small file exporting a struct meter_def, and one row in
 * meters.c's meter_table[]. meters.c stacks them and shares the bar drawing.
 */
#ifndef PTOP_UI_METER_H
#define PTOP_UI_METER_H

#include "tui.h"

/* Where a meter is drawn: h rows from row y, w columns from column x, as
 * mode; compact: on a screen too short for the header it would like. */
struct meter_at {
	int y, x, w, h;
	enum meter_mode mode;
	bool compact;
};

struct meter_def {
	const char *name; /* ptoprc's meters line names it so */
	unsigned needs;	  /* METER_NEEDS_* */
	/* 1 << METER_* for each mode it can be drawn as; 0: text only. */
	unsigned modes;
	/* the mode it is drawn as unless told, when it has it (else its lowest) */
	enum meter_mode default_mode;
	/* Rows it takes for this frame as bar or text (0: hidden, in every mode);
	 * compact: as few as it can (a short screen). */
	int (*height)(const struct ui *ui, bool compact);
	/* Draw its rows in at as bar or text (a column of the header may be narrow: say less). */
	void (*draw)(struct ui *ui, const struct meter_at *at);
	/* A meter of several figures (the CPUs) sets this: its rows in every
	 * mode, and draw() draws every mode (with meter_graph_series() and
	 * meter_led_text()); else meters.c draws its graph and LED. */
	int (*mode_height)(const struct ui *ui, enum meter_mode mode, bool compact);
	/* Graph and LED modes, drawn by meters.c: the caption ("CPU"); */
	const char *label;
	/* for a graph, the frame's figure in percent of its whole (the history
	 * keeps it from every frame: it takes the frame, not the screen); */
	double (*percent)(const struct frame *f);
	/* percent() is a count, not a share: graphed against the largest shown
	 * (htop's graphs of meters that are no percent chart) */
	bool counts;
	/* for LED, its figures as text ("45.2%"), appended to b (empty). */
	void (*figures)(const struct ui *ui, struct sbuf *b);
};

extern const struct meter_def meter_uptime;
extern const struct meter_def meter_load;
extern const struct meter_def meter_tasks;
extern const struct meter_def meter_cpu;
extern const struct meter_def meter_left_cpus;
extern const struct meter_def meter_right_cpus;
/* htop's AllCPUs2/4/8, LeftCPUs2/4/8, RightCPUs2/4/8: that many CPUs a row */
extern const struct meter_def meter_all_cpus2, meter_all_cpus4, meter_all_cpus8;
extern const struct meter_def meter_left_cpus2, meter_left_cpus4, meter_left_cpus8;
extern const struct meter_def meter_right_cpus2, meter_right_cpus4, meter_right_cpus8;
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

/* The meter of id in meters.c's table, or NULL. */
const struct meter_def *meter_def_of(unsigned id);

/* One bar's share of a coloured part, in percent of the whole. */
struct bar_part {
	double pct;
	enum ui_color color;
};

/* "label[|||||     text]" on row y across at's columns; in text mode,
 * "label text", as htop's text meters. */
void meter_bar(struct ui *ui, const struct meter_at *at, int y, const char *label,
	       const struct bar_part *parts, int nparts, const char *text);

/* Scratch buffers for a meter's text: meter_scratch(k), k < METER_SCRATCH,
 * is the k-th, emptied; it keeps its memory across frames, so that drawing
 * the header in a steady refresh allocates nothing (house rule). Valid until
 * it is asked for again: a meter's draw, not across meters. */
#define METER_SCRATCH 2
struct sbuf *meter_scratch(unsigned k);

/* "what 1.2M/s" (bytes per second in K/M/G), or "what -/s" when not known yet. */
void meter_rate(struct sbuf *b, const char *what, double bps, bool known);
/* A text meter's row: the label in the label colour, then text, cut to its width. */
void meter_line(struct ui *ui, const struct meter_at *at, const char *label,
		const struct sbuf *text);

/* What htop's CPU, Memory, Swap and Load meters can be: bar, text, graph, LED. */
#define METER_ALL_MODES (1u << METER_BAR | 1u << METER_TEXT | 1u << METER_GRAPH | 1u << METER_LED)

/* Graph and LED modes' rows: htop's 4 and 3. */
#define METER_GRAPH_ROWS 4
#define METER_LED_ROWS 3

/* The graphs' histories: meter id's percent is series id; CPU c's is this
 * one (for the first METER_GRAPH_CPUS CPUs). */
#define METER_GRAPH_CPUS 64
#define METER_SERIES_CPU(c) (UI_METERS_MAX + (c))
/* Rows of a meter drawn as mode, when it draws rows as bar or text. */
int meter_mode_rows(enum meter_mode mode, int rows, bool compact);

/* meter_graph.c: a history as a graph over at's rows, the caption and the
 * latest figure at the left: series, or meter id's. */
void meter_graph_series(struct ui *ui, const struct meter_at *at, unsigned series,
			const char *label);
void meter_graph_draw(struct ui *ui, const struct meter_at *at, unsigned id,
		      const struct meter_def *m);
/* meter_led.c: figures in big digits over at's rows (one row of text on a
 * short screen), the caption before them; a meter's own figures. */
void meter_led_text(struct ui *ui, const struct meter_at *at, const char *label,
		    const struct sbuf *fig);
void meter_led_draw(struct ui *ui, const struct meter_at *at, const struct meter_def *m);

/* A meter of one row, whatever the screen. */
int meter_one_row(const struct ui *ui, bool compact);
/* A meter of one row that a short screen leaves out (compact: none). */
int meter_spare_row(const struct ui *ui, bool compact);

#endif
