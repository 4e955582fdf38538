// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * batch.c: the batch loop. Each frame is built in one buffer and written
 * with one write (retried only if the kernel takes it in parts), so a reader
 * never sees half a frame unless ptop is killed mid-write. SIGINT, SIGTERM and
 * SIGHUP end the loop between frames, and the run then reports the signal;
 * a reader that goes away (EPIPE) ends it quietly.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ptop/batch.h"

static volatile sig_atomic_t batch_stop; /* the signal that asked to stop, or 0 */

static void on_signal(int sig)
{
	batch_stop = sig;
}

static void catch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
}

/* Sleep until the monotonic deadline, or until a signal asks to stop. */
static void sleep_until(const struct timespec *deadline)
{
	while (!batch_stop &&
	       clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, deadline, NULL) == EINTR)
		;
}

static void add_seconds(struct timespec *t, double s)
{
	long long ns = (long long)(s * 1e9);

	t->tv_sec += (time_t)(ns / 1000000000);
	t->tv_nsec += (long)(ns % 1000000000);
	if (t->tv_nsec >= 1000000000) {
		t->tv_sec++;
		t->tv_nsec -= 1000000000;
	}
}

int batch_run(const struct batch_opts *o)
{
	const struct output_format_def *fmt = &output_formats[o->format];
	/* statm for SHR, which every format shows; status only to sort by what it holds */
	struct sampler_opts so = {.root = o->root,
				  .needs =
				      PROC_NEED(PROC_FILE_STATM) | field_defs[o->order.field].needs,
				  .threads = o->threads};
	const struct frame_proc **rows = NULL;
	struct frame f = {0};
	struct sbuf out = {0};
	struct sampler *s;
	struct observer *ob = NULL;
	struct observer_opts oo;
	const char *bad = NULL;
	struct timespec next;
	size_t rows_cap = 0;
	int status = 0, err;

	catch_signals();
	err = sampler_new(&so, &s);
	if (err) {
		fprintf(stderr, _("ptop: cannot read %s: %s\n"), o->root ? o->root : "/proc",
			strerror(-err));
		return 1;
	}
	oo = o->observe;
	/* sorting by PERF means counting it, for every process shown */
	if (o->order.field == FIELD_PERF)
		oo.perf_fds = true;
	err = observer_new(&oo, &ob, &bad);
	if (err == -ENOENT) {
		fprintf(stderr, _("ptop: unknown event '%s'\n"), bad ? bad : "?");
		sampler_free(s);
		return 2;
	}
	if (err) {
		/* Counters are an extra: without them the frames still come. */
		struct observer_opts plain = oo;

		fprintf(stderr, _("ptop: counters unavailable: %s\n"), strerror(-err));
		plain.counters = false;
		observer_new(&plain, &ob, NULL);
	}
	for (size_t i = 0; i < o->nwatches; i++) {
		const struct perf_bp_spec *w = &o->watches[i];

		err = observer_watch(ob, w);
		if (err) {
			fprintf(stderr, _("ptop: cannot watch %d: %s\n"), w->pid,
				_(perf_bp_strerror(err)));
			status = 1;
			goto out;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (long n = 0; !batch_stop && (o->iterations == 0 || n < o->iterations); n++) {
		size_t nrows;

		observer_begin(ob);
		err = sampler_frame(s, &f);
		if (err) {
			fprintf(stderr, _("ptop: cannot list processes: %s\n"), strerror(-err));
			status = 1;
			break;
		}
		if (rows_cap < f.nprocs) {
			rows_cap = f.cap;
			rows = xreallocarray(rows, rows_cap, sizeof(*rows));
		}
		if (field_defs[o->order.field].observer) {
			/* sorted by what the observer fills: observe first, then sort */
			nrows = rows_select(&f, &o->filter, NULL, rows);
			observer_update(ob, &f, rows, nrows);
			rows_sort(rows, nrows, &o->order);
		} else {
			nrows = rows_select(&f, &o->filter, &o->order, rows);
			observer_update(ob, &f, rows, nrows);
		}
		/* -c: a process that is gone since has its name for a command line */
		f.cmdlines = o->cmdline;
		for (size_t i = 0; o->cmdline && i < nrows; i++)
			sampler_cmdline(s, &f, &f.procs[rows[i] - f.procs]);
		sbuf_reset(&out);
		fmt->frame(&out, &f, rows, nrows, n == 0);
		err = write_out(o->out_fd, out.p, out.len);
		if (err) {
			/* -EPIPE: the reader is done with us, not an error */
			status = err != -EPIPE;
			break;
		}
		if (o->iterations && n + 1 >= o->iterations)
			break;
		add_seconds(&next, o->delay_s);
		{
			struct timespec now;

			/* Behind schedule (a slow frame): start again from now, no burst. */
			clock_gettime(CLOCK_MONOTONIC, &now);
			if (now.tv_sec > next.tv_sec ||
			    (now.tv_sec == next.tv_sec && now.tv_nsec > next.tv_nsec))
				next = now;
		}
		sleep_until(&next);
	}
out:
	/* Stopped by a signal: say so, as a process killed by it would. */
	if (batch_stop && !status)
		status = 128 + batch_stop;
	observer_free(ob);
	free(rows);
	sbuf_free(&out);
	frame_free(&f);
	sampler_free(s);
	return status;
}
