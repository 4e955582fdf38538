// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * procs.c: the Processes pane: the frame's processes filtered, sorted (or as
 * a tree), a selected row, and the keys that act on it: sort, search, filter,
 * follow, collapse and expand. Columns come from the shared field table.
 */
#include <errno.h>
#include <string.h>

#include "tui.h"

static size_t row_count(const struct ui *ui)
{
	return ui->nrows;
}

static const struct frame_proc *row_at(const struct ui *ui, size_t i)
{
	return ui->cfg.tree ? ui->tree[i].p : ui->rows[i];
}

const struct frame_proc *procs_selected(const struct ui *ui)
{
	return ui->sel < row_count(ui) ? row_at(ui, ui->sel) : NULL;
}

static void select_pid(struct ui *ui, int pid)
{
	for (size_t i = 0; i < row_count(ui); i++) {
		if (row_at(ui, i)->pid == pid) {
			ui->sel = i;
			return;
		}
	}
}

void procs_rebuild(struct ui *ui)
{
	const struct frame *f = &ui->frame;
	int keep = ui->sel_pid;

	if (ui->rows_cap < f->nprocs) {
		ui->rows_cap = f->cap;
		ui->rows = xreallocarray(ui->rows, ui->rows_cap, sizeof(*ui->rows));
	}
	ui->filter.substr = NULL; /* filter.c's: in any case, on command lines too */
	ui->nrows = rows_select(f, &ui->filter, ui->cfg.tree ? NULL : &ui->cfg.order, ui->rows);
	ui->nrows = filter_rows(ui, ui->rows, ui->nrows);
	if (ui->cfg.tree) {
		if (ui->tree_cap < ui->rows_cap) {
			ui->tree_cap = ui->rows_cap;
			ui->tree = xreallocarray(ui->tree, ui->tree_cap, sizeof(*ui->tree));
		}
		ui->nrows = tree_build(ui->rows, ui->nrows, &ui->cfg.order, ui->collapsed,
				       ui->ncollapsed, ui->tree);
	}
	if (ui->follow) {
		size_t before = ui->sel;

		ui->sel = (size_t)-1;
		select_pid(ui, keep);
		if (ui->sel == (size_t)-1) {
			ui->follow = false;
			ui->sel = before;
			ui_status(ui, _("Process %d is gone: no longer following"), keep);
		}
	}
	if (ui->sel >= row_count(ui))
		ui->sel = row_count(ui) ? row_count(ui) - 1 : 0;
	ui->sel_pid = procs_selected(ui) ? procs_selected(ui)->pid : 0;
}

void procs_search_next(struct ui *ui, bool from_current)
{
	size_t n = row_count(ui);

	if (!ui->search_text[0] || !n)
		return;
	for (size_t k = from_current ? 0 : 1; k <= n; k++) {
		size_t i = (ui->sel + k) % n;

		if (filter_text_match(ui, row_at(ui, i), ui->search_text)) {
			ui->sel = i;
			ui->sel_pid = row_at(ui, i)->pid;
			return;
		}
	}
	ui_status(ui, _("No process matches \"%s\""), ui->search_text);
}

static int col_width(const struct ui *ui, enum field_id id)
{
	if (id == FIELD_PID || id == FIELD_PPID) {
		int w = 1;

		for (unsigned v = ui->frame.pid_max ? ui->frame.pid_max - 1 : 99999; v >= 10;
		     v /= 10)
			w++;
		return w < 5 ? 5 : w;
	}
	return field_width(&ui->frame, id);
}

/* Room the name keeps on a narrow screen before other columns give way:
 * COMMAND is cut first, down to this. */
#define COMMAND_MIN 7

/* How soon column c (shown at index i) gives way on a narrow screen: 0 never
 * (the first column, the sort column, TIME+ and COMMAND), 1 late (%CPU,
 * %MEM), 2 first. */
static int give_way(const struct ui *ui, enum field_id id, size_t i)
{
	if (i == 0 || id == FIELD_COMMAND || id == FIELD_TIME ||
	    (!ui->cfg.tree && id == ui->cfg.order.field))
		return 0;
	return id == FIELD_CPU || id == FIELD_MEM ? 1 : 2;
}

/*
 * The shown columns that fit COLS: COMMAND is cut down to COMMAND_MIN
 * columns first; then columns give way, from the right, the least telling
 * first (see give_way()), never the sort column or TIME+.
 */
static size_t fit_columns(const struct ui *ui, enum field_id *out)
{
	size_t n = 0;
	int used = 0;

	for (size_t c = 0; c < ui->cfg.ncolumns; c++) {
		out[n++] = ui->cfg.columns[c];
		if (ui->cfg.columns[c] != FIELD_COMMAND)
			used += col_width(ui, ui->cfg.columns[c]) + 1;
	}
	for (int rank = 2; rank > 0; rank--) {
		for (size_t i = n; i-- > 0 && used + COMMAND_MIN > COLS;) {
			if (give_way(ui, out[i], i) != rank)
				continue;
			used -= col_width(ui, out[i]) + 1;
			memmove(out + i, out + i + 1, (n - i - 1) * sizeof(*out));
			n--;
		}
	}
	return n;
}

/* Skip the first cols columns of s (Left and Right scroll long command lines),
 * counting a UTF-8 sequence as one. */
static size_t skip_columns(const char *s, size_t n, unsigned cols)
{
	size_t i = 0;

	while (cols && i < n) {
		i++;
		while (i < n && ((unsigned char)s[i] & 0xc0) == 0x80)
			i++;
		cols--;
	}
	return i;
}

/* The tree's branches, ASCII so that every terminal lines them up. */
static int draw_branches(struct ui *ui, int y, int x, int maxw, const struct tree_row *t)
{
	struct sbuf b = {0};
	int used;

	for (unsigned d = 1; d < t->depth; d++)
		sbuf_adds(&b, d < sizeof(t->branches) * 8 && (t->branches >> d & 1) ? "| " : "  ");
	if (t->depth)
		sbuf_adds(&b, t->last ? "`-" : "|-");
	if (t->has_children)
		sbuf_adds(&b, t->collapsed ? "+ " : "- ");
	else if (t->depth)
		sbuf_addc(&b, ' ');
	attron(ui_attr(ui, COLOR_TREE, A_NORMAL));
	used = ui_put(ui, y, x, maxw, b.p ? b.p : "", b.len);
	attroff(ui_attr(ui, COLOR_TREE, A_NORMAL));
	sbuf_free(&b);
	return used;
}

static void draw_row(struct ui *ui, int y, size_t i, struct sbuf *cell)
{
	const struct frame_proc *p = row_at(ui, i);
	bool selected = i == ui->sel;
	/* htop's user threads: told from their processes by colour */
	attr_t thread = !ui->frame.threads && frame_proc_is_thread(p) && !selected
			    ? ui_attr(ui, COLOR_THREAD, A_DIM)
			    : 0;
	enum field_id cols[UI_MAX_COLUMNS];
	size_t ncols = fit_columns(ui, cols);
	int x = 0;

	if (selected) {
		attron(ui_attr(ui, COLOR_SELECTED, A_REVERSE));
		mvhline(y, 0, ' ', COLS);
	}
	attron(thread);
	if (ui->ntags && tags_has(ui, p))
		attron(ui_attr(ui, COLOR_TAGGED, A_BOLD) | A_BOLD);
	for (size_t c = 0; c < ncols && x < COLS; c++) {
		enum field_id id = cols[c];
		int w = col_width(ui, id);

		if (id == FIELD_COMMAND) {
			int avail = COLS - x;

			if (ui->cfg.tree)
				x += draw_branches(ui, y, x, avail, &ui->tree[i]);
			size_t skip;

			sbuf_reset(cell);
			field_format(cell, id, p, &ui->frame);
			skip = skip_columns(cell->p, cell->len, ui->cmd_scroll);
			ui_put(ui, y, x, COLS - x, cell->p + skip, cell->len - skip);
			break;
		}
		sbuf_reset(cell);
		field_format(cell, id, p, &ui->frame);
		if ((int)cell->len > w) {
			cell->len = (size_t)w;
			cell->p[w - 1] = '+';
		}
		if (x + w > COLS)
			break;
		if (field_defs[id].left)
			ui_put(ui, y, x, w, cell->p, cell->len);
		else
			ui_put(ui, y, x + w - (int)cell->len, w, cell->p, cell->len);
		x += w + 1;
	}
	if (ui->ntags && tags_has(ui, p))
		attroff(ui_attr(ui, COLOR_TAGGED, A_BOLD) | A_BOLD);
	attroff(thread);
	if (selected)
		attroff(ui_attr(ui, COLOR_SELECTED, A_REVERSE));
}

/* Which way the sort goes, right after the sort column's heading, as htop
 * draws it: largest first points down. */
static void sort_mark(struct ui *ui, int y, int x, enum field_id id)
{
	bool down = !field_defs[id].ascending != ui->cfg.order.reverse;

	if (x < 0 || x >= COLS)
		return;
	if (ui->utf8)
		mvaddstr(y, x, down ? "\u25bc" : "\u25b2");
	else
		mvaddch(y, x, down ? 'v' : '^');
}

static void procs_heading(struct ui *ui, int y)
{
	enum field_id cols[UI_MAX_COLUMNS];
	size_t ncols = fit_columns(ui, cols);
	int x = 0;

	for (size_t c = 0; c < ncols && x < COLS; c++) {
		enum field_id id = cols[c];
		const char *t = field_title(&ui->frame, id);
		int w = id == FIELD_COMMAND ? COLS - x : col_width(ui, id);
		int tl = (int)strlen(t);
		bool sorted = !ui->cfg.tree && id == ui->cfg.order.field;

		if (x + w > COLS)
			break;
		if (sorted)
			attron(A_BOLD | A_UNDERLINE);
		mvaddstr(y, field_defs[id].left || tl >= w ? x : x + w - tl, t);
		if (sorted) {
			attroff(A_BOLD | A_UNDERLINE);
			/* what the heading is drawn in, which this attroff may have taken */
			attron(ui_attr(ui, COLOR_TABLE_HEADER, A_REVERSE));
		}
		if (sorted)
			sort_mark(ui, y, field_defs[id].left || tl >= w ? x + tl : x + w, id);
		x += w + 1;
	}
}

static void procs_row(struct ui *ui, int y, const struct frame_proc *p, bool selected)
{
	(void)p;
	(void)selected;
	draw_row(ui, y, (size_t)(y - ui->table_y) + ui->scroll, &ui->cell);
}

void procs_visible(const struct ui *ui, size_t *first, size_t *n)
{
	size_t h = ui->table_h > 0 ? (size_t)ui->table_h : (size_t)LINES;

	*first = ui->scroll < row_count(ui) ? ui->scroll : 0;
	*n = row_count(ui) - *first < h ? row_count(ui) - *first : h;
}

/* Keep the selection in view: scroll just enough, and no further than the end. */
static void scroll_to_selection(struct ui *ui, size_t h)
{
	if (ui->sel < ui->scroll)
		ui->scroll = ui->sel;
	if (ui->sel >= ui->scroll + h)
		ui->scroll = ui->sel - h + 1;
	if (ui->scroll + h > row_count(ui))
		ui->scroll = row_count(ui) > h ? row_count(ui) - h : 0;
}

size_t procs_view_pids(struct ui *ui)
{
	size_t first, n;

	if (!ui->have_frame)
		return 0;
	procs_visible(ui, &first, &n);
	if (ui->view_cap < n) {
		ui->view_cap = n;
		ui->view_pids = xreallocarray(ui->view_pids, n, sizeof(*ui->view_pids));
	}
	for (size_t i = 0; i < n; i++)
		ui->view_pids[i] = row_at(ui, first + i)->pid;
	return n;
}

void procs_prepare(struct ui *ui)
{
	size_t first, n;

	ui->frame.cmdlines = ui->cfg.cmdline; /* what COMMAND shows */
	if (!ui->have_frame)
		return;
	/* before the first draw the table's height is not known: the screen's bounds it */
	scroll_to_selection(ui, ui->table_h > 0 ? (size_t)ui->table_h : (size_t)LINES);
	procs_visible(ui, &first, &n);
	for (size_t i = first; i < first + n; i++) {
		const struct frame_proc *p = row_at(ui, i);

		/* rows that scrolled or sorted into view since the frame was read */
		pipeline_complete(ui->pipe, &ui->frame, &p, 1);
		if (ui->cfg.cmdline)
			pipeline_cmdlines(ui->pipe, &ui->frame, &p, 1);
	}
}

void procs_draw_rows(struct ui *ui, int y, int h,
		     void (*row)(struct ui *ui, int y, const struct frame_proc *p, bool sel),
		     void (*heading)(struct ui *ui, int y))
{
	if (h < 2)
		return;
	attron(ui_attr(ui, COLOR_TABLE_HEADER, A_REVERSE));
	mvhline(y, 0, ' ', COLS);
	heading(ui, y);
	attroff(ui_attr(ui, COLOR_TABLE_HEADER, A_REVERSE));
	y++;
	h--;

	ui->table_y = y;
	ui->table_h = h;
	scroll_to_selection(ui, (size_t)h);
	for (int r = 0; r < h && ui->scroll + (size_t)r < row_count(ui); r++) {
		size_t i = ui->scroll + (size_t)r;

		row(ui, y + r, row_at(ui, i), i == ui->sel);
	}
}

static void procs_draw(struct ui *ui, int y, int h)
{
	procs_draw_rows(ui, y, h, procs_row, procs_heading);
}

static void move_sel(struct ui *ui, long delta)
{
	long n = (long)row_count(ui), s = (long)ui->sel + delta;

	if (s >= n)
		s = n - 1;
	if (s < 0)
		s = 0;
	ui->sel = (size_t)s;
	ui->sel_pid = procs_selected(ui) ? procs_selected(ui)->pid : 0;
}

static void sort_by(struct ui *ui, enum field_id id)
{
	if (ui->cfg.order.field == id)
		ui->cfg.order.reverse = !ui->cfg.order.reverse;
	else
		ui->cfg.order = (struct row_order){.field = id};
	ui_status(ui, _("Sorted by %s%s"), field_defs[id].title,
		  ui->cfg.order.reverse ? _(", reversed") : "");
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
	ui_status(ui, _("Sorted by %s"), field_defs[ui->cfg.order.field].title);
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
		ui_prompt(ui, PROMPT_SEARCH, "");
		break;
	case ACT_SEARCH_NEXT:
		if (!ui->search_text[0])
			ui_prompt(ui, PROMPT_SEARCH, "");
		else
			procs_search_next(ui, false);
		break;
	case ACT_FILTER:
		ui_prompt(ui, PROMPT_FILTER, ui->filter_text);
		break;
	case ACT_FOLLOW:
		if (!p)
			break;
		ui->follow = !ui->follow;
		ui_status(ui, ui->follow ? _("Following process %d") : _("Not following %d"),
			  p->pid);
		break;
	case ACT_KILL:
		ui_signal_menu(ui, p);
		break;
	case ACT_RENICE:
		ui_renice_prompt(ui, p);
		break;
	case ACT_NICE_DOWN:
	case ACT_NICE_UP:
		return renice_step(ui, p, act == ACT_NICE_UP ? 1 : -1);
	case ACT_CMDLINE:
		ui->cfg.cmdline = !ui->cfg.cmdline;
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
		ui->cfg.tree = !ui->cfg.tree;
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
	if (y == ui->table_y - 1) {
		/* a click on a heading sorts by that column, as in htop */
		enum field_id cols[UI_MAX_COLUMNS];
		size_t ncols = fit_columns(ui, cols);
		int cx = 0;

		for (size_t c = 0; c < ncols; c++) {
			enum field_id id = cols[c];
			int w = id == FIELD_COMMAND ? COLS - cx : col_width(ui, id);

			if (x >= cx && x < cx + w + 1) {
				sort_by(ui, id);
				return UI_HANDLED | UI_REBUILD;
			}
			cx += w + 1;
		}
		return UI_HANDLED;
	}
	if (y >= ui->table_y && y < ui->table_y + ui->table_h) {
		size_t i = ui->scroll + (size_t)(y - ui->table_y);

		if (i < row_count(ui)) {
			ui->sel = i;
			ui->sel_pid = row_at(ui, i)->pid;
		}
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
