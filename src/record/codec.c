// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * codec.c: a frame as the recording keeps it, before compression, and back.
 * Every field is written explicitly, little-endian, doubles as their IEEE
 * bits, so a replayed frame prints exactly what the live one printed. Rows
 * are written whole, in the frame's order, so that an idle process's row is
 * the same bytes as in the previous frame and the delta compressor finds it.
 * The decoder trusts nothing: every count and length is checked against the
 * bytes left and the frame's limits. Touches no kernel interface.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ptop/record.h"

/* More than this many rows or CPUs is a corrupt count, not a machine. */
#define CODEC_MAX_ROWS (1u << 22)
#define CODEC_MAX_CPUS 65536u
#define CODEC_MAX_STR 65535u
#define CODEC_NULL UINT32_MAX

static void put_u8(struct sbuf *b, unsigned v)
{
	sbuf_addc(b, (char)(uint8_t)v);
}

static void put_u32(struct sbuf *b, uint32_t v)
{
	unsigned char c[4] = {(unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16),
			      (unsigned char)(v >> 24)};

	sbuf_add(b, c, 4);
}

static void put_u64(struct sbuf *b, uint64_t v)
{
	put_u32(b, (uint32_t)v);
	put_u32(b, (uint32_t)(v >> 32));
}

static void put_f64(struct sbuf *b, double d)
{
	uint64_t v;

	memcpy(&v, &d, sizeof(v));
	put_u64(b, v);
}

/* A string: u32 length (CODEC_NULL: a NULL pointer), then its bytes. */
static void put_str(struct sbuf *b, const char *s, size_t n)
{
	if (!s) {
		put_u32(b, CODEC_NULL);
		return;
	}
	if (n > CODEC_MAX_STR - 1)
		n = CODEC_MAX_STR - 1;
	put_u32(b, (uint32_t)n);
	sbuf_add(b, s, n);
}

static void put_cstr(struct sbuf *b, const char *s)
{
	put_str(b, s, s ? strlen(s) : 0);
}

static void put_cpu(struct sbuf *b, const struct frame_cpu *c)
{
	const double v[] = {c->user,   c->nice, c->system,  c->idle,
			    c->iowait, c->irq,	c->softirq, c->steal};

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		put_f64(b, v[i]);
}

static void put_system(struct sbuf *b, const struct frame *f)
{
	put_u64(b, (uint64_t)f->time.tv_sec);
	put_u32(b, (uint32_t)f->time.tv_nsec);
	put_f64(b, f->interval_s);
	put_f64(b, f->uptime_s);
	for (int i = 0; i < 3; i++)
		put_f64(b, f->load[i]);
	put_u32(b, f->nusers);
	put_u32(b, f->pid_max);
	put_u32(b, f->tasks.total);
	put_u32(b, f->tasks.running);
	put_u32(b, f->tasks.sleeping);
	put_u32(b, f->tasks.stopped);
	put_u32(b, f->tasks.zombie);
	put_cpu(b, &f->cpu);
	put_u64(b, f->mem.total);
	put_u64(b, f->mem.free);
	put_u64(b, f->mem.used);
	put_u64(b, f->mem.buff_cache);
	put_u64(b, f->mem.avail);
	put_u64(b, f->swap.total);
	put_u64(b, f->swap.free);
	put_u64(b, f->swap.used);
	put_u32(b, f->ncpu);
	put_u64(b, (uint64_t)f->hz);
	put_f64(b, f->cost.cpu_s);
	put_f64(b, f->cost.wall_s);
	put_u32(b, f->cost.fds_held);
	put_u32(b, f->cost.fd_budget);
	put_u32(b, f->cost.vanished);
	put_u32(b, f->cost.unreadable);
	put_u32(b, f->cost.fallback);
	put_u8(b, (unsigned)f->threads | (unsigned)f->cmdlines << 1 | (unsigned)f->bp_no_hits << 2);
	put_u32(b, f->cpus ? f->ncpus : 0);
	for (unsigned i = 0; f->cpus && i < f->ncpus; i++)
		put_cpu(b, &f->cpus[i]);
	/* version 2: where the rows came from */
	put_cstr(b, f->cost.source);
	put_u32(b, f->cost.read_full);
	put_u32(b, f->cost.read_kept);
	put_u32(b, f->cost.read_bpf);
}

static void put_counters(struct sbuf *b, const struct frame_counters *c)
{
	put_u8(b, c->on);
	if (!c->on)
		return;
	put_u8(b, (unsigned)c->nevents);
	for (int e = 0; e < c->nevents; e++)
		put_cstr(b, c->names[e]);
	put_u8(b, c->hardware);
	put_cstr(b, c->why_software);
	put_u32(b, c->attached);
	put_u32(b, c->not_attached);
	put_u32(b, c->partial);
	put_u32(b, (uint32_t)c->last_error);
	put_u32(b, c->refused);
	put_u32(b, (uint32_t)c->refused_error);
	put_u32(b, (uint32_t)c->paranoid);
	put_u8(b, c->children_counted);
	put_u8(b, c->na);
	put_u8(b, c->software);
	put_u32(b, (uint32_t)c->nsplit);
	put_u8(b, (unsigned)c->npmus);
	for (int i = 0; i < c->npmus; i++)
		put_cstr(b, c->pmus[i]);
	put_u8(b, (unsigned)c->nfailed);
	for (int i = 0; i < c->nfailed; i++) {
		put_cstr(b, c->failed[i]);
		put_cstr(b, c->failed_why[i]);
	}
	put_u8(b, c->self_rdpmc);
	for (int e = 0; e < c->nevents; e++)
		put_f64(b, c->self_ctr[e]);
}

static void put_proc(struct sbuf *b, const struct frame_proc *p)
{
	put_u32(b, (uint32_t)p->pid);
	put_u32(b, (uint32_t)p->ppid);
	put_u8(b, (unsigned char)p->state);
	put_str(b, p->comm, p->comm_len);
	put_u32(b, p->uid);
	put_cstr(b, p->user);
	put_u64(b, (uint64_t)p->priority);
	put_u64(b, (uint64_t)p->nice);
	put_u64(b, (uint64_t)p->threads);
	put_u64(b, p->vsize_kb);
	put_u64(b, p->rss_kb);
	put_u64(b, p->shared_kb);
	put_f64(b, p->cpu_pct);
	put_f64(b, p->mem_pct);
	put_u64(b, p->utime);
	put_u64(b, p->stime);
	put_u64(b, p->start_ticks);
	put_u32(b, (uint32_t)p->processor);
	put_u64(b, p->swap_kb);
	put_u64(b, p->rss_anon_kb);
	put_u64(b, p->rss_file_kb);
	put_u64(b, p->vctxsw);
	put_u64(b, p->nvctxsw);
	put_u32(b, (uint32_t)p->perf_fds);
	put_u32(b, (uint32_t)p->tgid);
	put_u8(b, (unsigned)p->has_ctr | (unsigned)p->ctr_partial << 1 |
		      (unsigned)p->ctr_not_counted << 2 | (unsigned)p->has_cmd << 3 |
		      (unsigned)p->has_io << 4);
	/* version 2: -S's children times, -U's uids, I/O and control group */
	put_u64(b, p->cutime);
	put_u64(b, p->cstime);
	put_u32(b, p->ruid);
	put_u32(b, p->suid);
	put_u32(b, p->fsuid);
	if (p->has_io) {
		put_u64(b, p->io_rchar);
		put_u64(b, p->io_wchar);
		put_u64(b, p->io_read_bytes);
		put_u64(b, p->io_write_bytes);
		put_u64(b, p->io_read_rate);
		put_u64(b, p->io_write_rate);
	}
	put_cstr(b, p->cgroup);
	put_cstr(b, p->container);
	if (p->has_cmd) {
		put_u32(b, p->cmd_off);
		put_u32(b, p->cmd_len);
	}
	if (p->has_ctr) {
		put_u8(b, p->ctr_na);
		put_f64(b, p->ctr_scale);
		for (int e = 0; e < FRAME_MAX_EVENTS; e++)
			put_f64(b, p->ctr[e]);
	}
}

static void put_bp(struct sbuf *b, const struct frame_bp *bp)
{
	put_u32(b, (uint32_t)bp->pid);
	put_u64(b, bp->addr);
	put_u32(b, (uint32_t)bp->len);
	put_str(b, bp->type, strnlen(bp->type, sizeof(bp->type) - 1));
	put_u64(b, bp->hits);
	put_f64(b, bp->hits_per_s);
	put_u32(b, (uint32_t)bp->threads);
	put_u8(b, bp->gone);
}

void record_encode(struct sbuf *b, const struct frame *f)
{
	put_system(b, f);
	put_counters(b, &f->counters);
	put_u32(b, (uint32_t)f->strings.len);
	sbuf_add(b, f->strings.p, f->strings.len);
	put_u32(b, (uint32_t)f->nprocs);
	for (size_t i = 0; i < f->nprocs; i++)
		put_proc(b, &f->procs[i]);
	put_u32(b, (uint32_t)f->nbps);
	for (size_t i = 0; i < f->nbps; i++)
		put_bp(b, &f->bps[i]);
}

/* The decoder's cursor: once bad, every read gives 0 and it stays bad. */
struct cur {
	const unsigned char *p, *end;
	bool bad;
	unsigned version; /* the file's format version: what the data holds */
};

static bool need(struct cur *c, size_t n)
{
	if (c->bad || (size_t)(c->end - c->p) < n) {
		c->bad = true;
		return false;
	}
	return true;
}

static unsigned get_u8(struct cur *c)
{
	return need(c, 1) ? *c->p++ : 0;
}

static uint32_t get_u32(struct cur *c)
{
	uint32_t v;

	if (!need(c, 4))
		return 0;
	v = (uint32_t)c->p[0] | (uint32_t)c->p[1] << 8 | (uint32_t)c->p[2] << 16 |
	    (uint32_t)c->p[3] << 24;
	c->p += 4;
	return v;
}

static uint64_t get_u64(struct cur *c)
{
	uint64_t lo = get_u32(c);

	return lo | (uint64_t)get_u32(c) << 32;
}

static double get_f64(struct cur *c)
{
	uint64_t v = get_u64(c);
	double d;

	memcpy(&d, &v, sizeof(d));
	return d;
}

static bool get_bool(struct cur *c)
{
	unsigned v = get_u8(c);

	if (v > 1)
		c->bad = true;
	return v == 1;
}

/* A string of at most max bytes: *s points into the data (not terminated). */
static bool get_str(struct cur *c, const char **s, size_t *n, size_t max, bool may_be_null)
{
	uint32_t len = get_u32(c);

	*s = NULL;
	*n = 0;
	if (len == CODEC_NULL && may_be_null)
		return !c->bad;
	if (len > max || !need(c, len)) {
		c->bad = true;
		return false;
	}
	*s = (const char *)c->p;
	*n = len;
	c->p += len;
	return true;
}

/* A string into a fixed array of size cap, NUL-terminated. */
static void get_fixed(struct cur *c, char *out, size_t cap)
{
	const char *s;
	size_t n;

	out[0] = '\0';
	if (!get_str(c, &s, &n, cap - 1, false))
		return;
	memcpy(out, s, n);
	out[n] = '\0';
}

/* A string kept in the store (NUL-terminated), or NULL. */
static const char *get_stored(struct cur *c, struct record_store *st)
{
	const char *s;
	size_t n;
	char *at;

	if (!get_str(c, &s, &n, CODEC_MAX_STR - 1, true) || !s)
		return NULL;
	at = st->names.p + st->names.len;
	sbuf_add(&st->names, s, n);
	sbuf_addc(&st->names, '\0');
	return at;
}

static void get_cpu(struct cur *c, struct frame_cpu *cpu)
{
	double *v[] = {&cpu->user,   &cpu->nice, &cpu->system,	&cpu->idle,
		       &cpu->iowait, &cpu->irq,	 &cpu->softirq, &cpu->steal};

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		*v[i] = get_f64(c);
}

static void get_system(struct cur *c, struct frame *f)
{
	unsigned flags, ncpus;

	f->time.tv_sec = (time_t)get_u64(c);
	f->time.tv_nsec = (long)get_u32(c);
	if (f->time.tv_nsec >= 1000000000L)
		c->bad = true;
	f->interval_s = get_f64(c);
	f->uptime_s = get_f64(c);
	for (int i = 0; i < 3; i++)
		f->load[i] = get_f64(c);
	f->nusers = get_u32(c);
	f->pid_max = get_u32(c);
	f->tasks.total = get_u32(c);
	f->tasks.running = get_u32(c);
	f->tasks.sleeping = get_u32(c);
	f->tasks.stopped = get_u32(c);
	f->tasks.zombie = get_u32(c);
	get_cpu(c, &f->cpu);
	f->mem.total = get_u64(c);
	f->mem.free = get_u64(c);
	f->mem.used = get_u64(c);
	f->mem.buff_cache = get_u64(c);
	f->mem.avail = get_u64(c);
	f->swap.total = get_u64(c);
	f->swap.free = get_u64(c);
	f->swap.used = get_u64(c);
	f->ncpu = get_u32(c);
	f->hz = (long)get_u64(c);
	f->cost.cpu_s = get_f64(c);
	f->cost.wall_s = get_f64(c);
	f->cost.fds_held = get_u32(c);
	f->cost.fd_budget = get_u32(c);
	f->cost.vanished = get_u32(c);
	f->cost.unreadable = get_u32(c);
	f->cost.fallback = get_u32(c);
	flags = get_u8(c);
	if (flags > 7)
		c->bad = true;
	f->threads = flags & 1;
	f->cmdlines = flags >> 1 & 1;
	f->bp_no_hits = flags >> 2 & 1;
	ncpus = get_u32(c);
	if (ncpus > CODEC_MAX_CPUS || !need(c, (size_t)ncpus * 64)) {
		c->bad = true;
		return;
	}
	f->ncpus = ncpus;
	if (ncpus) {
		f->cpus = xreallocarray(f->cpus, ncpus, sizeof(*f->cpus));
		for (unsigned i = 0; i < ncpus; i++)
			get_cpu(c, &f->cpus[i]);
	} else {
		free(f->cpus);
		f->cpus = NULL;
	}
	f->cost.source = NULL;
	f->cost.read_full = f->cost.read_kept = f->cost.read_bpf = 0;
	if (c->version >= 2) {
		const char *src;
		size_t n;

		/* a constant string, as the sampler's; NULL when none was named */
		if (get_str(c, &src, &n, 15, true) && src) {
			if (n == 3 && !memcmp(src, "bpf", 3))
				f->cost.source = "bpf";
			else if (n == 6 && !memcmp(src, "procfs", 6))
				f->cost.source = "procfs";
		}
		f->cost.read_full = get_u32(c);
		f->cost.read_kept = get_u32(c);
		f->cost.read_bpf = get_u32(c);
	}
}

static void get_counters(struct cur *c, struct frame_counters *k, struct record_store *st)
{
	memset(k, 0, sizeof(*k));
	k->on = get_bool(c);
	if (!k->on)
		return;
	k->nevents = (int)get_u8(c);
	if (k->nevents > FRAME_MAX_EVENTS) {
		c->bad = true;
		return;
	}
	for (int e = 0; e < k->nevents; e++)
		get_fixed(c, k->names[e], sizeof(k->names[e]));
	k->hardware = get_bool(c);
	k->why_software = get_stored(c, st);
	k->attached = get_u32(c);
	k->not_attached = get_u32(c);
	k->partial = get_u32(c);
	k->last_error = (int)get_u32(c);
	k->refused = get_u32(c);
	k->refused_error = (int)get_u32(c);
	k->paranoid = (int)get_u32(c);
	k->children_counted = get_bool(c);
	k->na = (uint8_t)get_u8(c);
	k->software = (uint8_t)get_u8(c);
	k->nsplit = (int)get_u32(c);
	k->npmus = (int)get_u8(c);
	if (k->npmus > 8) {
		c->bad = true;
		return;
	}
	for (int i = 0; i < k->npmus; i++)
		get_fixed(c, k->pmus[i], sizeof(k->pmus[i]));
	k->nfailed = (int)get_u8(c);
	if (k->nfailed > FRAME_MAX_EVENTS) {
		c->bad = true;
		return;
	}
	for (int i = 0; i < k->nfailed; i++) {
		get_fixed(c, k->failed[i], sizeof(k->failed[i]));
		k->failed_why[i] = get_stored(c, st);
		if (!k->failed_why[i])
			c->bad = true; /* the formats print every reason */
	}
	k->self_rdpmc = get_bool(c);
	for (int e = 0; e < k->nevents; e++)
		k->self_ctr[e] = get_f64(c);
}

static void get_proc(struct cur *c, struct frame_proc *p, size_t nstrings, const char **user,
		     size_t *user_len, struct record_store *st)
{
	const char *s;
	size_t n;
	unsigned flags;

	memset(p, 0, sizeof(*p));
	p->pid = (int)get_u32(c);
	p->ppid = (int)get_u32(c);
	p->state = (char)get_u8(c);
	if (get_str(c, &s, &n, PROC_COMM_MAX, false)) {
		memcpy(p->comm, s, n);
		p->comm_len = (uint8_t)n;
	}
	p->uid = get_u32(c);
	if (!get_str(c, user, user_len, CODEC_MAX_STR - 1, false))
		return;
	p->priority = (int64_t)get_u64(c);
	p->nice = (int64_t)get_u64(c);
	p->threads = (int64_t)get_u64(c);
	p->vsize_kb = get_u64(c);
	p->rss_kb = get_u64(c);
	p->shared_kb = get_u64(c);
	p->cpu_pct = get_f64(c);
	p->mem_pct = get_f64(c);
	p->utime = get_u64(c);
	p->stime = get_u64(c);
	p->start_ticks = get_u64(c);
	p->processor = (int)get_u32(c);
	p->swap_kb = get_u64(c);
	p->rss_anon_kb = get_u64(c);
	p->rss_file_kb = get_u64(c);
	p->vctxsw = get_u64(c);
	p->nvctxsw = get_u64(c);
	p->perf_fds = (int)get_u32(c);
	p->tgid = (int)get_u32(c);
	flags = get_u8(c);
	if (flags > (c->version >= 2 ? 31u : 15u))
		c->bad = true;
	p->has_ctr = flags & 1;
	p->ctr_partial = flags >> 1 & 1;
	p->ctr_not_counted = flags >> 2 & 1;
	p->has_cmd = flags >> 3 & 1;
	p->has_io = flags >> 4 & 1;
	p->ruid = p->suid = p->fsuid = p->uid;
	if (c->version >= 2) {
		p->cutime = get_u64(c);
		p->cstime = get_u64(c);
		p->ruid = get_u32(c);
		p->suid = get_u32(c);
		p->fsuid = get_u32(c);
		if (p->has_io) {
			p->io_rchar = get_u64(c);
			p->io_wchar = get_u64(c);
			p->io_read_bytes = get_u64(c);
			p->io_write_bytes = get_u64(c);
			p->io_read_rate = get_u64(c);
			p->io_write_rate = get_u64(c);
		}
		p->cgroup = get_stored(c, st);
		p->container = get_stored(c, st);
	}
	if (p->has_cmd) {
		p->cmd_off = get_u32(c);
		p->cmd_len = get_u32(c);
		if (p->cmd_off > nstrings || p->cmd_len > nstrings - p->cmd_off)
			c->bad = true;
	}
	if (p->has_ctr) {
		p->ctr_na = (uint8_t)get_u8(c);
		p->ctr_scale = get_f64(c);
		for (int e = 0; e < FRAME_MAX_EVENTS; e++)
			p->ctr[e] = get_f64(c);
	}
}

/* The rows. A user name is kept in the store once per run of rows with that name. */
static void decode_procs(struct cur *c, struct frame *f, struct record_store *st)
{
	uint32_t n = get_u32(c);
	const char *last = NULL;
	size_t last_len = 0;

	/* a row takes at least 150 bytes: a count beyond the bytes left is corrupt */
	if (n > CODEC_MAX_ROWS || !need(c, (size_t)n * 150)) {
		c->bad = true;
		return;
	}
	if (f->cap < n) {
		f->procs = xreallocarray(f->procs, n, sizeof(*f->procs));
		f->cap = n;
	}
	for (uint32_t i = 0; i < n && !c->bad; i++) {
		struct frame_proc *p = &f->procs[i];
		const char *s;
		size_t len;

		get_proc(c, p, f->strings.len, &s, &len, st);
		if (c->bad)
			break;
		if (!last || last_len != len || memcmp(last, s, len)) {
			last = st->names.p + st->names.len;
			last_len = len;
			sbuf_add(&st->names, s, len);
			sbuf_addc(&st->names, '\0');
		}
		p->user = last;
	}
	f->nprocs = c->bad ? 0 : n;
}

static void decode_bps(struct cur *c, struct frame *f, struct record_store *st)
{
	uint32_t n = get_u32(c);

	f->nbps = 0;
	f->bps = NULL;
	if (n > 4096 || !need(c, (size_t)n * 37)) {
		c->bad = true;
		return;
	}
	if (st->bps_cap < n) {
		st->bps = xreallocarray(st->bps, n, sizeof(*st->bps));
		st->bps_cap = n;
	}
	for (uint32_t i = 0; i < n && !c->bad; i++) {
		struct frame_bp *bp = &st->bps[i];

		memset(bp, 0, sizeof(*bp));
		bp->pid = (int)get_u32(c);
		bp->addr = get_u64(c);
		bp->len = (int)get_u32(c);
		get_fixed(c, bp->type, sizeof(bp->type));
		bp->hits = get_u64(c);
		bp->hits_per_s = get_f64(c);
		bp->threads = (int)get_u32(c);
		bp->gone = get_bool(c);
	}
	if (n) {
		f->bps = st->bps;
		f->nbps = n;
	}
}

int record_decode(const void *data, size_t len, unsigned version, struct frame *f,
		  struct record_store *st)
{
	struct cur c = {.p = data, .end = (const unsigned char *)data + len, .version = version};
	const char *s;
	size_t n;

	/* Room for every string the data can hold (each has a 4-byte length, and
	 * takes one byte more here), so that pointers into the store stay put. */
	sbuf_reset(&st->names);
	sbuf_reserve(&st->names, len + len / 4 + 16);
	sbuf_reset(&f->strings);
	f->nprocs = 0;
	get_system(&c, f);
	get_counters(&c, &f->counters, st);
	if (get_str(&c, &s, &n, RECORD_FRAME_MAX, false))
		sbuf_add(&f->strings, s, n);
	decode_procs(&c, f, st);
	decode_bps(&c, f, st);
	if (c.bad || c.p != c.end) {
		f->nprocs = 0;
		f->nbps = 0;
		f->counters.on = false;
		return -EINVAL;
	}
	return 0;
}

void record_store_free(struct record_store *s)
{
	sbuf_free(&s->names);
	free(s->bps);
	memset(s, 0, sizeof(*s));
}
