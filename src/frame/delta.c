// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * delta.c: what each process did between two frames, beyond %CPU and the I/O
 * rates (which each source makes as it reads): its page faults (top's vMn,
 * vMj), its context switches (htop's CTXT) and the share of the interval it
 * waited for a CPU (schedstat's run delay: CPUD%), for block I/O (stat's
 * delayacct_blkio_ticks: IOD%) and for pages from swap (taskstats'
 * swapin_delay_total: SWPD%). Made here, once, from the members either
 * source filled, so the /proc and BPF sources agree; the rows of the frame
 * before are kept by PID, with their start time to tell a reused PID. No
 * /proc or kernel interface is touched here.
 */
#include <stdlib.h>
#include <unistd.h>

#include "delta.h"

/* One row as the frame before had it. */
struct delta_row {
	int pid;
	bool thread; /* a thread's row (-H), not its process's */
	bool flt, ctx, run, blkio, swapin;
	uint64_t start_ticks;
	uint64_t minflt, majflt, ctxsw;
	uint64_t run_delay_ns, blkio_ticks, swapin_ns;
};

struct deltas {
	struct delta_row *prev, *cur;
	size_t nprev, cap;
	long hz;
};

struct deltas *deltas_new(void)
{
	struct deltas *d = xcalloc(1, sizeof(*d));

	d->hz = sysconf(_SC_CLK_TCK);
	if (d->hz <= 0)
		d->hz = 100;
	return d;
}

void deltas_free(struct deltas *d)
{
	if (!d)
		return;
	free(d->prev);
	free(d->cur);
	free(d);
}

static int by_pid(const void *x, const void *y)
{
	const struct delta_row *a = x, *b = y;

	if (a->pid != b->pid)
		return (a->pid > b->pid) - (a->pid < b->pid);
	return (a->thread > b->thread) - (a->thread < b->thread);
}

/*
 * The row of the frame before with r's key: rows come mostly in PID order (a listing of
 * /proc), so the search goes on from where the last one ended (*at) before it bisects.
 */
static const struct delta_row *prev_of(const struct deltas *d, const struct delta_row *r,
				       size_t *at)
{
	const struct delta_row *o;

	while (*at < d->nprev && by_pid(&d->prev[*at], r) < 0)
		(*at)++;
	if (*at < d->nprev && !by_pid(&d->prev[*at], r))
		return &d->prev[*at];
	/* behind the cursor: out of order */
	o = *at ? bsearch(r, d->prev, *at, sizeof(*r), by_pid) : NULL;
	return o;
}

/* The later of two counts less the earlier: 0 where it went back (never should). */
static uint64_t since(uint64_t now, uint64_t then)
{
	return now >= then ? now - then : 0;
}

void deltas_frame(struct deltas *d, struct frame *f)
{
	double secs = f->interval_s;
	size_t n = 0, at = 0;
	bool sorted = true;

	/* nothing to write without sides, and a later frame's deltas start afresh */
	if (!f->has_sides) {
		d->nprev = 0;
		return;
	}
	if (f->nprocs > d->cap) {
		d->cap = f->nprocs + f->nprocs / 2 + 64;
		d->prev = xreallocarray(d->prev, d->cap, sizeof(*d->prev));
		d->cur = xreallocarray(d->cur, d->cap, sizeof(*d->cur));
	}
	for (size_t i = 0; i < f->nprocs; i++) {
		struct frame_proc *p = &f->procs[i];
		struct frame_proc_side *ps = p->side;
		struct delta_row r = {.pid = p->pid,
				      .thread = frame_proc_is_thread(p),
				      .flt = ps->has_flt,
				      .ctx = p->has_ctxsw,
				      .run = ps->has_run_delay,
				      .blkio = ps->has_blkio,
				      .swapin = ps->has_swapin,
				      .start_ticks = p->start_ticks,
				      .minflt = ps->minflt,
				      .majflt = ps->majflt,
				      .ctxsw = p->vctxsw + p->nvctxsw,
				      .run_delay_ns = ps->run_delay_ns,
				      .blkio_ticks = ps->blkio_ticks,
				      .swapin_ns = ps->swapin_delay_ns};
		const struct delta_row *o = prev_of(d, &r, &at);

		if (o && o->start_ticks != r.start_ticks)
			o = NULL;
		ps->has_dflt = o && o->flt && r.flt;
		ps->minflt_delta = ps->has_dflt ? since(r.minflt, o->minflt) : 0;
		ps->majflt_delta = ps->has_dflt ? since(r.majflt, o->majflt) : 0;
		ps->has_dctx = o && o->ctx && r.ctx;
		ps->ctxsw_delta = ps->has_dctx ? since(r.ctxsw, o->ctxsw) : 0;
		ps->has_cpud = o && o->run && r.run && secs > 0;
		ps->cpu_delay_pct = ps->has_cpud ? (double)since(r.run_delay_ns, o->run_delay_ns) /
						       1e9 / secs * 100.0
						 : 0;
		ps->has_iod = o && o->blkio && r.blkio && secs > 0;
		ps->io_delay_pct = ps->has_iod ? (double)since(r.blkio_ticks, o->blkio_ticks) /
						     (double)d->hz / secs * 100.0
					       : 0;
		ps->has_swapd = o && o->swapin && r.swapin && secs > 0;
		ps->swap_delay_pct =
		    ps->has_swapd ? (double)since(r.swapin_ns, o->swapin_ns) / 1e9 / secs * 100.0
				  : 0;
		sorted = sorted && (!n || by_pid(&d->cur[n - 1], &r) < 0);
		d->cur[n++] = r;
	}
	if (!sorted)
		qsort(d->cur, n, sizeof(*d->cur), by_pid);
	{
		struct delta_row *t = d->prev;

		d->prev = d->cur;
		d->cur = t;
		d->nprev = n;
	}
}
