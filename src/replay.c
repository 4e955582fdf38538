// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * replay.c: ptop -r FILE --summary: one pass over a recording's frames (a
 * file, or a directory's day files as one) or those of a range (--begin,
 * --end, which batch replays take from here too), processes told apart by
 * PID and start time (a PID reused is another process), their CPU time
 * summed from each frame's %CPU over its interval; what sampling and
 * recording cost.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ptop/output.h"
#include "ptop/record.h"
#include "ptop/replay.h"

struct seen {
	int pid; /* 0: a free slot */
	uint64_t start_ticks;
	uint8_t comm_len;
	char comm[PROC_COMM_MAX];
	double cpu_s; /* CPU time over the recording, seconds */
};

struct seen_set {
	struct seen *v;
	size_t cap, n; /* cap: a power of two */
};

static size_t seen_hash(int pid, uint64_t start)
{
	uint64_t h =
	    ((uint64_t)(unsigned)pid * 0x9e3779b97f4a7c15ull) ^ (start * 0xff51afd7ed558ccdull);

	return (size_t)(h ^ h >> 29);
}

static struct seen *seen_get(struct seen_set *s, const struct frame_proc *p);

static void seen_grow(struct seen_set *s)
{
	struct seen_set t = {.cap = s->cap ? s->cap * 2 : 1024};

	t.v = xcalloc(t.cap, sizeof(*t.v));
	for (size_t i = 0; i < s->cap; i++) {
		struct seen *o = &s->v[i];
		struct frame_proc p = {.pid = o->pid, .start_ticks = o->start_ticks};

		if (o->pid)
			*seen_get(&t, &p) = *o;
	}
	free(s->v);
	*s = t;
}

/* p's entry, added (with no CPU time yet) when new. */
static struct seen *seen_get(struct seen_set *s, const struct frame_proc *p)
{
	size_t i;

	if ((s->n + 1) * 2 > s->cap)
		seen_grow(s);
	for (i = seen_hash(p->pid, p->start_ticks) & (s->cap - 1); s->v[i].pid;
	     i = (i + 1) & (s->cap - 1))
		if (s->v[i].pid == p->pid && s->v[i].start_ticks == p->start_ticks)
			return &s->v[i];
	s->v[i].pid = p->pid;
	s->v[i].start_ticks = p->start_ticks;
	s->v[i].comm_len = p->comm_len;
	memcpy(s->v[i].comm, p->comm, p->comm_len);
	s->n++;
	return &s->v[i];
}

static int by_cpu(const void *a, const void *b)
{
	const struct seen *x = a, *y = b;

	if (x->cpu_s != y->cpu_s)
		return x->cpu_s < y->cpu_s ? 1 : -1;
	return x->pid - y->pid;
}

static int by_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void put_time(struct sbuf *b, const struct timespec *t)
{
	struct tm tm;
	char s[64];

	localtime_r(&t->tv_sec, &tm);
	strftime(s, sizeof(s), "%Y-%m-%d %H:%M:%S", &tm);
	sbuf_adds(b, s);
}

struct summary {
	struct timespec first, last;
	uint64_t frames; /* in the range */
	uint64_t bytes;	 /* theirs in the file */
	double *cost;	 /* each frame's CPU cost, seconds */
	double *rec;	 /* the recorder's CPU cost of the frames that say it, seconds */
	uint64_t nrec;
	uint64_t rows;
	uint64_t skipped; /* corrupt frames, and those after them up to a keyframe */
	struct seen_set seen;
};

void replay_say_tail(const struct record_reader *r)
{
	const char *path;
	uint64_t n = record_reader_tail(r, &path);

	if (n)
		fprintf(stderr,
			_("ptop: %s: %llu bytes after its last complete frame are not a frame "
			  "(cut short by a crash?), not replayed\n"),
			path, (unsigned long long)n);
}

void replay_say_skipped(const char *first, uint64_t n)
{
	fprintf(stderr, _("%s; %llu frames skipped in all, to the next keyframe that reads\n"),
		first, (unsigned long long)n);
}

/* Frames from frame from on, up to the time end_ns; corrupt ones skipped, counted. */
static int summary_read(struct record_reader *r, uint64_t from, int64_t end_ns, struct summary *s,
			struct record_error *e)
{
	uint64_t most = record_frames(r) - from;
	struct record_error later;
	struct frame f = {0};
	int err = 0;

	s->cost = xreallocarray(NULL, most ? most : 1, sizeof(*s->cost));
	s->rec = xreallocarray(NULL, most ? most : 1, sizeof(*s->rec));
	for (uint64_t n = from; n < record_frames(r); n++) {
		err = record_read_next(r, &n, &f, &s->skipped, s->skipped ? &later : e);
		if (err == -ERANGE)
			err = 0;
		if (err || n >= record_frames(r) ||
		    (int64_t)f.time.tv_sec * 1000000000 + f.time.tv_nsec > end_ns)
			break;
		if (!s->frames)
			s->first = f.time;
		s->last = f.time;
		s->bytes += record_read_bytes(r);
		s->cost[s->frames++] = f.cost.cpu_s;
		if (record_read_cost_us(r))
			s->rec[s->nrec++] = record_read_cost_us(r) / 1e6;
		s->rows += f.nprocs;
		for (size_t i = 0; i < f.nprocs; i++)
			seen_get(&s->seen, &f.procs[i])->cpu_s +=
			    f.procs[i].cpu_pct / 100.0 * f.interval_s;
	}
	frame_free(&f);
	return err;
}

static void summary_print(struct sbuf *b, const char *path, struct record_reader *r,
			  struct summary *s)
{
	const struct record_info *in = record_reader_info(r);
	double span = (double)(s->last.tv_sec - s->first.tv_sec) +
		      (double)(s->last.tv_nsec - s->first.tv_nsec) / 1e9;
	double bytes = (double)s->bytes / (double)s->frames;
	size_t ntop = 0;

	sbuf_printf(b, _("Recording %s (format version %u)\n"), path, in->version);
	sbuf_printf(b, _("Machine:  %s, Linux %s, %u CPUs, %u ticks/s, %u-byte pages\n"),
		    in->hostname, in->kernel, in->ncpu, in->hz, in->page_size);
	sbuf_adds(b, _("From:     "));
	put_time(b, &s->first);
	sbuf_adds(b, _(" to "));
	put_time(b, &s->last);
	sbuf_printf(b, _(" (%.0f s), %llu frames\n"), span, (unsigned long long)s->frames);
	sbuf_printf(b, _("Seen:     %zu processes, %.1f rows per frame\n"), s->seen.n,
		    (double)s->rows / (double)s->frames);
	qsort(s->cost, s->frames, sizeof(*s->cost), by_double);
	sbuf_printf(b,
		    _("Cost:     %.3f ms CPU per frame to sample (median), %.0f bytes per frame "
		      "on disk, %.2f per row\n"),
		    s->cost[s->frames / 2] * 1e3, bytes,
		    s->rows ? (double)s->bytes / (double)s->rows : 0);
	if (s->nrec) {
		qsort(s->rec, s->nrec, sizeof(*s->rec), by_double);
		sbuf_printf(b, _("Recorder: %.3f ms CPU per frame to encode and write (median)\n"),
			    s->rec[s->nrec / 2] * 1e3);
	} else {
		sbuf_printf(b,
			    _("Recorder: cost not recorded (format version %u; recorded from "
			      "version 3 on)\n"),
			    in->version);
	}
	/* the consumers, packed to the front of the table */
	for (size_t i = 0; i < s->seen.cap; i++)
		if (s->seen.v[i].pid)
			s->seen.v[ntop++] = s->seen.v[i];
	qsort(s->seen.v, ntop, sizeof(*s->seen.v), by_cpu);
	sbuf_printf(b, _("Top CPU consumers over the recording:\n"));
	sbuf_printf(b, "%8s %10s  %s\n", _("PID"), _("CPU s"), _("COMMAND"));
	for (size_t i = 0; i < ntop && i < REPLAY_TOP; i++) {
		sbuf_printf(b, "%8d %10.2f  ", s->seen.v[i].pid, s->seen.v[i].cpu_s);
		fmt_printable(b, s->seen.v[i].comm, s->seen.v[i].comm_len);
		sbuf_addc(b, '\n');
	}
}

/* --begin or --end (opt) as typed into *t: 0, or the exit status after saying why. */
static int range_time(const char *opt, const char *s, int64_t ref, int64_t *t)
{
	int err = record_parse_time(s, ref, t);

	if (err == -ERANGE)
		fprintf(stderr,
			_("ptop: %s: '%s' is out of the times a recording holds (1677-09-21 to "
			  "2262-04-11)\n"),
			opt, s);
	else if (err)
		fprintf(stderr, _("ptop: %s: not a time: '%s' (HH:MM[:SS] or YYYY-MM-DD HH:MM)\n"),
			opt, s);
	return err ? 2 : 0;
}

/* ns as put_time() writes it, into s. */
static void ns_time(char s[32], int64_t ns)
{
	struct timespec t = {.tv_sec = (time_t)(ns / 1000000000)};
	struct sbuf b = {0};

	put_time(&b, &t);
	snprintf(s, 32, "%s", sbuf_cstr(&b));
	sbuf_free(&b);
}

/* No frame from frame from up to end_ns: say so, with what the recording spans. */
static int range_empty(struct record_reader *r, int64_t begin_ns, int64_t end_ns, int64_t first)
{
	struct record_error re;
	char b[32], e[32], f[32], l[32];
	int64_t last;

	if (record_frame_time(r, record_frames(r) - 1, &last, &re))
		last = first;
	ns_time(b, begin_ns == INT64_MIN ? first : begin_ns);
	ns_time(e, end_ns == INT64_MAX ? last : end_ns);
	ns_time(f, first);
	ns_time(l, last);
	fprintf(stderr, _("ptop: %s: no frame between %s and %s; the recording spans %s to %s\n"),
		record_reader_path(r), b, e, f, l);
	return 1;
}

int replay_range(struct record_reader *r, const char *begin, const char *end, uint64_t *from,
		 int64_t *end_ns)
{
	struct record_error re;
	int64_t first, t = INT64_MIN, at;
	int status;

	*from = 0;
	*end_ns = INT64_MAX;
	/* the recording's day for times typed without one; frame 0's head may be damaged */
	if (record_frame_time(r, 0, &first, &re))
		first = record_reader_info(r)->created_ns;
	if (end && (status = range_time("--end", end, first, end_ns)))
		return status;
	if (begin && (status = range_time("--begin", begin, first, &t)))
		return status;
	if (begin && record_find_time(r, t, from, &re)) {
		fprintf(stderr, "%s\n", re.msg);
		return 1;
	}
	/* the last frame at or before --begin, unless it is before: the one after */
	if (begin && !record_frame_time(r, *from, &at, &re) && at < t)
		(*from)++;
	if (*from >= record_frames(r) || (!record_frame_time(r, *from, &at, &re) && at > *end_ns))
		return range_empty(r, t, *end_ns, first);
	return -1;
}

int replay_summary(const char *path, const char *begin, const char *end, int fd)
{
	struct record_reader *r;
	struct record_error e;
	struct summary s = {0};
	struct sbuf b = {0};
	int64_t end_ns;
	uint64_t from;
	int status, err;

	if (record_reader_open(path, &r, &e)) {
		fprintf(stderr, "%s\n", e.msg);
		return 1;
	}
	replay_say_tail(r);
	status = replay_range(r, begin, end, &from, &end_ns);
	if (status < 0 && summary_read(r, from, end_ns, &s, &e)) {
		fprintf(stderr, "%s\n", e.msg);
		status = 1;
	} else if (status < 0 && !s.frames) {
		/* every frame of the range is corrupt */
		replay_say_skipped(e.msg, s.skipped);
		status = 1;
	} else if (status < 0) {
		/* the intact frames summed up, then how many were not */
		summary_print(&b, path, r, &s);
		err = write_out(fd, b.p, b.len);
		status = err && err != -EPIPE;
		if (s.skipped) {
			replay_say_skipped(e.msg, s.skipped);
			status = 1;
		}
	}
	sbuf_free(&b);
	free(s.cost);
	free(s.rec);
	free(s.seen.v);
	record_reader_free(r);
	return status;
}
