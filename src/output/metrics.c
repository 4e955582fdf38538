// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * metrics.c: frames as Prometheus metrics (see metrics.h). Every group
 * known is an entry of a table (a hash by key); max_groups slots go to the
 * busiest of them (assign_slots), the rest are counted in "other". Counters
 * are sums of per-process deltas between frames (matched by PID and start
 * time), so they only grow; a group's are kept while the table holds it.
 * Reads frames only; no I/O.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptop/metrics.h"
#include "ptop/output.h"

#define GROUP_KEY_MAX 64
/* The entry index that stands for "other" (no entry of its own in the table). */
#define NO_ENTRY UINT32_MAX
/* ... for a process in no group of --metrics-config: not counted at all */
#define NO_GROUP (UINT32_MAX - 1)

/* What a group counted: only grows. */
struct mcount {
	double cpu_s, user_s, sys_s;  /* seconds */
	double vctx, nvctx;	      /* context switches */
	double ctr[FRAME_MAX_EVENTS]; /* counter events of attached processes */
	double io_read, io_write;     /* bytes from and to storage */
	bool has_io;		      /* a process's io was readable once: the I/O series exist */
	double minflt, majflt;	      /* page faults */
	bool has_flt;		      /* a process's faults were known once: their series exist */
};

/* What a group holds at a frame. */
struct mgauge {
	uint64_t rss_kb, vsz_kb; /* KiB */
	uint64_t procs, threads;
	/* what process-exporter's families need beyond the rows (struct proc_facts) */
	uint64_t swap_kb, pss_kb, swap_pss_kb; /* KiB */
	uint64_t fds;
	double fd_ratio; /* the worst of its processes' open descriptors over their limit */
	double oldest;	 /* start of its oldest process, seconds since the epoch; 0 none */
	uint64_t states[PROC_TS_COUNT];
};

/*
 * A group ptop knows of, with or without a slot: its key, what it counted
 * while it held one (kept after, so a group that wins a slot back goes on
 * from there), and what its processes used, averaged over 1 and 5 minutes.
 */
struct mgroup {
	char key[GROUP_KEY_MAX];
	uint8_t len;
	bool used;		       /* the entry is in use (the table reuses free ones) */
	bool held;		       /* it has held a slot: its counters were served */
	int slot;		       /* its slot, or -1: counted in other */
	unsigned long seen_frame;      /* the last frame with a process of it */
	double seen, since;	       /* clock: when it last had a process; took its slot */
	struct mcount total;	       /* while it held a slot */
	struct mcount delta;	       /* this frame's, before they go to it or to other */
	struct mgauge now;	       /* this frame's */
	double cpu, mem;	       /* this frame's: CPUs busy, resident KiB */
	double cpu1, mem1, cpu5, mem5; /* averaged over 1 and 5 minutes */
};
/* What a process had at the last frame, to count the next frame's deltas. */
struct mtrack {
	int pid;
	uint32_t group;	       /* its entry, or NO_ENTRY */
	uint64_t start;	       /* clock ticks after boot: tells a reused PID */
	uint64_t utime, stime; /* clock ticks */
	uint64_t vctx, nvctx;
	uint64_t io_read, io_write; /* bytes from and to storage, since start */
	bool has_io;
	uint64_t minflt, majflt; /* page faults since start */
	bool has_flt;
};

/* Threads of a group (its slot, or max_groups for other) waiting in one function. */
struct wcount {
	uint32_t slot, name, n;
};

/* A thread of a process of several threads in a group: what it had at the last frame. */
struct mthr {
	int tid;
	uint64_t start;
	uint64_t utime, stime, minflt, majflt, vctx, nvctx, rb, wb;
	bool has_io;
};

/*
 * The threads of one served group (its key, or "other") with one name, as
 * process-exporter's thread_* families count them: counters that only grow
 * while the name has threads, dropped when it has none.
 */
struct mtacc {
	char gkey[GROUP_KEY_MAX];
	char name[PROC_COMM_MAX];
	uint8_t glen, nlen;
	unsigned long seen; /* the last frame with such a thread */
	uint32_t count;	    /* this frame's threads */
	double user, sys, rb, wb, majflt, minflt, vctx, nvctx;
};

/* At most this many thread names are counted apart (over all groups); the rest as "other". */
#define THREAD_NAMES_MAX 4096

/* A process whose threads' counts this frame has, and its group's entry. */
struct mtpend {
	uint32_t e;
	const struct proc_facts *x;
};

/* At most this many wchan names are told apart; later ones are counted as "other". */
#define WCHAN_NAMES_MAX 4096

struct mtop {
	int pid;
	uint8_t comm_len;
	char comm[PROC_COMM_MAX];
	uint64_t ticks;
	uint64_t rss_kb, vsz_kb; /* KiB */
	int64_t threads;
	uint32_t cmd_off, cmd_len; /* in metrics.top_cmd */
	bool has_cmd;
};

/* ptop_accounted_cpu_seconds_total's kinds, in frame_account's terms */
enum { ACCT_BUSY, ACCT_IRQ, ACCT_ROWS, ACCT_EXITED, ACCT_LOST, ACCT_CHILDREN, ACCT_KINDS };

struct metrics {
	struct metrics_opts o;
	struct mgroup *groups; /* the table: every group known, with or without a slot */
	uint32_t ngroups, groups_cap, groups_max, nfree;
	uint32_t *free_list;
	uint32_t *hash; /* open addressing, entry index + 1; 0 empty */
	uint32_t hash_mask;
	uint32_t *slots; /* o.max_groups: the entry holding each, or NO_ENTRY */
	struct mgroup other;
	uint32_t *order; /* scratch for the slots' assignment: contenders */
	uint32_t *hold;	 /* ... slots that may change hands, 3 lists of o.max_groups */
	uint8_t *taken;	 /* ... slots given in this assignment */
	double evictions;
	double clock;	     /* seconds of frames (times the test scale) */
	double warned;	     /* clock of the last "other" warning; < 0 never */
	bool other_high;     /* other holds more than METRICS_OTHER_SHARE */
	bool warn_due;	     /* ... and metrics_other_warning() has to say so */
	double ncpu, mem_kb; /* of the last frame */
	struct mtrack *prev, *cur;
	size_t nprev, cap;
	struct mtop *top;
	size_t ntop;
	struct sbuf top_cmd;
	struct frame_bp *bps;
	size_t nbps, bps_cap;
	unsigned long frames;
	/* of the last frame */
	struct timespec time;
	struct frame_cost cost;
	double rows_read[3]; /* rows read in full, kept, from BPF, over all frames */
	/* where busy CPU went, over all frames (frame_account): seconds */
	double acct[ACCT_KINDS];
	double exits_lost; /* exits the source's buffer could not hold */
	/* process-exporter's scrape error counters: parts of facts unread, rows vanished */
	double partial_errors, procread_errors;
	bool other_used; /* "other" has held a process: process-exporter's names serve it */
	/* threads by the kernel function they wait in: names, and this frame's counts */
	char **wnames;
	uint32_t nwnames, wnames_cap, *whash, whash_mask;
	struct wcount *wc;
	size_t nwc, wc_cap;
	/* threads of processes of several threads (process-exporter's thread_* families) */
	struct mtpend *tpend;
	size_t ntpend, tpend_cap;
	struct mthr *tprev, *tcur;
	size_t ntprev, ntcur, tcap;
	struct mtacc *tacc;
	size_t ntacc, tacc_cap;
	unsigned facts; /* PROC_FACT_* the last frame's facts had */
	bool exits;	/* the last frame's source lists processes that ended */
	size_t nrows;
	double hz;
	bool counters_on;
	int nevents;
	char names[FRAME_MAX_EVENTS][FRAME_EVENT_NAME];
	unsigned attached;
};

struct metrics *metrics_new(const struct metrics_opts *o)
{
	struct metrics *m = xcalloc(1, sizeof(*m));

	m->o = *o;
	if (!m->o.max_groups)
		m->o.max_groups = METRICS_DEFAULT_GROUPS;
	if (!(m->o.time_scale > 0))
		m->o.time_scale = 1;
	/* room for the groups that compete for the slots; a newer one past it is other's */
	m->groups_max = 4 * m->o.max_groups + 4096;
	m->slots = xreallocarray(NULL, m->o.max_groups, sizeof(*m->slots));
	m->hold = xreallocarray(NULL, 3 * (size_t)m->o.max_groups, sizeof(*m->hold));
	m->taken = xcalloc(m->o.max_groups, 1);
	for (unsigned i = 0; i < m->o.max_groups; i++)
		m->slots[i] = NO_ENTRY;
	memcpy(m->other.key, "other", 5);
	m->other.len = 5;
	m->other.used = m->other.held = true;
	m->warned = -1;
	if (m->o.top_pids)
		m->top = xcalloc(m->o.top_pids, sizeof(*m->top));
	return m;
}

void metrics_free(struct metrics *m)
{
	if (!m)
		return;
	free(m->groups);
	free(m->free_list);
	free(m->hash);
	free(m->slots);
	free(m->order);
	free(m->hold);
	free(m->taken);
	free(m->prev);
	free(m->cur);
	free(m->top);
	free(m->bps);
	for (uint32_t i = 0; i < m->nwnames; i++)
		free(m->wnames[i]);
	free(m->wnames);
	free(m->whash);
	free(m->wc);
	free(m->tpend);
	free(m->tprev);
	free(m->tcur);
	free(m->tacc);
	sbuf_free(&m->top_cmd);
	free(m);
}

static uint32_t key_hash(const char *k, size_t len)
{
	uint32_t h = 2166136261u; /* FNV-1a */

	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)k[i]) * 16777619u;
	return h;
}

static void hash_put(struct metrics *m, uint32_t e)
{
	uint32_t i = key_hash(m->groups[e].key, m->groups[e].len) & m->hash_mask;

	while (m->hash[i])
		i = (i + 1) & m->hash_mask;
	m->hash[i] = e + 1;
}

/* The hash of the entries in use, at twice their room at least. */
static void hash_rebuild(struct metrics *m)
{
	uint32_t size = 64;

	while (size < 2 * m->groups_cap)
		size *= 2;
	free(m->hash);
	m->hash = xcalloc(size, sizeof(*m->hash));
	m->hash_mask = size - 1;
	for (uint32_t e = 0; e < m->ngroups; e++)
		if (m->groups[e].used)
			hash_put(m, e);
}

/* A new entry for key k, or NO_ENTRY when the table is full. */
static uint32_t entry_new(struct metrics *m, const char *k, size_t len)
{
	struct mgroup *g;
	uint32_t e;

	if (m->nfree) {
		e = m->free_list[--m->nfree];
	} else {
		if (m->ngroups == m->groups_max)
			return NO_ENTRY;
		if (m->ngroups == m->groups_cap) {
			m->groups_cap = m->groups_cap ? 2 * m->groups_cap : 64;
			if (m->groups_cap > m->groups_max)
				m->groups_cap = m->groups_max;
			m->groups = xreallocarray(m->groups, m->groups_cap, sizeof(*m->groups));
			m->free_list =
			    xreallocarray(m->free_list, m->groups_cap, sizeof(*m->free_list));
			m->order = xreallocarray(m->order, m->groups_cap, sizeof(*m->order));
			hash_rebuild(m);
		}
		e = m->ngroups++;
	}
	g = &m->groups[e];
	memset(g, 0, sizeof(*g));
	memcpy(g->key, k, len);
	g->len = (uint8_t)len;
	g->used = true;
	g->slot = -1;
	hash_put(m, e);
	return e;
}

/* The entry of key k, made when new; NO_ENTRY: counted in other. */
static uint32_t group_of(struct metrics *m, const char *k, size_t len)
{
	uint32_t i;

	if (len > GROUP_KEY_MAX)
		len = GROUP_KEY_MAX;
	/* a process really named "other" is counted with the rest: one series */
	if (len == 5 && !memcmp(k, "other", 5))
		return NO_ENTRY;
	if (m->hash) {
		for (i = key_hash(k, len) & m->hash_mask; m->hash[i]; i = (i + 1) & m->hash_mask) {
			const struct mgroup *g = &m->groups[m->hash[i] - 1];

			if (g->len == len && !memcmp(g->key, k, len))
				return m->hash[i] - 1;
		}
	}
	return entry_new(m, k, len);
}

static uint32_t row_group(struct metrics *m, const struct frame_proc *p)
{
	char uid[16];
	const char *k;

	if (m->o.group) {
		size_t len;

		k = m->o.group(m->o.group_arg, p, &len);
		return k ? group_of(m, k, len) : NO_GROUP;
	}
	if (!m->o.kthreads_grouped && frame_proc_is_kthread(p))
		return group_of(m, "kernel", 6);
	if (m->o.group_by == METRICS_BY_COMM)
		return group_of(m, p->comm, p->comm_len);
	if (m->o.group_by == METRICS_BY_CGROUP) {
		/* the container or unit (bounded), else the path; "-" when unreadable */
		k = p->container && *p->container ? p->container : p->cgroup ? p->cgroup : "-";
		return group_of(m, k, strlen(k));
	}
	k = p->user;
	if (!k) {
		snprintf(uid, sizeof(uid), "%u", (unsigned)p->uid);
		k = uid;
	}
	return group_of(m, k, strlen(k));
}

static struct mgroup *entry(struct metrics *m, uint32_t e)
{
	return e == NO_ENTRY ? &m->other : &m->groups[e];
}

static int by_pid(const void *a, const void *b)
{
	const struct mtrack *x = a, *y = b;

	return (x->pid > y->pid) - (x->pid < y->pid);
}

static uint64_t grown(uint64_t now, uint64_t then)
{
	return now > then ? now - then : 0;
}

/* Add to each group's delta what its processes did since the last frame (all of it for new ones). */
static void add_deltas(struct metrics *m, size_t n)
{
	size_t j = 0;

	if (n > 1) /* qsort takes no NULL, even for none */
		qsort(m->cur, n, sizeof(*m->cur), by_pid);
	for (size_t i = 0; i < n; i++) {
		const struct mtrack *c = &m->cur[i], *p = NULL;
		struct mcount *d;
		double user, sys;

		if (c->group == NO_GROUP)
			continue;
		d = &entry(m, c->group)->delta;

		while (j < m->nprev && m->prev[j].pid < c->pid)
			j++;
		if (j < m->nprev && m->prev[j].pid == c->pid && m->prev[j].start == c->start)
			p = &m->prev[j];
		user = (double)(p ? grown(c->utime, p->utime) : c->utime) / m->hz;
		sys = (double)(p ? grown(c->stime, p->stime) : c->stime) / m->hz;
		d->user_s += user;
		d->sys_s += sys;
		d->cpu_s += user + sys;
		d->vctx += (double)(p ? grown(c->vctx, p->vctx) : c->vctx);
		d->nvctx += (double)(p ? grown(c->nvctx, p->nvctx) : c->nvctx);
		if (c->has_flt) {
			bool was = p && p->has_flt;

			d->has_flt = true;
			d->minflt += (double)(was ? grown(c->minflt, p->minflt) : c->minflt);
			d->majflt += (double)(was ? grown(c->majflt, p->majflt) : c->majflt);
		}
		if (!c->has_io)
			continue;
		/* io refused before counts as first seen: all of it since the start */
		if (p && !p->has_io)
			p = NULL;
		d->has_io = true;
		d->io_read += (double)(p ? grown(c->io_read, p->io_read) : c->io_read);
		d->io_write += (double)(p ? grown(c->io_write, p->io_write) : c->io_write);
	}
	{
		struct mtrack *t = m->prev;

		m->prev = m->cur;
		m->cur = t;
		m->nprev = n;
	}
}

/* The group of p has a process in this frame. */
static struct mgroup *seen(struct metrics *m, uint32_t e, const struct frame_proc *p)
{
	struct mgroup *g = entry(m, e);

	g->seen_frame = m->frames;
	g->seen = m->clock;
	g->cpu += p->cpu_pct / 100.0;
	return g;
}

/* The index of wchan name w, made when new. */
static uint32_t wchan_id(struct metrics *m, const char *w)
{
	uint32_t h, len = (uint32_t)strlen(w);

	if (m->nwnames == WCHAN_NAMES_MAX)
		w = "other", len = 5;
	if (2 * (m->nwnames + 1) > m->whash_mask) {
		uint32_t size = m->whash_mask ? 2 * (m->whash_mask + 1) : 256;

		free(m->whash);
		m->whash = xcalloc(size, sizeof(*m->whash));
		m->whash_mask = size - 1;
		for (uint32_t i = 0; i < m->nwnames; i++) {
			h = key_hash(m->wnames[i], strlen(m->wnames[i])) & m->whash_mask;
			while (m->whash[h])
				h = (h + 1) & m->whash_mask;
			m->whash[h] = i + 1;
		}
	}
	for (h = key_hash(w, len) & m->whash_mask; m->whash[h]; h = (h + 1) & m->whash_mask)
		if (!strcmp(m->wnames[m->whash[h] - 1], w))
			return m->whash[h] - 1;
	if (m->nwnames == m->wnames_cap) {
		m->wnames_cap = m->wnames_cap ? 2 * m->wnames_cap : 64;
		m->wnames = xreallocarray(m->wnames, m->wnames_cap, sizeof(*m->wnames));
	}
	m->wnames[m->nwnames] = xstrdup(w);
	m->whash[h] = ++m->nwnames;
	return m->nwnames - 1;
}

/* The threads of x waiting in each function, for group entry e (its slot is set later). */
static void add_wchans(struct metrics *m, uint32_t e, const struct proc_facts *x)
{
	const char *w = x->wchans;

	for (unsigned k = 0; k < x->nwchan; k++, w += strlen(w) + 1) {
		if (m->nwc == m->wc_cap) {
			m->wc_cap = m->wc_cap ? 2 * m->wc_cap : 256;
			m->wc = xreallocarray(m->wc, m->wc_cap, sizeof(*m->wc));
		}
		m->wc[m->nwc++] = (struct wcount){.slot = e, .name = wchan_id(m, w), .n = 1};
	}
}

static int by_slot_name(const void *a, const void *b)
{
	const struct wcount *x = a, *y = b;

	if (x->slot != y->slot)
		return (x->slot > y->slot) - (x->slot < y->slot);
	return (x->name > y->name) - (x->name < y->name);
}

/* The frame's wchan counts by the slot their group holds (other's: max_groups), summed. */
static void wchans_by_slot(struct metrics *m)
{
	size_t out = 0;

	for (size_t i = 0; i < m->nwc; i++) {
		uint32_t e = m->wc[i].slot;
		int slot = e == NO_ENTRY ? -1 : m->groups[e].slot;

		m->wc[i].slot = slot < 0 ? m->o.max_groups : (uint32_t)slot;
	}
	if (m->nwc > 1) /* qsort takes no NULL, even for none */
		qsort(m->wc, m->nwc, sizeof(*m->wc), by_slot_name);
	for (size_t i = 0; i < m->nwc; i++) {
		if (out && m->wc[out - 1].slot == m->wc[i].slot &&
		    m->wc[out - 1].name == m->wc[i].name)
			m->wc[out - 1].n += m->wc[i].n;
		else
			m->wc[out++] = m->wc[i];
	}
	m->nwc = out;
}

static int by_tid_start(const void *a, const void *b)
{
	const struct mthr *x = a, *y = b;

	if (x->tid != y->tid)
		return (x->tid > y->tid) - (x->tid < y->tid);
	return (x->start > y->start) - (x->start < y->start);
}

/* The accumulator of threads named (name, nlen) in served group (gkey, glen), made when new. */
static struct mtacc *thread_acc(struct metrics *m, const char *gkey, size_t glen, const char *name,
				size_t nlen)
{
	struct mtacc *a;

	for (size_t i = 0; i < m->ntacc; i++) {
		a = &m->tacc[i];
		if (a->glen == glen && a->nlen == nlen && !memcmp(a->gkey, gkey, glen) &&
		    !memcmp(a->name, name, nlen))
			return a;
	}
	if (m->ntacc >= THREAD_NAMES_MAX) {
		if (nlen == 5 && !memcmp(name, "other", 5))
			return &m->tacc[0]; /* full even of others: the first takes them */
		return thread_acc(m, gkey, glen, "other", 5);
	}
	if (m->ntacc == m->tacc_cap) {
		m->tacc_cap = m->tacc_cap ? 2 * m->tacc_cap : 64;
		m->tacc = xreallocarray(m->tacc, m->tacc_cap, sizeof(*m->tacc));
	}
	a = &m->tacc[m->ntacc++];
	memset(a, 0, sizeof(*a));
	memcpy(a->gkey, gkey, glen);
	a->glen = (uint8_t)glen;
	memcpy(a->name, name, nlen);
	a->nlen = (uint8_t)nlen;
	return a;
}

/*
 * The frame's threads of processes of several threads into their served
 * group's accumulators by name: what each did since the last frame (all of
 * its life for a thread first seen), then the names without a thread dropped.
 */
static void count_threads(struct metrics *m)
{
	size_t n = 0, out = 0;

	for (size_t i = 0; i < m->ntpend; i++)
		n += m->tpend[i].x->nthr;
	if (m->tcap < n) {
		m->tcap = n + n / 4 + 16;
		m->tcur = xreallocarray(m->tcur, m->tcap, sizeof(*m->tcur));
		m->tprev = xreallocarray(m->tprev, m->tcap, sizeof(*m->tprev));
	}
	m->ntcur = 0;
	for (size_t i = 0; i < m->ntpend; i++) {
		uint32_t e = m->tpend[i].e;
		const struct mgroup *g =
		    e == NO_ENTRY || m->groups[e].slot < 0 ? &m->other : &m->groups[e];

		for (size_t k = 0; k < m->tpend[i].x->nthr; k++) {
			const struct proc_thread *t = &m->tpend[i].x->thr[k];
			struct mthr c = {.tid = t->tid,
					 .start = t->start,
					 .utime = t->utime,
					 .stime = t->stime,
					 .minflt = t->minflt,
					 .majflt = t->majflt,
					 .vctx = t->vctx,
					 .nvctx = t->nvctx,
					 .rb = t->read_bytes,
					 .wb = t->write_bytes,
					 .has_io = t->has_io};
			const struct mthr *p = m->ntprev ? bsearch(&c, m->tprev, m->ntprev,
								   sizeof(*m->tprev), by_tid_start)
							 : NULL;
			struct mtacc *a = thread_acc(m, g->key, g->len, t->comm, t->comm_len);

			a->seen = m->frames;
			a->count++;
			a->user += (double)(p ? grown(c.utime, p->utime) : c.utime) / m->hz;
			a->sys += (double)(p ? grown(c.stime, p->stime) : c.stime) / m->hz;
			a->minflt += (double)(p ? grown(c.minflt, p->minflt) : c.minflt);
			a->majflt += (double)(p ? grown(c.majflt, p->majflt) : c.majflt);
			a->vctx += (double)(p ? grown(c.vctx, p->vctx) : c.vctx);
			a->nvctx += (double)(p ? grown(c.nvctx, p->nvctx) : c.nvctx);
			if (c.has_io) {
				bool was = p && p->has_io;

				a->rb += (double)(was ? grown(c.rb, p->rb) : c.rb);
				a->wb += (double)(was ? grown(c.wb, p->wb) : c.wb);
			}
			m->tcur[m->ntcur++] = c;
		}
	}
	if (m->ntcur > 1) /* qsort takes no NULL, even for none */
		qsort(m->tcur, m->ntcur, sizeof(*m->tcur), by_tid_start);
	{
		struct mthr *t = m->tprev;

		m->tprev = m->tcur;
		m->tcur = t;
		m->ntprev = m->ntcur;
	}
	for (size_t i = 0; i < m->ntacc; i++)
		if (m->tacc[i].seen == m->frames)
			m->tacc[out++] = m->tacc[i];
	m->ntacc = out;
}

/* What was read of a process beyond its row into its group's gauges. */
static void add_facts(struct metrics *m, struct mgroup *g, const struct proc_facts *x)
{
	if (x->has_fds) {
		g->now.fds += x->fds;
		if (x->has_limit && x->fd_limit && x->fd_limit != UINT64_MAX &&
		    (double)x->fds / (double)x->fd_limit > g->now.fd_ratio)
			g->now.fd_ratio = (double)x->fds / (double)x->fd_limit;
	}
	if (x->has_rollup) {
		g->now.pss_kb += x->rollup.pss_kb;
		g->now.swap_pss_kb += x->rollup.swap_pss_kb;
	}
	if (x->has_states)
		for (int k = 0; k < PROC_TS_COUNT; k++)
			g->now.states[k] += x->states[k];
	m->partial_errors += x->failed;
}

static void add_row(struct metrics *m, const struct frame *f, const struct frame_proc *p,
		    struct mtrack *t, const struct proc_facts *x)
{
	uint32_t e = row_group(m, p);
	struct mgroup *g;
	/* with -H a thread's row has its process's memory: counted once, on the leader's */
	bool leader = !f->threads || p->pid == p->tgid;
	double start;

	if (e == NO_GROUP) {
		*t = (struct mtrack){.pid = p->pid, .group = e, .start = p->start_ticks};
		return;
	}
	g = seen(m, e, p);
	if (leader) {
		g->now.rss_kb += p->rss_kb;
		g->now.vsz_kb += p->vsize_kb;
		g->now.swap_kb += p->swap_kb;
		g->mem += (double)p->rss_kb;
		start = frame_proc_start_time(f, p);
		if (!g->now.oldest || start < g->now.oldest)
			g->now.oldest = start;
		if (x) {
			add_facts(m, g, x);
			if (x->nwchan)
				add_wchans(m, e, x);
			if (x->nthr) {
				if (m->ntpend == m->tpend_cap) {
					m->tpend_cap = m->tpend_cap ? 2 * m->tpend_cap : 64;
					m->tpend = xreallocarray(m->tpend, m->tpend_cap,
								 sizeof(*m->tpend));
				}
				m->tpend[m->ntpend++] = (struct mtpend){.e = e, .x = x};
			}
		}
	}
	if (f->threads) {
		g->now.threads++;
		g->now.procs += p->pid == p->tgid;
	} else {
		g->now.procs++;
		g->now.threads += p->threads > 0 ? (uint64_t)p->threads : 1;
	}
	if (f->counters.on && p->has_ctr)
		for (int k = 0; k < f->counters.nevents && k < FRAME_MAX_EVENTS; k++)
			if (ctr_counted(p, k) && p->ctr[k] > 0)
				g->delta.ctr[k] += p->ctr[k];
	*t = (struct mtrack){.pid = p->pid,
			     .group = e,
			     .start = p->start_ticks,
			     .utime = p->utime,
			     .stime = p->stime,
			     .vctx = p->vctxsw,
			     .nvctx = p->nvctxsw,
			     .io_read = p->io_read_bytes,
			     .io_write = p->io_write_bytes,
			     .has_io = p->has_io,
			     .minflt = frame_side(p)->minflt,
			     .majflt = frame_side(p)->majflt,
			     .has_flt = frame_side(p)->has_flt};
}

/*
 * The processes that ended in the interval (an exit hook's records) into
 * their groups: what the accounting gave the interval of their CPU (split
 * as their lives' user and system time were) and storage bytes (since their
 * last row, all of it for one never seen), so a process that lived between
 * two frames counts too.
 */
static void add_exited(struct metrics *m, const struct frame *f,
		       const struct frame_proc *const *exited, size_t nexited)
{
	for (size_t i = 0; i < nexited; i++) {
		const struct frame_proc *x = exited[i];
		uint32_t e = row_group(m, x);
		struct mgroup *g;
		double cpu = x->cpu_pct / 100.0 * f->interval_s;
		uint64_t ticks = x->utime + x->stime;
		/* each from its own ticks: cpu - user can round below 0, a counter gone back */
		double user = ticks ? cpu * (double)x->utime / (double)ticks : 0;
		double sys = ticks ? cpu * (double)x->stime / (double)ticks : cpu;

		if (e == NO_GROUP)
			continue;
		g = seen(m, e, x);
		g->delta.cpu_s += cpu;
		g->delta.user_s += user;
		g->delta.sys_s += sys;
		if (!x->has_io)
			continue;
		g->delta.has_io = true;
		g->delta.io_read += (double)x->io_read_rate * f->interval_s;
		g->delta.io_write += (double)x->io_write_rate * f->interval_s;
	}
}

static void count_add(struct mcount *to, const struct mcount *d)
{
	to->cpu_s += d->cpu_s;
	to->user_s += d->user_s;
	to->sys_s += d->sys_s;
	to->vctx += d->vctx;
	to->nvctx += d->nvctx;
	for (int k = 0; k < FRAME_MAX_EVENTS; k++)
		to->ctr[k] += d->ctr[k];
	to->io_read += d->io_read;
	to->io_write += d->io_write;
	to->has_io |= d->has_io;
	to->minflt += d->minflt;
	to->majflt += d->majflt;
	to->has_flt |= d->has_flt;
}

/* The frame's values of g into its averages over 1 and 5 minutes, as the load average does. */
static void average(const struct metrics *m, struct mgroup *g, double dt)
{
	double a1 = 1 - exp(-dt / 60), a5 = 1 - exp(-dt / METRICS_WINDOW_S);

	if (m->frames == 1) {
		/* the first frame: what runs now, as if it had run so */
		g->cpu1 = g->cpu5 = g->cpu;
		g->mem1 = g->mem5 = g->mem;
		return;
	}
	g->cpu1 += a1 * (g->cpu - g->cpu1);
	g->mem1 += a1 * (g->mem - g->mem1);
	g->cpu5 += a5 * (g->cpu - g->cpu5);
	g->mem5 += a5 * (g->mem - g->mem5);
}

/* The larger of g's shares of the machine's CPU and memory over the last 5 minutes. */
static double score(const struct metrics *m, const struct mgroup *g)
{
	double cpu = g->cpu5 / m->ncpu, mem = m->mem_kb > 0 ? g->mem5 / m->mem_kb : 0;

	return cpu > mem ? cpu : mem;
}

/* g used less than METRICS_IDLE_SHARE of a CPU and of memory over the last minute. */
static bool idle(const struct metrics *m, const struct mgroup *g)
{
	return g->cpu1 < METRICS_IDLE_SHARE &&
	       !(m->mem_kb > 0 && g->mem1 >= METRICS_IDLE_SHARE * m->mem_kb);
}

static bool gone(const struct metrics *m, const struct mgroup *g)
{
	return m->frames - g->seen_frame > METRICS_STALE_FRAMES;
}

/* Entries busiest first (the shares over 5 minutes), then the older entry. */
static int by_score(const void *a, const void *b, void *arg)
{
	const struct metrics *m = arg;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	double sx = score(m, &m->groups[x]), sy = score(m, &m->groups[y]);

	if (sx != sy)
		return sx < sy ? 1 : -1;
	return (x > y) - (x < y);
}

/* Slots by their holders, the least busy first. */
static int by_holder(const void *a, const void *b, void *arg)
{
	const struct metrics *m = arg;
	uint32_t x = m->slots[*(const uint32_t *)a], y = m->slots[*(const uint32_t *)b];

	return -by_score(&x, &y, arg);
}

static void take_slot(struct metrics *m, uint32_t slot, uint32_t e)
{
	struct mgroup *g = &m->groups[e];

	if (m->slots[slot] != NO_ENTRY) {
		m->groups[m->slots[slot]].slot = -1;
		m->evictions++;
	}
	m->slots[slot] = e;
	g->slot = (int)slot;
	g->since = m->clock;
	g->held = true;
}

/* The first slot of list[*at..n) that no contender took yet; n when none. */
static uint32_t next_slot(const struct metrics *m, const uint32_t *list, uint32_t *at, uint32_t n)
{
	while (*at < n && m->taken[list[*at]])
		(*at)++;
	return *at;
}

/*
 * Who holds a slot. Groups without one that have a process (contenders),
 * busiest first, take a free slot or the slot of a group gone for
 * METRICS_STALE_FRAMES frames; else, when not idle themselves, the slot of
 * an idle group; else the slot of a group that has held its slot for
 * METRICS_TENURE_S and is less busy than they are. The least busy goes first.
 */
static void assign_slots(struct metrics *m)
{
	uint32_t max = m->o.max_groups, nc = 0, n[3] = {0}, at[3] = {0};
	uint32_t *c = m->order, *list[3] = {m->hold, m->hold + max, m->hold + 2 * max};

	for (uint32_t e = 0; e < m->ngroups; e++)
		if (m->groups[e].used && m->groups[e].slot < 0 && !gone(m, &m->groups[e]))
			c[nc++] = e;
	if (!nc)
		return;
	memset(m->taken, 0, max);
	for (uint32_t s = 0; s < max; s++) {
		const struct mgroup *g = m->slots[s] == NO_ENTRY ? NULL : &m->groups[m->slots[s]];

		if (!g || gone(m, g)) {
			list[0][n[0]++] = s;
			continue;
		}
		if (idle(m, g))
			list[1][n[1]++] = s;
		if (m->clock - g->since >= METRICS_TENURE_S)
			list[2][n[2]++] = s;
	}
	qsort_r(c, nc, sizeof(*c), by_score, m);
	qsort_r(list[1], n[1], sizeof(*list[1]), by_holder, m);
	qsort_r(list[2], n[2], sizeof(*list[2]), by_holder, m);
	for (uint32_t i = 0; i < nc; i++) {
		const struct mgroup *g = &m->groups[c[i]];
		uint32_t s = NO_ENTRY;

		if (next_slot(m, list[0], &at[0], n[0]) < n[0])
			s = list[0][at[0]];
		else if (!idle(m, g) && next_slot(m, list[1], &at[1], n[1]) < n[1])
			s = list[1][at[1]];
		else if (next_slot(m, list[2], &at[2], n[2]) < n[2] &&
			 score(m, g) > score(m, &m->groups[m->slots[list[2][at[2]]]]))
			s = list[2][at[2]];
		if (s == NO_ENTRY)
			continue;
		m->taken[s] = 1;
		take_slot(m, s, c[i]);
	}
}

/*
 * What each group did in the frame to its own counters and gauges when it
 * holds a slot, else to other's; then other's averages, and whether it
 * holds too much.
 */
static void distribute(struct metrics *m, double dt)
{
	struct mgroup *o = &m->other;
	bool high;

	for (uint32_t e = 0; e < m->ngroups; e++) {
		struct mgroup *g = &m->groups[e];

		if (!g->used || g->slot >= 0)
			continue;
		count_add(&o->delta, &g->delta);
		o->now.rss_kb += g->now.rss_kb;
		o->now.vsz_kb += g->now.vsz_kb;
		o->now.procs += g->now.procs;
		o->now.threads += g->now.threads;
		o->now.swap_kb += g->now.swap_kb;
		o->now.pss_kb += g->now.pss_kb;
		o->now.swap_pss_kb += g->now.swap_pss_kb;
		o->now.fds += g->now.fds;
		if (g->now.fd_ratio > o->now.fd_ratio)
			o->now.fd_ratio = g->now.fd_ratio;
		if (g->now.oldest && (!o->now.oldest || g->now.oldest < o->now.oldest))
			o->now.oldest = g->now.oldest;
		for (int k = 0; k < PROC_TS_COUNT; k++)
			o->now.states[k] += g->now.states[k];
		o->cpu += g->cpu;
		o->mem += g->mem;
	}
	for (uint32_t e = 0; e < m->ngroups; e++)
		if (m->groups[e].used && m->groups[e].slot >= 0)
			count_add(&m->groups[e].total, &m->groups[e].delta);
	count_add(&o->total, &o->delta);
	m->other_used |= o->now.procs > 0;
	average(m, o, dt);
	high = metrics_other_share(m, false) > METRICS_OTHER_SHARE ||
	       metrics_other_share(m, true) > METRICS_OTHER_SHARE;
	if (high && (m->warned < 0 || m->clock - m->warned >= METRICS_WARN_S)) {
		m->warn_due = true;
		m->warned = m->clock;
	}
	m->other_high = high;
}

/*
 * Forget the groups without a slot that had no process for the window (an
 * hour, for one that held a slot: its counters go on from where they were if
 * it wins one back within that time); a group forgotten starts again from
 * zero, which Prometheus takes as a counter reset.
 */
static void prune(struct metrics *m)
{
	uint32_t before = m->nfree;

	for (uint32_t e = 0; e < m->ngroups; e++) {
		struct mgroup *g = &m->groups[e];

		if (!g->used || g->slot >= 0 || g->seen_frame == m->frames ||
		    m->clock - g->seen < (g->held ? METRICS_KEEP_S : METRICS_WINDOW_S))
			continue;
		g->used = false;
		m->free_list[m->nfree++] = e;
	}
	if (m->nfree != before)
		hash_rebuild(m);
}

double metrics_other_share(const struct metrics *m, bool memory)
{
	if (memory)
		return m->mem_kb > 0 ? m->other.mem5 / m->mem_kb : 0;
	return m->other.cpu5 / m->ncpu;
}

bool metrics_other_warning(struct metrics *m)
{
	bool due = m->warn_due;

	m->warn_due = false;
	return due;
}

static void keep_top(struct metrics *m, const struct frame *f, const struct frame_proc *const *rows,
		     size_t n)
{
	sbuf_reset(&m->top_cmd);
	m->ntop = n < m->o.top_pids ? n : m->o.top_pids;
	for (size_t i = 0; i < m->ntop; i++) {
		const struct frame_proc *p = rows[i];
		struct mtop *t = &m->top[i];

		*t = (struct mtop){.pid = p->pid,
				   .comm_len = p->comm_len,
				   .ticks = p->utime + p->stime,
				   .rss_kb = p->rss_kb,
				   .vsz_kb = p->vsize_kb,
				   .threads = p->threads};
		memcpy(t->comm, p->comm, p->comm_len);
		if (m->o.expose_cmdline && p->has_cmd &&
		    (size_t)p->cmd_off + p->cmd_len <= f->strings.len) {
			t->has_cmd = true;
			t->cmd_off = (uint32_t)m->top_cmd.len;
			t->cmd_len = p->cmd_len;
			sbuf_add(&m->top_cmd, f->strings.p + p->cmd_off, p->cmd_len);
		}
	}
}

static void keep_frame(struct metrics *m, const struct frame *f, size_t n)
{
	m->time = f->time;
	m->cost = f->cost;
	m->rows_read[0] += f->cost.read_full;
	m->rows_read[1] += f->cost.read_kept;
	m->rows_read[2] += f->cost.read_bpf;
	m->acct[ACCT_BUSY] += f->acct.busy_s;
	m->acct[ACCT_IRQ] += f->acct.irq_s;
	m->acct[ACCT_ROWS] += f->acct.rows_s;
	m->acct[ACCT_EXITED] += f->acct.exited_s;
	m->acct[ACCT_LOST] += f->acct.lost_s;
	m->acct[ACCT_CHILDREN] += f->acct.children_s;
	m->exits_lost += (double)f->acct.lost;
	m->procread_errors += f->cost.vanished + f->cost.unreadable;
	m->exits = f->acct.exits;
	m->nrows = n;
	m->counters_on = f->counters.on;
	m->nevents = f->counters.on ? f->counters.nevents : 0;
	if (m->nevents > FRAME_MAX_EVENTS)
		m->nevents = FRAME_MAX_EVENTS;
	memcpy(m->names, f->counters.names, sizeof(m->names));
	m->attached = f->counters.attached;
	if (m->bps_cap < f->nbps) {
		m->bps_cap = f->nbps;
		m->bps = xreallocarray(m->bps, m->bps_cap, sizeof(*m->bps));
	}
	if (f->nbps)
		memcpy(m->bps, f->bps, f->nbps * sizeof(*m->bps));
	m->nbps = f->nbps;
}

unsigned metrics_facts(const struct metrics_opts *o)
{
	unsigned facts = PROC_FACT_FDS | PROC_FACT_THREADS;

	return o->names == METRICS_NAMES_PE
		   ? facts | PROC_FACT_ROLLUP | PROC_FACT_WCHAN | PROC_FACT_THREAD_COUNTS
		   : facts;
}

void metrics_update(struct metrics *m, const struct frame *f, const struct frame_proc *const *rows,
		    size_t n, const struct frame_proc *const *exited, size_t nexited,
		    const struct proc_facts *facts)
{
	double dt = (f->interval_s > 0 ? f->interval_s : 0) * m->o.time_scale;

	m->frames++;
	m->clock += dt;
	m->nwc = 0;
	m->ntpend = 0;
	m->hz = f->hz > 0 ? (double)f->hz : 100.0;
	m->ncpu = f->ncpu ? (double)f->ncpu : 1;
	m->mem_kb = (double)f->mem.total;
	for (uint32_t e = 0; e <= m->ngroups; e++) {
		struct mgroup *g = e < m->ngroups ? &m->groups[e] : &m->other;

		memset(&g->delta, 0, sizeof(g->delta));
		memset(&g->now, 0, sizeof(g->now));
		g->cpu = g->mem = 0;
	}
	if (m->cap < n) {
		m->cap = n + n / 4 + 16;
		m->cur = xreallocarray(m->cur, m->cap, sizeof(*m->cur));
		m->prev = xreallocarray(m->prev, m->cap, sizeof(*m->prev));
	}
	for (size_t i = 0; i < n; i++)
		add_row(m, f, rows[i], &m->cur[i], facts ? &facts[i] : NULL);
	add_exited(m, f, exited, nexited);
	add_deltas(m, n);
	m->facts = facts ? metrics_facts(&m->o) : 0;
	for (uint32_t e = 0; e < m->ngroups; e++)
		if (m->groups[e].used)
			average(m, &m->groups[e], dt);
	assign_slots(m);
	distribute(m, dt);
	wchans_by_slot(m);
	for (size_t i = 0; i < m->ntacc; i++)
		m->tacc[i].count = 0;
	count_threads(m);
	prune(m);
	keep_top(m, f, rows, n);
	keep_frame(m, f, n);
}

/*
 * Whether the character at u (l bytes of UTF-8) is shown as \xNN bytes: a
 * control, which could end or rewrite a line where the value is shown, or a
 * bidirectional control, which could make the value read as another.
 */
static bool label_escaped(const unsigned char *u, size_t l)
{
	uint32_t cp;

	if (l == 1)
		return u[0] < 0x20 || u[0] == 0x7f;
	if (l == 2) {
		cp = (uint32_t)(u[0] & 0x1f) << 6 | (u[1] & 0x3f);
		return (cp >= 0x80 && cp <= 0x9f) || cp == 0x61c;
	}
	if (l != 3)
		return false;
	cp = (uint32_t)(u[0] & 0x0f) << 12 | (uint32_t)(u[1] & 0x3f) << 6 | (u[2] & 0x3f);
	return cp == 0x200e || cp == 0x200f || (cp >= 0x202a && cp <= 0x202e) ||
	       (cp >= 0x2066 && cp <= 0x2069);
}

void metrics_label_value(struct sbuf *b, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0;

	while (i < n) {
		size_t l = utf8_len(s + i, n - i);

		if (!l || label_escaped(u + i, l)) {
			/* ptop's \xNN, its backslash escaped again for the format */
			for (size_t k = 0; k < (l ? l : 1); k++) {
				char e[6] = {'\\', '\\', 'x', hex[u[i + k] >> 4],
					     hex[u[i + k] & 15]};

				sbuf_add(b, e, 5);
			}
		} else if (u[i] == '\\') {
			sbuf_adds(b, "\\\\\\\\"); /* ptop's \\, each escaped again */
		} else if (u[i] == '"') {
			sbuf_adds(b, "\\\"");
		} else {
			sbuf_add(b, s + i, l);
		}
		i += l ? l : 1;
	}
}

static const char *const type_names[] = {
    [METRICS_GAUGE] = "gauge",
    [METRICS_COUNTER] = "counter",
    [METRICS_SUMMARY] = "summary",
};

void metrics_family(struct sbuf *b, bool openmetrics, const char *name, enum metrics_type type,
		    const char *unit, const char *help)
{
	/* the text format names a counter's family after its samples, OpenMetrics without _total */
	const char *suffix = !openmetrics && type == METRICS_COUNTER ? "_total" : "";

	if (openmetrics) {
		sbuf_printf(b, "# TYPE %s %s\n", name, type_names[type]);
		if (unit)
			sbuf_printf(b, "# UNIT %s %s\n", name, unit);
		sbuf_printf(b, "# HELP %s %s\n", name, help);
		return;
	}
	sbuf_printf(b, "# HELP %s%s %s\n", name, suffix, help);
	sbuf_printf(b, "# TYPE %s%s %s\n", name, suffix, type_names[type]);
}

void metrics_sample(struct sbuf *b, const char *name, const char *suffix, const char *labels,
		    double v)
{
	sbuf_printf(b, "%s%s%s %.15g\n", name, suffix, labels, v);
}

/* {comm="..."}, {user="..."} or {cgroup="..."} of group g, plus extra ("" or ",k=\"v\""). */
static const char *group_labels(const struct metrics *m, struct sbuf *l, const struct mgroup *g,
				const char *extra)
{
	sbuf_reset(l);
	if (m->o.names == METRICS_NAMES_PE)
		sbuf_adds(l, "{groupname=\"");
	else
		sbuf_adds(l, m->o.group_by == METRICS_BY_COMM	? "{comm=\""
			     : m->o.group_by == METRICS_BY_USER ? "{user=\""
								: "{cgroup=\"");
	metrics_label_value(l, g->key, g->len);
	sbuf_printf(l, "\"%s}", extra);
	return sbuf_cstr(l);
}

/* The groups served, in slot order, then "other"; NULL after the last. */
static const struct mgroup *served(const struct metrics *m, unsigned *i)
{
	while (*i < m->o.max_groups) {
		uint32_t e = m->slots[(*i)++];

		if (e != NO_ENTRY)
			return &m->groups[e];
	}
	/* process-exporter's names have no "other" until the groups overflow */
	if (m->o.names == METRICS_NAMES_PE && !m->other_used)
		return NULL;
	return (*i)++ == m->o.max_groups ? &m->other : NULL;
}

/* Whether a served group's faults were known (a recording before version 7 has none). */
static bool any_faults(const struct metrics *m)
{
	const struct mgroup *g;

	for (unsigned i = 0; (g = served(m, &i));)
		if (g->total.has_flt)
			return true;
	return false;
}

/* A gauge or counter with a value per group. */
static void per_group(const struct metrics *m, struct sbuf *b, struct sbuf *l, bool om,
		      const char *name, enum metrics_type type, const char *unit, const char *help,
		      size_t field, double scale)
{
	const struct mgroup *g;

	metrics_family(b, om, name, type, unit, help);
	for (unsigned i = 0; (g = served(m, &i));) {
		double v;

		if (type == METRICS_COUNTER)
			v = *(const double *)((const char *)g + field);
		else
			v = (double)*(const uint64_t *)((const char *)g + field);
		metrics_sample(b, name, type == METRICS_COUNTER ? "_total" : "",
			       group_labels(m, l, g, ""), v * scale);
	}
}

/* A family of counters with a second label of two values per group. */
static void per_group2(const struct metrics *m, struct sbuf *b, struct sbuf *l, bool om,
		       const char *name, const char *unit, const char *help,
		       const char *const lab[2], const size_t field[2])
{
	const struct mgroup *g;

	metrics_family(b, om, name, METRICS_COUNTER, unit, help);
	for (unsigned i = 0; (g = served(m, &i));)
		for (int k = 0; k < 2; k++)
			metrics_sample(b, name, "_total", group_labels(m, l, g, lab[k]),
				       *(const double *)((const char *)g + field[k]));
}

static void render_groups(const struct metrics *m, struct sbuf *b, struct sbuf *l, bool om)
{
	static const char *const modes[2] = {",mode=\"user\"", ",mode=\"system\""};
	static const char *const kinds[2] = {",kind=\"voluntary\"", ",kind=\"involuntary\""};
	static const size_t cpu[2] = {offsetof(struct mgroup, total.user_s),
				      offsetof(struct mgroup, total.sys_s)};
	static const size_t ctx[2] = {offsetof(struct mgroup, total.vctx),
				      offsetof(struct mgroup, total.nvctx)};

	per_group(m, b, l, om, "ptop_group_cpu_seconds", METRICS_COUNTER, "seconds",
		  "CPU time (user and system) of the group's processes while ptop watched them.",
		  offsetof(struct mgroup, total.cpu_s), 1);
	per_group2(m, b, l, om, "ptop_group_cpu_mode_seconds", "seconds",
		   "CPU time of the group's processes while ptop watched them, by mode (user, "
		   "system).",
		   modes, cpu);
	per_group(m, b, l, om, "ptop_group_resident_memory_bytes", METRICS_GAUGE, "bytes",
		  "Resident memory of the group's processes.", offsetof(struct mgroup, now.rss_kb),
		  1024);
	per_group(m, b, l, om, "ptop_group_virtual_memory_bytes", METRICS_GAUGE, "bytes",
		  "Virtual memory of the group's processes.", offsetof(struct mgroup, now.vsz_kb),
		  1024);
	per_group(m, b, l, om, "ptop_group_processes", METRICS_GAUGE, NULL,
		  "Processes in the group.", offsetof(struct mgroup, now.procs), 1);
	per_group(m, b, l, om, "ptop_group_threads", METRICS_GAUGE, NULL,
		  "Threads of the group's processes.", offsetof(struct mgroup, now.threads), 1);
	per_group2(m, b, l, om, "ptop_group_context_switches", NULL,
		   "Context switches of the group's processes while ptop watched them.", kinds,
		   ctx);
}

/* process-exporter's families, in the order it writes them. */
enum pe_family {
	PE_CTX,
	PE_CPU,
	PE_MAJFLT,
	PE_MEMORY,
	PE_MINFLT,
	PE_PROCS,
	PE_THREADS,
	PE_OLDEST,
	PE_FDS,
	PE_READ,
	PE_STATES,
	PE_FD_RATIO,
	PE_WRITE,
	PE_FAMILIES
};

static const struct {
	const char *name, *help, *label;
	enum metrics_type type;
	const char *const *values; /* of the second label, NULL-terminated; NULL: none */
} pe_families[PE_FAMILIES] = {
    [PE_CTX] = {"namedprocess_namegroup_context_switches",
		"Context switches of the group's processes, voluntary and not.", "ctxswitchtype",
		METRICS_COUNTER, (const char *const[]){"nonvoluntary", "voluntary", NULL}},
    [PE_CPU] = {"namedprocess_namegroup_cpu_seconds",
		"CPU time of the group's processes in user and system mode.", "mode",
		METRICS_COUNTER, (const char *const[]){"system", "user", NULL}},
    [PE_MAJFLT] = {"namedprocess_namegroup_major_page_faults",
		   "Major page faults of the group's processes (a page read from storage).", NULL,
		   METRICS_COUNTER, NULL},
    [PE_MINFLT] = {"namedprocess_namegroup_minor_page_faults",
		   "Minor page faults of the group's processes (a page already in memory).", NULL,
		   METRICS_COUNTER, NULL},
    [PE_MEMORY] = {"namedprocess_namegroup_memory_bytes",
		   "Memory of the group's processes: resident, virtual, swapped and, where "
		   "smaps_rollup was read, their proportional shares.",
		   "memtype", METRICS_GAUGE,
		   (const char *const[]){"proportionalResident", "proportionalSwapped", "resident",
					 "swapped", "virtual", NULL}},
    [PE_PROCS] = {"namedprocess_namegroup_num_procs", "Processes in the group.", NULL,
		  METRICS_GAUGE, NULL},
    [PE_THREADS] = {"namedprocess_namegroup_num_threads", "Threads of the group's processes.", NULL,
		    METRICS_GAUGE, NULL},
    [PE_OLDEST] = {"namedprocess_namegroup_oldest_start_time_seconds",
		   "Start of the group's oldest process, seconds since 1970-01-01.", NULL,
		   METRICS_GAUGE, NULL},
    [PE_FDS] = {"namedprocess_namegroup_open_filedesc",
		"Open file descriptors of the group's processes.", NULL, METRICS_GAUGE, NULL},
    [PE_READ] = {"namedprocess_namegroup_read_bytes",
		 "Bytes the group's processes read from storage.", NULL, METRICS_COUNTER, NULL},
    [PE_STATES] = {"namedprocess_namegroup_states",
		   "Threads of the group's processes by state: Running, Sleeping, Waiting "
		   "(uninterruptible), Zombie, Other.",
		   "state", METRICS_GAUGE,
		   (const char *const[]){"Other", "Running", "Sleeping", "Waiting", "Zombie",
					 NULL}},
    [PE_FD_RATIO] = {"namedprocess_namegroup_worst_fd_ratio",
		     "The highest ratio of open descriptors to their soft limit among the "
		     "group's processes.",
		     NULL, METRICS_GAUGE, NULL},
    [PE_WRITE] = {"namedprocess_namegroup_write_bytes",
		  "Bytes the group's processes caused to be written to storage.", NULL,
		  METRICS_COUNTER, NULL},
};

/* The value of family k (its second label's value v) for group g. */
static double pe_value(const struct mgroup *g, enum pe_family k, int v)
{
	static const int state_of[] = {PROC_TS_OTHER, PROC_TS_RUNNING, PROC_TS_SLEEPING,
				       PROC_TS_WAITING, PROC_TS_ZOMBIE};
	const uint64_t mem[] = {g->now.pss_kb, g->now.swap_pss_kb, g->now.rss_kb, g->now.swap_kb,
				g->now.vsz_kb};

	switch (k) {
	case PE_CTX:
		return v ? g->total.vctx : g->total.nvctx;
	case PE_CPU:
		return v ? g->total.user_s : g->total.sys_s;
	case PE_MEMORY:
		return (double)mem[v] * 1024;
	case PE_MAJFLT:
		return g->total.majflt;
	case PE_MINFLT:
		return g->total.minflt;
	case PE_PROCS:
		return (double)g->now.procs;
	case PE_THREADS:
		return (double)g->now.threads;
	case PE_OLDEST:
		return floor(g->now.oldest); /* whole seconds, as process-exporter gives it */
	case PE_FDS:
		return (double)g->now.fds;
	case PE_READ:
		return g->total.io_read;
	case PE_STATES:
		return (double)g->now.states[state_of[v]];
	case PE_FD_RATIO:
		return g->now.fd_ratio;
	case PE_WRITE:
		return g->total.io_write;
	case PE_FAMILIES:
		break;
	}
	return 0;
}

/* process-exporter's thread_* families: each served group's threads by name. */
static void render_threads(const struct metrics *m, struct sbuf *b, struct sbuf *l, bool om,
			   struct sbuf *extra)
{
	static const struct {
		const char *name, *help, *label, *v[2];
		enum metrics_type type;
		size_t f[2];
	} fams[] = {
	    {"namedprocess_namegroup_thread_count",
	     "Threads of the group's processes of several threads, by thread name.",
	     NULL,
	     {NULL, NULL},
	     METRICS_GAUGE,
	     {0, 0}},
	    {"namedprocess_namegroup_thread_cpu_seconds",
	     "CPU time of those threads, by thread name and mode.",
	     "mode",
	     {"system", "user"},
	     METRICS_COUNTER,
	     {offsetof(struct mtacc, sys), offsetof(struct mtacc, user)}},
	    {"namedprocess_namegroup_thread_io_bytes",
	     "Bytes those threads read from and caused to be written to storage.",
	     "iomode",
	     {"read", "write"},
	     METRICS_COUNTER,
	     {offsetof(struct mtacc, rb), offsetof(struct mtacc, wb)}},
	    {"namedprocess_namegroup_thread_major_page_faults",
	     "Major page faults of those threads.",
	     NULL,
	     {NULL, NULL},
	     METRICS_COUNTER,
	     {offsetof(struct mtacc, majflt), 0}},
	    {"namedprocess_namegroup_thread_minor_page_faults",
	     "Minor page faults of those threads.",
	     NULL,
	     {NULL, NULL},
	     METRICS_COUNTER,
	     {offsetof(struct mtacc, minflt), 0}},
	    {"namedprocess_namegroup_thread_context_switches",
	     "Context switches of those threads, voluntary and not.",
	     "ctxswitchtype",
	     {"nonvoluntary", "voluntary"},
	     METRICS_COUNTER,
	     {offsetof(struct mtacc, nvctx), offsetof(struct mtacc, vctx)}},
	};
	const struct mgroup *g;

	for (size_t k = 0; k < sizeof(fams) / sizeof(fams[0]); k++) {
		const char *suffix = fams[k].type == METRICS_COUNTER ? "_total" : "";

		metrics_family(b, om, fams[k].name, fams[k].type, NULL, fams[k].help);
		for (unsigned i = 0; (g = served(m, &i));) {
			for (size_t t = 0; t < m->ntacc; t++) {
				const struct mtacc *a = &m->tacc[t];

				if (a->glen != g->len || memcmp(a->gkey, g->key, g->len))
					continue;
				for (int v = 0; v < (fams[k].label ? 2 : 1); v++) {
					double val =
					    k == 0
						? (double)a->count
						: *(const double *)((const char *)a + fams[k].f[v]);

					sbuf_reset(extra);
					sbuf_adds(extra, ",threadname=\"");
					metrics_label_value(extra, a->name, a->nlen);
					sbuf_addc(extra, '"');
					if (fams[k].label)
						sbuf_printf(extra, ",%s=\"%s\"", fams[k].label,
							    fams[k].v[v]);
					metrics_sample(b, fams[k].name, suffix,
						       group_labels(m, l, g, sbuf_cstr(extra)),
						       val);
				}
			}
		}
	}
}

/* namedprocess_namegroup_threads_wchan: each group's threads by the function they wait in. */
static void render_wchans(const struct metrics *m, struct sbuf *b, struct sbuf *l, bool om,
			  struct sbuf *extra)
{
	const struct mgroup *g;
	size_t at = 0;

	metrics_family(b, om, "namedprocess_namegroup_threads_wchan", METRICS_GAUGE, NULL,
		       "Threads of the group's processes by the kernel function they wait in "
		       "(wchan; empty where the kernel does not say).");
	for (unsigned i = 0; (g = served(m, &i));) {
		uint32_t slot = i - 1;

		while (at < m->nwc && m->wc[at].slot < slot)
			at++;
		for (; at < m->nwc && m->wc[at].slot == slot; at++) {
			const char *w = m->wnames[m->wc[at].name];

			sbuf_reset(extra);
			sbuf_adds(extra, ",wchan=\"");
			metrics_label_value(extra, w, strlen(w));
			sbuf_addc(extra, '"');
			metrics_sample(b, "namedprocess_namegroup_threads_wchan", "",
				       group_labels(m, l, g, sbuf_cstr(extra)), m->wc[at].n);
		}
	}
}

/* A counter process-exporter names without _total: untyped in OpenMetrics, which requires it. */
static void pe_bare_counter(struct sbuf *b, bool om, const char *name, const char *help, double v)
{
	if (om)
		sbuf_printf(b, "# TYPE %s unknown\n# HELP %s %s\n", name, name, help);
	else
		sbuf_printf(b, "# HELP %s %s\n# TYPE %s counter\n", name, help, name);
	metrics_sample(b, name, "", "", v);
}

/*
 * prometheus-process-exporter's families and labels (--metrics-names), so
 * that its dashboards and alert rules work unchanged.
 */
static void render_pe(const struct metrics *m, struct sbuf *b, struct sbuf *l, bool om,
		      unsigned facts)
{
	struct sbuf extra = {0};
	const struct mgroup *g;

	for (int k = 0; k < PE_FAMILIES; k++) {
		const char *suffix = pe_families[k].type == METRICS_COUNTER ? "_total" : "";

		if ((k == PE_FDS || k == PE_FD_RATIO) && !(facts & PROC_FACT_FDS))
			continue;
		if (k == PE_STATES && !(facts & PROC_FACT_THREADS))
			continue;
		/* no series rather than a false zero where no process's faults were known */
		if ((k == PE_MAJFLT || k == PE_MINFLT) && !any_faults(m))
			continue;
		metrics_family(b, om, pe_families[k].name, pe_families[k].type, NULL,
			       pe_families[k].help);
		for (unsigned i = 0; (g = served(m, &i));) {
			if (!pe_families[k].values) {
				metrics_sample(b, pe_families[k].name, suffix,
					       group_labels(m, l, g, ""), pe_value(g, k, 0));
				continue;
			}
			for (int v = 0; pe_families[k].values[v]; v++) {
				/* proportional memory only where smaps_rollup was read */
				if (k == PE_MEMORY && v < 2 && !(facts & PROC_FACT_ROLLUP))
					continue;
				sbuf_reset(&extra);
				sbuf_printf(&extra, ",%s=\"%s\"", pe_families[k].label,
					    pe_families[k].values[v]);
				metrics_sample(b, pe_families[k].name, suffix,
					       group_labels(m, l, g, sbuf_cstr(&extra)),
					       pe_value(g, k, v));
			}
		}
	}
	if (m->facts & PROC_FACT_WCHAN)
		render_wchans(m, b, l, om, &extra);
	if (m->facts & PROC_FACT_THREAD_COUNTS)
		render_threads(m, b, l, om, &extra);
	sbuf_free(&extra);
	pe_bare_counter(b, om, "namedprocess_scrape_errors",
			"Frames whose process list could not be read.", 0);
	pe_bare_counter(b, om, "namedprocess_scrape_partial_errors",
			"Parts of a process's facts (descriptors, limits, smaps_rollup, thread "
			"states) that could not be read.",
			m->partial_errors);
	pe_bare_counter(b, om, "namedprocess_scrape_procread_errors",
			"Processes that vanished or could not be read while a frame was taken.",
			m->procread_errors);
}

/* Page faults per group, ptop's names, where known. */
static void render_faults(const struct metrics *m, struct sbuf *b, struct sbuf *l, bool om)
{
	static const char *const kinds[2] = {",kind=\"minor\"", ",kind=\"major\""};
	static const size_t flt[2] = {offsetof(struct mgroup, total.minflt),
				      offsetof(struct mgroup, total.majflt)};

	if (!any_faults(m))
		return;
	per_group2(m, b, l, om, "ptop_group_page_faults", NULL,
		   "Page faults of the group's processes while ptop watched them: minor (the page "
		   "was in memory), major (it was read from storage).",
		   kinds, flt);
}

/* What was read of the groups' processes beyond their rows, in ptop's names. */
static void render_facts(const struct metrics *m, struct sbuf *b, struct sbuf *l, bool om)
{
	static const char *const states[PROC_TS_COUNT] = {[PROC_TS_RUNNING] = ",state=\"running\"",
							  [PROC_TS_SLEEPING] =
							      ",state=\"sleeping\"",
							  [PROC_TS_WAITING] = ",state=\"waiting\"",
							  [PROC_TS_ZOMBIE] = ",state=\"zombie\"",
							  [PROC_TS_OTHER] = ",state=\"other\""};
	const struct mgroup *g;

	if (m->facts & PROC_FACT_FDS) {
		metrics_family(b, om, "ptop_group_open_fds", METRICS_GAUGE, NULL,
			       "Open file descriptors of the group's processes.");
		for (unsigned i = 0; (g = served(m, &i));)
			metrics_sample(b, "ptop_group_open_fds", "", group_labels(m, l, g, ""),
				       (double)g->now.fds);
		metrics_family(b, om, "ptop_group_fd_limit_ratio", METRICS_GAUGE, "ratio",
			       "The highest share of its descriptor limit (soft) that one of the "
			       "group's processes has open.");
		for (unsigned i = 0; (g = served(m, &i));)
			metrics_sample(b, "ptop_group_fd_limit_ratio", "",
				       group_labels(m, l, g, ""), g->now.fd_ratio);
	}
	if (!(m->facts & PROC_FACT_THREADS))
		return;
	metrics_family(b, om, "ptop_group_thread_states", METRICS_GAUGE, NULL,
		       "Threads of the group's processes by state: running, sleeping, waiting "
		       "(uninterruptible), zombie, other (stopped, idle kernel threads).");
	for (unsigned i = 0; (g = served(m, &i));)
		for (int k = 0; k < PROC_TS_COUNT; k++)
			metrics_sample(b, "ptop_group_thread_states", "",
				       group_labels(m, l, g, states[k]), (double)g->now.states[k]);
}

/* Whether "other" holds too much, and the slots that changed hands. */
static void render_other(const struct metrics *m, struct sbuf *b, bool om)
{
	metrics_family(b, om, "ptop_group_other_ratio", METRICS_GAUGE, "ratio",
		       "Share of the machine's CPUs (resource=cpu) and memory (resource=memory) "
		       "the group other held over the last 5 minutes.");
	metrics_sample(b, "ptop_group_other_ratio", "", "{resource=\"cpu\"}",
		       metrics_other_share(m, false));
	metrics_sample(b, "ptop_group_other_ratio", "", "{resource=\"memory\"}",
		       metrics_other_share(m, true));
	metrics_family(b, om, "ptop_group_other_high", METRICS_GAUGE, NULL,
		       "1 while the group other holds more than 5% of CPU or memory over the last "
		       "5 minutes (raise --max-groups), else 0.");
	metrics_sample(b, "ptop_group_other_high", "", "", m->other_high);
	metrics_family(b, om, "ptop_group_slot_changes", METRICS_COUNTER, NULL,
		       "Times a group gave its slot (its own series) to a busier one.");
	metrics_sample(b, "ptop_group_slot_changes", "_total", "", m->evictions);
}

/* Storage bytes per group, for the groups whose processes' io could be read. */
static void render_io(const struct metrics *m, struct sbuf *b, struct sbuf *l, bool om)
{
	static const struct {
		const char *name, *help;
		size_t field;
	} fams[] = {
	    {"ptop_group_io_read_bytes",
	     "Bytes the group's processes read from storage while ptop watched them.",
	     offsetof(struct mgroup, total.io_read)},
	    {"ptop_group_io_write_bytes",
	     "Bytes the group's processes caused to be written to storage while ptop watched them.",
	     offsetof(struct mgroup, total.io_write)},
	};
	bool any = false;

	const struct mgroup *g;

	for (unsigned i = 0; (g = served(m, &i));)
		any |= g->total.has_io;
	/* no series rather than a false zero where no process's io is readable */
	if (!any)
		return;
	for (size_t k = 0; k < sizeof(fams) / sizeof(fams[0]); k++) {
		metrics_family(b, om, fams[k].name, METRICS_COUNTER, "bytes", fams[k].help);
		for (unsigned i = 0; (g = served(m, &i));) {
			if (!g->total.has_io)
				continue;
			metrics_sample(b, fams[k].name, "_total", group_labels(m, l, g, ""),
				       *(const double *)((const char *)g + fams[k].field));
		}
	}
}

static void render_counters(const struct metrics *m, struct sbuf *b, struct sbuf *l, bool om)
{
	struct sbuf ev = {0};
	const struct mgroup *g;

	if (!m->counters_on)
		return;
	metrics_family(b, om, "ptop_counters_attached", METRICS_GAUGE, NULL,
		       "Processes with counters attached (see --counter-budget).");
	metrics_sample(b, "ptop_counters_attached", "", "", m->attached);
	metrics_family(b, om, "ptop_group_perf_events", METRICS_COUNTER, NULL,
		       "Counted events (perf_event_open) of the group's attached processes.");
	for (unsigned i = 0; (g = served(m, &i));) {
		for (int e = 0; e < m->nevents; e++) {
			sbuf_reset(&ev);
			sbuf_adds(&ev, ",event=\"");
			metrics_label_value(&ev, m->names[e],
					    strnlen(m->names[e], FRAME_EVENT_NAME));
			sbuf_addc(&ev, '"');
			metrics_sample(b, "ptop_group_perf_events", "_total",
				       group_labels(m, l, g, sbuf_cstr(&ev)), g->total.ctr[e]);
		}
	}
	sbuf_free(&ev);
}

static void render_bps(const struct metrics *m, struct sbuf *b, struct sbuf *l, bool om)
{
	if (!m->nbps)
		return;
	metrics_family(b, om, "ptop_breakpoint_hits", METRICS_COUNTER, NULL,
		       "Hits of each armed hardware breakpoint (--watch).");
	for (size_t i = 0; i < m->nbps; i++) {
		const struct frame_bp *bp = &m->bps[i];

		sbuf_reset(l);
		sbuf_printf(l, "{pid=\"%d\",addr=\"0x%llx\",len=\"%d\",type=\"%.3s\"}", bp->pid,
			    (unsigned long long)bp->addr, bp->len, bp->type);
		metrics_sample(b, "ptop_breakpoint_hits", "_total", sbuf_cstr(l), (double)bp->hits);
	}
}

static const char *top_labels(struct sbuf *l, const struct mtop *t)
{
	sbuf_reset(l);
	sbuf_printf(l, "{pid=\"%d\",comm=\"", t->pid);
	metrics_label_value(l, t->comm, t->comm_len);
	sbuf_adds(l, "\"}");
	return sbuf_cstr(l);
}

static void render_top(const struct metrics *m, struct sbuf *b, struct sbuf *l, bool om)
{
	static const struct {
		const char *name, *unit, *help;
		enum metrics_type type;
	} fams[] = {
	    {"ptop_top_cpu_seconds", "seconds", "CPU time of one of the busiest processes.",
	     METRICS_COUNTER},
	    {"ptop_top_resident_memory_bytes", "bytes",
	     "Resident memory of one of the busiest processes.", METRICS_GAUGE},
	    {"ptop_top_virtual_memory_bytes", "bytes",
	     "Virtual memory of one of the busiest processes.", METRICS_GAUGE},
	    {"ptop_top_threads", NULL, "Threads of one of the busiest processes.", METRICS_GAUGE},
	};

	if (!m->o.top_pids)
		return;
	for (size_t k = 0; k < sizeof(fams) / sizeof(fams[0]); k++) {
		metrics_family(b, om, fams[k].name, fams[k].type, fams[k].unit, fams[k].help);
		for (size_t i = 0; i < m->ntop; i++) {
			const struct mtop *t = &m->top[i];
			double v = k == 0   ? (double)t->ticks / m->hz
				   : k == 1 ? (double)t->rss_kb * 1024
				   : k == 2 ? (double)t->vsz_kb * 1024
					    : (double)t->threads;

			metrics_sample(b, fams[k].name, k == 0 ? "_total" : "", top_labels(l, t),
				       v);
		}
	}
	if (!m->o.expose_cmdline)
		return;
	metrics_family(
	    b, om, "ptop_top_cmdline", METRICS_GAUGE, NULL,
	    "Always 1: the command line of one of the busiest processes (--expose-cmdline).");
	for (size_t i = 0; i < m->ntop; i++) {
		const struct mtop *t = &m->top[i];

		top_labels(l, t);
		l->len -= 1; /* the closing brace */
		sbuf_adds(l, ",cmdline=\"");
		if (t->has_cmd)
			metrics_label_value(l, m->top_cmd.p + t->cmd_off, t->cmd_len);
		sbuf_adds(l, "\"}");
		metrics_sample(b, "ptop_top_cmdline", "", sbuf_cstr(l), 1);
	}
}

/*
 * How the rows were read (full, kept, BPF): the last frame's with its source,
 * and a counter over all frames without it, as the source may change (auto).
 */
static void render_rows_read(const struct metrics *m, struct sbuf *b, bool om)
{
	static const char *const how[] = {"full", "kept", "bpf"};
	const unsigned last[] = {m->cost.read_full, m->cost.read_kept, m->cost.read_bpf};
	const char *src = m->cost.source ? m->cost.source : "procfs";
	struct sbuf l = {0};

	metrics_family(b, om, "ptop_frame_rows", METRICS_GAUGE, NULL,
		       "Rows of the last frame by how they were read (in full, kept from an "
		       "earlier frame as the process did not run since, from a BPF task "
		       "iterator) and the frame source.");
	for (size_t k = 0; k < 3; k++) {
		sbuf_reset(&l);
		sbuf_printf(&l, "{how=\"%s\",source=\"", how[k]);
		metrics_label_value(&l, src, strlen(src));
		sbuf_adds(&l, "\"}");
		metrics_sample(b, "ptop_frame_rows", "", sbuf_cstr(&l), (double)last[k]);
	}
	metrics_family(b, om, "ptop_rows_read", METRICS_COUNTER, NULL,
		       "Rows of all frames by how they were read.");
	for (size_t k = 0; k < 3; k++) {
		sbuf_reset(&l);
		sbuf_printf(&l, "{how=\"%s\"}", how[k]);
		metrics_sample(b, "ptop_rows_read", "_total", sbuf_cstr(&l), m->rows_read[k]);
	}
	sbuf_free(&l);
}

/* Where busy CPU went, as the frames accounted it: a counter per kind. */
static void render_accounted(const struct metrics *m, struct sbuf *b, bool om)
{
	static const char *const kind[ACCT_KINDS] = {
	    [ACCT_BUSY] = "busy",     [ACCT_IRQ] = "irq",   [ACCT_ROWS] = "rows",
	    [ACCT_EXITED] = "exited", [ACCT_LOST] = "lost", [ACCT_CHILDREN] = "children"};
	char l[32];

	metrics_family(b, om, "ptop_accounted_cpu_seconds", METRICS_COUNTER, "seconds",
		       "CPU time of the frames' intervals: busy (user, nice and system of the "
		       "cpu summary), irq (irq and softirq), and what explains busy: rows (the "
		       "processes listed), exited (processes that ended, from an exit hook), "
		       "lost (exits the hook's buffer could not hold), children (children their "
		       "parents reaped, not shown as rows before).");
	for (int k = 0; k < ACCT_KINDS; k++) {
		if (!m->exits && (k == ACCT_EXITED || k == ACCT_LOST))
			continue;
		snprintf(l, sizeof(l), "{kind=\"%s\"}", kind[k]);
		metrics_sample(b, "ptop_accounted_cpu_seconds", "_total", l, m->acct[k]);
	}
	if (!m->exits)
		return;
	metrics_family(b, om, "ptop_exits_lost", METRICS_COUNTER, NULL,
		       "Process exits the exit hook's buffer could not hold (their CPU is "
		       "counted as lost).");
	metrics_sample(b, "ptop_exits_lost", "_total", "", m->exits_lost);
}

static void render_cost(const struct metrics *m, struct sbuf *b, bool om)
{
	metrics_family(b, om, "ptop_frame_timestamp_seconds", METRICS_GAUGE, "seconds",
		       "When the frame these metrics come from was sampled (Unix time).");
	metrics_sample(b, "ptop_frame_timestamp_seconds", "", "",
		       (double)m->time.tv_sec + (double)m->time.tv_nsec / 1e9);
	metrics_family(b, om, "ptop_scan_duration_seconds", METRICS_GAUGE, "seconds",
		       "Wall time ptop took to build the last frame.");
	metrics_sample(b, "ptop_scan_duration_seconds", "", "", m->cost.wall_s);
	metrics_family(b, om, "ptop_scan_cpu_seconds", METRICS_GAUGE, "seconds",
		       "CPU time ptop spent building the last frame.");
	metrics_sample(b, "ptop_scan_cpu_seconds", "", "", m->cost.cpu_s);
	metrics_family(b, om, "ptop_scans", METRICS_COUNTER, NULL, "Frames built.");
	metrics_sample(b, "ptop_scans", "_total", "", (double)m->frames);
	metrics_family(b, om, "ptop_proc_descriptors", METRICS_GAUGE, NULL,
		       "Descriptors of /proc files ptop holds open between frames.");
	metrics_sample(b, "ptop_proc_descriptors", "", "", m->cost.fds_held);
	metrics_family(b, om, "ptop_proc_descriptor_budget", METRICS_GAUGE, NULL,
		       "Descriptors of /proc files ptop may hold open.");
	metrics_sample(b, "ptop_proc_descriptor_budget", "", "", m->cost.fd_budget);
	metrics_family(b, om, "ptop_frame_processes", METRICS_GAUGE, NULL,
		       "Processes in the last frame: read, or left out because they vanished "
		       "or could not be read.");
	metrics_sample(b, "ptop_frame_processes", "", "{outcome=\"read\"}", (double)m->nrows);
	metrics_sample(b, "ptop_frame_processes", "", "{outcome=\"vanished\"}", m->cost.vanished);
	metrics_sample(b, "ptop_frame_processes", "", "{outcome=\"unreadable\"}",
		       m->cost.unreadable);
	render_rows_read(m, b, om);
	render_accounted(m, b, om);
	metrics_family(b, om, "ptop_fallback_reads", METRICS_GAUGE, NULL,
		       "Reads of the last frame that opened and closed a file (over the budget).");
	metrics_sample(b, "ptop_fallback_reads", "", "", m->cost.fallback);
}

void metrics_render(const struct metrics *m, struct sbuf *b, bool openmetrics)
{
	struct sbuf l = {0};

	if (m->frames && m->o.names == METRICS_NAMES_PE) {
		render_pe(m, b, &l, openmetrics, m->facts);
		render_top(m, b, &l, openmetrics);
	} else if (m->frames) {
		render_groups(m, b, &l, openmetrics);
		render_faults(m, b, &l, openmetrics);
		render_facts(m, b, &l, openmetrics);
		render_other(m, b, openmetrics);
		render_io(m, b, &l, openmetrics);
		render_counters(m, b, &l, openmetrics);
		render_bps(m, b, &l, openmetrics);
		render_top(m, b, &l, openmetrics);
	}
	render_cost(m, b, openmetrics);
	sbuf_free(&l);
}
