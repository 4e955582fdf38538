// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * breakpoint.c: the `breakpoint-thread` and `breakpoint-enable` benchmarks,
 * the same work as `perf bench breakpoint thread|enable`, so that the same
 * parameters give the same figure. Both open inheritable hardware breakpoints
 * (perf_event_open(2), PERF_TYPE_BREAKPOINT, HW_BREAKPOINT_RW on a byte of a
 * variable, user space only) on this process. `thread` then has --parallelism
 * threads create and join --repeat batches of --threads threads, each of which
 * inherits every breakpoint; `enable` starts passive (futex-blocked) and
 * active (spinning) threads and times --repeat PERF_EVENT_IOC_DISABLE/ENABLE
 * pairs, which reach every thread. --sweep adds series over breakpoints 0..4
 * and threads up to twice the online CPUs. Besides perf's figures, each
 * batch (thread) or block of flips (enable) is timed for the spread, and the
 * function-call IPIs, context switches and migrations during the timed part
 * are counted (bench_causes) to name the mode a run was in.
 */
#include <errno.h>
#include <linux/futex.h>
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "ptop/bench.h"
#include "ptop/util.h"

#define BP_SWEEP_MAX_BREAKPOINTS 4 /* x86 has four debug address registers */
#define BP_MAX_BLOCKS 100	   /* timed blocks of the enable loop, for its spread */
#define BP_MAX_SAMPLES 100000	   /* batches of the thread benchmark timed one by one */

struct bp_thread_params {
	unsigned int breakpoints; /* inheritable breakpoints held during the run */
	unsigned int parallelism; /* threads creating batches at once */
	unsigned int threads;	  /* threads per batch */
	bool sweep;
};

struct bp_enable_params {
	unsigned int passive; /* threads blocked in futex_wait */
	unsigned int active;  /* threads spinning */
	bool sweep;
};

/* perf bench's defaults. */
static const struct bp_thread_params bp_thread_defaults = {
    .breakpoints = 1,
    .parallelism = 1,
    .threads = 1,
};

static const struct bp_enable_params bp_enable_defaults = {0};

static const struct bench_option bp_thread_options[] = {
    {.name = "breakpoints",
     .short_name = 'b',
     .type = BENCH_OPT_UINT,
     .offset = offsetof(struct bp_thread_params, breakpoints),
     .min = 0,
     .max = 1024,
     .arg = "N",
     .help = N_("inheritable breakpoints to hold")},
    {.name = "parallelism",
     .short_name = 'p',
     .type = BENCH_OPT_UINT,
     .offset = offsetof(struct bp_thread_params, parallelism),
     .min = 1,
     .max = 4096,
     .arg = "N",
     .help = N_("threads creating batches at once")},
    {.name = "threads",
     .short_name = 't',
     .type = BENCH_OPT_UINT,
     .offset = offsetof(struct bp_thread_params, threads),
     .min = 1,
     .max = 4096,
     .arg = "N",
     .help = N_("threads created and joined per batch")},
    {.name = "sweep",
     .type = BENCH_OPT_FLAG,
     .offset = offsetof(struct bp_thread_params, sweep),
     .help = N_("also run breakpoints 0..4 and threads 1..2x CPUs")},
    {.name = NULL},
};
_Static_assert(sizeof(bp_thread_options) / sizeof(bp_thread_options[0]) <= BENCH_MAX_OPTIONS + 1,
	       "too many options for bench.c's parser");

static const struct bench_option bp_enable_options[] = {
    {.name = "passive",
     .short_name = 'p',
     .type = BENCH_OPT_UINT,
     .offset = offsetof(struct bp_enable_params, passive),
     .min = 0,
     .max = 4096,
     .arg = "N",
     .help = N_("threads blocked while the breakpoint flips")},
    {.name = "active",
     .short_name = 'a',
     .type = BENCH_OPT_UINT,
     .offset = offsetof(struct bp_enable_params, active),
     .min = 0,
     .max = 4096,
     .arg = "N",
     .help = N_("threads spinning while the breakpoint flips")},
    {.name = "sweep",
     .type = BENCH_OPT_FLAG,
     .offset = offsetof(struct bp_enable_params, sweep),
     .help = N_("also run passive and active threads 0..2x CPUs")},
    {.name = NULL},
};
_Static_assert(sizeof(bp_enable_options) / sizeof(bp_enable_options[0]) <= BENCH_MAX_OPTIONS + 1,
	       "too many options for bench.c's parser");

/* Each breakpoint watches its own byte, as perf's struct breakpoint does. */
struct bp_slot {
	int fd;
	char watched;
};

static void bp_message(struct bench_result *res, int err, unsigned int i, unsigned int n)
{
	switch (-err) {
	case ENODEV:
		snprintf(res->message, sizeof(res->message), _("No hardware support"));
		break;
	case ENOSPC:
		snprintf(res->message, sizeof(res->message),
			 _("perf_event_open: no free hardware breakpoint slot for breakpoint %u "
			   "of %u (ENOSPC); try fewer --breakpoints"),
			 i + 1, n);
		break;
	case EACCES:
	case EPERM:
		snprintf(res->message, sizeof(res->message),
			 _("perf_event_open: permission denied (%s); see "
			   "/proc/sys/kernel/perf_event_paranoid"),
			 -err == EACCES ? "EACCES" : "EPERM");
		break;
	default:
		snprintf(res->message, sizeof(res->message), "perf_event_open: %s", strerror(-err));
	}
}

/* An inheritable read/write breakpoint on addr for this process; fd or -errno. */
static int bp_open(void *addr)
{
	struct perf_event_attr attr;
	long fd;

	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_BREAKPOINT;
	attr.size = sizeof(attr);
	attr.inherit = 1;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	attr.bp_addr = (unsigned long)addr;
	attr.bp_type = HW_BREAKPOINT_RW;
	attr.bp_len = HW_BREAKPOINT_LEN_1;
	fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	return fd < 0 ? -errno : (int)fd;
}

/* Open n breakpoints into slots (allocated here); on failure none stay open. */
static int bp_open_all(unsigned int n, struct bp_slot **slots, struct bench_result *res)
{
	struct bp_slot *s = xcalloc(n, sizeof(*s));

	for (unsigned int i = 0; i < n; i++) {
		s[i].fd = bp_open(&s[i].watched);
		if (s[i].fd < 0) {
			int err = s[i].fd;

			bp_message(res, err, i, n);
			while (i--)
				close(s[i].fd);
			free(s);
			return err;
		}
	}
	*slots = s;
	return 0;
}

static void bp_close_all(struct bp_slot *s, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		close(s[i].fd);
	free(s);
}

static void futex_wait(unsigned int *uaddr, unsigned int val)
{
	syscall(SYS_futex, uaddr, FUTEX_WAIT, val, NULL, NULL, 0);
}

static void futex_wake(unsigned int *uaddr, int n)
{
	syscall(SYS_futex, uaddr, FUTEX_WAKE, n, NULL, NULL, 0);
}

static void *passive_main(void *arg)
{
	unsigned int *done = arg;

	while (!__atomic_load_n(done, __ATOMIC_RELAXED))
		futex_wait(done, 0);
	return NULL;
}

static void *active_main(void *arg)
{
	unsigned int *done = arg;

	while (!__atomic_load_n(done, __ATOMIC_RELAXED))
		;
	return NULL;
}

/* Start n threads running fn(done); returns how many started, *err the first failure. */
static unsigned int start_threads(pthread_t *t, unsigned int n, void *(*fn)(void *),
				  unsigned int *done, int *err)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		int e = pthread_create(&t[i], NULL, fn, done);

		if (e) {
			*err = -e;
			break;
		}
	}
	return i;
}

static void stop_threads(pthread_t *t, unsigned int n, unsigned int *done)
{
	__atomic_store_n(done, 1, __ATOMIC_RELAXED);
	futex_wake(done, n ? (int)n : 1);
	for (unsigned int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
}

struct batcher {
	pthread_t tid;
	int *left;	      /* batches still to run, shared by the batchers */
	unsigned int threads; /* per batch */
	int err;	      /* 0 or -errno of pthread_create */
	double *samples;      /* usecs per thread of batch k, k < nsamples; or NULL */
	unsigned int nsamples;
};

static void *batcher_main(void *arg)
{
	struct batcher *b = arg;
	pthread_t *t = xcalloc(b->threads, sizeof(*t));
	int k;

	while ((k = __atomic_fetch_sub(b->left, 1, __ATOMIC_RELAXED)) > 0) {
		unsigned int done = 0, n;
		double t0 = clock_mono();

		n = start_threads(t, b->threads, passive_main, &done, &b->err);
		stop_threads(t, n, &done);
		/* k counts down from repeat: each batch has its own slot */
		if (b->samples && (unsigned int)k <= b->nsamples)
			b->samples[k - 1] = (clock_mono() - t0) * 1e6 / b->threads;
		if (b->err) {
			__atomic_store_n(b->left, 0, __ATOMIC_RELAXED);
			break;
		}
	}
	free(t);
	return NULL;
}

/*
 * One run of perf bench breakpoint thread; *sec its wall time. With causes,
 * counts them over the run; with samples, the time of each of the first
 * nsamples batches per thread created.
 */
static int bp_thread_once(unsigned int nbp, unsigned int parallelism, unsigned int threads,
			  unsigned int repeat, double *sec, struct bench_result *res,
			  struct bench_causes *causes, double *samples, unsigned int nsamples)
{
	struct batcher *b = xcalloc(parallelism, sizeof(*b));
	struct bp_slot *slots = NULL;
	int left = (int)repeat, err;
	unsigned int started;
	double t0, t1;

	err = bp_open_all(nbp, &slots, res);
	if (err)
		goto out_free;
	if (causes)
		bench_causes_start(causes);
	t0 = clock_mono();
	for (started = 0; started < parallelism; started++) {
		b[started] = (struct batcher){
		    .left = &left, .threads = threads, .samples = samples, .nsamples = nsamples};
		err = pthread_create(&b[started].tid, NULL, batcher_main, &b[started]);
		if (err) {
			err = -err;
			__atomic_store_n(&left, 0, __ATOMIC_RELAXED);
			break;
		}
	}
	for (unsigned int i = 0; i < started; i++) {
		pthread_join(b[i].tid, NULL);
		if (!err)
			err = b[i].err;
	}
	t1 = clock_mono();
	if (causes)
		bench_causes_stop(causes);
	bp_close_all(slots, nbp);
	if (err) {
		snprintf(res->message, sizeof(res->message), "pthread_create: %s", strerror(-err));
		goto out_free;
	}
	*sec = t1 - t0;
out_free:
	free(b);
	return err;
}

/*
 * Name the mode a run was in. A flip or a thread's start reaches the
 * threads on other CPUs by function-call IPIs: a run whose threads shared
 * the CPU needs few, one spread over CPUs one or more per op, and takes
 * many times longer. The count is of all CPUs, so a busy machine adds some.
 */
static void bp_mode_note(struct bench_result *res, const struct bench_value *v,
			 const struct bench_causes *c, double ops)
{
	if (v && v->bimodal)
		bench_note(res,
			   _("BIMODAL run: some of it fast, some slow; compare runs pinned with "
			     "--cpu"));
	if (c->ipis < 0 || ops <= 0)
		return;
	if ((double)c->ipis / ops >= 0.5)
		bench_note(res,
			   _("cross-CPU mode: %.1f IPIs per op, threads on other CPUs were "
			     "interrupted; pinned to one CPU (--cpu 0) it is the fast mode"),
			   (double)c->ipis / ops);
	else
		bench_note(res,
			   _("same-CPU mode: %.2f IPIs per op, few threads on other CPUs "
			     "needed interrupting"),
			   (double)c->ipis / ops);
}

static unsigned int online_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (unsigned int)n : 1;
}

static int bp_thread_run(const void *params, const struct bench_ctx *ctx, struct bench_result *res)
{
	const struct bp_thread_params *p = params;
	unsigned int repeat = ctx && ctx->repeat ? ctx->repeat : 1;
	unsigned int max_threads = 2 * online_cpus();
	unsigned int points = p->sweep ? BP_SWEEP_MAX_BREAKPOINTS + 1 + max_threads : 0;
	unsigned int nsamples = repeat < BP_MAX_SAMPLES ? repeat : BP_MAX_SAMPLES;
	double *samples = xcalloc(nsamples, sizeof(*samples));
	struct bench_series *by_bp, *by_thr;
	struct bench_causes causes;
	struct bench_value *v;
	double sec, usec;
	int err;

	bench_causes_open(&causes);
	err = bp_thread_once(p->breakpoints, p->parallelism, p->threads, repeat, &sec, res, &causes,
			     samples, nsamples);
	bench_causes_close(&causes);
	if (err) {
		free(samples);
		return err;
	}
	bench_progress(ctx, 1.0 / (points + 1));
	usec = sec * 1e6;
	snprintf(res->header, sizeof(res->header),
		 _("Created/joined %u threads with %u breakpoints and %u parallelism"), repeat,
		 p->breakpoints, p->parallelism);
	bench_add_value(res, "total_time", N_("Total time"), "sec", sec, BENCH_STYLE_TOTAL, true);
	v = bench_add_value(res, "usecs_per_op", NULL, "usecs/op", usec / repeat / p->threads,
			    BENCH_STYLE_FIGURE, false);
	/* per batch, so a batch that waited for a CPU shows; with parallelism they overlap */
	bench_set_spread(v, samples, nsamples, _("batches (usecs per thread of a batch)"));
	free(samples);
	bench_add_value(res, "usecs_per_op_per_cpu", NULL, "usecs/op/cpu",
			usec / repeat / p->threads * p->parallelism, BENCH_STYLE_FIGURE, false);
	bench_add_causes(res, &causes, (double)repeat * p->threads);
	bp_mode_note(res, v, &causes, (double)repeat * p->threads);
	if (!p->sweep)
		return 0;

	by_bp = bench_add_series(res, "breakpoints", "breakpoints", "usecs/op");
	for (unsigned int n = 0; n <= BP_SWEEP_MAX_BREAKPOINTS; n++) {
		err =
		    bp_thread_once(n, p->parallelism, p->threads, repeat, &sec, res, NULL, NULL, 0);
		if (err == -ENOSPC && n) {
			/* Fewer debug registers than four: the series ends where they do. */
			res->message[0] = '\0';
			break;
		}
		if (err)
			return err;
		bench_series_add(by_bp, n, sec * 1e6 / repeat / p->threads);
		bench_progress(ctx, (double)(n + 2) / (points + 1));
	}
	by_thr = bench_add_series(res, "threads", "threads", "usecs/op");
	for (unsigned int n = 1; n <= max_threads; n++) {
		err = bp_thread_once(p->breakpoints, p->parallelism, n, repeat, &sec, res, NULL,
				     NULL, 0);
		if (err)
			return err;
		bench_series_add(by_thr, n, sec * 1e6 / repeat / n);
		bench_progress(ctx, (double)(BP_SWEEP_MAX_BREAKPOINTS + 2 + n) / (points + 1));
	}
	return 0;
}

/*
 * One run of perf bench breakpoint enable; *sec the time of the repeat flips.
 * With causes (opened here, before the threads, so that they inherit it),
 * counts them over the flips; with blocks, the flips are timed in nblocks
 * blocks (blocks[i] in usecs per flip), a clock read between blocks only.
 */
static int bp_enable_once(unsigned int passive, unsigned int active, unsigned int repeat,
			  double *sec, struct bench_result *res, struct bench_causes *causes,
			  double *blocks, unsigned int nblocks)
{
	unsigned int n = passive + active, started, done = 0;
	pthread_t *t = xcalloc(n, sizeof(*t));
	unsigned int nb = blocks ? nblocks : 1;
	struct bp_slot *slot = NULL;
	double t0, t1, tb;
	int err = 0;

	if (causes)
		bench_causes_open(causes);
	err = bp_open_all(1, &slot, res);
	if (err)
		goto out_free;
	started = start_threads(t, passive, passive_main, &done, &err);
	if (!err)
		started += start_threads(t + passive, active, active_main, &done, &err);
	if (err) {
		snprintf(res->message, sizeof(res->message), "pthread_create: %s", strerror(-err));
		goto out_stop;
	}
	/* Let the passive threads reach their futex, as perf does. */
	usleep(10000);
	if (causes)
		bench_causes_start(causes);
	t0 = clock_mono();
	tb = t0;
	for (unsigned int blk = 0, i = 0; blk < nb && !err; blk++) {
		unsigned int from = i, end = (unsigned int)((uint64_t)repeat * (blk + 1) / nb);

		for (; i < end; i++) {
			const char *op = "PERF_EVENT_IOC_DISABLE";

			if (ioctl(slot->fd, PERF_EVENT_IOC_DISABLE, 0) ||
			    (op = "PERF_EVENT_IOC_ENABLE",
			     ioctl(slot->fd, PERF_EVENT_IOC_ENABLE, 0))) {
				err = -errno;
				snprintf(res->message, sizeof(res->message), "ioctl(%s): %s", op,
					 strerror(errno));
				break;
			}
		}
		if (blocks && end > from) {
			double now = clock_mono();

			blocks[blk] = (now - tb) * 1e6 / (end - from);
			tb = now;
		}
	}
	t1 = clock_mono();
	if (causes)
		bench_causes_stop(causes);
	*sec = t1 - t0;
out_stop:
	/* started counts passive ones first: those are the ones blocked in the futex */
	stop_threads(t, started, &done);
	bp_close_all(slot, 1);
out_free:
	if (causes)
		bench_causes_close(causes);
	free(t);
	return err;
}

static int bp_enable_run(const void *params, const struct bench_ctx *ctx, struct bench_result *res)
{
	const struct bp_enable_params *p = params;
	unsigned int repeat = ctx && ctx->repeat ? ctx->repeat : 1;
	unsigned int max_threads = 2 * online_cpus();
	unsigned int points = p->sweep ? 2 * (max_threads + 1) : 0;
	unsigned int nblocks = repeat < BP_MAX_BLOCKS ? repeat : BP_MAX_BLOCKS;
	struct bench_series *by_passive, *by_active;
	double sec, blocks[BP_MAX_BLOCKS];
	struct bench_causes causes;
	struct bench_value *v;
	const char *of;
	int err;

	err = bp_enable_once(p->passive, p->active, repeat, &sec, res, &causes, blocks, nblocks);
	if (err)
		return err;
	bench_progress(ctx, 1.0 / (points + 1));
	snprintf(res->header, sizeof(res->header),
		 _("Enabled/disabled breakpoint %u time with %u passive and %u active threads"),
		 repeat, p->passive, p->active);
	bench_add_value(res, "total_time", N_("Total time"), "sec", sec, BENCH_STYLE_TOTAL, true);
	v = bench_add_value(res, "usecs_per_op", NULL, "usecs/op", sec * 1e6 / repeat,
			    BENCH_STYLE_FIGURE, false);
	if (repeat == nblocks)
		of = _("flips");
	else if (repeat % nblocks == 0)
		of = bench_text(res, _("blocks of %u flips"), repeat / nblocks);
	else
		of = bench_text(res, _("blocks of %u-%u flips"), repeat / nblocks,
				repeat / nblocks + 1);
	bench_set_spread(v, blocks, nblocks, of);
	bench_add_causes(res, &causes, repeat);
	bp_mode_note(res, v, &causes, repeat);
	if (!p->sweep)
		return 0;

	by_passive = bench_add_series(res, "passive", "passive", "usecs/op");
	for (unsigned int n = 0; n <= max_threads; n++) {
		err = bp_enable_once(n, p->active, repeat, &sec, res, NULL, NULL, 0);
		if (err)
			return err;
		bench_series_add(by_passive, n, sec * 1e6 / repeat);
		bench_progress(ctx, (double)(n + 2) / (points + 1));
	}
	by_active = bench_add_series(res, "active", "active", "usecs/op");
	for (unsigned int n = 0; n <= max_threads; n++) {
		err = bp_enable_once(p->passive, n, repeat, &sec, res, NULL, NULL, 0);
		if (err)
			return err;
		bench_series_add(by_active, n, sec * 1e6 / repeat);
		bench_progress(ctx, (double)(max_threads + 3 + n) / (points + 1));
	}
	return 0;
}

const struct bench_desc bench_breakpoint_thread = {
    .name = "breakpoint-thread",
    .title = "breakpoint/thread",
    .summary = N_("create and join threads that inherit hardware breakpoints"),
    .options = bp_thread_options,
    .params_size = sizeof(struct bp_thread_params),
    .defaults = &bp_thread_defaults,
    .run = bp_thread_run,
};

const struct bench_desc bench_breakpoint_enable = {
    .name = "breakpoint-enable",
    .title = "breakpoint/enable",
    .summary = N_("disable and enable an inherited breakpoint with threads running"),
    .options = bp_enable_options,
    .params_size = sizeof(struct bp_enable_params),
    .defaults = &bp_enable_defaults,
    .run = bp_enable_run,
};
