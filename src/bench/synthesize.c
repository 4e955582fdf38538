// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * synthesize.c: the `synthesize` benchmark, the work `perf bench internals
 * synthesize` measures: building the records perf record writes at its start
 * to describe processes that already run. -s does it for ptop's own process
 * (one PERF_RECORD_COMM, one PERF_RECORD_MMAP2 per executable map; then again
 * with every readable map, perf's "data" case); -t for every process on the
 * machine (a PERF_RECORD_FORK and a PERF_RECORD_COMM per thread, MMAP2 for the
 * executable maps of user processes), the PIDs shared out to 1..M threads.
 * It reads /proc, or --proc-root's tree (its PIDs and a process's threads
 * listed by src/proc's proc_dir_ids()), /proc/PID/stat (/proc/PID/comm
 * for -s), /proc/PID/task/, /proc/PID/task/TID/comm and /proc/PID/maps, the
 * last in large reads into a buffer each worker keeps and parsed in place by
 * proc_parse_maps_line(); records go into a per-worker buffer that keeps its
 * capacity between runs. -s holds its comm and maps open from the first run
 * on and re-reads them with pread from offset 0, as ptop's sampler holds the
 * files of the processes it shows (the kernel prints the same text for it);
 * --reopen opens and closes them every run; --like-perf does perf's file
 * work (status, not comm, and /proc/self/status once more, every file
 * opened and closed each run), the mode to compare with perf run for run.
 * Notes in the result say which was done and what -t opened and listed.
 * --output writes the records of the last run as a perf.data stream in pipe
 * mode (perf record -o -), one write(2) per buffer; bench_synth_decode()
 * reads such a stream back. Figures are perf's: mean and standard error of
 * the wall time per run, of the records per run, and their ratio, with the
 * min, median and max of the run times beside them; -i and -I set the runs,
 * as in perf, and the common --repeat does not apply.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "perfdata.h"
#include "ptop/bench.h"
#include "ptop/proc.h"
#include "ptop/util.h"

#define SYNTH_MAPS_BUF (64 * 1024) /* bytes per worker for /proc/PID/maps */
#define SYNTH_SMALL_BUF 8192	   /* stat, comm and status (about 1.4 KiB) */
#define SYNTH_DENTS_BUF (32 * 1024)
#define SYNTH_COMM_LEN 16	     /* perf's comm[16]: at most 15 bytes and a NUL */
#define SYNTH_PATH_MAX 4096	     /* perf's filename[PATH_MAX] */
#define SYNTH_PF_KTHREAD 0x00200000u /* stat's flags bit of kernel threads */
#define SYNTH_MAX_THREADS 1024
#define SYNTH_ST_VALUES 8	  /* values the -s part and the -t heading take */
#define SYNTH_MT_VALUES 6	  /* values per thread count */
#define SYNTH_MAX_SAMPLES 1000000 /* runs whose times make the spread */

/* Flags of mmap(2), as perf writes them; <sys/mman.h> would do, spelled out to be exact. */
#define SYNTH_PROT_READ 0x1
#define SYNTH_PROT_WRITE 0x2
#define SYNTH_PROT_EXEC 0x4
#define SYNTH_MAP_SHARED 0x01
#define SYNTH_MAP_PRIVATE 0x02
/* perf's synthesized FORK of a thread that existed before (tools/perf/util/event.h). */
#define SYNTH_MISC_FORK_EXEC (1 << 13)

/* ---- parameters ---- */

struct synth_params {
	bool st, mt;
	unsigned int min_threads, max_threads; /* max 0: the online CPUs */
	unsigned int iterations;	       /* runs of each -s case */
	unsigned int multi_iterations;	       /* runs of -t per thread count */
	const char *output;		       /* perf.data stream, "-": stdout; or NULL */
	bool reopen;			       /* -s: open comm and maps every run */
	bool like_perf;			       /* -s: perf's file work, see synth_self() */
	const char *proc_root;		       /* where the processes are read */
};

/* perf bench's defaults: 10000 and 10 runs, 1 to the online CPUs threads. */
static const struct synth_params synth_defaults = {
    .min_threads = 1,
    .iterations = 10000,
    .multi_iterations = 10,
    .proc_root = "/proc",
};

static const struct bench_option synth_options[] = {
    {.name = "st",
     .short_name = 's',
     .type = BENCH_OPT_FLAG,
     .offset = offsetof(struct synth_params, st),
     .help = N_("synthesize ptop's own process (the default)")},
    {.name = "mt",
     .short_name = 't',
     .type = BENCH_OPT_FLAG,
     .offset = offsetof(struct synth_params, mt),
     .help = N_("synthesize every process, split over threads")},
    {.name = "min-threads",
     .short_name = 'm',
     .type = BENCH_OPT_UINT,
     .offset = offsetof(struct synth_params, min_threads),
     .min = 1,
     .max = SYNTH_MAX_THREADS,
     .arg = "N",
     .help = N_("fewest synthesis threads with --mt")},
    {.name = "max-threads",
     .short_name = 'M',
     .type = BENCH_OPT_UINT,
     .offset = offsetof(struct synth_params, max_threads),
     .min = 0,
     .max = SYNTH_MAX_THREADS,
     .arg = "N",
     .help = N_("most synthesis threads with --mt, 0: online CPUs")},
    {.name = "iterations",
     .short_name = 'i',
     .type = BENCH_OPT_UINT,
     .offset = offsetof(struct synth_params, iterations),
     .min = 1,
     .max = 100000000,
     .arg = "N",
     .help = N_("runs to average with --st")},
    {.name = "multi-iterations",
     .short_name = 'I',
     .type = BENCH_OPT_UINT,
     .offset = offsetof(struct synth_params, multi_iterations),
     .min = 1,
     .max = 1000000,
     .arg = "N",
     .help = N_("runs to average per thread count with --mt")},
    {.name = "reopen",
     .type = BENCH_OPT_FLAG,
     .offset = offsetof(struct synth_params, reopen),
     .help = N_("with --st, open comm and maps every run as perf does, not hold them open")},
    {.name = "like-perf",
     .type = BENCH_OPT_FLAG,
     .offset = offsetof(struct synth_params, like_perf),
     .help = N_("with --st, do perf's file work: open+read+close status and maps every run, "
		"and its namespace check")},
    {.name = "output",
     .short_name = 'o',
     .type = BENCH_OPT_STRING,
     .offset = offsetof(struct synth_params, output),
     .arg = "FILE",
     .help = N_("write the last run's records as a perf.data pipe stream ('-': stdout)")},
    {.name = "proc-root",
     .type = BENCH_OPT_STRING,
     .offset = offsetof(struct synth_params, proc_root),
     .arg = "DIR",
     .help = N_("read processes from DIR instead of /proc")},
    {.name = NULL},
};
_Static_assert(sizeof(synth_options) / sizeof(synth_options[0]) <= BENCH_MAX_OPTIONS + 1,
	       "too many options for bench.c's parser");

/* ---- workers ---- */

struct synth_machine;

struct synth_worker {
	pthread_t thread;
	struct synth_machine *m;
	struct sbuf out; /* the records of the current run */
	char *maps;	 /* SYNTH_MAPS_BUF bytes */
	char *dents;	 /* SYNTH_DENTS_BUF bytes, for /proc/PID/task */
	char small[SYNTH_SMALL_BUF];
	int comm_fd, maps_fd; /* -s: held open between runs, or -1 */
	uint64_t records;     /* in out, this run */
	unsigned int gone;    /* processes skipped: exited, or not readable */
	uint64_t opens;	      /* files and directories opened, this run */
	uint64_t dirreads;    /* getdents64 calls, this run */
	/* -t, this run: processes and threads described, maps files opened */
	uint64_t procs, forks, maps_opens;
	int err;	  /* 0 or -errno; only the -s case stops on one */
	const char *what; /* the file err is about */
};

/* What the -t workers share: the PIDs of one scan and the next one to take. */
struct synth_machine {
	int proc_fd;
	int *pids;
	size_t npids, cap;
	atomic_size_t next;
	char *dents;	   /* SYNTH_DENTS_BUF bytes, for /proc */
	uint64_t dirreads; /* getdents64 calls on /proc, this run */
};

/* One read of a small file from its start (a fresh or a held descriptor); the length or -errno. */
static ssize_t pread_small(int fd, char *buf, size_t cap)
{
	ssize_t n;

	do
		n = pread(fd, buf, cap, 0);
	while (n < 0 && errno == EINTR);
	return n < 0 ? -errno : n;
}

/* /proc/PID/NAME, or /proc/PID/task/TID/NAME with a tid, opened: a descriptor or -errno. */
static int open_pid_file(struct synth_worker *w, uint32_t pid, uint32_t tid, const char *name,
			 int flags)
{
	char path[PROC_PATH_MAX];
	int fd;

	if (pid)
		proc_path(path, pid, tid, name);
	else
		snprintf(path, sizeof(path), "self/%s", name);
	w->opens++;
	fd = openat(w->m->proc_fd, path, O_RDONLY | O_CLOEXEC | flags);
	return fd < 0 ? -errno : fd;
}

/* open+read+close of a small file into w->small; the length or -errno. */
static ssize_t read_small(struct synth_worker *w, uint32_t pid, uint32_t tid, const char *name)
{
	ssize_t n;
	int fd = open_pid_file(w, pid, tid, name, 0);

	if (fd < 0)
		return fd;
	n = pread_small(fd, w->small, sizeof(w->small));
	close(fd);
	return n;
}

static void put_id(char *end, uint32_t pid, uint32_t tid)
{
	struct perfdata_id id = {.pid = pid, .tid = tid};

	memcpy(end - sizeof(id), &id, sizeof(id));
}

static void emit_comm(struct synth_worker *w, uint32_t pid, uint32_t tid, const char *comm,
		      size_t n)
{
	size_t size;
	char *p;
	struct perfdata_comm c;

	if (n > SYNTH_COMM_LEN - 1)
		n = SYNTH_COMM_LEN - 1;
	size = sizeof(c) + perfdata_align8(n + 1) + sizeof(struct perfdata_id);
	p = sbuf_reserve(&w->out, size);
	c = (struct perfdata_comm){
	    .h = {.type = PERF_RECORD_COMM, .size = (uint16_t)size}, .pid = pid, .tid = tid};
	memcpy(p, &c, sizeof(c));
	perfdata_put_string(p + sizeof(c), comm, n);
	put_id(p + size, pid, tid);
	w->out.len += size;
	w->records++;
}

/* perf's rule: the main thread's parent is ppid; another thread's is its main thread. */
static void emit_fork(struct synth_worker *w, uint32_t pid, uint32_t tid, uint32_t parent)
{
	struct {
		struct perfdata_fork f;
		struct perfdata_id id;
	} r = {
	    .f = {.h = {.type = PERF_RECORD_FORK,
			.misc = SYNTH_MISC_FORK_EXEC,
			.size = (uint16_t)sizeof(r)},
		  .pid = pid,
		  .ppid = parent,
		  .tid = tid,
		  .ptid = parent},
	    .id = {.pid = pid, .tid = tid},
	};

	memcpy(sbuf_reserve(&w->out, sizeof(r)), &r, sizeof(r));
	w->out.len += sizeof(r);
	w->records++;
	w->forks++;
}

static void emit_mmap2(struct synth_worker *w, uint32_t pid, const struct proc_maps_entry *e,
		       bool data)
{
	static const char anon[] = "//anon", toolong[] = "//toolong";
	const char *name = e->path.p;
	size_t n = e->path.n, size;
	struct perfdata_mmap2 r;
	char *p;

	/* perf reads the path raw, " (deleted)" and all: it is still in the line. */
	if (e->deleted)
		n += sizeof(" (deleted)") - 1;
	if (!n) {
		name = anon;
		n = sizeof(anon) - 1;
	} else if (n >= SYNTH_PATH_MAX) {
		name = toolong;
		n = sizeof(toolong) - 1;
	}
	size = sizeof(r) + perfdata_align8(n + 1) + sizeof(struct perfdata_id);
	r = (struct perfdata_mmap2){
	    .h = {.type = PERF_RECORD_MMAP2,
		  .misc = PERF_RECORD_MISC_USER | (data ? PERF_RECORD_MISC_MMAP_DATA : 0),
		  .size = (uint16_t)size},
	    .pid = pid,
	    .tid = pid,
	    .start = e->start,
	    .len = e->end - e->start,
	    .pgoff = e->offset,
	    .maj = e->dev_major,
	    .min = e->dev_minor,
	    .ino = e->inode,
	    .prot = (e->perms[0] == 'r' ? SYNTH_PROT_READ : 0) |
		    (e->perms[1] == 'w' ? SYNTH_PROT_WRITE : 0) |
		    (e->perms[2] == 'x' ? SYNTH_PROT_EXEC : 0),
	    .flags = e->perms[3] == 's' ? SYNTH_MAP_SHARED : SYNTH_MAP_PRIVATE,
	};
	p = sbuf_reserve(&w->out, size);
	memcpy(p, &r, sizeof(r));
	perfdata_put_string(p + sizeof(r), name, n);
	put_id(p + size, pid, pid);
	w->out.len += size;
	w->records++;
}

/*
 * Whether the line at p (up to end) is one perf would write: executable, or
 * with data readable. Only its permissions are looked at, right after
 * "start-end ": most lines are not wanted, and parsing them whole to throw
 * them away would cost more than the kernel's printing of them.
 */
static bool maps_wanted(const char *p, const char *end, bool data)
{
	size_t n = (size_t)(end - p) < 40 ? (size_t)(end - p) : 40;
	const char *sp = memchr(p, ' ', n);

	if (!sp || end - sp < 5)
		return true; /* let the parser judge it */
	return sp[3] == 'x' || (data && sp[1] == 'r');
}

/* Records for the complete lines in buf[0, len): executable maps, and readable ones with data. */
static void maps_lines(struct synth_worker *w, uint32_t pid, const char *buf, size_t len, bool data)
{
	const char *p = buf, *end = buf + len;
	struct proc_maps_entry e;
	size_t used;

	while (p < end) {
		if (!maps_wanted(p, end, data)) {
			const char *nl = memchr(p, '\n', (size_t)(end - p));

			p = nl ? nl + 1 : end;
			continue;
		}
		/* A line the parser refuses is skipped, as perf skips it. */
		if (!proc_parse_maps_line(p, (size_t)(end - p), &e, &used)) {
			if (e.perms[2] == 'x')
				emit_mmap2(w, pid, &e, false);
			else if (data && e.perms[0] == 'r')
				emit_mmap2(w, pid, &e, true);
		}
		p += used;
	}
}

/*
 * MMAP2 records for the maps file open at fd, read from its start. The
 * kernel hands out at most its seq_file buffer (a page) per read, whole
 * lines as long as ours has room; a line cut by a short read waits at the
 * front of the buffer for the rest. pread at offset 0 makes the kernel
 * start again from the first map, so a held descriptor reads it anew; the
 * offsets after it are where the previous read ended, as read(2)'s would be.
 */
static int maps_read(struct synth_worker *w, int fd, uint32_t pid, bool data)
{
	size_t have = 0;
	off_t off = 0;
	int err = 0;

	for (;;) {
		ssize_t n = pread(fd, w->maps + have, SYNTH_MAPS_BUF - have, off);
		const char *nl;
		size_t done;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = -errno;
			break;
		}
		if (n == 0) {
			/* The last line may lack its newline. */
			if (have)
				maps_lines(w, pid, w->maps, have, data);
			break;
		}
		have += (size_t)n;
		off += n;
		nl = memrchr(w->maps, '\n', have);
		if (!nl) {
			if (have == SYNTH_MAPS_BUF) {
				err = -E2BIG; /* a line longer than PATH_MAX allows */
				break;
			}
			continue;
		}
		done = (size_t)(nl + 1 - w->maps);
		maps_lines(w, pid, w->maps, done, data);
		have -= done;
		if (have)
			memmove(w->maps, w->maps + done, have);
	}
	return err;
}

/* MMAP2 records for /proc/PID/maps, opened and closed here. */
static int synth_maps(struct synth_worker *w, uint32_t pid, bool data)
{
	int fd, err;

	w->maps_opens++;
	fd = open_pid_file(w, pid, 0, "maps", 0);
	if (fd < 0)
		return fd;
	err = maps_read(w, fd, pid, data);
	close(fd);
	return err;
}

/* Parse /proc/PID/stat into *st; its comm is a view into w->small. 0 or -errno. */
static int synth_stat(struct synth_worker *w, uint32_t pid, struct proc_stat *st)
{
	ssize_t n = read_small(w, pid, 0, "stat");

	if (n < 0)
		return (int)n;
	return proc_parse_stat(w->small, (size_t)n, st);
}

/* *fd: /proc/PID/NAME, opened unless it is held open already. 0 or -errno. */
static int held_open(struct synth_worker *w, int *fd, uint32_t pid, const char *name)
{
	int opened;

	if (*fd >= 0)
		return 0;
	opened = open_pid_file(w, pid, 0, name, 0);
	if (opened < 0)
		return opened;
	*fd = opened;
	return 0;
}

static void held_close(struct synth_worker *w)
{
	if (w->comm_fd >= 0)
		close(w->comm_fd);
	if (w->maps_fd >= 0)
		close(w->maps_fd);
	w->comm_fd = w->maps_fd = -1;
}

/* The value of "Name:" in a status file's text: its view, or -EINVAL. */
static int status_name(const char *buf, size_t len, const char **name, size_t *n)
{
	const char *end = buf + len, *p = buf, *nl;

	if (len < 6 || memcmp(p, "Name:\t", 6))
		return -EINVAL;
	p += 6;
	nl = memchr(p, '\n', (size_t)(end - p));
	*name = p;
	*n = (size_t)((nl ? nl : end) - p);
	return 0;
}

/*
 * perf's -s case: one COMM for the process, then its maps; no FORK. By
 * default the name comes from comm, which has the name alone (16 bytes
 * where status has 1.4 KiB to print), and comm and maps stay open for the
 * next run unless reopen is set. like_perf does perf's file work each run:
 * open+read+close of status for the name, of /proc/self/status once more
 * (perf's namespace check reads it inside the timed call), and of maps.
 */
static int synth_self(struct synth_worker *w, uint32_t pid, bool data, bool reopen, bool like_perf)
{
	const char *name = w->small;
	size_t namelen;
	ssize_t n;
	int err;

	if (like_perf) {
		w->what = "status";
		n = read_small(w, pid, 0, "status");
		if (n < 0)
			return (int)n;
		err = status_name(w->small, (size_t)n, &name, &namelen);
		if (err)
			return err;
		emit_comm(w, pid, pid, name, namelen);
		w->what = "self/status";
		n = read_small(w, 0, 0, "status");
		if (n < 0)
			return (int)n;
		w->what = "maps";
		return synth_maps(w, pid, data);
	}
	w->what = "comm";
	err = held_open(w, &w->comm_fd, pid, "comm");
	n = err ? err : pread_small(w->comm_fd, w->small, sizeof(w->small));
	if (n < 0) {
		err = (int)n;
		goto out;
	}
	if (n && w->small[n - 1] == '\n')
		n--;
	emit_comm(w, pid, pid, w->small, (size_t)n);
	w->what = "maps";
	err = held_open(w, &w->maps_fd, pid, "maps");
	if (!err)
		err = maps_read(w, w->maps_fd, pid, data);
out:
	if (reopen || err)
		held_close(w);
	return err;
}

struct synth_task_ctx {
	struct synth_worker *w;
	uint32_t pid;
};

/* FORK and COMM for one thread but the main one. */
static int synth_task(void *arg, int id)
{
	struct synth_task_ctx *c = arg;
	uint32_t tid = (uint32_t)id;
	ssize_t len;

	if (tid == c->pid)
		return 0;
	len = read_small(c->w, c->pid, tid, "comm");
	if (len <= 0)
		return 0; /* the thread ended since getdents */
	if (c->w->small[len - 1] == '\n')
		len--;
	emit_fork(c->w, c->pid, tid, c->pid);
	emit_comm(c->w, c->pid, tid, c->w->small, (size_t)len);
	return 0;
}

/* FORK and COMM for the threads of pid but its main one. */
static int synth_tasks(struct synth_worker *w, uint32_t pid)
{
	struct synth_task_ctx c = {.w = w, .pid = pid};
	int fd = open_pid_file(w, pid, 0, "task", O_DIRECTORY), err;

	if (fd < 0)
		return fd;
	err = proc_dir_ids(fd, w->dents, SYNTH_DENTS_BUF, synth_task, &c, &w->dirreads);
	close(fd);
	return err;
}

/* perf's -t case for one process: FORK+COMM per thread, MMAP2 unless it is a kernel thread. */
static void synth_process(struct synth_worker *w, uint32_t pid)
{
	struct proc_stat st;
	uint64_t before = w->records, forks = w->forks;
	size_t len = w->out.len;
	int err;

	if (synth_stat(w, pid, &st)) {
		w->gone++;
		return;
	}
	emit_fork(w, pid, pid, (uint32_t)st.ppid);
	emit_comm(w, pid, pid, st.comm.p, st.comm.n);
	if (!(st.flags & SYNTH_PF_KTHREAD)) {
		err = synth_maps(w, pid, false);
		/*
		 * A process that ended since its stat is dropped whole. One
		 * whose maps are not ours to read keeps the FORK and COMM of
		 * its main thread and no more: perf stops at the failed maps
		 * read, before the task/ entries after the main thread's.
		 */
		if (err == -ENOENT || err == -ESRCH) {
			w->out.len = len;
			w->records = before;
			w->forks = forks;
			w->gone++;
			return;
		}
		w->procs++;
		if (err)
			return;
	} else {
		w->procs++;
	}
	/* Only a process with more threads than its main one needs its task directory read. */
	if (st.num_threads > 1)
		synth_tasks(w, pid);
}

static void *synth_worker_main(void *arg)
{
	struct synth_worker *w = arg;
	struct synth_machine *m = w->m;

	for (;;) {
		size_t i = atomic_fetch_add_explicit(&m->next, 1, memory_order_relaxed);

		if (i >= m->npids)
			break;
		synth_process(w, (uint32_t)m->pids[i]);
	}
	return NULL;
}

static int synth_add_pid(void *arg, int pid)
{
	struct synth_machine *m = arg;

	if (m->npids == m->cap) {
		m->cap = m->cap ? m->cap * 2 : 1024;
		m->pids = xreallocarray(m->pids, m->cap, sizeof(*m->pids));
	}
	m->pids[m->npids++] = pid;
	return 0;
}

/* The PIDs under the proc root now, in m->pids. */
static int synth_scan(struct synth_machine *m)
{
	m->npids = 0;
	if (lseek(m->proc_fd, 0, SEEK_SET) < 0)
		return -errno;
	return proc_dir_ids(m->proc_fd, m->dents, SYNTH_DENTS_BUF, synth_add_pid, m, &m->dirreads);
}

/* ---- statistics, as perf's util/stat.c: mean and standard error of the mean ---- */

struct synth_stats {
	double n, mean, m2;
};

static void stats_add(struct synth_stats *s, double v)
{
	double delta;

	s->n++;
	delta = v - s->mean;
	s->mean += delta / s->n;
	s->m2 += delta * (v - s->mean);
}

static double stats_stderr(const struct synth_stats *s)
{
	return s->n < 2 ? 0 : sqrt(s->m2 / (s->n - 1) / s->n);
}

static double now_usec(void)
{
	return clock_mono() * 1e6;
}

/* The three lines perf prints for a case, as values keyed PREFIX_usec, _events, _usec_per_event. */
static void add_case(struct bench_result *res, const char *prefix, const char *indent,
		     const char *data, const struct synth_stats *t, const struct synth_stats *ev,
		     double *samples, size_t n)
{
	double per = ev->mean > 0 ? t->mean / ev->mean : 0;
	struct bench_value *v;

	v = bench_add_value(res, bench_text(res, "%s_usec", prefix),
			    bench_text(res,
				       _("%sAverage %ssynthesis took: %.3f usec (+- %.3f usec)"),
				       indent, data, t->mean, stats_stderr(t)),
			    "usec", t->mean, BENCH_STYLE_LINE, true);
	bench_set_spread(v, samples, n,
			 n < t->n ? bench_text(res, _("runs (the first %zu)"), n) : _("runs"));
	bench_add_value(res, bench_text(res, "%s_events", prefix),
			bench_text(res, _("%sAverage num. events: %.3f (+- %.3f)"), indent,
				   ev->mean, stats_stderr(ev)),
			"events", ev->mean, BENCH_STYLE_LINE, false);
	bench_add_value(res, bench_text(res, "%s_usec_per_event", prefix),
			bench_text(res, _("%sAverage time per event %.3f usec"), indent, per),
			"usec/event", per, BENCH_STYLE_LINE, true);
}

/* ---- the run ---- */

struct synth_run {
	const struct synth_params *p;
	const struct bench_ctx *ctx;
	struct bench_result *res;
	struct synth_machine m;
	struct synth_worker *w; /* [0] also does -s */
	unsigned int nw;	/* workers allocated */
	unsigned int used;	/* workers whose buffers hold the last -t run */
	struct sbuf self;	/* the last -s run without data maps */
	double done, total;	/* progress, in runs */
	double *samples; /* usec of each run of the current case, SYNTH_MAX_SAMPLES at most */
	uint64_t opens, dirreads;	    /* of the last -t run */
	uint64_t perf_opens, perf_dirreads; /* what perf's method would take for it, at least */
};

static void run_progress(struct synth_run *r)
{
	r->done++;
	bench_progress(r->ctx, r->done / r->total);
}

static int run_single(struct synth_run *r)
{
	struct synth_worker *w = &r->w[0];
	uint32_t pid = (uint32_t)getpid();
	size_t cap = r->p->iterations < SYNTH_MAX_SAMPLES ? r->p->iterations : SYNTH_MAX_SAMPLES;
	bool like_perf = r->p->like_perf, reopen = r->p->reopen || like_perf;
	uint64_t opens = 0;
	struct sbuf keep;

	/* perf's very lines, with ptop's name where perf has its own */
	bench_add_value(r->res, "st_pid",
			_("Computing performance of single threaded perf event synthesis by\n"
			  "synthesizing events on the ptop process itself:"),
			"pid", pid, BENCH_STYLE_LINE, false);
	for (int data = 0; data < 2; data++) {
		struct synth_stats t = {0}, ev = {0};

		for (unsigned int i = 0; i < r->p->iterations; i++) {
			double t0, t1;
			int err;

			sbuf_reset(&w->out);
			w->records = 0;
			w->opens = 0;
			t0 = now_usec();
			err = synth_self(w, pid, data, reopen, like_perf);
			t1 = now_usec();
			if (err) {
				snprintf(r->res->message, sizeof(r->res->message),
					 "/proc/%u/%s: %s", pid, w->what, strerror(-err));
				return err;
			}
			stats_add(&t, t1 - t0);
			stats_add(&ev, (double)w->records);
			if (i < cap)
				r->samples[i] = t1 - t0;
			opens += w->opens;
			run_progress(r);
		}
		add_case(r->res, data ? "st_data" : "st", "  ", data ? "data " : "", &t, &ev,
			 r->samples, cap);
		if (!data) {
			/* Keep perf record's view (no data maps) for --output. */
			keep = r->self;
			r->self = w->out;
			w->out = keep;
		}
	}
	bench_note(r->res,
		   _("synthesized: the ptop process, pid %u; perf bench synthesizes its own, "
		     "larger one: compare the time per event, not per run"),
		   pid);
	if (like_perf)
		bench_note(r->res,
			   _("--like-perf: perf's file work, %.1f opens per run: status and maps "
			     "opened, read and closed every run, /proc/self/status read once more "
			     "for perf's namespace check"),
			   (double)opens / (2.0 * r->p->iterations));
	else if (reopen)
		bench_note(r->res,
			   _("--reopen: comm and maps opened and closed every run, as perf does, "
			     "but comm (16 bytes) read where perf reads status (1.4 KiB) and no "
			     "namespace check: --like-perf does perf's file work"));
	else
		bench_note(r->res,
			   _("comm and maps held open and re-read with pread (as ptop's sampler "
			     "does); comm (16 bytes) read where perf reads status (1.4 KiB), and "
			     "no namespace check: less file work than perf's, so cheaper per run. "
			     "--like-perf does perf's file work"));
	return 0;
}

/* One -t run over nt threads; *usec and *records of it. */
static int run_machine_once(struct synth_run *r, unsigned int nt, double *usec, double *records)
{
	unsigned int started = 1;
	double t0, t1;
	int err;

	for (unsigned int i = 0; i < nt; i++) {
		sbuf_reset(&r->w[i].out);
		r->w[i].records = 0;
		r->w[i].gone = 0;
		r->w[i].opens = 0;
		r->w[i].dirreads = 0;
		r->w[i].procs = r->w[i].forks = r->w[i].maps_opens = 0;
	}
	r->m.dirreads = 0;
	t0 = now_usec();
	err = synth_scan(&r->m);
	if (err) {
		snprintf(r->res->message, sizeof(r->res->message), "getdents64 %s: %s",
			 r->p->proc_root, strerror(-err));
		return err;
	}
	atomic_store_explicit(&r->m.next, 0, memory_order_relaxed);
	/* perf never runs more threads than there are processes; this thread is one of them. */
	if (nt > r->m.npids)
		nt = r->m.npids ? (unsigned int)r->m.npids : 1;
	for (; started < nt; started++) {
		err =
		    pthread_create(&r->w[started].thread, NULL, synth_worker_main, &r->w[started]);
		if (err)
			break;
	}
	synth_worker_main(&r->w[0]);
	for (unsigned int i = 1; i < started; i++)
		pthread_join(r->w[i].thread, NULL);
	t1 = now_usec();
	if (err) {
		snprintf(r->res->message, sizeof(r->res->message),
			 _("pthread_create (thread %u of %u): %s"), started + 1, nt, strerror(err));
		return -err;
	}
	*usec = t1 - t0;
	*records = 0;
	r->opens = 0;
	r->dirreads = r->m.dirreads;
	r->perf_opens = 0;
	r->perf_dirreads = r->m.dirreads;
	for (unsigned int i = 0; i < started; i++) {
		const struct synth_worker *w = &r->w[i];

		*records += (double)w->records;
		r->opens += w->opens;
		r->dirreads += w->dirreads;
		/* perf: task/ listed (two getdents64 at least) and status read per thread */
		r->perf_opens += w->procs + w->forks + w->maps_opens;
		r->perf_dirreads += 2 * w->procs;
	}
	r->used = started;
	return 0;
}

static int run_multi(struct synth_run *r, unsigned int lo, unsigned int hi)
{
	size_t cap =
	    r->p->multi_iterations < SYNTH_MAX_SAMPLES ? r->p->multi_iterations : SYNTH_MAX_SAMPLES;
	unsigned int procs = 0;
	double opens = 0, dirreads = 0, events = 0, perf_opens = 0, perf_dirreads = 0;

	for (unsigned int nt = lo; nt <= hi; nt++) {
		struct synth_stats t = {0}, ev = {0};
		double op = 0, dr = 0, pop = 0, pdr = 0;

		for (unsigned int i = 0; i < r->p->multi_iterations; i++) {
			double usec, records;
			int err = run_machine_once(r, nt, &usec, &records);

			if (err)
				return err;
			stats_add(&t, usec);
			stats_add(&ev, records);
			if (i < cap)
				r->samples[i] = usec;
			op += (double)r->opens;
			dr += (double)r->dirreads;
			pop += (double)r->perf_opens;
			pdr += (double)r->perf_dirreads;
			procs = (unsigned int)r->m.npids;
			run_progress(r);
		}
		if (nt == lo) {
			bench_add_value(r->res, "mt_processes",
					_("Computing performance of multi threaded perf event "
					  "synthesis by\nsynthesizing events on CPU 0:"),
					"processes", procs, BENCH_STYLE_LINE, false);
			opens = op / r->p->multi_iterations;
			dirreads = dr / r->p->multi_iterations;
			perf_opens = pop / r->p->multi_iterations;
			perf_dirreads = pdr / r->p->multi_iterations;
			events = ev.mean;
		}
		bench_add_value(r->res, bench_text(r->res, "mt_%u_threads", nt),
				bench_text(r->res, _("  Number of synthesis threads: %u"), nt),
				"threads", nt, BENCH_STYLE_LINE, false);
		add_case(r->res, bench_text(r->res, "mt_%u", nt), "    ", "", &t, &ev, r->samples,
			 cap);
		bench_add_value(r->res, bench_text(r->res, "mt_%u_opens", nt), N_("opens per run"),
				"opens", op / r->p->multi_iterations, BENCH_STYLE_HIDDEN, false);
		bench_add_value(r->res, bench_text(r->res, "mt_%u_dirreads", nt),
				N_("directory reads per run"), "getdents64",
				dr / r->p->multi_iterations, BENCH_STYLE_HIDDEN, false);
	}
	bench_note(r->res,
		   _("every process (%u): per run %.0f opens and %.0f directory reads for %.0f "
		     "records: stat read once per process, task/ listed only for "
		     "multi-threaded ones"),
		   procs, opens, dirreads, events);
	bench_note(r->res,
		   _("perf's method, for the same processes: at least %.0f opens and %.0f "
		     "directory reads: task/ of every process listed, status read per thread"),
		   perf_opens, perf_dirreads);
	return 0;
}

static int write_stream(struct synth_run *r, int fd)
{
	char hdr[PERFDATA_STREAM_HEADER_SIZE];
	int err = write_all(fd, hdr, perfdata_stream_header(hdr, PERF_COUNT_SW_DUMMY));

	if (!err && r->self.len)
		err = write_all(fd, r->self.p, r->self.len);
	for (unsigned int i = 0; i < r->used && !err; i++)
		if (r->w[i].out.len)
			err = write_all(fd, r->w[i].out.p, r->w[i].out.len);
	return err;
}

/* -t's thread range: lo..hi, hi 0 standing for the online CPUs. 0 or -errno. */
static int synth_threads(const struct synth_params *p, struct bench_result *res, unsigned int *lo,
			 unsigned int *hi)
{
	const unsigned int most = (BENCH_MAX_VALUES - SYNTH_ST_VALUES) / SYNTH_MT_VALUES;

	*lo = p->min_threads;
	*hi = p->max_threads;
	if (!*hi) {
		long cpus = sysconf(_SC_NPROCESSORS_ONLN);

		*hi = cpus > 0 ? (unsigned int)cpus : 1;
		if (*hi > SYNTH_MAX_THREADS)
			*hi = SYNTH_MAX_THREADS;
		if (*hi < *lo)
			*hi = *lo;
	}
	if (p->mt && *hi < *lo) {
		snprintf(res->message, sizeof(res->message),
			 _("--max-threads (%u) is below --min-threads (%u)"), *hi, *lo);
		return -EINVAL;
	}
	if (p->mt && (*hi - *lo + 1) > most) {
		snprintf(res->message, sizeof(res->message),
			 _("--min-threads..--max-threads spans %u thread counts; a run reports "
			   "at most %u"),
			 *hi - *lo + 1, most);
		return -E2BIG;
	}
	return 0;
}

/* Workers, buffers and sample room for hi threads (-s uses the first). */
static void synth_alloc(struct synth_run *r, unsigned int hi)
{
	const struct synth_params *p = r->p;

	r->nw = p->mt ? hi : 1;
	r->w = xcalloc(r->nw, sizeof(*r->w));
	for (unsigned int i = 0; i < r->nw; i++) {
		r->w[i].m = &r->m;
		r->w[i].comm_fd = r->w[i].maps_fd = -1;
		r->w[i].maps = xmalloc(SYNTH_MAPS_BUF);
		r->w[i].dents = xmalloc(SYNTH_DENTS_BUF);
	}
	r->m.dents = xmalloc(SYNTH_DENTS_BUF);
	r->samples =
	    xcalloc(p->iterations > p->multi_iterations
			? (p->iterations < SYNTH_MAX_SAMPLES ? p->iterations : SYNTH_MAX_SAMPLES)
			: p->multi_iterations,
		    sizeof(*r->samples));
}

static void synth_free(struct synth_run *r)
{
	for (unsigned int i = 0; i < r->nw; i++) {
		held_close(&r->w[i]);
		sbuf_free(&r->w[i].out);
		free(r->w[i].maps);
		free(r->w[i].dents);
	}
	free(r->w);
	sbuf_free(&r->self);
	free(r->m.dents);
	free(r->samples);
	free(r->m.pids);
	if (r->m.proc_fd >= 0)
		close(r->m.proc_fd);
}

static int synth_run(const void *params, const struct bench_ctx *ctx, struct bench_result *res)
{
	const struct synth_params *p = params;
	struct synth_run r = {.p = p, .ctx = ctx, .res = res, .m = {.proc_fd = -1}};
	bool st = p->st || !p->mt; /* perf: neither means -s */
	unsigned int lo, hi;
	int err, out_fd = -1;

	err = synth_threads(p, res, &lo, &hi);
	if (err)
		return err;
	if (p->output) {
		out_fd = perfdata_open_output(p->output, res->message, sizeof(res->message));
		if (out_fd < 0)
			return out_fd;
	}
	r.m.proc_fd = open(p->proc_root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (r.m.proc_fd < 0) {
		err = -errno;
		snprintf(res->message, sizeof(res->message), "%s: %s", p->proc_root,
			 strerror(-err));
		goto out;
	}
	synth_alloc(&r, hi);
	r.total = (st ? 2.0 * p->iterations : 0) +
		  (p->mt ? (double)p->multi_iterations * (hi - lo + 1) : 0);

	if (st)
		err = run_single(&r);
	if (!err && p->mt)
		err = run_multi(&r, lo, hi);
	if (!err && out_fd >= 0) {
		err = write_stream(&r, out_fd);
		if (err)
			snprintf(res->message, sizeof(res->message), "%s: %s", p->output,
				 strerror(-err));
	}
out:
	if (out_fd >= 0 && close(out_fd) && !err) {
		err = -errno;
		snprintf(res->message, sizeof(res->message), "%s: %s", p->output, strerror(-err));
	}
	synth_free(&r);
	return err;
}

const struct bench_desc bench_synthesize = {
    .name = "synthesize",
    .title = "internals/synthesize",
    .summary = N_("build perf's COMM/MMAP2/FORK records from /proc, as perf bench internals "
		  "synthesize"),
    .options = synth_options,
    .params_size = sizeof(struct synth_params),
    .defaults = &synth_defaults,
    .run = synth_run,
};

/* ---- reading a stream back ---- */

/* A NUL in the string field of a record: it must end inside the record. */
static bool has_nul(const unsigned char *rec, size_t from, size_t size)
{
	return from < size && memchr(rec + from, '\0', size - from);
}

int bench_synth_decode(const void *buf, size_t len, int pid, struct bench_synth_counts *out)
{
	const unsigned char *b = buf;
	uint64_t hsize;
	size_t off = 16;

	memset(out, 0, sizeof(*out));
	if (len < 16 || memcmp(b, "PERFILE2", 8))
		return -EINVAL;
	memcpy(&hsize, b + 8, sizeof(hsize));
	if (hsize != 16)
		return -EINVAL;
	while (off < len) {
		const unsigned char *rec = b + off;
		struct perfdata_header h;
		uint32_t rpid = 0;

		if (len - off < sizeof(h))
			return -EINVAL;
		memcpy(&h, rec, sizeof(h));
		if (h.size < sizeof(h) || h.size > len - off)
			return -EINVAL;
		if (h.type != PERFDATA_RECORD_HEADER_ATTR && h.size >= sizeof(h) + sizeof(rpid))
			memcpy(&rpid, rec + sizeof(h), sizeof(rpid));
		switch (h.type) {
		case PERFDATA_RECORD_HEADER_ATTR: {
			uint32_t asize;

			if (h.size < sizeof(h) + PERF_ATTR_SIZE_VER0)
				return -EINVAL;
			memcpy(&asize, rec + sizeof(h) + offsetof(struct perf_event_attr, size),
			       sizeof(asize));
			if (asize < PERF_ATTR_SIZE_VER0 || asize > h.size - sizeof(h))
				return -EINVAL;
			out->attr++;
			break;
		}
		case PERF_RECORD_COMM:
			if (!has_nul(rec, sizeof(struct perfdata_comm), h.size))
				return -EINVAL;
			out->comm++;
			out->pid_comm += pid > 0 && rpid == (uint32_t)pid;
			break;
		case PERF_RECORD_MMAP2:
			if (!has_nul(rec, sizeof(struct perfdata_mmap2), h.size))
				return -EINVAL;
			out->mmap2++;
			out->pid_mmap2 += pid > 0 && rpid == (uint32_t)pid;
			break;
		case PERF_RECORD_FORK:
			if (h.size < sizeof(struct perfdata_fork))
				return -EINVAL;
			out->fork++;
			out->pid_fork += pid > 0 && rpid == (uint32_t)pid;
			break;
		default:
			out->other++;
			break;
		}
		out->records++;
		off += h.size;
	}
	return 0;
}
