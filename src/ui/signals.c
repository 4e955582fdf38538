// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * signals.c: the signal menu (htop's SignalsPanel): every signal this
 * platform has, 1 to SIGRTMAX, numbered as here and named by the C library
 * (sigabbrev_np; SIGRTMIN+n for the real-time ones), TERM chosen; digits
 * typed pick a signal by number; Enter sends the chosen one to the processes
 * fixed when the menu opened (action.c). top's k names its signal by number
 * or name in a prompt: signal_parse() reads it by the same list.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "tui.h"

/* Enough for 1..SIGRTMAX on every Linux platform (64, or 128 on MIPS). */
#define SIGNALS_MAX 128

static int nsignals;
static int numbers[SIGNALS_MAX];
static char names[SIGNALS_MAX][24];

/* The signal's name without SIG, as the C library has it. */
static void signal_name(int sig, char *buf, size_t n)
{
	const char *abbrev = sigabbrev_np(sig);

	if (abbrev)
		snprintf(buf, n, "%s", abbrev);
	else if (sig == SIGRTMIN)
		snprintf(buf, n, "RTMIN");
	else if (sig == SIGRTMAX)
		snprintf(buf, n, "RTMAX");
	else if (sig > SIGRTMIN && sig < SIGRTMAX)
		snprintf(buf, n, "RTMIN+%d", sig - SIGRTMIN);
	else
		buf[0] = '\0';
}

/* The signals, once: those with a name (32 and 33 are glibc's own, unnamed). */
static void list_signals(void)
{
	if (nsignals)
		return;
	for (int sig = 1; sig <= SIGRTMAX && nsignals < SIGNALS_MAX; sig++) {
		char name[24];

		signal_name(sig, name, sizeof(name));
		if (!name[0])
			continue;
		numbers[nsignals] = sig;
		snprintf(names[nsignals], sizeof(names[0]), "%s", name);
		nsignals++;
	}
}

/* The signal menu's entry for sig, or -1. */
static int signal_index(int sig)
{
	for (int i = 0; i < nsignals; i++)
		if (numbers[i] == sig)
			return i;
	return -1;
}

int signal_parse(const char *s, char *name, size_t n)
{
	int i = -1;

	list_signals();
	if (*s >= '0' && *s <= '9') {
		char *end;
		long v = strtol(s, &end, 10);

		if (!*end && v > 0 && v <= SIGRTMAX)
			i = signal_index((int)v);
	} else {
		if (!strncasecmp(s, "SIG", 3))
			s += 3;
		for (int k = 0; k < nsignals && i < 0; k++)
			if (!strcasecmp(s, names[k]))
				i = k;
	}
	if (i < 0)
		return -1;
	snprintf(name, n, "%s", names[i]);
	return numbers[i];
}

static unsigned signal_menu_key(struct ui *ui, int key);
static void signal_menu_draw(struct ui *ui);

/* Closed (Esc, Enter, or ptop quits): the targets let go, sent to or not. */
static const struct ui_screen signal_menu = {
    .key = signal_menu_key, .draw = signal_menu_draw, .closed = action_release};

void ui_signal_menu(struct ui *ui, const struct frame_proc *p)
{
	list_signals();
	if (!action_choose(ui, p))
		return;
	screen_push(ui, &signal_menu);
	ui->menu_sel = signal_index(SIGTERM);
	ui->menu_number = 0;
}

/* A digit typed: the number so far picks the signal, as in htop. */
static void pick_by_number(struct ui *ui, int digit)
{
	int n = ui->menu_number * 10 + digit;

	if (signal_index(n) < 0)
		n = digit; /* a new number starts */
	ui->menu_number = n;
	if (signal_index(n) >= 0)
		ui->menu_sel = signal_index(n);
}

static unsigned signal_menu_key(struct ui *ui, int key)
{
	if (ui_menu_move(ui, key, nsignals)) {
		ui->menu_number = 0;
		return UI_HANDLED;
	}
	if (key >= '0' && key <= '9') {
		pick_by_number(ui, key - '0');
		return UI_HANDLED;
	}
	switch (key) {
	case '\r':
	case '\n':
	case KEY_ENTER:
		action_signal_targets(ui, numbers[ui->menu_sel], names[ui->menu_sel]);
		screen_pop(ui);
		return UI_HANDLED | UI_REFETCH;
	case KEY_ESC:
	case 'q':
		screen_pop(ui);
		ui_status(ui, _("Cancelled"));
		break;
	}
	return UI_HANDLED;
}

static void signal_menu_draw(struct ui *ui)
{
	static char labels[SIGNALS_MAX][40];
	const char *items[SIGNALS_MAX];
	char title[UI_TEXT_MAX], who[UI_TEXT_MAX / 2];

	for (int i = 0; i < nsignals; i++) {
		snprintf(labels[i], sizeof(labels[i]), "%d %s", numbers[i], names[i]);
		items[i] = labels[i];
	}
	action_targets_label(ui, who, sizeof(who));
	snprintf(title, sizeof(title), _("Send signal to %s:"), who);
	ui_draw_menu(ui, title, items, nsignals);
}
