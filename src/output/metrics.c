// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * metrics.c: frames as Prometheus metrics (see metrics.h). Groups live in a
 * fixed array of max_groups slots plus "other"; a key takes a free slot, or
 * the slot of a group that has had no process for METRICS_STALE_FRAMES
 * frames, else it is counted in "other". Counters are sums of per-process
 * deltas between frames (matched by PID and start time), so they only grow.
 * Reads frames only; no I/O.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptop/metrics.h"
#include "ptop/output.h"

#define GROUP_KEY_MAX 64

struct mgroup {
	char key[GROUP_KEY_MAX];
	uint8_t len;
	bool used;
	unsigned long last_seen; /* frame number */
	/* counters: only grow */
	double cpu_s;		      /* seconds */
	double vctx, nvctx;	      /* context switches */
	double ctr[FRAME_MAX_EVENTS]; /* counter events of attached processes */
	double io_read, io_write;     /* bytes from and to storage */
	bool has_io;		      /* a process's io was readable once: the I/O series exist */
	/* gauges of the last frame */
	uint64_t rss_kb, vsz_kb; /* KiB */
	uint64_t procs, threads;
};

/* What a process had at the last frame, to count the next frame's deltas. */
struct mtrack {
	int pid;
	uint32_t group;
	uint64_t start; /* clock ticks after boot: tells a reused PID */
	uint64_t ticks; /* utime + stime */
	uint64_t vctx, nvctx;
	uint64_t io_read, io_write; /* bytes from and to storage, since start */
	bool has_io;
};

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
	struct mgroup *groups; /* o.max_groups, then "other" */
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
	bool exits;	   /* the last frame's source lists processes that ended */
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
	m->groups = xcalloc(m->o.max_groups + 1, sizeof(*m->groups));
	memcpy(m->groups[m->o.max_groups].key, "other", 5);
	m->groups[m->o.max_groups].len = 5;
	m->groups[m->o.max_groups].used = true;
	if (m->o.top_pids)
		m->top = xcalloc(m->o.top_pids, sizeof(*m->top));
	return m;
}

void metrics_free(struct metrics *m)
{
	if (!m)
		return;
	free(m->groups);
	free(m->prev);
	free(m->cur);
	free(m->top);
	free(m->bps);
	sbuf_free(&m->top_cmd);
	free(m);
}

static bool key_is(const struct mgroup *g, const char *k, size_t len)
{
	return g->used && g->len == len && !memcmp(g->key, k, len);
}

/* The slot of key k: its own, a free or stale one, or "other". */
static uint32_t group_of(struct metrics *m, const char *k, size_t len)
{
	uint32_t other = m->o.max_groups, slot = other;

	if (len > GROUP_KEY_MAX)
		len = GROUP_KEY_MAX;
	/* a process really named "other" is counted with the rest: one series */
	if (key_is(&m->groups[other], k, len))
		return other;
	for (uint32_t i = 0; i < other; i++)
		if (key_is(&m->groups[i], k, len))
			return i;
	for (uint32_t i = 0; i < other && slot == other; i++)
		if (!m->groups[i].used || m->frames - m->groups[i].last_seen > METRICS_STALE_FRAMES)
			slot = i;
	if (slot != other) {
		struct mgroup *g = &m->groups[slot];

		/* an evicted group's series end; Prometheus takes the new ones as new */
		memset(g, 0, sizeof(*g));
		memcpy(g->key, k, len);
		g->len = (uint8_t)len;
		g->used = true;
	}
	return slot;
}

static uint32_t row_group(struct metrics *m, const struct frame_proc *p)
{
	char uid[16];
	const char *k;

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

static int by_pid(const void *a, const void *b)
{
	const struct mtrack *x = a, *y = b;

	return (x->pid > y->pid) - (x->pid < y->pid);
}

static uint64_t grown(uint64_t now, uint64_t then)
{
	return now > then ? now - then : 0;
}

/* Add to each group what its processes did since the last frame (all of it for new ones). */
static void add_deltas(struct metrics *m, size_t n)
{
	size_t j = 0;

	qsort(m->cur, n, sizeof(*m->cur), by_pid);
	for (size_t i = 0; i < n; i++) {
		const struct mtrack *c = &m->cur[i], *p = NULL;
		struct mgroup *g = &m->groups[c->group];

		while (j < m->nprev && m->prev[j].pid < c->pid)
			j++;
		if (j < m->nprev && m->prev[j].pid == c->pid && m->prev[j].start == c->start)
			p = &m->prev[j];
		g->cpu_s += (double)(p ? grown(c->ticks, p->ticks) : c->ticks) / m->hz;
		g->vctx += (double)(p ? grown(c->vctx, p->vctx) : c->vctx);
		g->nvctx += (double)(p ? grown(c->nvctx, p->nvctx) : c->nvctx);
		if (!c->has_io)
			continue;
		/* io refused before counts as first seen: all of it since the start */
		if (p && !p->has_io)
			p = NULL;
		g->has_io = true;
		g->io_read += (double)(p ? grown(c->io_read, p->io_read) : c->io_read);
		g->io_write += (double)(p ? grown(c->io_write, p->io_write) : c->io_write);
	}
	{
		struct mtrack *t = m->prev;

		m->prev = m->cur;
		m->cur = t;
		m->nprev = n;
	}
}

static void add_row(struct metrics *m, const struct frame *f, const struct frame_proc *p,
		    struct mtrack *t)
{
	uint32_t gi = row_group(m, p);
	struct mgroup *g = &m->groups[gi];

	g->last_seen = m->frames;
	g->rss_kb += p->rss_kb;
	g->vsz_kb += p->vsize_kb;
	if (f->threads) {
		g->threads++;
		g->procs += p->pid == p->tgid;
	} else {
		g->procs++;
		g->threads += p->threads > 0 ? (uint64_t)p->threads : 1;
	}
	if (f->counters.on && p->has_ctr)
		for (int e = 0; e < f->counters.nevents && e < FRAME_MAX_EVENTS; e++)
			if (ctr_counted(p, e) && p->ctr[e] > 0)
				g->ctr[e] += p->ctr[e];
	*t = (struct mtrack){.pid = p->pid,
			     .group = gi,
			     .start = p->start_ticks,
			     .ticks = p->utime + p->stime,
			     .vctx = p->vctxsw,
			     .nvctx = p->nvctxsw,
			     .io_read = p->io_read_bytes,
			     .io_write = p->io_write_bytes,
			     .has_io = p->has_io};
}

/*
 * The processes that ended in the interval (an exit hook's records) into
 * their groups: what the accounting gave the interval of their CPU and
 * storage bytes (since their last row, all of it for one never seen), so a
 * process that lived between two frames counts too.
 */
static void add_exited(struct metrics *m, const struct frame *f,
		       const struct frame_proc *const *exited, size_t nexited)
{
	for (size_t i = 0; i < nexited; i++) {
		const struct frame_proc *e = exited[i];
		struct mgroup *g = &m->groups[row_group(m, e)];

		g->cpu_s += e->cpu_pct / 100.0 * f->interval_s;
		g->last_seen = m->frames;
		if (!e->has_io)
			continue;
		g->has_io = true;
		g->io_read += (double)e->io_read_rate * f->interval_s;
		g->io_write += (double)e->io_write_rate * f->interval_s;
	}
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

void metrics_update(struct metrics *m, const struct frame *f, const struct frame_proc *const *rows,
		    size_t n, const struct frame_proc *const *exited, size_t nexited)
{
	m->frames++;
	m->hz = f->hz > 0 ? (double)f->hz : 100.0;
	for (unsigned i = 0; i <= m->o.max_groups; i++) {
		struct mgroup *g = &m->groups[i];

		g->rss_kb = g->vsz_kb = g->procs = g->threads = 0;
	}
	if (m->cap < n) {
		m->cap = n + n / 4 + 16;
		m->cur = xreallocarray(m->cur, m->cap, sizeof(*m->cur));
		m->prev = xreallocarray(m->prev, m->cap, sizeof(*m->prev));
	}
	for (size_t i = 0; i < n; i++)
		add_row(m, f, rows[i], &m->cur[i]);
	add_exited(m, f, exited, nexited);
	add_deltas(m, n);
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
	sbuf_adds(l, m->o.group_by == METRICS_BY_COMM	? "{comm=\""
		     : m->o.group_by == METRICS_BY_USER ? "{user=\""
							: "{cgroup=\"");
	metrics_label_value(l, g->key, g->len);
	sbuf_printf(l, "\"%s}", extra);
	return sbuf_cstr(l);
}

/* A gauge or counter with a value per group. */
static void per_group(const struct metrics *m, struct sbuf *b, struct sbuf *l, bool om,
		      const char *name, enum metrics_type type, const char *unit, const char *help,
		      size_t field, double scale)
{
	metrics_family(b, om, name, type, unit, help);
	for (unsigned i = 0; i <= m->o.max_groups; i++) {
		const struct mgroup *g = &m->groups[i];
		double v;

		if (!g->used)
			continue;
		if (type == METRICS_COUNTER)
			v = *(const double *)((const char *)g + field);
		else
			v = (double)*(const uint64_t *)((const char *)g + field);
		metrics_sample(b, name, type == METRICS_COUNTER ? "_total" : "",
			       group_labels(m, l, g, ""), v * scale);
	}
}

static void render_groups(const struct metrics *m, struct sbuf *b, struct sbuf *l, bool om)
{
	per_group(m, b, l, om, "ptop_group_cpu_seconds", METRICS_COUNTER, "seconds",
		  "CPU time (user and system) of the group's processes while ptop watched them.",
		  offsetof(struct mgroup, cpu_s), 1);
	per_group(m, b, l, om, "ptop_group_resident_memory_bytes", METRICS_GAUGE, "bytes",
		  "Resident memory of the group's processes.", offsetof(struct mgroup, rss_kb),
		  1024);
	per_group(m, b, l, om, "ptop_group_virtual_memory_bytes", METRICS_GAUGE, "bytes",
		  "Virtual memory of the group's processes.", offsetof(struct mgroup, vsz_kb),
		  1024);
	per_group(m, b, l, om, "ptop_group_processes", METRICS_GAUGE, NULL,
		  "Processes in the group.", offsetof(struct mgroup, procs), 1);
	per_group(m, b, l, om, "ptop_group_threads", METRICS_GAUGE, NULL,
		  "Threads of the group's processes.", offsetof(struct mgroup, threads), 1);
	metrics_family(b, om, "ptop_group_context_switches", METRICS_COUNTER, NULL,
		       "Context switches of the group's processes while ptop watched them.");
	for (unsigned i = 0; i <= m->o.max_groups; i++) {
		const struct mgroup *g = &m->groups[i];

		if (!g->used)
			continue;
		metrics_sample(b, "ptop_group_context_switches", "_total",
			       group_labels(m, l, g, ",kind=\"voluntary\""), g->vctx);
		metrics_sample(b, "ptop_group_context_switches", "_total",
			       group_labels(m, l, g, ",kind=\"involuntary\""), g->nvctx);
	}
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
	     offsetof(struct mgroup, io_read)},
	    {"ptop_group_io_write_bytes",
	     "Bytes the group's processes caused to be written to storage while ptop watched them.",
	     offsetof(struct mgroup, io_write)},
	};
	bool any = false;

	for (unsigned i = 0; i <= m->o.max_groups; i++)
		any |= m->groups[i].used && m->groups[i].has_io;
	/* no series rather than a false zero where no process's io is readable */
	if (!any)
		return;
	for (size_t k = 0; k < sizeof(fams) / sizeof(fams[0]); k++) {
		metrics_family(b, om, fams[k].name, METRICS_COUNTER, "bytes", fams[k].help);
		for (unsigned i = 0; i <= m->o.max_groups; i++) {
			const struct mgroup *g = &m->groups[i];

			if (!g->used || !g->has_io)
				continue;
			metrics_sample(b, fams[k].name, "_total", group_labels(m, l, g, ""),
				       *(const double *)((const char *)g + fams[k].field));
		}
	}
}

static void render_counters(const struct metrics *m, struct sbuf *b, struct sbuf *l, bool om)
{
	struct sbuf ev = {0};

	if (!m->counters_on)
		return;
	metrics_family(b, om, "ptop_counters_attached", METRICS_GAUGE, NULL,
		       "Processes with counters attached (see --counter-budget).");
	metrics_sample(b, "ptop_counters_attached", "", "", m->attached);
	metrics_family(b, om, "ptop_group_perf_events", METRICS_COUNTER, NULL,
		       "Counted events (perf_event_open) of the group's attached processes.");
	for (unsigned i = 0; i <= m->o.max_groups; i++) {
		const struct mgroup *g = &m->groups[i];

		if (!g->used)
			continue;
		for (int e = 0; e < m->nevents; e++) {
			sbuf_reset(&ev);
			sbuf_adds(&ev, ",event=\"");
			metrics_label_value(&ev, m->names[e],
					    strnlen(m->names[e], FRAME_EVENT_NAME));
			sbuf_addc(&ev, '"');
			metrics_sample(b, "ptop_group_perf_events", "_total",
				       group_labels(m, l, g, sbuf_cstr(&ev)), g->ctr[e]);
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

	if (m->frames) {
		render_groups(m, b, &l, openmetrics);
		render_io(m, b, &l, openmetrics);
		render_counters(m, b, &l, openmetrics);
		render_bps(m, b, &l, openmetrics);
		render_top(m, b, &l, openmetrics);
	}
	render_cost(m, b, openmetrics);
	sbuf_free(&l);
}
