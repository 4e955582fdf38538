// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * prompt.c: the status line at the bottom of the screen: a one-line prompt
 * with shell-like editing (Backspace, Ctrl-U, Ctrl-W), a screen on the stack
 * while it is open, which hands what was typed to its opener's callbacks
 * (struct ui_prompt); a message for a few seconds; or the function-key bar.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptop/perf.h"
#include "tui.h"

void ui_status(struct ui *ui, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ui->status, sizeof(ui->status), fmt, ap);
	va_end(ap);
	ui->status_until = clock_mono() + 4.0;
}

static unsigned prompt_key(struct ui *ui, int key);

static const struct ui_screen prompt_screen = {.key = prompt_key};

void ui_prompt(struct ui *ui, const struct ui_prompt *p, const char *initial)
{
	if (ui_prompt_open(ui))
		screen_pop(ui); /* one prompt at a time: a new one replaces it */
	ui->prompt = p;
	snprintf(ui->input, sizeof(ui->input), "%s", initial);
	ui->input_len = strlen(ui->input);
	ui->input_fresh = ui->input_len > 0;
	ui->prompt_label[0] = '\0';
	screen_push(ui, &prompt_screen);
}

bool ui_prompt_open(const struct ui *ui)
{
	return screen_top(ui) == &prompt_screen;
}

/* What narrows or marks the rows now, after the function keys: it stays in view. */
static void draw_kept(struct ui *ui, int y, int x)
{
	static struct sbuf kept; /* kept across frames */
	char buf[UI_TEXT_MAX * 2];
	int n = 0;

	sbuf_reset(&kept);

	if (ui->ntags)
		n += snprintf(buf + n, sizeof(buf) - (size_t)n, _(" [%zu tagged]"), ui->ntags);
	if (ui->filter_text[0] && n < (int)sizeof(buf))
		n +=
		    snprintf(buf + n, sizeof(buf) - (size_t)n, _(" [filter: %s]"), ui->filter_text);
	if (ui->paused && n < (int)sizeof(buf))
		n += snprintf(buf + n, sizeof(buf) - (size_t)n, "%s", _(" [paused]"));
	if (n > 0 && n < (int)sizeof(buf))
		sbuf_add(&kept, buf, (size_t)n);
	filter_draw_kept(ui, &kept);
	if (!kept.len || x >= COLS)
		return;
	attron(A_BOLD);
	ui_put(ui, y, x, COLS - x, kept.p, kept.len);
	attroff(A_BOLD);
}

void ui_draw_status(struct ui *ui)
{
	int y = LINES - 1;

	move(y, 0);
	clrtoeol();
	if (ui_prompt_open(ui)) {
		attron(ui_attr(ui, COLOR_STATUS, A_BOLD));
		mvaddstr(y, 0, ui->prompt->label ? _(ui->prompt->label) : ui->prompt_label);
		attroff(ui_attr(ui, COLOR_STATUS, A_BOLD));
		/* a value typing replaces looks selected, as in a dialog box */
		if (ui->input_fresh)
			attron(A_REVERSE);
		ui_put(ui, y, getcurx(stdscr), COLS - getcurx(stdscr) - 1, ui->input,
		       ui->input_len);
		if (ui->input_fresh)
			attroff(A_REVERSE);
		addch('_');
		return;
	}
	if (ui->status[0] && clock_mono() < ui->status_until) {
		attron(ui_attr(ui, COLOR_STATUS, A_BOLD));
		ui_put(ui, y, 0, COLS, ui->status, strlen(ui->status));
		attroff(ui_attr(ui, COLOR_STATUS, A_BOLD));
		return;
	}
	if (replay_on(ui)) {
		replay_draw_hints(ui, y);
		return;
	}
	{
		static const char *const hints[] = {
		    N_("F1Help"),  N_("F3Search"), N_("F4Filter"), N_("F5Tree"),  N_("F6SortBy"),
		    N_("F7Nice-"), N_("F8Nice+"),  N_("F9Kill"),   N_("F10Quit"),
		};
		int x = 0;

		for (size_t i = 0; i < sizeof(hints) / sizeof(hints[0]) && x < COLS; i++) {
			const char *h = _(hints[i]);
			size_t klen = h[2] >= '0' && h[2] <= '9' ? 3 : 2;

			attron(A_BOLD);
			mvaddnstr(y, x, h, (int)klen);
			attroff(A_BOLD);
			attron(ui_attr(ui, COLOR_SELECTED, A_REVERSE));
			ui_put(ui, y, x + (int)klen, COLS - x - (int)klen, h + klen,
			       strlen(h + klen));
			attroff(ui_attr(ui, COLOR_SELECTED, A_REVERSE));
			x = getcurx(stdscr) + 1;
			if (x <= 0)
				break;
		}
		draw_kept(ui, y, x);
	}
}

void ui_no_such_key(struct ui *ui, int key)
{
	const char *name = key > ' ' && key < 0x7f ? NULL : keyname(key);

	if (name)
		ui_status(ui, _("%s: no such key; h lists the keys"), name);
	else
		ui_status(ui, _("%c: no such key; h lists the keys"), key);
}

static unsigned prompt_key(struct ui *ui, int key)
{
	const struct ui_prompt *p = ui->prompt;

	/* closed before its callback runs, which may open another screen */
	if (key == KEY_ESC) {
		screen_pop(ui);
		return p->cancel ? p->cancel(ui) : UI_HANDLED;
	}
	if (key == '\r' || key == '\n' || key == KEY_ENTER) {
		screen_pop(ui);
		return p->done(ui, ui->input);
	}
	if (key >= 0x20 && key < 0x100 && key != KEY_DEL && ui->input_fresh) {
		ui->input_len = 0; /* the first character typed replaces the value shown */
		ui->input[0] = '\0';
	}
	ui->input_fresh = false; /* any other editing key edits the value shown */
	if (key == KEY_BACKSPACE || key == KEY_DEL || key == KEY_CTRL('h')) {
		/* drop a whole UTF-8 sequence */
		while (ui->input_len > 0 &&
		       ((unsigned char)ui->input[--ui->input_len] & 0xc0) == 0x80)
			;
		ui->input[ui->input_len] = '\0';
	} else if (key == KEY_CTRL('u')) { /* Ctrl-U: the whole line, as a shell's */
		ui->input_len = 0;
		ui->input[0] = '\0';
	} else if (key ==
		   KEY_CTRL('w')) { /* Ctrl-W: the word before the cursor and the blanks after it */
		while (ui->input_len > 0 && ui->input[ui->input_len - 1] == ' ')
			ui->input_len--;
		while (ui->input_len > 0 && ui->input[ui->input_len - 1] != ' ')
			ui->input_len--;
		ui->input[ui->input_len] = '\0';
	} else if (key >= 0x20 && key < 0x100 && key != KEY_DEL &&
		   ui->input_len + 1 < sizeof(ui->input)) {
		ui->input[ui->input_len++] = (char)key;
		ui->input[ui->input_len] = '\0';
	} else {
		/* no key of the editor's: the prompt's own, else nothing (never the table's) */
		return p->key ? p->key(ui, key) : UI_HANDLED;
	}
	return p->changed ? p->changed(ui, ui->input) : UI_HANDLED;
}
