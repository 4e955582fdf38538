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

struct pipeline {
	struct sampler *sampler;
	struct observer *ob; /* NULL: perf events could not be set up */
	struct observer_opts oo;
	const char *root;
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
	struct sampler_opts so = {.root = o->root, .source = o->source};
	struct pipeline *p = xcalloc(1, sizeof(*p));
	int err;

	*out = NULL;
	e->status = 0;
	e->msg[0] = '\0';
	p->root = o->root;
	err = sampler_new(&so, &p->sampler);
	if (err) {
		free(p);
		return fail(e, 1, err, _("ptop: cannot read %s: %s"), o->root ? o->root : "/proc",
			    strerror(-err));
	}
	err = start_observer(p, o, e);
	for (size_t i = 0; !err && i < o->nwatches; i++) {
		err = p->ob ? observer_watch(p->ob, &o->watches[i]) : -ENODEV;
		if (err)
			fail(e, 1, err, _("ptop: cannot watch %d: %s"), o->watches[i].pid,
			     _(perf_bp_strerror(err)));
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
	sampler_free(p->sampler);
	free(p);
}

int pipeline_frame(struct pipeline *p, const struct pipeline_request *r, struct frame *f)
{
	struct sampler_opts so = {
	    .root = p->root, .needs = r->needs, .threads = r->threads, .per_cpu = r->per_cpu};

	sampler_configure(p->sampler, &so);
	if (p->ob)
		observer_begin(p->ob);
	return sampler_frame(p->sampler, f);
}

void pipeline_observe(struct pipeline *p, struct frame *f, const struct frame_proc *const *rows,
		      size_t n, bool counters, bool perf_fds)
{
	if (!p->ob)
		return;
	observer_set(p->ob, counters, perf_fds);
	observer_update(p->ob, f, rows, n);
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

void pipeline_cmdlines(struct pipeline *p, struct frame *f, const struct frame_proc *const *rows,
		       size_t n)
{
	for (size_t i = 0; i < n; i++) {
		/* rows point into f->procs, which the caller owns and lets us fill */
		struct frame_proc *q = &f->procs[rows[i] - f->procs];

		if (!q->has_cmd)
			sampler_cmdline(p->sampler, f, q);
	}
}

int pipeline_counters_start(struct pipeline *p)
{
	if (!p->ob)
		return -ENODEV;
	return observer_counters_start(p->ob, NULL);
}

int pipeline_watch(struct pipeline *p, const struct perf_bp_spec *spec)
{
	return p->ob ? observer_watch(p->ob, spec) : -ENODEV;
}

void pipeline_unwatch(struct pipeline *p, size_t i)
{
	if (p->ob)
		observer_unwatch(p->ob, i);
}

const char *pipeline_source_note(const struct pipeline *p)
{
	return sampler_note(p->sampler);
}

bool pipeline_observes(const struct pipeline *p)
{
	return p->ob != NULL;
}
