/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * metrics.h: frames as Prometheus metrics. An aggregator folds each frame's
 * rows into groups (by comm, user or cgroup; kernel threads in one group,
 * "kernel"), gives a bounded number of slots to the groups with the most
 * CPU or memory over the last 5 minutes (the rest in "other"), and keeps
 * their counters monotonic across frames (CPU time and context switches are
 * summed as per-process deltas, so a process that ends does not make its
 * group's counter go down), then renders the groups, the busiest processes
 * when asked, breakpoint hits and ptop's own cost in the Prometheus text
 * format or OpenMetrics 1.0. Pure: no I/O, no /proc.
 */
#ifndef PTOP_METRICS_H
#define PTOP_METRICS_H

#include <stdbool.h>
#include <stddef.h>

#include "ptop/frame.h"
#include "ptop/util.h"

enum metrics_group_by { METRICS_BY_COMM, METRICS_BY_USER, METRICS_BY_CGROUP };

#define METRICS_DEFAULT_GROUPS 64
#define METRICS_MAX_GROUPS 10000
#define METRICS_MAX_TOP_PIDS 1000
/* A group without processes for this many frames gives its slot to any newcomer. */
#define METRICS_STALE_FRAMES 10
/* Slots go to the groups with the larger of their CPU and memory shares over this window. */
#define METRICS_WINDOW_S 300.0
/* A group that is not idle keeps a slot at least this long, so that series do not flap. */
#define METRICS_TENURE_S 600.0
/* Idle: less than this share of one CPU and of memory over the last minute. */
#define METRICS_IDLE_SHARE 0.0025
/* "other" holds too much: more than this share of the CPUs or of memory over the window. */
#define METRICS_OTHER_SHARE 0.05
/* ... said at most this often (metrics_other_warning) */
#define METRICS_WARN_S 3600.0
/* A group that held a slot keeps its counters this long after its last process. */
#define METRICS_KEEP_S 3600.0
/* PTOP_TEST_METRICS_SCALE: the clock of the windows above runs this much faster, at most */
#define METRICS_MAX_TIME_SCALE 100000

/* Which metric families: ptop's own (ptop_*), or prometheus-process-exporter's (namedprocess_*). */
enum metrics_names { METRICS_NAMES_PTOP, METRICS_NAMES_PE };

struct metrics_opts {
	enum metrics_group_by group_by;
	unsigned max_groups;   /* groups with their own label value; the rest are "other" */
	unsigned top_pids;     /* the N busiest processes with pid and comm labels; 0: none */
	bool expose_cmdline;   /* a cmdline label on the top processes' info series */
	bool kthreads_grouped; /* kernel threads grouped as any process, not in "kernel" */
	double time_scale;     /* the windows' clock runs this much faster (tests); 0: 1 */
	enum metrics_names names;
	const char *config; /* --metrics-config: a process-exporter configuration file, or NULL */
	/*
	 * Set by the presenter when config is: the group of a process (its name,
	 * *len bytes), or NULL when it is in none and not counted.
	 */
	const char *(*group)(const void *arg, const struct frame_proc *p, size_t *len);
	const void *group_arg;
};

struct metrics;

/* A new aggregator (allocation fails loudly). */
struct metrics *metrics_new(const struct metrics_opts *o);
void metrics_free(struct metrics *m);

/*
 * What metrics_update() wants read of each row beyond it (PROC_FACT_* bits):
 * descriptors and threads' states; for process-exporter's names also
 * smaps_rollup, as it reads them.
 */
unsigned metrics_facts(const struct metrics_opts *o);

/*
 * Fold frame f into m: rows (n of them, pointing into f->procs) sorted by
 * CPU, busiest first, so that busy newcomers get free group slots first and
 * the top processes are the first rows, and the processes that ended in the
 * interval (nexited of f->exited, chosen as rows were). The command lines of
 * the top rows are taken from f when the presenter read them (expose_cmdline).
 * facts (NULL: none) has, for each row, what was read of it beyond the row
 * for process-exporter's families.
 */
void metrics_update(struct metrics *m, const struct frame *f, const struct frame_proc *const *rows,
		    size_t n, const struct frame_proc *const *exited, size_t nexited,
		    const struct proc_facts *facts);

/*
 * The share of the machine's CPUs (memory: of its memory) that the group
 * "other" held over the last 5 minutes, 0 to 1.
 */
double metrics_other_share(const struct metrics *m, bool memory);

/*
 * Whether "other" holds more than METRICS_OTHER_SHARE of CPU or memory and
 * the presenter should say so now: true at most once per METRICS_WARN_S of
 * frames (the metric ptop_group_other_high says so at every frame).
 */
bool metrics_other_warning(struct metrics *m);

/*
 * Append the last frame's metrics to b: the Prometheus text format (0.0.4),
 * or OpenMetrics 1.0 without its closing "# EOF" (the caller adds what it
 * counts itself first: see metrics_family()).
 */
void metrics_render(const struct metrics *m, struct sbuf *b, bool openmetrics);

/* A metric family's kind, as both formats name them. */
enum metrics_type { METRICS_GAUGE, METRICS_COUNTER, METRICS_SUMMARY };

/*
 * Append the metadata lines of a family in the format asked for: name is the
 * family's name without "_total"; unit ("seconds", "bytes") or NULL; help is
 * untranslated ASCII. Samples follow with metrics_sample().
 */
void metrics_family(struct sbuf *b, bool openmetrics, const char *name, enum metrics_type type,
		    const char *unit, const char *help);
/* Append a sample line: name, suffix ("_total", "_sum", "" ...), labels
 * ("" or "{a=\"b\"}"), and value. */
void metrics_sample(struct sbuf *b, const char *name, const char *suffix, const char *labels,
		    double v);
/*
 * Append s (n bytes) as a label value's inside, in two steps. ptop's own,
 * one to one so that two different names stay two series: a backslash
 * becomes two, and each byte of a control character (C0, DEL, C1), of a
 * bidirectional control (U+061C, U+200E, U+200F, U+202A..U+202E,
 * U+2066..U+2069) or that is not UTF-8 becomes \xNN (lowercase hex); the
 * rest is kept. Then the exposition formats' own: backslash and double quote
 * escaped with a backslash. So the name a\x is written a\\\\x, and a byte 0x01 \\x01.
 */
void metrics_label_value(struct sbuf *b, const char *s, size_t n);

#endif
