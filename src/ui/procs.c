// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * procs.c: the Processes pane: the frame's processes filtered, sorted (or as
 * a tree), a selected row, and the keys that act on it: sort, search, filter,
 * follow, collapse and expand, and a click on a heading or a row. table.c
 * draws the rows.
 */
#include <stdlib.h>

#include "tui.h"

static size_t row_count(const struct ui *ui)
{
	return ui->nrows;
}

const struct frame_proc *procs_row_at(const struct ui *ui, size_t i)
{
	return ui->cfg.tree ? ui->tree[i].p : ui->rows[i];
}

const struct frame_proc *procs_selected(const struct ui *ui)
{
	return ui->sel < row_count(ui) ? procs_row_at(ui, ui->sel) : NULL;
}

void procs_select_row(struct ui *ui, size_t i)
{
	const struct frame_proc *p;

	ui->sel = i;
	p = procs_selected(ui);
	ui->sel_pid = p ? p->pid : 0;
	ui->sel_start = p ? p->start_ticks : 0;
	if (p)
		snprintf(ui->sel_name, sizeof(ui->sel_name), "%.*s", (int)p->comm_len, p->comm);
}

/* The row of the selected process (PID and start time), or -1. */
static long selected_row(const struct ui *ui)
{
	for (size_t i = 0; i < row_count(ui); i++) {
		const struct frame_proc *p = procs_row_at(ui, i);

		if (p->pid == ui->sel_pid && p->start_ticks == ui->sel_start)
			return (long)i;
	}
	return -1;
}

/* Whether the selected process is still in the frame, shown or not. */
static bool selected_in_frame(const struct ui *ui)
{
	for (size_t i = 0; i < ui->frame.nprocs; i++) {
		const struct frame_proc *p = &ui->frame.procs[i];

		if (p->pid == ui->sel_pid && p->start_ticks == ui->sel_start)
			return true;
	}
	return false;
}

/*
 * The rows were made again: the selection stays on its process wherever it
 * sorts now (htop keeps it only after F or a search; here always, so that
 * a key acts on the process the user chose, never on a row). When the
 * process ended, or no longer shows, the row now in its place is selected,
 * and an ended one is reported.
 */
static void keep_selection(struct ui *ui, size_t before)
{
	long at = ui->sel_pid ? selected_row(ui) : -1;
	int pid = ui->sel_pid;
	char name[sizeof(ui->sel_name)], note[sizeof(ui->status)], shown[sizeof(ui->status)];
	bool ended;

	if (at >= 0) {
		ui->sel = (size_t)at;
		return;
	}
	ended = pid && !selected_in_frame(ui);
	snprintf(name, sizeof(name), "%s", ui->sel_name);
	if (before >= row_count(ui))
		before = row_count(ui) ? row_count(ui) - 1 : 0;
	procs_select_row(ui, before);
	if (!ended)
		return;
	if (procs_selected(ui))
		snprintf(note, sizeof(note), _("Process %d (%s) ended: selected %d (%s)"), pid,
			 name, ui->sel_pid, ui->sel_name);
	else
		snprintf(note, sizeof(note), _("Process %d (%s) ended"), pid, name);
	/* after what the status line says now: "Sent SIGTERM to ..." stays in view */
	if (ui->status[0] && clock_mono() < ui->status_until) {
		snprintf(shown, sizeof(shown), "%s", ui->status);
		ui_status(ui, "%s; %s", shown, note);
	} else {
		ui_status(ui, "%s", note);
	}
}

void procs_rebuild(struct ui *ui)
{
	const struct frame *f = &ui->frame;
	/* the times sort as they show: with the dead children's when cumulative (S, -S) */
	struct row_order ord = ui->cfg.order;
	size_t n;

	ord.cumulative = ui->view.cumulative;
	if (ui->rows_cap < f->nprocs + f->nexited) {
		ui->rows_cap = f->cap + f->nexited;
		ui->rows = xreallocarray(ui->rows, ui->rows_cap, sizeof(*ui->rows));
	}
	ui->filter.substr = NULL; /* filter.c's: in any case, on command lines too */
	n = rows_select(f, &ui->filter, NULL, ui->rows);
	/* the processes that ended in the interval sort with the rest, marked (COMMAND) */
	n += rows_select_exited(f, &ui->filter, NULL, ui->rows + n);
	if (!ui->cfg.tree)
		rows_sort(ui->rows, n, &ord);
	ui->nrows = filter_rows(ui, ui->rows, n);
	if (ui->cfg.tree) {
		if (ui->tree_cap < ui->rows_cap) {
			ui->tree_cap = ui->rows_cap;
			ui->tree = xreallocarray(ui->tree, ui->tree_cap, sizeof(*ui->tree));
		}
		ui->nrows =
		    tree_build(ui->rows, ui->nrows, &ord, ui->collapsed, ui->ncollapsed, ui->tree);
	}
	keep_selection(ui, ui->sel);
}

void procs_search_next(struct ui *ui, bool from_current)
{
	size_t n = row_count(ui);

	if (!ui->search_text[0] || !n)
		return;
	for (size_t k = from_current ? 0 : 1; k <= n; k++) {
		size_t i = (ui->sel + k) % n;

		if (filter_text_match(ui, procs_row_at(ui, i), ui->search_text)) {
			procs_select_row(ui, i);
			return;
		}
	}
	ui_status(ui, _("No process matches \"%s\""), ui->search_text);
}

static unsigned search_changed(struct ui *ui, const char *text)
{
	/* the search jumps while typing, as in htop */
	snprintf(ui->search_text, sizeof(ui->search_text), "%s", text);
	procs_search_next(ui, true);
	return UI_HANDLED;
}

static unsigned search_key(struct ui *ui, int key)
{
	if (key == KEY_F(3)) { /* in htop's bar: the next match */
		snprintf(ui->search_text, sizeof(ui->search_text), "%s", ui->input);
		procs_search_next(ui, false);
	}
	return UI_HANDLED;
}

static const struct ui_prompt search_prompt = {
    .label = N_("Search: "),
    .done = search_changed,
    .changed = search_changed,
    .key = search_key,
};

static unsigned filter_changed(struct ui *ui, const char *text)
{
	/* the filter narrows while typing, as in htop */
	snprintf(ui->filter_text, sizeof(ui->filter_text), "%s", text);
	return UI_HANDLED | UI_REBUILD;
}

static unsigned filter_cancel(struct ui *ui)
{
	ui->filter_text[0] = '\0'; /* Esc clears the filter, as in htop */
	return UI_HANDLED | UI_REBUILD;
}

static const struct ui_prompt filter_prompt = {
    .label = N_("Filter: "),
    .done = filter_changed,
    .changed = filter_changed,
    .cancel = filter_cancel,
};

static void procs_draw(struct ui *ui, int y, int h)
{
	int tabs = tabs_draw(ui, y);

	table_draw_fields(ui, y + tabs, h - tabs);
}

static void move_sel(struct ui *ui, long delta)
{
	long n = (long)row_count(ui), s = (long)ui->sel + delta;

	if (s >= n)
		s = n - 1;
	if (s < 0)
		s = 0;
	procs_select_row(ui, (size_t)s);
}

static void sort_by(struct ui *ui, enum field_id id)
{
	if (ui->cfg.order.field == id)
		ui->cfg.order.reverse = !ui->cfg.order.reverse;
	else
		ui->cfg.order = (struct row_order){.field = id};
	ui_status(ui, _("Sorted by %s%s"), field_title(&ui->frame, &ui->view, id),
		  ui->cfg.order.reverse ? _(", reversed") : "");
}

/*
 * top's N: sort by PID in the direction the order has now, as top keeps one
 * direction for whatever column it sorts by: highest first at start (top's
 * default), lowest first after R. Pressed again, it changes nothing, as in top.
 */
static void sort_pid_top(struct ui *ui)
{
	struct row_order *o = &ui->cfg.order;
	bool highest_first = field_defs[o->field].ascending == o->reverse;

	o->field = FIELD_PID;
	o->reverse = field_defs[FIELD_PID].ascending == highest_first;
	ui_status(ui, _("Sorted by %s"), field_title(&ui->frame, &ui->view, FIELD_PID));
}

/* Move the sort column one shown column left or right (top's < and >). */
static void sort_step(struct ui *ui, int dir)
{
	size_t at = 0;

	for (size_t c = 0; c < ui->cfg.ncolumns; c++)
		if (ui->cfg.columns[c] == ui->cfg.order.field)
			at = c;
	if (dir < 0 && at > 0)
		at--;
	else if (dir > 0 && at + 1 < ui->cfg.ncolumns)
		at++;
	ui->cfg.order.field = ui->cfg.columns[at];
	ui_status(ui, _("Sorted by %s"), field_title(&ui->frame, &ui->view, ui->cfg.order.field));
}

void procs_tree_all(struct ui *ui, bool collapse)
{
	const struct frame *f = &ui->frame;
	const struct frame_proc **rows;
	struct tree_row *tree;
	bool *branch;
	size_t n;

	ui->ncollapsed = 0;
	if (!collapse || !f->nprocs)
		return;
	/* the frame's whole tree, as tree_build() draws it: a branch is a row with children */
	rows = xreallocarray(NULL, f->nprocs, sizeof(*rows));
	tree = xreallocarray(NULL, f->nprocs, sizeof(*tree));
	branch = xcalloc(f->nprocs, sizeof(*branch));
	for (size_t i = 0; i < f->nprocs; i++)
		rows[i] = &f->procs[i];
	n = tree_build(rows, f->nprocs, &ui->cfg.order, NULL, 0, tree);
	/* htop leaves its tree's roots (depth 0) and init open */
	for (size_t k = 0; k < n; k++)
		if (tree[k].has_children && tree[k].depth > 0 && tree[k].p->pid > 1)
			branch[tree[k].p - f->procs] = true;
	for (size_t i = 0; i < f->nprocs && ui->ncollapsed < UI_COLLAPSED_MAX; i++)
		if (branch[i])
			ui->collapsed[ui->ncollapsed++] = f->procs[i].pid;
	free(branch);
	free(tree);
	free(rows);
}

static void set_collapsed(struct ui *ui, int pid, bool collapse)
{
	for (size_t i = 0; i < ui->ncollapsed; i++) {
		if (ui->collapsed[i] == pid) {
			if (!collapse)
				ui->collapsed[i] = ui->collapsed[--ui->ncollapsed];
			return;
		}
	}
	if (collapse && ui->ncollapsed < UI_COLLAPSED_MAX)
		ui->collapsed[ui->ncollapsed++] = pid;
}

/* F7/F8: nice one step from what the kernel has now, so that presses add up. */
static unsigned renice_step(struct ui *ui, const struct frame_proc *p, int step)
{
	if (!action_choose(ui, p))
		return UI_HANDLED;
	return action_renice_target(ui, true, step);
}

/* Up, Down, Page Up/Down, Home, End; UI_IGNORED for any other action. */
static unsigned procs_move(struct ui *ui, enum ui_action act)
{
	long page = ui->table_h > 1 ? ui->table_h - 1 : 1, all = (long)row_count(ui);

	switch (act) {
	case ACT_UP:
		move_sel(ui, -1);
		break;
	case ACT_DOWN:
		move_sel(ui, 1);
		break;
	case ACT_PAGE_UP:
		move_sel(ui, -page);
		break;
	case ACT_PAGE_DOWN:
		move_sel(ui, page);
		break;
	case ACT_HOME:
		move_sel(ui, -all);
		break;
	case ACT_END:
		move_sel(ui, all);
		break;
	default:
		return UI_IGNORED;
	}
	return UI_HANDLED;
}

/* The keys that order the rows; UI_IGNORED for any other action. */
static unsigned procs_sort(struct ui *ui, enum ui_action act)
{
	switch (act) {
	case ACT_SORT_CPU:
		sort_by(ui, FIELD_CPU);
		break;
	case ACT_SORT_MEM:
		sort_by(ui, FIELD_MEM);
		break;
	case ACT_SORT_TIME:
		sort_by(ui, FIELD_TIME);
		break;
	case ACT_SORT_PID:
		sort_by(ui, FIELD_PID);
		break;
	case ACT_SORT_PID_TOP:
		sort_pid_top(ui);
		break;
	case ACT_SORT_PREV:
		sort_step(ui, -1);
		break;
	case ACT_SORT_NEXT:
		sort_step(ui, 1);
		break;
	case ACT_SORT_REVERSE:
		ui->cfg.order.reverse = !ui->cfg.order.reverse;
		break;
	default:
		return UI_IGNORED;
	}
	return UI_HANDLED | UI_REBUILD;
}

static unsigned procs_key(struct ui *ui, enum ui_action act, int key)
{
	const struct frame_proc *p = procs_selected(ui);
	unsigned r =
	    procs_move(ui, act) | procs_sort(ui, act) | tags_key(ui, act) | filter_key(ui, act);

	(void)key;
	if (r)
		return r;
	switch (act) {
	case ACT_SEARCH:
		/* htop's F3 opens the bar, the last search shown (typing replaces it) */
		ui_prompt(ui, &search_prompt, ui->search_text);
		break;
	case ACT_SEARCH_NEXT:
		if (!ui->search_text[0])
			ui_prompt(ui, &search_prompt, "");
		else
			procs_search_next(ui, false);
		break;
	case ACT_FILTER:
		ui_prompt(ui, &filter_prompt, ui->filter_text);
		break;
	case ACT_FOLLOW:
		if (!p)
			break;
		/* htop's F; here the selection follows its process always */
		ui_status(ui, _("Following process %d (%s) wherever it sorts"), p->pid,
			  ui->sel_name);
		break;
	case ACT_KILL:
		ui_signal_menu(ui, p);
		break;
	case ACT_RENICE:
		ui_renice_prompt(ui, p);
		break;
	case ACT_KILL_PID:
	case ACT_RENICE_PID:
		topact_open(ui, act == ACT_KILL_PID);
		break;
	case ACT_NICE_DOWN:
	case ACT_NICE_UP:
		return renice_step(ui, p, act == ACT_NICE_UP ? 1 : -1);
	case ACT_CMDLINE:
		ui->cfg.cmdline = !ui->cfg.cmdline;
		display_apply(ui);
		break;
	case ACT_THREADS:
		ui->cfg.threads = !ui->cfg.threads;
		ui_status(ui, ui->cfg.threads ? _("Showing threads") : _("Showing processes"));
		return UI_HANDLED | UI_REFETCH; /* a new kind of frame: build it now */
	case ACT_USER_THREADS:
		/* from top's threads view (-H): back to processes, their threads hidden */
		ui->cfg.user_threads = !ui->cfg.user_threads && !ui->cfg.threads;
		ui_status(ui, ui->cfg.user_threads ? _("Showing user threads")
			      : ui->cfg.threads	   ? _("Showing processes")
						   : _("Hiding user threads"));
		ui->cfg.threads = false;
		return UI_HANDLED | UI_REFETCH;
	case ACT_TREE:
		config_tree_set(&ui->cfg, !ui->cfg.tree);
		/* htop's t opens every branch, but on a screen collapsed by default */
		if (!ui->cfg.collapsed)
			procs_tree_all(ui, false);
		return UI_HANDLED | UI_REBUILD;
	case ACT_COLLAPSE:
	case ACT_EXPAND:
		if (!ui->cfg.tree || !p)
			break;
		set_collapsed(ui, p->pid, act == ACT_COLLAPSE);
		return UI_HANDLED | UI_REBUILD;
	default:
		return UI_IGNORED;
	}
	return UI_HANDLED;
}

static unsigned procs_click(struct ui *ui, int y, int x)
{
	if (tabs_shown(ui) && y == ui->table_y - 2)
		return tabs_click(ui, x);
	if (y == ui->table_y - 1) {
		/* a click on a heading sorts by that column, as in htop */
		int id = table_column_at(ui, x);

		if (id < 0)
			return UI_HANDLED;
		sort_by(ui, (enum field_id)id);
		return UI_HANDLED | UI_REBUILD;
	}
	if (y >= ui->table_y && y < ui->table_y + ui->table_h) {
		size_t i = ui->scroll + (size_t)(y - ui->table_y);

		if (i < row_count(ui))
			procs_select_row(ui, i);
	}
	return UI_HANDLED;
}

const struct pane_def pane_processes = {
    .name = N_("Processes"),
    .config_name = "processes",
    .hotkey = '1',
    .key_help = N_("Processes pane; there, one bar per CPU"),
    .draw = procs_draw,
    .key = procs_key,
    .click = procs_click,
};
