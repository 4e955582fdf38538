// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rdpmc.c: the `rdpmc` benchmark, what one self-monitoring read of a counter
 * costs ptop, in TSC ticks: read(2) on the event's descriptor; rdpmc through
 * the perf_event_mmap_page when the page is cold (a fresh mmap(2) of the
 * descriptor, its first touch inside the timed region, munmap(2) after); and
 * rdpmc through a page pre-faulted at open, as src/perf/rdpmc.c keeps it.
 * Beside them, the first touch of a fresh page without rdpmc (what
 * pre-faulting takes out of a frame, measurable without a PMU) and the
 * timer's own cost. The event (--event, through libpfm4) is opened on this
 * thread by perf_self_open(); where it cannot be (no PMU) or the page says
 * rdpmc is not allowed (cap_user_rdpmc or index 0), the rdpmc rows say why
 * and read(2) runs on task-clock. Each figure is the median, with the 10th
 * and 90th percentiles, of --repeat rounds of --runs reads. Recent kernels
 * insert the page at mmap(2) time, so a cold read takes no fault there, only
 * the TLB miss and page walk: the faults-per-read figures say which this
 * kernel does.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "ptop/bench.h"
#include "ptop/perf.h"
#include "ptop/util.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#define RDPMC_X86 1
#else
#define RDPMC_X86 0
#endif

struct rdpmc_params {
	unsigned int runs; /* reads per row and round */
	const char *event; /* libpfm4 name */
};

static const struct rdpmc_params rdpmc_defaults = {
    .runs = 1024,
    .event = "instructions",
};

static const struct bench_option rdpmc_options[] = {
    {.name = "runs",
     .short_name = 'n',
     .type = BENCH_OPT_UINT,
     .offset = offsetof(struct rdpmc_params, runs),
     .min = 1,
     .max = 1000000,
     .arg = "N",
     .help = N_("timed reads per row and round")},
    {.name = "event",
     .short_name = 'e',
     .type = BENCH_OPT_STRING,
     .offset = offsetof(struct rdpmc_params, event),
     .arg = "NAME",
     .help = N_("event to read, by its libpfm4 name (default instructions)")},
    {.name = NULL},
};
_Static_assert(sizeof(rdpmc_options) / sizeof(rdpmc_options[0]) <= BENCH_MAX_OPTIONS + 1,
	       "too many options for bench.c's parser");

#if RDPMC_X86
static bool have_rdtscp;

/*
 * The timed region is opened with lfence; rdtsc; lfence: the first lfence
 * waits for every earlier instruction to finish, the second keeps the timed
 * ones from starting before the TSC is read. It is closed with rdtscp; lfence
 * (rdtscp waits for the timed instructions; the lfence keeps later ones out)
 * or, where the CPU hides rdtscp (these Firecracker VMs do), the same
 * lfence; rdtsc; lfence. On AMD, lfence serialises dispatch only with the
 * MSR bit Linux sets (X86_FEATURE_LFENCE_RDTSC). The TSC counts reference
 * cycles at a fixed rate, not core cycles.
 */
static inline uint64_t tsc_begin(void)
{
	uint32_t lo, hi;

	__asm__ __volatile__("lfence\n\trdtsc\n\tlfence" : "=a"(lo), "=d"(hi)::"memory");
	return (uint64_t)hi << 32 | lo;
}

static inline uint64_t tsc_end(void)
{
	uint32_t lo, hi, aux;

	if (have_rdtscp)
		__asm__ __volatile__("rdtscp\n\tlfence" : "=a"(lo), "=d"(hi), "=c"(aux)::"memory");
	else
		__asm__ __volatile__("lfence\n\trdtsc\n\tlfence" : "=a"(lo), "=d"(hi)::"memory");
	return (uint64_t)hi << 32 | lo;
}

static uint64_t x86_rdpmc(unsigned idx, void *arg)
{
	uint32_t lo, hi;

	(void)arg;
	__asm__ __volatile__("rdpmc" : "=a"(lo), "=d"(hi) : "c"(idx));
	return (uint64_t)hi << 32 | lo;
}

static void tsc_init(void)
{
	unsigned int a, b, c, d;

	/* CPUID 0x80000001: EDX bit 27 is RDTSCP */
	have_rdtscp = __get_cpuid(0x80000001, &a, &b, &c, &d) && (d & (1u << 27));
}
#endif

enum rdpmc_row {
	ROW_TIMER,	/* an empty timed region */
	ROW_SYSCALL,	/* read(2) */
	ROW_RDPMC_COLD, /* rdpmc, the page's first touch timed */
	ROW_RDPMC_WARM, /* rdpmc, the page pre-faulted */
	ROW_TOUCH_COLD, /* the first load from a fresh page, no rdpmc */
	ROW_COUNT,
};

struct rdpmc_state {
	struct perf_self ev;   /* --event; fd -1 when it could not be opened */
	struct perf_self sw;   /* task-clock, only when --event could not be opened */
	struct perf_self *rd;  /* what read(2) and the page touches use */
	const char *rd_name;   /* its event's name */
	const char *why_not;   /* NULL: the rdpmc rows run */
	size_t page_size;      /* bytes */
	long faults;	       /* minor faults in the cold rdpmc rounds */
	long touch_faults;     /* minor faults in the cold touch rounds */
	uint64_t last_count;   /* of the last read, kept so no read is optimised out */
	const char *failed_op; /* the call that failed in a round */
	bool run_row[ROW_COUNT];
	unsigned int repeat; /* rounds */
	size_t per_row;	     /* samples of a row: runs x rounds */
	double *samples;     /* per_row for each row, row after row */
};

static long minor_faults(void)
{
	struct rusage ru;

	return getrusage(RUSAGE_THREAD, &ru) ? 0 : ru.ru_minflt;
}

#if RDPMC_X86
/* One timed read of row into *ticks. 0, -EAGAIN (the page refused rdpmc), or -errno. */
static int time_once(struct rdpmc_state *st, enum rdpmc_row row, uint64_t *ticks)
{
	const volatile struct perf_event_mmap_page *pg = NULL;
	uint64_t t0, t1, v = 0;
	uint64_t buf[3]; /* perf_self_open's read_format: value, enabled, running */
	ssize_t r = 0;
	int err = 0;

	if (row == ROW_RDPMC_COLD || row == ROW_TOUCH_COLD) {
		/* No MAP_POPULATE and no touch: the timed load is the first one. */
		void *p = mmap(NULL, st->page_size, PROT_READ, MAP_SHARED,
			       row == ROW_RDPMC_COLD ? st->ev.fd : st->rd->fd, 0);

		if (p == MAP_FAILED) {
			st->failed_op = "mmap";
			return -errno;
		}
		pg = p;
	}
	switch (row) {
	case ROW_TIMER:
		t0 = tsc_begin();
		t1 = tsc_end();
		break;
	case ROW_SYSCALL:
		t0 = tsc_begin();
		r = read(st->rd->fd, buf, sizeof(buf));
		t1 = tsc_end();
		if (r != (ssize_t)sizeof(buf)) {
			st->failed_op = "read";
			err = r < 0 ? -errno : -EIO;
		} else {
			v = buf[0];
		}
		break;
	case ROW_RDPMC_COLD:
		t0 = tsc_begin();
		err = perf_mmap_decode(pg, x86_rdpmc, NULL, &v);
		t1 = tsc_end();
		break;
	case ROW_RDPMC_WARM:
		t0 = tsc_begin();
		err = perf_mmap_decode(st->ev.page, x86_rdpmc, NULL, &v);
		t1 = tsc_end();
		break;
	case ROW_TOUCH_COLD:
		t0 = tsc_begin();
		v = pg->lock;
		t1 = tsc_end();
		break;
	default:
		t0 = t1 = 0;
		err = -EINVAL;
		break;
	}
	if (pg)
		munmap((void *)pg, st->page_size);
	st->last_count = v;
	*ticks = t1 - t0;
	return err;
}
#endif

/* Say why the rdpmc rows cannot run, or NULL when they can. */
static const char *rdpmc_why_not(struct rdpmc_state *st, const struct perf_event_spec *spec,
				 int open_err, struct bench_result *res)
{
	const char *name = spec->name;

	if (!RDPMC_X86)
		return _("rdpmc is x86 only in this build");
	switch (-open_err) {
	case 0:
		break;
	case ENOENT:
	case ENODEV:
	case EOPNOTSUPP:
		return bench_text(res, _("no hardware PMU (perf_event_open of %s: %s)"), name,
				  strerror(-open_err));
	case EACCES:
	case EPERM:
		return bench_text(res,
				  _("perf_event_open of %s refused (%s); see "
				    "/proc/sys/kernel/perf_event_paranoid"),
				  name, strerror(-open_err));
	default:
		return bench_text(res, _("perf_event_open of %s: %s"), name, strerror(-open_err));
	}
	if (!st->ev.page)
		return _("the event's perf_event_mmap_page could not be mapped");
	if (!spec->hardware)
		return bench_text(res, _("%s is a software event: no hardware counter to read"),
				  name);
	if (!st->ev.page->cap_usr_rdpmc)
		return _("cap_user_rdpmc is 0 (see /sys/bus/event_source/devices/cpu/rdpmc)");
	if (!st->ev.page->index)
		return _("index is 0: the event is not on a hardware counter");
	return NULL;
}

/* Open --event, or task-clock for the read(2) row when it cannot be. */
static int rdpmc_open(struct rdpmc_state *st, const struct rdpmc_params *p,
		      struct perf_event_spec *spec, struct bench_result *res)
{
	int err;

	err = perf_event_resolve(p->event, spec);
	if (err == -ENOENT || err == -EINVAL) {
		snprintf(res->message, sizeof(res->message),
			 _("unknown event '%s' (libpfm4 does not know it here)"), p->event);
		return -ENOENT;
	}
	if (err) {
		/* libpfm4 did not start: name the event for the messages, open it never */
		memset(spec, 0, sizeof(*spec));
		snprintf(spec->name, sizeof(spec->name), "%s", p->event);
		st->why_not = _("libpfm4 could not start: events cannot be named");
	} else {
		err = perf_self_open(&st->ev, spec);
		st->why_not = rdpmc_why_not(st, spec, err, res);
	}
	if (st->ev.fd >= 0) {
		st->rd = &st->ev;
		st->rd_name = spec->name;
		return 0;
	}

	/* A software event is opened by hand: it needs neither a PMU nor libpfm4. */
	{
		struct perf_event_spec tc = {.name = "task-clock"};

		tc.attr.size = sizeof(tc.attr);
		tc.attr.type = PERF_TYPE_SOFTWARE;
		tc.attr.config = PERF_COUNT_SW_TASK_CLOCK;
		err = perf_self_open(&st->sw, &tc);
	}
	if (err) {
		snprintf(res->message, sizeof(res->message),
			 _("perf_event_open of %s and of task-clock: %s"), spec->name,
			 strerror(-err));
		/* No perf_event_open at all (paranoid 3, seccomp): the machine cannot run it. */
		return err == -EMFILE || err == -ENOMEM ? err : -ENODEV;
	}
	st->rd = &st->sw;
	st->rd_name = "task-clock";
	return 0;
}

/* The value at fraction q of sorted v[0..n), nearest rank. */
static double quantile(const double *v, size_t n, double q)
{
	size_t i = (size_t)(q * (double)(n - 1) + 0.5);

	return n ? v[i < n ? i : n - 1] : 0;
}

/* KEY (the median, in --format=simple too), KEY_p10 and KEY_p90 of v[0..n). */
static void add_row(struct bench_result *res, const char *key, const char *label,
		    const char *short_label, double *v, size_t n)
{
	double median = bench_median(v, n);

	bench_set_spread(
	    bench_add_value(res, key, label, "TSC ticks", median, BENCH_STYLE_FIGURE, true), v, n,
	    _("reads"));
	bench_add_value(res, bench_text(res, "%s_p10", key),
			bench_text(res, _("%s, 10th percentile"), short_label), "TSC ticks",
			quantile(v, n, 0.10), BENCH_STYLE_FIGURE, false);
	bench_add_value(res, bench_text(res, "%s_p90", key),
			bench_text(res, _("%s, 90th percentile"), short_label), "TSC ticks",
			quantile(v, n, 0.90), BENCH_STYLE_FIGURE, false);
}

#if RDPMC_X86
/* The timed rounds into st->samples; 0 or -errno, with res->message said. */
static int rdpmc_rounds(struct rdpmc_state *st, const struct rdpmc_params *p,
			const struct bench_ctx *ctx, struct bench_result *res)
{
	/* Rounds interleave the rows, so drift in the machine hits them all alike. */
	for (unsigned int round = 0; round < st->repeat; round++) {
		for (int r = 0; r < ROW_COUNT; r++) {
			double *s = &st->samples[(size_t)r * st->per_row + (size_t)round * p->runs];
			long f0 = minor_faults();

			for (unsigned int i = 0; i < p->runs && st->run_row[r]; i++) {
				uint64_t ticks = 0;
				int err = time_once(st, (enum rdpmc_row)r, &ticks);

				if (err == -EAGAIN) {
					/* The kernel took the counter away mid-run. */
					st->why_not =
					    _("the page's index went to 0 during the run");
					st->run_row[ROW_RDPMC_COLD] = st->run_row[ROW_RDPMC_WARM] =
					    false;
					break;
				}
				if (err) {
					snprintf(res->message, sizeof(res->message), "%s: %s",
						 st->failed_op, strerror(-err));
					return err;
				}
				s[i] = (double)ticks;
			}
			if (r == ROW_RDPMC_COLD)
				st->faults += minor_faults() - f0;
			else if (r == ROW_TOUCH_COLD)
				st->touch_faults += minor_faults() - f0;
			bench_progress(ctx, (double)(round * ROW_COUNT + (unsigned)r + 1) /
						(double)(st->repeat * ROW_COUNT));
		}
	}
	return 0;
}

/* The rows of a finished run into res. */
static void rdpmc_report(struct rdpmc_state *st, const struct rdpmc_params *p,
			 const struct perf_event_spec *spec, struct bench_result *res)
{
	size_t per_row = st->per_row;
	double *samples = st->samples;

	snprintf(res->header, sizeof(res->header),
		 _("Self-monitoring reads of %s, median of %u x %u runs, TSC ticks "
		   "(lfence;rdtsc;lfence .. %s)"),
		 spec->name, st->repeat, p->runs,
		 have_rdtscp ? "rdtscp;lfence" : "lfence;rdtsc;lfence");
	add_row(res, "read_syscall", bench_text(res, _("read() syscall on the %s fd"), st->rd_name),
		_("read()"), &samples[ROW_SYSCALL * per_row], per_row);
	if (st->run_row[ROW_RDPMC_COLD]) {
		add_row(res, "rdpmc_cold",
			N_("rdpmc, page cold (a fresh mmap, its first touch timed)"),
			_("rdpmc cold"), &samples[ROW_RDPMC_COLD * per_row], per_row);
		add_row(res, "rdpmc_warm", N_("rdpmc, page pre-faulted"), _("rdpmc warm"),
			&samples[ROW_RDPMC_WARM * per_row], per_row);
		bench_add_value(res, "rdpmc_cold_faults", N_("page faults per cold rdpmc read"),
				"faults/read", (double)st->faults / (double)per_row,
				BENCH_STYLE_FIGURE, false);
	} else {
		bench_add_unavailable(res, "rdpmc_cold",
				      N_("rdpmc, page cold (a fresh mmap, its first touch timed)"),
				      "TSC ticks", st->why_not);
		bench_add_unavailable(res, "rdpmc_warm", N_("rdpmc, page pre-faulted"), "TSC ticks",
				      st->why_not);
	}
	if (st->run_row[ROW_TOUCH_COLD]) {
		add_row(res, "page_touch_cold",
			bench_text(res, _("first load from a fresh mmap of the %s page, no rdpmc"),
				   st->rd_name),
			_("first load"), &samples[ROW_TOUCH_COLD * per_row], per_row);
		bench_add_value(res, "page_touch_cold_faults", N_("page faults per first load"),
				"faults/read", (double)st->touch_faults / (double)per_row,
				BENCH_STYLE_FIGURE, false);
	}
	bench_add_value(res, "timer", N_("the timer alone (an empty timed region)"), "TSC ticks",
			bench_median(&samples[ROW_TIMER * per_row], per_row), BENCH_STYLE_FIGURE,
			false);
	bench_add_value(res, "runs", N_("timed reads per row"), "reads", (double)per_row,
			BENCH_STYLE_COUNT, false);
}
#endif

static int rdpmc_run(const void *params, const struct bench_ctx *ctx, struct bench_result *res)
{
	const struct rdpmc_params *p = params;
	struct rdpmc_state st = {.ev.fd = -1, .sw.fd = -1};
	struct perf_event_spec spec;
	int err;

#if !RDPMC_X86
	(void)p;
	(void)ctx;
	(void)st;
	(void)spec;
	(void)err;
	snprintf(res->message, sizeof(res->message), _("rdtsc and rdpmc are x86 only"));
	return -ENODEV;
#else
	tsc_init();
	st.page_size = (size_t)sysconf(_SC_PAGESIZE);
	st.repeat = ctx && ctx->repeat ? ctx->repeat : 1;
	st.per_row = (size_t)p->runs * st.repeat;
	err = rdpmc_open(&st, p, &spec, res);
	if (err)
		goto out;
	for (int r = 0; r < ROW_COUNT; r++)
		st.run_row[r] = true;
	st.run_row[ROW_RDPMC_COLD] = st.run_row[ROW_RDPMC_WARM] = !st.why_not;
	st.run_row[ROW_TOUCH_COLD] = st.rd->page != NULL;
	st.samples = xcalloc(st.per_row * ROW_COUNT, sizeof(*st.samples));
	err = rdpmc_rounds(&st, p, ctx, res);
	if (!err)
		rdpmc_report(&st, p, &spec, res);
out:
	free(st.samples);
	perf_self_close(&st.ev);
	perf_self_close(&st.sw);
	return err;
#endif
}

const struct bench_desc bench_rdpmc = {
    .name = "rdpmc",
    .title = "rdpmc",
    /* the TSC counts at a fixed rate: its ticks are not the core's cycles */
    .summary = N_("TSC ticks per self-monitoring read: read(), rdpmc with the page cold and warm"),
    .options = rdpmc_options,
    .params_size = sizeof(struct rdpmc_params),
    .defaults = &rdpmc_defaults,
    .run = rdpmc_run,
};
