// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * batch.c: the batch loop. Each frame is built in one buffer and written
 * with one write (retried only if the kernel takes it in parts), so a reader
 * never sees half a frame unless ptop is killed mid-write. SIGINT, SIGTERM and
 * SIGHUP end the loop between frames, and the run then reports the signal;
 * a reader that goes away (EPIPE) ends it quietly.
 */
#include <errno.h>
#include <stdint.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ptop/batch.h"
#include "ptop/export.h"
#include "ptop/pipeline.h"
#include "ptop/record.h"
#include "ptop/replay.h"

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
 * for what sorting, the chosen columns or -U (real, saved, fs uids) need;
 * recording, what every recording keeps as well.
 */
static struct pipeline_request batch_request(const struct batch_opts *o)
{
	struct pipeline_request req = {.needs = PROC_NEED(PROC_FILE_STATM) |
						field_defs[o->order.field].needs,
				       .threads = o->threads,
				       .per_cpu = o->per_cpu,
				       /* JSON and recordings carry the machine's pressure */
				       .psi = o->format == &output_format_json || o->record};

	for (size_t i = 0; i < o->view.ncolumns; i++)
		req.needs |= field_defs[o->view.columns[i]].needs;
	if (o->filter.by_uid && o->filter.uid_any)
		req.needs |= PROC_NEED(PROC_FILE_STATUS);
	if (o->record) {
		req.needs |= RECORD_NEEDS;
		req.needs_lazy = RECORD_NEEDS_LAZY;
	}
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

/* Where the frames of one run go: the output buffer, the recording. */
struct batch_out {
	const struct batch_opts *o;
	const struct output_format_def *fmt;
	struct pipeline *pipe;
	struct recorder *rec;
	struct exporter *x;	/* --listen */
	struct row_order order; /* -s/-o, sorting times as -S shows them */
	const struct frame_proc **rows;
	size_t rows_cap;
	const struct frame_proc **exited; /* the processes that ended, chosen as rows are */
	size_t exited_cap;
	struct sbuf buf;
	long printed;
	bool want_swapd, said_swapd; /* SWPD% asked for; why it has no value, said once */
};

/* One frame f, selected, printed and recorded. -1 to go on, else the exit status. */
static int batch_frame(struct batch_out *b, struct frame *f, bool counters, bool perf_fds)
{
	const struct batch_opts *o = b->o;
	struct record_error re;
	size_t nrows;
	int err;

	if (b->rows_cap < f->nprocs) {
		b->rows_cap = f->cap;
		b->rows = xreallocarray(b->rows, b->rows_cap, sizeof(*b->rows));
	}
	/* -F with -c looks in every process's command line, as the viewer's filter */
	if (o->filter.substr && o->view.cmdlines) {
		for (size_t i = 0; i < f->nprocs; i++)
			b->rows[i] = &f->procs[i];
		pipeline_cmdlines(b->pipe, f, b->rows, f->nprocs);
	}
	nrows = pipeline_select(b->pipe, f, &o->filter, &b->order, b->rows, counters, perf_fds);
	if (b->x) {
		const char *note = exporter_frame(b->x, b->pipe, f, b->rows, nrows, &o->filter);

		if (note)
			fprintf(stderr, "%s\n", note);
	}
	/* -c: a process that is gone since keeps its name; a replay has the command
	 * lines it recorded */
	if (o->view.cmdlines)
		pipeline_cmdlines(b->pipe, f, b->rows, nrows);
	/* recorded first: a reader that went away ends the run, not this frame's record */
	if (b->rec && recorder_frame(b->rec, f, &re)) {
		fprintf(stderr, "%s\n", re.msg);
		return 1;
	}
	/* why a column asked for has no value, once, apart from the output */
	if (b->want_swapd && !b->said_swapd && field_swapd_why(&b->buf, f)) {
		fprintf(stderr, "ptop: %.*s\n", (int)b->buf.len, b->buf.p);
		b->said_swapd = true;
	}
	if (!o->quiet) {
		struct output_view v = o->view;
		struct frame_tasks shown;

		if (b->exited_cap < f->nexited) {
			b->exited_cap = f->nexited;
			b->exited = xreallocarray(b->exited, b->exited_cap, sizeof(*b->exited));
		}
		/* text is top's table unless asked: its Tasks: line counts its rows */
		if (b->fmt != &output_format_text || o->exited)
			v.nexited = rows_select_exited(f, &o->filter, &b->order, b->exited);
		v.exited = b->exited;

		/* what -p shows, as top's Tasks: line; the recording keeps the whole frame's */
		if (rows_count_tasks(f, &o->filter, &shown))
			v.tasks = &shown;
		sbuf_reset(&b->buf);
		b->fmt->frame(&b->buf, f, &v, b->rows, nrows, b->printed++ == 0);
		err = write_out(o->out_fd, b->buf.p, b->buf.len);
		/* -EPIPE: the reader is done with us, not an error */
		if (err)
			return err != -EPIPE;
	}
	return -1;
}

/* Open the pipeline and the recorder; -1 to go on, else the exit status. */
static int batch_open(struct batch_out *b, struct pipeline_opts *po, int64_t *end_ns)
{
	const struct batch_opts *o = b->o;
	struct pipeline_error why;
	struct record_error re;
	int err;

	err = pipeline_new(po, &b->pipe, &why);
	if (why.msg[0])
		fprintf(stderr, "%s\n", why.msg);
	if (err)
		return why.status;
	if (pipeline_source_note(b->pipe))
		fprintf(stderr, "ptop: %s\n", pipeline_source_note(b->pipe));
	*end_ns = INT64_MAX;
	if (o->replay) {
		uint64_t from;

		replay_say_tail(pipeline_replay(b->pipe));
		err = replay_range(pipeline_replay(b->pipe), o->begin, o->end, &from, end_ns);
		if (err >= 0)
			return err;
		pipeline_seek(b->pipe, from);
	}
	if (o->listen) {
		char msg[256];

		err = exporter_start(o->listen, &o->metrics, &b->x, msg);
		fprintf(stderr, "%s\n", msg);
		if (err)
			return 1;
	}
	if (o->record && recorder_open(o->record, o->keep_days, &b->rec, &re)) {
		fprintf(stderr, "%s\n", re.msg);
		return 1;
	}
	return -1;
}

/* Sleep until the next frame is due, from the last deadline; no burst when behind. */
static void batch_wait(struct timespec *next, double delay_s)
{
	struct timespec now;

	add_seconds(next, delay_s);
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (now.tv_sec > next->tv_sec ||
	    (now.tv_sec == next->tv_sec && now.tv_nsec > next->tv_nsec))
		*next = now;
	sleep_until(next);
}

int batch_run(const struct batch_opts *o)
{
	struct pipeline_opts po = {.root = o->root,
				   .source = o->source,
				   .observe = o->observe,
				   .watches = o->watches,
				   .nwatches = o->nwatches,
				   .counters_optional = true,
				   .replay = o->replay};
	struct pipeline_request req = batch_request(o);
	struct batch_out b = {.o = o, .fmt = o->format ? o->format : &output_format_text};
	struct frame f = {0};
	struct record_error re;
	struct timespec next;
	int64_t end_ns;
	int status = -1, err = 0;

	catch_signals();
	b.order = o->order;
	b.order.cumulative = o->view.cumulative;
	/* JSON and CSV write every column with a key (but those only --fields asks
	 * for): what those need is read as well */
	for (int id = 0; b.fmt->every_column && id < FIELD_COUNT; id++)
		if (field_defs[id].key && !field_defs[id].json_only && !field_defs[id].if_asked)
			req.needs |= field_defs[id].needs;
	/* sorting by PERF means counting it, for every process shown */
	if (o->order.field == FIELD_PERF)
		po.observe.perf_fds = true;
	status = batch_open(&b, &po, &end_ns);
	if (b.x)
		req.needs |= exporter_needs(b.x);
	b.want_swapd = req.needs & ROW_NEED_TASKSTATS;
	if (status < 0 && !o->replay)
		err = batch_prime(b.pipe, &req, &f);
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (long n = 0; status < 0 && !batch_stop && (o->iterations == 0 || n < o->iterations);
	     n++) {
		if (!err)
			err = pipeline_frame(b.pipe, &req, &f);
		if (err == -ENODATA && o->replay)
			break;
		if (err) {
			if (o->replay)
				fprintf(stderr, "%s\n", pipeline_replay_error(b.pipe));
			else
				fprintf(stderr, _("ptop: cannot list processes: %s\n"),
					strerror(-err));
			status = 1;
			break;
		}
		if (o->replay && (int64_t)f.time.tv_sec * 1000000000 + f.time.tv_nsec > end_ns)
			break;
		status = batch_frame(&b, &f, po.observe.counters, po.observe.perf_fds);
		if (status >= 0 || (o->iterations && n + 1 >= o->iterations))
			break;
		if (!o->replay)
			batch_wait(&next, o->delay_s);
	}
	if (status < 0)
		status = 0;
	/* every intact frame printed: then one line for those that were not */
	if (o->replay && b.pipe && pipeline_replay_skipped(b.pipe)) {
		replay_say_skipped(pipeline_replay_error(b.pipe), pipeline_replay_skipped(b.pipe));
		if (!status)
			status = 1;
	}
	if (recorder_close(b.rec, &re) && !status) {
		fprintf(stderr, "%s\n", re.msg);
		status = 1;
	}
	/* Stopped by a signal: say so, as a process killed by it would. */
	if (batch_stop && !status)
		status = 128 + batch_stop;
	exporter_stop(b.x);
	free(b.rows);
	free(b.exited);
	sbuf_free(&b.buf);
	frame_free(&f);
	pipeline_free(b.pipe);
	return status;
}
