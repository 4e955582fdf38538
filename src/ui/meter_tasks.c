// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * meter_tasks.c: top's second line: processes (or threads, with H) by state;
 * in a half of the header too narrow for it, htop's shorter count.
 */
#include "meter.h"

static void tasks_draw(struct ui *ui, const struct meter_at *at)
{
	const struct frame *f = &ui->frame;
	const struct frame_tasks *t = output_tasks(f, &ui->view);
	struct sbuf *b = meter_scratch(0);

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

/* text, or LED: how many, then how many running */
const struct meter_def meter_tasks = {
    .name = "tasks",
    .modes = 1u << METER_TEXT | 1u << METER_LED,
    .height = meter_one_row,
    .draw = tasks_draw,
    .label = "Tasks",
    .figures = tasks_figures,
};
