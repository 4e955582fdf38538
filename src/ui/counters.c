// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * counters.c: the Counters pane: the same processes, order and selection as
 * the Processes pane, with their counters (one group per process, attached
 * only while this pane shows them, under the budget), what is derived from
 * them (IPC, misses per thousand instructions, CPU share), and what it costs
 * ptop to observe: its own counters, read with rdpmc where the kernel allows.
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

#define CTR_MIN_W 8 /* "12345.6M" */
#define DERIVED_W 6

enum derived { D_IPC, D_CKI, D_BKI, D_CPU, D_COUNT };

/* The pane's columns this frame: which events fit, how wide, which figures can be derived. */
struct ctr_layout {
	int nevents;
	char head[FRAME_MAX_EVENTS][40];
	int w[FRAME_MAX_EVENTS];
	bool derived[D_COUNT];
	int derived_x; /* where the derived figures start */
	int scale_x;   /* where SCALE starts, or past COLS */
};

static bool has_event(const struct frame_counters *c, const char *name)
{
	for (int e = 0; e < c->nevents; e++)
		if (!strcmp(c->names[e], name))
			return true;
	return false;
}

static void layout(struct ui *ui, struct ctr_layout *L)
{
	const struct frame_counters *c = &ui->frame.counters;
	int x = 8;

	memset(L, 0, sizeof(*L));
	for (int e = 0; e < c->nevents; e++) {
		const char *h = c->names[e];
		int w;

		for (size_t k = 0; k < sizeof(short_names) / sizeof(short_names[0]); k++)
			if (!strcmp(h, short_names[k].event))
				h = short_names[k].heading;
		/* a software event is marked: there is no hardware behind it */
		snprintf(L->head[e], sizeof(L->head[e]), "%s%s", c->software & (1u << e) ? "~" : "",
			 h);
		w = (int)strlen(L->head[e]);
		L->w[e] = w < CTR_MIN_W ? CTR_MIN_W : w;
		if (x + L->w[e] + 1 >= COLS)
			break;
		x += L->w[e] + 1;
		L->nevents = e + 1;
	}
	/* a figure whose events are not counted is no column of '-' */
	L->derived[D_IPC] = has_event(c, "cycles") && has_event(c, "instructions");
	L->derived[D_CKI] = has_event(c, "cache-misses") && has_event(c, "instructions");
	L->derived[D_BKI] = has_event(c, "branch-misses") && has_event(c, "instructions");
	L->derived[D_CPU] = has_event(c, "task-clock");
	L->derived_x = x;
	for (int d = 0; d < D_COUNT; d++)
		x += L->derived[d] ? DERIVED_W + 1 : 0;
	L->scale_x = x;
}

static void counters_heading(struct ui *ui, int y)
{
	static const char *const titles[D_COUNT] = {"IPC", "C/KI", "B/KI", "CPU%"};
	struct ctr_layout L;
	int x = 8;

	layout(ui, &L);
	mvprintw(y, 0, "%7s ", "PID");
	for (int e = 0; e < L.nevents; e++) {
		bool sorted = ui->cfg.order.field == (enum field_id)field_ctr(e);

		if (sorted)
			attron(A_BOLD | A_UNDERLINE);
		mvprintw(y, x, "%*s", L.w[e], L.head[e]);
		if (sorted)
			attroff(A_BOLD | A_UNDERLINE);
		x += L.w[e] + 1;
	}
	for (int d = 0; d < D_COUNT; d++) {
		if (!L.derived[d] || x + DERIVED_W >= COLS)
			continue;
		mvprintw(y, x, "%*s", DERIVED_W, titles[d]);
		x += DERIVED_W + 1;
	}
	if (L.scale_x + 6 < COLS)
		mvprintw(y, L.scale_x, "%5s %s", "SCALE", "COMMAND");
}

static void fig(double v, int w, int dec)
{
	if (v < 0)
		printw("%*s ", w, "-");
	else
		printw("%*.*f ", w, dec, v);
}

/* Columns of a UTF-8 string of one-column characters: its non-continuation bytes. */
static int text_cols(const char *t)
{
	int n = 0;

	for (; *t; t++)
		n += ((unsigned char)*t & 0xc0) != 0x80;
	return n;
}

static void counters_cells(struct ui *ui, int y, const struct frame_proc *p,
			   const struct ctr_layout *L)
{
	static struct sbuf b; /* kept across frames: a refresh makes no malloc */
	const struct frame_counters *c = &ui->frame.counters;
	int x = 8;

	for (int e = 0; e < L->nevents; e++) {
		const char *t;
		int tw;

		enum ctr_state s = ctr_state(&ui->frame, p, e);

		/* multiplexed out the whole interval, or attached within it: no count, no 0 */
		if (s != CTR_COUNTED)
			t = _(ctr_state_text(s, ui->utf8));
		else {
			sbuf_reset(&b);
			fmt_ctr(&b, c->names[e], p->ctr[e], L->w[e]);
			sbuf_addc(&b, '\0');
			t = b.p;
		}
		tw = text_cols(t);
		ui_put(ui, y, tw < L->w[e] ? x + L->w[e] - tw : x, L->w[e], t, strlen(t));
		x += L->w[e] + 1;
	}
}

static void counters_row(struct ui *ui, int y, const struct frame_proc *p, bool sel)
{
	struct ctr_layout L;
	struct ctr_derived d;
	double v[D_COUNT];
	static const int dec[D_COUNT] = {2, 1, 1, 1};
	bool figures = p->has_ctr && !p->ctr_not_counted && !p->ctr_counting;

	layout(ui, &L);
	if (sel) {
		attron(ui_attr(ui, COLOR_SELECTED, A_REVERSE));
		mvhline(y, 0, ' ', COLS);
	}
	mvprintw(y, 0, "%7d ", p->pid);
	counters_cells(ui, y, p, &L);
	if (figures)
		ctr_derive(&ui->frame, p, &d);
	v[D_IPC] = figures ? d.ipc : -1;
	v[D_CKI] = figures ? d.cache_mpki : -1;
	v[D_BKI] = figures ? d.branch_mpki : -1;
	v[D_CPU] = figures ? d.cpu_share : -1;
	move(y, L.derived_x);
	for (int k = 0; k < D_COUNT; k++)
		if (L.derived[k] && getcurx(stdscr) + DERIVED_W < COLS)
			fig(v[k], DERIVED_W, dec[k]);
	if (L.scale_x + 6 < COLS) {
		/* '+': some of its threads are not counted (over the limits) */
		if (p->has_ctr)
			mvprintw(y, L.scale_x, "%5.2f%c", p->ctr_scale, p->ctr_partial ? '+' : ' ');
		else
			mvprintw(y, L.scale_x, "%5s ", "-");
		ui_put(ui, y, L.scale_x + 6, COLS - L.scale_x - 6, p->comm, p->comm_len);
	}
	if (sel)
		attroff(ui_attr(ui, COLOR_SELECTED, A_REVERSE));
}

static void counters_draw(struct ui *ui, int y, int h)
{
	const struct frame_counters *c = &ui->frame.counters;

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
	attron(ui_attr(ui, COLOR_LABEL, A_BOLD));
	if (c->hardware)
		mvprintw(y, 0, _("counters: hardware"));
	else
		mvprintw(y, 0, _("counters: software only (%s; ~ marks software events)"),
			 c->why_software ? _(c->why_software) : _("asked for"));
	attroff(ui_attr(ui, COLOR_LABEL, A_BOLD));
	printw(_("  %u attached, %u not attached"), c->attached, c->not_attached);
	if (c->not_attached > c->refused)
		printw(_(" (%u over the budget of %u, --counter-budget)"),
		       c->not_attached - c->refused, c->budget);
	if (c->partial)
		printw(_(", %u with threads not counted (+)"), c->partial);
	if (c->na)
		printw(_(", user only: n/a"));
	if (c->npmus > 1)
		printw(_(", hybrid CPU: summed over %d core types"), c->npmus);
	if (c->nsplit > 1)
		printw(_(", more events than counters: %d groups"), c->nsplit);
	if (c->children_counted)
		printw(_(", forked children also count in their parents (no inherit_thread)"));
	if (c->refused) {
		/* the rows show '-' for these: say why here */
		printw(_(", %u refused: %s"), c->refused, strerror(-c->refused_error));
		if (c->paranoid != PERF_PARANOID_UNKNOWN)
			printw(_(" (perf_event_paranoid=%d)"), c->paranoid);
	} else if (c->last_error) {
		printw(_(" (%s)"), strerror(-c->last_error));
	}
	/* figures that need a PMU are left out rather than shown as columns of '-' */
	if (!c->hardware)
		printw(_("; IPC, misses per kilo-instruction: n/a: no PMU"));
	/* an event's own reason, where it is not the one the header gave already */
	for (int e = 0; e < c->nfailed; e++)
		if (!c->why_software || strcmp(c->failed_why[e], c->why_software))
			printw(_("; %s: %s"), c->failed[e], _(c->failed_why[e]));
	y++;
	move(y, 0);
	clrtoeol();
	printw(_("ptop's own frame (%s):"), c->self_rdpmc ? "rdpmc" : _("read(), no rdpmc"));
	for (int e = 0; e < c->nevents; e++)
		printw(" %s %.0f", c->names[e], c->self_ctr[e]);
	y++;
	table_draw(ui, y, h - 2, counters_row, counters_heading);
}

/* The columns this pane sorts by, in their order on screen. */
static size_t counters_sort_columns(struct ui *ui, enum field_id *out, size_t max)
{
	struct ctr_layout L;
	size_t n = 0;

	layout(ui, &L);
	out[n++] = FIELD_PID;
	for (int e = 0; e < L.nevents && n < max; e++)
		out[n++] = (enum field_id)field_ctr(e);
	return n;
}

/* A counter column's heading for a message: the event's name. */
static const char *column_name(struct ui *ui, enum field_id id)
{
	for (int e = 0; e < ui->frame.counters.nevents; e++)
		if ((int)id == field_ctr(e))
			return ui->frame.counters.names[e];
	return field_defs[id].title;
}

static void sort_by(struct ui *ui, enum field_id id)
{
	if (ui->cfg.order.field == id)
		ui->cfg.order.reverse = !ui->cfg.order.reverse;
	else
		ui->cfg.order = (struct row_order){.field = id};
	ui_status(ui, _("Sorted by %s%s"), column_name(ui, id),
		  ui->cfg.order.reverse ? _(", reversed") : "");
}

/* < and > move along this pane's columns, not the Processes pane's. */
static void sort_step(struct ui *ui, int dir)
{
	enum field_id cols[FRAME_MAX_EVENTS + 1];
	size_t n = counters_sort_columns(ui, cols, FRAME_MAX_EVENTS + 1), at = 0;

	for (size_t c = 0; c < n; c++)
		if (cols[c] == ui->cfg.order.field)
			at = c;
	if (dir < 0 && at > 0)
		at--;
	else if (dir > 0 && at + 1 < n)
		at++;
	ui->cfg.order = (struct row_order){.field = cols[at]};
	ui_status(ui, _("Sorted by %s"), column_name(ui, cols[at]));
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
	struct ctr_layout L;
	int cx = 8;

	if (picker_is_open())
		return UI_HANDLED;
	if (y != ui->table_y - 1)
		return pane_processes.click(ui, y, x);
	/* a click on a heading sorts by that column, as on the Processes pane */
	layout(ui, &L);
	if (x < cx) {
		sort_by(ui, FIELD_PID);
		return UI_HANDLED | UI_REBUILD;
	}
	for (int e = 0; e < L.nevents; e++) {
		if (x >= cx && x < cx + L.w[e] + 1) {
			sort_by(ui, (enum field_id)field_ctr(e));
			return UI_HANDLED | UI_REBUILD;
		}
		cx += L.w[e] + 1;
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
    .sort_columns = counters_sort_columns,
    .shutdown = picker_shutdown,
};
