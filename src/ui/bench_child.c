// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bench_child.c: the Bench pane's runs. A benchmark runs in a child process
 * (`ptop bench NAME --format=json --progress OPTIONS`, execv of
 * /proc/self/exe) in a process group of its own, whose stdout and stderr
 * come back through non-blocking pipes read between frames, so the viewer
 * keeps refreshing: progress lines move the bar, the result line is kept
 * with its run. Cancelling kills the whole group (its threads and
 * breakpoints go with it) and reaps the child. The session's runs stay, the
 * oldest dropped past BENCH_RUNS_MAX.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench_child.h"

#define BENCH_RUNS_MAX 32
#define BENCH_ARGV_MAX 32

static struct {
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
} bc = {.child = -1, .out_fd = -1, .err_fd = -1};

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
	return bc.nruns ? &bc.runs[bc.nruns - 1] : NULL;
}

static struct bench_run *new_run(unsigned bench, const char *args)
{
	struct bench_run *r;

	if (bc.nruns == BENCH_RUNS_MAX) {
		run_free(&bc.runs[0]);
		memmove(&bc.runs[0], &bc.runs[1], sizeof(bc.runs[0]) * (BENCH_RUNS_MAX - 1));
		bc.nruns--;
	}
	r = &bc.runs[bc.nruns++];
	memset(r, 0, sizeof(*r));
	r->id = ++bc.next_id;
	r->bench = bench;
	snprintf(r->args, sizeof(r->args), "%s", args);
	return r;
}

static void close_fds(void)
{
	if (bc.out_fd >= 0)
		close(bc.out_fd);
	if (bc.err_fd >= 0)
		close(bc.err_fd);
	bc.out_fd = bc.err_fd = -1;
}

/* Stop the child: its process group, so threads and helpers go too. */
static void stop_child(void)
{
	if (bc.child > 0) {
		kill(-bc.child, SIGKILL);
		kill(bc.child, SIGKILL);
		while (waitpid(bc.child, NULL, 0) < 0 && errno == EINTR)
			;
	}
	bc.child = -1;
	close_fds();
}

void bench_child_start(struct ui *ui, unsigned bench, const char *args)
{
	const struct bench_desc *d = bench_get(bench);
	int out[2], err[2];
	struct bench_run *r;
	pid_t pid;

	if (bc.child > 0) {
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
		char *argv[BENCH_ARGV_MAX + 8], words[BENCH_ARGS_MAX], *save = NULL;
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
		snprintf(words, sizeof(words), "%s", args);
		for (char *t = strtok_r(words, " \t", &save); t && n < BENCH_ARGV_MAX;
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
	bc.child = pid;
	bc.out_fd = out[0];
	bc.err_fd = err[0];
	bc.line_len = bc.err_len = 0;
	bc.progress = 0;
	r = new_run(bench, args);
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
		bc.progress = m.progress;
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

	while (waitpid(bc.child, &status, 0) < 0 && errno == EINTR)
		;
	bc.child = -1;
	close_fds();
	if (!r || r->state != RUN_RUNNING)
		return;
	r->state = RUN_FAILED;
	if (bc.err_len) {
		char *nl = memchr(bc.err, '\n', bc.err_len);

		snprintf(r->message, sizeof(r->message), "%.*s",
			 (int)(nl ? nl - bc.err : (long)bc.err_len), bc.err);
	} else if (WIFSIGNALED(status)) {
		snprintf(r->message, sizeof(r->message), _("killed by signal %d"),
			 WTERMSIG(status));
	} else {
		snprintf(r->message, sizeof(r->message), _("exit status %d"), WEXITSTATUS(status));
	}
	ui_status(ui, "%s", r->message);
}

int bench_child_poll(struct ui *ui)
{
	ssize_t n;

	if (bc.child <= 0)
		return -1;
	/* stderr: keep the first bytes, for a usage message */
	while (bc.err_fd >= 0) {
		char tmp[512];

		n = read(bc.err_fd, tmp, sizeof(tmp));
		if (n <= 0)
			break;
		if (bc.err_len < sizeof(bc.err) - 1) {
			size_t k = (size_t)n < sizeof(bc.err) - 1 - bc.err_len
				       ? (size_t)n
				       : sizeof(bc.err) - 1 - bc.err_len;

			memcpy(bc.err + bc.err_len, tmp, k);
			bc.err_len += k;
		}
	}
	for (;;) {
		char *nl;

		n = read(bc.out_fd, bc.line + bc.line_len, sizeof(bc.line) - bc.line_len);
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			return 100;
		if (n <= 0) {
			finish(ui);
			return -1;
		}
		bc.line_len += (size_t)n;
		while ((nl = memchr(bc.line, '\n', bc.line_len))) {
			size_t len = (size_t)(nl - bc.line);

			take_line(bc.line, len);
			memmove(bc.line, nl + 1, bc.line_len - len - 1);
			bc.line_len -= len + 1;
		}
		if (bc.line_len == sizeof(bc.line))
			bc.line_len = 0; /* a line longer than any the protocol writes */
	}
}

void bench_child_shutdown(void)
{
	stop_child();
	for (size_t i = 0; i < bc.nruns; i++)
		run_free(&bc.runs[i]);
	bc.nruns = 0;
}

void bench_child_cancel(struct ui *ui)
{
	if (bc.child <= 0)
		return;
	stop_child();
	if (current())
		current()->state = RUN_CANCELLED;
	ui_status(ui, _("Benchmark cancelled"));
}

const struct bench_run *bench_child_runs(size_t *n)
{
	*n = bc.nruns;
	return bc.runs;
}

double bench_child_progress(void)
{
	return bc.child > 0 ? bc.progress : -1;
}
