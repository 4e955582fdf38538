// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * table.c: the rows drawn as a table of the field table's columns, for each
 * pane a screen (struct table_screen, as htop's screens are): which columns,
 * and the headings it gives them. A heading, the rows in view scrolled to
 * keep the selection on screen, the columns that fit the screen (the least
 * telling give way first), the tree's branches and the sort mark. Before a
 * draw, table_prepare() reads what the rows in view show beyond the frame,
 * so that drawing never touches /proc.
 */
#include <string.h>

#include "tui.h"

/* Column id's heading on screen s. */
static const char *col_title(const struct ui *ui, const struct table_screen *s, enum field_id id)
{
	const char *t = s->title ? s->title(ui, id) : NULL;

	return t ? t : field_title(&ui->frame, &ui->view, id);
}

/* Columns the longest sentence for a counter cell without a count takes, in the
 * viewer's language and encoding ("not counted", "counting…"). */
static int ctr_sentence_cols(const struct ui *ui)
{
	static int cols[2] = {-1, -1}; /* ASCII, UTF-8: the language does not change */
	int *c = &cols[ui->utf8 ? 1 : 0];

	if (*c >= 0)
		return *c;
	*c = 0;
	for (int st = 0; st < CTR_STATE_COUNT; st++) {
		const char *t = ctr_state_text((enum ctr_state)st, ui->utf8);
		int w;

		if (!t)
			continue;
		t = _(t);
		w = ui_cols(ui, t, strlen(t));
		if (w > *c)
			*c = w;
	}
	return *c;
}

static int col_width(const struct ui *ui, const struct table_screen *s, enum field_id id)
{
	int w;

	if (s->title && s->title(ui, id)) {
		/* the screen's own heading: as wide as it, or the table's width */
		int tl = (int)strlen(s->title(ui, id));

		w = field_defs[id].width && tl > field_defs[id].width ? tl : field_defs[id].width;
	} else if (id == FIELD_PID || id == FIELD_PPID) {
		w = 1;
		for (unsigned v = ui->frame.pid_max ? ui->frame.pid_max - 1 : 99999; v >= 10;
		     v /= 10)
			w++;
		return w < 5 ? 5 : w;
	} else {
		w = field_width(&ui->frame, &ui->view, id);
	}
	/* a counter's cell says why it has no count, in full */
	if (field_defs[id].type == FT_CTR && w < ctr_sentence_cols(ui))
		w = ctr_sentence_cols(ui);
	return w;
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
static size_t fit_columns(const struct ui *ui, const struct table_screen *s, enum field_id *out)
{
	size_t n = 0;
	int used = 0;

	for (size_t c = 0; c < s->ncolumns && n < UI_MAX_COLUMNS; c++) {
		out[n++] = s->columns[c];
		if (s->columns[c] != FIELD_COMMAND)
			used += col_width(ui, s, s->columns[c]) + 1;
	}
	for (int rank = 2; rank > 0; rank--) {
		for (size_t i = n; i-- > 0 && used + COMMAND_MIN > COLS;) {
			if (give_way(ui, out[i], i) != rank)
				continue;
			used -= col_width(ui, s, out[i]) + 1;
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

/*
 * htop's highlight_changes: a process that ended in the interval (an exit
 * hook's row), or that started since the first frame and less than
 * highlight_delay seconds ago; 0 for the others.
 */
static attr_t changed(const struct ui *ui, const struct frame_proc *p)
{
	double started, hz = ui->frame.hz > 0 ? (double)ui->frame.hz : 100;

	if (!ui->cfg.highlight_changes)
		return 0;
	if (p->exited)
		return ui_attr(ui, COLOR_TOMB, A_DIM);
	started = (double)p->start_ticks / hz;
	if (started > ui->first_uptime && ui->frame.uptime_s - started < ui->cfg.highlight_delay)
		return ui_attr(ui, COLOR_NEW, A_BOLD);
	return 0;
}

static void draw_row(struct ui *ui, const struct table_screen *s, int y, size_t i,
		     struct sbuf *cell)
{
	const struct frame_proc *p = procs_row_at(ui, i);
	bool selected = i == ui->sel;
	attr_t hl = selected ? 0 : changed(ui, p);
	/* htop's user threads: told from their processes by colour */
	attr_t thread = !ui->frame.threads && frame_proc_is_thread(p) && !selected && !hl
			    ? ui_attr(ui, COLOR_THREAD, A_DIM)
			    : hl;
	enum field_id cols[UI_MAX_COLUMNS];
	size_t ncols = fit_columns(ui, s, cols);
	int x = 0;

	if (selected) {
		attron(ui_attr(ui, COLOR_SELECTED, A_REVERSE));
		mvhline(y, 0, ' ', COLS);
	}
	attron(thread);
	if (hl)
		mvhline(y, 0, ' ', COLS); /* the whole row, as htop colours it */
	if (ui->ntags && tags_has(ui, p))
		attron(ui_attr(ui, COLOR_TAGGED, A_BOLD) | A_BOLD);
	for (size_t c = 0; c < ncols && x < COLS; c++) {
		enum field_id id = cols[c];
		int w = col_width(ui, s, id), cw;

		if (id == FIELD_COMMAND) {
			int avail = COLS - x;

			if (ui->cfg.tree)
				x += draw_branches(ui, y, x, avail, &ui->tree[i]);
			size_t skip;

			sbuf_reset(cell);
			field_format(cell, id, p, &ui->frame, &ui->view);
			skip = skip_columns(cell->p, cell->len, ui->cmd_scroll);
			ui_put_cut(ui, y, x, COLS - x, cell->p + skip, cell->len - skip);
			break;
		}
		sbuf_reset(cell);
		field_format(cell, id, p, &ui->frame, &ui->view);
		if (x + w > COLS)
			break;
		/* by columns, not bytes: "counting…" is nine columns in eleven bytes */
		cw = ui_cols(ui, cell->p, cell->len);
		if (field_defs[id].left || cw >= w)
			ui_put_cut(ui, y, x, w, cell->p, cell->len);
		else
			ui_put(ui, y, x + w - cw, w, cell->p, cell->len);
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

static void heading(struct ui *ui, const struct table_screen *s, int y)
{
	enum field_id cols[UI_MAX_COLUMNS];
	size_t ncols = fit_columns(ui, s, cols);
	int x = 0;

	for (size_t c = 0; c < ncols && x < COLS; c++) {
		enum field_id id = cols[c];
		const char *t = col_title(ui, s, id);
		int w = id == FIELD_COMMAND ? COLS - x : col_width(ui, s, id);
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

void table_visible(const struct ui *ui, size_t *first, size_t *n)
{
	size_t h = ui->table_h > 0 ? (size_t)ui->table_h : (size_t)LINES;

	*first = ui->scroll < ui->nrows ? ui->scroll : 0;
	*n = ui->nrows - *first < h ? ui->nrows - *first : h;
}

/* Keep the selection in view: scroll just enough, and no further than the end. */
static void scroll_to_selection(struct ui *ui, size_t h)
{
	if (ui->sel < ui->scroll)
		ui->scroll = ui->sel;
	if (ui->sel >= ui->scroll + h)
		ui->scroll = ui->sel - h + 1;
	if (ui->scroll + h > ui->nrows)
		ui->scroll = ui->nrows > h ? ui->nrows - h : 0;
}

size_t table_view_pids(struct ui *ui)
{
	size_t first, n;

	if (!ui->have_frame)
		return 0;
	table_visible(ui, &first, &n);
	if (ui->view_cap < n) {
		ui->view_cap = n;
		ui->view_pids = xreallocarray(ui->view_pids, n, sizeof(*ui->view_pids));
	}
	for (size_t i = 0; i < n; i++)
		ui->view_pids[i] = procs_row_at(ui, first + i)->pid;
	return n;
}

void table_prepare(struct ui *ui)
{
	size_t first, n;

	if (!ui->have_frame)
		return;
	/* before the first draw the table's height is not known: the screen's bounds it */
	scroll_to_selection(ui, ui->table_h > 0 ? (size_t)ui->table_h : (size_t)LINES);
	table_visible(ui, &first, &n);
	for (size_t i = first; i < first + n; i++) {
		const struct frame_proc *p = procs_row_at(ui, i);

		/* rows that scrolled or sorted into view since the frame was read */
		pipeline_complete(ui->pipe, &ui->frame, &p, 1);
		if (ui->cfg.cmdline)
			pipeline_cmdlines(ui->pipe, &ui->frame, &p, 1);
	}
}

void table_draw(struct ui *ui, int y, int h, const struct table_screen *s)
{
	if (h < 2)
		return;
	attron(ui_attr(ui, COLOR_TABLE_HEADER, A_REVERSE));
	mvhline(y, 0, ' ', COLS);
	heading(ui, s, y);
	attroff(ui_attr(ui, COLOR_TABLE_HEADER, A_REVERSE));
	y++;
	h--;

	ui->table_y = y;
	ui->table_h = h;
	scroll_to_selection(ui, (size_t)h);
	for (int r = 0; r < h && ui->scroll + (size_t)r < ui->nrows; r++)
		draw_row(ui, s, y + r, ui->scroll + (size_t)r, &ui->cell);
}

/* The Processes pane's screen: the shown columns (ptoprc's, the chooser's). */
static struct table_screen fields_screen(const struct ui *ui)
{
	return (struct table_screen){.columns = ui->cfg.columns, .ncolumns = ui->cfg.ncolumns};
}

void table_draw_fields(struct ui *ui, int y, int h)
{
	struct table_screen s = fields_screen(ui);

	table_draw(ui, y, h, &s);
}

int table_screen_column_at(const struct ui *ui, const struct table_screen *s, int x)
{
	enum field_id cols[UI_MAX_COLUMNS];
	size_t ncols = fit_columns(ui, s, cols);
	int cx = 0;

	for (size_t c = 0; c < ncols; c++) {
		int w = cols[c] == FIELD_COMMAND ? COLS - cx : col_width(ui, s, cols[c]);

		if (x >= cx && x < cx + w + 1)
			return (int)cols[c];
		cx += w + 1;
	}
	return -1;
}

int table_column_at(const struct ui *ui, int x)
{
	struct table_screen s = fields_screen(ui);

	return table_screen_column_at(ui, &s, x);
}
