// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tabs.c: the Processes pane's screens on screen, as htop's ScreenTabs: with
 * two or more, and unless screen_tabs is off, a line of tabs above the
 * table, the shown one highlighted; a click on a tab shows it; Tab and
 * Shift-Tab walk them before the other panes (panes.c), the line shown or
 * not, as htop's Tab. What a screen holds is tabconfig.c's.
 */
#include <string.h>

#include "tui.h"

/* "[NAME]", the columns it takes on screen. */
static int tab_width(const struct ui *ui, unsigned i)
{
	const char *name = ui->cfg.tabs[i].name;

	return ui_cols(ui, name, strlen(name)) + 2;
}

bool tabs_shown(const struct ui *ui)
{
	return ui->cfg.screen_tabs && ui->cfg.ntabs > 1;
}

int tabs_draw(struct ui *ui, int y)
{
	int x = 0;

	if (!tabs_shown(ui))
		return 0;
	move(y, 0);
	clrtoeol();
	for (unsigned i = 0; i < ui->cfg.ntabs && x < COLS; i++) {
		const char *name = ui->cfg.tabs[i].name;
		attr_t a = i == ui->cfg.tab ? ui_attr(ui, COLOR_PANE_ACTIVE, A_REVERSE) | A_BOLD
					    : ui_attr(ui, COLOR_LABEL, A_NORMAL);

		attron(a);
		x += ui_put(ui, y, x, COLS - x, "[", 1);
		x += ui_put(ui, y, x, COLS - x, name, strlen(name));
		x += ui_put(ui, y, x, COLS - x, "]", 1);
		attroff(a);
		x++;
	}
	return 1;
}

unsigned tabs_show(struct ui *ui, unsigned i)
{
	if (i >= ui->cfg.ntabs)
		return UI_HANDLED;
	config_tab_show(&ui->cfg, i);
	/* its columns may need other files read, its order another sort */
	return UI_HANDLED | UI_REBUILD | UI_REFETCH;
}

unsigned tabs_click(struct ui *ui, int x)
{
	int at = 0;

	for (unsigned i = 0; i < ui->cfg.ntabs; i++) {
		int w = tab_width(ui, i);

		if (x >= at && x < at + w)
			return tabs_show(ui, i);
		at += w + 1;
	}
	return UI_HANDLED;
}
