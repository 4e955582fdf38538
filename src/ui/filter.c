// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * filter.c: which rows the Processes pane keeps, and the keys that say so:
 * the name filter (\ and F4) and the search (/ and F3) match the command as
 * shown, in any case (the command line when it is shown, read for every row
 * the filter looks at, as htop does); top's field filters (o, O) are parsed
 * by fieldfilter.c; u offers a menu of the users that have processes (top's
 * u and U ask for a user, as -u and -U take one); i
 * (top's, as -i) hides the processes that used no CPU in the interval.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui.h"

static struct sbuf scratch; /* a row's command as shown, kept across frames */

bool filter_text_match(struct ui *ui, const struct frame_proc *p, const char *text)
{
	if (ui->cfg.cmdline && !p->has_cmd)
		pipeline_cmdlines(ui->pipe, &ui->frame, &p, 1);
	sbuf_reset(&scratch);
	field_format(&scratch, FIELD_COMMAND, p, &ui->frame, &ui->view);
	return text_contains(scratch.p ? scratch.p : "", scratch.len, text, true);
}

static bool keep(struct ui *ui, const struct frame_proc *p)
{
	if (ui->cfg.hide_kthreads && frame_proc_is_kthread(p))
		return false;
	if (ui->filter_text[0] && !filter_text_match(ui, p, ui->filter_text))
		return false;
	for (size_t i = 0; i < ui->nfield_filters; i++)
		if (!field_filter_match(&ui->field_filters[i], p, &ui->frame, &ui->view, &scratch))
			return false;
	return true;
}

size_t filter_rows(struct ui *ui, const struct frame_proc **rows, size_t n)
{
	size_t kept = 0;

	if (!ui->filter_text[0] && !ui->nfield_filters && !ui->cfg.hide_kthreads)
		return n;
	for (size_t i = 0; i < n; i++)
		if (keep(ui, rows[i]))
			rows[kept++] = rows[i];
	return kept;
}

void filter_draw_kept(struct ui *ui, struct sbuf *b)
{
	if (ui->filter.hide_idle)
		sbuf_adds(b, _(" [idle hidden]"));
	for (size_t i = 0; i < ui->nfield_filters; i++) {
		const struct field_filter *ff = &ui->field_filters[i];

		sbuf_printf(b, " [%s%s%c%s]", ff->negate ? "!" : "",
			    field_title(&ui->frame, &ui->view, ff->field), ff->op, ff->text);
	}
}

/* The o or O prompt was answered (empty: clear the field filters). */
static unsigned field_done(struct ui *ui, const char *text, bool any_case)
{
	struct field_filter ff;
	int err;

	if (!text[0]) {
		ui->nfield_filters = 0;
		ui_status(ui, _("Field filters cleared"));
		return UI_HANDLED | UI_REBUILD;
	}
	err = field_filter_parse(text, any_case, &ff);
	if (err == -ENOENT) {
		ui_status(ui, _("No such field: %s"), text);
	} else if (err) {
		ui_status(ui, _("Not a filter: %s (FIELD=TEXT, FIELD<N or FIELD>N, ! negates)"),
			  text);
	} else if (ui->nfield_filters >= UI_FIELD_FILTERS_MAX) {
		ui_status(ui, _("At most %d field filters (o, then Enter, clears them)"),
			  UI_FIELD_FILTERS_MAX);
	} else {
		ui->field_filters[ui->nfield_filters++] = ff;
		return UI_HANDLED | UI_REBUILD;
	}
	return UI_HANDLED;
}

static unsigned field_done_any_case(struct ui *ui, const char *text)
{
	return field_done(ui, text, true);
}

static unsigned field_done_exact_case(struct ui *ui, const char *text)
{
	return field_done(ui, text, false);
}

static const struct ui_prompt field_prompt = {
    .label = N_("Field filter, any case (%CPU>5.0, !COMMAND=foo; empty clears): "),
    .done = field_done_any_case,
};

static const struct ui_prompt field_prompt_case = {
    .label = N_("Field filter, exact case (COMMAND=Foo; empty clears): "),
    .done = field_done_exact_case,
};

/*
 * top's u and U answered: a user name or uid, '!' first for every user but
 * that one, blank for all users, as -u and -U take them. A user nobody
 * knows clears the filter and says so, as top does.
 */
static unsigned user_done(struct ui *ui, const char *text, bool any)
{
	struct row_filter *flt = &ui->filter;
	bool not = text[0] == '!';
	bool was_any = flt->by_uid && flt->uid_any;
	uid_t uid;

	flt->by_uid = false;
	if (text[0] && users_parse(text + not, &uid)) {
		ui_status(ui, _("Invalid user"));
	} else if (text[0]) {
		flt->by_uid = true;
		flt->uid = uid;
		flt->uid_any = any;
		flt->uid_not = not ;
	}
	/* U matches uids only /proc/PID/status has: a frame that reads it, now */
	if (flt->by_uid && flt->uid_any && !was_any)
		return UI_HANDLED | UI_REBUILD | UI_REFETCH;
	return UI_HANDLED | UI_REBUILD;
}

static unsigned user_done_effective(struct ui *ui, const char *text)
{
	return user_done(ui, text, false);
}

static unsigned user_done_any(struct ui *ui, const char *text)
{
	return user_done(ui, text, true);
}

static const struct ui_prompt user_prompt = {
    .label = N_("Which user (blank for all): "),
    .done = user_done_effective,
};

static const struct ui_prompt user_prompt_any = {
    .label = N_("Which user (blank for all): "),
    .done = user_done_any,
};

unsigned filter_key(struct ui *ui, enum ui_action act)
{
	switch (act) {
	case ACT_USER:
		filter_user_menu(ui);
		return UI_HANDLED;
	case ACT_USER_PROMPT:
		ui_prompt(ui, &user_prompt, "");
		return UI_HANDLED;
	case ACT_USER_ANY_PROMPT:
		ui_prompt(ui, &user_prompt_any, "");
		return UI_HANDLED;
	case ACT_FIELD_FILTER:
		ui_prompt(ui, &field_prompt, "");
		return UI_HANDLED;
	case ACT_FIELD_FILTER_CASE:
		ui_prompt(ui, &field_prompt_case, "");
		return UI_HANDLED;
	case ACT_IDLE:
		/* top's i, as -i: rows_select() leaves them out */
		ui->filter.hide_idle = !ui->filter.hide_idle;
		ui_status(ui, ui->filter.hide_idle ? _("Idle processes hidden")
						   : _("Idle processes shown"));
		return UI_HANDLED | UI_REBUILD;
	case ACT_HIDE_KTHREADS:
		ui->cfg.hide_kthreads = !ui->cfg.hide_kthreads;
		ui_status(ui, ui->cfg.hide_kthreads ? _("Kernel threads hidden")
						    : _("Kernel threads shown"));
		return UI_HANDLED | UI_REBUILD;
	case ACT_SCROLL_LEFT:
		ui->cmd_scroll = ui->cmd_scroll > 8 ? ui->cmd_scroll - 8 : 0;
		return UI_HANDLED;
	case ACT_SCROLL_RIGHT:
		if (ui->cmd_scroll < 4096)
			ui->cmd_scroll += 8;
		return UI_HANDLED;
	case ACT_TREE_ALL:
		/* htop's *: the screen's "collapsed by default" flipped, and done */
		if (!ui->cfg.tree)
			return UI_HANDLED;
		ui->cfg.collapsed = !ui->cfg.collapsed;
		procs_tree_all(ui, ui->cfg.collapsed);
		return UI_HANDLED | UI_REBUILD;
	default:
		return UI_IGNORED;
	}
}

/* ---- the users menu ---- */

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct ui_user *)a)->name, ((const struct ui_user *)b)->name);
}

static unsigned user_menu_key(struct ui *ui, int key);
static void user_menu_draw(struct ui *ui);

static const struct ui_screen user_menu = {.key = user_menu_key, .draw = user_menu_draw};

void filter_user_menu(struct ui *ui)
{
	ui->nusers = 0;
	for (size_t i = 0; i < ui->frame.nprocs && ui->nusers < UI_USERS_MAX; i++) {
		const struct frame_proc *p = &ui->frame.procs[i];
		bool seen = false;

		for (size_t u = 0; u < ui->nusers && !seen; u++)
			seen = ui->users[u].uid == p->uid;
		if (seen)
			continue;
		ui->users[ui->nusers].uid = p->uid;
		if (p->user)
			snprintf(ui->users[ui->nusers].name, sizeof(ui->users[0].name), "%s",
				 p->user);
		else
			snprintf(ui->users[ui->nusers].name, sizeof(ui->users[0].name), "%u",
				 (unsigned)p->uid);
		ui->nusers++;
	}
	if (ui->nusers > 1)
		qsort(ui->users, ui->nusers, sizeof(ui->users[0]), by_name);
	screen_push(ui, &user_menu);
	ui->menu_sel = 0;
	for (size_t u = 0; u < ui->nusers; u++)
		if (ui->filter.by_uid && ui->users[u].uid == ui->filter.uid)
			ui->menu_sel = (int)u + 1;
}

static unsigned user_menu_key(struct ui *ui, int key)
{
	if (ui_menu_move(ui, key, (int)ui->nusers + 1))
		return UI_HANDLED;
	switch (key) {
	case '\r':
	case '\n':
	case KEY_ENTER:
		screen_pop(ui);
		ui->filter.by_uid = ui->menu_sel > 0;
		ui->filter.uid_any = ui->filter.uid_not = false; /* the effective user, as htop */
		if (ui->filter.by_uid)
			ui->filter.uid = ui->users[ui->menu_sel - 1].uid;
		return UI_HANDLED | UI_REBUILD;
	case KEY_ESC:
	case 'q':
		screen_pop(ui);
		break;
	}
	return UI_HANDLED;
}

static void user_menu_draw(struct ui *ui)
{
	const char *items[UI_USERS_MAX + 1];

	items[0] = _("All users");
	for (size_t u = 0; u < ui->nusers; u++)
		items[u + 1] = ui->users[u].name;
	ui_draw_menu(ui, _("Show the processes of:"), items, (int)ui->nusers + 1);
}
