/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * batch.h: batch mode (ptop -b): sample, select rows, format, write once per
 * frame, sleep; until the frame count is reached, a signal, or a closed pipe.
 */
#ifndef PTOP_BATCH_H
#define PTOP_BATCH_H

#include "ptop/metrics.h"
#include "ptop/output.h"
#include "ptop/perf.h"
#include "ptop/serve.h"
#include "ptop/source.h"

struct batch_opts {
	long iterations; /* frames to write; 0: until interrupted */
	double delay_s;	 /* between frames */
	struct row_filter filter;
	struct row_order order;
	const struct output_format_def *format; /* -o, --format; NULL: text */
	const char *root;			/* proc root, NULL for /proc */
	enum frame_source source;		/* --source */
	int out_fd;				/* where frames go */
	struct observer_opts observe;		/* counters (--counters), perf fds (--perf-fds) */
	const struct perf_bp_spec *watches;	/* --watch, armed before the first frame */
	size_t nwatches;
	bool threads; /* -H: a row per thread, as top -H */
	bool per_cpu; /* -1: a summary line per CPU, as top -1 */
	/* --exited: text lists the processes that ended after the rows (JSON and CSV always
	 * do); off, its table is top's: the Tasks: line counts its rows */
	bool exited;
	struct output_view view;	 /* --fields, -w, -E, -e, -c, -S */
	bool quiet;			 /* write no frames: --listen or --record without -b */
	const struct serve_addr *listen; /* --listen: serve each frame's metrics, or NULL */
	struct metrics_opts metrics;	 /* --group-by, --max-groups, --top-pids ... */
	const char *record;		 /* --record: a file, or a directory of a file per day */
	unsigned keep_days;		 /* --keep: days a directory keeps (0: all) */
	const char *replay; /* -r: frames from this recording, as fast as they are read */
	/* --begin, --end: the replayed range, as typed (HH:MM on the recording's first day) */
	const char *begin, *end;
};

/*
 * Run batch mode (also --record or --listen without -b, and -r with -b: a
 * recording's frames printed as they were live), and serve its frames'
 * metrics with listen. Returns the process exit status: 0 (also when the reader
 * closed the pipe), 1 after printing why, 2 for an unknown event, 1 when --listen's address cannot be had, or 128+N
 * when signal N (SIGINT, SIGTERM, SIGHUP) stopped it between frames, after
 * everything was freed and closed; the caller then ends by signal N.
 */
int batch_run(const struct batch_opts *o);

#endif
