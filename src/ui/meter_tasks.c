// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * meter_tasks.c: top's second line: processes (or threads, with H) by state.
 */
#include "meter.h"

static void tasks_draw(struct ui *ui, int y, int h)
{
	const struct frame *f = &ui->frame;
	const struct frame_tasks *t = output_tasks(f, &ui->view);

	(void)h;
	mvprintw(y, 0,
		 f->threads ? _("Threads: %u total, %u running, %u sleeping, %u stopped, %u zombie")
			    : _("Tasks: %u total, %u running, %u sleeping, %u stopped, %u zombie"),
		 t->total, t->running, t->sleeping, t->stopped, t->zombie);
}

const struct meter_def meter_tasks = {
    .name = "tasks",
    .height = meter_one_row,
    .draw = tasks_draw,
};
