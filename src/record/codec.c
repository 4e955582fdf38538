// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * codec.c: a frame as the recording keeps it, before compression, and back.
 * Every field is written explicitly, little-endian, doubles as their IEEE
 * bits, so a replayed frame prints exactly what the live one printed. Rows
 * are written whole, in the frame's order, so that an idle process's row is
 * the same bytes as in the previous frame and the delta compressor finds it.
 * What a struct's fields are in the data, and in what order, is one table
 * per struct (system_fields[], proc_fields[], ...) that the writer and the
 * reader both walk; only what has a count of its own (per-CPU totals,
 * counter names, PMUs) is written and read by hand. The decoder trusts
 * nothing: every count and length is checked against the bytes left and the
 * frame's limits. Touches no kernel interface.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "ptop/record.h"

/* More than this many rows or CPUs is a corrupt count, not a machine. */
#define CODEC_MAX_ROWS (1u << 22)
#define CODEC_MAX_CPUS 65536u
#define CODEC_MAX_STR 65535u
#define CODEC_NULL UINT32_MAX

/* How a field is kept: its C type in the struct, and its bytes in the data. */
enum codec_kind {
	CK_U8,	   /* uint8_t: a byte */
	CK_CHAR,   /* char: a byte */
	CK_BOOL,   /* bool: a byte, 0 or 1 */
	CK_BIT,	   /* bool: a bit of one flags byte with the CK_BIT fields next to it */
	CK_I32,	   /* int: 4 bytes */
	CK_U32,	   /* unsigned, uint32_t, uid_t: 4 bytes */
	CK_NSEC,   /* long, nanoseconds below a second: 4 bytes */
	CK_I64,	   /* int64_t: 8 bytes */
	CK_U64,	   /* uint64_t: 8 bytes */
	CK_LONG,   /* long: 8 bytes */
	CK_TIME,   /* time_t: 8 bytes */
	CK_F64,	   /* double: its IEEE bits, 8 bytes */
	CK_CPU,	   /* struct frame_cpu: cpu_fields[] */
	CK_STORED, /* const char *, may be NULL: a string, kept in the store when read */
	CK_FIXED,  /* char[n], NUL-terminated: a string of at most n - 1 bytes */
	CK_COMM,   /* frame_proc's comm and comm_len */
	CK_USER,   /* frame_proc's user: kept in the store once per run of rows with it */
};

/*
 * A field of a struct, in the order the data holds it: what record_encode()
 * writes and record_decode() reads, from one list, so the two cannot part.
 */
struct codec_field {
	size_t off; /* in its struct */
	enum codec_kind kind;
	unsigned n;	/* CK_F64: how many in a row (an array); CK_FIXED: the array's size */
	unsigned since; /* the format version that added it; in none before (read as 0) */
	size_t when;	/* 1 + the offset of the bool it is written under; 0: always */
	bool retired;	/* CK_BIT: a bit nothing keeps any more, written 0 and read past */
	bool side;	/* a row's side member (frame_proc.side): off and when are the side's */
};

/* clang-format off */
#define CF(type, m, k) { .off = offsetof(type, m), .kind = (k) }
/* an array of n, or a char[n] */
#define CF_N(type, m, k, count) { .off = offsetof(type, m), .kind = (k), .n = (count) }
/* added by format version v */
#define CF_SINCE(type, m, k, v) { .off = offsetof(type, m), .kind = (k), .since = (v) }
/* written only when the struct's bool cond is set */
#define CF_WHEN(type, m, k, count, v, cond) \
	{ .off = offsetof(type, m), .kind = (k), .n = (count), .since = (v), \
	  .when = 1 + offsetof(type, cond) }
/* a flag bit that a field no longer has: its place stays, so that older files read */
#define CF_RETIRED_BIT { .kind = CK_BIT, .retired = true }
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define C(m) CF(struct frame_cpu, m, CK_F64)
static const struct codec_field cpu_fields[] = {
	C(user), C(nice), C(system), C(idle), C(iowait), C(irq), C(softirq), C(steal),
};
#undef C

/* The system totals, up to the per-CPU ones (by hand: a count, then each). */
#define S(m, k) CF(struct frame, m, k)
static const struct codec_field system_fields[] = {
	S(time.tv_sec, CK_TIME), S(time.tv_nsec, CK_NSEC),
	S(interval_s, CK_F64), S(uptime_s, CK_F64), CF_N(struct frame, load, CK_F64, 3),
	S(nusers, CK_U32), S(pid_max, CK_U32),
	S(tasks.total, CK_U32), S(tasks.running, CK_U32), S(tasks.sleeping, CK_U32),
	S(tasks.stopped, CK_U32), S(tasks.zombie, CK_U32),
	S(cpu, CK_CPU),
	S(mem.total, CK_U64), S(mem.free, CK_U64), S(mem.used, CK_U64),
	S(mem.buff_cache, CK_U64), S(mem.avail, CK_U64),
	S(swap.total, CK_U64), S(swap.free, CK_U64), S(swap.used, CK_U64),
	S(ncpu, CK_U32), S(hz, CK_LONG),
	S(cost.cpu_s, CK_F64), S(cost.wall_s, CK_F64), S(cost.fds_held, CK_U32),
	S(cost.fd_budget, CK_U32), S(cost.vanished, CK_U32), S(cost.unreadable, CK_U32),
	S(cost.fallback, CK_U32),
	/* the retired bit was the batch run's -c (versions 1 to 3), a presenter's choice
	 * that the frame no longer keeps: a replay shows command lines by its own -c */
	S(threads, CK_BIT), CF_RETIRED_BIT, S(bp_no_hits, CK_BIT),
};
#undef S

/* After the per-CPU totals and the rows' source (a name of the sampler's, by hand). */
static const struct codec_field cost_fields[] = {
	CF_SINCE(struct frame, cost.read_full, CK_U32, 2),
	CF_SINCE(struct frame, cost.read_kept, CK_U32, 2),
	CF_SINCE(struct frame, cost.read_bpf, CK_U32, 2),
	CF_SINCE(struct frame, cost.hook_known, CK_BOOL, 4),
	CF_SINCE(struct frame, cost.hook_s, CK_F64, 4),
	CF_SINCE(struct frame, cost.hook_runs, CK_U64, 4),
	CF_SINCE(struct frame, cost.switch_known, CK_BOOL, 5),
	CF_SINCE(struct frame, cost.switch_s, CK_F64, 5),
	CF_SINCE(struct frame, cost.switch_runs, CK_U64, 5),
	CF_SINCE(struct frame, cost.switch_run_ns, CK_F64, 5),
};

/* The counters' state between their names and the PMUs (both by hand). */
#define K(m, k) CF(struct frame_counters, m, k)
static const struct codec_field counters_fields[] = {
	K(hardware, CK_BOOL), K(why_software, CK_STORED),
	K(attached, CK_U32), K(not_attached, CK_U32), K(partial, CK_U32), K(last_error, CK_I32),
	K(refused, CK_U32), K(refused_error, CK_I32), K(paranoid, CK_I32),
	K(children_counted, CK_BOOL), K(na, CK_U8), K(software, CK_U8), K(nsplit, CK_I32),
	/* what the counts said of the processes not attached (ctr_notes()): 0 before */
	CF_SINCE(struct frame_counters, budget, CK_U32, 16),
};
#undef K

/*
 * A row: row.def's members in its order (the flags before the members they
 * say are there), each as its kind, from the version that added it.
 */
#define ALWAYS 0
#define WHEN(flag) ROW_AT_##flag
#define ROW(type, m, dim, k, v, cond, needs, sources) \
	{ .off = offsetof(struct frame_proc, m), .kind = CK_##k, \
	  .n = sizeof(((struct frame_proc *)0)->m) / sizeof(type), .since = (v), .when = cond },
#define ROW_LOCAL(type, m, dim, needs, sources)
#define ROW_SIDE(type, m, dim, k, v, cond, needs, sources) \
	{ .off = offsetof(struct frame_proc_side, m), .kind = CK_##k, \
	  .n = sizeof(((struct frame_proc_side *)0)->m) / sizeof(type), .since = (v), \
	  .when = (cond) & ~FRAME_AT_SIDE, .side = true },
#define ROW_SIDE_LOCAL(type, m, dim, needs, sources)
static const struct codec_field proc_fields[] = {
#include "ptop/row.def"
};
#undef ROW
#undef ROW_LOCAL
#undef ROW_SIDE
#undef ROW_SIDE_LOCAL
#undef ALWAYS
#undef WHEN

/* Version 4: where the interval's busy CPU went (frame_account), after the breakpoints. */
#define A(m, k) CF_SINCE(struct frame, acct.m, k, 4)
static const struct codec_field acct_fields[] = {
	A(exits, CK_BOOL), A(busy_s, CK_F64), A(irq_s, CK_F64), A(rows_s, CK_F64),
	A(exited_s, CK_F64), A(lost_s, CK_F64), A(children_s, CK_F64), A(lost, CK_U64),
};
#undef A

/* Version 6: the machine's pressure (/proc/pressure), when the frame read it. */
#define PW(m, k) CF_WHEN(struct frame, psi.m, k, 0, 6, psi.asked)
#define P_LINE(r, l) \
	PW(res[r].l.avg_x100[0], CK_U32), PW(res[r].l.avg_x100[1], CK_U32), \
	PW(res[r].l.avg_x100[2], CK_U32), PW(res[r].l.total_us, CK_U64)
#define P_RES(r) \
	PW(error[r], CK_I32), PW(res[r].has_full, CK_BOOL), P_LINE(r, some), P_LINE(r, full)
static const struct codec_field psi_fields[] = {
	CF_SINCE(struct frame, psi.asked, CK_BOOL, 6),
	P_RES(PSI_CPU), P_RES(PSI_MEMORY), P_RES(PSI_IO),
};
#undef P_RES
#undef P_LINE
#undef PW

#define B(m, k) CF(struct frame_bp, m, k)
static const struct codec_field bp_fields[] = {
	B(pid, CK_I32), B(addr, CK_U64), B(len, CK_I32),
	CF_N(struct frame_bp, type, CK_FIXED, sizeof(((struct frame_bp *)0)->type)),
	B(hits, CK_U64), B(hits_per_s, CK_F64), B(threads, CK_I32), B(gone, CK_BOOL),
};
#undef B
/* clang-format on */

/* ---- writing ---- */

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

/* The encoder's state: the bytes, and the format version they are written in. */
struct put {
	struct sbuf *b;
	unsigned version;
};

static void put_fields(struct put *w, const void *base, const void *side,
		       const struct codec_field *t, size_t n);

/* Where t's field is: in the struct at base, or a row's side member in side. */
#define FIELD_BASE(t, base, in_side) ((t).side ? (in_side) : (base))

/*
 * The CK_BIT fields from t[0] on as one byte, t[0] the lowest bit (a later
 * version's always 0); how many there were.
 */
static size_t put_bits(struct put *w, const char *base, const char *side,
		       const struct codec_field *t, size_t n)
{
	unsigned byte = 0, since = UINT_MAX;
	size_t k;

	for (k = 0; k < n && t[k].kind == CK_BIT; k++) {
		if (t[k].since <= w->version && !t[k].retired)
			byte |= (unsigned)*(const bool *)(FIELD_BASE(t[k], base, side) + t[k].off)
				<< k;
		since = t[k].since < since ? t[k].since : since;
	}
	/* a flags byte a later version added is in none before it */
	if (since <= w->version)
		put_u8(w->b, byte);
	return k;
}

static void put_field(struct put *w, const char *base, const struct codec_field *fd)
{
	const char *at = base + fd->off;
	struct sbuf *b = w->b;

	switch (fd->kind) {
	case CK_U8:
		put_u8(b, *(const uint8_t *)at);
		break;
	case CK_CHAR:
		put_u8(b, (unsigned char)*at);
		break;
	case CK_BOOL:
	case CK_BIT:
		put_u8(b, *(const bool *)at);
		break;
	case CK_I32:
		put_u32(b, (uint32_t)(*(const int *)at));
		break;
	case CK_U32:
		put_u32(b, *(const uint32_t *)at);
		break;
	case CK_NSEC:
		put_u32(b, (uint32_t)(*(const long *)at));
		break;
	case CK_I64:
		put_u64(b, (uint64_t)(*(const int64_t *)at));
		break;
	case CK_U64:
		put_u64(b, *(const uint64_t *)at);
		break;
	case CK_LONG:
		put_u64(b, (uint64_t)(*(const long *)at));
		break;
	case CK_TIME:
		put_u64(b, (uint64_t)(*(const time_t *)at));
		break;
	case CK_F64:
		for (unsigned i = 0; i < (fd->n ? fd->n : 1); i++)
			put_f64(b, ((const double *)at)[i]);
		break;
	case CK_CPU:
		put_fields(w, at, NULL, cpu_fields, ARRAY_SIZE(cpu_fields));
		break;
	case CK_STORED:
	case CK_USER:
		put_cstr(b, *(const char *const *)at);
		break;
	case CK_FIXED:
		put_str(b, at, strnlen(at, fd->n - 1));
		break;
	case CK_COMM: {
		const struct frame_proc *p = (const struct frame_proc *)base;

		put_str(b, p->comm, p->comm_len);
		break;
	}
	}
}

/* Every field of t of the struct at base (and a row's side) that the version being written
 * has. */
static void put_fields(struct put *w, const void *base, const void *side,
		       const struct codec_field *t, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const char *p = FIELD_BASE(t[i], base, side);

		if (t[i].kind == CK_BIT)
			i += put_bits(w, base, side, t + i, n - i) - 1;
		else if (t[i].since <= w->version &&
			 (!t[i].when || *(const bool *)(p + t[i].when - 1)))
			put_field(w, p, &t[i]);
	}
}

/* A row: its side's members from its side (a row without one writes them 0 and unflagged). */
static void put_proc(struct put *w, const struct frame_proc *p)
{
	put_fields(w, p, p->side ? p->side : &frame_side_none, proc_fields,
		   ARRAY_SIZE(proc_fields));
}

static void put_counters(struct put *w, const struct frame_counters *c)
{
	struct sbuf *b = w->b;

	put_u8(b, c->on);
	if (!c->on)
		return;
	put_u8(b, (unsigned)c->nevents);
	for (int e = 0; e < c->nevents; e++)
		put_cstr(b, c->names[e]);
	put_fields(w, c, NULL, counters_fields, ARRAY_SIZE(counters_fields));
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

void record_encode(struct sbuf *b, const struct frame *f, unsigned version)
{
	struct put w = {.b = b, .version = version};

	put_fields(&w, f, NULL, system_fields, ARRAY_SIZE(system_fields));
	put_u32(b, f->cpus ? f->ncpus : 0);
	for (unsigned i = 0; f->cpus && i < f->ncpus; i++)
		put_fields(&w, &f->cpus[i], NULL, cpu_fields, ARRAY_SIZE(cpu_fields));
	/* version 2: where the rows came from */
	if (version >= 2)
		put_cstr(b, f->cost.source);
	put_fields(&w, f, NULL, cost_fields, ARRAY_SIZE(cost_fields));
	put_counters(&w, &f->counters);
	put_u32(b, (uint32_t)f->strings.len);
	sbuf_add(b, f->strings.p, f->strings.len);
	put_u32(b, (uint32_t)f->nprocs);
	for (size_t i = 0; i < f->nprocs; i++)
		put_proc(&w, &f->procs[i]);
	put_u32(b, (uint32_t)f->nbps);
	for (size_t i = 0; i < f->nbps; i++)
		put_fields(&w, &f->bps[i], NULL, bp_fields, ARRAY_SIZE(bp_fields));
	if (version < 4)
		return;
	/* version 4: the accounting, and the processes that ended in the interval */
	put_fields(&w, f, NULL, acct_fields, ARRAY_SIZE(acct_fields));
	put_u32(b, (uint32_t)f->nexited);
	for (size_t i = 0; i < f->nexited; i++)
		put_proc(&w, &f->exited[i]);
	/* version 6: the pressure, after all the rest */
	put_fields(&w, f, NULL, psi_fields, ARRAY_SIZE(psi_fields));
}

/* ---- reading ---- */

/* The decoder's cursor: once bad, every read gives 0 and it stays bad. */
struct cur {
	const unsigned char *p, *end;
	bool bad;
	unsigned version; /* the file's format version: what the data holds */
	struct record_store *st;
	const char *user; /* the last row's user name in the store, and its length */
	size_t user_len;
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
static const char *get_stored(struct cur *c)
{
	const char *s;
	size_t n;
	char *at;

	if (!get_str(c, &s, &n, CODEC_MAX_STR - 1, true) || !s)
		return NULL;
	at = c->st->names.p + c->st->names.len;
	sbuf_add(&c->st->names, s, n);
	sbuf_addc(&c->st->names, '\0');
	return at;
}

/* The user name of a row: kept in the store once per run of rows with that name. */
static const char *get_user(struct cur *c)
{
	const char *s;
	size_t n;

	if (!get_str(c, &s, &n, CODEC_MAX_STR - 1, false))
		return NULL;
	if (!c->user || c->user_len != n || memcmp(c->user, s, n)) {
		c->user = c->st->names.p + c->st->names.len;
		c->user_len = n;
		sbuf_add(&c->st->names, s, n);
		sbuf_addc(&c->st->names, '\0');
	}
	return c->user;
}

static void get_fields(struct cur *c, void *base, void *side, const struct codec_field *t,
		       size_t n);

/*
 * The flags byte of the CK_BIT fields from t[0] on; a bit the data's version
 * has no field for is corrupt. How many fields there were.
 */
static size_t get_bits(struct cur *c, char *base, char *side, const struct codec_field *t, size_t n)
{
	unsigned byte, since = UINT_MAX;
	size_t k;

	for (k = 0; k < n && t[k].kind == CK_BIT; k++)
		since = t[k].since < since ? t[k].since : since;
	if (since > c->version) {
		for (k = 0; k < n && t[k].kind == CK_BIT; k++)
			if (!t[k].retired)
				*(bool *)(FIELD_BASE(t[k], base, side) + t[k].off) = false;
		return k;
	}
	byte = get_u8(c);

	for (k = 0; k < n && t[k].kind == CK_BIT; k++) {
		/* a retired bit is set or not in older files: either reads */
		if (t[k].retired)
			continue;
		*(bool *)(FIELD_BASE(t[k], base, side) + t[k].off) =
		    t[k].since <= c->version && (byte >> k & 1);
		if (t[k].since > c->version && (byte >> k & 1))
			c->bad = true;
	}
	if (byte >> k)
		c->bad = true;
	return k;
}

static void get_field(struct cur *c, char *base, const struct codec_field *fd)
{
	char *at = base + fd->off;

	switch (fd->kind) {
	case CK_U8:
		*(uint8_t *)at = (uint8_t)get_u8(c);
		break;
	case CK_CHAR:
		*at = (char)get_u8(c);
		break;
	case CK_BOOL:
	case CK_BIT:
		*(bool *)at = get_bool(c);
		break;
	case CK_I32:
		*(int *)at = (int)get_u32(c);
		break;
	case CK_U32:
		*(uint32_t *)at = get_u32(c);
		break;
	case CK_NSEC:
		*(long *)at = (long)get_u32(c);
		if (*(long *)at >= 1000000000L)
			c->bad = true;
		break;
	case CK_I64:
		*(int64_t *)at = (int64_t)get_u64(c);
		break;
	case CK_U64:
		*(uint64_t *)at = get_u64(c);
		break;
	case CK_LONG:
		*(long *)at = (long)get_u64(c);
		break;
	case CK_TIME:
		*(time_t *)at = (time_t)get_u64(c);
		break;
	case CK_F64:
		for (unsigned i = 0; i < (fd->n ? fd->n : 1); i++)
			((double *)at)[i] = get_f64(c);
		break;
	case CK_CPU:
		get_fields(c, at, NULL, cpu_fields, ARRAY_SIZE(cpu_fields));
		break;
	case CK_STORED:
		*(const char **)at = get_stored(c);
		break;
	case CK_FIXED:
		get_fixed(c, at, fd->n);
		break;
	case CK_COMM: {
		struct frame_proc *p = (struct frame_proc *)base;
		const char *s;
		size_t n;

		p->comm_len = 0;
		if (get_str(c, &s, &n, PROC_COMM_MAX, false)) {
			memcpy(p->comm, s, n);
			p->comm_len = (uint8_t)n;
		}
		break;
	}
	case CK_USER:
		*(const char **)at = get_user(c);
		break;
	}
}

/*
 * The fields of t that the data's version holds, into the struct at base;
 * the others (a later version's, or not written) are left as they are: the
 * caller has zeroed them.
 */
static void get_fields(struct cur *c, void *base, void *side, const struct codec_field *t, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char *p = FIELD_BASE(t[i], (char *)base, (char *)side);

		if (t[i].kind == CK_BIT)
			i += get_bits(c, base, side, t + i, n - i) - 1;
		else if (t[i].since <= c->version &&
			 (!t[i].when || *(const bool *)(p + t[i].when - 1)))
			get_field(c, p, &t[i]);
	}
}

static void get_system(struct cur *c, struct frame *f)
{
	unsigned ncpus;

	get_fields(c, f, NULL, system_fields, ARRAY_SIZE(system_fields));
	ncpus = get_u32(c);
	if (ncpus > CODEC_MAX_CPUS || !need(c, (size_t)ncpus * 64)) {
		c->bad = true;
		return;
	}
	f->ncpus = ncpus;
	if (ncpus) {
		f->cpus = xreallocarray(f->cpus, ncpus, sizeof(*f->cpus));
		for (unsigned i = 0; i < ncpus; i++)
			get_fields(c, &f->cpus[i], NULL, cpu_fields, ARRAY_SIZE(cpu_fields));
	} else {
		free(f->cpus);
		f->cpus = NULL;
	}
	f->cost.source = NULL;
	f->cost.read_full = f->cost.read_kept = f->cost.read_bpf = 0;
	f->cost.hook_known = false;
	f->cost.hook_s = 0;
	f->cost.hook_runs = 0;
	f->cost.switch_known = false;
	f->cost.switch_s = f->cost.switch_run_ns = 0;
	f->cost.switch_runs = 0;
	if (c->version >= 2) {
		const char *src;
		size_t n;

		/* a constant string, as the sampler's; NULL when none was named */
		if (get_str(c, &src, &n, 15, true) && src) {
			if (n == 3 && !memcmp(src, "bpf", 3))
				f->cost.source = "bpf";
			else if (n == 9 && !memcmp(src, "bpf-delta", 9))
				f->cost.source = "bpf-delta";
			else if (n == 6 && !memcmp(src, "procfs", 6))
				f->cost.source = "procfs";
		}
	}
	get_fields(c, f, NULL, cost_fields, ARRAY_SIZE(cost_fields));
}

static void get_counters(struct cur *c, struct frame_counters *k)
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
	get_fields(c, k, NULL, counters_fields, ARRAY_SIZE(counters_fields));
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
		k->failed_why[i] = get_stored(c);
		if (!k->failed_why[i])
			c->bad = true; /* the formats print every reason */
	}
	k->self_rdpmc = get_bool(c);
	for (int e = 0; e < k->nevents; e++)
		k->self_ctr[e] = get_f64(c);
}

/* A row of f, with a side: a replay keeps every member the recording has. */
static void get_proc(struct cur *c, struct frame *f, struct frame_proc *p, size_t nstrings)
{
	memset(p, 0, sizeof(*p));
	get_fields(c, p, frame_side_add(f, p), proc_fields, ARRAY_SIZE(proc_fields));
	if (c->version < 2)
		p->ruid = p->suid = p->fsuid = p->uid;
	if (p->has_cmd && (p->cmd_off > nstrings || p->cmd_len > nstrings - p->cmd_off))
		c->bad = true;
}

static void decode_procs(struct cur *c, struct frame *f)
{
	uint32_t n = get_u32(c);

	/* a row takes at least 150 bytes: a count beyond the bytes left is corrupt */
	if (n > CODEC_MAX_ROWS || !need(c, (size_t)n * 150)) {
		c->bad = true;
		return;
	}
	if (f->cap < n) {
		f->procs = xreallocarray(f->procs, n, sizeof(*f->procs));
		f->cap = n;
	}
	for (uint32_t i = 0; i < n && !c->bad; i++)
		get_proc(c, f, &f->procs[i], f->strings.len);
	f->nprocs = c->bad ? 0 : n;
}

static void decode_bps(struct cur *c, struct frame *f)
{
	struct record_store *st = c->st;
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
		memset(&st->bps[i], 0, sizeof(st->bps[i]));
		get_fields(c, &st->bps[i], NULL, bp_fields, ARRAY_SIZE(bp_fields));
	}
	if (n) {
		f->bps = st->bps;
		f->nbps = n;
	}
}

/* Version 4: the accounting and the exited processes' rows (f->exited). */
static void decode_exited(struct cur *c, struct frame *f)
{
	uint32_t n;

	memset(&f->acct, 0, sizeof(f->acct));
	f->nexited = 0;
	if (c->version < 4)
		return;
	get_fields(c, f, NULL, acct_fields, ARRAY_SIZE(acct_fields));
	n = get_u32(c);
	if (n > CODEC_MAX_ROWS || !need(c, (size_t)n * 150)) {
		c->bad = true;
		return;
	}
	if (f->exited_cap < n) {
		f->exited = xreallocarray(f->exited, n, sizeof(*f->exited));
		f->exited_cap = n;
	}
	for (uint32_t i = 0; i < n && !c->bad; i++) {
		get_proc(c, f, &f->exited[i], f->strings.len);
		if (!f->exited[i].exited)
			c->bad = true; /* every row there ended */
	}
	f->nexited = c->bad ? 0 : n;
}

int record_decode(const void *data, size_t len, unsigned version, struct frame *f,
		  struct record_store *st)
{
	struct cur c = {
	    .p = data, .end = (const unsigned char *)data + len, .version = version, .st = st};
	const char *s;
	size_t n;

	/* Room for every string the data can hold (each has a 4-byte length, and
	 * takes one byte more here), so that pointers into the store stay put. */
	sbuf_reset(&st->names);
	sbuf_reserve(&st->names, len + len / 4 + 16);
	sbuf_reset(&f->strings);
	f->nprocs = 0;
	frame_sides_begin(f, true);
	get_system(&c, f);
	get_counters(&c, &f->counters);
	if (get_str(&c, &s, &n, RECORD_FRAME_MAX, false))
		sbuf_add(&f->strings, s, n);
	decode_procs(&c, f);
	decode_bps(&c, f);
	decode_exited(&c, f);
	/* before version 6, and in a frame that did not read it: not recorded */
	memset(&f->psi, 0, sizeof(f->psi));
	get_fields(&c, f, NULL, psi_fields, ARRAY_SIZE(psi_fields));
	if (c.bad || c.p != c.end) {
		f->nprocs = 0;
		f->nbps = 0;
		f->nexited = 0;
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
