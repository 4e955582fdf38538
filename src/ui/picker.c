// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * picker.c: the Counters pane's event picker (E). A scrollable list of the
 * events this machine can count (perf_event_list: the software events, and
 * libpfm4's for the CPU PMU sysfs shows), the chosen ones ticked, at most
 * the pane's PERF_GROUP_MAX columns. Closing it counts the chosen events from
 * the next frame (pipeline_counters_set) and keeps them in the settings, so
 * that W saves them as ptoprc's "counters =". It draws over the pane and takes
 * every key while open; the list is read when it opens, not per frame.
 * libpfm4 lists hundreds of events: typing (or / first) narrows the list to
 * those whose name or description contains the text, in any case, as htop's
 * IncSet filters its panels; Esc clears it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tui.h"

struct pick_item {
	char *name, *desc;
	bool hardware;
};

static struct {
	bool open;
	bool pmu; /* sysfs lists a CPU PMU */
	struct pick_item *items;
	size_t n, cap;
	char chosen[PERF_GROUP_MAX][PERF_NAME_MAX];
	int nchosen;
	bool changed;
	size_t *shown; /* the items the filter lets through, in list order */
	size_t nshown;
	char filter[64];
	size_t filter_len;
	bool typing;  /* keys go to the filter until Enter or Esc */
	int sel, top; /* in shown[] */
	int rows;     /* list rows on screen at the last draw: PgUp/PgDn's step */
} pk;

static int add_item(void *ctx, const struct perf_event_desc *d)
{
	(void)ctx;
	if (pk.n == pk.cap) {
		pk.cap = pk.cap ? pk.cap * 2 : 64;
		pk.items = xreallocarray(pk.items, pk.cap, sizeof(*pk.items));
	}
	pk.items[pk.n].name = xstrdup(d->name);
	pk.items[pk.n].desc = xstrdup(d->desc);
	pk.items[pk.n].hardware = d->hardware;
	pk.n++;
	return 0;
}

static int chosen_at(const char *name)
{
	for (int i = 0; i < pk.nchosen; i++)
		if (!strcmp(pk.chosen[i], name))
			return i;
	return -1;
}

static void add_chosen(const char *name)
{
	if (pk.nchosen < PERF_GROUP_MAX && chosen_at(name) < 0 && strlen(name) < PERF_NAME_MAX)
		strcpy(pk.chosen[pk.nchosen++], name);
}

bool picker_is_open(void)
{
	return pk.open;
}

static bool item_matches(const struct pick_item *it)
{
	return text_contains(it->name, strlen(it->name), pk.filter, true) ||
	       text_contains(it->desc, strlen(it->desc), pk.filter, true) ||
	       (*it->desc && text_contains(_(it->desc), strlen(_(it->desc)), pk.filter, true));
}

/* shown[] after the filter changed: the selected event stays selected while it is shown. */
static void refilter(void)
{
	size_t was = pk.nshown ? pk.shown[pk.sel] : (size_t)-1;

	pk.shown = xreallocarray(pk.shown, pk.n ? pk.n : 1, sizeof(*pk.shown));
	pk.nshown = 0;
	pk.sel = 0;
	for (size_t i = 0; i < pk.n; i++) {
		if (pk.filter_len && !item_matches(&pk.items[i]))
			continue;
		if (i == was)
			pk.sel = (int)pk.nshown;
		pk.shown[pk.nshown++] = i;
	}
	pk.top = 0;
}

static void picker_closed(struct ui *ui);
static unsigned picker_screen_key(struct ui *ui, int key);

/* Drawn by the Counters pane, over its rows: picker_draw(). */
static const struct ui_screen picker_screen = {.key = picker_screen_key, .closed = picker_closed};

void picker_open(struct ui *ui)
{
	const struct frame_counters *fc = &ui->frame.counters;
	bool pmu = false;

	memset(&pk, 0, sizeof(pk));
	pk.open = true;
	perf_event_list(add_item, NULL, &pmu);
	pk.pmu = pmu;
	/* ticked: what is counted now, else what the settings will count */
	if (fc->nevents)
		for (int e = 0; e < fc->nevents; e++)
			add_chosen(fc->names[e]);
	else
		for (int e = 0; e < ui->cfg.ncounters; e++)
			add_chosen(ui->cfg.counters[e]);
	/* a chosen name the list spells otherwise (from --counters) is listed too */
	for (int i = 0; i < pk.nchosen; i++) {
		size_t k = 0;

		while (k < pk.n && strcmp(pk.items[k].name, pk.chosen[i]))
			k++;
		if (k == pk.n)
			add_item(NULL, &(struct perf_event_desc){.name = pk.chosen[i], .desc = ""});
	}
	refilter();
	screen_push(ui, &picker_screen);
}

/* Close, forgetting the list. */
static void close_picker(void)
{
	for (size_t i = 0; i < pk.n; i++) {
		free(pk.items[i].name);
		free(pk.items[i].desc);
	}
	free(pk.items);
	free(pk.shown);
	memset(&pk, 0, sizeof(pk));
}

static void picker_closed(struct ui *ui)
{
	(void)ui;
	close_picker();
}

void picker_shutdown(struct ui *ui)
{
	(void)ui;
	close_picker();
}

/* Count the chosen events from the next frame, and keep them for W. */
static unsigned apply(struct ui *ui)
{
	const char *names[PERF_GROUP_MAX], *bad = NULL;
	int err;

	if (!pk.changed)
		return UI_HANDLED;
	if (!pk.nchosen) {
		ui_status(ui, _("No event chosen: the counters stay as they were"));
		return UI_HANDLED;
	}
	for (int i = 0; i < pk.nchosen; i++)
		names[i] = pk.chosen[i];
	err = pipeline_counters_set(ui->pipe, names, pk.nchosen, &bad);
	if (err == -ENOENT) {
		ui_status(ui, _("Unknown event '%s': the counters stay as they were"),
			  bad ? bad : "?");
		return UI_HANDLED;
	}
	if (err) {
		ui_status(ui, _("Cannot count those events: %s"), strerror(-err));
		return UI_HANDLED;
	}
	memcpy(ui->cfg.counters, pk.chosen, sizeof(pk.chosen));
	ui->cfg.ncounters = pk.nchosen;
	ui->ob_error = NULL;
	{
		char list[PERF_GROUP_MAX * PERF_NAME_MAX] = "";

		for (int i = 0; i < pk.nchosen; i++) {
			strcat(list, i ? "," : "");
			strcat(list, pk.chosen[i]);
		}
		ui_status(ui, _("Counting from the next frame: %s (W saves them)"), list);
	}
	return UI_HANDLED | UI_REFETCH;
}

static void toggle(struct ui *ui)
{
	const char *name;
	int at;

	if (!pk.nshown)
		return;
	name = pk.items[pk.shown[pk.sel]].name;
	at = chosen_at(name);
	if (at >= 0) {
		memmove(pk.chosen[at], pk.chosen[at + 1],
			(size_t)(pk.nchosen - at - 1) * sizeof(pk.chosen[0]));
		pk.nchosen--;
	} else if (pk.nchosen == PERF_GROUP_MAX) {
		ui_status(ui, _("At most %d events (ctr1..ctr%d): untick one first"),
			  PERF_GROUP_MAX, PERF_GROUP_MAX);
		return;
	} else {
		add_chosen(name);
	}
	pk.changed = true;
}

static void move_sel(int key, enum ui_action act)
{
	int n = (int)pk.nshown, step = pk.rows > 1 ? pk.rows - 1 : 1;

	if (key == KEY_UP || act == ACT_UP)
		pk.sel--;
	else if (key == KEY_DOWN || act == ACT_DOWN)
		pk.sel++;
	else if (key == KEY_PPAGE)
		pk.sel -= step;
	else if (key == KEY_NPAGE)
		pk.sel += step;
	else if (key == KEY_HOME)
		pk.sel = 0;
	else if (key == KEY_END)
		pk.sel = n - 1;
	if (pk.sel >= n)
		pk.sel = n - 1;
	if (pk.sel < 0)
		pk.sel = 0;
}

/* A key while the filter is typed: true when it was the filter's. */
static bool typed_key(int key)
{
	if (key == KEY_ESC) {
		pk.filter_len = 0;
		pk.filter[0] = '\0';
		pk.typing = false;
	} else if (key == '\r' || key == '\n' || key == KEY_ENTER) {
		pk.typing = false; /* the list stays filtered */
		return true;
	} else if (key == KEY_BACKSPACE || key == KEY_DEL || key == KEY_CTRL('h')) {
		if (pk.filter_len)
			pk.filter[--pk.filter_len] = '\0';
	} else if (key > ' ' && key < 127 && pk.filter_len + 1 < sizeof(pk.filter)) {
		pk.filter[pk.filter_len++] = (char)key;
		pk.filter[pk.filter_len] = '\0';
	} else {
		return false;
	}
	refilter();
	return true;
}

static unsigned picker_key(struct ui *ui, enum ui_action act, int key)
{
	unsigned r;

	if (pk.typing && typed_key(key))
		return UI_HANDLED;
	/* / starts the filter, as does any other printable key that is no command */
	if (!pk.typing && key > ' ' && key < 127 && key != 'E' && key != 'q') {
		pk.typing = true;
		if (key != '/')
			typed_key(key);
		return UI_HANDLED;
	}
	switch (key) {
	case ' ':
	case '\r':
	case '\n':
	case KEY_ENTER:
		toggle(ui);
		return UI_HANDLED;
	case KEY_ESC:
		if (pk.filter_len) {
			typed_key(key); /* the first Esc clears a kept filter */
			return UI_HANDLED;
		}
		/* fall through */
	case 'E':
	case 'q':
	case KEY_F(10):
		r = apply(ui);
		screen_pop(ui);
		return r;
	default:
		/* every other key is the picker's while it is open: nothing behind it acts */
		move_sel(key, act);
		return UI_HANDLED;
	}
}

/* Row r of the list as it is filtered. */
static void draw_item(struct ui *ui, int y, int r)
{
	const struct pick_item *it = &pk.items[pk.shown[r]];
	int at = chosen_at(it->name), x;
	char mark[16];

	if (r == pk.sel)
		attron(ui_attr(ui, COLOR_SELECTED, A_REVERSE));
	mvhline(y, 0, ' ', COLS);
	/* the column it will be: ctrN, as batch output and --fields name it */
	if (at >= 0)
		snprintf(mark, sizeof(mark), "[ctr%d]", at + 1);
	else
		snprintf(mark, sizeof(mark), "[    ]");
	mvaddstr(y, 1, mark);
	x = 9;
	ui_put(ui, y, x, COLS - x, it->name, strlen(it->name));
	x = x + 34 < COLS ? x + 34 : COLS;
	if (*it->desc && x < COLS - 4)
		ui_put(ui, y, x, COLS - x, _(it->desc), strlen(_(it->desc)));
	if (r == pk.sel)
		attroff(ui_attr(ui, COLOR_SELECTED, A_REVERSE));
}

/* The title, the PMU found, the chosen events as --counters= takes them. */
static int draw_head(struct ui *ui, int y)
{
	attron(ui_attr(ui, COLOR_LABEL, A_BOLD));
	mvaddnstr(y++, 0,
		  _("Choose events: Space or Enter ticks, E or Esc closes and counts them (at "
		    "most 8)"),
		  COLS);
	attroff(ui_attr(ui, COLOR_LABEL, A_BOLD));
	move(y, 0);
	if (pk.pmu)
		addnstr(_("hardware PMU found: perf's events, then libpfm4's as PMU::EVENT"), COLS);
	else
		addnstr(_("no hardware PMU: software events only"), COLS);
	move(++y, 0);
	printw("--counters=");
	for (int i = 0; i < pk.nchosen && getcurx(stdscr) < COLS - 1; i++)
		printw("%s%s", i ? "," : "", pk.chosen[i]);
	move(++y, 0);
	if (!pk.typing && !pk.filter_len) {
		addnstr(_("Type or / to filter the list"), COLS);
		return y + 1;
	}
	attron(ui_attr(ui, COLOR_LABEL, A_BOLD));
	addnstr(_("Filter: "), COLS);
	attroff(ui_attr(ui, COLOR_LABEL, A_BOLD));
	ui_put(ui, y, getcurx(stdscr), COLS - getcurx(stdscr), pk.filter, pk.filter_len);
	if (pk.typing)
		addch('_');
	if (getcurx(stdscr) < COLS - 1)
		printw("  ");
	if (getcurx(stdscr) < COLS - 1)
		printw(_("%zu of %zu events; Esc clears"), pk.nshown, pk.n);
	return y + 1;
}

void picker_draw(struct ui *ui, int y, int h)
{
	int end = y + h, rows;

	for (int r = y; r < end; r++) {
		move(r, 0);
		clrtoeol();
	}
	y = draw_head(ui, y);
	rows = end - y;
	if (rows < 1)
		return;
	pk.rows = rows;
	if (pk.sel < pk.top)
		pk.top = pk.sel;
	if (pk.sel >= pk.top + rows)
		pk.top = pk.sel - rows + 1;
	if (!pk.nshown)
		mvaddnstr(y, 1, _("(no event matches)"), COLS - 1);
	for (int r = 0; r < rows && (size_t)(pk.top + r) < pk.nshown; r++)
		draw_item(ui, y + r, pk.top + r);
}

const char *picker_unknown(const struct ui *ui)
{
	struct perf_event_spec ev;

	for (int i = 0; i < ui->cfg.ncounters; i++)
		if (perf_event_resolve(ui->cfg.counters[i], &ev) == -ENOENT)
			return ui->cfg.counters[i];
	return NULL;
}

static unsigned picker_screen_key(struct ui *ui, int key)
{
	return picker_key(ui, keymap_lookup(key, ui->cfg.keys), key);
}
