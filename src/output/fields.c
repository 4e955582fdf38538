// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fields.c: the column table every presenter shares, and row selection
 * (filter, sort). The table comes from columns.def, one line a column; a
 * column over a row member takes how the value is kept (type and offset in
 * struct frame_proc) and what it needs read from the member's line in
 * row.def, so sorting and the machine formats (JSON keys, CSV headings) need
 * nothing more; the text formats show it as it is kept, or through a case
 * in field_format(). A column over a member the row has is one line in
 * columns.def; it then appears in the viewer and its chooser, batch text,
 * JSON, CSV and -s, with nothing else kept in step.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "ptop/output.h"

/* How a column over a row member keeps its value, from the member's kind (row.def). */
#define ROW_FT_I32 FT_INT
#define ROW_FT_U32 FT_UID
#define ROW_FT_I64 FT_I64
#define ROW_FT_U64 FT_U64
#define ROW_FT_F64 FT_PCT
#define ROW_FT_CHAR FT_CHAR
#define ROW_FT_STORED FT_NAME
#define ROW_FT_USER FT_NAME
#define ROW_FT_COMM FT_COMM
/* a flag or a byte: no column type fits */
#define ROW_FT_NONE (-1)
#define ROW_FT_BIT ROW_FT_NONE
#define ROW_FT_U8 ROW_FT_NONE

/* A member kept only while a flag says so (row.def's WHEN): 1 + the flag's offset in the
 * member's struct; 0 for none. */
#define ALWAYS 0
#define WHEN(flag) ROW_AT_##flag

/* Each member's column type, what it needs read, the flag it holds under and where it is,
 * by its name. */
enum {
#define ROW(type, name, dim, kind, since, when, needs, sources)                                    \
	MEMBER_FT_##name = ROW_FT_##kind, MEMBER_NEEDS_##name = ROW_NEED_##needs,                  \
	MEMBER_WHEN_##name = when, MEMBER_AT_##name = ROW_AT_##name,
#define ROW_LOCAL(type, name, dim, needs, sources)                                                 \
	MEMBER_FT_##name = ROW_FT_NONE, MEMBER_NEEDS_##name = ROW_NEED_##needs,                    \
	MEMBER_WHEN_##name = 0, MEMBER_AT_##name = 1 + offsetof(struct frame_proc, name),
#define ROW_SIDE(type, name, dim, kind, since, when, needs, sources)                               \
	MEMBER_FT_##name = ROW_FT_##kind,                                                          \
	MEMBER_NEEDS_##name = ROW_NEED_##needs | FRAME_NEED_SIDE, MEMBER_WHEN_##name = when,       \
	MEMBER_AT_##name = ROW_AT_##name,
#define ROW_SIDE_LOCAL(type, name, dim, needs, sources)                                            \
	MEMBER_FT_##name = ROW_FT_NONE, MEMBER_NEEDS_##name = ROW_NEED_##needs | FRAME_NEED_SIDE,  \
	MEMBER_WHEN_##name = 0, MEMBER_AT_##name = 1 + ROW_SIDE_AT(name),
#include "ptop/row.def"
#undef ROW
#undef ROW_LOCAL
#undef ROW_SIDE
#undef ROW_SIDE_LOCAL
};

/* A member's flag is in the member's struct. */
#define ROW(type, name, dim, kind, since, when, needs, sources)                                    \
	_Static_assert((when) < FRAME_AT_SIDE, "the flag of " #name " is in the side");
#define ROW_LOCAL(type, name, dim, needs, sources)
#define ROW_SIDE(type, name, dim, kind, since, when, needs, sources)                               \
	_Static_assert(!(when) || (when) > FRAME_AT_SIDE, "the flag of " #name " is in the row");
#define ROW_SIDE_LOCAL(type, name, dim, needs, sources)
#include "ptop/row.def"
#undef ROW
#undef ROW_LOCAL
#undef ROW_SIDE
#undef ROW_SIDE_LOCAL
#undef ALWAYS
#undef WHEN

/* columns.def's flags */
#define COL_LEFT 1u
#define COL_ASC 2u
#define COL_OBSERVER 4u
#define COL_JSON_ONLY 8u
#define COL_IF_LOOKED 16u
#define COL_IF_ASKED 32u
#define COL_IF_COUNTING 64u
#define COL_ZERO_UNKNOWN 128u

#define COL_COMMON(ID, nm, ttl, ht, htt, w, fl, k, d)                                              \
	.name = (nm), .title = (ttl), .htop = (ht), .htop_title = (htt), .desc = (d),              \
	.width = (w), .left = ((fl)&COL_LEFT) != 0, .ascending = ((fl)&COL_ASC) != 0,              \
	.observer = ((fl)&COL_OBSERVER) != 0, .json_only = ((fl)&COL_JSON_ONLY) != 0,              \
	.if_looked = ((fl)&COL_IF_LOOKED) != 0, .if_asked = ((fl)&COL_IF_ASKED) != 0,              \
	.if_counting = ((fl)&COL_IF_COUNTING) != 0, .zero_unknown = ((fl)&COL_ZERO_UNKNOWN) != 0,  \
	.key = (k)

const struct field_def field_defs[FIELD_COUNT] = {
#define COLUMN(ID, nm, ttl, ht, htt, w, fl, member, k, d)                                          \
	[FIELD_##ID] = {COL_COMMON(ID, nm, ttl, ht, htt, w, fl, k, d),                             \
			.needs = MEMBER_NEEDS_##member,                                            \
			.type = (enum field_type)MEMBER_FT_##member,                               \
			.off = (MEMBER_AT_##member - 1) & ~FRAME_AT_SIDE,                          \
			.side = (MEMBER_AT_##member & FRAME_AT_SIDE) != 0,                         \
			.when = MEMBER_WHEN_##member & ~FRAME_AT_SIDE},
#define COLUMN_OVER(ID, nm, ttl, ht, htt, w, fl, ty, o, nd, k, d)                                  \
	[FIELD_##ID] = {COL_COMMON(ID, nm, ttl, ht, htt, w, fl, k, d),                             \
			.needs = (nd) | ((o)&FRAME_AT_SIDE ? FRAME_NEED_SIDE : 0), .type = (ty),   \
			.off = (o) & ~FRAME_AT_SIDE, .side = ((o)&FRAME_AT_SIDE) != 0},
#include "ptop/columns.def"
#undef COLUMN
#undef COLUMN_OVER
};

/* A column over a member no column type fits (a flag, a byte) does not compile. */
#define COLUMN(ID, nm, ttl, ht, htt, w, fl, member, k, d)                                          \
	_Static_assert(MEMBER_FT_##member != ROW_FT_NONE, "no column type for " #member);
#define COLUMN_OVER(ID, nm, ttl, ht, htt, w, fl, ty, o, nd, k, d)
#include "ptop/columns.def"
#undef COLUMN
#undef COLUMN_OVER

int field_by_name(const char *name)
{
	for (int i = 0; i < FIELD_COUNT; i++)
		if (!strcasecmp(name, field_defs[i].name))
			return i;
	return -1;
}

int field_by_htop_name(const char *name)
{
	for (int i = 0; i < FIELD_COUNT; i++)
		if (field_defs[i].htop && !strcasecmp(name, field_defs[i].htop))
			return i;
	return -1;
}

/* top's titles of columns shown under another title: the same value, one column. */
static const struct {
	const char *title;
	enum field_id id;
} title_aliases[] = {
    {"ioR", FIELD_IO_READ}, /* top's: io's read_bytes */
    {"ioW", FIELD_IO_WRITE},
};

int field_by_title(const char *name)
{
	for (int i = 0; i < FIELD_COUNT; i++)
		if (!strcmp(name, field_defs[i].title))
			return i;
	for (size_t i = 0; i < sizeof(title_aliases) / sizeof(title_aliases[0]); i++)
		if (!strcmp(name, title_aliases[i].title))
			return (int)title_aliases[i].id;
	return -1;
}

/* The field whose top (htop false) or htop title is name; any case when icase. */
static int by_heading(const char *name, bool htop, bool icase)
{
	for (int i = 0; i < FIELD_COUNT; i++) {
		const char *t = htop ? field_defs[i].htop_title : field_defs[i].title;

		if (t && !(icase ? strcasecmp(name, t) : strcmp(name, t)))
			return i;
	}
	return -1;
}

int field_named(const char *name, bool any_case)
{
	/* top's titles, its aliases too */
	int id = field_by_title(name);

	if (id < 0)
		id = field_by_name(name);
	if (id < 0)
		id = field_by_htop_name(name);
	if (id < 0)
		id = by_heading(name, true, false);
	if (id < 0 && any_case)
		id = by_heading(name, false, true);
	if (id < 0 && any_case)
		id = by_heading(name, true, true);
	return id;
}

const char *field_heading(enum field_id id, bool htop)
{
	const struct field_def *d = &field_defs[id];

	return htop && d->htop_title ? d->htop_title : d->title;
}

#define CMP(x, y) (((x) > (y)) - ((x) < (y)))

/*
 * Where a column's member is: in the row, or in its side. A row without one is of a frame
 * from before the column was asked for (the viewer shows, sorts and filters the frame it
 * has at once): zeros here, and unknown to field_absent().
 */
static const char *member_base(const struct field_def *d, const struct frame_proc *p)
{
	if (!d->side)
		return (const char *)p;
	return (const char *)(p->side ? p->side : &frame_side_none);
}

#define VAL(type, p, d) (*(type const *)(member_base((d), (p)) + (d)->off))

static bool is_time_field(enum field_id id)
{
	return id == FIELD_TIME || id == FIELD_CPUTIME || id == FIELD_UTIME || id == FIELD_STIME;
}

/*
 * TIME+, UTIME+ or STIME+ of p in clock ticks; with cumulative, its dead
 * children's (cutime, cstime) added, as top -S shows and sorts them.
 */
static uint64_t time_ticks(enum field_id id, const struct frame_proc *p, bool cumulative)
{
	uint64_t u = p->utime + (cumulative ? p->cutime : 0);
	uint64_t s = p->stime + (cumulative ? p->cstime : 0);

	return id == FIELD_UTIME ? u : id == FIELD_STIME ? s : u + s;
}

/* The last part of an executable's path, as htop's EXE shows it. */
static const char *exe_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/*
 * The field's own order, without the PID tie-break: by the value as it is
 * kept (the times with the dead children's when cumulative).
 */
static int value_compare(enum field_id id, const struct frame_proc *a, const struct frame_proc *b,
			 bool cumulative)
{
	const struct field_def *d = &field_defs[id];
	bool na = field_absent(id, a), nb = field_absent(id, b);

	if (na || nb)
		return CMP(!na, !nb);
	if (is_time_field(id))
		return CMP(time_ticks(id, a, cumulative), time_ticks(id, b, cumulative));
	if (id == FIELD_EXENAME)
		return strcmp(exe_name(frame_side(a)->exe), exe_name(frame_side(b)->exe));
	/* as it is in effect, as shown: none set is its nice's best effort */
	if (id == FIELD_IOPRIO)
		return CMP(frame_ioprio_effective(frame_side(a)->ioprio, a->nice),
			   frame_ioprio_effective(frame_side(b)->ioprio, b->nice));
	switch (d->type) {
	case FT_INT:
		return CMP(VAL(int, a, d), VAL(int, b, d));
	case FT_I64:
		return CMP(VAL(int64_t, a, d), VAL(int64_t, b, d));
	case FT_U64:
		return CMP(VAL(uint64_t, a, d), VAL(uint64_t, b, d));
	case FT_UID:
		return CMP(VAL(uid_t, a, d), VAL(uid_t, b, d));
	case FT_PCT:
		return CMP(VAL(double, a, d), VAL(double, b, d));
	case FT_CHAR:
		return CMP(VAL(char, a, d), VAL(char, b, d));
	case FT_NAME:
		return strcmp(VAL(const char *, a, d), VAL(const char *, b, d));
	case FT_COMM: {
		size_t n = a->comm_len < b->comm_len ? a->comm_len : b->comm_len;
		int c = memcmp(a->comm, b->comm, n);

		return c ? c : CMP(a->comm_len, b->comm_len);
	}
	case FT_TICKS: /* a time field, above */
		break;
	case FT_CTR:
		return CMP(field_ctr_value(id, a), field_ctr_value(id, b));
	case FT_CTRFIG:
		return CMP(VAL(double, a, d), VAL(double, b, d));
	}
	return 0;
}

const char *field_title(const struct frame *f, const struct output_view *v, enum field_id id)
{
	const struct field_def *d = &field_defs[id];

	if (d->type == FT_CTR && (int)d->off < f->counters.nevents)
		return f->counters.names[d->off];
	return field_heading(id, v && v->htop_titles);
}

int field_width(const struct frame *f, const struct output_view *v, enum field_id id)
{
	int w = field_defs[id].width, tl = (int)strlen(field_title(f, v, id));

	return w && tl > w ? tl : w;
}

int field_ctr(int e)
{
	return e >= 0 && e <= FIELD_CTR8 - FIELD_CTR1 ? FIELD_CTR1 + e : -1;
}

double field_ctr_value(enum field_id id, const struct frame_proc *p)
{
	int e = (int)field_defs[id].off;

	return p->has_ctr && ctr_counted(p, e) ? p->ctr[e] : -1;
}

enum ctr_state ctr_state(const struct frame *f, const struct frame_proc *p, int e)
{
	/* the row's reasons before an event's: multiplexed out, or attached within it */
	if (!p->has_ctr || e >= f->counters.nevents)
		return CTR_NONE;
	if (p->ctr_not_counted)
		return CTR_NOT_COUNTED;
	if (p->ctr_counting)
		return CTR_COUNTING;
	if (e >= 0 && (p->ctr_na >> e & 1))
		return CTR_NA;
	return CTR_COUNTED;
}

const char *ctr_state_text(enum ctr_state s, bool utf8)
{
	static const struct {
		const char *ascii, *utf8; /* utf8: NULL where it is the ASCII form */
	} text[CTR_STATE_COUNT] = {
	    [CTR_COUNTED] = {NULL, NULL},
	    [CTR_NONE] = {"-", NULL},
	    [CTR_NOT_COUNTED] = {N_("not counted"), NULL},
	    [CTR_COUNTING] = {N_("counting..."), N_("counting…")},
	    [CTR_NA] = {N_("n/a"), NULL},
	};

	if (s < 0 || s >= CTR_STATE_COUNT)
		return NULL;
	return utf8 && text[s].utf8 ? text[s].utf8 : text[s].ascii;
}

/* The next note of ctr_notes(): key, kind, the sentence from fmt and its arguments. */
static void ctr_note_add(struct ctr_note *out, size_t *n, const char *key, bool reason,
			 const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static void ctr_note_add(struct ctr_note *out, size_t *n, const char *key, bool reason,
			 const char *fmt, ...)
{
	struct ctr_note *t;
	va_list ap;

	if (*n >= CTR_NOTES_MAX)
		return;
	t = &out[*n];
	t->key = key;
	t->reason = reason;
	va_start(ap, fmt);
	vsnprintf(t->text, sizeof(t->text), fmt, ap);
	va_end(ap);
	(*n)++;
}

/* The names of mask (of n names, each stride bytes apart) joined with sep into buf. */
static const char *ctr_join(char *buf, size_t len, const char *names, size_t stride, int n,
			    uint8_t mask, const char *sep)
{
	size_t at = 0;

	buf[0] = 0;
	for (int i = 0; i < n && at < len; i++)
		if (mask >> i & 1)
			at += (size_t)snprintf(buf + at, len - at, "%s%s", at ? sep : "",
					       names + (size_t)i * stride);
	return buf;
}

/* ctr_notes()'s reasons: why rows show n/a or '-', and events that could not be opened. */
static void ctr_notes_reasons(const struct frame_counters *c, bool translate, struct ctr_note *out,
			      size_t *n)
{
#define TR(s) (translate ? _(s) : (s))
	char list[200];

	/* user level only, these read 0 whatever happened: the rows say n/a, this says why */
	if (c->na)
		ctr_note_add(out, n, "user_only", true,
			     TR(N_("user only (kernel counting refused): %s n/a")),
			     ctr_join(list, sizeof(list), c->names[0], sizeof(c->names[0]),
				      c->nevents, c->na, " "));
	/* the rows leave those out: say why */
	if (c->refused) {
		const char *fmt = translate
				      ? ngettext("not attached to %u process: %s",
						 "not attached to %u processes: %s", c->refused)
				  : c->refused == 1 ? "not attached to %u process: %s"
						    : "not attached to %u processes: %s";
		char why[sizeof(out->text)], level[40] = "";

		/* the sentence, then the level that explains it, in one note */
		snprintf(why, sizeof(why), fmt, c->refused, strerror(-c->refused_error));
		if (c->paranoid != PERF_PARANOID_UNKNOWN)
			snprintf(level, sizeof(level), " (perf_event_paranoid=%d)", c->paranoid);
		ctr_note_add(out, n, "refused", true, "%s%s", why, level);
	} else if (c->last_error) {
		ctr_note_add(out, n, "last_error", true, TR(N_("last refusal: %s")),
			     strerror(-c->last_error));
	}
	/* an event's own reason, where it is not the one the source gave already */
	for (int e = 0; e < c->nfailed; e++)
		if (!c->why_software || strcmp(c->failed_why[e], c->why_software))
			ctr_note_add(out, n, "failed", true, "%s: %s", c->failed[e],
				     TR(c->failed_why[e]));
#undef TR
}

size_t ctr_notes(const struct frame_counters *c, bool translate, struct ctr_note *out)
{
#define TR(s) (translate ? _(s) : (s))
	const char *why = c->why_software ? TR(c->why_software) : TR(N_("asked for"));
	char list[200];
	size_t n = 0;

	if (c->hardware)
		ctr_note_add(out, &n, "source", false, "%s", TR(N_("hardware")));
	else
		ctr_note_add(out, &n, "source", false, TR(N_("software only: %s")), why);
	if (c->not_attached > c->refused && !c->budget) /* a recording before format 16 */
		ctr_note_add(
		    out, &n, "attached", false,
		    TR(N_("%u attached, %u not attached (%u over the budget, --counter-budget)")),
		    c->attached, c->not_attached, c->not_attached - c->refused);
	else if (c->not_attached > c->refused)
		ctr_note_add(out, &n, "attached", false,
			     TR(N_("%u attached, %u not attached (%u over the budget of %u, "
				   "--counter-budget)")),
			     c->attached, c->not_attached, c->not_attached - c->refused, c->budget);
	else
		ctr_note_add(out, &n, "attached", false, TR(N_("%u attached, %u not attached")),
			     c->attached, c->not_attached);
	if (c->partial)
		ctr_note_add(out, &n, "partial", false, TR(N_("%u with threads not counted (+)")),
			     c->partial);
	if (c->npmus > 1)
		ctr_note_add(out, &n, "hybrid", false,
			     TR(N_("hybrid CPU: hardware events summed over %s")),
			     ctr_join(list, sizeof(list), c->pmus[0], sizeof(c->pmus[0]), c->npmus,
				      0xff, ", "));
	if (c->nsplit > 1)
		ctr_note_add(out, &n, "groups", false,
			     TR(N_("more events than counters: split into %d groups, each scaled")),
			     c->nsplit);
	if (c->children_counted)
		ctr_note_add(out, &n, "children_counted", false, "%s",
			     TR(N_("kernel without inherit_thread: forked children also "
				   "count in their parents")));
	ctr_notes_reasons(c, translate, out, &n);
	/* figures that need a PMU are left out rather than shown as columns of '-' */
	if (!c->hardware)
		ctr_note_add(out, &n, "no_pmu", false, "%s",
			     TR(N_("IPC, misses per kilo-instruction: n/a: no PMU")));
	return n;
#undef TR
}

void fmt_ctr(struct sbuf *b, const char *event, double v, int width)
{
	static const char units[] = "KMGT";
	char tmp[32];
	int n;

	if (!strcmp(event, "task-clock") || !strcmp(event, "cpu-clock")) {
		v /= 1e6;
		n = snprintf(tmp, sizeof(tmp), "%.*fms", v < 100 ? 1 : 0, v);
	} else {
		n = snprintf(tmp, sizeof(tmp), "%.0f", v);
		for (int u = 0; units[u] && (n > width || n > 5); u++) {
			v /= 1000;
			n = snprintf(tmp, sizeof(tmp), "%.*f%c", v < 100 ? 1 : 0, v, units[u]);
		}
	}
	sbuf_add(b, tmp, (size_t)n);
}

bool field_string(enum field_id id, const struct frame_proc *p, const char **s, size_t *n)
{
	const struct field_def *d = &field_defs[id];

	switch (d->type) {
	case FT_CHAR:
		*s = &VAL(char, p, d);
		*n = 1;
		return true;
	case FT_NAME:
		*s = VAL(const char *, p, d);
		if (!*s)
			*s = "";
		*n = strlen(*s);
		return true;
	case FT_COMM:
		*s = p->comm;
		*n = p->comm_len;
		return true;
	default:
		return false;
	}
}

void field_number(struct sbuf *b, enum field_id id, const struct frame_proc *p)
{
	const struct field_def *d = &field_defs[id];

	/* a yes or no: JSON's and CSV's */
	if (id == FIELD_CONT) {
		sbuf_adds(b, VAL(int, p, d) ? "true" : "false");
		return;
	}
	switch (d->type) {
	case FT_INT:
		sbuf_addi(b, VAL(int, p, d));
		break;
	case FT_I64:
		sbuf_addi(b, VAL(int64_t, p, d));
		break;
	case FT_U64:
		sbuf_addu(b, VAL(uint64_t, p, d));
		break;
	case FT_UID:
		sbuf_addu(b, VAL(uid_t, p, d));
		break;
	case FT_PCT:
		sbuf_addf(b, VAL(double, p, d), 2);
		break;
	case FT_TICKS:
		sbuf_addu(b, p->utime + p->stime);
		break;
	case FT_CTRFIG:
		sbuf_addf(b, VAL(double, p, d), 3);
		break;
	default:
		break;
	}
}

bool field_swapd_why(struct sbuf *b, const struct frame *f)
{
	switch (f->taskstats_err) {
	case 0:
		if (!f->delayacct_off)
			return false;
		sbuf_reset(b);
		sbuf_adds(b, _("SWPD%: no swap-in delays are counted while sysctl "
			       "kernel.task_delayacct is 0"));
		return true;
	case -EPERM:
	case -EACCES:
		sbuf_reset(b);
		sbuf_adds(b, _("SWPD%: taskstats needs CAP_NET_ADMIN (run ptop as root)"));
		return true;
	case -ENOENT:
	case -EOPNOTSUPP:
		sbuf_reset(b);
		sbuf_adds(b, _("SWPD%: this kernel has no taskstats (CONFIG_TASKSTATS), or the "
			       "processes are not the live /proc's"));
		return true;
	default:
		sbuf_reset(b);
		sbuf_adds(b, _("SWPD%: taskstats cannot be read: "));
		sbuf_adds(b, strerror(-f->taskstats_err));
		return true;
	}
}

bool field_absent(enum field_id id, const struct frame_proc *p)
{
	const struct field_def *d = &field_defs[id];

	/* a side member's, in a frame read before its column was asked for */
	if (d->side && !p->side)
		return true;
	/* a member kept only under a flag (the I/O's has_io, an exit's exited) has no value without it */
	if (d->when)
		return !*(const bool *)(member_base(d, p) + d->when - 1);
	if (d->type == FT_NAME)
		return !VAL(const char *, p, d);
	if (d->type == FT_CTRFIG)
		return !p->has_ctr || VAL(double, p, d) < 0;
	if (d->zero_unknown && d->type == FT_U64)
		return !VAL(uint64_t, p, d);
	return d->if_looked && d->type == FT_INT && VAL(int, p, d) < 0;
}

int field_compare(enum field_id id, const struct frame_proc *a, const struct frame_proc *b)
{
	int c = value_compare(id, a, b, false);

	return c ? c : CMP(a->pid, b->pid);
}

void fmt_mem_unit(struct sbuf *b, uint64_t kb, int width, enum mem_unit unit)
{
	static const char units[] = "kmgtpe";
	char tmp[32];
	int n;

	if (unit == UNIT_KIB) {
		size_t start = b->len;

		sbuf_addu(b, kb);
		if (width <= 0 || b->len - start <= (size_t)width)
			return;
		b->len = start;
		unit = UNIT_MIB;
	}
	/*
	 * As top's scale_mem (procps 4): one decimal in every unit, the first unit
	 * from unit up in which the value fits, so that 6208000 KiB in six columns
	 * is 5.9g, not 6062m. Rare (large values, or -e), so snprintf is fine
	 * here: it writes the locale's mark.
	 */
	double x = (double)kb;
	for (int u = 1; units[u]; u++) {
		x /= 1024.0;
		if (u < (int)unit)
			continue;
		n = snprintf(tmp, sizeof(tmp), "%.1f%c", x, units[u]);
		/* the last unit takes what it gets, without its decimal if need be */
		if (n > width && width > 0 && !units[u + 1])
			n = snprintf(tmp, sizeof(tmp), "%.0f%c", x, units[u]);
		if (n <= width || width <= 0 || !units[u + 1]) {
			sbuf_add(b, tmp, (size_t)n);
			return;
		}
	}
}

void fmt_mem_kb(struct sbuf *b, uint64_t kb, int width)
{
	fmt_mem_unit(b, kb, width, UNIT_KIB);
}

static void add2(struct sbuf *b, unsigned v)
{
	sbuf_addc(b, (char)('0' + v / 10 % 10));
	sbuf_addc(b, (char)('0' + v % 10));
}

void fmt_time_plus(struct sbuf *b, uint64_t ticks, long hz, int width)
{
	uint64_t cs = hz > 0 ? ticks * 100 / (uint64_t)hz : 0; /* hundredths */
	uint64_t mins = cs / 6000;
	size_t start = b->len;

	sbuf_addu(b, mins);
	sbuf_addc(b, ':');
	add2(b, (unsigned)(cs / 100 % 60));
	sbuf_addc(b, '.');
	add2(b, (unsigned)(cs % 100));
	if (width <= 0 || b->len - start <= (size_t)width)
		return;
	/* Too long: hours and minutes, as top's "H:MM" form. */
	b->len = start;
	sbuf_addu(b, mins / 60);
	sbuf_addc(b, ':');
	add2(b, (unsigned)(mins % 60));
}

/*
 * A character a terminal would act on rather than show: C0 controls and
 * DEL; C1 controls (U+0080..U+009F, which some terminals obey even in
 * UTF-8, CSI among them); and the bidirectional overrides and isolates
 * (U+202A..U+202E, U+2066..U+2069), which would reorder the rest of the line.
 */
static bool unsafe_char(const unsigned char *u, size_t l)
{
	if (l == 1)
		return u[0] < 0x20 || u[0] == 0x7f;
	if (l == 2)
		return u[0] == 0xc2 && u[1] < 0xa0;
	return l == 3 && u[0] == 0xe2 &&
	       ((u[1] == 0x80 && u[2] >= 0xaa && u[2] <= 0xae) ||
		(u[1] == 0x81 && u[2] >= 0xa6 && u[2] <= 0xa9));
}

size_t fmt_printable(struct sbuf *b, const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, cols = 0;

	while (i < n) {
		size_t run = 0, l;

		/* a run of printable ASCII (most names are all of it) is copied as it is */
		while (i + run < n && u[i + run] >= 0x20 && u[i + run] < 0x7f)
			run++;
		if (run) {
			sbuf_add(b, s + i, run);
			i += run;
			cols += run;
			continue;
		}
		l = utf8_len(s + i, n - i);
		if (l == 0 || unsafe_char(u + i, l)) {
			/* one '?' per character, so that columns stay as the name's */
			sbuf_addc(b, '?');
			i += l ? l : 1;
		} else {
			sbuf_add(b, s + i, l);
			i += l;
		}
		cols++;
	}
	return cols;
}

/* A byte count in four or five columns: plain below 10000, else K/M/G/T (1024s). */
static void fmt_bytes(struct sbuf *b, uint64_t v)
{
	static const char units[] = "KMGTPE";
	double x = (double)v;
	int u = -1;

	if (v < 10000) {
		sbuf_addu(b, v);
		return;
	}
	do {
		x /= 1024.0;
		u++;
	} while (x >= 999.5 && units[u + 1]);
	sbuf_addf(b, x, x < 9.95 ? 1 : 0);
	sbuf_addc(b, units[u]);
}

/*
 * A count in width columns: plain if it fits, else in thousands, millions, ...
 * (K, M, G, T) with one decimal below 100, as top scales its counts.
 */
static void fmt_count(struct sbuf *b, uint64_t v, int width)
{
	static const char units[] = "KMGTPE";
	size_t start = b->len;
	double x = (double)v;
	int u = -1;

	sbuf_addu(b, v);
	if (width <= 0 || b->len - start <= (size_t)width)
		return;
	b->len = start;
	do {
		x /= 1000.0;
		u++;
	} while (x >= 999.5 && units[u + 1]);
	sbuf_addf(b, x, x < 99.95 ? 1 : 0);
	sbuf_addc(b, units[u]);
}

/*
 * An interval of secs as top shows ELAPSED and STARTED: "M:SS" (from_minutes
 * false), else "H,MM", else "D+HH", else weeks "Ww", the first that fits width.
 */
static void fmt_interval(struct sbuf *b, double secs, int width, bool from_minutes)
{
	uint64_t s = secs > 0 ? (uint64_t)secs : 0;
	char tmp[32];
	int n = -1;

	if (!from_minutes)
		n = snprintf(tmp, sizeof(tmp), "%" PRIu64 ":%02u", s / 60, (unsigned)(s % 60));
	if (n < 0 || n > width)
		n = snprintf(tmp, sizeof(tmp), "%" PRIu64 ",%02u", s / 3600,
			     (unsigned)(s / 60 % 60));
	if (n > width)
		n = snprintf(tmp, sizeof(tmp), "%" PRIu64 "+%02u", s / 86400,
			     (unsigned)(s / 3600 % 24));
	if (n > width)
		n = snprintf(tmp, sizeof(tmp), "%" PRIu64 "w", s / (7 * 86400));
	sbuf_add(b, tmp, (size_t)n);
}

/*
 * A terminal as ps and top name it from stat's tty_nr: pts/N, ttyN, ttySN,
 * and the other common drivers; "?" for none, else its major:minor.
 */
static void fmt_tty(struct sbuf *b, int tty_nr)
{
	unsigned dev = (unsigned)tty_nr;
	unsigned major = dev >> 8 & 0xfff, minor = (dev & 0xff) | (dev >> 12 & 0xfff00);

	if (!dev)
		sbuf_addc(b, '?');
	else if (major >= 136 && major <= 143)
		sbuf_printf(b, "pts/%u", (major - 136) * 256 + minor);
	else if (major == 4 && minor < 64)
		sbuf_printf(b, "tty%u", minor);
	else if (major == 4)
		sbuf_printf(b, "ttyS%u", minor - 64);
	else if (major == 5 && minor == 1)
		sbuf_adds(b, "console");
	else if (major == 188)
		sbuf_printf(b, "ttyUSB%u", minor);
	else if (major == 166)
		sbuf_printf(b, "ttyACM%u", minor);
	else if (major == 204 && minor >= 64)
		sbuf_printf(b, "ttyAMA%u", minor - 64);
	else
		sbuf_printf(b, "%u:%u", major, minor);
}

/* A scheduling policy as top's CLS shows it. */
static void fmt_policy(struct sbuf *b, uint32_t policy)
{
	/* SCHED_OTHER, FIFO, RR, BATCH, ISO (never merged), IDLE, DEADLINE, EXT */
	static const char *const cls[] = {"TS", "FF", "RR", "B", "ISO", "IDL", "DLN", "EXT"};

	sbuf_adds(b, policy < sizeof(cls) / sizeof(cls[0]) ? cls[policy] : "?");
}

/* Task flags as top's Flags shows them: eight hex digits, each 0 as '.'. */
static void fmt_task_flags(struct sbuf *b, uint32_t flags)
{
	static const char hex[] = ".123456789abcdef";

	for (int shift = 28; shift >= 0; shift -= 4)
		sbuf_addc(b, hex[flags >> shift & 0xf]);
}

/* An I/O priority as htop's IO shows it: none set is best effort at the level its nice gives. */
static void fmt_ioprio(struct sbuf *b, const struct frame_proc *p)
{
	int e = frame_ioprio_effective(frame_side(p)->ioprio, p->nice);

	switch (e / 8) {
	case FRAME_IOPRIO_RT:
		sbuf_printf(b, "R%d", e % 8);
		break;
	case FRAME_IOPRIO_BE:
		sbuf_printf(b, "B%d", e % 8);
		break;
	case FRAME_IOPRIO_IDLE:
		sbuf_adds(b, "id");
		break;
	default:
		sbuf_adds(b, "??");
		break;
	}
}

/* Start time as ps shows it: today's "HH:MM", else "MonDD". */
static void fmt_start(struct sbuf *b, const struct frame_proc *p, const struct frame *f)
{
	double ago = f->hz > 0 ? f->uptime_s - (double)p->start_ticks / (double)f->hz : 0;
	time_t t = f->time.tv_sec - (time_t)(ago > 0 ? ago : 0);
	char s[16];
	struct tm tm;

	localtime_r(&t, &tm);
	if (strftime(s, sizeof(s), ago < 86400 ? "%H:%M" : "%b%d", &tm))
		sbuf_adds(b, s);
}

/* ELAPSED (since it started) and STARTED (after boot), from start_ticks. */
static void fmt_since(struct sbuf *b, enum field_id id, const struct frame_proc *p,
		      const struct frame *f)
{
	double start = f->hz > 0 ? (double)p->start_ticks / (double)f->hz : 0;

	if (id == FIELD_ELAPSED)
		fmt_interval(b, f->uptime_s - start, field_defs[id].width, true);
	else
		fmt_interval(b, start, field_defs[id].width, false);
}

/* VIRT, RES, SHR, SWAP, CODE, DATA: in the view's unit (-e). */
static void fmt_mem_field(struct sbuf *b, enum field_id id, const struct frame_proc *p,
			  const struct output_view *v)
{
	fmt_mem_unit(b, VAL(uint64_t, p, &field_defs[id]), field_defs[id].width, v->task_unit);
}

/*
 * TIME+, UTIME, STIME: clock ticks as top's TIME+, with dead children's under -S; TIME as
 * top's, whole seconds: minutes:seconds, then hours,minutes.
 */
static void fmt_time_field(struct sbuf *b, enum field_id id, const struct frame_proc *p,
			   const struct frame *f, const struct output_view *v)
{
	uint64_t ticks = time_ticks(id, p, v->cumulative);

	if (id == FIELD_CPUTIME)
		fmt_interval(b, f->hz > 0 ? (double)(ticks / (uint64_t)f->hz) : 0,
			     field_defs[id].width, false);
	else
		fmt_time_plus(b, ticks, f->hz, field_defs[id].width);
}

/* %CUU, %CUC as top's: three decimals where they fit, else one, else none. */
static void fmt_life_pct(struct sbuf *b, double v, int width)
{
	size_t start = b->len;

	for (int dec = 3; dec >= 0; dec -= dec == 3 ? 2 : 1) {
		b->len = start;
		sbuf_addf_local(b, v, dec);
		if (b->len - start <= (size_t)width)
			return;
	}
}

/* A counter column: its count, or why there is none for this row, as the view says it. */
static void fmt_ctr_field(struct sbuf *b, enum field_id id, const struct frame_proc *p,
			  const struct frame *f, const struct output_view *v)
{
	int e = (int)field_defs[id].off;
	enum ctr_state s = ctr_state(f, p, e);
	const char *t = ctr_state_text(s, v->utf8);

	if (s == CTR_COUNTED)
		fmt_ctr(b, f->counters.names[e], p->ctr[e], field_defs[id].width);
	else
		sbuf_adds(b, v->translate ? _(t) : t);
}

/* The command line when the view shows them (-c) and the row has one, else the name. */
static void fmt_command(struct sbuf *b, const struct frame_proc *p, const struct frame *f,
			const struct output_view *v)
{
	if (v->cmdlines && p->has_cmd)
		fmt_printable(b, f->strings.p + p->cmd_off, p->cmd_len);
	else
		fmt_printable(b, p->comm, p->comm_len);
	/* a process that ended in the interval says how, as atop's exited ones do */
	if (p->exited) {
		sbuf_adds(b, " <");
		fmt_exit(b, p->exit_status);
		sbuf_addc(b, '>');
	}
}

void fmt_exit(struct sbuf *b, int status)
{
	const char *name;

	if (!(status & 0x7f)) {
		sbuf_printf(b, "exit %d", (status >> 8) & 0xff);
		return;
	}
	name = sigabbrev_np(status & 0x7f);
	if (name)
		sbuf_printf(b, "SIG%s", name);
	else
		sbuf_printf(b, "signal %d", status & 0x7f);
	if (status & 0x80)
		sbuf_adds(b, " core");
}

/* The columns that need no frame: top's shapes, else the value as it is kept. */
static void fmt_row_field(struct sbuf *b, enum field_id id, const struct frame_proc *p)
{
	const char *s;
	size_t n;

	switch (id) {
	case FIELD_USER:
		fmt_printable(b, p->user, strlen(p->user));
		break;
	case FIELD_PR:
		/* Real-time priorities print as -2..-100; top shows the top one as "rt". */
		if (p->priority <= -100)
			sbuf_adds(b, "rt");
		else
			sbuf_addi(b, p->priority);
		break;
	case FIELD_CPU:
		sbuf_addf_local(b, p->cpu_pct, p->cpu_pct >= 999.95 ? 0 : 1);
		break;
	case FIELD_CHILD:
		sbuf_addf_local(b, p->child_pct, p->child_pct >= 999.95 ? 0 : 1);
		break;
	case FIELD_NCPU:
		sbuf_addf_local(b, frame_side(p)->ncpu_pct, 1);
		break;
	case FIELD_CONT:
		/* htop's words */
		sbuf_adds(b, frame_side(p)->in_container ? "YES" : "NO");
		break;
	case FIELD_LOGID:
		/* none set: (uid_t)-1, as top shows it */
		if (frame_side(p)->loginuid == UINT32_MAX)
			sbuf_adds(b, "-1");
		else
			sbuf_addu(b, frame_side(p)->loginuid);
		break;
	case FIELD_FLAGS:
		fmt_task_flags(b, frame_side(p)->task_flags);
		break;
	case FIELD_EXIT:
		if (p->exited)
			fmt_exit(b, p->exit_status);
		else
			sbuf_addc(b, '-');
		break;
	case FIELD_MEM:
		sbuf_addf_local(b, p->mem_pct, 1);
		break;
	/* one decimal, as htop's */
	case FIELD_CPUD:
	case FIELD_IOD:
	case FIELD_SWAPD:
		sbuf_addf_local(b, VAL(double, p, &field_defs[id]), 1);
		break;
	/* the kernel's two decimals, as the cgroup's files print them */
	case FIELD_CG_CPU_SOME:
	case FIELD_CG_MEM_SOME:
	case FIELD_CG_MEM_FULL:
	case FIELD_CG_IO_SOME:
	case FIELD_CG_IO_FULL:
	case FIELD_CG_CPU_SOME60:
	case FIELD_CG_MEM_SOME60:
	case FIELD_CG_MEM_FULL60:
	case FIELD_CG_IO_SOME60:
	case FIELD_CG_IO_FULL60:
		sbuf_addf_local(b, VAL(double, p, &field_defs[id]), 2);
		break;
	case FIELD_PERF:
		sbuf_addi(b, p->perf_fds);
		break;
	case FIELD_TTY:
		fmt_tty(b, frame_side(p)->tty_nr);
		break;
	case FIELD_POLICY:
		fmt_policy(b, frame_side(p)->policy);
		break;
	case FIELD_IOPRIO:
		fmt_ioprio(b, p);
		break;
	case FIELD_SUPGIDS:
	case FIELD_SUPGRPS:
	case FIELD_CGROUPS:
	case FIELD_CGNAME:
	case FIELD_LXC:
		/* none, as top shows it; JSON and CSV keep the empty list */
		s = VAL(const char *, p, &field_defs[id]);
		if (*s)
			fmt_printable(b, s, strlen(s));
		else
			sbuf_addc(b, '-');
		break;
	default:
		/* as it is kept: a new plain column needs no case here */
		if (field_string(id, p, &s, &n))
			fmt_printable(b, s, n);
		else
			field_number(b, id, p);
		break;
	}
}

void field_format(struct sbuf *b, enum field_id id, const struct frame_proc *p,
		  const struct frame *f, const struct output_view *v)
{
	if (!v)
		v = &output_view_default;
	if (field_absent(id, p)) {
		sbuf_addc(b, '-');
		return;
	}
	switch (id) {
	case FIELD_VIRT:
	case FIELD_RES:
	case FIELD_SHR:
	case FIELD_SWAP:
	case FIELD_CODE:
	case FIELD_DATA:
	case FIELD_RSAN:
	case FIELD_RSFD:
	case FIELD_RSLK:
	case FIELD_RSSH:
	case FIELD_USED:
	case FIELD_PSS:
	case FIELD_PSAN:
	case FIELD_PSFD:
	case FIELD_PSSH:
	case FIELD_USS:
	case FIELD_PSSWP:
	case FIELD_LIB:
		fmt_mem_field(b, id, p, v);
		break;
	case FIELD_CUU:
	case FIELD_CUC:
		fmt_life_pct(b, VAL(double, p, &field_defs[id]), field_defs[id].width);
		break;
	case FIELD_EXENAME:
		fmt_printable(b, exe_name(frame_side(p)->exe),
			      strlen(exe_name(frame_side(p)->exe)));
		break;
	case FIELD_TIME:
	case FIELD_CPUTIME:
	case FIELD_UTIME:
	case FIELD_STIME:
		fmt_time_field(b, id, p, f, v);
		break;
	case FIELD_START:
		fmt_start(b, p, f);
		break;
	case FIELD_ELAPSED:
	case FIELD_STARTED:
		fmt_since(b, id, p, f);
		break;
	case FIELD_CUTIME:
	case FIELD_CSTIME:
		fmt_time_plus(b, VAL(uint64_t, p, &field_defs[id]), f->hz, field_defs[id].width);
		break;
	case FIELD_IO_READ_RATE:
	case FIELD_IO_WRITE_RATE:
	case FIELD_IO_READ:
	case FIELD_IO_WRITE:
	case FIELD_IO_RCHAR:
	case FIELD_IO_WCHAR:
	case FIELD_CNCLWB:
	case FIELD_IO_RATE:
		fmt_bytes(b, VAL(uint64_t, p, &field_defs[id]));
		break;
	case FIELD_MINFLT:
	case FIELD_MAJFLT:
	case FIELD_CMINFLT:
	case FIELD_CMAJFLT:
	case FIELD_VMJ:
	case FIELD_VMN:
	case FIELD_CTXT:
	case FIELD_SYSCR:
	case FIELD_SYSCW:
	case FIELD_NDRT:
		fmt_count(b, VAL(uint64_t, p, &field_defs[id]), field_defs[id].width);
		break;
	case FIELD_CTR1:
	case FIELD_CTR2:
	case FIELD_CTR3:
	case FIELD_CTR4:
	case FIELD_CTR5:
	case FIELD_CTR6:
	case FIELD_CTR7:
	case FIELD_CTR8:
		fmt_ctr_field(b, id, p, f, v);
		break;
	case FIELD_IPC:
		sbuf_addf_local(b, VAL(double, p, &field_defs[id]), 2);
		break;
	case FIELD_CMPKI:
	case FIELD_BMPKI:
	case FIELD_CTRCPU:
		sbuf_addf_local(b, VAL(double, p, &field_defs[id]), 1);
		break;
	case FIELD_SCALE:
		/* '+': some of its threads are not counted (over the limits) */
		sbuf_addf_local(b, p->ctr_scale, 2);
		if (p->ctr_partial)
			sbuf_addc(b, '+');
		break;
	case FIELD_COMMAND:
		fmt_command(b, p, f, v);
		break;
	default:
		fmt_row_field(b, id, p);
		break;
	}
}

static int row_cmp(const void *x, const void *y, void *arg)
{
	const struct row_order *o = arg;
	const struct frame_proc *a = *(const struct frame_proc *const *)x;
	const struct frame_proc *b = *(const struct frame_proc *const *)y;
	int c = value_compare(o->field, a, b, o->cumulative);

	if (!field_defs[o->field].ascending)
		c = -c;
	if (o->reverse)
		c = -c;
	/* Equal values keep PID order whichever way the field sorts, as htop does. */
	return c ? c : CMP(a->pid, b->pid);
}

/* Whether -p takes p: one of its PIDs, or (-H) a thread of one, as top -H -p. */
static bool pid_wanted(const struct frame_proc *p, const struct row_filter *flt)
{
	for (size_t i = 0; i < flt->npids; i++)
		if (flt->pids[i] == p->pid || flt->pids[i] == p->tgid)
			return true;
	return false;
}

static bool row_wanted(const struct frame *f, const struct frame_proc *p,
		       const struct row_filter *flt)
{
	if (flt->npids && !pid_wanted(p, flt))
		return false;
	if (flt->by_uid) {
		bool match = p->uid == flt->uid;

		if (flt->uid_any)
			match = match || p->ruid == flt->uid || p->suid == flt->uid ||
				p->fsuid == flt->uid;
		if (match == flt->uid_not)
			return false;
	}
	if (flt->hide_idle && p->cpu_pct <= 0 && p->state != 'R')
		return false;
	/* -F, as the viewer's filter: the name or the command line (when read), any case */
	if (flt->substr && *flt->substr &&
	    !text_contains(p->comm, p->comm_len, flt->substr, true) &&
	    !(p->has_cmd && p->cmd_off + (size_t)p->cmd_len <= f->strings.len &&
	      text_contains(f->strings.p + p->cmd_off, p->cmd_len, flt->substr, true)))
		return false;
	return true;
}

size_t rows_select(const struct frame *f, const struct row_filter *flt, const struct row_order *ord,
		   const struct frame_proc **rows)
{
	size_t n = 0;

	for (size_t i = 0; i < f->nprocs; i++)
		if (!flt || row_wanted(f, &f->procs[i], flt))
			rows[n++] = &f->procs[i];
	if (ord)
		rows_sort(rows, n, ord);
	return n;
}

size_t rows_select_exited(const struct frame *f, const struct row_filter *flt,
			  const struct row_order *ord, const struct frame_proc **rows)
{
	size_t n = 0;

	for (size_t i = 0; i < f->nexited; i++)
		if (!flt || row_wanted(f, &f->exited[i], flt))
			rows[n++] = &f->exited[i];
	if (ord)
		rows_sort(rows, n, ord);
	return n;
}

bool rows_count_tasks(const struct frame *f, const struct row_filter *flt, struct frame_tasks *out)
{
	if (!flt->npids)
		return false;
	memset(out, 0, sizeof(*out));
	/* with -H every thread, else the processes (not the viewer's user threads) */
	for (size_t i = 0; i < f->nprocs; i++)
		if (pid_wanted(&f->procs[i], flt) &&
		    (f->threads || !frame_proc_is_thread(&f->procs[i])))
			frame_tasks_count(out, f->procs[i].state);
	return true;
}

/*
 * A row's sort key, taken once: a sort compares each row about log2(n)
 * times, and value_compare() looks at the field's definition and whether
 * the value is absent on every one of them (with row_cmp and field_absent,
 * 5.5% of the BPF viewer's samples at 2,000 processes).
 */
struct keyed_row {
	union {
		int64_t i;
		uint64_t u;
		double d;
	} v;
	int present; /* 0: the field is absent, which sorts below any value */
	int pid;
	const struct frame_proc *p;
};

enum key_kind { KEY_I, KEY_U, KEY_D };

struct key_order {
	enum key_kind kind;
	int sign; /* -1: descending, by the field or reversed */
};

/* a's key against b's, in the order's direction; 0 when they are equal. */
static int key_cmp(const struct keyed_row *a, const struct keyed_row *b, const struct key_order *o)
{
	int c = CMP(a->present, b->present);

	if (!c && a->present) {
		if (o->kind == KEY_I)
			c = CMP(a->v.i, b->v.i);
		else if (o->kind == KEY_U)
			c = CMP(a->v.u, b->v.u);
		else
			c = CMP(a->v.d, b->v.d);
	}
	return c * o->sign;
}

static int keyed_cmp(const void *x, const void *y, void *arg)
{
	const struct keyed_row *a = x, *b = y;
	int c = key_cmp(a, b, arg);

	/* Equal values keep PID order whichever way the field sorts, as in row_cmp(). */
	return c ? c : CMP(a->pid, b->pid);
}

/*
 * Sort k (n rows) by keyed_cmp into out, when more than half of the rows
 * share one key and come in PID order, as an idle machine's 0.0 %CPU does
 * in a frame (listed by PID): only the others are sorted, then the two
 * runs merged, the order one sort gives. False, out untouched, otherwise.
 */
static bool sort_common_key(struct keyed_row *k, size_t n, const struct key_order *o,
			    struct keyed_row *out)
{
	const struct keyed_row mid = k[n / 2];
	size_t same = 0, rest, i, j, w;
	int last = INT_MIN;

	for (i = 0; i < n; i++) {
		if (key_cmp(&k[i], &mid, o))
			continue;
		if (k[i].pid <= last)
			return false;
		last = k[i].pid;
		same++;
	}
	if (same * 2 <= n)
		return false;
	/* the common run to the front of out, the rest behind it (in k's room) */
	rest = 0;
	for (i = 0, j = 0; i < n; i++) {
		if (key_cmp(&k[i], &mid, o))
			k[rest++] = k[i];
		else
			out[j++] = k[i];
	}
	qsort_r(k, rest, sizeof(*k), keyed_cmp, (void *)o);
	/* merge the two runs back into out from its end: the common run is at its front */
	i = same;
	j = rest;
	w = n;
	while (j > 0) {
		if (i > 0 && keyed_cmp(&out[i - 1], &k[j - 1], (void *)o) > 0)
			out[--w] = out[--i];
		else
			out[--w] = k[--j];
	}
	return true;
}

/* k's key from p by ord's field (a type that key_kind_of() gives a kind). */
static void key_of(const struct row_order *ord, const struct frame_proc *p, struct keyed_row *k)
{
	enum field_id id = ord->field;
	const struct field_def *d = &field_defs[id];

	k->p = p;
	k->pid = p->pid;
	k->present = !field_absent(id, p);
	if (is_time_field(id)) {
		k->v.u = time_ticks(id, p, ord->cumulative);
		return;
	}
	if (id == FIELD_IOPRIO) {
		k->v.i = k->present ? frame_ioprio_effective(frame_side(p)->ioprio, p->nice) : 0;
		return;
	}
	switch (d->type) {
	case FT_INT:
		k->v.i = VAL(int, p, d);
		break;
	case FT_I64:
		k->v.i = VAL(int64_t, p, d);
		break;
	case FT_CHAR:
		k->v.i = VAL(char, p, d);
		break;
	case FT_U64:
		k->v.u = VAL(uint64_t, p, d);
		break;
	case FT_UID:
		k->v.u = VAL(uid_t, p, d);
		break;
	case FT_PCT:
	case FT_CTRFIG:
		k->v.d = VAL(double, p, d);
		break;
	default:
		k->v.d = field_ctr_value(id, p);
		break;
	}
}

/* How t's values compare as keys; false for text, compared in place. */
static bool key_kind_of(enum field_type t, enum key_kind *kind)
{
	switch (t) {
	case FT_INT:
	case FT_I64:
	case FT_CHAR:
		*kind = KEY_I;
		return true;
	case FT_U64:
	case FT_UID:
	case FT_TICKS:
		*kind = KEY_U;
		return true;
	case FT_PCT:
	case FT_CTR:
	case FT_CTRFIG:
		*kind = KEY_D;
		return true;
	case FT_NAME:
	case FT_COMM:
		break;
	}
	return false;
}

void rows_sort(const struct frame_proc **rows, size_t n, const struct row_order *ord)
{
	struct key_order o = {.sign = 1};
	struct keyed_row *k;

	if (n < 2)
		return;
	if (!key_kind_of(field_defs[ord->field].type, &o.kind) ||
	    !(k = malloc(2 * n * sizeof(*k)))) {
		qsort_r(rows, n, sizeof(*rows), row_cmp, (void *)ord);
		return;
	}
	if (!field_defs[ord->field].ascending)
		o.sign = -o.sign;
	if (ord->reverse)
		o.sign = -o.sign;
	for (size_t i = 0; i < n; i++)
		key_of(ord, rows[i], &k[i]);
	if (sort_common_key(k, n, &o, k + n)) {
		for (size_t i = 0; i < n; i++)
			rows[i] = k[n + i].p;
	} else {
		qsort_r(k, n, sizeof(*k), keyed_cmp, &o);
		for (size_t i = 0; i < n; i++)
			rows[i] = k[i].p;
	}
	free(k);
}

void fmt_uptime(struct sbuf *b, double up)
{
	unsigned long secs = up > 0 ? (unsigned long)up : 0;
	unsigned long days = secs / 86400, hours = secs % 86400 / 3600, mins = secs % 3600 / 60;

	if (days)
		sbuf_printf(b, "%lu day%s, ", days, days == 1 ? "" : "s");
	if (hours)
		sbuf_printf(b, "%2lu:%02lu", hours, mins);
	else
		sbuf_printf(b, "%lu min", mins);
}

void fmt_size_kb(struct sbuf *b, uint64_t kb)
{
	static const char units[] = "KMGTPE";
	double v = (double)kb;
	int u = 0;

	while (v >= 1024.0 && units[u + 1]) {
		v /= 1024.0;
		u++;
	}
	sbuf_addf_local(b, v, u && v < 100 ? 1 : 0);
	sbuf_addc(b, units[u]);
}

static int event_index(const struct frame *f, const char *name)
{
	for (int i = 0; i < f->counters.nevents; i++)
		if (!strcmp(f->counters.names[i], name))
			return i;
	return -1;
}

/* p's count of event e (an index of f's, -1: not counted here), or -1 when it has none. */
static double count_of(const struct frame *f, const struct frame_proc *p, int e)
{
	return e >= 0 && ctr_state(f, p, e) == CTR_COUNTED ? p->ctr[e] : -1;
}

void ctr_derive(const struct frame *f, const struct frame_proc *p, struct ctr_derived *d)
{
	double cyc = count_of(f, p, event_index(f, "cycles"));
	double insns = count_of(f, p, event_index(f, "instructions"));
	double cm = count_of(f, p, event_index(f, "cache-misses"));
	double bm = count_of(f, p, event_index(f, "branch-misses"));
	double tc = count_of(f, p, event_index(f, "task-clock"));

	/* an event n/a here reads 0: it makes no figure, never a figure of 0 */
	d->ipc = cyc > 0 && insns >= 0 ? insns / cyc : -1;
	d->cache_mpki = cm >= 0 && insns > 0 ? cm * 1000.0 / insns : -1;
	d->branch_mpki = bm >= 0 && insns > 0 ? bm * 1000.0 / insns : -1;
	/* task-clock counts nanoseconds */
	d->cpu_share = tc >= 0 && f->interval_s > 0 ? tc / (f->interval_s * 1e9) * 100.0 : -1;
}

void ctr_derive_rows(struct frame *f)
{
	for (size_t i = 0; i < f->nprocs; i++) {
		struct frame_proc *p = &f->procs[i];
		struct ctr_derived d = {-1, -1, -1, -1};

		if (!p->has_ctr || !p->side)
			continue;
		if (f->counters.on)
			ctr_derive(f, p, &d);
		p->side->ctr_ipc = d.ipc;
		p->side->ctr_cache_mpki = d.cache_mpki;
		p->side->ctr_branch_mpki = d.branch_mpki;
		p->side->ctr_cpu_share = d.cpu_share;
	}
}

/* p's figures derived from its members and f's clock (row.def's ROW_SRC_DERIVE). */
static void derive_row(const struct frame *f, struct frame_proc *p)
{
	/* an exited row's life ended at its exit */
	uint64_t now = p->exited ? p->end_ticks : (uint64_t)(f->uptime_s * (double)f->hz);
	double life = f->hz > 0 && now > p->start_ticks ? (double)(now - p->start_ticks) : 0;
	uint64_t own = p->utime + p->stime;

	/* as top's: no tick yet since it started is 0, not unknown */
	p->side->cuu_pct = life > 0 ? (double)own * 100.0 / life : 0;
	p->side->cuc_pct = life > 0 ? (double)(own + p->cutime + p->cstime) * 100.0 / life : 0;
	p->side->ncpu_pct = f->ncpu ? p->cpu_pct / (double)f->ncpu : p->cpu_pct;
	p->side->used_kb = p->rss_kb + p->swap_kb;
}

void field_derive_rows(struct frame *f)
{
	/* the figures are side members: a frame without sides shows none of them (and
	 * a loop over its rows would still load a line of each) */
	if (!f->has_sides)
		return;
	for (size_t i = 0; i < f->nprocs; i++)
		if (f->procs[i].side)
			derive_row(f, &f->procs[i]);
	for (size_t i = 0; i < f->nexited; i++)
		if (f->exited[i].side)
			derive_row(f, &f->exited[i]);
}
