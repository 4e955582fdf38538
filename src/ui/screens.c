// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * screens.c: the stack of modal screens (htop's ScreenManager). A prompt, a
 * menu, help, the column chooser, an inspect panel or the event picker is
 * pushed when it opens and popped when it closes; the one on top takes every
 * key while it is open, so nothing typed into a screen reaches the process
 * table behind it, and a key typed ahead of a redraw goes where the screen
 * that will show says. Full screens cover the panes; the others draw over
 * them.
 */
#include "tui.h"

void screen_push(struct ui *ui, const struct ui_screen *s)
{
	if (ui->nscreens == UI_SCREENS_MAX)
		screen_pop(ui);
	ui->screens[ui->nscreens++] = s;
}

void screen_pop(struct ui *ui)
{
	const struct ui_screen *s;

	if (!ui->nscreens)
		return;
	s = ui->screens[--ui->nscreens];
	if (s->closed)
		s->closed(ui);
}

const struct ui_screen *screen_top(const struct ui *ui)
{
	return ui->nscreens ? ui->screens[ui->nscreens - 1] : NULL;
}

void screen_close_all(struct ui *ui)
{
	while (ui->nscreens)
		screen_pop(ui);
}

unsigned screen_key(struct ui *ui, int key)
{
	const struct ui_screen *s = screen_top(ui);

	return s ? s->key(ui, key) | UI_HANDLED : UI_IGNORED;
}

/* The topmost full screen's place in the stack, or -1. */
static long full_at(const struct ui *ui)
{
	for (size_t i = ui->nscreens; i-- > 0;)
		if (ui->screens[i]->full)
			return (long)i;
	return -1;
}

bool screen_covers(const struct ui *ui)
{
	return full_at(ui) >= 0;
}

void screen_draw(struct ui *ui)
{
	long from = full_at(ui);

	for (size_t i = from < 0 ? 0 : (size_t)from; i < ui->nscreens; i++)
		if (ui->screens[i]->draw)
			ui->screens[i]->draw(ui);
}
