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
#include "ptop/export.h"
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

/*
 * What each frame reads: statm for SHR, which every format shows; status only
 * for what sorting, the chosen columns or -U (real, saved, fs uids) need.
 */
static struct pipeline_request batch_request(const struct batch_opts *o)
{
	struct pipeline_request req = {.needs = PROC_NEED(PROC_FILE_STATM) |
						field_defs[o->order.field].needs,
				       .threads = o->threads,
				       .per_cpu = o->per_cpu};

	for (size_t i = 0; i < o->view.ncolumns; i++)
		req.needs |= field_defs[o->view.columns[i]].needs;
	if (o->filter.by_uid && o->filter.uid_any)
		req.needs |= PROC_NEED(PROC_FILE_STATUS);
	return req;
}

/* top's first interval: long enough for a tick or so of what is busy, short to wait for. */
#define BATCH_FIRST_INTERVAL_S 0.15

/*
 * A frame that is not written, then a short sleep: the first written frame's
 * %CPU and CPU split then cover that interval (what is busy now), as top's
 * do, not each process's average since it started.
 */
static int batch_prime(struct pipeline *pipe, const struct pipeline_request *req, struct frame *f)
{
	struct timespec at;
	int err = pipeline_frame(pipe, req, f);

	if (err)
		return err;
	clock_gettime(CLOCK_MONOTONIC, &at);
	add_seconds(&at, BATCH_FIRST_INTERVAL_S);
	sleep_until(&at);
	return 0;
}

/* -S: each row's time with its dead children's, as top's cumulative mode. */
static void add_children_time(struct frame *f)
{
	for (size_t i = 0; i < f->nprocs; i++) {
		f->procs[i].utime += f->procs[i].cutime;
		f->procs[i].stime += f->procs[i].cstime;
	}
}

/* Format and write one frame; 0 or -errno of the write. */
static int print_frame(const struct batch_opts *o, struct pipeline *pipe, struct frame *f,
		       const struct frame_proc **rows, size_t nrows, bool first, struct sbuf *out)
{
	/* -c: a process that is gone since has its name for a command line */
	f->cmdlines = o->cmdline;
	if (o->cmdline)
		pipeline_cmdlines(pipe, f, rows, nrows);
	sbuf_reset(out);
	output_formats[o->format].frame(out, f, rows, nrows, first);
	return write_out(o->out_fd, out->p, out->len);
}

int batch_run(const struct batch_opts *o)
{
	struct exporter *x = NULL;
	struct pipeline_opts po = {.root = o->root,
				   .observe = o->observe,
				   .watches = o->watches,
				   .nwatches = o->nwatches,
				   .counters_optional = true};
	struct pipeline_request req = batch_request(o);
	const struct frame_proc **rows = NULL;
	struct frame f = {0};
	struct sbuf out = {0};
	struct pipeline *pipe;
	struct pipeline_error why;
	struct timespec next;
	size_t rows_cap = 0;
	int status = 0, err;

	catch_signals();
	/* JSON and CSV write every column with a key: what those need is read as well */
	for (int id = 0; o->format != OUTPUT_TEXT && id < FIELD_COUNT; id++)
		if (field_defs[id].key && !field_defs[id].json_only)
			req.needs |= field_defs[id].needs;
	/* sorting by PERF means counting it, for every process shown */
	if (o->order.field == FIELD_PERF)
		po.observe.perf_fds = true;
	if (o->listen)
		req.needs |= exporter_needs();
	err = pipeline_new(&po, &pipe, &why);
	if (why.msg[0])
		fprintf(stderr, "%s\n", why.msg);
	if (err)
		return why.status;
	if (o->listen) {
		char msg[256];

		err = exporter_start(o->listen, &o->metrics, &x, msg);
		fprintf(stderr, "%s\n", msg);
		if (err) {
			pipeline_free(pipe);
			return 1;
		}
	}
	err = batch_prime(pipe, &req, &f);
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (long n = 0; !batch_stop && (o->iterations == 0 || n < o->iterations); n++) {
		size_t nrows;

		if (!err)
			err = pipeline_frame(pipe, &req, &f);
		if (err) {
			fprintf(stderr, _("ptop: cannot list processes: %s\n"), strerror(-err));
			status = 1;
			break;
		}
		f.view = &o->view;
		if (o->cumulative)
			add_children_time(&f);
		if (rows_cap < f.nprocs) {
			rows_cap = f.cap;
			rows = xreallocarray(rows, rows_cap, sizeof(*rows));
		}
		nrows = pipeline_select(pipe, &f, &o->filter, &o->order, rows, po.observe.counters,
					po.observe.perf_fds);
		if (x)
			exporter_frame(x, pipe, &f, rows, nrows);
		err = o->quiet ? 0 : print_frame(o, pipe, &f, rows, nrows, n == 0, &out);
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
	exporter_stop(x);
	free(rows);
	sbuf_free(&out);
	frame_free(&f);
	pipeline_free(pipe);
	return status;
}
