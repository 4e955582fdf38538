// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * meter_memory.c: the Mem bar (used, then buffers and cache) and the Swp bar,
 * each with "used/total" in human units; or top's two lines of text in the
 * unit E chose (the same lines ptop -b prints); or nothing, as m cycles them.
 */
#include <stdio.h>
#include <string.h>

#include "meter.h"

/* "1.2G/7.7G" */
static void used_of(struct sbuf *b, uint64_t used_kb, uint64_t total_kb)
{
	fmt_size_kb(b, used_kb);
	sbuf_addc(b, '/');
	fmt_size_kb(b, total_kb);
}

/* Line `which` (0 Mem, 1 Swap) of top's memory lines, as text. */
static void mem_line(struct ui *ui, const struct meter_at *at, int which)
{
	struct sbuf *b = meter_scratch(0), *rest = meter_scratch(1);
	char *line, *nl, *colon;

	output_memory_lines(b, &ui->frame, ui->cfg.summary_unit);
	sbuf_cstr(b);
	line = which ? strchr(b->p, '\n') + 1 : b->p;
	nl = strchr(line, '\n');
	colon = strchr(line, ':');
	/* "MiB Mem :" in the label's colour, as top draws it */
	sbuf_add(rest, colon + 1, (size_t)(nl - colon - 1));
	colon[1] = '\0';
	meter_line(ui, at, line, rest);
}

static int mem_height(const struct ui *ui, bool compact)
{
	(void)compact;
	return ui->cfg.memory == MEM_HIDDEN ? 0 : 1;
}

static void mem_draw(struct ui *ui, const struct meter_at *at)
{
	const struct frame *f = &ui->frame;
	uint64_t other = f->mem.total > f->mem.used ? f->mem.total - f->mem.used : 0;
	double total = f->mem.total ? (double)f->mem.total : 1;
	struct bar_part parts[] = {
	    {(double)f->mem.used * 100.0 / total, COLOR_BAR_USER},
	    {(double)(f->mem.buff_cache < other ? f->mem.buff_cache : other) * 100.0 / total,
	     COLOR_BAR_OTHER},
	};
	struct sbuf *text = meter_scratch(0);

	if (ui->cfg.memory == MEM_TEXT) {
		mem_line(ui, at, 0);
		return;
	}
	used_of(text, f->mem.used, f->mem.total);
	meter_bar(ui, at, at->y, "Mem ", parts, 2, sbuf_cstr(text));
}

static void swap_draw(struct ui *ui, const struct meter_at *at)
{
	const struct frame *f = &ui->frame;
	double total = f->swap.total ? (double)f->swap.total : 1;
	struct bar_part parts[] = {{(double)f->swap.used * 100.0 / total, COLOR_BAR_SYSTEM}};
	struct sbuf *text = meter_scratch(0);

	if (ui->cfg.memory == MEM_TEXT) {
		mem_line(ui, at, 1);
		return;
	}
	used_of(text, f->swap.used, f->swap.total);
	meter_bar(ui, at, at->y, "Swp ", parts, 1, sbuf_cstr(text));
}

static double mem_percent(const struct frame *f)
{
	return f->mem.total ? (double)f->mem.used * 100.0 / (double)f->mem.total : 0;
}

static double swap_percent(const struct frame *f)
{
	return f->swap.total ? (double)f->swap.used * 100.0 / (double)f->swap.total : 0;
}

static void mem_figures(const struct ui *ui, struct sbuf *b)
{
	used_of(b, ui->frame.mem.used, ui->frame.mem.total);
}

static void swap_figures(const struct ui *ui, struct sbuf *b)
{
	used_of(b, ui->frame.swap.used, ui->frame.swap.total);
}

const struct meter_def meter_mem = {
    .name = "memory",
    .modes = METER_ALL_MODES,
    .height = mem_height,
    .draw = mem_draw,
    .label = "Mem",
    .percent = mem_percent,
    .figures = mem_figures,
};

const struct meter_def meter_swap = {
    .name = "swap",
    .modes = METER_ALL_MODES,
    .height = mem_height,
    .draw = swap_draw,
    .label = "Swp",
    .percent = swap_percent,
    .figures = swap_figures,
};
