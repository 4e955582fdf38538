// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * counters.c: the Counters pane: the same processes, order and selection as
 * the Processes pane, with their counters (one group per process, attached
 * only while this pane shows them, under the budget), what is derived from
 * them (IPC, misses per thousand instructions, CPU share), and what it costs
 * ptop to observe: its own counters, read with rdpmc where the kernel allows.
 */
#include <string.h>

#include "tui.h"

#define CTR_W 12

static void counters_heading(struct ui *ui, int y)
{
	const struct frame_counters *c = &ui->frame.counters;
	int x = 0;

	mvprintw(y, x, "%7s ", "PID");
	x += 8;
	for (int e = 0; e < c->nevents && x + CTR_W < COLS; e++) {
		char t[CTR_W + 1];

		/* a software event is marked: there is no hardware behind it */
		snprintf(t, sizeof(t), "%s%s", c->software & (1u << e) ? "~" : "", c->names[e]);
		mvprintw(y, x, "%*.*s", CTR_W - 1, CTR_W - 1, t);
		x += CTR_W;
	}
	if (x + 30 < COLS)
		mvprintw(y, x, "%6s %6s %6s %6s ", "IPC", "C/KI", "B/KI", "CPU%");
	x += 28;
	if (x + 6 < COLS)
		mvprintw(y, x, "%5s %s", "SCALE", "COMMAND");
}

static void fig(double v, int w, int dec)
{
	if (v < 0)
		printw("%*s ", w, "-");
	else
		printw("%*.*f ", w, dec, v);
}

static void counters_row(struct ui *ui, int y, const struct frame_proc *p, bool sel)
{
	const struct frame_counters *c = &ui->frame.counters;
	struct ctr_derived d;
	int x = 0;

	if (sel) {
		attron(ui_attr(ui, COLOR_SELECTED, A_REVERSE));
		mvhline(y, 0, ' ', COLS);
	}
	mvprintw(y, x, "%7d ", p->pid);
	x += 8;
	for (int e = 0; e < c->nevents && x + CTR_W < COLS; e++) {
		/* multiplexed out the whole interval: no count, and not a zero */
		if (p->has_ctr && p->ctr_not_counted)
			mvprintw(y, x, "%*.*s ", CTR_W - 1, CTR_W - 1, _("not counted"));
		else if (p->has_ctr && (p->ctr_na & (1u << e)))
			mvprintw(y, x, "%*s ", CTR_W - 1, _("n/a"));
		else if (p->has_ctr)
			mvprintw(y, x, "%*.0f ", CTR_W - 1, p->ctr[e]);
		else
			mvprintw(y, x, "%*s ", CTR_W - 1, "-");
		x += CTR_W;
	}
	if (x + 30 < COLS) {
		move(y, x);
		if (p->has_ctr && !p->ctr_not_counted) {
			ctr_derive(&ui->frame, p, &d);
			fig(d.ipc, 6, 2);
			fig(d.cache_mpki, 6, 1);
			fig(d.branch_mpki, 6, 1);
			fig(d.cpu_share, 6, 1);
		} else {
			printw("%6s %6s %6s %6s ", "-", "-", "-", "-");
		}
	}
	x += 28;
	if (x + 6 < COLS) {
		/* '+': some of its threads are not counted (over the limits) */
		if (p->has_ctr)
			mvprintw(y, x, "%5.2f%c", p->ctr_scale, p->ctr_partial ? '+' : ' ');
		else
			mvprintw(y, x, "%5s ", "-");
		ui_put(ui, y, x + 6, COLS - x - 6, p->comm, p->comm_len);
	}
	if (sel)
		attroff(ui_attr(ui, COLOR_SELECTED, A_REVERSE));
}

static void counters_draw(struct ui *ui, int y, int h)
{
	const struct frame_counters *c = &ui->frame.counters;

	if (h < 4)
		return;
	move(y, 0);
	clrtoeol();
	if (ui->ob_error) {
		attron(ui_attr(ui, COLOR_STATUS, A_BOLD));
		mvprintw(y, 0, _("counters: %s"), _(ui->ob_error));
		attroff(ui_attr(ui, COLOR_STATUS, A_BOLD));
		return;
	}
	attron(ui_attr(ui, COLOR_LABEL, A_BOLD));
	if (c->hardware)
		mvprintw(y, 0, _("counters: hardware"));
	else
		mvprintw(y, 0, _("counters: software only (%s; ~ marks software events)"),
			 c->why_software ? _(c->why_software) : _("asked for"));
	attroff(ui_attr(ui, COLOR_LABEL, A_BOLD));
	printw(_("  %u attached, %u not attached"), c->attached, c->not_attached);
	if (c->partial)
		printw(_(", %u with threads not counted (+)"), c->partial);
	if (c->na)
		printw(_(", user only: n/a"));
	if (c->npmus > 1)
		printw(_(", hybrid CPU: summed over %d core types"), c->npmus);
	if (c->nsplit > 1)
		printw(_(", more events than counters: %d groups"), c->nsplit);
	if (c->children_counted)
		printw(_(", forked children also count in their parents (no inherit_thread)"));
	if (c->refused) {
		/* the rows show '-' for these: say why here */
		printw(_(", %u refused: %s"), c->refused, strerror(-c->refused_error));
		if (c->paranoid != PERF_PARANOID_UNKNOWN)
			printw(_(" (perf_event_paranoid=%d)"), c->paranoid);
	} else if (c->last_error) {
		printw(_(" (%s)"), strerror(-c->last_error));
	}
	/* an event's own reason, where it is not the one the header gave already */
	for (int e = 0; e < c->nfailed; e++)
		if (!c->why_software || strcmp(c->failed_why[e], c->why_software))
			printw(_("; %s: %s"), c->failed[e], _(c->failed_why[e]));
	y++;
	move(y, 0);
	clrtoeol();
	printw(_("ptop's own frame (%s):"), c->self_rdpmc ? "rdpmc" : _("read(), no rdpmc"));
	for (int e = 0; e < c->nevents; e++)
		printw(" %s %.0f", c->names[e], c->self_ctr[e]);
	y++;
	procs_draw_rows(ui, y, h - 2, counters_row, counters_heading);
}

static unsigned counters_key(struct ui *ui, enum ui_action act, int key)
{
	/* selection, sorting and filtering are the Processes pane's */
	return pane_processes.key(ui, act, key);
}

const struct pane_def pane_counters = {
    .name = N_("Counters"),
    .config_name = "counters",
    .hotkey = '2',
    .key_help = N_("Counters pane"),
    .draw = counters_draw,
    .key = counters_key,
    .click = NULL,
};
