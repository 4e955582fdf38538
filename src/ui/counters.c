// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * counters.c: the Counters pane: the same processes, order and selection as
 * the Processes pane, with their counters (one group per process, attached
 * only while a pane shows them, under the budget), what is derived from
 * them (IPC, misses per thousand instructions, CPU share), and what it costs
 * ptop to observe: its own counters, read with rdpmc where the kernel allows.
 * The rows are a screen of the field table's columns (ctr1.., ipc, scale...)
 * drawn by table.c as the Processes pane's are, headed by the events' names;
 * they sort by the same fields.
 */
#include <stdio.h>
#include <string.h>

#include "ptop/output.h"
#include "tui.h"

/* Headings for the long kernel names, so that none is cut mid-word. */
static const struct {
	const char *event, *heading;
} short_names[] = {
    {"context-switches", "ctx-sw"},	 {"cpu-migrations", "migrations"},
    {"page-faults", "faults"},		 {"major-faults", "maj-faults"},
    {"minor-faults", "min-faults"},	 {"instructions", "instr"},
    {"branch-instructions", "branches"}, {"branch-misses", "br-miss"},
    {"cache-references", "cache-refs"},	 {"cache-misses", "cache-miss"},
};

static bool has_event(const struct frame_counters *c, const char *name)
{
	for (int e = 0; e < c->nevents; e++)
		if (!strcmp(c->names[e], name))
			return true;
	return false;
}

/*
 * The pane's screen this frame, into out (room for UI_MAX_COLUMNS): PID, a
 * column per event counted, the figures its events allow (one whose events
 * are not counted is no column of '-'), SCALE and COMMAND. Returns how many.
 */
static size_t counters_columns(const struct ui *ui, enum field_id *out)
{
	const struct frame_counters *c = &ui->frame.counters;
	size_t n = 0;

	out[n++] = FIELD_PID;
	for (int e = 0; e < c->nevents && field_ctr(e) >= 0; e++)
		out[n++] = (enum field_id)field_ctr(e);
	if (has_event(c, "cycles") && has_event(c, "instructions"))
		out[n++] = FIELD_IPC;
	if (has_event(c, "cache-misses") && has_event(c, "instructions"))
		out[n++] = FIELD_CMPKI;
	if (has_event(c, "branch-misses") && has_event(c, "instructions"))
		out[n++] = FIELD_BMPKI;
	if (has_event(c, "task-clock"))
		out[n++] = FIELD_CTRCPU;
	out[n++] = FIELD_SCALE;
	out[n++] = FIELD_COMMAND;
	return n;
}

/* A counter column's heading: its event's short name, a software event marked with '~'. */
static const char *counters_title(const struct ui *ui, enum field_id id)
{
	static char head[FRAME_MAX_EVENTS][40];
	const struct frame_counters *c = &ui->frame.counters;

	for (int e = 0; e < c->nevents; e++) {
		const char *h = c->names[e];

		if ((int)id != field_ctr(e))
			continue;
		for (size_t k = 0; k < sizeof(short_names) / sizeof(short_names[0]); k++)
			if (!strcmp(h, short_names[k].event))
				h = short_names[k].heading;
		/* a software event is marked: there is no hardware behind it */
		snprintf(head[e], sizeof(head[e]), "%s%s", c->software & (1u << e) ? "~" : "", h);
		return head[e];
	}
	return NULL;
}

/* The pane's screen: its columns (counters_columns() into cols) and headings. */
static struct table_screen counters_screen(const struct ui *ui, enum field_id *cols)
{
	return (struct table_screen){
	    .columns = cols, .ncolumns = counters_columns(ui, cols), .title = counters_title};
}

/* The pane's first line: the counters' notes (ctr_notes()), the source in bold. */
static void counters_notes_draw(struct ui *ui, int y)
{
	const struct frame_counters *c = &ui->frame.counters;
	struct ctr_note notes[CTR_NOTES_MAX];
	size_t n = ctr_notes(c, true, notes);

	attron(ui_attr(ui, COLOR_LABEL, A_BOLD));
	mvprintw(y, 0, _("counters: %s"), notes[0].text);
	attroff(ui_attr(ui, COLOR_LABEL, A_BOLD));
	/* the heading's mark, which only the pane has */
	if (!c->hardware)
		printw(_(" (~ marks software events)"));
	for (size_t i = 1; i < n; i++)
		printw(i == 1 ? "  %s" : "; %s", notes[i].text);
}

static void counters_draw(struct ui *ui, int y, int h)
{
	const struct frame_counters *c = &ui->frame.counters;
	enum field_id cols[UI_MAX_COLUMNS];
	struct table_screen screen;

	if (h < 4)
		return;
	if (picker_is_open()) {
		picker_draw(ui, y, h);
		return;
	}
	move(y, 0);
	clrtoeol();
	/* the pane's own keys, on its last line */
	h--;
	attron(A_BOLD);
	mvaddnstr(y + h, 0, _("E: choose events  F6, < >, a click: sort  W: save"), COLS);
	attroff(A_BOLD);
	if (ui->ob_error) {
		const char *bad = picker_unknown(ui);

		attron(ui_attr(ui, COLOR_STATUS, A_BOLD));
		if (bad && !ui->opts->events)
			mvprintw(y, 0,
				 _("counters: unknown event '%s' in ptoprc's counters line; E "
				   "chooses others"),
				 bad);
		else
			mvprintw(y, 0, _("counters: %s"), _(ui->ob_error));
		attroff(ui_attr(ui, COLOR_STATUS, A_BOLD));
		return;
	}
	counters_notes_draw(ui, y);
	y++;
	move(y, 0);
	clrtoeol();
	printw(_("ptop's own frame (%s):"), c->self_rdpmc ? "rdpmc" : _("read(), no rdpmc"));
	for (int e = 0; e < c->nevents; e++)
		printw(" %s %.0f", c->names[e], c->self_ctr[e]);
	y++;
	screen = counters_screen(ui, cols);
	table_draw(ui, y, h - 2, &screen);
}

/* The columns this pane sorts by: its own, in their order on screen. */
static size_t counters_sort_columns(struct ui *ui, enum field_id *out, size_t max)
{
	enum field_id cols[UI_MAX_COLUMNS];
	size_t n = counters_columns(ui, cols);

	if (n > max)
		n = max;
	memcpy(out, cols, n * sizeof(*out));
	return n;
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

/* < and > move along this pane's columns, not the Processes pane's. */
static void sort_step(struct ui *ui, int dir)
{
	enum field_id cols[UI_MAX_COLUMNS];
	size_t n = counters_sort_columns(ui, cols, UI_MAX_COLUMNS), at = 0;

	for (size_t c = 0; c < n; c++)
		if (cols[c] == ui->cfg.order.field)
			at = c;
	if (dir < 0 && at > 0)
		at--;
	else if (dir > 0 && at + 1 < n)
		at++;
	ui->cfg.order = (struct row_order){.field = cols[at]};
	ui_status(ui, _("Sorted by %s"), field_title(&ui->frame, &ui->view, cols[at]));
}

static unsigned counters_key(struct ui *ui, enum ui_action act, int key)
{
	switch (act) {
	case ACT_SUMMARY_UNITS: /* E: on this pane, the events to count, not top's units */
		picker_open(ui);
		return UI_HANDLED;
	case ACT_SORT_PREV:
		sort_step(ui, -1);
		return UI_HANDLED | UI_REBUILD;
	case ACT_SORT_NEXT:
		sort_step(ui, 1);
		return UI_HANDLED | UI_REBUILD;
	default:
		/* selection, other sorts and filtering are the Processes pane's */
		return pane_processes.key(ui, act, key);
	}
}

static unsigned counters_click(struct ui *ui, int y, int x)
{
	enum field_id cols[UI_MAX_COLUMNS];
	struct table_screen screen;
	int id;

	if (picker_is_open())
		return UI_HANDLED;
	if (y != ui->table_y - 1)
		return pane_processes.click(ui, y, x);
	/* a click on a heading sorts by that column, as on the Processes pane */
	screen = counters_screen(ui, cols);
	id = table_screen_column_at(ui, &screen, x);
	if (id >= 0) {
		sort_by(ui, (enum field_id)id);
		return UI_HANDLED | UI_REBUILD;
	}
	return UI_HANDLED;
}

const struct pane_def pane_counters = {
    .name = N_("Counters"),
    .config_name = "counters",
    .hotkey = '2',
    .key_help = N_("Counters pane (F6, < >, a click on a heading: sort by a counter)"),
    .draw = counters_draw,
    .key = counters_key,
    .click = counters_click,
    .columns = counters_columns,
    .sort_columns = counters_sort_columns,
    .shutdown = picker_shutdown,
};
