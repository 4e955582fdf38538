// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * status.c: the `status` benchmark, what one read of a /proc file costs ptop:
 * open(2)+read(2)+close(2) of /proc/self/status, stat and statm (or --path),
 * beside pread(2) at offset 0 on a descriptor held open, as ptop's fdcache
 * does. --threads T runs T threads doing the same loop at once, each with its
 * own descriptor, to show contention on the task's locks. The figure for each
 * is the median over --repeat runs of the run's wall time divided by --loops.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ptop/bench.h"
#include "ptop/util.h"

#define STATUS_BUF 8192 /* bytes per read, as the reference loop reads */

struct status_params {
	unsigned int loops;   /* reads per thread and run */
	const char *path;     /* NULL: /proc/self/{status,stat,statm} */
	unsigned int threads; /* threads reading at once */
};

static const struct status_params status_defaults = {
    .loops = 20000,
    .threads = 1,
};

static const struct bench_option status_options[] = {
    {.name = "loops",
     .short_name = 'l',
     .type = BENCH_OPT_UINT,
     .offset = offsetof(struct status_params, loops),
     .min = 1,
     .max = 1000000000,
     .arg = "N",
     .help = N_("reads per run and thread")},
    {.name = "path",
     .short_name = 'P',
     .type = BENCH_OPT_STRING,
     .offset = offsetof(struct status_params, path),
     .arg = "PATH",
     .help = N_("read this file only (default: /proc/self/status, stat, statm)")},
    {.name = "threads",
     .short_name = 't',
     .type = BENCH_OPT_UINT,
     .offset = offsetof(struct status_params, threads),
     .min = 1,
     .max = 4096,
     .arg = "T",
     .help = N_("threads doing the loop at once")},
    {.name = NULL},
};
_Static_assert(sizeof(status_options) / sizeof(status_options[0]) <= BENCH_MAX_OPTIONS + 1,
	       "too many options for bench.c's parser");

/* A file to read: its path and the JSON key prefix of its figures. */
struct status_file {
	const char *path;
	const char *key_orc, *key_pread, *key_bytes;
};

static const struct status_file proc_self_files[] = {
    {"/proc/self/status", "status_open_read_close", "status_pread", "status_bytes"},
    {"/proc/self/stat", "stat_open_read_close", "stat_pread", "stat_bytes"},
    {"/proc/self/statm", "statm_open_read_close", "statm_pread", "statm_bytes"},
};

enum status_mode { MODE_OPEN_READ_CLOSE, MODE_PREAD };

/* Holds the workers until all exist, or lets them go home if one could not start. */
struct status_gate {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool open, cancelled;
};

/* Returns true when the run goes ahead. */
static bool gate_wait(struct status_gate *g)
{
	bool go;

	pthread_mutex_lock(&g->lock);
	while (!g->open)
		pthread_cond_wait(&g->cond, &g->lock);
	go = !g->cancelled;
	pthread_mutex_unlock(&g->lock);
	return go;
}

static void gate_open(struct status_gate *g, bool cancelled)
{
	pthread_mutex_lock(&g->lock);
	g->open = true;
	g->cancelled = cancelled;
	pthread_cond_broadcast(&g->cond);
	pthread_mutex_unlock(&g->lock);
}

struct status_worker {
	pthread_t tid;
	const char *path;
	enum status_mode mode;
	unsigned int loops;
	struct status_gate *start; /* NULL: a single thread, no waiting */
	double t0, t1;		   /* CLOCK_MONOTONIC seconds around the loop */
	long bytes;		   /* of the last read */
	int err;		   /* 0 or -errno */
	const char *op;		   /* the call that failed */
};

static void worker_loop(struct status_worker *w)
{
	char buf[STATUS_BUF];
	ssize_t r = 0;
	int fd = -1;

	if (w->mode == MODE_PREAD) {
		fd = open(w->path, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			w->err = -errno;
			w->op = "open";
		}
	}
	if (w->start && !gate_wait(w->start))
		w->err = -ECANCELED;
	if (w->err) {
		if (fd >= 0)
			close(fd);
		return;
	}
	w->t0 = clock_mono();
	for (unsigned int i = 0; i < w->loops; i++) {
		if (w->mode == MODE_OPEN_READ_CLOSE) {
			fd = open(w->path, O_RDONLY | O_CLOEXEC);
			if (fd < 0) {
				w->err = -errno;
				w->op = "open";
				return;
			}
			r = read(fd, buf, sizeof(buf));
			if (r < 0) {
				w->err = -errno;
				w->op = "read";
			}
			close(fd);
			fd = -1;
		} else {
			r = pread(fd, buf, sizeof(buf), 0);
			if (r < 0) {
				w->err = -errno;
				w->op = "pread";
			}
		}
		if (w->err)
			break;
	}
	w->t1 = clock_mono();
	w->bytes = r;
	if (fd >= 0)
		close(fd);
}

static void *worker_main(void *arg)
{
	worker_loop(arg);
	return NULL;
}

/*
 * One run: threads workers do loops reads of path at once. *usec_per_op is
 * the wall time from the first start to the last finish over loops.
 */
static int status_run_once(const struct status_params *p, const char *path, enum status_mode mode,
			   struct status_worker *w, double *usec_per_op, long *bytes,
			   struct bench_result *res)
{
	struct status_gate start = {
	    .lock = PTHREAD_MUTEX_INITIALIZER,
	    .cond = PTHREAD_COND_INITIALIZER,
	};
	unsigned int started = 0;
	double t0, t1;
	int err = 0;

	for (unsigned int i = 0; i < p->threads; i++)
		w[i] = (struct status_worker){
		    .path = path, .mode = mode, .loops = p->loops, .start = NULL};
	if (p->threads == 1) {
		worker_loop(&w[0]);
		started = 1;
	} else {
		for (unsigned int i = 0; i < p->threads; i++) {
			w[i].start = &start;
			err = pthread_create(&w[i].tid, NULL, worker_main, &w[i]);
			if (err)
				break;
			started++;
		}
		gate_open(&start, err != 0);
		for (unsigned int i = 0; i < started; i++)
			pthread_join(w[i].tid, NULL);
		pthread_cond_destroy(&start.cond);
		pthread_mutex_destroy(&start.lock);
		if (err) {
			snprintf(res->message, sizeof(res->message),
				 _("pthread_create (thread %u of %u): %s"), started + 1, p->threads,
				 strerror(err));
			return -err;
		}
	}
	t0 = w[0].t0;
	t1 = w[0].t1;
	for (unsigned int i = 0; i < started; i++) {
		if (w[i].err) {
			snprintf(res->message, sizeof(res->message), "%s %s: %s", w[i].op, path,
				 strerror(-w[i].err));
			return w[i].err;
		}
		if (w[i].t0 < t0)
			t0 = w[i].t0;
		if (w[i].t1 > t1)
			t1 = w[i].t1;
	}
	*usec_per_op = (t1 - t0) * 1e6 / p->loops;
	*bytes = w[0].bytes;
	return 0;
}

static int status_run(const void *params, const struct bench_ctx *ctx, struct bench_result *res)
{
	const struct status_params *p = params;
	struct status_file given = {p->path, "path_open_read_close", "path_pread", "path_bytes"};
	const struct status_file *files = p->path ? &given : proc_self_files;
	size_t nfiles = p->path ? 1 : sizeof(proc_self_files) / sizeof(proc_self_files[0]);
	unsigned int repeat = ctx && ctx->repeat ? ctx->repeat : 1;
	struct status_worker *w = xcalloc(p->threads, sizeof(*w));
	double *samples = xcalloc((size_t)nfiles * 2 * repeat, sizeof(*samples));
	long bytes[3] = {0};
	int err = 0;

	/* Interleave the files and modes in each run, so drift hits all alike. */
	for (unsigned int r = 0; r < repeat && !err; r++) {
		for (size_t f = 0; f < nfiles && !err; f++) {
			for (int m = 0; m < 2 && !err; m++) {
				double *s = &samples[(f * 2 + (size_t)m) * repeat + r];

				err = status_run_once(p, files[f].path, (enum status_mode)m, w, s,
						      &bytes[f], res);
			}
			bench_progress(ctx,
				       (double)(r * nfiles + f + 1) / (double)(repeat * nfiles));
		}
	}
	if (err)
		goto out;

	snprintf(res->header, sizeof(res->header),
		 _("%u loops of open+read+close and of pread, %u threads, median of %u runs"),
		 p->loops, p->threads, repeat);
	for (size_t f = 0; f < nfiles; f++) {
		double *orc = &samples[f * 2 * repeat], *pr = &samples[(f * 2 + 1) * repeat];
		struct bench_value *v;

		v = bench_add_value(
		    res, files[f].key_orc, bench_text(res, _("%s: open+read+close"), files[f].path),
		    "usecs/op", bench_median(orc, repeat), BENCH_STYLE_FIGURE, true);
		bench_set_spread(v, orc, repeat, _("runs"));
		v = bench_add_value(
		    res, files[f].key_pread,
		    bench_text(res, _("%s: pread on a held descriptor"), files[f].path), "usecs/op",
		    bench_median(pr, repeat), BENCH_STYLE_FIGURE, true);
		bench_set_spread(v, pr, repeat, _("runs"));
		bench_add_value(res, files[f].key_bytes,
				bench_text(res, _("%s: bytes per read"), files[f].path), "bytes",
				(double)bytes[f], BENCH_STYLE_COUNT, false);
	}
	bench_add_value(res, "ops", N_("reads per run and mode"), "reads",
			(double)p->loops * p->threads, BENCH_STYLE_COUNT, false);
out:
	free(samples);
	free(w);
	return err;
}

const struct bench_desc bench_status = {
    .name = "status",
    .title = "status",
    .summary = N_("open+read+close of /proc/self/status, stat, statm beside pread"),
    .options = status_options,
    .params_size = sizeof(struct status_params),
    .defaults = &status_defaults,
    .run = status_run,
};
