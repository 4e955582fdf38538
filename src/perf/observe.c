// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * observe.c: the observer puts what perf_event_open sees into a frame:
 * counters for the processes shown (under a budget), ptop's own counters
 * read through rdpmc where the kernel allows it, how many perf_event
 * descriptors each shown process holds, and the armed breakpoints' hits.
 * It fills a frame after the sampler; presenters read only the frame.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ptop/frame.h"
#include "ptop/perf.h"

#define OBSERVER_MAX_BPS 64

struct observer {
	struct observer_opts opts;
	struct perf_counters *ctr;
	struct perf_self self[PERF_GROUP_MAX];
	int nself;
	struct perf_count self_begin[PERF_GROUP_MAX];
	struct perf_count self_last[PERF_GROUP_MAX]; /* at the previous update */
	bool self_have_last[PERF_GROUP_MAX];
	double self_interval[PERF_GROUP_MAX]; /* since then, scaled: ptop's own row */
	double self_scale;		      /* running / enabled over that interval */
	bool self_not_counted;		      /* an event of its own never ran in it */
	bool self_counting;		      /* an event of its own has no previous read */
	uint8_t self_na; /* its events opened user level only that count nothing */
	int self_pid;
	/* the events chosen since start (observer_counters_set); opts.events points here */
	char names[PERF_GROUP_MAX][PERF_NAME_MAX];
	const char *name_ptrs[PERF_GROUP_MAX];
	int *pids;
	size_t pids_cap;
	struct perf_bp bps[OBSERVER_MAX_BPS];
	struct frame_bp fbps[OBSERVER_MAX_BPS];
	size_t nbps;
	bool counting;	  /* attach counters on update */
	int bp_selftest;  /* 1 not run yet, else perf_bp_selftest()'s answer */
	double bp_hit_ns; /* perf_bp_hit_cost() once hits are known delivered; 0 unknown */
	double last_mono;
};

/* Take counter set c, and open ptop's own counters for the same events. */
static void adopt(struct observer *ob, struct perf_counters *c)
{
	struct perf_counters_info info;

	ob->ctr = c;
	/* ptop's own thread counts the same events: its row, and its cost */
	perf_counters_info(ob->ctr, &info);
	/* self[i] is event i; one that cannot open keeps fd -1 and reads 0 */
	for (int i = 0; i < info.nevents; i++) {
		struct perf_event_spec ev;

		ob->self[i].fd = -1;
		if (perf_event_resolve(info.names[i], &ev) == 0 &&
		    perf_self_open(&ob->self[i], &ev) == 0 && ob->self[i].na)
			ob->self_na |= (uint8_t)(1u << i);
		ob->nself++;
	}
}

int observer_counters_start(struct observer *ob, const char **bad)
{
	struct perf_counters *c;
	int err;

	if (ob->ctr)
		return 0;
	err = perf_counters_new(ob->opts.events, ob->opts.nevents, ob->opts.budget, &c, bad);
	if (err)
		return err;
	adopt(ob, c);
	return 0;
}

/* Close the counter set and ptop's own counters, forgetting their last reads. */
static void drop_counters(struct observer *ob)
{
	for (int i = 0; i < ob->nself; i++)
		perf_self_close(&ob->self[i]);
	perf_counters_free(ob->ctr);
	ob->ctr = NULL;
	ob->nself = 0;
	ob->self_na = 0;
	memset(ob->self_have_last, 0, sizeof(ob->self_have_last));
	memset(ob->self_interval, 0, sizeof(ob->self_interval));
}

int observer_counters_set(struct observer *ob, const char *const *events, int n, const char **bad)
{
	struct perf_counters *c;
	int err;

	if (n < 0 || n > PERF_GROUP_MAX)
		return -EINVAL;
	for (int i = 0; i < n; i++)
		if (strlen(events[i]) >= PERF_NAME_MAX) {
			if (bad)
				*bad = events[i];
			return -ENOENT;
		}
	/* the new set first: a name it refuses leaves the old one counting */
	err = perf_counters_new(events, n, ob->opts.budget, &c, bad);
	if (err)
		return err;
	drop_counters(ob);
	for (int i = 0; i < n; i++) {
		strcpy(ob->names[i], events[i]);
		ob->name_ptrs[i] = ob->names[i];
	}
	ob->opts.events = n ? ob->name_ptrs : NULL;
	ob->opts.nevents = n;
	adopt(ob, c);
	return 0;
}

int observer_new(const struct observer_opts *o, struct observer **out, const char **bad)
{
	struct observer *ob = xcalloc(1, sizeof(*ob));
	int err;

	ob->opts = *o;
	ob->self_pid = getpid();
	ob->bp_selftest = 1;
	ob->counting = o->counters;
	if (o->counters) {
		err = observer_counters_start(ob, bad);
		if (err) {
			free(ob);
			return err;
		}
	}
	*out = ob;
	return 0;
}

void observer_free(struct observer *ob)
{
	if (!ob)
		return;
	for (size_t i = 0; i < ob->nbps; i++)
		perf_bp_disarm(&ob->bps[i]);
	drop_counters(ob);
	free(ob->pids);
	free(ob);
}

void observer_set(struct observer *ob, bool counters, bool perf_fds)
{
	ob->counting = counters && ob->ctr;
	ob->opts.perf_fds = perf_fds;
}

int observer_watch(struct observer *ob, struct perf_bp_spec *spec)
{
	struct perf_bp_spec s = *spec;
	int err;

	if (ob->nbps == OBSERVER_MAX_BPS)
		return -ENOSPC;
	err = perf_bp_resolve(&s, ob->opts.root);
	*spec = s;
	if (err)
		return err;
	for (size_t i = 0; i < ob->nbps; i++) {
		const struct perf_bp_spec *o = &ob->bps[i].spec;

		/* the kernel would take it, and every hit would be counted twice */
		if (!ob->bps[i].exited && o->pid == s.pid && o->addr == s.addr && o->len == s.len &&
		    o->type == s.type)
			return -EEXIST;
	}
	s.region[0] = s.symbol[0] = '\0'; /* resolved: arm the address */
	err = perf_bp_arm(&ob->bps[ob->nbps], &s, ob->opts.root);
	if (err)
		return err;
	if (ob->bp_selftest == 1) {
		ob->bp_selftest = perf_bp_selftest();
		if (ob->bp_selftest == 0 && perf_bp_hit_cost(&ob->bp_hit_ns))
			ob->bp_hit_ns = 0;
	}
	ob->nbps++;
	return 0;
}

void observer_unwatch(struct observer *ob, size_t i)
{
	if (i >= ob->nbps)
		return;
	perf_bp_disarm(&ob->bps[i]);
	memmove(&ob->bps[i], &ob->bps[i + 1], (ob->nbps - i - 1) * sizeof(ob->bps[0]));
	memmove(&ob->fbps[i], &ob->fbps[i + 1], (ob->nbps - i - 1) * sizeof(ob->fbps[0]));
	ob->nbps--;
}

size_t observer_nwatches(const struct observer *ob)
{
	return ob->nbps;
}

void observer_begin(struct observer *ob)
{
	for (int i = 0; i < ob->nself; i++)
		if (ob->self[i].fd < 0 || perf_self_read_count(&ob->self[i], &ob->self_begin[i]))
			memset(&ob->self_begin[i], 0, sizeof(ob->self_begin[i]));
}

/* Attach counters to the rows' processes (not ptop's own) and read them: info says how it went. */
static void count_rows(struct observer *ob, const struct frame *f,
		       const struct frame_proc *const *rows, size_t n,
		       struct perf_counters_info *info)
{
	size_t k = 0;

	if (ob->pids_cap < n) {
		ob->pids_cap = n;
		ob->pids = xreallocarray(ob->pids, n, sizeof(int));
	}
	/*
	 * ptop's own row is counted by its own events (rdpmc where it can), not
	 * a group; a thread's row among processes (htop's user threads) is
	 * counted in its process's group, not twice.
	 */
	for (size_t i = 0; i < n; i++)
		if (rows[i]->pid != ob->self_pid && (f->threads || !frame_proc_is_thread(rows[i])))
			ob->pids[k++] = rows[i]->pid;
	perf_counters_per_thread(ob->ctr, f->threads);
	perf_counters_update(ob->ctr, ob->pids, k);
	perf_counters_info(ob->ctr, info);
}

/* What the frame says of the counters as a whole: events, source, attached, failures. */
static void fill_counters_info(struct observer *ob, struct frame_counters *fc,
			       const struct perf_counters_info *info)
{
	fc->on = true;
	fc->nevents = info->nevents;
	for (int e = 0; e < info->nevents; e++)
		snprintf(fc->names[e], sizeof(fc->names[e]), "%s", info->names[e]);
	fc->hardware = info->hardware;
	fc->why_software = info->why_software;
	fc->attached = info->attached;
	fc->not_attached = info->not_attached;
	fc->budget = ob->opts.budget;
	fc->partial = info->partial;
	fc->last_error = info->last_error;
	fc->children_counted = info->children_counted;
	fc->na = info->na;
	fc->software = info->software;
	fc->nsplit = info->nsplit;
	fc->npmus = 0;
	for (int m = 0; m < info->npmus && m < 8; m++)
		snprintf(fc->pmus[fc->npmus++], sizeof(fc->pmus[0]), "%s", info->pmus[m]);
	fc->nfailed = info->nfailed;
	for (int e = 0; e < info->nfailed && e < FRAME_MAX_EVENTS; e++) {
		snprintf(fc->failed[e], sizeof(fc->failed[e]), "%s", info->failed[e]);
		fc->failed_why[e] = info->failed_why[e];
	}
	fc->refused = info->refused;
	fc->refused_error = info->refused_error;
	/* read only when it explains something: the file costs three syscalls */
	if (!info->refused || perf_paranoid(ob->opts.root, &fc->paranoid))
		fc->paranoid = PERF_PARANOID_UNKNOWN;
}

/* ptop itself: during this frame's build (fc), and since the last frame (its row). */
static void read_self(struct observer *ob, struct frame_counters *fc)
{
	fc->self_rdpmc = false;
	ob->self_scale = 1;
	ob->self_not_counted = false;
	ob->self_counting = false;
	for (int i = 0; i < ob->nself && i < FRAME_MAX_EVENTS; i++) {
		struct perf_count now;
		double scale;

		if (ob->self[i].fd < 0 || perf_self_read_count(&ob->self[i], &now)) {
			fc->self_ctr[i] = ob->self_interval[i] = 0;
			ob->self_have_last[i] = false;
			continue;
		}
		perf_count_scale(&ob->self_begin[i], &now, &fc->self_ctr[i], &scale);
		/* its row: scaled by its own times, as the groups of other processes are */
		if (ob->self_have_last[i]) {
			if (!perf_count_scale(&ob->self_last[i], &now, &ob->self_interval[i],
					      &scale))
				ob->self_not_counted = true;
			/* one SCALE for the row: the event that ran least */
			if (scale < ob->self_scale)
				ob->self_scale = scale;
		} else {
			ob->self_interval[i] = 0;
			ob->self_counting = true;
		}
		ob->self_last[i] = now;
		ob->self_have_last[i] = true;
		/* the path this read took, not what the page allowed at open */
		fc->self_rdpmc |= ob->self[i].last_rdpmc;
	}
}

/* ptop's own row: what read_self() counted since the last frame. */
static void fill_self_row(const struct observer *ob, struct frame_proc *p)
{
	p->has_ctr = true;
	p->ctr_scale = ob->self_scale;
	p->ctr_partial = false; /* one thread, counted whole */
	p->ctr_not_counted = ob->self_not_counted;
	p->ctr_counting = ob->self_counting;
	p->ctr_na = ob->self_na;
	for (int e = 0; e < ob->nself && e < FRAME_MAX_EVENTS; e++)
		p->ctr[e] = ob->self_interval[e];
}

/* Another process's row: its group's counts over the interval, if it has a group. */
static void fill_row(const struct observer *ob, struct frame_proc *p)
{
	const struct perf_proc *g = perf_counters_get(ob->ctr, p->pid);

	p->has_ctr = g != NULL;
	if (!g)
		return;
	for (int e = 0; e < g->n && e < FRAME_MAX_EVENTS; e++)
		p->ctr[e] = g->delta[e];
	p->ctr_scale = g->scale;
	p->ctr_partial = g->partial;
	p->ctr_not_counted = g->not_counted;
	/* the first read after attaching covers part of the interval: no rate yet */
	p->ctr_counting = !g->have_prev;
	p->ctr_na = g->na;
}

static void fill_counters(struct observer *ob, struct frame *f,
			  const struct frame_proc *const *rows, size_t n)
{
	struct perf_counters_info info;

	count_rows(ob, f, rows, n, &info);
	fill_counters_info(ob, &f->counters, &info);
	read_self(ob, &f->counters);
	for (size_t i = 0; i < n; i++) {
		struct frame_proc *p = &f->procs[rows[i] - f->procs];

		if (p->pid == ob->self_pid && ob->nself)
			fill_self_row(ob, p);
		else
			fill_row(ob, p);
	}
}

void observer_update(struct observer *ob, struct frame *f, const struct frame_proc *const *rows,
		     size_t n)
{
	double now = clock_mono(), interval = ob->last_mono > 0 ? now - ob->last_mono : 0;

	ob->last_mono = now;
	/* The records come from sampler_frame() without counters (has_ctr false,
	 * perf_fds -1): only the rows handed in are touched here. */
	memset(&f->counters, 0, sizeof(f->counters));
	if (ob->ctr)
		fill_counters(ob, f, rows, ob->counting ? n : 0);
	if (ob->opts.perf_fds) {
		for (size_t i = 0; i < n; i++) {
			struct frame_proc *p = &f->procs[rows[i] - f->procs];

			p->perf_fds = perf_fd_count(ob->opts.root, p->tgid ? p->tgid : p->pid);
		}
	}
	for (size_t i = 0; i < ob->nbps; i++) {
		struct perf_bp *bp = &ob->bps[i];
		struct frame_bp *fb = &ob->fbps[i];

		fb->gone = perf_bp_read(bp, interval) != 0;
		fb->pid = bp->spec.pid;
		fb->addr = bp->spec.addr;
		fb->len = bp->spec.len;
		snprintf(fb->type, sizeof(fb->type), "%s", perf_bp_type_name(bp->spec.type));
		fb->hits = bp->hits;
		fb->hits_per_s = bp->hits_per_s;
		fb->threads = bp->nfds;
		fb->gone = bp->exited;
		fb->execd = bp->execd;
		snprintf(fb->label, sizeof(fb->label), "%s", bp->spec.label);
		snprintf(fb->comm, sizeof(fb->comm), "%s", bp->comm);
		fb->cpu_pct = ob->bp_hit_ns > 0 ? fb->hits_per_s * ob->bp_hit_ns / 1e7 : -1;
	}
	f->bps = ob->fbps;
	f->nbps = ob->nbps;
	f->bp_no_hits = ob->nbps && ob->bp_selftest == -EOPNOTSUPP;
	f->bp_hit_ns = ob->bp_hit_ns;
}
