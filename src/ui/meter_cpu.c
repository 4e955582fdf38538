// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * meter_cpu.c: CPU use as htop draws it: nice, user, system (with irq and
 * softirq) and waiting (iowait, steal) in their colours; one summary bar, or
 * one bar per CPU after `1`, unless the screen is too short for them.
 */
#include <stdio.h>

#include "meter.h"

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

static int cpu_height(const struct ui *ui, bool compact)
{
	return ui->cfg.per_cpu && ui->frame.ncpus && !compact ? (int)ui->frame.ncpus : 1;
}

static void cpu_draw(struct ui *ui, const struct meter_at *at)
{
	const struct frame *f = &ui->frame;

	if (at->h == 1) {
		cpu_bar(ui, at, at->y, "CPU ", &f->cpu);
		return;
	}
	for (int i = 0; i < at->h && i < (int)f->ncpus; i++) {
		char label[16];

		snprintf(label, sizeof(label), "%-4d", i);
		cpu_bar(ui, at, at->y + i, label, &f->cpus[i]);
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

const struct meter_def meter_cpu = {
    .name = "cpu",
    .modes = METER_ALL_MODES,
    .height = cpu_height,
    .draw = cpu_draw,
    .label = "CPU",
    .percent = cpu_percent,
    .figures = cpu_figures,
};
