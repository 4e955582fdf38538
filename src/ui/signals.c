// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * signals.c: the signal menu (htop's SignalsPanel): the signals a user sends
 * most, by name and this machine's number, TERM chosen; Enter sends the chosen
 * one to the process fixed when the menu opened (action.c).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "tui.h"

static const struct {
	const char *name;
	int sig;
} signals[] = {
    {"HUP", SIGHUP},   {"INT", SIGINT},	  {"QUIT", SIGQUIT},   {"KILL", SIGKILL},
    {"USR1", SIGUSR1}, {"USR2", SIGUSR2}, {"TERM", SIGTERM},   {"CONT", SIGCONT},
    {"STOP", SIGSTOP}, {"TSTP", SIGTSTP}, {"WINCH", SIGWINCH},
};
#define NSIGNALS ((int)(sizeof(signals) / sizeof(signals[0])))

/* The signal menu's entry for sig (SIGTERM when it has none). */
static int signal_index(int sig)
{
	for (int i = 0; i < NSIGNALS; i++)
		if (signals[i].sig == sig)
			return i;
	return signal_index(SIGTERM);
}

void ui_signal_menu(struct ui *ui, const struct frame_proc *p)
{
	if (!action_choose(ui, p))
		return;
	ui->mode = MODE_SIGNAL_MENU;
	ui->menu_sel = signal_index(SIGTERM);
}

unsigned ui_signal_menu_key(struct ui *ui, int key)
{
	if (ui_menu_move(ui, key, NSIGNALS))
		return UI_HANDLED;
	switch (key) {
	case '\r':
	case '\n':
	case KEY_ENTER:
		ui->mode = MODE_NORMAL;
		action_signal_targets(ui, signals[ui->menu_sel].sig, signals[ui->menu_sel].name);
		return UI_HANDLED | UI_REFETCH;
	case KEY_ESC:
	case 'q':
		ui->mode = MODE_NORMAL;
		action_release(ui);
		ui_status(ui, _("Cancelled"));
		break;
	}
	return UI_HANDLED;
}

void ui_draw_signal_menu(struct ui *ui)
{
	static char labels[NSIGNALS][16];
	const char *items[NSIGNALS];
	char title[UI_TEXT_MAX], who[UI_TEXT_MAX / 2];

	for (int i = 0; i < NSIGNALS; i++) {
		snprintf(labels[i], sizeof(labels[i]), "%d %s", signals[i].sig, signals[i].name);
		items[i] = labels[i];
	}
	action_targets_label(ui, who, sizeof(who));
	snprintf(title, sizeof(title), _("Send signal to %s:"), who);
	ui_draw_menu(ui, title, items, NSIGNALS);
}
