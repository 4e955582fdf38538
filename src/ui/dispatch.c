// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dispatch.c: where a key goes. A key is the screen's that has it now (a
 * prompt, a menu, the column chooser, a panel, help: by ui->mode), else the
 * travel keys' of a replay, else a pane's hot key, else the current pane's,
 * else one of the keys every pane shares (quit, help, pause, the delay, W,
 * the menus, colour, a watch), else the panels' and the display's; a key
 * nobody takes gets a hint. Every handler returns what the loop must do
 * (enum ui_reaction); none rebuilds or refetches itself.
 */
#include <stdio.h>
#include <stdlib.h>

#include "tui.h"

static void write_config(struct ui *ui)
{
	char *path = config_path();
	struct sbuf why = {0};

	if (!path) {
		ui_status(ui, _("Cannot write settings: neither XDG_CONFIG_HOME nor HOME is set"));
		return;
	}
	if (config_write_why(path, &ui->cfg, &why))
		ui_status(ui, "%s", sbuf_cstr(&why));
	else
		ui_status(ui, _("Settings written to %s"), path);
	sbuf_free(&why);
	free(path);
}

/* A key for the screen that has it now, if not the normal one; UI_IGNORED if none. */
static unsigned mode_key(struct ui *ui, int key)
{
	switch (ui->mode) {
	case MODE_PROMPT:
		return ui_prompt_key(ui, key);
	case MODE_COLUMNS:
		return ui_columns_key(ui, key);
	case MODE_SIGNAL_MENU:
		return ui_signal_menu_key(ui, key);
	case MODE_USER_MENU:
		return filter_user_menu_key(ui, key);
	case MODE_SORT_MENU:
		return ui_sort_menu_key(ui, key);
	case MODE_INSPECT:
		return inspect_key(ui, key);
	case MODE_HELP:
		if (key == KEY_DOWN)
			ui->help_scroll++;
		else if (key == KEY_UP && ui->help_scroll > 0)
			ui->help_scroll--;
		else
			ui->mode = MODE_NORMAL;
		return UI_HANDLED;
	case MODE_NORMAL:
		break;
	}
	return UI_IGNORED;
}

/* The keys every pane shares, when the pane did not take the action. */
static unsigned shared_key(struct ui *ui, enum ui_action act)
{
	switch (act) {
	case ACT_QUIT:
		ui->quit = true;
		break;
	case ACT_HELP:
		ui->mode = MODE_HELP;
		ui->help_scroll = 0;
		break;
	case ACT_PAUSE:
		ui->paused = !ui->paused;
		ui_status(ui, ui->paused ? _("Paused (Z resumes)") : _("Resumed"));
		return ui->paused ? UI_HANDLED : UI_HANDLED | UI_REFETCH;
	case ACT_REFRESH:
		return UI_HANDLED | UI_REFETCH;
	case ACT_DELAY: {
		char now[32];

		if (ui->opts->secure) {
			ui_status(ui, _("Secure mode (-s): the delay stays"));
			break;
		}
		snprintf(now, sizeof(now), "%g", ui->cfg.delay_s);
		ui_prompt(ui, PROMPT_DELAY, now);
		break;
	}
	case ACT_WRITE_CONFIG:
		write_config(ui);
		break;
	case ACT_COLUMNS:
		ui->mode = MODE_COLUMNS;
		ui->menu_sel = 0;
		break;
	case ACT_SORT_MENU:
		ui->mode = MODE_SORT_MENU;
		ui->menu_sel = 0;
		for (size_t c = 0; c < ui->cfg.ncolumns; c++)
			if (ui->cfg.columns[c] == ui->cfg.order.field)
				ui->menu_sel = (int)c;
		break;
	case ACT_PANE_NEXT:
		panes_cycle(ui, 1);
		break;
	case ACT_PANE_PREV:
		panes_cycle(ui, -1);
		break;
	case ACT_REDRAW:
		clearok(curscr, TRUE);
		break;
	case ACT_COLOR:
		ui->cfg.color = !ui->color;
		crt_set_color(ui, ui->cfg.color);
		if (ui->cfg.color && !ui->color)
			ui_status(ui, _("This terminal has no colours"));
		break;
	case ACT_WATCH: {
		const struct frame_proc *p = procs_selected(ui);

		if (!p) {
			ui_status(ui, _("Select a process to watch first"));
			break;
		}
		ui->watch_pid = p->tgid ? p->tgid : p->pid;
		ui_prompt(ui, PROMPT_WATCH, "");
		break;
	}
	default:
		return UI_IGNORED;
	}
	return UI_HANDLED;
}

unsigned dispatch_key(struct ui *ui, int key)
{
	enum ui_action act;
	unsigned r;

	if (key == KEY_RESIZE)
		return UI_HANDLED; /* redrawn at the new size right after */
	if (key == KEY_MOUSE)
		return panes_mouse(ui);
	r = mode_key(ui, key);
	if (r)
		return r;
	r = replay_key(ui, keymap_lookup(key, ui->cfg.keys), key);
	if (r)
		return r;
	for (int i = 0; ui_panes[i]; i++) {
		if (ui_panes[i]->hotkey != key)
			continue;
		if (ui_panes[i] == &pane_processes && ui_pane(ui) == &pane_processes) {
			ui->cfg.per_cpu = !ui->cfg.per_cpu; /* top's `1` where it means something */
			return UI_HANDLED | UI_REFETCH;
		}
		panes_switch(ui, i);
		return UI_HANDLED;
	}
	act = keymap_lookup(key, ui->cfg.keys);
	r = ui_pane(ui)->key(ui, act, key);
	if (!r)
		r = shared_key(ui, act);
	if (!r)
		r = inspect_action(ui, act);
	if (!r)
		r = display_key(ui, act);
	if (!r && key != KEY_ESC)
		ui_no_such_key(ui, key);
	return r ? r : UI_HANDLED;
}
