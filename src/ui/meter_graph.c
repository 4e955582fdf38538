// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * meter_graph.c: CPU and memory use over the last minutes, as a sparkline
 * of one row each (htop's graph meters keep a row of values the same way,
 * the newest at the right): one column per frame taken, its height in
 * eighths of a cell (Unicode block elements), or an ASCII ramp without
 * UTF-8 (--no-unicode, another locale). The history is kept from every
 * frame the viewer takes, shown or not; a frame that does not follow the
 * last one kept (a replay travelled back or away) starts it again from
 * there. Touches no kernel interface: the frames have what it shows.
 */
#include <stdio.h>
#include <string.h>

#include "meter.h"

/* Columns kept: more than any terminal's width. */
#define GRAPH_MAX 1024
/* Heights of a column, lowest first: the whole range is eight steps. */
#define GRAPH_LEVELS 8

struct graph_sample {
	int64_t time_ns; /* the frame's wall clock */
	float cpu, mem;	 /* percent busy of all CPUs over its interval; of memory used */
};

/* A ring of the frames taken, oldest first from (head - n). */
static struct {
	struct graph_sample s[GRAPH_MAX];
	unsigned head, n;
} hist;

static double mem_pct(const struct frame *f)
{
	return f->mem.total ? (double)f->mem.used * 100.0 / (double)f->mem.total : 0;
}

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
	s->cpu = (float)(100.0 - f->cpu.idle);
	s->mem = (float)mem_pct(f);
	hist.head = (hist.head + 1) % GRAPH_MAX;
	if (hist.n < GRAPH_MAX)
		hist.n++;
}

static void graph_cell(struct sbuf *b, bool utf8, double pct)
{
	/* U+2581..U+2588, lower one eighth block to full block */
	static const char *const blocks[GRAPH_LEVELS] = {"\u2581", "\u2582", "\u2583", "\u2584",
							 "\u2585", "\u2586", "\u2587", "\u2588"};
	static const char ascii[GRAPH_LEVELS] = "_.:-=+*#";
	int lvl = (int)(pct * GRAPH_LEVELS / 100.0);

	if (lvl < 0)
		lvl = 0;
	if (lvl >= GRAPH_LEVELS)
		lvl = GRAPH_LEVELS - 1;
	if (utf8)
		sbuf_adds(b, blocks[lvl]);
	else
		sbuf_addc(b, ascii[lvl]);
}

/* "CPU [    ▁▂▃▅▇█] 45.2%" across the place given: the newest frame at the right. */
static void graph_draw(struct ui *ui, const struct meter_at *at, const char *label, bool mem,
		       double now)
{
	int lw = (int)strlen(label), w = at->w - lw - 2 - 7;
	unsigned k = hist.n < (unsigned)(w > 0 ? w : 0) ? hist.n : (unsigned)(w > 0 ? w : 0);
	struct sbuf b = {0};
	char text[16];

	if (w < 1 || at->h < 1)
		return;
	attron(ui_attr(ui, COLOR_LABEL, A_BOLD));
	mvaddstr(at->y, at->x, label);
	attroff(ui_attr(ui, COLOR_LABEL, A_BOLD));
	addch('[');
	for (int i = 0; i < w - (int)k; i++)
		sbuf_addc(&b, ' ');
	for (unsigned i = k; i-- > 0;) {
		const struct graph_sample *s = nth_newest(i);

		graph_cell(&b, ui->utf8, mem ? s->mem : s->cpu);
	}
	attron(ui_attr(ui, mem ? COLOR_BAR_OTHER : COLOR_BAR_USER, A_NORMAL));
	addstr(sbuf_cstr(&b));
	attroff(ui_attr(ui, mem ? COLOR_BAR_OTHER : COLOR_BAR_USER, A_NORMAL));
	snprintf(text, sizeof(text), "] %5.1f%%", now);
	mvaddstr(at->y, at->x + lw + 1 + w, text);
	sbuf_free(&b);
}

static void cpu_graph_draw(struct ui *ui, const struct meter_at *at)
{
	graph_draw(ui, at, "CPU ", false, 100.0 - ui->frame.cpu.idle);
}

static void mem_graph_draw(struct ui *ui, const struct meter_at *at)
{
	graph_draw(ui, at, "Mem ", true, mem_pct(&ui->frame));
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
