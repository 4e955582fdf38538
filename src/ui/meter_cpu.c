// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * meter_cpu.c: CPU use as htop draws it: nice, user, system (with irq and
 * softirq) and waiting (iowait, steal) in their colours; one summary bar, or
 * one bar per CPU after `1`, unless the screen is too short for them. As
 * htop's AllCPUs, LeftCPUs and RightCPUs: every CPU (cpu), the first half
 * (left_cpus) or the second (right_cpus), several CPUs a row on a machine
 * of many (htop's thresholds: two a row beyond 8 CPUs, four beyond 16,
 * eight beyond 32).
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

/* CPUs a row, as htop chooses its CPU meters for the machine's count. */
static unsigned per_row(unsigned ncpus)
{
	return ncpus <= 8 ? 1 : ncpus <= 16 ? 2 : ncpus <= 32 ? 4 : 8;
}

/* Bars per CPU: asked for (top's 1), read, and room for them. */
static bool one_per_cpu(const struct ui *ui, bool compact)
{
	return ui->cfg.per_cpu && ui->frame.ncpus && !compact;
}

/* Rows of span: its CPUs, per_row() a row; with one summary bar, the left
 * half or all of them carry it and the right half nothing. */
static int span_height(const struct ui *ui, bool compact, enum cpu_span span)
{
	unsigned first, n, k = per_row(ui->frame.ncpus);

	if (!one_per_cpu(ui, compact))
		return span == CPUS_RIGHT ? 0 : 1;
	span_of(span, ui->frame.ncpus, &first, &n);
	return (int)((n + k - 1) / k);
}

static void span_draw(struct ui *ui, const struct meter_at *at, enum cpu_span span)
{
	const struct frame *f = &ui->frame;
	unsigned first, n, rows, k = per_row(f->ncpus);
	struct meter_at cell = *at;

	if (!one_per_cpu(ui, at->h < span_height(ui, false, span))) {
		cpu_bar(ui, at, at->y, "CPU ", &f->cpu);
		return;
	}
	span_of(span, f->ncpus, &first, &n);
	/* k bars a row, a blank column between them, the last one taking what
	 * is left; numbered down each column first, as htop's */
	rows = (n + k - 1) / k;
	cell.w = (at->w - (int)(k - 1)) / (int)k;
	for (unsigned i = 0; i < n; i++) {
		unsigned row = i % rows, col = i / rows;
		char label[16];

		if ((int)row >= at->h)
			continue;
		cell.x = at->x + (int)col * (cell.w + 1);
		if (col == k - 1)
			cell.w = at->x + at->w - cell.x;
		snprintf(label, sizeof(label), "%-4u", first + i);
		cpu_bar(ui, &cell, at->y + (int)row, label, &f->cpus[first + i]);
		cell.w = (at->w - (int)(k - 1)) / (int)k;
	}
}

static int cpu_height(const struct ui *ui, bool compact)
{
	return span_height(ui, compact, CPUS_ALL);
}

static int left_height(const struct ui *ui, bool compact)
{
	return span_height(ui, compact, CPUS_LEFT);
}

static int right_height(const struct ui *ui, bool compact)
{
	return span_height(ui, compact, CPUS_RIGHT);
}

static void cpu_draw(struct ui *ui, const struct meter_at *at)
{
	span_draw(ui, at, CPUS_ALL);
}

static void left_draw(struct ui *ui, const struct meter_at *at)
{
	span_draw(ui, at, CPUS_LEFT);
}

static void right_draw(struct ui *ui, const struct meter_at *at)
{
	span_draw(ui, at, CPUS_RIGHT);
}

static double cpu_percent(const struct frame *f)
{
	return 100.0 - f->cpu.idle;
}

static void cpu_figures(const struct ui *ui, struct sbuf *b)
{
	sbuf_printf(b, "%.1f%%", cpu_percent(&ui->frame));
}

const struct meter_def meter_cpu = {
    .name = "cpu",
    .modes = METER_ALL_MODES,
    .height = cpu_height,
    .draw = cpu_draw,
    .label = "CPU",
    .percent = cpu_percent,
    .figures = cpu_figures,
};

/* As graph or LED, each half shows all the CPUs together, as cpu does. */
const struct meter_def meter_left_cpus = {
    .name = "left_cpus",
    .modes = METER_ALL_MODES,
    .height = left_height,
    .draw = left_draw,
    .label = "CPU",
    .percent = cpu_percent,
    .figures = cpu_figures,
};

const struct meter_def meter_right_cpus = {
    .name = "right_cpus",
    .modes = METER_ALL_MODES,
    .height = right_height,
    .draw = right_draw,
    .label = "CPU",
    .percent = cpu_percent,
    .figures = cpu_figures,
};
