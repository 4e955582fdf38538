// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * account.c: where an interval's busy CPU went (frame_account), from two
 * frames in a row, whichever source made them. Processes that ended between
 * frames are counted two ways: from the exit records of a source that has
 * them (the interval's share of each: its total at exit less what the last
 * frame showed of it), and from their parents' children's time, which grows
 * by a child's whole life (its own and its reaped children's) when it is
 * reaped: less what earlier frames showed of the children that vanished,
 * that growth is the parent's CHILD%. No /proc or kernel interface is
 * touched here.
 */
#include <stdlib.h>
#include <string.h>

#include "account.h"

/* One process as a frame showed it. */
struct acct_proc {
	int pid, ppid;
	uint64_t start_ticks;
	uint64_t ticks;		    /* utime + stime: its own */
	uint64_t ns;		    /* its run time, where the source tells it (run_ns); else 0 */
	uint64_t cticks;	    /* cutime + cstime: its reaped children's */
	uint64_t io_read, io_write; /* bytes from and to storage, when has_io */
	uint64_t credit; /* ticks shown of children gone, not yet in cticks (children()) */
	bool has_io;
	size_t row;	/* its row in the frame (the process's, or its leader thread's) */
	double gone_at; /* in the grave: uptime (s) of the first frame without it */
};

/*
 * An exit record comes after its process was reaped (and freed: see
 * bpfsrc_exits()), so often a frame or more after its row went: what the
 * last row showed is kept this long (s) to be taken off its record's total.
 */
#define ACCT_GRAVE_S 15.0

/* vanished generations followed down (a reused PID could make a loop) */
#define ACCT_DEPTH_MAX 32

struct account {
	struct acct_proc *prev, *cur, *gone;
	size_t nprev, ncur, ngone;
	size_t cap_prev, cap_cur, cap_gone;
	/* the processes whose rows went in the last ACCT_GRAVE_S, by PID, and a spare */
	struct acct_proc *grave, *grave2;
	size_t ngrave, cap_grave, cap_grave2;
	bool have_prev; /* prev holds the frame before */
};

struct account *account_new(void)
{
	return xcalloc(1, sizeof(struct account));
}

void account_free(struct account *a)
{
	if (!a)
		return;
	free(a->prev);
	free(a->cur);
	free(a->gone);
	free(a->grave);
	free(a->grave2);
	free(a);
}

static void grow(struct acct_proc **v, size_t *cap, size_t n)
{
	if (n <= *cap)
		return;
	*cap = n + n / 2 + 64;
	*v = xreallocarray(*v, *cap, sizeof(**v));
}

static int by_pid(const void *x, const void *y)
{
	const struct acct_proc *a = x, *b = y;

	return (a->pid > b->pid) - (a->pid < b->pid);
}

static int by_ppid(const void *x, const void *y)
{
	const struct acct_proc *a = x, *b = y;

	return (a->ppid > b->ppid) - (a->ppid < b->ppid);
}

static void sort_by_pid(struct acct_proc *v, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (v[i].pid < v[i - 1].pid) {
			qsort(v, n, sizeof(*v), by_pid);
			return;
		}
}

/*
 * The frame's processes, by PID: its process rows or, when its rows are
 * threads, each thread group's threads summed (children's time is the
 * group's, the same in every thread's stat).
 */
static void collect(struct account *a, const struct frame *f)
{
	size_t n = 0;

	grow(&a->cur, &a->cap_cur, f->nprocs);
	for (size_t i = 0; i < f->nprocs; i++) {
		const struct frame_proc *p = &f->procs[i];
		int tgid = p->tgid > 0 ? p->tgid : p->pid;

		if (!f->threads && frame_proc_is_thread(p))
			continue;
		a->cur[n++] = (struct acct_proc){.pid = tgid,
						 .ppid = p->ppid,
						 .start_ticks = p->start_ticks,
						 .ticks = p->utime + p->stime,
						 .ns = p->run_ns,
						 .cticks = p->cutime + p->cstime,
						 .io_read = p->io_read_bytes,
						 .io_write = p->io_write_bytes,
						 .has_io = p->has_io,
						 .row = i};
	}
	sort_by_pid(a->cur, n);
	if (f->threads) {
		size_t m = 0;

		for (size_t i = 0; i < n; i++) {
			if (m && a->cur[m - 1].pid == a->cur[i].pid) {
				a->cur[m - 1].ticks += a->cur[i].ticks;
				a->cur[m - 1].ns += a->cur[i].ns;
				/* the leader's row names the group: its PID is the group's */
				if (f->procs[a->cur[i].row].pid == a->cur[i].pid) {
					a->cur[m - 1].row = a->cur[i].row;
					a->cur[m - 1].ppid = a->cur[i].ppid;
					a->cur[m - 1].start_ticks = a->cur[i].start_ticks;
				}
				continue;
			}
			a->cur[m++] = a->cur[i];
		}
		n = m;
	}
	a->ncur = n;
}

static const struct acct_proc *find(const struct acct_proc *v, size_t n, int pid,
				    uint64_t start_ticks)
{
	struct acct_proc key = {.pid = pid};
	const struct acct_proc *e = bsearch(&key, v, n, sizeof(*v), by_pid);

	return e && e->start_ticks == start_ticks ? e : NULL;
}

/*
 * Keep the processes that went (a->gone, by PID) in the grave, with those
 * there not older than ACCT_GRAVE_S nor taken by their exit record: one
 * merge of two PID-ordered arrays.
 */
static void bury(struct account *a, double now)
{
	size_t i = 0, j = 0, n = 0;

	grow(&a->grave2, &a->cap_grave2, a->ngrave + a->ngone);
	while (i < a->ngrave || j < a->ngone) {
		bool old = i < a->ngrave && (j == a->ngone || a->grave[i].pid <= a->gone[j].pid);
		struct acct_proc e = old ? a->grave[i++] : a->gone[j++];

		if (!old)
			e.gone_at = now;
		else if (e.start_ticks == UINT64_MAX || now - e.gone_at > ACCT_GRAVE_S)
			continue;
		a->grave2[n++] = e;
	}
	{
		struct acct_proc *t = a->grave;
		size_t c = a->cap_grave;

		a->grave = a->grave2;
		a->cap_grave = a->cap_grave2;
		a->grave2 = t;
		a->cap_grave2 = c;
		a->ngrave = n;
	}
}

/* The grave's entry of the process pid that started at start_ticks, or NULL. */
static struct acct_proc *exhume(struct account *a, int pid, uint64_t start_ticks)
{
	struct acct_proc key = {.pid = pid};
	struct acct_proc *e =
	    a->ngrave ? bsearch(&key, a->grave, a->ngrave, sizeof(*a->grave), by_pid) : NULL;

	if (!e)
		return NULL;
	while (e > a->grave && e[-1].pid == pid)
		e--;
	for (; e < a->grave + a->ngrave && e->pid == pid; e++)
		if (e->start_ticks == start_ticks)
			return e;
	return NULL;
}

/* The processes of the frame before that are not in this one, sorted by parent. */
static void vanished(struct account *a, double now)
{
	size_t j = 0;

	a->ngone = 0;
	grow(&a->gone, &a->cap_gone, a->nprev);
	for (size_t i = 0; i < a->nprev; i++) {
		const struct acct_proc *o = &a->prev[i];

		while (j < a->ncur && a->cur[j].pid < o->pid)
			j++;
		if (j < a->ncur && a->cur[j].pid == o->pid &&
		    a->cur[j].start_ticks == o->start_ticks)
			continue;
		a->gone[a->ngone++] = *o;
	}
	bury(a, now);
	if (a->ngone > 1) /* qsort takes no NULL, even for none */
		qsort(a->gone, a->ngone, sizeof(*a->gone), by_ppid);
}

/*
 * What earlier frames showed of pid's children that vanished in the
 * interval, ticks: each one's own time and its children's time then, and
 * what was shown of its own vanished children, which a child reaped in the
 * interval may have reaped first (their time reaches pid through it).
 */
static uint64_t gone_children(const struct account *a, int pid, int depth)
{
	struct acct_proc key = {.ppid = pid};
	const struct acct_proc *e;
	uint64_t sum = 0;

	if (!a->ngone)
		return 0; /* the common case: nothing ended in the interval */
	e = bsearch(&key, a->gone, a->ngone, sizeof(*a->gone), by_ppid);
	if (!e || depth > ACCT_DEPTH_MAX)
		return 0;
	while (e > a->gone && e[-1].ppid == pid)
		e--;
	for (; e < a->gone + a->ngone && e->ppid == pid; e++)
		sum += e->ticks + e->cticks + gone_children(a, e->pid, depth + 1);
	return sum;
}

/* Each process's CHILD%: its children's time's growth, less their rows' last totals. */
static void children(struct account *a, struct frame *f)
{
	size_t j = 0;

	for (size_t i = 0; i < a->ncur; i++) {
		struct acct_proc *c = &a->cur[i];
		struct frame_proc *p = &f->procs[c->row];
		const struct acct_proc *o = NULL;
		uint64_t grew, gone, shown, rest;

		/* both by PID: one walk finds each one's row of the frame before */
		while (j < a->nprev && a->prev[j].pid < c->pid)
			j++;
		if (j < a->nprev && a->prev[j].pid == c->pid &&
		    a->prev[j].start_ticks == c->start_ticks)
			o = &a->prev[j];

		/* new since the frame before: all its children's time is of this interval */
		grew = o ? (c->cticks > o->cticks ? c->cticks - o->cticks : 0) : c->cticks;
		/*
		 * A child reaped while this frame was read can be gone from it while its
		 * parent was read before the reap: what was shown of it is taken off the
		 * parent's growth in the next frame (credit), once, the older first.
		 */
		gone = gone_children(a, c->pid, 0);
		shown = gone + (o ? o->credit : 0);
		rest = shown > grew ? shown - grew : 0;
		p->child_ticks = grew - (shown - rest);
		c->credit = rest < gone ? rest : gone;
		p->child_pct = f->interval_s > 0 && f->hz > 0
				   ? (double)p->child_ticks / (double)f->hz / f->interval_s * 100.0
				   : 0;
		f->acct.children_s += (double)p->child_ticks / (double)f->hz;
	}
}

/* An exit record's storage bytes since its last row (all of them without one), per second. */
static void io_share(struct frame_proc *e, const struct acct_proc *o, double interval)
{
	if (!e->has_io)
		return;
	e->io_read_rate = frame_io_rate(e->io_read_bytes, o ? o->io_read : 0, interval);
	e->io_write_rate = frame_io_rate(e->io_write_bytes, o ? o->io_write : 0, interval);
}

/*
 * What a frame showed of a process's CPU (s): its run time where the source
 * read it, as its %CPU was taken from it; else its ticks, which leave out
 * up to one (a process that ran under a tick shows none); -1 when neither.
 */
static double shown_s(const struct acct_proc *o, long hz)
{
	if (o->ns)
		return (double)o->ns / 1e9;
	return hz > 0 ? (double)o->ticks / (double)hz : -1;
}

/*
 * Each exit record's share of the interval: its whole CPU when no earlier
 * frame showed it, else what it ran since. One whose row is still here (a
 * zombie not yet reaped, or a process that ended after its row was read) is
 * merged into that row, which takes what it ran past the row, and leaves
 * the list.
 */
static void exits(struct account *a, struct frame *f)
{
	size_t kept = 0;

	for (size_t i = 0; i < f->nexited; i++) {
		struct frame_proc *e = &f->exited[i];
		const struct acct_proc *row = find(a->cur, a->ncur, e->pid, e->start_ticks);
		const struct acct_proc *o;
		struct acct_proc *grave = NULL;
		double secs = (double)e->run_ns / 1e9;

		if (row) {
			struct frame_proc *p = &f->procs[row->row];
			double shown = shown_s(row, f->hz);

			/*
			 * Read alive, then ended and freed before the records were drained
			 * (more often the longer a loaded machine keeps ptop between the
			 * two): what it ran after the read is in the record only.
			 */
			if (shown >= 0 && secs > shown && f->interval_s > 0) {
				p->cpu_pct += (secs - shown) / f->interval_s * 100.0;
				f->acct.rows_s += secs - shown;
			}
			p->exited = true;
			p->exit_status = e->exit_status;
			p->end_ticks = e->end_ticks;
			p->maxrss_kb = e->maxrss_kb;
			p->run_ns = e->run_ns;
			continue;
		}
		/* its last row: in the frame before, or an earlier one (the record came late) */
		o = find(a->prev, a->nprev, e->pid, e->start_ticks);
		if (!o)
			o = grave = exhume(a, e->pid, e->start_ticks);
		if (o) {
			double before = shown_s(o, f->hz);

			if (before >= 0)
				secs = secs > before ? secs - before : 0;
		}
		if (grave)
			grave->start_ticks = UINT64_MAX; /* taken: a record comes once */
		io_share(e, o && o->has_io ? o : NULL, f->interval_s);
		e->cpu_pct = f->interval_s > 0 ? secs / f->interval_s * 100.0 : 0;
		f->acct.exited_s += secs;
		if (kept != i)
			f->exited[kept] = *e;
		kept++;
	}
	f->nexited = kept;
}

void account_frame(struct account *a, struct frame *f)
{
	struct frame_account *t = &f->acct;
	struct acct_proc *swap;
	size_t cap;
	double all = f->interval_s * (double)(f->ncpu ? f->ncpu : 1) / 100.0;

	t->busy_s = (f->cpu.user + f->cpu.nice + f->cpu.system) * all;
	t->irq_s = (f->cpu.irq + f->cpu.softirq) * all;
	t->rows_s = t->exited_s = t->children_s = 0;
	for (size_t i = 0; i < f->nprocs; i++) {
		f->procs[i].child_ticks = 0;
		f->procs[i].child_pct = 0;
	}
	collect(a, f);
	for (size_t i = 0; i < a->ncur; i++) {
		const struct frame_proc *p = &f->procs[a->cur[i].row];

		if (!f->threads)
			t->rows_s += p->cpu_pct / 100.0 * f->interval_s;
	}
	if (f->threads)
		for (size_t i = 0; i < f->nprocs; i++)
			t->rows_s += f->procs[i].cpu_pct / 100.0 * f->interval_s;
	if (a->have_prev && f->interval_s > 0) {
		vanished(a, f->uptime_s);
		children(a, f);
		exits(a, f);
	} else {
		f->nexited = 0; /* no frame before to say what of them is this interval's */
	}
	/* this frame is the next one's before */
	swap = a->prev;
	a->prev = a->cur;
	a->cur = swap;
	cap = a->cap_prev;
	a->cap_prev = a->cap_cur;
	a->cap_cur = cap;
	a->nprev = a->ncur;
	a->have_prev = true;
}
