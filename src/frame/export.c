// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * export.c: the metrics endpoint's part of a frame loop (see export.h):
 * each frame's rows sorted by CPU (busy newcomers take free group slots
 * first, the top processes are the first rows), folded into the aggregator,
 * rendered in both formats once and published to the server, so that
 * scrapes only copy. Touches /proc only through the pipeline, for the top
 * processes' command lines when they were asked for.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptop/export.h"
#include "ptop/pecfg.h"
#include "../proc/num.h"
#include "classify.h"

struct exporter {
	struct serve *srv;
	struct metrics *m;
	struct metrics_opts o;
	struct sbuf text, om;
	const struct frame_proc **rows; /* by CPU, busiest first */
	size_t cap;
	const struct frame_proc **exited; /* the processes that ended that the filter wants */
	size_t exited_cap;
	struct classifier *cls; /* --metrics-config's groups, or NULL */
	unsigned facts;		/* PROC_FACT_* the metrics want of each row */
	struct proc_facts *fx;	/* ... for each of rows */
	size_t fx_cap;
	struct fkept *kept, *kept_next; /* the last frame's facts, by PID and start */
	size_t nkept, nkept_next;
	struct sbuf kept_names; /* the last frame's wchans, which kept facts point into */
	unsigned long frames;
	struct proc_facts_bufs bufs; /* this frame's threads' wchans and counts */
	char note[256];
};

/*
 * What was read of a process at the last frame, and how much it had run:
 * a process of one thread that did not run since (its CPU time and context
 * switches the same) keeps its facts, as its descriptors, state and wchan
 * cannot change while it does not run. Its descriptor limit can (prlimit
 * from outside): read again when it next runs, or at the latest every
 * FACTS_RECHECK frames. Its proportional memory (process-exporter's names)
 * can too, as processes it shares pages with come and go: read again when
 * its resident or swapped size moved, or at the latest every
 * ROLLUP_RECHECK frames (a walk of its page tables, most of the cost of
 * those names).
 */
struct fkept {
	int pid;
	uint64_t start, ticks, vctx, nvctx;
	uint64_t rss_kb, swap_kb;	 /* at the rollup's read */
	unsigned long read, rollup_read; /* the frames they were read at */
	struct proc_facts f;
};
#define FACTS_RECHECK 64
#define ROLLUP_RECHECK 8

/* metrics_opts.group: the configuration's group of p. */
static const char *config_group(const void *arg, const struct frame_proc *p, size_t *len)
{
	return classifier_group(arg, p, len);
}

/*
 * PTOP_TEST_METRICS_SCALE: how much faster the clock of the groups' windows
 * runs (5 minutes of averages, 10 of tenure, an hour between warnings), for
 * tests only: 1 to METRICS_MAX_TIME_SCALE. -EINVAL when it is not that.
 */
static int time_scale(double *out)
{
	const char *s = getenv("PTOP_TEST_METRICS_SCALE"), *p = s;
	uint64_t v;

	*out = 1;
	if (!s)
		return 0;
	if (num_u64(&p, s + strlen(s), &v) || *p || v < 1 || v > METRICS_MAX_TIME_SCALE)
		return -EINVAL;
	*out = (double)v;
	return 0;
}

unsigned exporter_needs(const struct exporter *x)
{
	const struct metrics_opts *mo = &x->o;
	/* exact RSS for the groups' memory, status for their context switches, io for their
	 * bytes, the rows' sides for their page faults */
	unsigned needs = PROC_NEED(PROC_FILE_STATM) | PROC_NEED(PROC_FILE_STATUS) |
			 PROC_NEED(PROC_FILE_IO) | FRAME_NEED_SIDE;

	if (mo->group_by == METRICS_BY_CGROUP && !x->cls)
		needs |= PROC_NEED(PROC_FILE_CGROUP);
	if (x->cls)
		needs |= classifier_needs(x->cls);
	/* from the source where it has them (the BPF walk), else from /proc */
	if (x->facts & PROC_FACT_FDS)
		needs |= FRAME_NEED_FDS;
	return needs;
}

int exporter_start(const struct serve_addr *a, const struct metrics_opts *mo, struct exporter **out,
		   char msg[256])
{
	struct exporter *x;
	bool v6 = strchr(a->host, ':');
	int err;

	*out = NULL;
	x = xcalloc(1, sizeof(*x));
	x->o = *mo;
	if (time_scale(&x->o.time_scale)) {
		snprintf(msg, 256, _("ptop: %s=%s is not a value it takes (ptop(1), ENVIRONMENT)"),
			 "PTOP_TEST_METRICS_SCALE", getenv("PTOP_TEST_METRICS_SCALE"));
		free(x);
		return -EINVAL;
	}
	if (mo->config) {
		struct sbuf why = {0}, warn = {0};
		struct pecfg *cfg;

		err = pecfg_read(mo->config, &cfg, &why, &warn);
		if (warn.len)
			fprintf(stderr, "%s", sbuf_cstr(&warn));
		if (err && why.len)
			snprintf(msg, 256, "%.*s",
				 why.p[why.len - 1] == '\n' ? (int)why.len - 1 : (int)why.len,
				 why.p);
		else if (err)
			snprintf(msg, 256, _("ptop: cannot read %s: %s"), mo->config,
				 strerror(-err));
		sbuf_free(&why);
		sbuf_free(&warn);
		if (err) {
			free(x);
			return err;
		}
		x->cls = classifier_new(cfg);
		x->o.group = config_group;
		x->o.group_arg = x->cls;
	}
	x->facts = metrics_facts(&x->o);
	err = serve_start(a, &x->srv);
	if (err) {
		snprintf(msg, 256, _("ptop: cannot listen on %s%s%s:%u: %s"), v6 ? "[" : "",
			 a->host, v6 ? "]" : "", a->port, strerror(-err));
		classifier_free(x->cls);
		free(x);
		return err;
	}
	x->m = metrics_new(&x->o);
	snprintf(msg, 256, _("ptop: serving metrics on http://%s%s%s:%u/metrics"), v6 ? "[" : "",
		 a->host, v6 ? "]" : "", serve_port(x->srv));
	*out = x;
	return 0;
}

/*
 * What the metrics want of each row beyond it (process-exporter's facts):
 * read for the processes in a group only, as process-exporter reads the
 * processes it tracks; a thread's row (-H) has none of its own.
 */
static int by_pid_start(const void *a, const void *b)
{
	const struct fkept *x = a, *y = b;

	if (x->pid != y->pid)
		return (x->pid > y->pid) - (x->pid < y->pid);
	return (x->start > y->start) - (x->start < y->start);
}

/* The last frame's facts of q, when it did not run since and they may be kept. */
static const struct fkept *kept_facts(const struct exporter *x, const struct frame_proc *q)
{
	struct fkept key = {.pid = q->pid, .start = q->start_ticks};
	const struct fkept *k;

	if (q->threads > 1 || !x->nkept)
		return NULL;
	k = bsearch(&key, x->kept, x->nkept, sizeof(*x->kept), by_pid_start);
	if (!k || k->ticks != q->utime + q->stime || k->vctx != q->vctxsw ||
	    k->nvctx != q->nvctxsw || x->frames - k->read >= FACTS_RECHECK ||
	    k->f.states[proc_tstate_of(q->state)] != 1)
		return NULL;
	return k;
}

/*
 * k's facts for q into *out, its wchan copied into this frame's names, its
 * proportional memory read again when kept_facts() says it moved or is due.
 */
static void keep_facts(struct exporter *x, struct pipeline *p, const struct frame_proc *q,
		       const struct fkept *k, struct fkept *nk, struct proc_facts *out)
{
	struct proc_facts r;

	*out = k->f;
	out->failed = 0; /* counted when they were read */
	nk->read = k->read;
	if (k->f.nwchan) { /* one thread: one name */
		const char *w = x->kept_names.p + k->f.wchan_off;

		out->wchan_off = x->bufs.names.len;
		sbuf_add(&x->bufs.names, w, strlen(w) + 1);
	}
	if (!(x->facts & PROC_FACT_ROLLUP))
		return;
	if (k->rss_kb == q->rss_kb && k->swap_kb == q->swap_kb &&
	    x->frames - k->rollup_read < ROLLUP_RECHECK) {
		nk->rss_kb = k->rss_kb;
		nk->swap_kb = k->swap_kb;
		nk->rollup_read = k->rollup_read;
		return;
	}
	pipeline_facts(p, q, PROC_FACT_ROLLUP, &r, &x->bufs);
	out->rollup = r.rollup;
	out->has_rollup = r.has_rollup;
	out->failed = r.failed;
}

/*
 * What the metrics want of each row beyond it: read for the processes in a
 * group only (as process-exporter reads the processes it tracks), kept from
 * the last frame where kept_facts() allows; a thread's row (-H) has none of
 * its own.
 */
static void read_facts(struct exporter *x, struct pipeline *p, const struct frame *f, size_t n)
{
	struct sbuf names;
	struct fkept *t;

	if (x->fx_cap < n) {
		x->fx_cap = n + n / 4 + 16;
		x->fx = xreallocarray(x->fx, x->fx_cap, sizeof(*x->fx));
		x->kept = xreallocarray(x->kept, x->fx_cap, sizeof(*x->kept));
		x->kept_next = xreallocarray(x->kept_next, x->fx_cap, sizeof(*x->kept_next));
	}
	x->frames++;
	x->nkept_next = 0;
	/* the last frame's names stay readable while kept facts are copied from them */
	names = x->kept_names;
	x->kept_names = x->bufs.names;
	x->bufs.names = names;
	sbuf_reset(&x->bufs.names);
	x->bufs.nthr = 0;
	for (size_t i = 0; i < n; i++) {
		const struct frame_proc *q = x->rows[i];
		const struct fkept *k;
		struct fkept *nk;
		size_t len;

		memset(&x->fx[i], 0, sizeof(x->fx[i]));
		if ((f->threads && q->pid != q->tgid) ||
		    (x->cls && !classifier_group(x->cls, q, &len)))
			continue;
		nk = &x->kept_next[x->nkept_next++];
		*nk = (struct fkept){.pid = q->pid,
				     .start = q->start_ticks,
				     .ticks = q->utime + q->stime,
				     .vctx = q->vctxsw,
				     .nvctx = q->nvctxsw,
				     .rss_kb = q->rss_kb,
				     .swap_kb = q->swap_kb,
				     .read = x->frames,
				     .rollup_read = x->frames};
		k = kept_facts(x, q);
		if (k)
			keep_facts(x, p, q, k, nk, &x->fx[i]);
		else
			pipeline_facts(p, q, x->facts, &x->fx[i], &x->bufs);
		nk->f = x->fx[i];
	}
	/* the names' buffer moved as it grew: point into it now */
	for (size_t i = 0; i < n; i++) {
		x->fx[i].wchans = x->fx[i].nwchan ? x->bufs.names.p + x->fx[i].wchan_off : NULL;
		x->fx[i].thr = x->fx[i].nthr ? x->bufs.thr + x->fx[i].thr_off : NULL;
	}
	if (x->nkept_next > 1) /* qsort takes no NULL, even for none */
		qsort(x->kept_next, x->nkept_next, sizeof(*x->kept_next), by_pid_start);
	t = x->kept;
	x->kept = x->kept_next;
	x->kept_next = t;
	x->nkept = x->nkept_next;
}

const char *exporter_frame(struct exporter *x, struct pipeline *p, struct frame *f,
			   const struct frame_proc *const *rows, size_t n,
			   const struct row_filter *flt)
{
	size_t nexited;
	const char *root;
	bool live;

	static const struct row_order by_cpu = {.field = FIELD_CPU};
	size_t ntop, given = rows ? n : f->nprocs;

	if (x->cap < given) {
		x->cap = f->cap > given ? f->cap : given;
		x->rows = xreallocarray(x->rows, x->cap, sizeof(*x->rows));
	}
	n = 0;
	for (size_t i = 0; i < given; i++) {
		const struct frame_proc *q = rows ? rows[i] : &f->procs[i];

		/* a thread's row among processes (the viewer's user threads) is in its process's */
		if (f->threads || !frame_proc_is_thread(q))
			x->rows[n++] = q;
	}
	rows_sort(x->rows, n, &by_cpu);
	ntop = n < x->o.top_pids ? n : x->o.top_pids;
	if (x->o.expose_cmdline && ntop)
		pipeline_cmdlines(p, f, x->rows, ntop);
	if (x->exited_cap < f->nexited) {
		x->exited_cap = f->nexited;
		x->exited = xreallocarray(x->exited, x->exited_cap, sizeof(*x->exited));
	}
	nexited = rows_select_exited(f, flt, NULL, x->exited);
	live = !pipeline_live_root(p, &root);
	if (x->cls)
		classifier_frame(x->cls, root, live, f, x->rows, n, x->exited, nexited);
	if (x->facts && live)
		read_facts(x, p, f, n);
	metrics_update(x->m, f, x->rows, n, x->exited, nexited, x->facts && live ? x->fx : NULL);
	sbuf_reset(&x->text);
	sbuf_reset(&x->om);
	metrics_render(x->m, &x->text, false);
	metrics_render(x->m, &x->om, true);
	serve_publish(x->srv, x->text.p, x->text.len, x->om.p, x->om.len);
	if (!metrics_other_warning(x->m))
		return NULL;
	snprintf(x->note, sizeof(x->note),
		 _("ptop: metrics: the group 'other' held %.1f%% of the CPUs and %.1f%% of "
		   "the memory over the last 5 minutes; more groups (--max-groups, now %u) "
		   "would give its processes series of their own"),
		 metrics_other_share(x->m, false) * 100, metrics_other_share(x->m, true) * 100,
		 x->o.max_groups);
	return x->note;
}

void exporter_stop(struct exporter *x)
{
	if (!x)
		return;
	serve_stop(x->srv);
	metrics_free(x->m);
	sbuf_free(&x->text);
	sbuf_free(&x->om);
	free(x->rows);
	free(x->exited);
	free(x->fx);
	free(x->kept);
	free(x->kept_next);
	sbuf_free(&x->bufs.scratch);
	sbuf_free(&x->bufs.names);
	sbuf_free(&x->kept_names);
	free(x->bufs.thr);
	classifier_free(x->cls);
	free(x);
}
