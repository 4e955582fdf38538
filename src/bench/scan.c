// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * scan.c: the `scan` benchmark, what one frame costs per process for each way
 * of reading /proc, on the live system, side by side in one run (the spirit
 * of the seed's "faster /proc/PID/status"): getdents64(2) of /proc, then per
 * process
 *  - open(2)+read(2)+close(2) of stat and statm, as top does each frame;
 *  - pread(2) of stat and statm on descriptors held open, as ptop's batch mode;
 *  - read-less: pread of a held schedstat (the leader's run time), and of
 *    stat and statm only when it changed since the last frame;
 *  - read-less by the process CPU clock (clock_gettime(2) of
 *    clock_getcpuclockid(3), every thread's run time, no descriptor), and
 *    stat and statm when it moved, as ptop's viewer does out of view;
 *  - ptop's own sampler, in full and read-less (parsing, slots and all);
 *  - ptop's BPF task iterator source, when it loads (root, or CAP_BPF and
 *    CAP_PERFMON): one read() loop per frame, no file per process.
 * The raw ways parse nothing: they are the floor each design can reach. The
 * figure is CPU time (this process's, kernel and user) per process and frame,
 * the median over --repeat runs, each of --frames frames per way, the ways
 * interleaved so that drift hits all alike.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "ptop/bench.h"
#include "ptop/frame.h"
#include "ptop/source.h"
#include "ptop/util.h"

#define SCAN_DENTS 32768
#define SCAN_BUF 4096

struct scan_params {
	unsigned int frames; /* frames per way and run */
};

static const struct scan_params scan_defaults = {
    .frames = 10,
};

static const struct bench_option scan_options[] = {
    {.name = "frames",
     .short_name = 'n',
     .type = BENCH_OPT_UINT,
     .offset = offsetof(struct scan_params, frames),
     .min = 1,
     .max = 100000,
     .arg = "N",
     .help = N_("frames per way of reading and run")},
    {.name = NULL},
};

/* A process's held descriptors, its last schedstat and run time, by PID (sorted). */
struct scan_proc {
	int pid;
	int fd[3]; /* stat, statm, schedstat; -1 when it could not be opened */
	char sched[48];
	unsigned sched_len;
	bool has_clock; /* clock is its process CPU clock */
	clockid_t clock;
	uint64_t run_ns; /* the clock's last reading */
};

struct scan_state {
	int dirfd;
	char *dents;
	struct scan_proc *procs;
	size_t n;
	char buf[SCAN_BUF];
	unsigned long changed; /* read-less: processes that ran, over the run */
	size_t listed;	       /* PIDs the last listing gave */
	const char *no_bpf;    /* why the BPF way did not run, or NULL */
	char no_bpf_buf[192];
};

enum scan_way {
	WAY_TOP,
	WAY_HELD,
	WAY_READLESS,
	WAY_CLOCK,
	WAY_SAMPLER,
	WAY_SAMPLER_RL,
	WAY_BPF,
	WAY_N
};

static const struct {
	const char *key, *label;
} scan_ways[WAY_N] = {
    [WAY_TOP] = {"open_read_close", N_("open+read+close stat, statm (as top)")},
    [WAY_HELD] = {"held", N_("pread of held stat, statm")},
    [WAY_READLESS] = {"read_less", N_("read-less: held schedstat, stat+statm if it moved")},
    [WAY_CLOCK] = {"read_less_clock", N_("read-less: process CPU clock, stat+statm if it moved")},
    [WAY_SAMPLER] = {"ptop_full", N_("ptop's sampler, every row in full (batch)")},
    [WAY_SAMPLER_RL] = {"ptop_read_less", N_("ptop's sampler, read-less (viewer)")},
    [WAY_BPF] = {"ptop_bpf", N_("ptop's sampler, BPF task iterator")},
};

static const char *const scan_files[3] = {"stat", "statm", "schedstat"};

/* Call fn for each PID of /proc; 0 or -errno. */
static int scan_pids(struct scan_state *st, void (*fn)(struct scan_state *, int, const char *))
{
	if (lseek(st->dirfd, 0, SEEK_SET) < 0)
		return -errno;
	st->listed = 0;
	for (;;) {
		long n = syscall(SYS_getdents64, st->dirfd, st->dents, SCAN_DENTS);

		if (n < 0)
			return -errno;
		if (n == 0)
			return 0;
		for (long off = 0; off < n;) {
			const char *name = st->dents + off + 19; /* d_name in linux_dirent64 */
			unsigned short reclen;
			int pid = 0;

			memcpy(&reclen, st->dents + off + 16, sizeof(reclen));
			off += reclen;
			for (const char *c = name; *c >= '0' && *c <= '9'; c++)
				pid = pid * 10 + (*c - '0');
			if (pid > 0) {
				st->listed++;
				fn(st, pid, name);
			}
		}
	}
}

static int proc_cmp(const void *a, const void *b)
{
	int x = ((const struct scan_proc *)a)->pid, y = ((const struct scan_proc *)b)->pid;

	return (x > y) - (x < y);
}

static struct scan_proc *find(struct scan_state *st, int pid)
{
	struct scan_proc key = {.pid = pid};

	return bsearch(&key, st->procs, st->n, sizeof(key), proc_cmp);
}

static void open_held(struct scan_state *st, int pid, const char *name)
{
	char path[64];
	struct scan_proc *p;

	if (st->n % 1024 == 0)
		st->procs = xreallocarray(st->procs, st->n + 1024, sizeof(*st->procs));
	p = &st->procs[st->n++];
	p->pid = pid;
	p->sched_len = 0;
	p->run_ns = 0;
	p->has_clock = clock_getcpuclockid(pid, &p->clock) == 0;
	for (int f = 0; f < 3; f++) {
		snprintf(path, sizeof(path), "%s/%s", name, scan_files[f]);
		p->fd[f] = openat(st->dirfd, path, O_RDONLY | O_CLOEXEC);
	}
}

static void read_top(struct scan_state *st, int pid, const char *name)
{
	char path[64];

	(void)pid;
	for (int f = 0; f < 2; f++) {
		int fd;

		snprintf(path, sizeof(path), "%s/%s", name, scan_files[f]);
		fd = openat(st->dirfd, path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (read(fd, st->buf, sizeof(st->buf)) < 0)
			st->buf[0] = 0;
		close(fd);
	}
}

static void read_held(struct scan_state *st, int pid, const char *name)
{
	struct scan_proc *p = find(st, pid);

	(void)name;
	for (int f = 0; p && f < 2; f++)
		if (p->fd[f] >= 0 && pread(p->fd[f], st->buf, sizeof(st->buf), 0) < 0)
			st->buf[0] = 0;
}

static void read_less(struct scan_state *st, int pid, const char *name)
{
	struct scan_proc *p = find(st, pid);
	ssize_t n;

	if (!p || p->fd[2] < 0)
		return;
	n = pread(p->fd[2], st->buf, sizeof(p->sched), 0);
	if (n > 0 && (size_t)n == p->sched_len && !memcmp(st->buf, p->sched, (size_t)n))
		return;
	if (n > 0 && (size_t)n <= sizeof(p->sched)) {
		memcpy(p->sched, st->buf, (size_t)n);
		p->sched_len = (unsigned)n;
	}
	st->changed++;
	read_held(st, pid, name);
}

static void read_less_clock(struct scan_state *st, int pid, const char *name)
{
	struct scan_proc *p = find(st, pid);
	struct timespec ts;
	uint64_t ns;

	if (!p || !p->has_clock || clock_gettime(p->clock, &ts) != 0)
		return;
	ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	if (ns == p->run_ns)
		return;
	p->run_ns = ns;
	st->changed++;
	read_held(st, pid, name);
}

static void close_held(struct scan_state *st)
{
	for (size_t i = 0; i < st->n; i++)
		for (int f = 0; f < 3; f++)
			if (st->procs[i].fd[f] >= 0)
				close(st->procs[i].fd[f]);
	free(st->procs);
	st->procs = NULL;
	st->n = 0;
}

/* Hold every process's descriptors, and take way's read-less reference. 0 or -errno. */
static int held_setup(struct scan_state *st, void (*way)(struct scan_state *, int, const char *))
{
	int err = scan_pids(st, open_held);

	if (err)
		return err;
	if (st->n > 1)
		qsort(st->procs, st->n, sizeof(*st->procs), proc_cmp);
	/* read-less needs a reference: every process "moved" in its first frame */
	err = scan_pids(st, way);
	st->changed = 0;
	return err;
}

/*
 * One way's frames; *cpu_s the CPU time they took, *nprocs the processes
 * read. Each way holds its descriptors only while it runs (set up untimed):
 * all at once would need more than RLIMIT_NOFILE on a big machine. 0 or -errno.
 */
static int run_way(struct scan_state *st, enum scan_way w, unsigned frames, double *cpu_s,
		   size_t *nprocs)
{
	static void (*const fn[])(struct scan_state *, int, const char *) = {
	    [WAY_TOP] = read_top,
	    [WAY_HELD] = read_held,
	    [WAY_READLESS] = read_less,
	    [WAY_CLOCK] = read_less_clock,
	};
	struct sampler_opts so = {.needs = PROC_NEED(PROC_FILE_STATM),
				  .read_less = w == WAY_SAMPLER_RL};
	struct frame_source_opts o = {0};
	struct source src = {0};
	struct frame f = {0};
	char why[256];
	unsigned long changed = st->changed;
	double t0;
	int err = 0;

	if (w == WAY_HELD || w == WAY_READLESS || w == WAY_CLOCK)
		err = held_setup(st, fn[w]);
	if (w >= WAY_SAMPLER) {
		err = source_open(w == WAY_BPF ? FRAME_SOURCE_BPF : FRAME_SOURCE_PROCFS, &o, &src,
				  why, sizeof(why));
		/* the first frame opens the descriptors and sets the references */
		if (!err)
			err = src.ops->frame(src.s, &so, &f);
		/* BPF did not load: the source is /proc, which is not what is asked */
		if (!err && w == WAY_BPF && src.ops != &source_bpf) {
			snprintf(st->no_bpf_buf, sizeof(st->no_bpf_buf), "%s",
				 src.note ? src.note : _("bpf: not available"));
			st->no_bpf = st->no_bpf_buf;
			frames = 0;
		}
	}
	t0 = clock_cpu();
	for (unsigned i = 0; i < frames && !err; i++)
		err = src.ops ? src.ops->frame(src.s, &so, &f) : scan_pids(st, fn[w]);
	*cpu_s = clock_cpu() - t0;
	*nprocs = src.ops ? f.nprocs : st->listed;
	if (w == WAY_READLESS || w == WAY_CLOCK)
		changed += st->changed;
	close_held(st);
	st->changed = changed;
	frame_free(&f);
	source_close(&src);
	return err;
}

static void raise_nofile(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

static int scan_setup(struct scan_state *st, struct bench_result *res)
{
	int err;

	raise_nofile();
	st->dirfd = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (st->dirfd < 0) {
		err = -errno;
		snprintf(res->message, sizeof(res->message), "/proc: %s", strerror(-err));
		return err;
	}
	st->dents = xmalloc(SCAN_DENTS);
	return 0;
}

static int scan_run(const void *params, const struct bench_ctx *ctx, struct bench_result *res)
{
	const struct scan_params *p = params;
	unsigned repeat = ctx && ctx->repeat ? ctx->repeat : 1;
	double *samples = xcalloc((size_t)WAY_N * repeat, sizeof(*samples));
	struct scan_state st = {.dirfd = -1};
	size_t nprocs = 0;
	int err;

	err = scan_setup(&st, res);
	for (unsigned r = 0; r < repeat && !err; r++) {
		for (int w = 0; w < WAY_N && !err; w++) {
			double cpu;

			err = run_way(&st, (enum scan_way)w, p->frames, &cpu, &nprocs);
			if (err)
				snprintf(res->message, sizeof(res->message),
					 _("cannot list processes: %s"), strerror(-err));
			samples[(size_t)w * repeat + r] =
			    cpu * 1e6 / (double)p->frames / (double)(nprocs ? nprocs : 1);
		}
		bench_progress(ctx, (double)(r + 1) / repeat);
	}
	if (err) {
		if (!res->message[0])
			snprintf(res->message, sizeof(res->message), "%s", strerror(-err));
		goto out;
	}
	snprintf(res->header, sizeof(res->header),
		 _("%zu processes, %u frames per way, median of %u runs"), nprocs, p->frames,
		 repeat);
	for (int w = 0; w < WAY_N; w++) {
		double *s = &samples[(size_t)w * repeat];
		struct bench_value *v;

		if (w == WAY_BPF && st.no_bpf)
			continue;
		v = bench_add_value(res, scan_ways[w].key, _(scan_ways[w].label), "usecs/process",
				    bench_median(s, repeat), BENCH_STYLE_FIGURE, true);
		bench_set_spread(v, s, repeat, _("runs"));
	}
	bench_add_value(res, "processes", N_("processes"), "", (double)nprocs, BENCH_STYLE_COUNT,
			false);
	bench_add_value(res, "read_less_changed",
			N_("read-less: processes that ran, per frame (read in full)"), "",
			(double)st.changed / (2.0 * repeat * p->frames), BENCH_STYLE_COUNT, false);
	bench_note(res, "%s",
		   _("CPU time of this process per process and frame; the raw ways parse "
		     "nothing, ptop's sampler parses and keeps its slots"));
	if (st.no_bpf)
		bench_note(res, "%s", st.no_bpf);
out:
	free(st.dents);
	if (st.dirfd >= 0)
		close(st.dirfd);
	free(samples);
	return err;
}

const struct bench_desc bench_scan = {
    .name = "scan",
    .title = "scan",
    .summary = N_("per-process frame cost of each way of reading /proc, side by side"),
    .options = scan_options,
    .params_size = sizeof(struct scan_params),
    .defaults = &scan_defaults,
    .run = scan_run,
};
