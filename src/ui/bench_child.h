/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bench_child.h: the Bench pane's runs (bench_child.c): a benchmark run in a
 * child process whose result lines the pane reads between frames, and the
 * session's runs, kept for comparison. bench.c lists, draws and starts them.
 */
#ifndef PTOP_UI_BENCH_CHILD_H
#define PTOP_UI_BENCH_CHILD_H

#include "ptop/bench.h"
#include "tui.h"

#define BENCH_ARGS_MAX 200

enum run_state { RUN_RUNNING, RUN_DONE, RUN_FAILED, RUN_SKIPPED, RUN_CANCELLED };

struct bench_run {
	unsigned id;
	unsigned bench; /* index in the bench table */
	char args[BENCH_ARGS_MAX];
	enum run_state state;
	struct bench_msg *msg; /* the result line, once it came; NULL before */
	char message[256];
};

/* The session's runs, oldest first (the oldest go past BENCH_RUNS_MAX); *n how many. */
const struct bench_run *bench_child_runs(size_t *n);
/* How far the running child says it got, 0..1; negative when none runs. */
double bench_child_progress(void);
/* Run benchmark bench of the table with args (options separated by blanks) as
 * `ptop bench NAME --format=json --progress ARGS`, in a process group of its
 * own, as a new run. Says on the status line what it did, or why not (one
 * runs already, or pipe, fork failed). */
void bench_child_start(struct ui *ui, unsigned bench, const char *args);
/* Kill the running child's process group and reap it; its run is cancelled. */
void bench_child_cancel(struct ui *ui);
/* Read what the child wrote (progress, its result) without blocking, and reap
 * it when it is done, saying on the status line why a run failed. Returns
 * how long in ms it may wait before the next call, or -1 (no child). */
int bench_child_poll(struct ui *ui);
/* Stop the child and forget the runs, before ptop exits. */
void bench_child_shutdown(void);

#endif
