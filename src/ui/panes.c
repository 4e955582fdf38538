// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * panes.c: the pane table (ui_panes[]), the pane bar that names its panes
 * under the header, switching between them (their hot keys, Tab, which
 * walks the Processes pane's screens first, a click on the bar) and the
 * mouse: the wheel scrolls, a click goes to the pane's own click handler.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "tui.h"

/* In the order of the pane bar, Tab and the help; the first is shown by default. */
const struct pane_def *const ui_panes[] = {
    &pane_processes, &pane_counters, &pane_breakpoints, &pane_bench, NULL,
};

unsigned ui_pane_count(void)
{
	unsigned n = 0;

	while (ui_panes[n])
		n++;
	return n;
}

int ui_pane_by_name(const char *name)
{
	for (int i = 0; ui_panes[i]; i++)
		if (!strcasecmp(name, ui_panes[i]->config_name))
			return i;
	return -1;
}

const char *ui_pane_name(unsigned i)
{
	return ui_panes[i < ui_pane_count() ? i : 0]->config_name;
}

const struct pane_def *ui_pane(const struct ui *ui)
{
	return ui_panes[ui->cfg.pane];
}

/* " KEY Name ", the pane bar's label of pane i; its length. */
static int pane_label(char *buf, size_t n, int i)
{
	return snprintf(buf, n, " %c %s ", ui_panes[i]->hotkey, _(ui_panes[i]->name));
}

void panes_draw_bar(struct ui *ui, int y)
{
	int x = 0;

	ui->pane_bar_y = y;
	move(y, 0);
	clrtoeol();
	for (int i = 0; ui_panes[i]; i++) {
		char label[64];
		bool on = ui->cfg.pane == (unsigned)i;

		pane_label(label, sizeof(label), i);
		if (on)
			attron(ui_attr(ui, COLOR_PANE_ACTIVE, A_REVERSE) | A_BOLD);
		mvaddnstr(y, x, label, COLS - x);
		if (on)
			attroff(ui_attr(ui, COLOR_PANE_ACTIVE, A_REVERSE) | A_BOLD);
		x += (int)strlen(label) + 1;
		if (x >= COLS)
			break;
	}
}

void panes_switch(struct ui *ui, int to)
{
	if (to >= 0 && (unsigned)to < ui_pane_count())
		ui->cfg.pane = (unsigned)to;
}

unsigned panes_cycle(struct ui *ui, int dir)
{
	unsigned n = ui_pane_count(), tab = ui->cfg.tab + (dir > 0 ? 1u : -1u);

	/* the Processes pane's screens first, as htop's Tab walks them */
	if (ui_pane(ui) == &pane_processes && tab < ui->cfg.ntabs)
		return tabs_show(ui, tab);
	ui->cfg.pane = (ui->cfg.pane + n + (unsigned)(dir > 0 ? 1 : n - 1)) % n;
	if (ui_pane(ui) == &pane_processes && ui->cfg.ntabs > 1)
		return tabs_show(ui, dir > 0 ? 0 : ui->cfg.ntabs - 1);
	return UI_HANDLED;
}

unsigned panes_mouse(struct ui *ui)
{
	MEVENT ev;

	if (getmouse(&ev) != OK || ui->nscreens)
		return UI_HANDLED;
	if (ev.bstate & (BUTTON4_PRESSED | BUTTON5_PRESSED)) {
		/* the wheel moves the selection three rows, as htop's */
		enum ui_action act = ev.bstate & BUTTON4_PRESSED ? ACT_UP : ACT_DOWN;

		for (int i = 0; i < 3; i++)
			ui_pane(ui)->key(ui, act, 0);
		return UI_HANDLED;
	}
	if (ev.y == ui->pane_bar_y) {
		int x = 0;

		for (int i = 0; ui_panes[i]; i++) {
			char label[64];
			int w;

			w = pane_label(label, sizeof(label), i) + 1;
			if (ev.x >= x && ev.x < x + w) {
				panes_switch(ui, i);
				break;
			}
			x += w;
		}
		return UI_HANDLED;
	}
	if (ui_pane(ui)->click)
		return ui_pane(ui)->click(ui, ev.y, ev.x);
	return UI_HANDLED;
}
