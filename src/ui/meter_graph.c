// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * meter_graph.c: meters over the last minutes: the graph mode of every
 * meter that has one (htop's graph mode: four rows, a caption at the left)
 * and the one-row CPU and memory sparklines. htop's graph meters keep a row
 * of values the same way, the newest at the right: one column per frame
 * taken, its height in eighths of a cell (Unicode block elements), or an
 * ASCII ramp without UTF-8 (--no-unicode, another locale). The history is
 * kept from every frame the viewer takes, shown or not, for every meter
 * that can be a graph, drawn or not, and for each CPU (the CPU meters draw
 * a graph per CPU, as htop's); a frame that does not follow the last
 * one kept (a replay travelled back or away) starts it again from there.
 * Touches no kernel interface: the frames have what it shows.
 */
#include <stdio.h>
#include <string.h>

#include "meter.h"

/* Columns kept: more than any terminal's width. */
#define GRAPH_MAX 1024
/* Heights of a cell, lowest first: a cell is eight steps. */
#define GRAPH_LEVELS 8
/* Columns left of a graph of more than one row: its caption over its figure
 * (a longer caption takes more). */
#define GRAPH_GUTTER 5

struct graph_sample {
	int64_t time_ns; /* the frame's wall clock */
	/* each graph-able meter's figure, percent of its whole, then each CPU's
	 * busy percent (negative: not read in that frame, drawn blank) */
	float v[METER_SERIES_CPU(METER_GRAPH_CPUS)];
};

/* A ring of the frames taken, oldest first from (head - n). */
static struct {
	struct graph_sample s[GRAPH_MAX];
	unsigned head, n;
} hist;

static const struct graph_sample *nth_newest(unsigned i)
{
	return &hist.s[(hist.head + GRAPH_MAX - 1 - i) % GRAPH_MAX];
}

void graph_frame(const struct ui *ui)
{
	const struct frame *f = &ui->frame;
	int64_t t = (int64_t)f->time.tv_sec * 1000000000 + f->time.tv_nsec;
	int64_t prev = t - (int64_t)(f->interval_s * 1e9);
	/* a frame follows the last one kept when its interval starts there */
	int64_t slack = (int64_t)(f->interval_s * 0.25e9) + 50000000;
	struct graph_sample *s;
	const struct meter_def *m;

	/* travelled back: what came after this frame is not its past */
	while (hist.n && nth_newest(0)->time_ns >= t) {
		hist.head = (hist.head + GRAPH_MAX - 1) % GRAPH_MAX;
		hist.n--;
	}
	if (hist.n &&
	    (nth_newest(0)->time_ns < prev - slack || nth_newest(0)->time_ns > prev + slack))
		hist.n = 0;
	/* a frame without an interval (the first) has no share of one to show */
	if (f->interval_s <= 0)
		return;
	s = &hist.s[hist.head];
	s->time_ns = t;
	for (unsigned id = 0; (m = meter_def_of(id)); id++)
		s->v[id] = m->percent ? (float)m->percent(f) : 0;
	for (unsigned c = 0; c < METER_GRAPH_CPUS; c++)
		s->v[METER_SERIES_CPU(c)] =
		    f->cpus && c < f->ncpus ? (float)(100.0 - f->cpus[c].idle) : -1.0f;
	hist.head = (hist.head + 1) % GRAPH_MAX;
	if (hist.n < GRAPH_MAX)
		hist.n++;
}

/* A cell filled to lvl eighths (1 to GRAPH_LEVELS; 0 draws a blank). */
static const char *graph_cell(bool utf8, int lvl)
{
	/* U+2581..U+2588, lower one eighth block to full block */
	static const char *const blocks[GRAPH_LEVELS] = {"\u2581", "\u2582", "\u2583", "\u2584",
							 "\u2585", "\u2586", "\u2587", "\u2588"};
	static const char *const ascii[GRAPH_LEVELS] = {"_", ".", ":", "-", "=", "+", "*", "#"};

	if (lvl <= 0)
		return " ";
	if (lvl > GRAPH_LEVELS)
		lvl = GRAPH_LEVELS;
	return utf8 ? blocks[lvl - 1] : ascii[lvl - 1];
}

/* Whether series is a count (graphed against the largest shown), not a share. */
static bool series_counts(unsigned series)
{
	const struct meter_def *m = series < UI_METERS_MAX ? meter_def_of(series) : NULL;

	return m && m->counts;
}

/* Columns x.. x+w-1 of rows y.. y+h-1: the newest frames' figures of a
 * series, the newest at the right; each at least its lowest step (an idle
 * machine's graph is a line, not nothing), full at 100% (or, for a count,
 * at the largest shown). */
static void graph_columns(struct ui *ui, int y, int x, int w, int h, unsigned series,
			  enum ui_color color)
{
	unsigned k = hist.n < (unsigned)w ? hist.n : (unsigned)w;
	double scale = 1.0;

	if (series_counts(series)) {
		double top = 1.0;

		for (unsigned i = 0; i < k; i++)
			if (nth_newest(i)->v[series] > top)
				top = nth_newest(i)->v[series];
		scale = 100.0 / top;
	}
	attron(ui_attr(ui, color, A_NORMAL));
	for (int r = 0; r < h; r++) {
		move(y + r, x);
		for (int i = 0; i < w - (int)k; i++)
			addch(' ');
		for (unsigned i = k; i-- > 0;) {
			double pct = nth_newest(i)->v[series] * scale;
			int steps = (int)(pct * GRAPH_LEVELS * h / 100.0) + 1;

			if (steps > GRAPH_LEVELS * h)
				steps = GRAPH_LEVELS * h;
			addstr(graph_cell(ui->utf8, steps - GRAPH_LEVELS * (h - 1 - r)));
		}
	}
	attroff(ui_attr(ui, color, A_NORMAL));
}

void meter_graph_series(struct ui *ui, const struct meter_at *at, unsigned series,
			const char *label)
{
	int lw = (int)strlen(label),
	    gutter = at->h > 1 && lw < GRAPH_GUTTER ? GRAPH_GUTTER : lw + 1;
	bool known = hist.n && nth_newest(0)->v[series] >= 0;
	char fig[16];

	if (at->w <= gutter || at->h < 1 || series >= METER_SERIES_CPU(METER_GRAPH_CPUS))
		return;
	attron(ui_attr(ui, COLOR_LABEL, A_BOLD));
	mvaddnstr(at->y, at->x, label, gutter - 1);
	attroff(ui_attr(ui, COLOR_LABEL, A_BOLD));
	for (int c = lw < gutter ? lw : gutter; c < gutter; c++)
		mvaddch(at->y, at->x + c, ' ');
	/* under the caption, what the newest column stands for */
	for (int r = 1; r < at->h; r++) {
		snprintf(fig, sizeof(fig), series_counts(series) ? "%4.0f" : "%3.0f%%",
			 known ? (double)nth_newest(0)->v[series] : 0.0);
		mvprintw(at->y + r, at->x, "%-*s", gutter, r == 1 && known ? fig : "");
	}
	graph_columns(ui, at->y, at->x + gutter, at->w - gutter, at->h, series, COLOR_BAR_USER);
}

void meter_graph_draw(struct ui *ui, const struct meter_at *at, unsigned id,
		      const struct meter_def *m)
{
	meter_graph_series(ui, at, id, m->label);
}

/* "CPU [    ▁▂▃▅▇█] 45.2%" across the place given: the newest frame at the right. */
static void sparkline_draw(struct ui *ui, const struct meter_at *at, const char *label, unsigned id,
			   double now, enum ui_color color)
{
	int lw = (int)strlen(label), w = at->w - lw - 2 - 7;
	char text[16];

	if (w < 1 || at->h < 1)
		return;
	attron(ui_attr(ui, COLOR_LABEL, A_BOLD));
	mvaddstr(at->y, at->x, label);
	attroff(ui_attr(ui, COLOR_LABEL, A_BOLD));
	addch('[');
	graph_columns(ui, at->y, at->x + lw + 1, w, 1, id, color);
	snprintf(text, sizeof(text), "] %5.1f%%", now);
	mvaddstr(at->y, at->x + lw + 1 + w, text);
}

static void cpu_graph_draw(struct ui *ui, const struct meter_at *at)
{
	sparkline_draw(ui, at, "CPU ", (unsigned)meter_by_name("cpu"),
		       meter_cpu.percent(&ui->frame), COLOR_BAR_USER);
}

static void mem_graph_draw(struct ui *ui, const struct meter_at *at)
{
	sparkline_draw(ui, at, "Mem ", (unsigned)meter_by_name("memory"),
		       meter_mem.percent(&ui->frame), COLOR_BAR_OTHER);
}

const struct meter_def meter_cpu_graph = {
    .name = "cpu_graph",
    .height = meter_spare_row,
    .draw = cpu_graph_draw,
};

const struct meter_def meter_mem_graph = {
    .name = "memory_graph",
    .height = meter_spare_row,
    .draw = mem_graph_draw,
};
