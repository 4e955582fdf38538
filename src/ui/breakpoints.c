// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * breakpoints.c: the Breakpoints pane: every armed breakpoint with its
 * process, address, length, type, hits, hits per second and threads covered.
 * `D` arms one on the selected process (from any pane), Del disarms the
 * selected one here.
 */
#include <string.h>

#include "ptop/perf.h"
#include "tui.h"

static void bp_draw(struct ui *ui, int y, int h)
{
	const struct frame *f = &ui->frame;

	if (h < 3)
		return;
	if (f->bp_no_hits) {
		attron(ui_attr(ui, COLOR_STATUS, A_BOLD));
		mvaddnstr(y++, 0,
			  _("Note: this machine counts no breakpoint hits (its hypervisor drops "
			    "debug exceptions)"),
			  COLS);
		attroff(ui_attr(ui, COLOR_STATUS, A_BOLD));
		h--;
	}
	attron(ui_attr(ui, COLOR_TABLE_HEADER, A_REVERSE));
	mvhline(y, 0, ' ', COLS);
	mvprintw(y, 0, "%7s %-18s %3s %-4s %12s %10s %7s  %s", "PID", _("ADDRESS"), _("LEN"),
		 _("TYPE"), _("HITS"), _("HITS/s"), _("THREADS"), _("COMMAND"));
	attroff(ui_attr(ui, COLOR_TABLE_HEADER, A_REVERSE));
	y++;
	h--;
	if (!f->nbps) {
		mvaddnstr(y, 1,
			  _("No breakpoints. Select a process and press D to watch an address."),
			  COLS - 1);
		return;
	}
	if (ui->bp_sel >= f->nbps)
		ui->bp_sel = f->nbps - 1;
	for (size_t i = 0; i < f->nbps && (int)i < h; i++) {
		const struct frame_bp *bp = &f->bps[i];
		const char *comm = "";
		size_t clen = 0;

		for (size_t k = 0; k < f->nprocs; k++) {
			if (f->procs[k].pid == bp->pid) {
				comm = f->procs[k].comm;
				clen = f->procs[k].comm_len;
				break;
			}
		}
		if (i == ui->bp_sel) {
			attron(ui_attr(ui, COLOR_SELECTED, A_REVERSE));
			mvhline(y, 0, ' ', COLS);
		}
		mvprintw(y, 0, "%7d 0x%-16llx %3d %-4s %12llu %10.1f %7d  ", bp->pid,
			 (unsigned long long)bp->addr, bp->len, bp->type,
			 (unsigned long long)bp->hits, bp->hits_per_s, bp->threads);
		ui_put(ui, y, getcurx(stdscr), COLS - getcurx(stdscr), comm, clen);
		if (i == ui->bp_sel)
			attroff(ui_attr(ui, COLOR_SELECTED, A_REVERSE));
		y++;
	}
}

static unsigned bp_key(struct ui *ui, enum ui_action act, int key)
{
	size_t n = ui->frame.nbps;

	(void)key;
	switch (act) {
	case ACT_UP:
		if (ui->bp_sel > 0)
			ui->bp_sel--;
		return UI_HANDLED;
	case ACT_DOWN:
		if (ui->bp_sel + 1 < n)
			ui->bp_sel++;
		return UI_HANDLED;
	case ACT_HOME:
		ui->bp_sel = 0;
		return UI_HANDLED;
	case ACT_END:
		ui->bp_sel = n ? n - 1 : 0;
		return UI_HANDLED;
	case ACT_DISARM:
		if (!n || !pipeline_observes(ui->pipe))
			return UI_HANDLED;
		ui_status(ui, _("Breakpoint on %d at 0x%llx disarmed"),
			  ui->frame.bps[ui->bp_sel].pid,
			  (unsigned long long)ui->frame.bps[ui->bp_sel].addr);
		pipeline_unwatch(ui->pipe, ui->bp_sel);
		ui->frame.nbps--; /* the frame's list is the observer's: it shifted too */
		if (ui->bp_sel && ui->bp_sel >= ui->frame.nbps)
			ui->bp_sel--;
		return UI_HANDLED;
	default:
		return UI_IGNORED;
	}
}

const struct pane_def pane_breakpoints = {
    .name = N_("Breakpoints"),
    .config_name = "breakpoints",
    .hotkey = '3',
    .key_help = N_("Breakpoints pane"),
    .draw = bp_draw,
    .key = bp_key,
    .click = NULL,
};
