// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * meter_psi.c: pressure stall information, as htop's PSI meters show it
 * (frame.psi, from /proc/pressure): the share of time some tasks (and, for
 * memory and I/O, all of them) stalled waiting for the resource, over the
 * last 10, 60 and 300 seconds. How one tells "busy" from "stalled". Not in
 * the default header: ptoprc's meters line adds them.
 */
#include <errno.h>
#include <string.h>

#include "meter.h"

/* "17.90% 23.33% 24.32%" */
static void averages(struct sbuf *b, const struct proc_pressure_line *l)
{
	for (int i = 0; i < 3; i++)
		sbuf_printf(b, "%s%3u.%02u%%", i ? " " : "", l->avg_x100[i] / 100,
			    l->avg_x100[i] % 100);
}

static void psi_draw_one(struct ui *ui, const struct meter_at *at, enum psi_resource r,
			 const char *label)
{
	const struct frame_psi *psi = &ui->frame.psi;
	struct sbuf *b = meter_scratch(0);

	if (!psi->asked)
		sbuf_adds(b, replay_on(ui) ? _("not recorded") : _("not read"));
	else if (psi->error[r] == -ENOENT)
		sbuf_adds(b, _("not in this kernel (CONFIG_PSI)"));
	else if (psi->error[r] == -EOPNOTSUPP)
		sbuf_adds(b, _("off (the kernel was booted with psi=0)"));
	else if (psi->error[r])
		sbuf_adds(b, strerror(-psi->error[r]));
	else {
		sbuf_adds(b, _("some "));
		averages(b, &psi->res[r].some);
		/* a system's CPU is never fully stalled: the kernel prints full for it as 0 */
		if (psi->res[r].has_full && r != PSI_CPU) {
			sbuf_adds(b, _("   full "));
			averages(b, &psi->res[r].full);
		}
	}
	meter_line(ui, at, label, b);
}

static void psi_cpu_draw(struct ui *ui, const struct meter_at *at)
{
	if (at->h > 0)
		psi_draw_one(ui, at, PSI_CPU, _("PSI CPU:    "));
}

static void psi_memory_draw(struct ui *ui, const struct meter_at *at)
{
	if (at->h > 0)
		psi_draw_one(ui, at, PSI_MEMORY, _("PSI memory: "));
}

static void psi_io_draw(struct ui *ui, const struct meter_at *at)
{
	if (at->h > 0)
		psi_draw_one(ui, at, PSI_IO, _("PSI I/O:    "));
}

const struct meter_def meter_psi_cpu = {
    .name = "psi_cpu",
    .needs = METER_NEEDS_PSI,
    .height = meter_one_row,
    .draw = psi_cpu_draw,
};

const struct meter_def meter_psi_memory = {
    .name = "psi_memory",
    .needs = METER_NEEDS_PSI,
    .height = meter_one_row,
    .draw = psi_memory_draw,
};

const struct meter_def meter_psi_io = {
    .name = "psi_io",
    .needs = METER_NEEDS_PSI,
    .height = meter_one_row,
    .draw = psi_io_draw,
};
