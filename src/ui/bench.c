// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bench.c: the Bench pane. It lists the benchmarks of `ptop bench`, lets the
 * user set their options, and runs the chosen one in a child process
 * (`ptop bench NAME --format=json --progress OPTIONS`) whose lines it reads
 * from a pipe between frames, so the viewer keeps refreshing. A progress bar
 * shows while it runs; Esc kills the child's whole process group (its
 * threads and breakpoints go with it) and reaps it. Results show as a table
 * and, for a sweep, a bar chart; the session's earlier runs stay listed.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ptop/bench.h"
#include "tui.h"

#define BENCH_RUNS_MAX 32
#define BENCH_ARGS_MAX 200
#define BENCH_ARGV_MAX 32

enum run_state { RUN_RUNNING, RUN_DONE, RUN_FAILED, RUN_SKIPPED, RUN_CANCELLED };

struct bench_run {
	unsigned id;
	unsigned bench; /* index in the bench table */
	char args[BENCH_ARGS_MAX];
	enum run_state state;
	struct bench_msg *msg; /* the result line, once it came; NULL before */
	char message[256];
};

static struct {
	unsigned sel;			       /* selected benchmark */
	char (*args)[BENCH_ARGS_MAX];	       /* a benchmark's options, bench_count() of them */
	struct bench_run runs[BENCH_RUNS_MAX]; /* oldest first */
	size_t nruns;
	unsigned next_id;
	/* the running child */
	pid_t child;
	int out_fd, err_fd;
	char line[65536];
	size_t line_len;
	char err[256];
	size_t err_len;
	double progress;
} bp = {.child = -1, .out_fd = -1, .err_fd = -1};

static void run_free(struct bench_run *r)
{
	if (r->msg) {
		bench_result_free(&r->msg->result);
		free(r->msg);
		r->msg = NULL;
	}
}

static struct bench_run *current(void)
{
	return bp.nruns ? &bp.runs[bp.nruns - 1] : NULL;
}

static struct bench_run *new_run(unsigned bench)
{
	struct bench_run *r;

	if (bp.nruns == BENCH_RUNS_MAX) {
		run_free(&bp.runs[0]);
		memmove(&bp.runs[0], &bp.runs[1], sizeof(bp.runs[0]) * (BENCH_RUNS_MAX - 1));
		bp.nruns--;
	}
	r = &bp.runs[bp.nruns++];
	memset(r, 0, sizeof(*r));
	r->id = ++bp.next_id;
	r->bench = bench;
	memcpy(r->args, bp.args[bench], sizeof(r->args));
	return r;
}

static void close_fds(void)
{
	if (bp.out_fd >= 0)
		close(bp.out_fd);
	if (bp.err_fd >= 0)
		close(bp.err_fd);
	bp.out_fd = bp.err_fd = -1;
}

/* Stop the child: its process group, so threads and helpers go too. */
static void stop_child(void)
{
	if (bp.child > 0) {
		kill(-bp.child, SIGKILL);
		kill(bp.child, SIGKILL);
		while (waitpid(bp.child, NULL, 0) < 0 && errno == EINTR)
			;
	}
	bp.child = -1;
	close_fds();
}

static void start(struct ui *ui)
{
	const struct bench_desc *d = bench_get(bp.sel);
	int out[2], err[2];
	struct bench_run *r;
	pid_t pid;

	if (bp.child > 0) {
		ui_status(ui, _("A benchmark is running: Esc cancels it"));
		return;
	}
	if (pipe2(out, O_CLOEXEC) < 0)
		goto fail;
	if (pipe2(err, O_CLOEXEC) < 0) {
		close(out[0]);
		close(out[1]);
		goto fail;
	}
	pid = fork();
	if (pid < 0) {
		close(out[0]);
		close(out[1]);
		close(err[0]);
		close(err[1]);
		goto fail;
	}
	if (pid == 0) {
		char *argv[BENCH_ARGV_MAX + 8], args[BENCH_ARGS_MAX], *save = NULL;
		int n = 0;

		setpgid(0, 0);
		signal(SIGPIPE, SIG_DFL);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		dup2(out[1], STDOUT_FILENO);
		dup2(err[1], STDERR_FILENO);
		argv[n++] = "ptop";
		argv[n++] = "bench";
		argv[n++] = (char *)d->name;
		argv[n++] = "--format=json";
		argv[n++] = "--progress";
		snprintf(args, sizeof(args), "%s", bp.args[bp.sel]);
		for (char *t = strtok_r(args, " \t", &save); t && n < BENCH_ARGV_MAX;
		     t = strtok_r(NULL, " \t", &save))
			argv[n++] = t;
		argv[n] = NULL;
		execv("/proc/self/exe", argv);
		dprintf(STDERR_FILENO, "ptop: cannot run the benchmark: %s\n", strerror(errno));
		_exit(127);
	}
	setpgid(pid, pid); /* also here: no race with a kill before the child ran */
	close(out[1]);
	close(err[1]);
	fcntl(out[0], F_SETFL, O_NONBLOCK);
	fcntl(err[0], F_SETFL, O_NONBLOCK);
	bp.child = pid;
	bp.out_fd = out[0];
	bp.err_fd = err[0];
	bp.line_len = bp.err_len = 0;
	bp.progress = 0;
	r = new_run(bp.sel);
	r->state = RUN_RUNNING;
	ui_status(ui, _("Running %s (Esc cancels)"), d->name);
	return;
fail:
	ui_status(ui, _("Cannot start the benchmark: %s"), strerror(errno));
}

static void take_line(const char *line, size_t len)
{
	struct bench_run *r = current();
	struct bench_msg m;

	if (!r || bench_msg_parse(line, len, &m))
		return;
	switch (m.type) {
	case BENCH_MSG_PROGRESS:
		bp.progress = m.progress;
		break;
	case BENCH_MSG_RESULT:
		/* Its labels point into its own text buffer, so it cannot be copied:
		 * parse the line again straight into the run's own message. */
		bench_result_free(&m.result);
		run_free(r);
		r->msg = xmalloc(sizeof(*r->msg));
		if (bench_msg_parse(line, len, r->msg)) {
			free(r->msg);
			r->msg = NULL;
		}
		r->state = RUN_DONE;
		return;
	case BENCH_MSG_SKIPPED:
	case BENCH_MSG_ERROR:
		r->state = m.type == BENCH_MSG_SKIPPED ? RUN_SKIPPED : RUN_FAILED;
		snprintf(r->message, sizeof(r->message), "%s", m.result.message);
		break;
	case BENCH_MSG_UNKNOWN:
		break;
	}
	bench_result_free(&m.result);
}

/* The child finished: reap it and say how. */
static void finish(struct ui *ui)
{
	struct bench_run *r = current();
	int status = 0;

	while (waitpid(bp.child, &status, 0) < 0 && errno == EINTR)
		;
	bp.child = -1;
	close_fds();
	if (!r || r->state != RUN_RUNNING)
		return;
	r->state = RUN_FAILED;
	if (bp.err_len) {
		char *nl = memchr(bp.err, '\n', bp.err_len);

		snprintf(r->message, sizeof(r->message), "%.*s",
			 (int)(nl ? nl - bp.err : (long)bp.err_len), bp.err);
	} else if (WIFSIGNALED(status)) {
		snprintf(r->message, sizeof(r->message), _("killed by signal %d"),
			 WTERMSIG(status));
	} else {
		snprintf(r->message, sizeof(r->message), _("exit status %d"), WEXITSTATUS(status));
	}
	ui_status(ui, "%s", r->message);
}

static int bench_poll(struct ui *ui)
{
	ssize_t n;

	if (bp.child <= 0)
		return -1;
	/* stderr: keep the first bytes, for a usage message */
	while (bp.err_fd >= 0) {
		char tmp[512];

		n = read(bp.err_fd, tmp, sizeof(tmp));
		if (n <= 0)
			break;
		if (bp.err_len < sizeof(bp.err) - 1) {
			size_t k = (size_t)n < sizeof(bp.err) - 1 - bp.err_len
				       ? (size_t)n
				       : sizeof(bp.err) - 1 - bp.err_len;

			memcpy(bp.err + bp.err_len, tmp, k);
			bp.err_len += k;
		}
	}
	for (;;) {
		char *nl;

		n = read(bp.out_fd, bp.line + bp.line_len, sizeof(bp.line) - bp.line_len);
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			return 100;
		if (n <= 0) {
			finish(ui);
			return -1;
		}
		bp.line_len += (size_t)n;
		while ((nl = memchr(bp.line, '\n', bp.line_len))) {
			size_t len = (size_t)(nl - bp.line);

			take_line(bp.line, len);
			memmove(bp.line, nl + 1, bp.line_len - len - 1);
			bp.line_len -= len + 1;
		}
		if (bp.line_len == sizeof(bp.line))
			bp.line_len = 0; /* a line longer than any the protocol writes */
	}
}

static void bench_shutdown(struct ui *ui)
{
	(void)ui;
	stop_child();
	for (size_t i = 0; i < bp.nruns; i++)
		run_free(&bp.runs[i]);
	bp.nruns = 0;
	free(bp.args);
	bp.args = NULL;
}

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
	int w = COLS - 20, fill = (int)(bp.progress * w + 0.5);

	if (bp.child <= 0 || y >= ymax)
		return y;
	mvprintw(y, 1, "%3.0f%% [", bp.progress * 100);
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
	if (bp.nruns < 2 || y >= ymax)
		return;
	attron(A_BOLD);
	mvaddnstr(y++, 1, _("Earlier runs"), COLS - 2);
	attroff(A_BOLD);
	for (size_t i = bp.nruns; i-- > 0 && y < ymax;) {
		const struct bench_run *r = &bp.runs[i];

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
	const struct bench_run *shown = NULL;

	if (h < 6)
		return;
	need_args();
	y = draw_list(ui, y, ymax);
	y = draw_progress(ui, y, ymax);
	/* the latest run of the selected benchmark */
	for (size_t i = bp.nruns; i-- > 0;) {
		if (bp.runs[i].bench == bp.sel) {
			shown = &bp.runs[i];
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

static unsigned bench_key(struct ui *ui, enum ui_action act, int key)
{
	need_args();
	if (key == KEY_ESC) {
		if (bp.child > 0) {
			stop_child();
			if (current())
				current()->state = RUN_CANCELLED;
			ui_status(ui, _("Benchmark cancelled"));
		}
		return UI_HANDLED;
	}
	if (key == '\r' || key == '\n' || key == KEY_ENTER) {
		start(ui);
		return UI_HANDLED;
	}
	if (key == 'c') {
		toggle_cpu(bp.args[bp.sel], sizeof(bp.args[bp.sel]));
		return UI_HANDLED;
	}
	if (key == 'e') {
		static char label[128];

		snprintf(label, sizeof(label), _("Options for %s: "), bench_get(bp.sel)->name);
		ui->pane_prompt = label;
		ui_prompt(ui, PROMPT_PANE, bp.args[bp.sel]);
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

static void bench_prompt_done(struct ui *ui, const char *text)
{
	need_args();
	(void)ui;
	snprintf(bp.args[bp.sel], sizeof(bp.args[bp.sel]), "%s", text);
}

const struct pane_def pane_bench = {
    .name = N_("Bench"),
    .config_name = "bench",
    .hotkey = '4',
    .key_help = N_("Bench pane"),
    .draw = bench_draw,
    .key = bench_key,
    .poll = bench_poll,
    .shutdown = bench_shutdown,
    .prompt_done = bench_prompt_done,
};
