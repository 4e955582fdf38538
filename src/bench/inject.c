// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * inject.c: the `inject-build-id` benchmark, the work `perf bench internals
 * inject-build-id` measures: a perf.data pipe stream of MMAP2 records of
 * DSOs with build-ids (files under --dso-dir, /usr/lib as perf's, whose ELF
 * notes libelf reads) and samples in them, fed through a pipe(2) one
 * write(2) per record as perf's feeder does, to a reader in a forked child
 * that writes it back with a build-id record for each DSO the samples hit
 * (--all: each DSO mapped) into a pipe this process drains. The reader is
 * perfdata.c's, run both ways in turn, run for run: one read(2) per record
 * header and body (--unbuffered alone), and buffered (--buffered alone). It
 * reports perf's figures for each (the mean wall time per run and per
 * event, the child's ru_maxrss) and beside them the reader's CPU time per
 * event (the child's rusage) with its spread, and its read(2) and write(2)
 * calls per event, the cause of the difference. --input runs the reader
 * once, in this process, over a stream from a file or standard input.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "perfdata.h"
#include "ptop/bench.h"
#include "ptop/util.h"

#define INJECT_DSO_RATIO 4 /* perf collects 4 DSOs per mmap at most */
#define INJECT_NFTW_FDS 10
#define INJECT_MODES 2

struct inject_params {
	unsigned int iterations, nr_mmaps, nr_samples;
	bool all;
	bool buffered, unbuffered; /* neither: both, in turn */
	const char *dso_dir;
	const char *input;  /* a stream to read once, "-": stdin; or NULL */
	const char *output; /* where the (last) injected stream goes, or NULL */
};

/* perf bench's defaults: 100 runs of 100 mmaps of 100 samples, DSOs under /usr/lib. */
static const struct inject_params inject_defaults = {
    .iterations = 100,
    .nr_mmaps = 100,
    .nr_samples = 100,
    .dso_dir = "/usr/lib",
};

static const struct bench_option inject_options[] = {
    {.name = "iterations",
     .short_name = 'i',
     .type = BENCH_OPT_UINT,
     .offset = offsetof(struct inject_params, iterations),
     .min = 1,
     .max = 1000000,
     .arg = "N",
     .help = N_("runs to average, of each reader")},
    {.name = "nr-mmaps",
     .short_name = 'm',
     .type = BENCH_OPT_UINT,
     .offset = offsetof(struct inject_params, nr_mmaps),
     .min = 1,
     .max = 100000,
     .arg = "N",
     .help = N_("MMAP2 records per run")},
    {.name = "nr-samples",
     .short_name = 'n',
     .type = BENCH_OPT_UINT,
     .offset = offsetof(struct inject_params, nr_samples),
     .min = 0,
     .max = 100000,
     .arg = "N",
     .help = N_("samples per MMAP2 record")},
    {.name = "all",
     .type = BENCH_OPT_FLAG,
     .offset = offsetof(struct inject_params, all),
     .help = N_("inject the build-id of every DSO mapped, not only of those hit")},
    {.name = "buffered",
     .type = BENCH_OPT_FLAG,
     .offset = offsetof(struct inject_params, buffered),
     .help = N_("run only the buffered reader (reads of 64 KiB or more)")},
    {.name = "unbuffered",
     .type = BENCH_OPT_FLAG,
     .offset = offsetof(struct inject_params, unbuffered),
     .help = N_("run only the unbuffered reader (a read(2) per record header and body)")},
    {.name = "dso-dir",
     .type = BENCH_OPT_STRING,
     .offset = offsetof(struct inject_params, dso_dir),
     .arg = "DIR",
     .help = N_("take the DSOs from the ELF files with build-ids under DIR")},
    {.name = "input",
     .type = BENCH_OPT_STRING,
     .offset = offsetof(struct inject_params, input),
     .arg = "FILE",
     .help = N_("inject once into the perf.data pipe stream in FILE ('-': stdin)")},
    {.name = "output",
     .short_name = 'o',
     .type = BENCH_OPT_STRING,
     .offset = offsetof(struct inject_params, output),
     .arg = "FILE",
     .help = N_("write the last run's injected stream to FILE ('-': stdout)")},
    {.name = NULL},
};
_Static_assert(sizeof(inject_options) / sizeof(inject_options[0]) <= BENCH_MAX_OPTIONS + 1,
	       "too many options for bench.c's parser");

/* What the child reader leaves for its parent, in memory they share. */
struct inject_shared {
	struct bench_inject_stats st;
	int err;
	char msg[256];
};

/* One reader's figures over the runs. */
struct inject_mode {
	bool buffered;
	double *wall, *cpu;		 /* usec, per run */
	double rss_sum, rss_sq;		 /* KiB */
	double reads, writes;		 /* per run, summed */
	uint64_t build_ids, no_build_id; /* of the last run */
};

/* ---- the DSOs ---- */

/* nftw() has no argument for its callback: the collection in progress. */
static struct {
	char **names;
	size_t n, max;
} collect;

static int collect_one(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
	unsigned char id[PERFDATA_BUILD_ID_MAX];
	size_t n;
	char *real;

	if (type != FTW_F || bench_build_id(path, id, &n))
		return 0;
	real = realpath(path, NULL);
	if (!real)
		return 0;
	collect.names[collect.n++] = real;
	return collect.n == collect.max; /* enough: stop the walk */
}

/* The files with build-ids under dir, up to max; their count, or -errno of the walk. */
static int collect_dsos(const char *dir, size_t max)
{
	collect.names = xcalloc(max, sizeof(*collect.names));
	collect.n = 0;
	collect.max = max;
	if (nftw(dir, collect_one, INJECT_NFTW_FDS, FTW_PHYS) < 0 && !collect.n)
		return -errno;
	return (int)collect.n;
}

static void collect_free(void)
{
	for (size_t i = 0; i < collect.n; i++)
		free(collect.names[i]);
	free(collect.names);
	collect.names = NULL;
	collect.n = 0;
}

/* ---- one run ---- */

static void *drain(void *arg)
{
	int fd = *(int *)arg;
	char buf[PERFDATA_READ_MIN];

	for (;;) {
		ssize_t n = read(fd, buf, sizeof(buf));

		if (n == 0 || (n < 0 && errno != EINTR))
			return NULL;
	}
}

/* perf's feeder: the pipe header in one write(2), then one per record. */
static int feed(int fd, const struct sbuf *stream)
{
	size_t off = 16;
	int err = write_all(fd, stream->p, 16);

	while (!err && off < stream->len) {
		struct perfdata_header h;

		memcpy(&h, stream->p + off, sizeof(h));
		err = write_all(fd, stream->p + off, h.size);
		off += h.size;
	}
	return err;
}

static _Noreturn void child(int in, int out, bool buffered, bool all, struct inject_shared *sh)
{
	sh->err = bench_inject_stream(in, out, buffered, all, &sh->st, sh->msg, sizeof(sh->msg));
	_exit(sh->err ? 1 : 0);
}

static double tv_usec(struct timeval tv)
{
	return (double)tv.tv_sec * 1e6 + (double)tv.tv_usec;
}

/*
 * Feed stream to a reader in a child; out_fd, when >= 0, takes its output
 * instead of a drained pipe. *wall and *cpu in usec, *rss in KiB, sh filled.
 */
static int run_once(const struct sbuf *stream, bool buffered, bool all, int out_fd,
		    struct inject_shared *sh, double *wall, double *cpu, double *rss,
		    struct bench_result *res)
{
	int in[2], outp[2] = {-1, -1}, status, err = 0;
	struct rusage ru;
	pthread_t th;
	double t0;
	pid_t pid;

	memset(sh, 0, sizeof(*sh));
	if (pipe2(in, O_CLOEXEC))
		goto fail;
	if (out_fd < 0 && pipe2(outp, O_CLOEXEC)) {
		close(in[0]);
		close(in[1]);
		goto fail;
	}
	t0 = clock_mono();
	pid = fork();
	if (pid == 0) {
		close(in[1]);
		if (outp[0] >= 0)
			close(outp[0]);
		child(in[0], out_fd >= 0 ? out_fd : outp[1], buffered, all, sh);
	}
	if (pid < 0)
		err = -errno;
	close(in[0]);
	if (outp[1] >= 0)
		close(outp[1]);
	if (!err && outp[0] >= 0 && (err = -pthread_create(&th, NULL, drain, &outp[0])))
		outp[0] = (close(outp[0]), -1);
	if (!err) {
		int ferr = feed(in[1], stream);

		close(in[1]);
		in[1] = -1;
		while (wait4(pid, &status, 0, &ru) < 0 && errno == EINTR)
			;
		*wall = (clock_mono() - t0) * 1e6;
		*cpu = tv_usec(ru.ru_utime) + tv_usec(ru.ru_stime);
		*rss = (double)ru.ru_maxrss;
		if (sh->err || !WIFEXITED(status) || WEXITSTATUS(status)) {
			err = sh->err ? sh->err : -ECHILD;
			snprintf(res->message, sizeof(res->message), _("the reader failed: %s"),
				 sh->msg[0] ? sh->msg : _("it ended without saying why"));
		} else if (ferr) {
			err = ferr;
			snprintf(res->message, sizeof(res->message), _("feeding the reader: %s"),
				 strerror(-err));
		}
	}
	if (in[1] >= 0)
		close(in[1]);
	if (outp[0] >= 0) {
		if (!err || pid > 0)
			pthread_join(th, NULL);
		close(outp[0]);
	}
	return err;
fail:
	err = -errno;
	snprintf(res->message, sizeof(res->message), "pipe: %s", strerror(-err));
	return err;
}

/* ---- figures ---- */

static void mean_err(const double *v, size_t n, double *mean, double *err)
{
	double s = 0, sq = 0;

	for (size_t i = 0; i < n; i++)
		s += v[i];
	*mean = n ? s / (double)n : 0;
	for (size_t i = 0; i < n; i++)
		sq += (v[i] - *mean) * (v[i] - *mean);
	/* perf's stddev_stats(): the standard error of the mean */
	*err = n > 1 ? sqrt(sq / (double)(n - 1) / (double)n) : 0;
}

static double add_mode(struct bench_result *res, const struct inject_params *p,
		       struct inject_mode *m, double events)
{
	const char *k = m->buffered ? "buffered" : "unbuffered";
	const char *all = p->all ? "-all" : "";
	unsigned int n = p->iterations;
	double mean, err, cpu, rss = m->rss_sum / n;
	double rss_err = n > 1 ? sqrt(fmax(0, (m->rss_sq - n * rss * rss) / (n - 1) / n)) : 0;
	struct bench_value *v;

	bench_add_value(res, bench_text(res, "%s_reader", k),
			m->buffered ? _("  Buffered reader (read(2) of 64 KiB or more, writes "
					"gathered):")
				    : _("  Unbuffered reader (a read(2) per record header and "
					"body, a write(2) per record):"),
			"", 0, BENCH_STYLE_LINE, false);
	mean_err(m->wall, n, &mean, &err);
	v = bench_add_value(res, bench_text(res, "%s_msec", k),
			    bench_text(res,
				       _("  Average build-id%s injection took: %.3f msec (+- "
					 "%.3f msec)"),
				       all, mean / 1e3, err / 1e3),
			    "msec", mean / 1e3, BENCH_STYLE_LINE, true);
	for (size_t i = 0; i < n; i++)
		m->wall[i] /= 1e3;
	bench_set_spread(v, m->wall, n, _("runs"));
	bench_add_value(res, bench_text(res, "%s_usec_per_event", k),
			bench_text(res, _("  Average time per event: %.3f usec (+- %.3f usec)"),
				   mean / events, err / events),
			"usec/event", mean / events, BENCH_STYLE_LINE, true);
	bench_add_value(
	    res, bench_text(res, "%s_memory_kb", k),
	    bench_text(res, _("  Average memory usage: %.0f KB (+- %.0f KB)"), rss, rss_err), "KB",
	    rss, BENCH_STYLE_LINE, false);
	for (size_t i = 0; i < n; i++)
		m->cpu[i] /= events;
	mean_err(m->cpu, n, &cpu, &err);
	v = bench_add_value(
	    res, bench_text(res, "%s_cpu_usec_per_event", k),
	    bench_text(res, _("  Reader CPU time per event: %.3f usec (+- %.3f usec)"), cpu, err),
	    "usec/event", cpu, BENCH_STYLE_LINE, true);
	bench_set_spread(v, m->cpu, n, _("runs"));
	bench_add_value(res, bench_text(res, "%s_reads_per_event", k),
			bench_text(res, _("  read(2) per event: %.3f, write(2) per event: %.3f"),
				   m->reads / n / events, m->writes / n / events),
			"reads/event", m->reads / n / events, BENCH_STYLE_LINE, false);
	bench_add_value(res, bench_text(res, "%s_writes_per_event", k), N_("write(2) per event"),
			"writes/event", m->writes / n / events, BENCH_STYLE_HIDDEN, false);
	bench_add_value(res, bench_text(res, "%s_build_ids", k), N_("build-ids injected per run"),
			"records", (double)m->build_ids, BENCH_STYLE_HIDDEN, false);
	return cpu;
}

/* ---- the runs ---- */

/* --input: the reader once over a stream, in this process. */
static int run_input(const struct inject_params *p, struct bench_result *res)
{
	struct bench_inject_stats st;
	char msg[192];
	int in = STDIN_FILENO, out = -1, err;
	bool buffered = !p->unbuffered;

	if (strcmp(p->input, "-")) {
		in = open(p->input, O_RDONLY | O_CLOEXEC);
		if (in < 0) {
			err = -errno;
			snprintf(res->message, sizeof(res->message), "%s: %s", p->input,
				 strerror(-err));
			return err;
		}
	}
	if (p->output)
		out = perfdata_open_output(p->output, res->message, sizeof(res->message));
	else
		out = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (out < 0) {
		err = out;
		if (!res->message[0])
			snprintf(res->message, sizeof(res->message), "/dev/null: %s",
				 strerror(-err));
		goto out;
	}
	err = bench_inject_stream(in, out, buffered, p->all, &st, msg, sizeof(msg));
	if (err) {
		snprintf(res->message, sizeof(res->message), "%s: %s",
			 strcmp(p->input, "-") ? p->input : _("standard input"), msg);
		goto out;
	}
	bench_add_value(res, "records", N_("records read"), "records", (double)st.records,
			BENCH_STYLE_COUNT, true);
	bench_add_value(res, "samples", N_("samples"), "samples", (double)st.samples,
			BENCH_STYLE_COUNT, false);
	bench_add_value(res, "build_ids", N_("build-ids injected"), "records", (double)st.build_ids,
			BENCH_STYLE_COUNT, true);
	bench_add_value(res, "reads", N_("read(2) calls"), "reads", (double)st.reads,
			BENCH_STYLE_COUNT, false);
	bench_add_value(res, "read_bytes", N_("bytes read"), "bytes", (double)st.read_bytes,
			BENCH_STYLE_COUNT, false);
	bench_add_value(res, "min_request", N_("fewest bytes one read(2) asked for"), "bytes",
			st.reads ? (double)st.min_request : 0, BENCH_STYLE_COUNT, false);
	bench_add_value(res, "writes", N_("write(2) calls"), "writes", (double)st.writes,
			BENCH_STYLE_COUNT, false);
	bench_note(res, buffered ? _("buffered reader") : _("unbuffered reader"));
out:
	if (in != STDIN_FILENO)
		close(in);
	if (out >= 0 && close(out) && !err) {
		err = -errno;
		snprintf(res->message, sizeof(res->message), "%s: %s", p->output, strerror(-err));
	}
	return err;
}

struct inject_run {
	const struct inject_params *p;
	const struct bench_ctx *ctx;
	struct bench_result *res;
	struct inject_mode modes[INJECT_MODES];
	unsigned int nmodes;
	struct inject_shared *sh;
	struct sbuf stream;
	int out_fd;
};

static int run_modes(struct inject_run *r, double events)
{
	const struct inject_params *p = r->p;
	unsigned int seed = (unsigned int)getpid();

	for (unsigned int i = 0; i < p->iterations; i++) {
		unsigned int s = seed + i;

		sbuf_reset(&r->stream);
		bench_inject_build(&r->stream, (const char *const *)collect.names, collect.n,
				   p->nr_mmaps, p->nr_samples, &s, (uint32_t)getpid());
		for (unsigned int j = 0; j < r->nmodes; j++) {
			/* take turns at going first: a warm cache must not favour one reader */
			struct inject_mode *m = &r->modes[(i + j) % r->nmodes];
			bool last = i + 1 == p->iterations && (i + j) % r->nmodes == 0;
			double rss = 0;
			int err = run_once(&r->stream, m->buffered, p->all, last ? r->out_fd : -1,
					   r->sh, &m->wall[i], &m->cpu[i], &rss, r->res);

			if (err)
				return err;
			m->rss_sum += rss;
			m->rss_sq += rss * rss;
			m->reads += (double)r->sh->st.reads;
			m->writes += (double)r->sh->st.writes;
			m->build_ids = r->sh->st.build_ids;
			m->no_build_id = r->sh->st.no_build_id;
			bench_progress(r->ctx, (double)(i * r->nmodes + j + 1) /
						   (p->iterations * r->nmodes));
		}
		(void)events;
	}
	return 0;
}

static void add_notes(struct inject_run *r, double cpu[INJECT_MODES])
{
	const struct inject_params *p = r->p;

	if (r->nmodes == 2) {
		bench_add_value(r->res, "cpu_ratio",
				bench_text(r->res,
					   _("  Buffered/unbuffered reader CPU per event: %.2fx"),
					   cpu[1] > 0 ? cpu[0] / cpu[1] : 0),
				"x", cpu[1] > 0 ? cpu[0] / cpu[1] : 0, BENCH_STYLE_LINE, true);
	}
	bench_note(r->res,
		   _("%zu DSOs with build-ids under %s (perf takes up to %u, 4 per mmap); each "
		     "hit DSO's build-id read from its file inside the timed part"),
		   collect.n, p->dso_dir, INJECT_DSO_RATIO * p->nr_mmaps);
	bench_note(r->res,
		   _("the reader runs in a forked child (memory: its ru_maxrss) and its output "
		     "is drained from a pipe; the feeder makes a write(2) per record, as perf's, "
		     "so it bounds the wall time: compare the readers by CPU time per event"));
	bench_note(r->res,
		   _("a lean reader: no ordered events and no thread or machine model, so it "
		     "is expected to be faster than perf inject; samples are 32 bytes "
		     "(IP|TID|TIME), perf's 40 (with an identifier)"));
	if (r->modes[0].no_build_id)
		bench_note(r->res, _("%llu mapped DSOs gave no build-id when read"),
			   (unsigned long long)r->modes[0].no_build_id);
	bench_note(r->res, _("-i sets the runs; --repeat does not apply"));
}

static int inject_run(const void *params, const struct bench_ctx *ctx, struct bench_result *res)
{
	const struct inject_params *p = params;
	struct inject_run r = {.p = p, .ctx = ctx, .res = res, .out_fd = -1};
	double events = (double)p->nr_mmaps * (p->nr_samples + 2); /* perf's count */
	double cpu[INJECT_MODES] = {0};
	int n, err = 0;

	if (p->input)
		return run_input(p, res);
	if (p->buffered || !p->unbuffered)
		r.modes[r.nmodes++].buffered = true;
	if (p->unbuffered || !p->buffered)
		r.modes[r.nmodes++].buffered = false;
	n = collect_dsos(p->dso_dir, (size_t)INJECT_DSO_RATIO * p->nr_mmaps);
	if (n <= 0) {
		err = n ? n : -ENOENT;
		snprintf(res->message, sizeof(res->message),
			 n ? "%s: %s" : _("%s: no ELF file with a build-id there"), p->dso_dir,
			 strerror(-err));
		goto out;
	}
	if (p->output) {
		r.out_fd = perfdata_open_output(p->output, res->message, sizeof(res->message));
		if (r.out_fd < 0) {
			err = r.out_fd;
			goto out;
		}
	}
	r.sh = mmap(NULL, sizeof(*r.sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (r.sh == MAP_FAILED) {
		err = -errno;
		r.sh = NULL;
		snprintf(res->message, sizeof(res->message), "mmap: %s", strerror(-err));
		goto out;
	}
	for (unsigned int j = 0; j < r.nmodes; j++) {
		r.modes[j].wall = xcalloc(p->iterations, sizeof(double));
		r.modes[j].cpu = xcalloc(p->iterations, sizeof(double));
	}
	err = run_modes(&r, events);
	for (unsigned int j = 0; !err && j < r.nmodes; j++)
		cpu[j] = add_mode(res, p, &r.modes[j], events);
	if (!err)
		add_notes(&r, cpu);
out:
	for (unsigned int j = 0; j < r.nmodes; j++) {
		free(r.modes[j].wall);
		free(r.modes[j].cpu);
	}
	if (r.sh)
		munmap(r.sh, sizeof(*r.sh));
	if (r.out_fd >= 0 && close(r.out_fd) && !err) {
		err = -errno;
		snprintf(res->message, sizeof(res->message), "%s: %s", p->output, strerror(-err));
	}
	sbuf_free(&r.stream);
	collect_free();
	return err;
}

const struct bench_desc bench_inject_build_id = {
    .name = "inject-build-id",
    .title = "internals/inject-build-id",
    .summary = N_("inject build-ids into a perf.data pipe stream, buffered and unbuffered, as "
		  "perf bench internals inject-build-id"),
    .options = inject_options,
    .params_size = sizeof(struct inject_params),
    .defaults = &inject_defaults,
    .run = inject_run,
};
