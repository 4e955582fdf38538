// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * protocol.c: reads back the lines `ptop bench NAME --format=json --progress`
 * writes (see bench.h), as the TUI's Bench pane does from its child's pipe.
 * A small JSON reader for that shape: strings, numbers, objects and arrays,
 * unknown members skipped, nothing read past the line, no allocation beyond
 * a series' points. Strings land in the result's text buffer.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "ptop/bench.h"
#include "ptop/util.h"

struct jr {
	const char *p, *end;
	int depth;
};

#define JR_MAX_DEPTH 16

static void ws(struct jr *j)
{
	while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' || *j->p == '\r' || *j->p == '\n'))
		j->p++;
}

static bool eat(struct jr *j, char c)
{
	ws(j);
	if (j->p < j->end && *j->p == c) {
		j->p++;
		return true;
	}
	return false;
}

/* A string into out (cap bytes, NUL-terminated, cut if longer). \u escapes
 * outside ASCII become '?': the protocol's names and units are ASCII. */
static int str(struct jr *j, char *out, size_t cap)
{
	size_t n = 0;

	if (!eat(j, '"'))
		return -EINVAL;
	while (j->p < j->end && *j->p != '"') {
		char c = *j->p++;

		if (c == '\\') {
			if (j->p >= j->end)
				return -EINVAL;
			c = *j->p++;
			switch (c) {
			case 'n':
				c = '\n';
				break;
			case 't':
				c = '\t';
				break;
			case 'r':
				c = '\r';
				break;
			case 'b':
				c = '\b';
				break;
			case 'f':
				c = '\f';
				break;
			case 'u': {
				unsigned v = 0;

				if (j->end - j->p < 4)
					return -EINVAL;
				for (int i = 0; i < 4; i++) {
					char h = j->p[i];

					v <<= 4;
					if (h >= '0' && h <= '9')
						v |= (unsigned)(h - '0');
					else if ((h | 0x20) >= 'a' && (h | 0x20) <= 'f')
						v |= (unsigned)((h | 0x20) - 'a' + 10);
					else
						return -EINVAL;
				}
				j->p += 4;
				c = v < 0x80 ? (char)v : '?';
				break;
			}
			default: /* " \ / */
				break;
			}
		}
		if (out && n + 1 < cap)
			out[n++] = c;
	}
	if (!eat(j, '"'))
		return -EINVAL;
	if (out && cap)
		out[n] = '\0';
	return 0;
}

static int num(struct jr *j, double *out)
{
	char buf[64];
	size_t n = 0;
	char *end;

	ws(j);
	while (j->p + n < j->end && n < sizeof(buf) - 1 && strchr("+-0123456789.eE", j->p[n]))
		n++;
	if (!n)
		return -EINVAL;
	memcpy(buf, j->p, n);
	buf[n] = '\0';
	*out = strtod_point(buf, &end);
	if (end != buf + n)
		return -EINVAL;
	j->p += n;
	return 0;
}

static bool word(struct jr *j, const char *w)
{
	size_t n = strlen(w);

	if ((size_t)(j->end - j->p) < n || memcmp(j->p, w, n))
		return false;
	j->p += n;
	return true;
}

static int skip(struct jr *j)
{
	ws(j);
	if (j->p >= j->end)
		return -EINVAL;
	if (*j->p == '"')
		return str(j, NULL, 0);
	if (*j->p == '{' || *j->p == '[') {
		char close = *j->p == '{' ? '}' : ']';
		bool obj = close == '}';

		if (++j->depth > JR_MAX_DEPTH)
			return -EINVAL;
		j->p++;
		if (!eat(j, close)) {
			do {
				if (obj && (str(j, NULL, 0) || !eat(j, ':')))
					return -EINVAL;
				if (skip(j))
					return -EINVAL;
			} while (eat(j, ','));
			if (!eat(j, close))
				return -EINVAL;
		}
		j->depth--;
		return 0;
	}
	if (word(j, "true") || word(j, "false") || word(j, "null"))
		return 0;
	{
		double d;

		return num(j, &d);
	}
}

/* Iterate an object's members: calls fn(key) positioned at the value. */
static int members(struct jr *j, int (*fn)(struct jr *j, const char *key, void *arg), void *arg)
{
	if (!eat(j, '{'))
		return -EINVAL;
	if (eat(j, '}'))
		return 0;
	do {
		char key[64];

		if (str(j, key, sizeof(key)) || !eat(j, ':'))
			return -EINVAL;
		if (fn(j, key, arg))
			return -EINVAL;
	} while (eat(j, ','));
	return eat(j, '}') ? 0 : -EINVAL;
}

/* A copy of s in the result's text buffer (or "" when full). */
static const char *keep(struct bench_result *r, const char *s)
{
	return bench_text(r, "%s", s);
}

struct value_ctx {
	struct bench_result *r;
	char unit[32], label[128], reason[160], of[64];
	double value, min, median, max, samples;
	bool have, bimodal;
};

static int value_member(struct jr *j, const char *key, void *arg)
{
	struct value_ctx *v = arg;

	if (!strcmp(key, "value")) {
		v->have = true;
		return num(j, &v->value);
	}
	if (!strcmp(key, "unit"))
		return str(j, v->unit, sizeof(v->unit));
	if (!strcmp(key, "label"))
		return str(j, v->label, sizeof(v->label));
	if (!strcmp(key, "reason"))
		return str(j, v->reason, sizeof(v->reason));
	if (!strcmp(key, "min"))
		return num(j, &v->min);
	if (!strcmp(key, "median"))
		return num(j, &v->median);
	if (!strcmp(key, "max"))
		return num(j, &v->max);
	if (!strcmp(key, "samples"))
		return num(j, &v->samples);
	if (!strcmp(key, "of"))
		return str(j, v->of, sizeof(v->of));
	if (!strcmp(key, "bimodal")) {
		ws(j);
		v->bimodal = word(j, "true");
		return v->bimodal || word(j, "false") ? 0 : -EINVAL;
	}
	return skip(j);
}

static int result_member(struct jr *j, const char *key, void *arg)
{
	struct bench_result *r = arg;
	struct value_ctx v = {.r = r};
	int err = members(j, value_member, &v);

	if (err || !v.have)
		return -EINVAL;
	if (r->nvalues < BENCH_MAX_VALUES) {
		struct bench_value *bv =
		    bench_add_value(r, keep(r, key), keep(r, v.label), keep(r, v.unit), v.value,
				    BENCH_STYLE_FIGURE, true);

		if (v.samples >= 1 && v.samples <= UINT_MAX) {
			bv->samples = (unsigned int)v.samples;
			bv->min = v.min;
			bv->median = v.median;
			bv->max = v.max;
			bv->of = keep(r, v.of);
			bv->bimodal = v.bimodal;
		}
	}
	return 0;
}

/* "notes": ["...", ...] */
static int notes_list(struct jr *j, struct bench_result *r)
{
	if (!eat(j, '['))
		return -EINVAL;
	if (eat(j, ']'))
		return 0;
	do {
		char note[512];

		if (str(j, note, sizeof(note)))
			return -EINVAL;
		bench_note(r, "%s", note);
	} while (eat(j, ','));
	return eat(j, ']') ? 0 : -EINVAL;
}

/* "unavailable": {"KEY": {"unit", "label", "reason"}}: figures that could not be measured */
static int unavailable_member(struct jr *j, const char *key, void *arg)
{
	struct bench_result *r = arg;
	struct value_ctx v = {.r = r};

	if (members(j, value_member, &v))
		return -EINVAL;
	if (r->nvalues < BENCH_MAX_VALUES)
		bench_add_unavailable(r, keep(r, key), keep(r, v.label), keep(r, v.unit),
				      keep(r, v.reason));
	return 0;
}

struct point_ctx {
	double x, value;
	bool hx, hv;
};

static int point_member(struct jr *j, const char *key, void *arg)
{
	struct point_ctx *p = arg;

	if (!strcmp(key, "x")) {
		p->hx = true;
		return num(j, &p->x);
	}
	if (!strcmp(key, "value")) {
		p->hv = true;
		return num(j, &p->value);
	}
	return skip(j);
}

struct series_ctx {
	struct bench_result *r;
	struct bench_series *s;
	char name[64], x[64], unit[32];
};

static int series_member(struct jr *j, const char *key, void *arg)
{
	struct series_ctx *c = arg;

	if (!strcmp(key, "name"))
		return str(j, c->name, sizeof(c->name));
	if (!strcmp(key, "x"))
		return str(j, c->x, sizeof(c->x));
	if (!strcmp(key, "unit"))
		return str(j, c->unit, sizeof(c->unit));
	if (strcmp(key, "points"))
		return skip(j);
	if (!c->s)
		return -EINVAL;
	if (!eat(j, '['))
		return -EINVAL;
	if (eat(j, ']'))
		return 0;
	do {
		struct point_ctx p = {0};

		if (members(j, point_member, &p) || !p.hx || !p.hv)
			return -EINVAL;
		bench_series_add(c->s, p.x, p.value);
	} while (eat(j, ','));
	return eat(j, ']') ? 0 : -EINVAL;
}

static int series_list(struct jr *j, struct bench_result *r)
{
	if (!eat(j, '['))
		return -EINVAL;
	if (eat(j, ']'))
		return 0;
	do {
		struct series_ctx c = {.r = r};
		/* name, x and unit come before points in what bench.c writes;
		 * take the series slot first and fill its names after. */
		if (r->nseries == BENCH_MAX_SERIES)
			return skip(j);
		c.s = bench_add_series(r, "", "", "");
		if (members(j, series_member, &c))
			return -EINVAL;
		c.s->name = keep(r, c.name);
		c.s->x = keep(r, c.x);
		c.s->unit = keep(r, c.unit);
	} while (eat(j, ','));
	return eat(j, ']') ? 0 : -EINVAL;
}

static int top_member(struct jr *j, const char *key, void *arg)
{
	struct bench_msg *m = arg;

	if (!strcmp(key, "type")) {
		char t[16];

		if (str(j, t, sizeof(t)))
			return -EINVAL;
		m->type = !strcmp(t, "progress")  ? BENCH_MSG_PROGRESS
			  : !strcmp(t, "result")  ? BENCH_MSG_RESULT
			  : !strcmp(t, "skipped") ? BENCH_MSG_SKIPPED
			  : !strcmp(t, "error")	  ? BENCH_MSG_ERROR
						  : BENCH_MSG_UNKNOWN;
		return 0;
	}
	if (!strcmp(key, "name"))
		return str(j, m->name, sizeof(m->name));
	if (!strcmp(key, "progress"))
		return num(j, &m->progress);
	if (!strcmp(key, "message"))
		return str(j, m->result.message, sizeof(m->result.message));
	if (!strcmp(key, "results"))
		return members(j, result_member, &m->result);
	if (!strcmp(key, "series"))
		return series_list(j, &m->result);
	if (!strcmp(key, "unavailable"))
		return members(j, unavailable_member, &m->result);
	if (!strcmp(key, "notes"))
		return notes_list(j, &m->result);
	return skip(j);
}

int bench_msg_parse(const char *line, size_t len, struct bench_msg *m)
{
	struct jr j = {.p = line, .end = line + len};
	int err;

	memset(m, 0, sizeof(*m));
	err = members(&j, top_member, m);
	ws(&j);
	if (!err && j.p != j.end)
		err = -EINVAL;
	if (err || m->type == BENCH_MSG_UNKNOWN) {
		bench_result_free(&m->result);
		memset(&m->result, 0, sizeof(m->result));
		return -EINVAL;
	}
	return 0;
}
