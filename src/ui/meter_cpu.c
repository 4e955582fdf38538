// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * meter_cpu.c: CPU use as htop draws it: nice, user, system (with irq and
 * softirq) and waiting (iowait, steal) in their colours; one summary bar, or
 * one bar per CPU after `1`, unless the screen is too short for them. As
 * htop's AllCPUs, LeftCPUs and RightCPUs: every CPU (cpu), the first half
 * (left_cpus) or the second (right_cpus), several CPUs a row on a machine
 * of many (htop's thresholds: two a row beyond 8 CPUs, four beyond 16,
 * eight beyond 32), or as many as the name says (all_cpus2, left_cpus4,
 * right_cpus8: htop's AllCPUs2, LeftCPUs4, RightCPUs8). As htop's, each
 * CPU is a graph of its own in graph mode, and its figure in big digits in
 * LED mode; the summary likewise.
 */
#include <stdio.h>

#include "meter.h"

/* Which CPUs a meter shows: all, the first half (htop's odd one in it), the second. */
enum cpu_span { CPUS_ALL, CPUS_LEFT, CPUS_RIGHT };

static void cpu_bar(struct ui *ui, const struct meter_at *at, int y, const char *label,
		    const struct frame_cpu *c)
{
	struct bar_part parts[] = {
	    {c->nice, COLOR_BAR_NICE},
	    {c->user, COLOR_BAR_USER},
	    {c->system + c->irq + c->softirq, COLOR_BAR_SYSTEM},
	    {c->iowait + c->steal, COLOR_BAR_OTHER},
	};
	char text[32];

	snprintf(text, sizeof(text), "%5.1f%%", 100.0 - c->idle);
	meter_bar(ui, at, y, label, parts, 4, text);
}

/* The CPUs of span: the first and how many. */
static void span_of(enum cpu_span span, unsigned ncpus, unsigned *first, unsigned *n)
{
	unsigned half = (ncpus + 1) / 2;

	*first = span == CPUS_RIGHT ? half : 0;
	*n = span == CPUS_ALL ? ncpus : span == CPUS_LEFT ? half : ncpus - half;
}

/* CPUs a row: the number in the meter's name (htop's LeftCPUs4: four),
 * else as htop chooses its CPU meters for the machine's count. */
static unsigned per_row(unsigned ncpus, unsigned named)
{
	if (named)
		return named;
	return ncpus <= 8 ? 1 : ncpus <= 16 ? 2 : ncpus <= 32 ? 4 : 8;
}

/* Bars per CPU: asked for (top's 1), read, and room for them. */
static bool one_per_cpu(const struct ui *ui, bool compact)
{
	return ui->cfg.per_cpu && ui->frame.ncpus && !compact;
}

/* Rows of span as mode: its CPUs, per_row() a row, each row as high as
 * the mode's; with one summary, the left half or all of them carry it and
 * the right half nothing. */
static int span_height(const struct ui *ui, enum meter_mode mode, bool compact, enum cpu_span span,
		       unsigned named)
{
	unsigned first, n, k = per_row(ui->frame.ncpus, named);

	if (!one_per_cpu(ui, compact))
		return span == CPUS_RIGHT ? 0 : meter_mode_rows(mode, 1, compact);
	span_of(span, ui->frame.ncpus, &first, &n);
	return meter_mode_rows(mode, (int)((n + k - 1) / k), compact);
}

/* One CPU (c, or the summary with c -1) in cell as the cell's mode. */
static void cpu_cell(struct ui *ui, const struct meter_at *cell, int c)
{
	const struct frame_cpu *fc = c < 0 ? &ui->frame.cpu : &ui->frame.cpus[c];
	struct sbuf *fig;
	char label[16];

	if (cell->mode == METER_GRAPH) {
		snprintf(label, sizeof(label), c < 0 ? "CPU" : "%d", c);
		meter_graph_series(
		    ui, cell,
		    c < 0 ? (unsigned)meter_by_name("cpu") : (unsigned)METER_SERIES_CPU(c), label);
	} else if (cell->mode == METER_LED) {
		snprintf(label, sizeof(label), c < 0 ? "CPU" : "%d", c);
		fig = meter_scratch(0);
		sbuf_printf(fig, "%.1f%%", 100.0 - fc->idle);
		meter_led_text(ui, cell, label, fig);
	} else {
		snprintf(label, sizeof(label), c < 0 ? "CPU " : "%-4d", c);
		cpu_bar(ui, cell, cell->y, label, fc);
	}
}

static void span_draw(struct ui *ui, const struct meter_at *at, enum cpu_span span, unsigned named)
{
	const struct frame *f = &ui->frame;
	unsigned first, n, rows, k = per_row(f->ncpus, named);
	int h = meter_mode_rows(at->mode, 1, at->compact);
	struct meter_at cell = *at;

	if (!one_per_cpu(ui, at->compact)) {
		cpu_cell(ui, at, -1);
		return;
	}
	span_of(span, f->ncpus, &first, &n);
	/* k a row, a blank column between them, the last one taking what is
	 * left; numbered down each column first, as htop's */
	rows = (n + k - 1) / k;
	cell.h = h;
	for (unsigned i = 0; i < n; i++) {
		unsigned row = i % rows, col = i / rows;

		if ((int)(row + 1) * h > at->h)
			continue;
		cell.w = (at->w - (int)(k - 1)) / (int)k;
		cell.x = at->x + (int)col * (cell.w + 1);
		if (col == k - 1)
			cell.w = at->x + at->w - cell.x;
		cell.y = at->y + (int)row * h;
		cpu_cell(ui, &cell, (int)(first + i));
	}
}

static double cpu_percent(const struct frame *f)
{
	return 100.0 - f->cpu.idle;
}

static void cpu_figures(const struct ui *ui, struct sbuf *b)
{
	sbuf_printf(b, "%.1f%%", cpu_percent(&ui->frame));
}

/* One meter of span, named CPUs a row (0: as the count gives): its
 * height as bar or text, its height in every mode, its drawing, and its
 * table entry. */
#define CPU_METER(var, name_, span, named)                                                         \
	static int var##_height(const struct ui *ui, bool compact)                                 \
	{                                                                                          \
		return span_height(ui, METER_BAR, compact, span, named);                           \
	}                                                                                          \
	static int var##_mode_height(const struct ui *ui, enum meter_mode mode, bool compact)      \
	{                                                                                          \
		return span_height(ui, mode, compact, span, named);                                \
	}                                                                                          \
	static void var##_draw(struct ui *ui, const struct meter_at *at)                           \
	{                                                                                          \
		span_draw(ui, at, span, named);                                                    \
	}                                                                                          \
	const struct meter_def var = {                                                             \
	    .name = name_,                                                                         \
	    .modes = METER_ALL_MODES,                                                              \
	    .height = var##_height,                                                                \
	    .draw = var##_draw,                                                                    \
	    .mode_height = var##_mode_height,                                                      \
	    .label = "CPU",                                                                        \
	    .percent = cpu_percent,                                                                \
	    .figures = cpu_figures,                                                                \
	}

CPU_METER(meter_cpu, "cpu", CPUS_ALL, 0);
CPU_METER(meter_left_cpus, "left_cpus", CPUS_LEFT, 0);
CPU_METER(meter_right_cpus, "right_cpus", CPUS_RIGHT, 0);
CPU_METER(meter_all_cpus2, "all_cpus2", CPUS_ALL, 2);
CPU_METER(meter_all_cpus4, "all_cpus4", CPUS_ALL, 4);
CPU_METER(meter_all_cpus8, "all_cpus8", CPUS_ALL, 8);
CPU_METER(meter_left_cpus2, "left_cpus2", CPUS_LEFT, 2);
CPU_METER(meter_left_cpus4, "left_cpus4", CPUS_LEFT, 4);
CPU_METER(meter_left_cpus8, "left_cpus8", CPUS_LEFT, 8);
CPU_METER(meter_right_cpus2, "right_cpus2", CPUS_RIGHT, 2);
CPU_METER(meter_right_cpus4, "right_cpus4", CPUS_RIGHT, 4);
CPU_METER(meter_right_cpus8, "right_cpus8", CPUS_RIGHT, 8);
