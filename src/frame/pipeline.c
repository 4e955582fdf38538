// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pipeline.c: the frame pipeline (see pipeline.h): the sampler, the
 * observer and the watches assembled once, with one policy for what fails
 * (an unknown event is a usage error, counters that cannot start are dropped
 * with a warning or left for later, a watch that cannot be armed ends the
 * run), and each frame read as the presenter asks. Touches /proc through
 * src/proc and perf_event_open through src/perf only.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptop/pipeline.h"
#include "ptop/record.h"

#include "account.h"
#include "delta.h"

struct pipeline {
	struct source src;
	unsigned provides;     /* the source's SOURCE_* */
	struct observer *ob;   /* NULL: perf events could not be set up, or not live */
	struct account *acct;  /* live frames: the busy CPU's whereabouts */
	struct deltas *deltas; /* live frames: what each process did since the frame before */
	struct observer_opts oo;
	const char *root;
	int *view; /* the request's rows in view, sorted for the sampler */
	size_t view_cap;
	const struct frame_proc **live; /* rows handed in, without exited ones (live_rows) */
	size_t live_cap;
};

static int fail(struct pipeline_error *e, int status, int err, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int fail(struct pipeline_error *e, int status, int err, const char *fmt, ...)
{
	va_list ap;

	e->status = status;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	return err;
}

/* The observer, or none when perf events cannot be had: frames come all the same. */
static int start_observer(struct pipeline *p, const struct pipeline_opts *o,
			  struct pipeline_error *e)
{
	const char *bad = NULL;
	int err;

	p->oo = o->observe;
	p->oo.root = o->root;
	err = observer_new(&p->oo, &p->ob, &bad);
	if (err == -ENOENT)
		return fail(e, 2, err, _("ptop: unknown event '%s'"), bad ? bad : "?");
	if (err && p->oo.counters) {
		struct observer_opts plain = p->oo;

		/* counters are an extra: without them the frames still come */
		if (o->counters_optional)
			snprintf(e->msg, sizeof(e->msg), _("ptop: counters unavailable: %s"),
				 strerror(-err));
		plain.counters = false;
		if (observer_new(&plain, &p->ob, NULL))
			p->ob = NULL;
	} else if (err) {
		p->ob = NULL;
	}
	return 0;
}

int pipeline_new(const struct pipeline_opts *o, struct pipeline **out, struct pipeline_error *e)
{
	struct frame_source_opts so = {.root = o->root, .replay = o->replay};
	struct pipeline *p = xcalloc(1, sizeof(*p));
	int err;

	*out = NULL;
	e->status = 0;
	e->msg[0] = '\0';
	p->root = o->root;
	err = source_open(o->source, &so, &p->src, e->msg, sizeof(e->msg));
	if (err) {
		e->status = 1;
		free(p);
		return err;
	}
	p->provides = p->src.ops->provides(p->src.s);
	if (!(p->provides & SOURCE_LIVE)) {
		*out = p;
		return 0;
	}
	p->acct = account_new();
	p->deltas = deltas_new();
	err = start_observer(p, o, e);
	for (size_t i = 0; !err && i < o->nwatches; i++) {
		struct perf_bp_spec w = o->watches[i];
		char why[512];

		err = p->ob ? observer_watch(p->ob, &w) : -ENODEV;
		if (err) {
			pipeline_watch_error(&w, err, why, sizeof(why));
			fail(e, 1, err, _("ptop: cannot watch %d: %s"), w.pid, why);
		}
	}
	if (err) {
		pipeline_free(p);
		return err;
	}
	*out = p;
	return 0;
}

void pipeline_free(struct pipeline *p)
{
	if (!p)
		return;
	observer_free(p->ob);
	account_free(p->acct);
	deltas_free(p->deltas);
	source_close(&p->src);
	free(p->view);
	free(p->live);
	free(p);
}

static int pid_cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

int pipeline_frame(struct pipeline *p, const struct pipeline_request *r, struct frame *f)
{
	struct sampler_opts so = {.root = p->root,
				  .needs = r->needs,
				  .threads = r->threads,
				  .user_threads = r->user_threads,
				  .per_cpu = r->per_cpu,
				  .sysio = r->sysio,
				  .psi = r->psi,
				  .read_less = r->read_less,
				  .needs_all = r->needs_all,
				  .needs_lazy = r->needs_lazy};
	int err;

	if (r->read_less && r->nview) {
		if (p->view_cap < r->nview) {
			p->view_cap = r->nview;
			p->view = xreallocarray(p->view, p->view_cap, sizeof(*p->view));
		}
		memcpy(p->view, r->view, r->nview * sizeof(*p->view));
		qsort(p->view, r->nview, sizeof(*p->view), pid_cmp);
		so.view = p->view;
		so.nview = r->nview;
	}
	if (p->ob)
		observer_begin(p->ob);
	err = p->src.ops->frame(p->src.s, &so, f);
	if (!err && p->acct)
		account_frame(p->acct, f);
	if (!err && p->deltas)
		deltas_frame(p->deltas, f);
	if (!err)
		field_derive_rows(f);
	/* a recording keeps the counts, not what is derived from them */
	if (!err && !p->ob && f->counters.on)
		ctr_derive_rows(f);
	return err;
}

/* Whether r is a row of f->procs (not an exited process's row in f->exited). */
static bool live_row(const struct frame *f, const struct frame_proc *r)
{
	return r >= f->procs && r < f->procs + f->nprocs;
}

/*
 * rows without the exited processes' (which nothing observes, completes or
 * reads a command line of: they are gone): rows itself when it has none,
 * else a copy in p->live. How many in *n.
 */
static const struct frame_proc *const *live_rows(struct pipeline *p, const struct frame *f,
						 const struct frame_proc *const *rows, size_t *n)
{
	size_t k = 0, i;

	for (i = 0; i < *n && live_row(f, rows[i]); i++)
		;
	if (i == *n)
		return rows;
	if (p->live_cap < *n) {
		p->live_cap = *n;
		p->live = xreallocarray(p->live, p->live_cap, sizeof(*p->live));
	}
	for (i = 0; i < *n; i++)
		if (live_row(f, rows[i]))
			p->live[k++] = rows[i];
	*n = k;
	return p->live;
}

void pipeline_observe(struct pipeline *p, struct frame *f, const struct frame_proc *const *rows,
		      size_t n, bool counters, bool perf_fds)
{
	if (!p->ob)
		return;
	rows = live_rows(p, f, rows, &n);
	observer_set(p->ob, counters, perf_fds);
	observer_update(p->ob, f, rows, n);
	/* the figures derived from the counts are columns: they sort as the counts do
	 * (none without counters, when no row has a count) */
	if (f->counters.on)
		ctr_derive_rows(f);
}

size_t pipeline_select(struct pipeline *p, struct frame *f, const struct row_filter *flt,
		       const struct row_order *ord, const struct frame_proc **rows, bool counters,
		       bool perf_fds)
{
	size_t n;

	if (!field_defs[ord->field].observer) {
		n = rows_select(f, flt, ord, rows);
		pipeline_observe(p, f, rows, n, counters, perf_fds);
		return n;
	}
	/* sorted by what the observer fills: observe first, then sort */
	n = rows_select(f, flt, NULL, rows);
	pipeline_observe(p, f, rows, n, counters, perf_fds);
	rows_sort(rows, n, ord);
	return n;
}

void pipeline_complete(struct pipeline *p, struct frame *f, const struct frame_proc *const *rows,
		       size_t n)
{
	if (!p->src.ops->complete)
		return; /* a replay's rows are as they were recorded */
	rows = live_rows(p, f, rows, &n);
	for (size_t i = 0; i < n; i++) {
		/* rows point into f->procs, which the caller owns and lets us fill */
		struct frame_proc *q = &f->procs[rows[i] - f->procs];

		if (q->kept)
			p->src.ops->complete(p->src.s, f, q);
	}
}

void pipeline_cmdlines(struct pipeline *p, struct frame *f, const struct frame_proc *const *rows,
		       size_t n)
{
	if (!p->src.ops->cmdline)
		return; /* a replay's rows are as they were recorded */
	rows = live_rows(p, f, rows, &n);
	for (size_t i = 0; i < n; i++) {
		/* rows point into f->procs, which the caller owns and lets us fill */
		struct frame_proc *q = &f->procs[rows[i] - f->procs];

		if (!q->has_cmd)
			p->src.ops->cmdline(p->src.s, f, q);
	}
}

int pipeline_counters_start(struct pipeline *p)
{
	if (!p->ob)
		return -ENODEV;
	return observer_counters_start(p->ob, NULL);
}

int pipeline_counters_set(struct pipeline *p, const char *const *events, int n, const char **bad)
{
	if (!p->ob)
		return -ENODEV;
	return observer_counters_set(p->ob, events, n, bad);
}

void pipeline_watch_error(const struct perf_bp_spec *spec, int err, char *buf, size_t cap)
{
	const char *what = spec->symbol[0] ? spec->symbol : spec->region;

	if (err == -ENOTUNIQ)
		snprintf(buf, cap, _("%s is in more than one file: %s (write LIB:NAME)"), what,
			 spec->cand);
	else if (err == -ENODATA && spec->cand[0])
		snprintf(buf, cap, _("no variable %s; names containing it: %s"), what, spec->cand);
	else if (err == -ENODATA)
		snprintf(buf, cap, _("no variable %s in the process's executable or libraries"),
			 what);
	else
		snprintf(buf, cap, "%s", _(perf_bp_strerror(err)));
}

int pipeline_watch(struct pipeline *p, struct perf_bp_spec *spec)
{
	return p->ob ? observer_watch(p->ob, spec) : -ENODEV;
}

void pipeline_unwatch(struct pipeline *p, size_t i)
{
	if (p->ob)
		observer_unwatch(p->ob, i);
}

size_t pipeline_nwatches(const struct pipeline *p)
{
	return p->ob ? observer_nwatches(p->ob) : 0;
}

const char *pipeline_source_note(const struct pipeline *p)
{
	return p->src.note;
}

int pipeline_live_root(const struct pipeline *p, const char **root)
{
	*root = p->root;
	return p->provides & SOURCE_LIVE ? 0 : -ENODEV;
}

int pipeline_facts(struct pipeline *p, const struct frame_proc *q, unsigned what,
		   struct proc_facts *out, struct proc_facts_bufs *b)
{
	unsigned got = 0;

	memset(out, 0, sizeof(*out));
	if (!(p->provides & SOURCE_LIVE))
		return -ENODEV;
	if (p->src.ops->facts)
		got = p->src.ops->facts(p->src.s, q, what, out, b);
	return proc_facts_read(p->root, q->pid, q->threads, q->state, what & ~got, out, b);
}

bool pipeline_observes(const struct pipeline *p)
{
	return p->ob != NULL;
}

struct record_reader *pipeline_replay(struct pipeline *p)
{
	return p->provides & SOURCE_SEEK ? replay_source_reader(p->src.s) : NULL;
}

void pipeline_seek(struct pipeline *p, uint64_t n)
{
	if (p->src.ops->seek)
		p->src.ops->seek(p->src.s, n, SOURCE_SEEK_EXACT);
}

void pipeline_travel(struct pipeline *p, uint64_t n, bool back)
{
	if (p->src.ops->seek)
		p->src.ops->seek(p->src.s, n,
				 back ? SOURCE_SEEK_NEAREST_BACK : SOURCE_SEEK_NEAREST_FORWARD);
}

uint64_t pipeline_position(const struct pipeline *p)
{
	return p->provides & SOURCE_SEEK ? replay_source_position(p->src.s) : 0;
}

uint64_t pipeline_replay_skipped(const struct pipeline *p)
{
	return p->provides & SOURCE_SEEK ? replay_source_skipped(p->src.s) : 0;
}

const char *pipeline_replay_error(const struct pipeline *p)
{
	return p->provides & SOURCE_SEEK ? replay_source_error(p->src.s) : "";
}

const struct record_error *pipeline_replay_damage(const struct pipeline *p)
{
	return p->provides & SOURCE_SEEK ? replay_source_damage(p->src.s) : NULL;
}
