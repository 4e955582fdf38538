// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * menus.c: the screens that take over the keys for a moment: a list menu
 * (the sort menu uses it, as does the signal menu), the help screen built
 * from the key map, and the column chooser.
 */
#include <string.h>

#include "tui.h"

/* Up/Down/Home/End in a list of n entries; true when key was one of them. */
/* The most entries a menu shows at once. */
#define UI_MENU_ROWS 15

bool ui_menu_move(struct ui *ui, int key, int n)
{
	switch (key) {
	case KEY_UP:
		if (ui->menu_sel > 0)
			ui->menu_sel--;
		return true;
	case KEY_DOWN:
		if (ui->menu_sel < n - 1)
			ui->menu_sel++;
		return true;
	case KEY_HOME:
		ui->menu_sel = 0;
		return true;
	case KEY_END:
		ui->menu_sel = n - 1;
		return true;
	case KEY_PPAGE:
	case KEY_NPAGE: {
		int page = ui->menu_page > 1 ? ui->menu_page - 1 : UI_MENU_ROWS - 1;

		ui->menu_sel += key == KEY_NPAGE ? page : -page;
		if (ui->menu_sel > n - 1)
			ui->menu_sel = n - 1;
		if (ui->menu_sel < 0)
			ui->menu_sel = 0;
		return true;
	}
	}
	return false;
}

void ui_draw_menu(struct ui *ui, const char *title, const char *const *items, int n)
{
	int w = (int)strlen(title) + 3, h = n + 2, y0, x0;

	if (w < 30)
		w = 30;
	if (w > COLS)
		w = COLS;

	if (h > LINES - 2)
		h = LINES - 2;
	if (h > UI_MENU_ROWS + 2)
		h = UI_MENU_ROWS + 2; /* it scrolls: the rows it acts on stay in view around it */
	y0 = (LINES - h) / 2;
	x0 = (COLS - w) / 2 > 0 ? (COLS - w) / 2 : 0;
	for (int r = 0; r < h; r++)
		mvhline(y0 + r, x0, ' ', w);
	attron(A_BOLD);
	mvaddnstr(y0, x0 + 1, title, w - 2);
	attroff(A_BOLD);
	for (int i = 0, first = ui->menu_sel >= h - 2 ? ui->menu_sel - (h - 3) : 0;
	     i < h - 2 && first + i < n; i++) {
		bool on = first + i == ui->menu_sel;

		if (on)
			attron(ui_attr(ui, COLOR_SELECTED, A_REVERSE));
		mvaddnstr(y0 + 1 + i, x0 + 2, items[first + i], w - 4);
		if (on)
			attroff(ui_attr(ui, COLOR_SELECTED, A_REVERSE));
	}
}

/* The columns the shown pane sorts by: its own, or the Processes pane's. */
static size_t sort_columns(struct ui *ui, enum field_id *out)
{
	size_t n;

	if (!ui_pane(ui)->sort_columns) {
		memcpy(out, ui->cfg.columns, ui->cfg.ncolumns * sizeof(*out));
		return ui->cfg.ncolumns;
	}
	n = ui_pane(ui)->sort_columns(ui, out, UI_MAX_COLUMNS);
	/* the menu was opened at a place among the Processes pane's columns */
	if (n && (size_t)ui->menu_sel >= n)
		ui->menu_sel = (int)n - 1;
	return n;
}

static unsigned sort_menu_key(struct ui *ui, int key)
{
	enum field_id cols[UI_MAX_COLUMNS];
	size_t n = sort_columns(ui, cols);

	if (ui_menu_move(ui, key, (int)n))
		return UI_HANDLED;
	switch (key) {
	case '\r':
	case '\n':
	case KEY_ENTER:
		ui->cfg.order = (struct row_order){.field = cols[ui->menu_sel]};
		screen_pop(ui);
		return UI_HANDLED | UI_REBUILD;
	case KEY_ESC:
	case 'q':
		screen_pop(ui);
		break;
	}
	return UI_HANDLED;
}

static void sort_menu_draw(struct ui *ui)
{
	const char *items[UI_MAX_COLUMNS];
	enum field_id cols[UI_MAX_COLUMNS];
	size_t n = sort_columns(ui, cols);

	for (size_t c = 0; c < n; c++)
		/* a counter by its event's name */
		items[c] = field_title(&ui->frame, &ui->view, cols[c]);
	ui_draw_menu(ui, _("Sort by:"), items, (int)n);
}

/* One line of the help below its scroll: false once the screen is full. */
static bool help_line(struct ui *ui, int *y, int *line, const char *keys, const char *what)
{
	if ((*line)++ < ui->help_scroll)
		return true;
	if (*y >= LINES - 1)
		return false;
	attron(ui_attr(ui, COLOR_LABEL, A_BOLD));
	mvprintw(*y, 1, "%-14s", keys);
	attroff(ui_attr(ui, COLOR_LABEL, A_BOLD));
	ui_put(ui, *y, 16, COLS - 16, what, strlen(what));
	(*y)++;
	return true;
}

static void help_draw(struct ui *ui)
{
	const char *rkeys, *rwhat;
	int y = 0, line = 0;
	bool room = true;

	erase();
	attron(A_BOLD);
	mvprintw(y++, 0,
		 _("ptop %s - keys (Up and Down scroll, any other key closes); %s keys "
		   "(ptoprc: keys = htop or top)"),
		 PACKAGE_VERSION, keymap_profile_name(ui->cfg.keys));
	attroff(A_BOLD);
	y++;
	for (size_t i = 0; room && replay_on(ui) && replay_help(i, &rkeys, &rwhat); i++)
		room = help_line(ui, &y, &line, rkeys, rwhat);
	for (int a = 1; room && a < ACT_COUNT; a++) {
		char keys[64] = "";
		size_t kl = 0;

		for (size_t k = 0; k < keymap_len; k++) {
			if (keymap[k].action != (enum ui_action)a ||
			    !(keymap[k].profiles & (1u << ui->cfg.keys)))
				continue;
			kl += (size_t)snprintf(keys + kl, sizeof(keys) - kl, "%s%s", kl ? " " : "",
					       keymap[k].label);
			if (kl >= sizeof(keys))
				kl = sizeof(keys) - 1;
		}
		if (kl)
			room = help_line(ui, &y, &line, keys, _(action_defs[a].help));
	}
	for (int i = 0; room && ui_panes[i]; i++) {
		char key[2] = {(char)ui_panes[i]->hotkey, '\0'};

		room = help_line(ui, &y, &line, key, _(ui_panes[i]->key_help));
	}
	if (y < LINES - 1)
		mvaddstr(
		    y + 1 < LINES - 1 ? y + 1 : y, 1,
		    _("Mouse: click a row to select it, a heading to sort, a pane to switch."));
}

/*
 * A line of the column chooser: the heading the profile shows, then the other
 * tool's in brackets where it differs ("NLWP (nTH)": -o, --fields and ptoprc
 * take both), then the description.
 */
static void column_line(const struct ui *ui, int y, enum field_id id, bool shown)
{
	enum { NAMES_COLS = 20 }; /* most pairs fit; a longer one pushes its description */
	bool htop = ui->view.htop_titles;
	const char *t = field_heading(id, htop), *other = field_heading(id, !htop);
	char names[64];

	if (strcmp(t, other))
		snprintf(names, sizeof(names), "%s (%s)", t, other);
	else
		snprintf(names, sizeof(names), "%s", t);
	mvprintw(y, 1, "[%c] %-*s %s", shown ? 'x' : ' ', NAMES_COLS, names,
		 _(field_defs[id].desc));
}

static void columns_draw(struct ui *ui)
{
	bool shown[FIELD_COUNT] = {false};
	int y = 2, idx = -1, rows = LINES - 3, first;

	/* longer than the screen: it scrolls only to keep the selection on it, as htop's panels
	 * do (moving up from the last row moves the selection, not the list) */
	if (ui->menu_sel < ui->menu_top)
		ui->menu_top = ui->menu_sel;
	else if (rows > 0 && ui->menu_sel >= ui->menu_top + rows)
		ui->menu_top = ui->menu_sel - rows + 1;
	first = ui->menu_top;

	erase();
	attron(A_BOLD);
	mvaddstr(0, 0, _("Columns: Space shows or hides, Left/Right move, Esc or Enter closes"));
	attroff(A_BOLD);
	for (size_t c = 0; c < ui->cfg.ncolumns; c++)
		shown[ui->cfg.columns[c]] = true;
	/* shown columns in their order, then the hidden ones */
	for (int pass = 0; pass < 2; pass++) {
		for (int i = 0; i < FIELD_COUNT; i++) {
			int id =
			    pass ? i : (i < (int)ui->cfg.ncolumns ? (int)ui->cfg.columns[i] : -1);

			if (id < 0 || (pass == 1 && shown[id]) || ++idx < first)
				continue;
			if (y >= LINES - 1)
				return;
			if (idx == ui->menu_sel)
				attron(ui_attr(ui, COLOR_SELECTED, A_REVERSE));
			column_line(ui, y, id, shown[id]);
			if (idx == ui->menu_sel)
				attroff(ui_attr(ui, COLOR_SELECTED, A_REVERSE));
			y++;
		}
	}
}

/* The field at line i of the column chooser (shown ones first). */
static enum field_id column_at(const struct ui *ui, int i)
{
	bool shown[FIELD_COUNT] = {false};

	if (i < (int)ui->cfg.ncolumns)
		return ui->cfg.columns[i];
	for (size_t c = 0; c < ui->cfg.ncolumns; c++)
		shown[ui->cfg.columns[c]] = true;
	i -= (int)ui->cfg.ncolumns;
	for (int id = 0; id < FIELD_COUNT; id++)
		if (!shown[id] && i-- == 0)
			return (enum field_id)id;
	return FIELD_COMMAND;
}

static unsigned columns_key(struct ui *ui, int key)
{
	enum field_id id = column_at(ui, ui->menu_sel);
	size_t n = ui->cfg.ncolumns;
	int at = -1;

	for (size_t c = 0; c < n; c++)
		if (ui->cfg.columns[c] == id)
			at = (int)c;
	if (ui_menu_move(ui, key, FIELD_COUNT))
		return UI_HANDLED;
	switch (key) {
	case ' ':
		if (id == FIELD_COMMAND)
			break; /* the name is always shown, last */
		if (at >= 0) {
			memmove(&ui->cfg.columns[at], &ui->cfg.columns[at + 1],
				(n - (size_t)at - 1) * sizeof(id));
			ui->cfg.ncolumns--;
		} else {
			ui->cfg.columns[n - 1] = id;
			ui->cfg.columns[n] = FIELD_COMMAND;
			ui->cfg.ncolumns++;
		}
		/* a new column may need another file read */
		return UI_HANDLED | UI_REBUILD | UI_REFETCH;
	case KEY_LEFT:
	case KEY_RIGHT: {
		int to = at + (key == KEY_LEFT ? -1 : 1);

		/* COMMAND stays last; only shown columns move */
		if (at < 0 || id == FIELD_COMMAND || to < 0 || to >= (int)n - 1)
			break;
		ui->cfg.columns[at] = ui->cfg.columns[to];
		ui->cfg.columns[to] = id;
		ui->menu_sel = to;
		break;
	}
	case KEY_ESC:
	case '\r':
	case '\n':
	case KEY_ENTER:
	case 'q':
	case 'f':
		screen_pop(ui);
		break;
	}
	return UI_HANDLED | UI_REBUILD;
}

static unsigned help_key(struct ui *ui, int key)
{
	if (key == KEY_DOWN)
		ui->help_scroll++;
	else if (key == KEY_UP && ui->help_scroll > 0)
		ui->help_scroll--;
	else
		screen_pop(ui); /* any other key closes help, as in htop */
	return UI_HANDLED;
}

static const struct ui_screen sort_menu = {.key = sort_menu_key, .draw = sort_menu_draw};
static const struct ui_screen help_screen = {.key = help_key, .draw = help_draw, .full = true};
static const struct ui_screen columns_screen = {
    .key = columns_key, .draw = columns_draw, .full = true};

void menus_open_sort(struct ui *ui)
{
	enum field_id cols[UI_MAX_COLUMNS];
	size_t n;

	ui->menu_sel = 0;
	n = sort_columns(ui, cols);
	screen_push(ui, &sort_menu);
	for (size_t c = 0; c < n; c++)
		if (cols[c] == ui->cfg.order.field)
			ui->menu_sel = (int)c;
}

void menus_open_help(struct ui *ui)
{
	screen_push(ui, &help_screen);
	ui->help_scroll = 0;
}

void menus_open_columns(struct ui *ui)
{
	screen_push(ui, &columns_screen);
	ui->menu_sel = ui->menu_top = 0;
}
