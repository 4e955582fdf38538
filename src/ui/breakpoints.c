// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * breakpoints.c: the Breakpoints pane: every armed breakpoint with its
 * process, what was asked for, address, length, type, hits, hits per second,
 * what the hits cost the process (hits/s times the cost of one hit measured
 * on this machine) and threads covered. `D` arms one on the selected process
 * (from any pane), by a variable's name or an address; Del disarms the
 * selected one here. A process that exits keeps its row, marked, with its
 * final count.
 */
#include <string.h>

#include "ptop/perf.h"
#include "tui.h"

#define BP_COST_WARN 5.0 /* % of a CPU: a watch costing more is named above the table */

/* The dearest watch above the warning line, or the reason no cost is known. */
static int bp_note(struct ui *ui, int y)
{
	const struct frame *f = &ui->frame;
	const struct frame_bp *worst = NULL;

	for (size_t i = 0; i < f->nbps; i++)
		if (!f->bps[i].gone && f->bps[i].cpu_pct > BP_COST_WARN &&
		    (!worst || f->bps[i].cpu_pct > worst->cpu_pct))
			worst = &f->bps[i];
	if (!worst && !f->bp_no_hits)
		return 0;
	attron(ui_attr(ui, COLOR_STATUS, A_BOLD));
	move(y, 0);
	clrtoeol();
	if (worst)
		printw(
		    _("Warning: the watch on %d (%s) costs it about %.0f%% of a CPU: %.0f hits/s "
		      "at %.1f us each"),
		    worst->pid, worst->label[0] ? worst->label : worst->comm, worst->cpu_pct,
		    worst->hits_per_s, f->bp_hit_ns / 1000);
	else
		addnstr(_("Note: this machine counts no breakpoint hits (its hypervisor drops "
			  "debug exceptions): no hits and no cost to show"),
			COLS);
	attroff(ui_attr(ui, COLOR_STATUS, A_BOLD));
	return 1;
}

static void bp_row(struct ui *ui, int y, const struct frame_bp *bp)
{
	char cost[16];
	const char *comm = bp->comm;
	size_t clen = strlen(bp->comm);

	if (bp->cpu_pct < 0)
		snprintf(cost, sizeof(cost), "%s", "n/a");
	else
		snprintf(cost, sizeof(cost), "%.1f", bp->cpu_pct);
	for (size_t k = 0; k < ui->frame.nprocs && !bp->gone; k++) {
		if (ui->frame.procs[k].pid == bp->pid) {
			comm = ui->frame.procs[k].comm;
			clen = ui->frame.procs[k].comm_len;
			break;
		}
	}
	mvprintw(y, 0, "%7d %-18.18s 0x%-14llx %3d %-4s %12llu %10.1f %7s %7d  ", bp->pid,
		 bp->label, (unsigned long long)bp->addr, bp->len, bp->type,
		 (unsigned long long)bp->hits, bp->hits_per_s, cost, bp->threads);
	clen = (size_t)ui_put(ui, y, getcurx(stdscr), COLS - getcurx(stdscr), comm, clen);
	if (bp->execd)
		addnstr(_(" (ran another program)"), COLS - getcurx(stdscr));
	else if (bp->gone)
		addnstr(_(" (exited)"), COLS - getcurx(stdscr));
}

static void bp_draw(struct ui *ui, int y, int h)
{
	const struct frame *f = &ui->frame;
	int n;

	if (h < 3)
		return;
	n = bp_note(ui, y);
	y += n;
	h -= n;
	attron(ui_attr(ui, COLOR_TABLE_HEADER, A_REVERSE));
	mvhline(y, 0, ' ', COLS);
	mvprintw(y, 0, "%7s %-18s %-16s %3s %-4s %12s %10s %7s %7s  %s", "PID", _("WATCH"),
		 _("ADDRESS"), _("LEN"), _("TYPE"), _("HITS"), _("HITS/s"), _("~%CPU"),
		 _("THREADS"), _("COMMAND"));
	attroff(ui_attr(ui, COLOR_TABLE_HEADER, A_REVERSE));
	y++;
	h--;
	if (!f->nbps && replay_on(ui)) {
		/* a replay's processes cannot be watched: D is refused there */
		mvaddnstr(y, 1,
			  _("No breakpoints in this frame of the recording (ptop --record --watch "
			    "records them)."),
			  COLS - 1);
		return;
	}
	if (!f->nbps) {
		static const char *const how[] = {
		    N_("No breakpoints. Select a process and press D to watch a variable:"),
		    N_("  counter            a global or static variable, by name (nm -C PROGRAM)"),
		    N_("  libc.so.6:stdout   a variable of one library or of the program itself"),
		    N_("  prog+0x4010        an address in the binary as nm or objdump show it"),
		    N_("  [heap]+0x40        an offset into a region of /proc/PID/maps"),
		    N_("  0x7ffd1234:8:rw    an address, then length 1/2/4/8 and type r w rw x"),
		};

		for (size_t i = 0; i < sizeof(how) / sizeof(how[0]) && (int)i < h; i++)
			mvaddnstr(y + (int)i, 1, _(how[i]), COLS - 1);
		return;
	}
	if (ui->bp_sel >= f->nbps)
		ui->bp_sel = f->nbps - 1;
	for (size_t i = 0; i < f->nbps && (int)i < h; i++) {
		if (i == ui->bp_sel) {
			attron(ui_attr(ui, COLOR_SELECTED, A_REVERSE));
			mvhline(y, 0, ' ', COLS);
		}
		bp_row(ui, y, &f->bps[i]);
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
    .key_help = N_("Breakpoints pane (D NAME watches a variable: find names with nm -C PROGRAM)"),
    .draw = bp_draw,
    .key = bp_key,
    .click = NULL,
};
