/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pipeline.h: the one frame pipeline below every presenter (the viewer,
 * batch mode, the recorder, and later the metrics endpoint). It owns the
 * sampler (src/proc), the observer (src/perf: counters, perf descriptors,
 * breakpoints) and the watches, and reads what the presenter asks of each
 * frame: the /proc files its columns need, threads or processes, counters for
 * the rows it shows, command lines of the rows in view. A presenter asks for
 * frames here and never assembles readers itself; nothing here prints: a
 * failure comes back as -errno with a translated message for the presenter.
 */
#ifndef PTOP_PIPELINE_H
#define PTOP_PIPELINE_H

#include <stdbool.h>
#include <stddef.h>

#include "ptop/frame.h"
#include "ptop/output.h"
#include "ptop/perf.h"
#include "ptop/source.h"

struct pipeline_opts {
	const char *root;	      /* proc root, NULL for /proc */
	enum frame_source source;     /* where rows come from (--source) */
	struct observer_opts observe; /* root is taken from above */
	const struct perf_bp_spec *watches;
	size_t nwatches;
	/* Counters that cannot start are dropped with a warning (batch mode), rather
	 * than left for pipeline_counters_start() to report (the viewer). */
	bool counters_optional;
	/* Frames from this recording (ptop -r) instead of /proc: no observer, no
	 * watches; the frames come in order from frame 0 (see pipeline_seek). */
	const char *replay;
};

/* Why pipeline_new() failed, or what it warns of (status 0). */
struct pipeline_error {
	int status;    /* the exit status the presenter should end with: 1 or 2; 0: a warning */
	char msg[256]; /* translated, "ptop: ..." without a newline; "" when none */
};

struct pipeline;

/*
 * A pipeline on root with the observer and the watches asked for. Returns 0
 * (e->msg may hold a warning: counters dropped), or -errno with e saying why
 * and with which exit status: -ENOENT an unknown event (2), a /proc that
 * cannot be read or a watch that cannot be armed (1). *out is NULL then.
 */
int pipeline_new(const struct pipeline_opts *o, struct pipeline **out, struct pipeline_error *e);
void pipeline_free(struct pipeline *p);

/* What the presenter asks of the next frame. */
struct pipeline_request {
	unsigned needs;	   /* PROC_NEED() bits beyond stat: the shown and sorted columns' */
	bool threads;	   /* a row per thread */
	bool user_threads; /* htop's: processes, each then its other threads (sampler_opts) */
	bool per_cpu;	   /* per-CPU totals */
	bool sysio;	   /* disk and network throughput (frame.sysio) */
	bool psi;	   /* pressure stall information (frame.psi) */
	/*
	 * Read what the screen needs (the viewer): the rows in view get `needs`,
	 * every other process what `needs_all` says (the sort column's, the
	 * filter's) and, when it did not run since, keeps its row from the last
	 * frame (frame_proc.kept; see sampler_opts). Rows that come into view
	 * later are made exact by pipeline_complete(). Not with threads.
	 */
	bool read_less;
	unsigned needs_all;
	const int *view; /* PIDs of the rows in view, any order; copied */
	size_t nview;
	/* read only where they may have changed, beyond `needs` (sampler_opts) */
	unsigned needs_lazy;
};

/*
 * Build the next frame into f (reusing its memory). 0 or -errno (no processes
 * listed). From a recording: the next recorded frame that reads, -ENODATA
 * after the last; corrupt frames are skipped to the next keyframe, counted
 * by pipeline_replay_skipped(), the first named by pipeline_replay_error().
 */
int pipeline_frame(struct pipeline *p, const struct pipeline_request *r, struct frame *f);

struct record_reader;
/* The recording frames come from, or NULL for a live pipeline. */
struct record_reader *pipeline_replay(struct pipeline *p);
/* Make frame n of the recording the next pipeline_frame() gives. */
void pipeline_seek(struct pipeline *p, uint64_t n);
/*
 * The same as the viewer travels: the next pipeline_frame() gives frame n
 * or, when it is corrupt, the nearest frame that reads, first the way the
 * user went (back: before n; else after), then the other way; -ENODATA
 * when none reads.
 */
void pipeline_travel(struct pipeline *p, uint64_t n, bool back);
/* The number of the frame pipeline_frame() gave last (a recording's). */
uint64_t pipeline_position(const struct pipeline *p);
/* Corrupt frames skipped so far (and frames after them up to a keyframe). */
uint64_t pipeline_replay_skipped(const struct pipeline *p);
/* Why the last replayed frame failed, or the first skipped: "ptop: FILE: ...". */
const char *pipeline_replay_error(const struct pipeline *p);
/* The first corrupt frame the last pipeline_frame() skipped (its number and why), or NULL. */
const struct record_error *pipeline_replay_damage(const struct pipeline *p);

/*
 * Fill the observer's fields of the rows the presenter shows (pointing into
 * f->procs, most wanted first): counters when asked for, perf descriptors when
 * asked for, breakpoints always.
 */
void pipeline_observe(struct pipeline *p, struct frame *f, const struct frame_proc *const *rows,
		      size_t n, bool counters, bool perf_fds);

/*
 * Select f's rows as flt and ord say into rows (room for f->nprocs), observe
 * them all, and sort them after that when the order is by a field the observer
 * fills. Returns how many. Batch mode's frame in one call.
 */
size_t pipeline_select(struct pipeline *p, struct frame *f, const struct row_filter *flt,
		       const struct row_order *ord, const struct frame_proc **rows, bool counters,
		       bool perf_fds);

/*
 * Read in full the rows (in f->procs) that were kept from an earlier frame,
 * so that what is shown is exact. Rows of processes gone meanwhile stay as
 * they were.
 */
void pipeline_complete(struct pipeline *p, struct frame *f, const struct frame_proc *const *rows,
		       size_t n);

/* Read the command lines of n rows (in f->procs) that do not have one yet. */
void pipeline_cmdlines(struct pipeline *p, struct frame *f, const struct frame_proc *const *rows,
		       size_t n);

/*
 * Start counting now, for a pipeline made without counters (the viewer does
 * this when its Counters pane is first shown). 0, -ENOENT for an unknown event,
 * another -errno when perf events are not available, -ENODEV without an observer.
 */
int pipeline_counters_start(struct pipeline *p);

/*
 * Count events[0..n) from the next frame on (observer_counters_set): 0,
 * -ENOENT with *bad naming an event not known, -ENODEV without an observer
 * (perf events not available, or a replay), or another -errno.
 */
int pipeline_counters_set(struct pipeline *p, const char *const *events, int n, const char **bad);

/* Arm a breakpoint, spec resolved in place (observer_watch); 0 or -errno (see
 * perf_bp_strerror); -ENODEV without an observer. */
int pipeline_watch(struct pipeline *p, struct perf_bp_spec *spec);
/*
 * Say why arming spec failed with err, in a translated sentence naming the
 * candidates of a name that is ambiguous or unknown, into buf (cap bytes).
 */
void pipeline_watch_error(const struct perf_bp_spec *spec, int err, char *buf, size_t cap);
/* Disarm breakpoint i (in the order frames list them). */
void pipeline_unwatch(struct pipeline *p, size_t i);
/* How many breakpoints are armed; one pipeline_watch() armed last is the last of them. */
size_t pipeline_nwatches(const struct pipeline *p);
/*
 * Why frames come from /proc although BPF was wanted ("bpf: needs CAP_BPF and
 * CAP_PERFMON; using /proc"), translated, for the presenter to say once; NULL
 * when nothing is to be said.
 */
const char *pipeline_source_note(const struct pipeline *p);

/*
 * The proc root of the running system the frames come from (NULL: /proc),
 * for what a presenter reads of a process beyond its row (the metrics'
 * process-exporter facts and group matching): 0, or -ENODEV when the frames
 * are a recording's.
 */
int pipeline_live_root(const struct pipeline *p, const char **root);

/*
 * What the metrics' process-exporter families need of row q of the frame
 * pipeline_frame() gave last beyond the row (PROC_FACT_* in what), into *out
 * as proc_facts_read() fills it: what the source read (the BPF walk:
 * descriptors and their limit when the request's needs had FRAME_NEED_FDS,
 * threads' states and counts), the rest from the live proc root. Returns the
 * parts that failed, as proc_facts_read(); -ENODEV when the frames are a
 * recording's (nothing read).
 */
int pipeline_facts(struct pipeline *p, const struct frame_proc *q, unsigned what,
		   struct proc_facts *out, struct proc_facts_bufs *b);

/* Whether perf events could be set up at all (breakpoints, counters). */
bool pipeline_observes(const struct pipeline *p);

#endif
