// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * record-seek.c: how long opening a day-long recording at its last hour
 * takes. `record-seek gen FILE [FRAMES [NPROCS]]` writes FRAMES frames (default
 * 86,400: a day at -d 1) one second apart, of NPROCS processes (default 2000)
 * of which a few are busy, through the recorder's own writer; `record-seek
 * seek FILE [RUNS]` then opens the file, finds the frame an hour before its
 * end and decodes it, RUNS times (default 11), and prints the median and the
 * slowest in milliseconds (with the page cache as the runs leave it).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ptop/record.h"

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int gen(const char *path, long frames, int nprocs)
{
	struct frame f = {0};
	struct record_writer *w;
	struct record_error e;

	f.procs = calloc((size_t)nprocs, sizeof(*f.procs));
	if (!f.procs)
		return 1;
	f.nprocs = f.cap = (size_t)nprocs;
	f.hz = 100;
	f.ncpu = 2;
	f.mem.total = 24000000;
	for (int i = 0; i < nprocs; i++) {
		struct frame_proc *p = &f.procs[i];

		p->pid = p->tgid = 1000 + i;
		p->ppid = 1;
		p->state = 'S';
		p->comm_len = 5;
		memcpy(p->comm, "sleep", 5);
		p->user = "root";
		p->priority = 20;
		p->threads = 1;
		p->vsize_kb = 8220;
		p->rss_kb = 1800 + (uint64_t)(i % 7);
		p->shared_kb = 1600;
		p->mem_pct = 0.01;
		p->start_ticks = 100000 + (uint64_t)i;
		p->perf_fds = -1;
	}
	if (record_writer_open(path, &w, &e)) {
		fprintf(stderr, "%s\n", e.msg);
		return 1;
	}
	for (long k = 0; k < frames; k++) {
		f.time.tv_sec = 1764633600 + k;
		f.interval_s = 1.0;
		f.uptime_s = 86400.0 + (double)k;
		f.cost.cpu_s = 0.012 + (double)(k % 5) * 1e-4;
		/* a few busy processes: their rows change every frame */
		for (int b = 0; b < 8 && b < nprocs; b++) {
			struct frame_proc *p = &f.procs[(b * 97 + k) % nprocs];

			p->utime++;
			p->cpu_pct = (double)(k % 100);
			p->processor = (int)(k & 1);
		}
		if (record_write(w, &f, &e)) {
			fprintf(stderr, "%s\n", e.msg);
			return 1;
		}
	}
	free(f.procs);
	return record_writer_close(w, &e) ? 1 : 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static int seek(const char *path, int runs)
{
	double *ms = calloc((size_t)runs, sizeof(*ms));
	uint64_t frames = 0, n = 0;

	for (int r = 0; r < runs; r++) {
		double t0 = now_s();
		struct record_reader *rd;
		struct record_error e;
		struct frame f = {0};
		int64_t last;

		if (record_reader_open(path, &rd, &e) ||
		    record_frame_time(rd, record_frames(rd) - 1, &last, &e) ||
		    record_find_time(rd, last - 3600LL * 1000000000, &n, &e) ||
		    record_read(rd, n, &f, &e)) {
			fprintf(stderr, "%s\n", e.msg);
			return 1;
		}
		ms[r] = (now_s() - t0) * 1e3;
		frames = record_frames(rd);
		free(f.procs);
		free(f.cpus);
		sbuf_free(&f.strings);
		record_reader_free(rd);
	}
	qsort(ms, (size_t)runs, sizeof(*ms), cmp_double);
	printf("open + seek to the last hour (frame %llu of %llu) + decode: median %.1f ms, "
	       "slowest %.1f ms over %d runs (target <= 100 ms: %s)\n",
	       (unsigned long long)n, (unsigned long long)frames, ms[runs / 2], ms[runs - 1], runs,
	       ms[runs / 2] <= 100 ? "met" : "NOT met");
	free(ms);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 3 && !strcmp(argv[1], "gen"))
		return gen(argv[2], argc > 3 ? atol(argv[3]) : 86400, argc > 4 ? atoi(argv[4]) : 2000);
	if (argc >= 3 && !strcmp(argv[1], "seek"))
		return seek(argv[2], argc > 3 ? atoi(argv[3]) : 11);
	fprintf(stderr, "usage: record-seek gen FILE [FRAMES [NPROCS]] | seek FILE [RUNS]\n");
	return 2;
}
