// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * replay.c: ptop -r FILE --summary: one pass over a recording's frames (a
 * file, or a directory's day files as one) or those of a range (--begin,
 * --end, which batch replays take from here too), processes told apart by
 * PID and start time (a PID reused is another process), their CPU time
 * summed from each frame's %CPU over its interval, those that ended told by
 * their exit records or by a frame without them, the top ones by CPU time
 * kept as the others are dropped; what sampling and recording cost.
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

/* The bytes of a user name --summary keeps (the column shows 8 characters). */
#define SEEN_USER_MAX 32
/*
 * How long a process with no row is kept for its exit record, which can
 * come a frame after its last row (as the accounting keeps them): at least
 * until the frame after the one it went in.
 */
#define SEEN_GRAVE_NS (15 * 1000000000LL)

/* A process of the range (a PID and a start time), as far as it was seen. */
struct seen {
	int pid;	 /* 0: a free slot */
	bool moved;	 /* taken into the next frame's set */
	bool ended;	 /* its last row ended it (an exit, a zombie), or a frame after had none */
	bool has_status; /* exit_status is the one its exit record gave */
	int exit_status;
	uint8_t comm_len, user_len;
	char comm[PROC_COMM_MAX];
	char user[SEEN_USER_MAX];
	uid_t uid;
	uint64_t start_ticks;
	uint64_t rss_max_kb;	   /* KiB */
	double cpu_s;		   /* CPU time from the range's first frame to its last, seconds */
	double run_s;		   /* the intervals its rows covered in that time, seconds */
	double pct_max;		   /* its highest %CPU over one of them */
	int64_t first_ns, last_ns; /* the times of its first and last frame with a row */
	int64_t gone_ns;	   /* the time of the first frame without it; 0 while in them */
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

static struct seen *seen_find(const struct seen_set *s, int pid, uint64_t start)
{
	if (!s->cap)
		return NULL;
	for (size_t i = seen_hash(pid, start) & (s->cap - 1); s->v[i].pid;
	     i = (i + 1) & (s->cap - 1))
		if (s->v[i].pid == pid && s->v[i].start_ticks == start)
			return &s->v[i];
	return NULL;
}

static struct seen *seen_add(struct seen_set *s, const struct seen *e);

static void seen_grow(struct seen_set *s)
{
	struct seen_set t = {.cap = s->cap ? s->cap * 2 : 1024};

	t.v = xcalloc(t.cap, sizeof(*t.v));
	for (size_t i = 0; i < s->cap; i++)
		if (s->v[i].pid)
			seen_add(&t, &s->v[i]);
	free(s->v);
	*s = t;
}

/* A copy of e, not in s yet. */
static struct seen *seen_add(struct seen_set *s, const struct seen *e)
{
	size_t i;

	if ((s->n + 1) * 2 > s->cap)
		seen_grow(s);
	for (i = seen_hash(e->pid, e->start_ticks) & (s->cap - 1); s->v[i].pid;
	     i = (i + 1) & (s->cap - 1))
		;
	s->v[i] = *e;
	s->n++;
	return &s->v[i];
}

static void seen_clear(struct seen_set *s)
{
	if (s->cap)
		memset(s->v, 0, s->cap * sizeof(*s->v));
	s->n = 0;
}

/* More CPU time first; then by PID and start. */
static int by_cpu(const void *a, const void *b)
{
	const struct seen *x = a, *y = b;

	if (x->cpu_s != y->cpu_s)
		return x->cpu_s < y->cpu_s ? 1 : -1;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return (x->start_ticks > y->start_ticks) - (x->start_ticks < y->start_ticks);
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

static int64_t frame_ns(const struct timespec *t)
{
	return (int64_t)t->tv_sec * 1000000000 + t->tv_nsec;
}

/*
 * What --summary keeps: bounded by the processes of two frames, those that
 * went in the last SEEN_GRAVE_NS and REPLAY_TOP, not by the length of the
 * range. Each frame's rows go into live[cur], taken from live[!cur] (the
 * frame before's); what is left there ended, and once past waiting for its
 * exit record, only the REPLAY_TOP of those with the most CPU time are
 * kept (top).
 */
struct summary {
	struct timespec first, last;
	uint64_t frames; /* in the range */
	uint64_t bytes;	 /* theirs in the file */
	double *cost;	 /* each frame's CPU cost, seconds */
	double *rec;	 /* the recorder's CPU cost of the frames that say it, seconds */
	uint64_t nrec;
	uint64_t rows;
	uint64_t skipped; /* corrupt frames, and those after them up to a keyframe */
	uint64_t nseen;	  /* processes (PID and start time) with a row in the range */
	uint64_t last_n;  /* the number of the last frame read */
	struct seen_set live[2];
	int cur;
	struct seen top[REPLAY_TOP]; /* the ended ones with the most CPU time, most first */
	size_t ntop;
};

/* e among the REPLAY_TOP with the most CPU time, if it is one of them. */
static void top_offer(struct summary *s, const struct seen *e)
{
	size_t i = s->ntop;

	if (s->ntop == REPLAY_TOP) {
		if (by_cpu(e, &s->top[REPLAY_TOP - 1]) >= 0)
			return;
		i = REPLAY_TOP - 1;
	} else {
		s->ntop++;
	}
	for (; i > 0 && by_cpu(e, &s->top[i - 1]) < 0; i--)
		s->top[i] = s->top[i - 1];
	s->top[i] = *e;
}

/*
 * Row p of frame f. With an interval (every frame of the range but its
 * first, whose %CPU is of the time before it), its CPU time there.
 */
static void summary_row(struct summary *s, const struct frame *f, const struct frame_proc *p,
			bool interval, bool exit_row)
{
	struct seen *e = seen_find(&s->live[s->cur], p->pid, p->start_ticks);
	int64_t t = frame_ns(&f->time);

	if (!e) {
		struct seen *o = seen_find(&s->live[!s->cur], p->pid, p->start_ticks);
		struct seen n = {.pid = p->pid, .start_ticks = p->start_ticks, .first_ns = t};

		if (o) {
			o->moved = true;
			n = *o;
			n.moved = false;
			n.gone_ns = 0;
		} else {
			s->nseen++;
		}
		e = seen_add(&s->live[s->cur], &n);
	}
	/* the name it had last: a process that ran another program is listed by the new one */
	e->comm_len = p->comm_len;
	memcpy(e->comm, p->comm, p->comm_len);
	e->uid = p->uid;
	e->user_len = p->user ? (uint8_t)strnlen(p->user, SEEN_USER_MAX) : 0;
	memcpy(e->user, p->user ? p->user : "", e->user_len);
	e->last_ns = t;
	e->ended = exit_row || p->exited || p->state == 'Z' || p->state == 'X';
	e->has_status = exit_row || p->exited;
	e->exit_status = p->exit_status;
	if (p->rss_kb > e->rss_max_kb)
		e->rss_max_kb = p->rss_kb;
	if (e->has_status && p->maxrss_kb > e->rss_max_kb)
		e->rss_max_kb = p->maxrss_kb;
	if (interval) {
		e->cpu_s += p->cpu_pct / 100.0 * f->interval_s;
		e->run_s += f->interval_s;
		if (p->cpu_pct > e->pct_max)
			e->pct_max = p->cpu_pct;
	}
}

/*
 * After frame f (number n): the processes of the frame before that have no
 * row in it ended, and stay SEEN_GRAVE_NS for a late exit record before
 * they are offered to the top. Not after a gap (frames skipped, or a
 * recorder started again on the file: more time since the frame before
 * than f's interval), where they may have a row in the next frame.
 */
static void summary_sweep(struct summary *s, const struct frame *f, uint64_t n, int64_t before_ns)
{
	struct seen_set *prev = &s->live[!s->cur], *cur = &s->live[s->cur];
	int64_t now = frame_ns(&f->time);
	bool gap =
	    n != s->last_n + 1 || now - before_ns > (int64_t)(f->interval_s * 1.5e9) + 100000000;

	for (size_t i = 0; i < prev->cap; i++) {
		struct seen *e = &prev->v[i];

		if (!e->pid || e->moved)
			continue;
		if (!gap && !e->gone_ns) {
			e->gone_ns = now;
			e->ended = true;
		}
		if (gap || now - e->gone_ns <= SEEN_GRAVE_NS)
			seen_add(cur, e);
		else
			top_offer(s, e);
	}
	seen_clear(prev);
	s->cur = !s->cur;
}

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
		bool interval = s->frames > 0;
		int64_t before = frame_ns(&s->last);

		err = record_read_next(r, &n, &f, &s->skipped, s->skipped ? &later : e);
		if (err == -ERANGE)
			err = 0;
		if (err || n >= record_frames(r) || frame_ns(&f.time) > end_ns)
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
			summary_row(s, &f, &f.procs[i], interval, false);
		for (size_t i = 0; i < f.nexited; i++)
			summary_row(s, &f, &f.exited[i], interval, true);
		if (interval)
			summary_sweep(s, &f, n, before);
		else
			s->cur = !s->cur;
		s->last_n = n;
	}
	frame_free(&f);
	/* those of the last frame: the REPLAY_TOP with the most CPU time, ended or not */
	for (size_t i = 0; i < s->live[!s->cur].cap; i++)
		if (s->live[!s->cur].v[i].pid)
			top_offer(s, &s->live[!s->cur].v[i]);
	return err;
}

/* s (n bytes) for a terminal in w columns: padded, or cut with a '+' as top cuts. */
static void put_cell(struct sbuf *b, const char *s, size_t n, size_t w)
{
	size_t start = b->len, cols = fmt_printable(b, s, n), i = 0;

	if (cols <= w) {
		while (cols++ < w)
			sbuf_addc(b, ' ');
		return;
	}
	/* fmt_printable wrote UTF-8, a character a column: keep w - 1 of them */
	for (size_t c = 0; c + 1 < w; c++) {
		size_t l = utf8_len(b->p + start + i, b->len - start - i);

		i += l ? l : 1;
	}
	b->len = start + i;
	sbuf_addc(b, '+');
}

/* A frame time: HH:MM:SS, with the date before it (MM-DD) when days is. */
static void put_clock(struct sbuf *b, int64_t ns, bool days)
{
	time_t t = (time_t)(ns / 1000000000);
	struct tm tm;
	char s[32];

	localtime_r(&t, &tm);
	strftime(s, sizeof(s), days ? "%m-%d %H:%M:%S" : "%H:%M:%S", &tm);
	sbuf_adds(b, s);
}

/* The table of the processes with the most CPU time, REPLAY_TOP at most. */
static void summary_top(struct sbuf *b, const struct summary *s)
{
	struct tm a, z;
	bool days;
	int tw;

	localtime_r(&s->first.tv_sec, &a);
	localtime_r(&s->last.tv_sec, &z);
	days = a.tm_year != z.tm_year || a.tm_yday != z.tm_yday;
	tw = days ? 14 : 8;
	sbuf_printf(b, _("Top CPU consumers, by CPU time from the first frame to the last:\n"));
	sbuf_printf(b, "%7s %-8s %-15s %10s %6s %6s %8s %-*s %-*s %s\n", _("PID"), _("USER"),
		    _("COMMAND"), _("CPU s"), _("AVG%"), _("PEAK%"), _("PEAK RES"), tw, _("FIRST"),
		    tw, _("LAST"), _("ENDED"));
	for (size_t i = 0; i < s->ntop; i++) {
		const struct seen *e = &s->top[i];
		struct sbuf t = {0};

		sbuf_printf(b, "%7d ", e->pid);
		if (e->user_len) {
			put_cell(b, e->user, e->user_len, 8);
		} else {
			sbuf_printf(&t, "%u", (unsigned)e->uid);
			put_cell(b, t.p, t.len, 8);
			sbuf_reset(&t);
		}
		sbuf_addc(b, ' ');
		put_cell(b, e->comm, e->comm_len, 15);
		sbuf_printf(b, " %10.2f ", e->cpu_s);
		/* no interval of its in the range (only its first frame): no share to show */
		if (e->run_s > 0)
			sbuf_printf(b, "%6.1f %6.1f ", e->cpu_s / e->run_s * 100.0, e->pct_max);
		else
			sbuf_printf(b, "%6s %6s ", "-", "-");
		fmt_mem_kb(&t, e->rss_max_kb, 8);
		sbuf_pad(b, t.p, t.len, 8, 1);
		sbuf_free(&t);
		sbuf_addc(b, ' ');
		put_clock(b, e->first_ns, days);
		sbuf_addc(b, ' ');
		put_clock(b, e->last_ns, days);
		sbuf_addc(b, ' ');
		if (e->has_status)
			fmt_exit(b, e->exit_status);
		else
			sbuf_adds(b, e->ended ? _("yes") : _("no"));
		sbuf_addc(b, '\n');
	}
}

static void summary_print(struct sbuf *b, const char *path, struct record_reader *r,
			  struct summary *s)
{
	const struct record_info *in = record_reader_info(r);
	double span = (double)(s->last.tv_sec - s->first.tv_sec) +
		      (double)(s->last.tv_nsec - s->first.tv_nsec) / 1e9;
	double bytes = (double)s->bytes / (double)s->frames;

	sbuf_printf(b, _("Recording %s (format version %u)\n"), path, in->version);
	sbuf_printf(b, _("Machine:  %s, Linux %s, %u CPUs, %u ticks/s, %u-byte pages\n"),
		    in->hostname, in->kernel, in->ncpu, in->hz, in->page_size);
	sbuf_adds(b, _("From:     "));
	put_time(b, &s->first);
	sbuf_adds(b, _(" to "));
	put_time(b, &s->last);
	sbuf_printf(b, _(" (%.0f s), %llu frames\n"), span, (unsigned long long)s->frames);
	sbuf_printf(b, _("Seen:     %llu processes, %.1f rows per frame\n"),
		    (unsigned long long)s->nseen, (double)s->rows / (double)s->frames);
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
	summary_top(b, s);
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
	free(s.live[0].v);
	free(s.live[1].v);
	record_reader_free(r);
	return status;
}
