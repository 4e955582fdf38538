// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bench_figures.c: how the Bench pane shows a benchmark's figures to a
 * person: labels for the figures perf prints with a unit alone, units as
 * people write them (us, not usecs), precision that fits the figure, short
 * times in ms or us rather than "0.000 sec", and sweep charts titled by both
 * axes. The CLI's output (bench.c in src/bench) is left as perf's.
 */
#include <stdio.h>
#include <string.h>

#include "ptop/bench.h"
#include "tui.h"

/* What the pane calls a figure perf prints with its unit alone. */
static const struct {
	const char *key, *label;
} value_labels[] = {
    {"total_time", N_("Total time")},
    {"usecs_per_op", N_("time per operation")},
    {"usecs_per_op_per_cpu", N_("time per operation and CPU")},
};

/* Axes of the sweeps, as the charts name them. */
static const struct {
	const char *x, *name;
} axis_names[] = {
    {"breakpoints", N_("number of breakpoints")},
    {"threads", N_("threads per batch")},
    {"passive", N_("blocked (passive) threads")},
    {"active", N_("spinning (active) threads")},
};

/* Units as a person reads them: perf's "usecs" is "us". */
static const char *unit_name(const char *unit)
{
	static const struct {
		const char *unit, *name;
	} units[] = {
	    {"usecs/op", "us/op"},
	    {"usecs/op/cpu", "us/op/CPU"},
	    {"usec", "us"},
	};

	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(unit, units[i].unit))
			return units[i].name;
	return unit;
}

const char *bench_value_label(const struct bench_value *v)
{
	/* a perf-style line has its figure in it: the label is the whole line */
	if (v->label && v->label[0] && v->style != BENCH_STYLE_LINE)
		return v->label;
	for (size_t i = 0; i < sizeof(value_labels) / sizeof(value_labels[0]); i++)
		if (!strcmp(v->key, value_labels[i].key))
			return _(value_labels[i].label);
	return v->key;
}

void bench_format_value(char *out, size_t cap, double v, const char *unit, int style)
{
	int dec = v >= 1000 ? 0 : v >= 100 ? 1 : v >= 10 ? 2 : 3;
	bool whole = v == (double)(long long)v && !strchr(unit, '/') && strcmp(unit, "sec") &&
		     strcmp(unit, "usec");

	if (style == BENCH_STYLE_COUNT || whole)
		snprintf(out, cap, "%.0f %s", v, unit_name(unit));
	else if (!strcmp(unit, "sec") && v < 1e-3)
		snprintf(out, cap, "%.*f us", v * 1e6 >= 100 ? 0 : 1, v * 1e6);
	else if (!strcmp(unit, "sec") && v < 1)
		snprintf(out, cap, "%.*f ms", v * 1e3 >= 100 ? 0 : 1, v * 1e3);
	else
		snprintf(out, cap, "%.*f %s", dec, v, unit_name(unit));
}

void bench_draw_chart(struct ui *ui, const struct bench_series *s, int *y, int ymax)
{
	const char *axis = s->x;
	double max = 0;
	int barw = COLS - 30;

	for (size_t i = 0; i < s->n; i++)
		if (s->points[i].value > max)
			max = s->points[i].value;
	if (*y >= ymax || barw < 5)
		return;
	for (size_t i = 0; i < sizeof(axis_names) / sizeof(axis_names[0]); i++)
		if (!strcmp(s->x, axis_names[i].x))
			axis = _(axis_names[i].name);
	attron(A_BOLD);
	mvprintw((*y)++, 1, _("%s by %s"), unit_name(s->unit), axis);
	attroff(A_BOLD);
	for (size_t i = 0; i < s->n && *y < ymax; i++) {
		int len = max > 0 ? (int)(s->points[i].value / max * barw + 0.5) : 0;
		char fig[48];

		mvprintw(*y, 1, "%8g ", s->points[i].x);
		attron(ui_attr(ui, COLOR_BAR_USER, A_REVERSE));
		for (int k = 0; k < len; k++)
			addch(ui->color ? '|' : '#');
		attroff(ui_attr(ui, COLOR_BAR_USER, A_REVERSE));
		bench_format_value(fig, sizeof(fig), s->points[i].value, s->unit,
				   BENCH_STYLE_FIGURE);
		printw(" %s", fig);
		(*y)++;
	}
}
