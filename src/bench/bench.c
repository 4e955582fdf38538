// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bench.c: the table of benchmarks and `ptop bench`: options parsed from each
 * benchmark's option table (plus the common --format, --repeat, --progress),
 * the run, and its result written in the chosen format (bench_out.c says
 * how). It also holds what the benchmarks share: the spread of samples,
 * the causes counted during a timed part (/proc/interrupts, software
 * counters through perf_event_open(2)) and --cpu's sched_setaffinity(2).
 */
#include <errno.h>
#include <getopt.h>
#include <linux/perf_event.h>
#include <sched.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "bench_out.h"
#include "ptop/bench.h"
#include "ptop/util.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define EXIT_USAGE 2
#define BENCH_DEFAULT_REPEAT 10 /* perf bench's bench_repeat */
#define BENCH_MAX_REPEAT 1000000

/* The benchmarks, in the order `ptop bench list` and the pane show them; a
 * benchmark is a file exporting its descriptor and a row here (perf's
 * builtin-bench.c collections[]). NULL-terminated. */
static const struct bench_desc *const bench_table[] = {
    &bench_status,
    &bench_breakpoint_thread,
    &bench_breakpoint_enable,
    &bench_rdpmc,
    &bench_synthesize,
    &bench_scan,
    &bench_inject_build_id,
    NULL,
};

unsigned int bench_count(void)
{
	return (unsigned int)ARRAY_SIZE(bench_table) - 1;
}

const struct bench_desc *bench_get(unsigned int id)
{
	return id < bench_count() ? bench_table[id] : NULL;
}

const struct bench_desc *bench_find(const char *name)
{
	for (unsigned int i = 0; i < bench_count(); i++)
		if (bench_table[i] && !strcmp(bench_table[i]->name, name))
			return bench_table[i];
	return NULL;
}

static const struct bench_option *option_find(const struct bench_desc *d, const char *name)
{
	for (const struct bench_option *o = d->options; o && o->name; o++)
		if (!strcmp(o->name, name))
			return o;
	return NULL;
}

void *bench_params_new(const struct bench_desc *d)
{
	void *p = xmalloc(d->params_size);

	memcpy(p, d->defaults, d->params_size);
	return p;
}

static int parse_uint(const char *s, unsigned int min, unsigned int max, unsigned int *out)
{
	unsigned long long v = 0;
	const char *p = s;

	if (!*p)
		return -EINVAL;
	for (; *p; p++) {
		if (*p < '0' || *p > '9')
			return -EINVAL;
		if (v > (ULLONG_MAX - 9) / 10)
			return -ERANGE;
		v = v * 10 + (unsigned)(*p - '0');
	}
	if (v < min || v > max)
		return -ERANGE;
	*out = (unsigned int)v;
	return 0;
}

int bench_params_set(const struct bench_desc *d, void *params, const char *name, const char *value)
{
	const struct bench_option *o = option_find(d, name);
	char *field;
	unsigned int v;
	int err;

	if (!o)
		return -ENOENT;
	field = (char *)params + o->offset;
	switch (o->type) {
	case BENCH_OPT_UINT:
		if (!value)
			return -EINVAL;
		err = parse_uint(value, o->min, o->max, &v);
		if (err)
			return err;
		memcpy(field, &v, sizeof(v));
		return 0;
	case BENCH_OPT_STRING:
		if (!value || !*value)
			return -EINVAL;
		memcpy(field, &value, sizeof(value));
		return 0;
	case BENCH_OPT_FLAG: {
		bool b;

		if (!value || !strcmp(value, "1") || !strcmp(value, "true"))
			b = true;
		else if (!strcmp(value, "0") || !strcmp(value, "false"))
			b = false;
		else
			return -EINVAL;
		memcpy(field, &b, sizeof(b));
		return 0;
	}
	}
	return -EINVAL;
}

int bench_run(const struct bench_desc *d, const void *params, const struct bench_ctx *ctx,
	      struct bench_result *res)
{
	memset(res, 0, sizeof(*res));
	return d->run(params ? params : d->defaults, ctx, res);
}

struct bench_value *bench_add_value(struct bench_result *res, const char *key, const char *label,
				    const char *unit, double value, enum bench_value_style style,
				    bool simple)
{
	struct bench_value *v;

	if (res->nvalues == BENCH_MAX_VALUES)
		return NULL;
	v = &res->values[res->nvalues++];
	*v = (struct bench_value){
	    .key = key,
	    .label = label,
	    .unit = unit ? unit : "",
	    .value = value,
	    .style = style,
	    .simple = simple,
	};
	return v;
}

void bench_add_unavailable(struct bench_result *res, const char *key, const char *label,
			   const char *unit, const char *reason)
{
	size_t n = res->nvalues;

	bench_add_value(res, key, label, unit, 0, BENCH_STYLE_FIGURE, true);
	if (res->nvalues > n)
		res->values[n].unavailable = reason ? reason : "";
}

struct bench_series *bench_add_series(struct bench_result *res, const char *name, const char *x,
				      const char *unit)
{
	struct bench_series *s;

	/* The table of benchmarks is ours: more series than this is a bug. */
	if (res->nseries == BENCH_MAX_SERIES)
		abort();
	s = &res->series[res->nseries++];
	*s = (struct bench_series){.name = name, .x = x, .unit = unit};
	return s;
}

void bench_series_add(struct bench_series *s, double x, double value)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 16;
		s->points = xreallocarray(s->points, s->cap, sizeof(*s->points));
	}
	s->points[s->n++] = (struct bench_point){.x = x, .value = value};
}

const char *bench_text(struct bench_result *res, const char *fmt, ...)
{
	size_t room = sizeof(res->text) - res->text_len;
	char *p = res->text + res->text_len;
	va_list ap;
	int n;

	if (room < 2)
		return "";
	va_start(ap, fmt);
	n = vsnprintf(p, room, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= room) {
		*p = '\0';
		return "";
	}
	res->text_len += (size_t)n + 1;
	return p;
}

void bench_result_free(struct bench_result *res)
{
	for (size_t i = 0; i < res->nseries; i++) {
		free(res->series[i].points);
		res->series[i].points = NULL;
		res->series[i].n = res->series[i].cap = 0;
	}
}

void bench_progress(const struct bench_ctx *ctx, double done)
{
	if (!ctx || !ctx->progress)
		return;
	if (!(done >= 0))
		done = 0;
	if (done > 1)
		done = 1;
	ctx->progress(ctx->progress_arg, done);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double bench_median(double *v, size_t n)
{
	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

void bench_set_spread(struct bench_value *v, double *samples, size_t n, const char *of)
{
	size_t k = n / 10 > 2 ? n / 10 : 2, cut = 0;
	double best = 0;

	if (!v || !n)
		return;
	v->median = bench_median(samples, n);
	v->min = samples[0];
	v->max = samples[n - 1];
	v->samples = (unsigned int)n;
	v->of = of;
	v->bimodal = false;
	/* the cut goes after index i: samples[0..i] low, samples[i+1..n) high */
	for (size_t i = k - 1; n >= 2 * k && i + k < n; i++) {
		double lo = samples[i], hi = samples[i + 1];
		double ratio = lo > 0 ? hi / lo : 0;

		if (ratio > best) {
			best = ratio;
			cut = i + 1;
		}
	}
	if (best >= BENCH_BIMODAL_RATIO) {
		v->bimodal = true;
		v->nlow = (unsigned int)cut;
		v->low = bench_median(samples, cut);
		v->high = bench_median(samples + cut, n - cut);
	}
}

void bench_note(struct bench_result *res, const char *fmt, ...)
{
	size_t room = sizeof(res->text) - res->text_len;
	char *p = res->text + res->text_len;
	va_list ap;
	int n;

	if (res->nnotes == BENCH_MAX_NOTES || room < 2)
		return;
	va_start(ap, fmt);
	n = vsnprintf(p, room, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= room) {
		*p = '\0';
		return;
	}
	res->text_len += (size_t)n + 1;
	res->notes[res->nnotes++] = p;
}

int bench_read_call_ipis(const char *proc_root, uint64_t *out)
{
	char path[256], line[4096];
	FILE *f;
	int err = -ENOENT;

	snprintf(path, sizeof(path), "%s/interrupts", proc_root);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		const char *p = line;
		uint64_t sum = 0;

		while (*p == ' ')
			p++;
		if (strncmp(p, "CAL:", 4))
			continue;
		/* the per-CPU counts, up to the description */
		for (p += 4;;) {
			uint64_t v = 0;
			bool digits = false;

			while (*p == ' ')
				p++;
			for (; *p >= '0' && *p <= '9'; p++, digits = true) {
				if (v > (UINT64_MAX - 9) / 10) {
					fclose(f);
					return -ERANGE;
				}
				v = v * 10 + (uint64_t)(*p - '0');
			}
			if (!digits)
				break;
			sum += v;
		}
		*out = sum;
		err = 0;
		break;
	}
	fclose(f);
	return err;
}

static int sw_counter(uint64_t config)
{
	struct perf_event_attr attr;
	long fd;

	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_SOFTWARE;
	attr.size = sizeof(attr);
	attr.config = config;
	attr.inherit = 1;
	attr.exclude_hv = 1;
	fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	return fd < 0 ? -1 : (int)fd;
}

/* An inherited counter's read sums the threads that inherited it, live or ended. */
static int64_t sw_read(int fd)
{
	uint64_t v;

	if (fd < 0 || read(fd, &v, sizeof(v)) != (ssize_t)sizeof(v))
		return -1;
	return (int64_t)v;
}

static int64_t ipis_now(void)
{
	uint64_t v;

	return bench_read_call_ipis("/proc", &v) ? -1 : (int64_t)v;
}

void bench_causes_open(struct bench_causes *c)
{
	*c = (struct bench_causes){.ipis = -1, .cs = -1, .migrations = -1};
	c->fd_cs = sw_counter(PERF_COUNT_SW_CONTEXT_SWITCHES);
	c->fd_mig = sw_counter(PERF_COUNT_SW_CPU_MIGRATIONS);
}

void bench_causes_start(struct bench_causes *c)
{
	c->cs0 = sw_read(c->fd_cs);
	c->mig0 = sw_read(c->fd_mig);
	c->ipis0 = ipis_now();
}

void bench_causes_stop(struct bench_causes *c)
{
	int64_t ipis = ipis_now(), cs = sw_read(c->fd_cs), mig = sw_read(c->fd_mig);

	c->ipis = ipis >= 0 && c->ipis0 >= 0 ? ipis - c->ipis0 : -1;
	c->cs = cs >= 0 && c->cs0 >= 0 ? cs - c->cs0 : -1;
	c->migrations = mig >= 0 && c->mig0 >= 0 ? mig - c->mig0 : -1;
}

void bench_causes_close(struct bench_causes *c)
{
	if (c->fd_cs >= 0)
		close(c->fd_cs);
	if (c->fd_mig >= 0)
		close(c->fd_mig);
	c->fd_cs = c->fd_mig = -1;
}

void bench_add_causes(struct bench_result *res, const struct bench_causes *c, double ops)
{
	static const char why[] = N_("not counted here");
	char ipis[48], cs[48], mig[48];

	if (c->ipis >= 0)
		bench_add_value(res, "ipis", N_("function-call IPIs, all CPUs"), "IPIs",
				(double)c->ipis, BENCH_STYLE_HIDDEN, false);
	else
		bench_add_unavailable(res, "ipis", N_("function-call IPIs, all CPUs"), "IPIs",
				      _(why));
	if (c->cs >= 0)
		bench_add_value(res, "context_switches", N_("context switches"), "switches",
				(double)c->cs, BENCH_STYLE_HIDDEN, false);
	else
		bench_add_unavailable(res, "context_switches", N_("context switches"), "switches",
				      _(why));
	if (c->migrations >= 0)
		bench_add_value(res, "migrations", N_("CPU migrations"), "migrations",
				(double)c->migrations, BENCH_STYLE_HIDDEN, false);
	else
		bench_add_unavailable(res, "migrations", N_("CPU migrations"), "migrations",
				      _(why));
	if (c->ipis >= 0 && ops > 0)
		bench_add_value(res, "ipis_per_op", N_("function-call IPIs per op"), "IPIs/op",
				(double)c->ipis / ops, BENCH_STYLE_HIDDEN, false);
#define CAUSE(buf, v) (v >= 0 ? (snprintf(buf, sizeof(buf), "%lld", (long long)v), buf) : "-")
	bench_note(res,
		   _("during the timed part: %s function-call IPIs (CAL, all CPUs), %s context "
		     "switches, %s CPU migrations"),
		   CAUSE(ipis, c->ipis), CAUSE(cs, c->cs), CAUSE(mig, c->migrations));
#undef CAUSE
}

int bench_pin(const char *list)
{
	cpu_set_t set;
	const char *p = list;
	bool any = false;

	CPU_ZERO(&set);
	if (!list || !*list)
		return -EINVAL;
	for (;;) {
		unsigned long lo, hi;
		char *end;

		if (*p < '0' || *p > '9')
			return -EINVAL;
		lo = strtoul(p, &end, 10);
		hi = lo;
		p = end;
		if (*p == '-') {
			p++;
			if (*p < '0' || *p > '9')
				return -EINVAL;
			hi = strtoul(p, &end, 10);
			p = end;
		}
		if (hi < lo || hi >= CPU_SETSIZE)
			return -EINVAL;
		for (unsigned long cpu = lo; cpu <= hi; cpu++) {
			CPU_SET(cpu, &set);
			any = true;
		}
		if (!*p)
			break;
		if (*p++ != ',')
			return -EINVAL;
	}
	if (!any)
		return -EINVAL;
	if (sched_setaffinity(0, sizeof(set), &set))
		return errno == EINVAL ? -ENODEV : -errno; /* the kernel's EINVAL: none online */
	return 0;
}

/* ---- the command line ---- */

enum bench_format { FORMAT_DEFAULT, FORMAT_SIMPLE, FORMAT_JSON };

struct cli {
	const char *progname;
	enum bench_format format;
	unsigned int repeat;
	bool progress;
	const char *cpu; /* --cpu LIST, or NULL */
	struct sbuf out; /* what goes to stdout next, written by emit() */
	/* 0, or what the first failed write returned: nothing is written after it */
	int out_err;
};

struct progress_state {
	struct cli *c;
	const char *name;
	double last; /* last fraction written, -1 before the first */
};

/*
 * Write c->out to stdout through the one write path of ptop's outputs, and
 * empty it. After a failure (reported there, or a reader gone) nothing more
 * is written, and c->out_err tells the callers to stop their work too.
 */
static void emit(struct cli *c)
{
	if (!c->out_err)
		c->out_err = write_out(STDOUT_FILENO, c->out.p, c->out.len);
	sbuf_reset(&c->out);
}

/* The exit status after the output: 1 when it could not be written, else status. */
static int emit_status(const struct cli *c, int status)
{
	return c->out_err && c->out_err != -EPIPE ? 1 : status;
}

static __attribute__((format(printf, 2, 3))) int usage_error(const struct cli *c, const char *fmt,
							     ...)
{
	va_list ap;

	fprintf(stderr, "%s bench: ", c->progname);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, _("\nTry '%s bench --help' for more information.\n"), c->progname);
	return EXIT_USAGE;
}

static void json_progress(void *arg, double done)
{
	struct progress_state *ps = arg;

	/* A line per percent is plenty for a progress bar and keeps the pipe quiet. */
	if (ps->last >= 0 && done - ps->last < 0.01 && !(done >= 1 && ps->last < 1))
		return;
	ps->last = done;
	bench_out_json_progress(&ps->c->out, ps->name, done);
	emit(ps->c);
}

/*
 * Run d with params and print; returns the exit status (0 or 1). Once stdout
 * failed (c->out_err) it runs nothing: no one would see the figures.
 */
static int run_and_print(const struct bench_desc *d, const void *params, struct cli *c)
{
	struct progress_state ps = {.c = c, .name = d->name, .last = -1};
	struct bench_ctx ctx = {.repeat = c->repeat};
	struct bench_result *res;
	struct sbuf *b = &c->out;
	const char *msg;
	int err, status = 0;

	if (c->format == FORMAT_JSON && c->progress) {
		ctx.progress = json_progress;
		ctx.progress_arg = &ps;
		json_progress(&ps, 0);
	}
	if (c->out_err)
		return 0;
	res = xmalloc(sizeof(*res));
	err = bench_run(d, params, &ctx, res);
	msg = res->message[0] ? res->message : strerror(-err);
	if (err == -EPIPE) {
		/* the benchmark's own stream (synthesize -o -) lost its reader: the quiet end */
		c->out_err = err;
	} else if (!err) {
		if (c->cpu)
			bench_note(res, _("pinned to CPUs %s (--cpu)"), c->cpu);
		else
			bench_note(res, _("not pinned: threads run where the scheduler puts them "
					  "(--cpu LIST pins them)"));
		if (c->format == FORMAT_JSON)
			bench_out_json(b, d, params, c->repeat, c->cpu, res);
		else
			bench_out_text(b, d, c->format == FORMAT_SIMPLE, res);
	} else if (c->format == FORMAT_JSON) {
		bench_out_json_failure(b, d->name, err, msg);
		status = err == -ENODEV ? 0 : 1;
	} else if (err == -ENODEV) {
		/* perf bench's own words, on stdout as perf writes them. */
		sbuf_printf(b, _("Skipping %s bench %s: %s\n"), c->progname, d->name, msg);
	} else {
		emit(c);
		fprintf(stderr, "%s bench %s: %s\n", c->progname, d->name, msg);
		status = 1;
	}
	emit(c);
	bench_result_free(res);
	free(res);
	return status;
}

static void print_option_help(struct sbuf *b, const struct bench_desc *d)
{
	for (const struct bench_option *o = d->options; o && o->name; o++) {
		const char *field = (const char *)d->defaults + o->offset;
		char left[64];

		if (o->short_name)
			snprintf(left, sizeof(left), "-%c, --%s%s%s", o->short_name, o->name,
				 o->arg ? "=" : "", o->arg ? o->arg : "");
		else
			snprintf(left, sizeof(left), "    --%s%s%s", o->name, o->arg ? "=" : "",
				 o->arg ? o->arg : "");
		sbuf_printf(b, "  %-24s %s", left, _(o->help));
		if (o->type == BENCH_OPT_UINT) {
			unsigned int v;

			memcpy(&v, field, sizeof(v));
			sbuf_printf(b, _(" (default %u)"), v);
		}
		sbuf_addc(b, '\n');
	}
}

static void help(struct cli *c, const struct bench_desc *d)
{
	struct sbuf *b = &c->out;

	if (d) {
		sbuf_printf(b,
			    _("Usage: %s bench [COMMON OPTIONS] %s [OPTIONS]\n\n%s.\n\nOptions:\n"),
			    c->progname, d->name, _(d->summary));
		print_option_help(b, d);
		sbuf_addc(b, '\n');
	} else {
		sbuf_printf(b,
			    _("Usage: %s bench [COMMON OPTIONS] list | all | NAME [OPTIONS]\n"
			      "\n"
			      "Measure the kernel paths ptop depends on, on this machine.\n"
			      "\n"),
			    c->progname);
	}
	sbuf_printf(
	    b,
	    _("Common options:\n"
	      "  -f, --format=FORMAT      default (as perf bench), simple (as perf bench, or\n"
	      "                           labelled figures where perf has no such benchmark)\n"
	      "                           or json (JSON lines, as ptop's Bench pane reads them)\n"
	      "  -r, --repeat=N           repeat the run N times (default %d)\n"
	      "      --cpu=LIST           pin the benchmark's threads to these CPUs, as\n"
	      "                           taskset -c LIST (0, 0-1, 0,2)\n"
	      "      --progress           with --format=json, write progress lines\n"
	      "  -h, --help               show this help and exit\n"),
	    BENCH_DEFAULT_REPEAT);
	if (!d) {
		sbuf_printf(b, _("\nBenchmarks:\n"));
		for (unsigned int i = 0; i < bench_count(); i++)
			sbuf_printf(b, "  %-22s %s\n", bench_table[i]->name,
				    _(bench_table[i]->summary));
	}
	emit(c);
}

enum { OPT_PROGRESS = 0x100, OPT_CPU, OPT_BENCH = 0x200 };

/* What getopt_long() is given: the common options and a benchmark's. */
struct getopt_tables {
	struct option longopts[BENCH_MAX_OPTIONS + 6];
	char shortopts[2 * BENCH_MAX_OPTIONS + 16];
};

/* The tables for the common options and, when d is set, d's; stop: stop at a non-option. */
static void getopt_tables(struct getopt_tables *t, const struct bench_desc *d, bool stop)
{
	size_t nl = 0, ns = 0;

	if (stop)
		t->shortopts[ns++] = '+';
	t->shortopts[ns++] = ':';
	memcpy(t->shortopts + ns, "f:r:h", 5);
	ns += 5;
	t->longopts[nl++] = (struct option){"format", required_argument, NULL, 'f'};
	t->longopts[nl++] = (struct option){"repeat", required_argument, NULL, 'r'};
	t->longopts[nl++] = (struct option){"progress", no_argument, NULL, OPT_PROGRESS};
	t->longopts[nl++] = (struct option){"cpu", required_argument, NULL, OPT_CPU};
	t->longopts[nl++] = (struct option){"help", no_argument, NULL, 'h'};
	for (const struct bench_option *o = d ? d->options : NULL; o && o->name; o++) {
		int has_arg = o->type == BENCH_OPT_FLAG ? no_argument : required_argument;

		if (nl == ARRAY_SIZE(t->longopts) - 1)
			break;
		t->longopts[nl] =
		    (struct option){o->name, has_arg, NULL, OPT_BENCH + (int)(o - d->options)};
		nl++;
		if (o->short_name) {
			t->shortopts[ns++] = o->short_name;
			if (has_arg == required_argument)
				t->shortopts[ns++] = ':';
		}
	}
	t->longopts[nl] = (struct option){NULL, 0, NULL, 0};
	t->shortopts[ns] = '\0';
}

/* --format=arg; -1 to go on, or the exit status of a usage error. */
static int take_format(struct cli *c, const char *arg)
{
	if (!strcmp(arg, "default"))
		c->format = FORMAT_DEFAULT;
	else if (!strcmp(arg, "simple"))
		c->format = FORMAT_SIMPLE;
	else if (!strcmp(arg, "json"))
		c->format = FORMAT_JSON;
	else
		return usage_error(c, _("unknown format: '%s' (default, simple or json)"), arg);
	return -1;
}

/* --repeat=arg; -1 to go on, or the exit status of a usage error. */
static int take_repeat(struct cli *c, const char *arg)
{
	int err = parse_uint(arg, 1, BENCH_MAX_REPEAT, &c->repeat);

	if (err == -ERANGE)
		return usage_error(c, _("--%s must be between %u and %u, not '%s'"), "repeat", 1,
				   BENCH_MAX_REPEAT, arg);
	if (err)
		return usage_error(c, _("invalid value for --%s: '%s'"), "repeat", arg);
	return -1;
}

/* --cpu=arg, pinned now; -1 to go on, or the exit status of a usage error. */
static int take_cpu(struct cli *c, const char *arg)
{
	int err = bench_pin(arg);

	if (err)
		return usage_error(c, _("cannot pin to CPUs '%s': %s"), arg,
				   err == -EINVAL   ? _("not a CPU list such as 0 or 0-1,3")
				   : err == -ENODEV ? _("none of them is online")
						    : strerror(-err));
	c->cpu = arg;
	return -1;
}

/*
 * A common option (opt, with optarg), and getopt's complaints: false when opt
 * is none of them (a benchmark's option). *status is -1 to go on, or the exit
 * status (help printed: 0; bad usage: 2).
 */
static bool take_common(struct cli *c, const struct bench_desc *d, int opt, char **argv,
			int *status)
{
	switch (opt) {
	case 'f':
		*status = take_format(c, optarg);
		return true;
	case 'r':
		*status = take_repeat(c, optarg);
		return true;
	case OPT_PROGRESS:
		c->progress = true;
		*status = -1;
		return true;
	case OPT_CPU:
		*status = take_cpu(c, optarg);
		return true;
	case 'h':
		help(c, d);
		*status = emit_status(c, 0);
		return true;
	case ':':
		*status = usage_error(c, _("option '%s' needs a value"), argv[optind - 1]);
		return true;
	case '?':
		*status = usage_error(c, _("unknown option '%s'"), argv[optind - 1]);
		return true;
	}
	return false;
}

/* d's option opt (with optarg) into params; -1 to go on, or the exit status of a usage error. */
static int take_bench_option(struct cli *c, const struct bench_desc *d, void *params, int opt)
{
	const struct bench_option *o;
	int err;

	if (opt >= OPT_BENCH)
		o = &d->options[opt - OPT_BENCH];
	else
		for (o = d->options; o->name && o->short_name != opt; o++)
			;
	err = bench_params_set(d, params, o->name, o->type == BENCH_OPT_FLAG ? NULL : optarg);
	if (err == -ERANGE)
		return usage_error(c, _("--%s must be between %u and %u, not '%s'"), o->name,
				   o->min, o->max, optarg);
	if (err)
		return usage_error(c, _("invalid value for --%s: '%s'"), o->name, optarg);
	return -1;
}

/*
 * Parse argv with the common options and, when d is set, d's options into
 * params. With stop, stops at the first non-option (the benchmark's name).
 * Returns -1 to go on, or an exit status (help printed: 0; bad usage: 2).
 */
static int parse_options(int argc, char **argv, struct cli *c, const struct bench_desc *d,
			 void *params, bool stop)
{
	struct getopt_tables t;
	int opt, status;

	getopt_tables(&t, d, stop);
	optind = 0;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, t.shortopts, t.longopts, NULL)) != -1) {
		if (!take_common(c, d, opt, argv, &status))
			status = take_bench_option(c, d, params, opt);
		if (status >= 0)
			return status;
	}
	return -1;
}

static int bench_cli(int argc, char **argv, struct cli *c)
{
	const struct bench_desc *d;
	const char *name;
	void *params;
	int status;

	status = parse_options(argc, argv, c, NULL, NULL, true);
	if (status >= 0)
		return status;
	if (optind >= argc)
		return usage_error(c, _("which benchmark? %s"), "list | all | NAME");
	name = argv[optind];
	argc -= optind;
	argv += optind;

	if (!strcmp(name, "list") || !strcmp(name, "all")) {
		status = parse_options(argc, argv, c, NULL, NULL, false);
		if (status >= 0)
			return status;
		if (optind < argc)
			return usage_error(c, _("unexpected argument '%s'"), argv[optind]);
		status = 0;
		for (unsigned int i = 0; i < bench_count() && !c->out_err; i++) {
			d = bench_table[i];
			if (name[0] == 'l') {
				sbuf_printf(&c->out, "%-22s %s\n", d->name, _(d->summary));
				continue;
			}
			if (i && c->format == FORMAT_DEFAULT)
				sbuf_addc(&c->out, '\n');
			if (run_and_print(d, d->defaults, c))
				status = 1;
		}
		emit(c);
		return status;
	}

	d = bench_find(name);
	if (!d)
		return usage_error(c, _("no benchmark '%s' (see '%s bench list')"), name,
				   c->progname);
	params = bench_params_new(d);
	status = parse_options(argc, argv, c, d, params, false);
	if (status < 0 && optind < argc)
		status = usage_error(c, _("unexpected argument '%s'"), argv[optind]);
	if (status < 0)
		status = run_and_print(d, params, c);
	free(params);
	return status;
}

int bench_main(int argc, char **argv, const char *progname)
{
	struct cli c = {.progname = progname, .repeat = BENCH_DEFAULT_REPEAT};
	int status = bench_cli(argc, argv, &c);

	sbuf_free(&c.out);
	return emit_status(&c, status);
}
