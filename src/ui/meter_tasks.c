// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * meter_tasks.c: top's second line: processes (or threads, with H) by state;
 * in a half of the header too narrow for it, htop's shorter count. As htop's
 * Task counter, also a bar (running, sleeping, then stopped and zombie,
 * against the most tasks seen, "running/total" in it), a graph of how many
 * (against the most in view) and LED digits.
 */
#include <stdio.h>

#include "meter.h"

/* The bar: its parts against the most tasks seen, as htop scales a meter that is no share. */
static void tasks_bar(struct ui *ui, const struct meter_at *at, const struct frame_tasks *t)
{
	static unsigned most = 1;
	struct bar_part parts[3];
	char text[32];

	if (t->total > most)
		most = t->total;
	parts[0] = (struct bar_part){t->running * 100.0 / most, COLOR_BAR_USER};
	parts[1] = (struct bar_part){t->sleeping * 100.0 / most, COLOR_BAR_NICE};
	parts[2] = (struct bar_part){(t->stopped + t->zombie) * 100.0 / most, COLOR_BAR_SYSTEM};
	snprintf(text, sizeof(text), "%u/%u", t->running, t->total);
	meter_bar(ui, at, at->y, "Tasks ", parts, 3, text);
}

static void tasks_draw(struct ui *ui, const struct meter_at *at)
{
	const struct frame *f = &ui->frame;
	const struct frame_tasks *t = output_tasks(f, &ui->view);
	struct sbuf *b = meter_scratch(0);

	if (at->mode == METER_BAR) {
		tasks_bar(ui, at, t);
		return;
	}

	sbuf_printf(b,
		    f->threads
			? _("Threads: %u total, %u running, %u sleeping, %u stopped, %u zombie")
			: _("Tasks: %u total, %u running, %u sleeping, %u stopped, %u zombie"),
		    t->total, t->running, t->sleeping, t->stopped, t->zombie);
	if ((int)b->len > at->w) {
		sbuf_reset(b);
		sbuf_printf(b,
			    f->threads ? _("Threads: %u, %u running") : _("Tasks: %u, %u running"),
			    t->total, t->running);
	}
	ui_put(ui, at->y, at->x, at->w, b->p, b->len);
}

static void tasks_figures(const struct ui *ui, struct sbuf *b)
{
	const struct frame_tasks *t = output_tasks(&ui->frame, &ui->view);

	sbuf_printf(b, _("%u, %u running"), t->total, t->running);
}

/* how many, for the graph */
static double tasks_count(const struct frame *f)
{
	return f->tasks.total;
}

/* all four of htop's modes (htop 3.3's Task counter), text by default */
const struct meter_def meter_tasks = {
    .name = "tasks",
    .modes = METER_ALL_MODES,
    .default_mode = METER_TEXT,
    .height = meter_one_row,
    .draw = tasks_draw,
    .label = "Tasks",
    .percent = tasks_count,
    .counts = true,
    .figures = tasks_figures,
};
