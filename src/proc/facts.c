// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * facts.c: what the metrics' process-exporter families need of a process
 * beyond its row, read per frame only when they are served: its open
 * descriptors (the size the kernel gives /proc/PID/fd since Linux 6.2, else
 * a count of its entries) and their soft limit (/proc/PID/limits), its
 * proportional memory (/proc/PID/smaps_rollup), and its threads' states
 * (/proc/PID/task/TID/stat), as prometheus-process-exporter reads them.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ptop/proc.h"
#include "ptop/util.h"

enum proc_tstate proc_tstate_of(char state)
{
	switch (state) {
	case 'R':
		return PROC_TS_RUNNING;
	case 'S':
		return PROC_TS_SLEEPING;
	case 'D':
		return PROC_TS_WAITING;
	case 'Z':
		return PROC_TS_ZOMBIE;
	default:
		return PROC_TS_OTHER;
	}
}

static int fd_count(const char *root, int pid, unsigned *n)
{
	char path[4096];
	struct dirent *de;
	struct stat st;
	DIR *dir;

	*n = 0;
	if ((size_t)snprintf(path, sizeof(path), "%s/%d/fd", root ? root : "/proc", pid) >=
	    sizeof(path))
		return -ENAMETOOLONG;
	if (stat(path, &st) < 0)
		return -errno;
	if (st.st_size > 0) {
		*n = (unsigned)st.st_size;
		return 0;
	}
	/* before Linux 6.2 the size is 0: count the entries */
	dir = opendir(path);
	if (!dir)
		return -errno;
	while ((de = readdir(dir)))
		*n += de->d_name[0] != '.';
	closedir(dir);
	return 0;
}

struct state_walk {
	const char *root;
	int pid;
	unsigned what;
	struct sbuf *buf, *names;
	struct proc_facts_bufs *b;
	struct proc_facts *out;
};

/* A thread's counts into w->b->thr, from its stat (parsed already), status and io. */
static void thread_counts(struct state_walk *w, int tid, const struct proc_stat *st)
{
	struct proc_facts_bufs *b = w->b;
	struct proc_status ss;
	struct proc_io io;
	struct proc_thread *t;

	if (b->nthr == b->thr_cap) {
		b->thr_cap = b->thr_cap ? 2 * b->thr_cap : 64;
		b->thr = xreallocarray(b->thr, b->thr_cap, sizeof(*b->thr));
	}
	t = &b->thr[b->nthr];
	memset(t, 0, sizeof(*t));
	t->tid = tid;
	t->comm_len = (uint8_t)(st->comm.n < PROC_COMM_MAX ? st->comm.n : PROC_COMM_MAX);
	memcpy(t->comm, st->comm.p, t->comm_len);
	t->start = st->starttime;
	t->utime = st->utime;
	t->stime = st->stime;
	t->minflt = st->minflt;
	t->majflt = st->majflt;
	sbuf_reset(w->buf);
	/* a thread that ended since its stat is not counted */
	if (proc_read_all(w->root, w->pid, tid, "status", w->buf) ||
	    proc_parse_status(w->buf->p, w->buf->len, &ss))
		return;
	t->vctx = ss.voluntary_ctxt;
	t->nvctx = ss.nonvoluntary_ctxt;
	sbuf_reset(w->buf);
	if (!proc_read_all(w->root, w->pid, tid, "io", w->buf) &&
	    !proc_parse_io(w->buf->p, w->buf->len, &io)) {
		t->has_io = true;
		t->read_bytes = io.read_bytes;
		t->write_bytes = io.write_bytes;
	}
	b->nthr++;
	w->out->nthr++;
}

/*
 * Append the kernel function thread tid of pid (0: the process itself)
 * waits in to w->names, NUL-terminated: "" where the kernel says "0" (it
 * runs, or the function is hidden), as process-exporter shows it. false
 * when it could not be read.
 */
static bool wchan_add(struct state_walk *w, int tid)
{
	sbuf_reset(w->buf);
	if (proc_read_all(w->root, w->pid, tid, "wchan", w->buf))
		return false;
	if (w->buf->len && !(w->buf->len == 1 && w->buf->p[0] == '0'))
		sbuf_add(w->names, w->buf->p, w->buf->len);
	sbuf_addc(w->names, '\0');
	w->out->nwchan++;
	return true;
}

static int thread_state(void *ctx, int tid)
{
	struct state_walk *w = ctx;
	struct proc_stat st;

	if (w->what & (PROC_FACT_THREADS | PROC_FACT_THREAD_COUNTS)) {
		sbuf_reset(w->buf);
		/* a thread that ended since the listing is not counted */
		if (proc_read_all(w->root, w->pid, tid, "stat", w->buf) ||
		    proc_parse_stat(w->buf->p, w->buf->len, &st))
			return 0;
		if (w->what & PROC_FACT_THREADS)
			w->out->states[proc_tstate_of(st.state)]++;
		/* before the buffer that st points into is read into again */
		if (w->what & PROC_FACT_THREAD_COUNTS)
			thread_counts(w, tid, &st);
	}
	if ((w->what & PROC_FACT_WCHAN) && !wchan_add(w, tid))
		w->out->has_wchan = false;
	return 0;
}

/* Descriptors and their limit: the parts that failed. */
static int read_fds(const char *root, int pid, struct sbuf *scratch, struct proc_facts *out)
{
	out->has_fds = !fd_count(root, pid, &out->fds);
	sbuf_reset(scratch);
	out->has_limit = !proc_read_all(root, pid, 0, "limits", scratch) &&
			 !proc_parse_limits_nofile(scratch->p, scratch->len, &out->fd_limit);
	return !out->has_fds + !out->has_limit;
}

static int read_rollup(const char *root, int pid, struct sbuf *scratch, struct proc_facts *out)
{
	int err;

	sbuf_reset(scratch);
	err = proc_read_all(root, pid, 0, "smaps_rollup", scratch);
	if (!err)
		err = proc_parse_rollup(scratch->p, scratch->len, &out->rollup);
	/* a kernel thread's is empty: nothing mapped, nothing to share */
	out->has_rollup = !err || err == -ENODATA;
	return !out->has_rollup;
}

/* The threads' parts w->what asks for (states, wchans, counts): the parts that failed. */
static int read_threads(struct state_walk *w, int64_t threads, char state)
{
	struct proc_facts *out = w->out;
	bool states = w->what & PROC_FACT_THREADS, listed = true;
	int failed = 0;

	if (threads > 1) {
		listed = proc_tasks(w->root, w->pid, thread_state, w) == 0;
	} else {
		if (states)
			out->states[proc_tstate_of(state)] = 1;
		if ((w->what & PROC_FACT_WCHAN) && !wchan_add(w, 0))
			out->has_wchan = false;
	}
	if (states) {
		out->has_states = listed;
		failed += !listed;
	}
	if (w->what & PROC_FACT_WCHAN) {
		out->has_wchan &= listed;
		failed += !out->has_wchan;
		if (!out->has_wchan) {
			w->names->len = out->wchan_off; /* none rather than some */
			out->nwchan = 0;
		}
	}
	return failed;
}

int proc_facts_read(const char *root, int pid, int64_t threads, char state, unsigned what,
		    struct proc_facts *out, struct proc_facts_bufs *b)
{
	struct state_walk w = {.root = root,
			       .pid = pid,
			       .what = what,
			       .buf = &b->scratch,
			       .names = &b->names,
			       .b = b,
			       .out = out};
	int failed = 0;

	if (what & PROC_FACT_WCHAN) {
		out->wchan_off = b->names.len;
		out->has_wchan = true;
	}
	if (what & PROC_FACT_THREAD_COUNTS)
		out->thr_off = b->nthr;
	if (what & PROC_FACT_FDS)
		failed += read_fds(root, pid, &b->scratch, out);
	if (what & PROC_FACT_ROLLUP)
		failed += read_rollup(root, pid, &b->scratch, out);
	if (what & (PROC_FACT_THREADS | PROC_FACT_WCHAN | PROC_FACT_THREAD_COUNTS))
		failed += read_threads(&w, threads, state);
	out->failed += (unsigned)failed;
	return failed;
}
