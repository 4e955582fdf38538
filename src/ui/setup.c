// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * setup.c: F2 Setup, as htop's (Settings with its ScreensPanel, MetersPanel,
 * DisplayOptionsPanel and ColorsPanel): a full screen on the stack, the
 * header drawn live at its top, the categories on the left and the chosen
 * one's panel beside them. Meters: which, in which half, in which order, bar
 * or text; display options; colour schemes; the Processes pane's screens
 * (new, renamed, removed, moved; the one selected is the one shown); the
 * column chooser, pushed on top, for the screen shown. What it changes is
 * in the settings at once, and written to ptoprc when Setup closes, as htop
 * writes htoprc.
 */
#include <stdio.h>
#include <string.h>

#include "tui.h"

enum setup_category {
	SETUP_METERS,
	SETUP_DISPLAY,
	SETUP_COLORS,
	SETUP_SCREENS,
	SETUP_COLUMNS,
	SETUP_CATEGORIES
};

static const char *const category_names[] = {
    [SETUP_METERS] = N_("Meters"),
    [SETUP_DISPLAY] = N_("Display options"),
    [SETUP_COLORS] = N_("Colors"),
    [SETUP_SCREENS] = N_("Screens"), /* the Processes pane's, as htop's */
    [SETUP_COLUMNS] = N_("Columns"),
};
_Static_assert(sizeof(category_names) / sizeof(category_names[0]) == SETUP_CATEGORIES,
	       "a name for each category");

static struct {
	enum setup_category category;
	bool in_panel; /* keys go to the panel, else to the categories */
	int sel;       /* the panel's selected row */
	int top;       /* the panel's first line on the screen, when it has more than fit */
	int rows;      /* lines the panel shows: PgUp/PgDn move by them */
	int header_h;  /* rows the live header took */
	bool moving;   /* Screens: Enter picked the selected one up, Up and Down move it */
} st;

/* The first of a panel's n lines to show in rows rows, so that line sel
 * (the selection) is on the screen: where it was, moved no more than that
 * needs, as htop's panels scroll. */
static int scroll_to(int sel, int n, int rows)
{
	if (rows < 1)
		rows = 1;
	st.rows = rows;
	if (sel < st.top)
		st.top = sel;
	if (sel >= st.top + rows)
		st.top = sel - rows + 1;
	if (st.top > n - rows)
		st.top = n - rows;
	if (st.top < 0)
		st.top = 0;
	return st.top;
}

/* ---- meters ---- */

/* A row of the meters panel: a shown meter (its index in cfg.meters), or an
 * available one (its id), left column's first, then the right's, then the rest. */
struct meter_row {
	bool shown;
	unsigned at; /* shown: index in cfg.meters; else the meter's id */
};

static unsigned meter_rows(const struct ui *ui, struct meter_row *rows)
{
	bool used[UI_METERS_MAX] = {false};
	unsigned n = 0;

	for (unsigned col = 0; col < 2; col++)
		for (unsigned i = 0; i < ui->cfg.nmeters; i++)
			if ((ui->cfg.meters[i].column != 0) == (col != 0)) {
				rows[n++] = (struct meter_row){.shown = true, .at = i};
				used[ui->cfg.meters[i].id] = true;
			}
	for (unsigned id = 0; id < meters_count(); id++)
		if (!used[id])
			rows[n++] = (struct meter_row){.shown = false, .at = id};
	return n;
}

/* Swap shown meter i with the nearest one of its column in direction dir. */
static void meter_swap(struct ui *ui, unsigned i, int dir)
{
	struct ui_meter *m = ui->cfg.meters;

	for (int j = (int)i + dir; j >= 0 && j < (int)ui->cfg.nmeters; j += dir) {
		if ((m[j].column != 0) != (m[i].column != 0))
			continue;
		struct ui_meter t = m[i];

		m[i] = m[j];
		m[j] = t;
		return;
	}
}

/* The row of meter entry index at in the rows after a change, for the selection. */
static void select_meter(struct ui *ui, bool shown, unsigned at)
{
	struct meter_row rows[UI_METERS_MAX * 2];
	unsigned n = meter_rows(ui, rows);

	for (unsigned r = 0; r < n; r++)
		if (rows[r].shown == shown && rows[r].at == at)
			st.sel = (int)r;
}

static unsigned meters_key(struct ui *ui, int key)
{
	struct meter_row rows[UI_METERS_MAX * 2];
	unsigned n = meter_rows(ui, rows);
	struct meter_row r;
	struct ui_meter *m;

	if (st.sel >= (int)n)
		st.sel = n ? (int)n - 1 : 0;
	if (!n)
		return UI_HANDLED;
	r = rows[st.sel];
	m = r.shown ? &ui->cfg.meters[r.at] : NULL;
	switch (key) {
	case ' ':
	case '\r':
	case '\n':
	case KEY_ENTER:
		if (!m) {
			/* an available meter goes to the foot of the left column */
			if (ui->cfg.nmeters == UI_METERS_MAX)
				break;
			ui->cfg.meters[ui->cfg.nmeters] =
			    (struct ui_meter){.id = (unsigned char)r.at,
					      .mode = (unsigned char)meter_default_mode(r.at)};
			select_meter(ui, true, ui->cfg.nmeters++);
			break;
		}
		/* htop's Space: the meter's next mode among those it has */
		for (int k = 1; k <= METER_MODE_COUNT; k++) {
			enum meter_mode next = (enum meter_mode)((m->mode + k) % METER_MODE_COUNT);

			if (meter_has_mode(m->id, next)) {
				m->mode = (unsigned char)next;
				break;
			}
		}
		break;
	case KEY_DC:
	case KEY_BACKSPACE:
	case KEY_F(9):
		if (m) {
			unsigned id = m->id;

			memmove(m, m + 1, (ui->cfg.nmeters - r.at - 1) * sizeof(*m));
			ui->cfg.nmeters--;
			select_meter(ui, false, id);
		}
		break;
	case KEY_LEFT:
	case KEY_RIGHT:
		if (!m) {
			if (key == KEY_LEFT)
				st.in_panel = false;
			break;
		}
		m->column = key == KEY_RIGHT;
		select_meter(ui, true, r.at);
		break;
	case '[':
	case KEY_F(7):
	case ']':
	case KEY_F(8):
		if (m) {
			unsigned char id = m->id;

			meter_swap(ui, r.at, key == '[' || key == KEY_F(7) ? -1 : 1);
			for (unsigned i = 0; i < ui->cfg.nmeters; i++)
				if (ui->cfg.meters[i].id == id)
					select_meter(ui, true, i);
		}
		break;
	default:
		ui_menu_move(ui, key, (int)n);
		st.sel = ui->menu_sel;
		return UI_HANDLED;
	}
	ui->cfg.meters_chosen = true;
	/* a meter shown may need something else read */
	return UI_HANDLED | UI_REFETCH;
}

/* The section a meters panel row is in: its heading. */
static const char *meter_section(const struct ui *ui, const struct meter_row *r)
{
	if (!r->shown)
		return _("Available meters");
	return ui->cfg.meters[r->at].column ? _("Right column") : _("Left column");
}

static void meters_draw_panel(struct ui *ui, int y, int x)
{
	struct meter_row rows[UI_METERS_MAX * 2];
	/* the panel's lines: a heading (-1) before each section, then its rows */
	int lines[UI_METERS_MAX * 2 + 3], nlines = 0, sel_line = 0, top;
	unsigned n = meter_rows(ui, rows);
	const char *section = NULL;

	for (unsigned i = 0; i < n; i++) {
		if (meter_section(ui, &rows[i]) != section) {
			section = meter_section(ui, &rows[i]);
			lines[nlines++] = -1;
		}
		if ((int)i == st.sel)
			sel_line = nlines;
		lines[nlines++] = (int)i;
	}
	/* a section's first row brings its heading with it */
	top = scroll_to(sel_line, nlines, LINES - 1 - y);
	if (top == sel_line && top > 0 && lines[top - 1] < 0)
		top = scroll_to(sel_line - 1, nlines, LINES - 1 - y);
	for (int l = top; l < nlines && y < LINES - 1; l++) {
		const struct meter_row *r;
		const struct ui_meter *m;
		bool sel;

		if (lines[l] < 0) {
			attron(ui_attr(ui, COLOR_TABLE_HEADER, A_REVERSE));
			mvaddnstr(y++, x, meter_section(ui, &rows[lines[l + 1]]), COLS - x);
			attroff(ui_attr(ui, COLOR_TABLE_HEADER, A_REVERSE));
			continue;
		}
		r = &rows[lines[l]];
		m = r->shown ? &ui->cfg.meters[r->at] : NULL;
		sel = st.in_panel && lines[l] == st.sel;
		if (sel)
			attron(ui_attr(ui, COLOR_SELECTED, A_REVERSE));
		if (m)
			mvprintw(y++, x, "  %-12s [%s]", meter_name(m->id),
				 meter_mode_name((enum meter_mode)m->mode));
		else
			mvprintw(y++, x, "  %-12s", meter_name(r->at));
		if (sel)
			attroff(ui_attr(ui, COLOR_SELECTED, A_REVERSE));
	}
}

/* ---- display options ---- */

/* A check box of the display options: its label and the setting it flips. */
struct display_option {
	const char *label;
	size_t off; /* of a bool in struct ui_config */
	unsigned reaction;
	bool screen; /* the shown screen's own (htop's "For current screen tab") */
};

static const struct display_option display_options[] = {
    {.label = N_("Tree view"),
     .off = offsetof(struct ui_config, tree),
     .reaction = UI_REBUILD,
     .screen = true},
    /* taken at start and flipped by *, as htop's */
    {.label = N_("Tree view is collapsed by default"),
     .off = offsetof(struct ui_config, collapsed),
     .screen = true},
    /* htop's, which keeps Tab going through the screens when off */
    {.label = N_("Show tabs for screens"), .off = offsetof(struct ui_config, screen_tabs)},
    {.label = N_("A row per thread (top's H)"),
     .off = offsetof(struct ui_config, threads),
     .reaction = UI_REFETCH},
    {.label = N_("Show a process's threads (htop's H)"),
     .off = offsetof(struct ui_config, user_threads),
     .reaction = UI_REFETCH},
    {.label = N_("Hide kernel threads"),
     .off = offsetof(struct ui_config, hide_kthreads),
     .reaction = UI_REBUILD},
    {.label = N_("Highlight new and old processes"),
     .off = offsetof(struct ui_config, highlight_changes),
     .reaction = UI_REBUILD},
    {.label = N_("Show full command lines"),
     .off = offsetof(struct ui_config, cmdline),
     .reaction = UI_REFETCH},
    {.label = N_("A bar per CPU"), .off = offsetof(struct ui_config, per_cpu)},
};
#define NDISPLAY (sizeof(display_options) / sizeof(display_options[0]))
/* after the check boxes: the update interval, then the memory columns' unit */
#define DISPLAY_DELAY NDISPLAY
#define DISPLAY_UNIT (NDISPLAY + 1)
#define DISPLAY_ROWS (NDISPLAY + 2)

static unsigned display_options_key(struct ui *ui, int key)
{
	bool *b;

	if (key == KEY_LEFT) {
		st.in_panel = false;
		return UI_HANDLED;
	}
	if (ui_menu_move(ui, key, (int)DISPLAY_ROWS)) {
		st.sel = ui->menu_sel;
		return UI_HANDLED;
	}
	if (st.sel == (int)DISPLAY_DELAY) {
		/* htop's Update interval: - and + by a tenth of a second */
		if ((key == '-' || key == ' ') && ui->cfg.delay_s > 0.1 + 1e-9)
			ui->cfg.delay_s -= 0.1;
		else if (key == '+' || key == '\r' || key == KEY_ENTER)
			ui->cfg.delay_s += ui->cfg.delay_s < 86400 ? 0.1 : 0;
		else
			return UI_HANDLED;
		ui->cfg.delay_s = (double)(long)(ui->cfg.delay_s * 10 + 0.5) / 10;
		return UI_HANDLED | UI_REFETCH;
	}
	if (key != ' ' && key != '\r' && key != '\n' && key != KEY_ENTER)
		return UI_HANDLED;
	if (st.sel == (int)DISPLAY_UNIT) {
		ui->cfg.task_unit = (enum mem_unit)((ui->cfg.task_unit + 1) % UNIT_COUNT);
		display_apply(ui);
		return UI_HANDLED;
	}
	b = (bool *)((char *)&ui->cfg + display_options[st.sel].off);
	/* the tree's own order comes with it, as t brings it */
	if (b == &ui->cfg.tree)
		config_tree_set(&ui->cfg, !*b);
	else
		*b = !*b;
	return UI_HANDLED | display_options[st.sel].reaction;
}

/* "[x] Label", and which screen's it is where it is one screen's */
static void display_option_draw(struct ui *ui, int y, int x, const struct display_option *o)
{
	static struct sbuf line; /* kept across frames */
	bool on = *(const bool *)((const char *)&ui->cfg + o->off);

	sbuf_reset(&line);
	if (o->screen)
		/* TRANSLATORS: a display option, then the screen (tab) it is for */
		sbuf_printf(&line, _("[%c] %s (screen %s)"), on ? 'x' : ' ', _(o->label),
			    ui->cfg.tabs[ui->cfg.tab].name);
	else
		sbuf_printf(&line, "[%c] %s", on ? 'x' : ' ', _(o->label));
	/* a long name is cut at the edge, never wrapped onto the next row */
	ui_put(ui, y, x, COLS - x, line.p, line.len);
}

static void display_options_draw(struct ui *ui, int y, int x)
{
	int top = scroll_to(st.sel, (int)DISPLAY_ROWS, LINES - 1 - y);

	for (int i = top; i < (int)DISPLAY_ROWS && y < LINES - 1; i++, y++) {
		bool sel = st.in_panel && i == st.sel;

		if (sel)
			attron(ui_attr(ui, COLOR_SELECTED, A_REVERSE));
		if (i == (int)DISPLAY_DELAY)
			mvprintw(y, x, "[%5.1f] %s", ui->cfg.delay_s,
				 _("Update interval (in seconds)"));
		else if (i == (int)DISPLAY_UNIT)
			mvprintw(y, x, "[%5s] %s", mem_unit_name(ui->cfg.task_unit),
				 _("Memory columns from this unit up"));
		else
			display_option_draw(ui, y, x, &display_options[i]);
		if (sel)
			attroff(ui_attr(ui, COLOR_SELECTED, A_REVERSE));
	}
}

/* ---- colours ---- */

static const char *const scheme_names[] = {
    [UI_SCHEME_DEFAULT] = N_("Default"),
    [UI_SCHEME_MONOCHROME] = N_("Monochrome"),
    [UI_SCHEME_LIGHT] = N_("Light terminal"),
};
_Static_assert(sizeof(scheme_names) / sizeof(scheme_names[0]) == UI_SCHEMES,
	       "a name for each scheme");

static enum ui_scheme scheme_of(const struct ui_config *c)
{
	return c->color ? c->scheme : UI_SCHEME_MONOCHROME;
}

static unsigned colors_key(struct ui *ui, int key)
{
	if (key == KEY_LEFT) {
		st.in_panel = false;
		return UI_HANDLED;
	}
	if (ui_menu_move(ui, key, UI_SCHEMES)) {
		st.sel = ui->menu_sel;
		return UI_HANDLED;
	}
	if (key != ' ' && key != '\r' && key != '\n' && key != KEY_ENTER)
		return UI_HANDLED;
	ui->cfg.color = st.sel != UI_SCHEME_MONOCHROME;
	if (ui->cfg.color)
		ui->cfg.scheme = (enum ui_scheme)st.sel;
	crt_set_color(ui, ui->cfg.color);
	return UI_HANDLED;
}

static void colors_draw_panel(struct ui *ui, int y, int x)
{
	int top = scroll_to(st.sel, UI_SCHEMES, LINES - 1 - y);

	for (int i = top; i < UI_SCHEMES && y < LINES - 1; i++, y++) {
		bool sel = st.in_panel && i == st.sel;

		if (sel)
			attron(ui_attr(ui, COLOR_SELECTED, A_REVERSE));
		mvprintw(y, x, "(%c) %s", scheme_of(&ui->cfg) == (enum ui_scheme)i ? '*' : ' ',
			 _(scheme_names[i]));
		if (sel)
			attroff(ui_attr(ui, COLOR_SELECTED, A_REVERSE));
	}
}

/* ---- the Processes pane's screens ---- */

static unsigned tab_name_done(struct ui *ui, const char *text)
{
	char name[UI_TEXT_MAX];
	const char *why;
	size_t n;

	/* spaces around a name would not come back from ptoprc */
	while (*text == ' ')
		text++;
	n = strlen(text);
	while (n && text[n - 1] == ' ')
		n--;
	snprintf(name, sizeof(name), "%.*s", (int)n, text);
	why = config_tab_name_check(name);
	if (why) {
		ui_status(ui, "%s", _(why));
		return UI_HANDLED;
	}
	memcpy(ui->cfg.tabs[ui->cfg.tab].name, name, strlen(name) + 1); /* checked: it fits */
	return UI_HANDLED;
}

static const struct ui_prompt tab_name_prompt = {
    .label = N_("Screen name: "),
    .done = tab_name_done,
};

/* htop's Screens panel: the selection is the screen shown, which Columns edits. */
static unsigned screens_key(struct ui *ui, int key)
{
	struct ui_config *c = &ui->cfg;
	unsigned i = c->tab;

	if (st.moving && (key == KEY_UP || key == KEY_DOWN))
		key = key == KEY_UP ? '[' : ']';
	switch (key) {
	case KEY_LEFT:
		st.in_panel = st.moving = false;
		return UI_HANDLED;
	case '\r':
	case '\n':
	case KEY_ENTER:
		/* htop's: Enter picks the screen up, and puts it down */
		st.moving = !st.moving;
		return UI_HANDLED;
	case KEY_F(2):
	case KEY_CTRL('R'):
		ui_prompt(ui, &tab_name_prompt, c->tabs[i].name);
		return UI_HANDLED;
	case KEY_F(5):
	case KEY_IC:
	case KEY_CTRL('N'):
		/* after the selected one, named at once, as htop's New */
		if (config_tab_add(c, i + 1)) {
			ui_status(ui, _("At most %d screens"), UI_TABS_MAX);
			return UI_HANDLED;
		}
		config_tab_show(c, i + 1);
		ui_prompt(ui, &tab_name_prompt, c->tabs[i + 1].name);
		break;
	case KEY_F(9):
	case KEY_DC:
		if (config_tab_remove(c, i)) {
			ui_status(ui, _("The last screen stays"));
			return UI_HANDLED;
		}
		break;
	case '[':
	case '-':
	case KEY_F(7):
	case ']':
	case '+':
	case KEY_F(8):
		config_tab_move(c, i, key == '[' || key == '-' || key == KEY_F(7) ? -1 : 1);
		return UI_HANDLED;
	default:
		ui->menu_sel = (int)i;
		if (!ui_menu_move(ui, key, (int)c->ntabs) || ui->menu_sel == (int)i)
			return UI_HANDLED;
		config_tab_show(c, (unsigned)ui->menu_sel);
		break;
	}
	st.sel = (int)c->tab;
	return UI_HANDLED | UI_REBUILD | UI_REFETCH;
}

/* Each screen: (*) on the one shown, its name, its columns. */
static void screens_draw_panel(struct ui *ui, int y, int x)
{
	static struct sbuf line; /* kept across frames */
	const struct ui_config *c = &ui->cfg;
	int top = scroll_to((int)c->tab, (int)c->ntabs, LINES - 1 - y);

	for (int i = top; i < (int)c->ntabs && y < LINES - 1; i++, y++) {
		const struct ui_tab *t = &c->tabs[i];
		bool shown = i == (int)c->tab;
		const enum field_id *cols = shown ? c->columns : t->columns;
		size_t n = shown ? c->ncolumns : t->ncolumns;

		sbuf_reset(&line);
		sbuf_printf(&line, "(%c) %-*s ", shown ? '*' : ' ', UI_TAB_NAME_MAX, t->name);
		for (size_t k = 0; k < n; k++)
			sbuf_printf(&line, " %s", field_defs[cols[k]].name);
		/* picked up: htop's colour of a panel item that follows the keys */
		attr_t a = st.moving ? ui_attr(ui, COLOR_TAGGED, A_BOLD) | A_REVERSE
				     : ui_attr(ui, COLOR_SELECTED, A_REVERSE);

		if (st.in_panel && shown)
			attron(a);
		ui_put(ui, y, x, COLS - x, line.p, line.len);
		if (st.in_panel && shown)
			attroff(a);
	}
}

/* ---- the screen ---- */

static unsigned setup_key(struct ui *ui, int key)
{
	unsigned r;

	/* F2 renames in the Screens panel, as in htop's; elsewhere it closes Setup */
	bool renames = key == KEY_F(2) && st.in_panel && st.category == SETUP_SCREENS;

	if (key == KEY_ESC || key == KEY_F(10) || key == 'q' || (key == KEY_F(2) && !renames)) {
		screen_pop(ui);
		return UI_HANDLED | UI_REBUILD;
	}
	if (key == '\t' || key == KEY_BTAB) {
		st.in_panel = !st.in_panel;
		st.moving = false;
		ui->menu_sel = st.in_panel ? st.sel : (int)st.category;
		return UI_HANDLED;
	}
	if (!st.in_panel) {
		/* the column chooser, closed, left its own selection there */
		ui->menu_sel = (int)st.category;
		if (ui_menu_move(ui, key, SETUP_CATEGORIES)) {
			if ((int)st.category != ui->menu_sel)
				st.sel = st.top = 0;
			st.category = (enum setup_category)ui->menu_sel;
			return UI_HANDLED;
		}
		if (key != KEY_RIGHT && key != '\r' && key != '\n' && key != KEY_ENTER)
			return UI_HANDLED;
		if (st.category == SETUP_COLUMNS) {
			/* today's chooser, on top of Setup; its keys until it closes */
			menus_open_columns(ui);
			return UI_HANDLED;
		}
		st.in_panel = true;
		ui->menu_sel = st.sel;
		return UI_HANDLED;
	}
	ui->menu_sel = st.sel;
	/* a page is what the panel shows; other menus keep their own */
	ui->menu_page = st.rows;
	switch (st.category) {
	case SETUP_METERS:
		r = meters_key(ui, key);
		break;
	case SETUP_DISPLAY:
		r = display_options_key(ui, key);
		break;
	case SETUP_COLORS:
		r = colors_key(ui, key);
		break;
	case SETUP_SCREENS:
		r = screens_key(ui, key);
		break;
	default:
		st.in_panel = false;
		r = UI_HANDLED;
		break;
	}
	ui->menu_page = 0;
	return r;
}

static void setup_draw(struct ui *ui)
{
	int y, x = 20;

	/* the header as it now is, as htop's Setup shows it */
	y = ui->have_frame ? meters_draw(ui, LINES / 3) : 0;
	attron(ui_attr(ui, COLOR_TABLE_HEADER, A_REVERSE));
	mvprintw(y, 0, "%-*s", x - 1, _("Setup"));
	attroff(ui_attr(ui, COLOR_TABLE_HEADER, A_REVERSE));
	for (int i = 0; i < SETUP_CATEGORIES && y + 1 + i < LINES - 1; i++) {
		bool sel = i == (int)st.category;

		if (sel)
			attron(st.in_panel ? A_BOLD : ui_attr(ui, COLOR_SELECTED, A_REVERSE));
		mvaddnstr(y + 1 + i, 0, _(category_names[i]), x - 1);
		if (sel)
			attroff(st.in_panel ? A_BOLD : ui_attr(ui, COLOR_SELECTED, A_REVERSE));
	}
	switch (st.category) {
	case SETUP_METERS:
		meters_draw_panel(ui, y, x);
		break;
	case SETUP_DISPLAY:
		display_options_draw(ui, y + 1, x);
		break;
	case SETUP_COLORS:
		colors_draw_panel(ui, y + 1, x);
		break;
	case SETUP_SCREENS:
		screens_draw_panel(ui, y + 1, x);
		break;
	default:
		mvaddnstr(y + 1, x, _("Enter: choose and order the columns"), COLS - x);
		break;
	}
	if (st.category == SETUP_SCREENS && st.moving)
		mvaddnstr(LINES - 1, 0,
			  _("Up/Down: move the screen  Enter: put it down  Esc/F10: done"), COLS);
	else if (st.category == SETUP_SCREENS)
		mvaddnstr(
		    LINES - 1, 0,
		    _("Tab: panel  F2: rename  F5/Ins: new  F9/Del: remove  Enter, [ ]: move  "
		      "Esc/F10: done"),
		    COLS);
	else
		mvaddnstr(LINES - 1, 0,
			  _("Tab/Enter: panel  Space: toggle, mode  Left/Right: column  [ ]: move  "
			    "Del: remove  Esc/F10: done"),
			  COLS);
}

/* Setup closed, or ptop quits with it open: ptoprc keeps what it changed. */
static void setup_closed(struct ui *ui)
{
	ui_write_config(ui);
}

static const struct ui_screen setup_screen = {
    .key = setup_key, .draw = setup_draw, .full = true, .closed = setup_closed};

void setup_open(struct ui *ui)
{
	st.in_panel = st.moving = false;
	st.sel = st.top = 0;
	ui->menu_sel = (int)st.category;
	screen_push(ui, &setup_screen);
}
