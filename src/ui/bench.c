// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bench.c: the Bench pane. It lists the benchmarks of `ptop bench`, lets the
 * user set their options, and runs the chosen one (bench_child.c runs it in a
 * child process and reads its lines between frames, so the viewer keeps
 * refreshing). A progress bar shows while it runs; Esc cancels it. Results
 * show as a table and, for a sweep, a bar chart (bench_figures.c); the
 * session's earlier runs stay listed.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_child.h"

static struct {
	unsigned sel;		      /* selected benchmark */
	char (*args)[BENCH_ARGS_MAX]; /* a benchmark's options, bench_count() of them */
} bp;

static const char *state_name(enum run_state s)
{
	switch (s) {
	case RUN_RUNNING:
		return _("running");
	case RUN_DONE:
		return _("done");
	case RUN_FAILED:
		return _("failed");
	case RUN_SKIPPED:
		return _("skipped");
	case RUN_CANCELLED:
		return _("cancelled");
	}
	return "";
}

/* Each benchmark's options, made on first use (the table's size is known then). */
static void need_args(void)
{
	if (!bp.args)
		bp.args = xcalloc(bench_count(), sizeof(*bp.args));
}

/* The benchmarks, their options and summaries, the selected one marked; returns y after. */
static int draw_list(struct ui *ui, int y, int ymax)
{
	int argw = 10;

	attron(ui_attr(ui, COLOR_TABLE_HEADER, A_REVERSE));
	mvhline(y, 0, ' ', COLS);
	mvaddnstr(y, 0,
		  _(" Benchmark           Options (e edits, c pins to CPU 0 or unpins, Enter runs, "
		    "Esc cancels)"),
		  COLS);
	attroff(ui_attr(ui, COLOR_TABLE_HEADER, A_REVERSE));
	y++;
	/* The summaries start after the longest options, and get what is left. */
	for (unsigned i = 0; i < bench_count(); i++)
		if ((int)strlen(bp.args[i]) > argw)
			argw = (int)strlen(bp.args[i]);
	for (unsigned i = 0; i < bench_count() && y < ymax; i++, y++) {
		const struct bench_desc *d = bench_get(i);
		const char *summary = _(d->summary);
		int x = 21 + argw + 2;

		if (i == bp.sel)
			attron(ui_attr(ui, COLOR_SELECTED, A_REVERSE));
		mvhline(y, 0, ' ', COLS);
		mvprintw(y, 1, "%-19s %s", d->name, bp.args[i][0] ? bp.args[i] : "-");
		if (x + 20 <= COLS)
			ui_put(ui, y, x, COLS - x, summary, strlen(summary));
		if (i == bp.sel)
			attroff(ui_attr(ui, COLOR_SELECTED, A_REVERSE));
	}
	return y + 1;
}

/* The running child's progress bar, if one runs; returns y after. */
static int draw_progress(struct ui *ui, int y, int ymax)
{
	double progress = bench_child_progress();
	int w = COLS - 20, fill = (int)(progress * w + 0.5);

	if (progress < 0 || y >= ymax)
		return y;
	mvprintw(y, 1, "%3.0f%% [", progress * 100);
	attron(ui_attr(ui, COLOR_BAR_USER, A_REVERSE));
	for (int k = 0; k < fill; k++)
		addch(ui->color ? '|' : '#');
	attroff(ui_attr(ui, COLOR_BAR_USER, A_REVERSE));
	for (int k = fill; k < w; k++)
		addch(' ');
	addch(']');
	return y + 2;
}

/* A run's figures with their spread, notes and charts; returns y after. */
static int draw_run(struct ui *ui, const struct bench_run *shown, int y, int ymax)
{
	static const struct bench_result none;
	const struct bench_result *res = shown->msg ? &shown->msg->result : &none;
	int labelw = 20;

	attron(A_BOLD);
	mvprintw(y++, 1, _("Run %u: %s %s (%s)"), shown->id, bench_get(shown->bench)->name,
		 shown->args, state_name(shown->state));
	attroff(A_BOLD);
	if (shown->message[0] && y < ymax)
		mvaddnstr(y++, 3, shown->message, COLS - 4);
	/* the labels' column is as wide as the longest, as long as the figures fit */
	for (size_t v = 0; v < res->nvalues; v++) {
		const char *l = bench_value_label(&res->values[v]);

		if (!strchr(l, '\n') && (int)strlen(l) > labelw)
			labelw = (int)strlen(l);
	}
	if (labelw > COLS - 60)
		labelw = COLS - 60 > 20 ? COLS - 60 : 20;
	for (size_t v = 0; v < res->nvalues && y < ymax; v++, y++) {
		const struct bench_value *bv = &res->values[v];
		const char *label = bench_value_label(bv);
		char fig[48];
		int n = (int)strcspn(label, "\n");

		if (bv->style == BENCH_STYLE_LINE) {
			/* perf's own line, its figure in it */
			mvprintw(y, 3, "%.*s", n, label);
			continue;
		}
		if (bv->unavailable) {
			mvprintw(y, 3, "%-*.*s %s: %s", labelw, n, label, _("unavailable"),
				 bv->unavailable);
			continue;
		}
		bench_format_value(fig, sizeof(fig), bv->value, bv->unit, bv->style);
		mvprintw(y, 3, "%-*.*s %16s", labelw, n, label, fig);
		if (bv->samples)
			printw(_("  min %.4g  median %.4g  max %.4g  (%u %s)"), bv->min, bv->median,
			       bv->max, bv->samples, bv->of);
		if (bv->bimodal) {
			attron(A_BOLD);
			printw(_("  BIMODAL"));
			attroff(A_BOLD);
		}
	}
	for (size_t k = 0; k < res->nnotes && y < ymax; k++, y++)
		mvprintw(y, 3, "# %.*s", COLS > 6 ? COLS - 6 : 0, res->notes[k]);
	for (size_t s = 0; s < res->nseries && y < ymax; s++)
		bench_draw_chart(ui, &res->series[s], &y, ymax);
	return y + 1;
}

/* Earlier runs, one line each, for comparison. */
static void draw_earlier(const struct bench_run *shown, int y, int ymax)
{
	size_t nruns;
	const struct bench_run *runs = bench_child_runs(&nruns);

	if (nruns < 2 || y >= ymax)
		return;
	attron(A_BOLD);
	mvaddnstr(y++, 1, _("Earlier runs"), COLS - 2);
	attroff(A_BOLD);
	for (size_t i = nruns; i-- > 0 && y < ymax;) {
		const struct bench_run *r = &runs[i];

		if (r == shown)
			continue;
		mvprintw(y, 3, "%3u %-18s %-24.24s %-9s", r->id, bench_get(r->bench)->name, r->args,
			 state_name(r->state));
		if (r->msg && r->msg->result.nvalues) {
			/* the first figure after a total time is the one to compare */
			const struct bench_result *res = &r->msg->result;
			const struct bench_value *v = &res->values[res->nvalues > 1 ? 1 : 0];
			char fig[48];

			bench_format_value(fig, sizeof(fig), v->value, v->unit, v->style);
			printw(" %s: %s", bench_value_label(v), fig);
		}
		y++;
	}
}

static void bench_draw(struct ui *ui, int y, int h)
{
	int ymax = y + h;
	size_t nruns;
	const struct bench_run *runs = bench_child_runs(&nruns), *shown = NULL;

	if (h < 6)
		return;
	need_args();
	y = draw_list(ui, y, ymax);
	y = draw_progress(ui, y, ymax);
	/* the latest run of the selected benchmark */
	for (size_t i = nruns; i-- > 0;) {
		if (runs[i].bench == bp.sel) {
			shown = &runs[i];
			break;
		}
	}
	if (shown && y < ymax)
		y = draw_run(ui, shown, y, ymax);
	draw_earlier(shown, y, ymax);
}

/*
 * Add "--cpu 0" to a benchmark's options, or take a --cpu option out: pinned
 * to one CPU, the breakpoint benchmarks' threads need no cross-CPU
 * interrupts, and runs stop falling into a fast and a slow mode.
 */
static void toggle_cpu(char *args, size_t cap)
{
	char out[BENCH_ARGS_MAX] = "", copy[BENCH_ARGS_MAX], *save = NULL;
	bool had = false;

	snprintf(copy, sizeof(copy), "%s", args);
	for (char *t = strtok_r(copy, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
		if (!strncmp(t, "--cpu=", 6)) {
			had = true;
			continue;
		}
		if (!strcmp(t, "--cpu")) {
			had = true;
			strtok_r(NULL, " \t", &save); /* its value */
			continue;
		}
		snprintf(out + strlen(out), sizeof(out) - strlen(out), "%s%s", out[0] ? " " : "",
			 t);
	}
	if (!had)
		snprintf(out + strlen(out), sizeof(out) - strlen(out), "%s--cpu=0",
			 out[0] ? " " : "");
	snprintf(args, cap, "%s", out);
}

/* e answered: the options the next run of the selected benchmark takes. */
static unsigned options_done(struct ui *ui, const char *text)
{
	need_args();
	(void)ui;
	snprintf(bp.args[bp.sel], sizeof(bp.args[bp.sel]), "%s", text);
	return UI_HANDLED;
}

/* Its label names the benchmark: ui->prompt_label. */
static const struct ui_prompt options_prompt = {.done = options_done};

static unsigned bench_key(struct ui *ui, enum ui_action act, int key)
{
	need_args();
	if (key == KEY_ESC) {
		bench_child_cancel(ui);
		return UI_HANDLED;
	}
	if (key == '\r' || key == '\n' || key == KEY_ENTER) {
		bench_child_start(ui, bp.sel, bp.args[bp.sel]);
		return UI_HANDLED;
	}
	if (key == 'c') {
		toggle_cpu(bp.args[bp.sel], sizeof(bp.args[bp.sel]));
		return UI_HANDLED;
	}
	if (key == 'e') {
		ui_prompt(ui, &options_prompt, bp.args[bp.sel]);
		snprintf(ui->prompt_label, sizeof(ui->prompt_label), _("Options for %s: "),
			 bench_get(bp.sel)->name);
		return UI_HANDLED;
	}
	switch (act) {
	case ACT_UP:
		if (bp.sel > 0)
			bp.sel--;
		return UI_HANDLED;
	case ACT_DOWN:
		if (bp.sel + 1 < bench_count())
			bp.sel++;
		return UI_HANDLED;
	case ACT_HOME:
		bp.sel = 0;
		return UI_HANDLED;
	case ACT_END:
		bp.sel = bench_count() - 1;
		return UI_HANDLED;
	default:
		return UI_IGNORED;
	}
}

static void bench_shutdown(struct ui *ui)
{
	(void)ui;
	bench_child_shutdown();
	free(bp.args);
	bp.args = NULL;
}

const struct pane_def pane_bench = {
    .name = N_("Bench"),
    .config_name = "bench",
    .hotkey = '4',
    .key_help = N_("Bench pane"),
    .draw = bench_draw,
    .key = bench_key,
    .poll = bench_child_poll,
    .shutdown = bench_shutdown,
};
