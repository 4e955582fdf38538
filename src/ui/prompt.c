// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * prompt.c: the status line at the bottom of the screen: a one-line prompt
 * with shell-like editing (Backspace, Ctrl-U, Ctrl-W) and what each prompt
 * does when answered, a message for a few seconds, or the function-key bar.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptop/perf.h"
#include "tui.h"

static const char *const prompt_labels[] = {
    [PROMPT_SEARCH] = N_("Search: "),
    [PROMPT_FILTER] = N_("Filter: "),
    [PROMPT_FIELD_FILTER] = N_("Field filter, any case (%CPU>5.0, !COMMAND=foo; empty clears): "),
    [PROMPT_FIELD_FILTER_CASE] = N_("Field filter, exact case (COMMAND=Foo; empty clears): "),
    [PROMPT_RENICE] = "", /* names its target: ui->prompt_label */
    [PROMPT_DELAY] = N_("Delay in seconds: "),
    [PROMPT_WATCH] = N_("Watch NAME, LIB:NAME, 0xADDR or FILE+0xADDR [:LEN[:TYPE]] (1/2/4/8; "
			"r w rw x): "),
    [PROMPT_PANE] = "",
    [PROMPT_GOTO] = N_("Go to (HH:MM[:SS] or YYYY-MM-DD HH:MM[:SS]): "),
};

void ui_status(struct ui *ui, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ui->status, sizeof(ui->status), fmt, ap);
	va_end(ap);
	ui->status_until = clock_mono() + 4.0;
}

void ui_prompt(struct ui *ui, enum prompt_kind kind, const char *initial)
{
	ui->mode = MODE_PROMPT;
	ui->prompt = kind;
	snprintf(ui->input, sizeof(ui->input), "%s", initial);
	ui->input_len = strlen(ui->input);
	ui->input_fresh = ui->input_len > 0;
	ui->prompt_label[0] = '\0';
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
	if (ui->mode == MODE_PROMPT) {
		attron(ui_attr(ui, COLOR_STATUS, A_BOLD));
		mvaddstr(y, 0,
			 ui->prompt == PROMPT_PANE ? ui->pane_prompt
			 : ui->prompt_label[0]	   ? ui->prompt_label
						   : _(prompt_labels[ui->prompt]));
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

static unsigned renice_done(struct ui *ui)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(ui->input, &end, 10);
	if (ui->input[0] && !*end && !errno && v >= -20 && v <= 19)
		return action_renice_target(ui, false, (int)v);
	if (!ui->input[0])
		ui_status(ui, _("Cancelled"));
	else
		ui_status(ui, _("Not a nice value: %s"), ui->input);
	action_release(ui);
	return UI_HANDLED;
}

static unsigned watch_done(struct ui *ui)
{
	struct perf_bp_spec spec;
	char arg[UI_TEXT_MAX + 16], why[512];
	int err;

	if (!ui->input[0] || !pipeline_observes(ui->pipe))
		return UI_HANDLED;
	snprintf(arg, sizeof(arg), "%d:%s", ui->watch_pid, ui->input);
	if (perf_bp_parse(arg, &spec)) {
		ui_status(ui,
			  _("Not a watch: %s (NAME, LIB:NAME, ADDR or FILE+ADDR, then :LEN:TYPE)"),
			  ui->input);
		return UI_HANDLED;
	}
	err = pipeline_watch(ui->pipe, &spec);
	if (err) {
		pipeline_watch_error(&spec, err, why, sizeof(why));
		ui_status(ui, _("Cannot watch %d: %s"), ui->watch_pid, why);
	} else if (spec.object[0]) {
		ui_status(ui, _("Watching %s on %d: 0x%llx in %s, %d bytes"), ui->input,
			  ui->watch_pid, (unsigned long long)spec.addr, spec.object, spec.len);
	} else {
		ui_status(ui, _("Watching %s on %d"), ui->input, ui->watch_pid);
	}
	return UI_HANDLED | UI_REFETCH;
}

static unsigned delay_done(struct ui *ui)
{
	char *end;
	double d;

	if (!ui->input[0])
		return UI_HANDLED;
	errno = 0;
	d = strtod_user(ui->input, &end);
	if (*end || errno || !isfinite(d) || d < 0 || d > 86400) {
		ui_status(ui, _("Not a delay: %s"), ui->input);
		return UI_HANDLED;
	}
	ui->cfg.delay_s = d;
	ui->next_frame = clock_mono() + d;
	ui_status(ui, _("Delay: %g s"), d);
	return UI_HANDLED;
}

static unsigned prompt_done(struct ui *ui)
{
	ui->mode = MODE_NORMAL;
	switch (ui->prompt) {
	case PROMPT_SEARCH:
		snprintf(ui->search_text, sizeof(ui->search_text), "%s", ui->input);
		procs_search_next(ui, true);
		break;
	case PROMPT_FILTER:
		snprintf(ui->filter_text, sizeof(ui->filter_text), "%s", ui->input);
		return UI_HANDLED | UI_REBUILD;
	case PROMPT_FIELD_FILTER:
	case PROMPT_FIELD_FILTER_CASE:
		return filter_field_done(ui);
	case PROMPT_RENICE:
		return renice_done(ui);
	case PROMPT_PANE:
		if (ui_pane(ui)->prompt_done)
			ui_pane(ui)->prompt_done(ui, ui->input);
		break;
	case PROMPT_WATCH:
		return watch_done(ui);
	case PROMPT_DELAY:
		return delay_done(ui);
	case PROMPT_GOTO:
		return replay_goto_done(ui, ui->input);
	}
	return UI_HANDLED;
}

unsigned ui_prompt_key(struct ui *ui, int key)
{
	if (key == KEY_ESC) { /* Esc: cancel; for the filter it also clears it */
		ui->mode = MODE_NORMAL;
		action_release(ui);
		if (ui->prompt != PROMPT_FILTER)
			return UI_HANDLED;
		ui->filter_text[0] = '\0';
		return UI_HANDLED | UI_REBUILD;
	}
	if (key == '\r' || key == '\n' || key == KEY_ENTER)
		return prompt_done(ui);
	if (key == KEY_F(3) && ui->prompt == PROMPT_SEARCH) { /* in htop's bar: the next match */
		snprintf(ui->search_text, sizeof(ui->search_text), "%s", ui->input);
		ui->input_fresh = false;
		procs_search_next(ui, false);
		return UI_HANDLED;
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
		return UI_HANDLED;
	}
	/* The filter narrows and the search jumps while typing, as in htop. */
	if (ui->prompt == PROMPT_FILTER) {
		snprintf(ui->filter_text, sizeof(ui->filter_text), "%s", ui->input);
		return UI_HANDLED | UI_REBUILD;
	}
	if (ui->prompt == PROMPT_SEARCH) {
		snprintf(ui->search_text, sizeof(ui->search_text), "%s", ui->input);
		procs_search_next(ui, true);
	}
	return UI_HANDLED;
}
