// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * meters.c: the header, as a table of meters (htop's Platform_meterTypes[]
 * with Meter.c and Header.c): each meter is a file of its own (meter_*.c);
 * this file lays the chosen ones out (ui_config.meters: one column across
 * the screen, or htop's two halves), gives them their heights and draws the
 * bars they share.
 */
#include <string.h>

#include "meter.h"

/* Every meter; the header shows ptoprc's list of them, by default meters_default()'s. */
static const struct meter_def *const meter_table[] = {
    &meter_uptime,	&meter_tasks,	    &meter_cpu,	       &meter_mem,
    &meter_swap,	&meter_disk,	    &meter_net,	       &meter_cost,
    &meter_accounted,	&meter_psi_cpu,	    &meter_psi_memory, &meter_psi_io,
    &meter_load,	&meter_cpu_graph,   &meter_mem_graph,  &meter_left_cpus,
    &meter_right_cpus,	&meter_all_cpus2,   &meter_all_cpus4,  &meter_all_cpus8,
    &meter_left_cpus2,	&meter_left_cpus4,  &meter_left_cpus8, &meter_right_cpus2,
    &meter_right_cpus4, &meter_right_cpus8,
};
#define NMETERS (sizeof(meter_table) / sizeof(meter_table[0]))
_Static_assert(NMETERS <= UI_METERS_MAX, "ui_config.meters holds every meter");

static const char *const mode_names[] = {
    [METER_BAR] = "bar",
    [METER_TEXT] = "text",
    [METER_GRAPH] = "graph",
    [METER_LED] = "led",
};
_Static_assert(sizeof(mode_names) / sizeof(mode_names[0]) == METER_MODE_COUNT,
	       "a name for each meter mode");

int meter_by_name(const char *name)
{
	for (size_t i = 0; i < NMETERS; i++)
		if (!strcmp(name, meter_table[i]->name))
			return (int)i;
	return -1;
}

const struct meter_def *meter_def_of(unsigned id)
{
	return id < NMETERS ? meter_table[id] : NULL;
}

const char *meter_name(unsigned id)
{
	return id < NMETERS ? meter_table[id]->name : "?";
}

unsigned meters_count(void)
{
	return NMETERS;
}

const char *meter_mode_name(enum meter_mode m)
{
	return (unsigned)m < METER_MODE_COUNT ? mode_names[m] : "?";
}

int meter_mode_by_name(const char *name)
{
	for (int m = 0; m < METER_MODE_COUNT; m++)
		if (!strcmp(name, mode_names[m]))
			return m;
	return -1;
}

static unsigned modes_of(unsigned id)
{
	return id < NMETERS && meter_table[id]->modes ? meter_table[id]->modes : 1u << METER_TEXT;
}

bool meter_has_mode(unsigned id, enum meter_mode m)
{
	return (unsigned)m < METER_MODE_COUNT && (modes_of(id) & (1u << m));
}

enum meter_mode meter_default_mode(unsigned id)
{
	unsigned modes = modes_of(id);
	int m = 0;

	if (id < NMETERS && (modes & (1u << meter_table[id]->default_mode)))
		return meter_table[id]->default_mode;

	while (!(modes & (1u << m)))
		m++;
	return (enum meter_mode)m;
}

unsigned meters_default(struct ui_meter *m, enum key_profile keys, unsigned ncpus)
{
	/* htop's Header: CPUs, Memory, Swap | Tasks, Load average, Uptime */
	static const char *const htop[][2] = {
	    {"cpu", "0"},   {"memory", "0"}, {"swap", "0"},
	    {"tasks", "1"}, {"load", "1"},   {"uptime", "1"},
	};
	/* and beyond 4 CPUs, half of them heading each column */
	static const char *const htop_many[][2] = {
	    {"left_cpus", "0"}, {"memory", "0"}, {"swap", "0"},	  {"right_cpus", "1"},
	    {"tasks", "1"},	{"load", "1"},	 {"uptime", "1"},
	};
	/* top's five lines, and what ptop adds under them */
	static const char *const top[] = {
	    "uptime", "tasks", "cpu", "memory", "swap", "disk", "network", "cost", "accounted",
	};
	unsigned n = 0;

	if (keys == KEYS_TOP) {
		for (; n < sizeof(top) / sizeof(top[0]); n++)
			m[n] = (struct ui_meter){.id = (unsigned char)meter_by_name(top[n])};
	} else if (ncpus > 4) {
		for (; n < sizeof(htop_many) / sizeof(htop_many[0]); n++)
			m[n] =
			    (struct ui_meter){.id = (unsigned char)meter_by_name(htop_many[n][0]),
					      .column = (unsigned char)(htop_many[n][1][0] - '0')};
	} else {
		for (; n < sizeof(htop) / sizeof(htop[0]); n++)
			m[n] = (struct ui_meter){.id = (unsigned char)meter_by_name(htop[n][0]),
						 .column = (unsigned char)(htop[n][1][0] - '0')};
	}
	for (unsigned i = 0; i < n; i++)
		m[i].mode = (unsigned char)meter_default_mode(m[i].id);
	return n;
}

/* The i-th meter of the header. */
static const struct meter_def *shown(const struct ui *ui, unsigned i)
{
	unsigned id = ui->cfg.meters[i].id;

	return meter_table[id < NMETERS ? id : 0];
}

/* Kept across frames, emptied when asked for: a steady refresh allocates nothing. */
static struct sbuf scratch[METER_SCRATCH];

struct sbuf *meter_scratch(unsigned k)
{
	struct sbuf *b = &scratch[k < METER_SCRATCH ? k : 0];

	sbuf_reset(b);
	return b;
}

unsigned meters_needs(const struct ui *ui)
{
	unsigned needs = 0;

	for (unsigned i = 0; i < ui->cfg.nmeters; i++)
		needs |= shown(ui, i)->needs;
	return needs;
}

void meter_bar(struct ui *ui, const struct meter_at *at, int y, const char *label,
	       const struct bar_part *parts, int nparts, const char *text)
{
	int x = at->x, inner, filled = 0, tlen = (int)strlen(text);

	attron(ui_attr(ui, COLOR_LABEL, A_BOLD));
	mvaddstr(y, x, label);
	attroff(ui_attr(ui, COLOR_LABEL, A_BOLD));
	x += (int)strlen(label);
	if (at->mode == METER_TEXT) {
		ui_put(ui, y, x, at->x + at->w - x, text, (size_t)tlen);
		return;
	}
	inner = at->w - (int)strlen(label) - 2;
	if (inner < 1)
		return;
	mvaddch(y, x, '[');
	for (int i = 0; i < nparts; i++) {
		int n = (int)(parts[i].pct / 100.0 * inner + 0.5);

		if (n > inner - filled)
			n = inner - filled;
		attron(ui_attr(ui, parts[i].color, A_NORMAL));
		for (int k = 0; k < n; k++)
			mvaddch(y, x + 1 + filled + k, '|');
		attroff(ui_attr(ui, parts[i].color, A_NORMAL));
		filled += n;
	}
	for (int k = filled; k < inner; k++)
		mvaddch(y, x + 1 + k, ' ');
	if (tlen <= inner)
		mvaddstr(y, x + 1 + inner - tlen, text);
	mvaddch(y, x + 1 + inner, ']');
}

int meter_one_row(const struct ui *ui, bool compact)
{
	(void)ui;
	(void)compact;
	return 1;
}

int meter_spare_row(const struct ui *ui, bool compact)
{
	(void)ui;
	return compact ? 0 : 1;
}

/* Some meter is in the right column: the header is two halves. */
static bool two_columns(const struct ui *ui)
{
	for (unsigned i = 0; i < ui->cfg.nmeters; i++)
		if (ui->cfg.meters[i].column)
			return true;
	return false;
}

/* The mode the i-th meter of the header is drawn as. */
static enum meter_mode mode_of(const struct ui *ui, unsigned i)
{
	const struct ui_meter *um = &ui->cfg.meters[i];

	return meter_has_mode(um->id, (enum meter_mode)um->mode) ? (enum meter_mode)um->mode
								 : meter_default_mode(um->id);
}

int meter_mode_rows(enum meter_mode mode, int rows, bool compact)
{
	switch (mode) {
	case METER_GRAPH:
		return compact ? rows : rows * METER_GRAPH_ROWS;
	case METER_LED:
		return compact ? rows : rows * METER_LED_ROWS;
	default:
		return rows;
	}
}

/* The rows of the i-th meter of the header: its own as bar or text; a
 * graph's and LED's (one on a short screen) where it is not hidden; or
 * what it says for each mode. */
static int rows_of(const struct ui *ui, unsigned i, bool compact)
{
	const struct meter_def *m = shown(ui, i);
	int h;

	if (m->mode_height)
		return m->mode_height(ui, mode_of(ui, i), compact);
	h = m->height(ui, compact);
	if (h <= 0)
		return 0;
	return mode_of(ui, i) == METER_GRAPH || mode_of(ui, i) == METER_LED
		   ? meter_mode_rows(mode_of(ui, i), 1, compact)
		   : h;
}

/* The rows of column col's meters. */
static int column_height(const struct ui *ui, unsigned col, bool compact)
{
	int h = 0;

	for (unsigned i = 0; i < ui->cfg.nmeters; i++)
		if ((ui->cfg.meters[i].column != 0) == (col != 0))
			h += rows_of(ui, i, compact);
	return h;
}

static int header_height(const struct ui *ui, bool compact)
{
	int l = column_height(ui, 0, compact), r = column_height(ui, 1, compact);

	return l > r ? l : r;
}

int meters_height(const struct ui *ui, int max_rows)
{
	/* as the meters like, or compact when that leaves the table no room */
	return header_height(ui, header_height(ui, false) > max_rows);
}

/* Draw column col's meters, from row 0 across w columns from x. */
static void draw_column(struct ui *ui, unsigned col, int x, int w, bool compact)
{
	int y = 0;

	for (unsigned i = 0; i < ui->cfg.nmeters; i++) {
		const struct ui_meter *um = &ui->cfg.meters[i];
		const struct meter_def *m = shown(ui, i);
		struct meter_at at = {
		    .y = y, .x = x, .w = w, .mode = mode_of(ui, i), .compact = compact};

		if ((um->column != 0) != (col != 0))
			continue;
		at.h = rows_of(ui, i, compact);
		/* a hidden meter (top's l) draws nothing: the next one takes its row */
		if (at.h <= 0)
			continue;
		if (at.mode == METER_GRAPH && !m->mode_height)
			meter_graph_draw(ui, &at, um->id, m);
		else if (at.mode == METER_LED && !m->mode_height)
			meter_led_draw(ui, &at, m);
		else
			m->draw(ui, &at);
		y += at.h;
	}
}

int meters_draw(struct ui *ui, int max_rows)
{
	bool compact = header_height(ui, false) > max_rows;
	int h = header_height(ui, compact), half = COLS / 2;

	if (!two_columns(ui)) {
		draw_column(ui, 0, 0, COLS, compact);
		return h;
	}
	/* htop's two halves, a blank column between; what a left meter could
	 * not say in its half is wiped before the right ones are drawn */
	draw_column(ui, 0, 0, half - 1, compact);
	for (int y = 0; y < h; y++) {
		move(y, half - 1);
		clrtoeol();
	}
	draw_column(ui, 1, half, COLS - half, compact);
	return h;
}
