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
#include "ptop/pipeline.h"

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
	struct pipeline_opts po = {.root = o->root,
				   .source = o->source,
				   .observe = o->observe,
				   .watches = o->watches,
				   .nwatches = o->nwatches,
				   .counters_optional = true};
	/* statm for SHR, which every format shows; status only to sort by what it holds */
	struct pipeline_request req = {.needs = PROC_NEED(PROC_FILE_STATM) |
						field_defs[o->order.field].needs,
				       .threads = o->threads};
	const struct frame_proc **rows = NULL;
	struct frame f = {0};
	struct sbuf out = {0};
	struct pipeline *pipe;
	struct pipeline_error why;
	struct timespec next;
	size_t rows_cap = 0;
	int status = 0, err;

	catch_signals();
	/* sorting by PERF means counting it, for every process shown */
	if (o->order.field == FIELD_PERF)
		po.observe.perf_fds = true;
	err = pipeline_new(&po, &pipe, &why);
	if (why.msg[0])
		fprintf(stderr, "%s\n", why.msg);
	if (err)
		return why.status;
	if (pipeline_source_note(pipe))
		fprintf(stderr, "ptop: %s\n", pipeline_source_note(pipe));
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (long n = 0; !batch_stop && (o->iterations == 0 || n < o->iterations); n++) {
		size_t nrows;

		err = pipeline_frame(pipe, &req, &f);
		if (err) {
			fprintf(stderr, _("ptop: cannot list processes: %s\n"), strerror(-err));
			status = 1;
			break;
		}
		if (rows_cap < f.nprocs) {
			rows_cap = f.cap;
			rows = xreallocarray(rows, rows_cap, sizeof(*rows));
		}
		nrows = pipeline_select(pipe, &f, &o->filter, &o->order, rows, po.observe.counters,
					po.observe.perf_fds);
		/* -c: a process that is gone since has its name for a command line */
		f.cmdlines = o->cmdline;
		if (o->cmdline)
			pipeline_cmdlines(pipe, &f, rows, nrows);
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
	/* Stopped by a signal: say so, as a process killed by it would. */
	if (batch_stop && !status)
		status = 128 + batch_stop;
	free(rows);
	sbuf_free(&out);
	frame_free(&f);
	pipeline_free(pipe);
	return status;
}
