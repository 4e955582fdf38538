// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bench_out.c: a benchmark's result as `ptop bench` writes it: perf bench's
 * lines (what perf does not print following as "# " notes), perf's simple
 * format or labelled figures, or the JSON lines that bench.h documents and
 * the TUI's Bench pane reads from a child (protocol.c). Appends to a buffer;
 * bench.c writes it. No kernel interface.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "bench_out.h"
#include "ptop/output.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const char *errno_name(int err)
{
	static const struct {
		int err;
		const char *name;
	} names[] = {
	    {ENODEV, "ENODEV"}, {ENOSPC, "ENOSPC"}, {EACCES, "EACCES"}, {EPERM, "EPERM"},
	    {ENOENT, "ENOENT"}, {EINVAL, "EINVAL"}, {ENOMEM, "ENOMEM"}, {EAGAIN, "EAGAIN"},
	    {EBUSY, "EBUSY"},	{ESPIPE, "ESPIPE"}, {EMFILE, "EMFILE"}, {EOPNOTSUPP, "EOPNOTSUPP"},
	    {ENOSYS, "ENOSYS"}, {EIO, "EIO"},	    {ESRCH, "ESRCH"},	{E2BIG, "E2BIG"},
	};

	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (names[i].err == err)
			return names[i].name;
	return "EUNKNOWN";
}

/* A JSON string, escaped as the batch formats escape theirs. */
static void put_json_string(struct sbuf *b, const char *s)
{
	json_string(b, s, strlen(s));
}

static void json_number(struct sbuf *b, double v)
{
	if (isfinite(v))
		sbuf_printf(b, "%.10g", v);
	else
		sbuf_adds(b, "null");
}

void bench_out_json_progress(struct sbuf *b, const char *name, double done)
{
	sbuf_adds(b, "{\"type\":\"progress\",\"name\":");
	put_json_string(b, name);
	sbuf_printf(b, ",\"progress\":%.3f}\n", done);
}

void bench_out_json_failure(struct sbuf *b, const char *name, int err, const char *msg)
{
	sbuf_adds(b, err == -ENODEV ? "{\"type\":\"skipped\",\"name\":"
				    : "{\"type\":\"error\",\"name\":");
	put_json_string(b, name);
	sbuf_printf(b, ",\"error\":\"%s\",\"message\":", errno_name(-err));
	put_json_string(b, msg);
	sbuf_adds(b, "}\n");
}

/* One option's value in params, as its type reads in JSON. */
static void json_param(struct sbuf *b, const struct bench_option *o, const void *params)
{
	const char *field = (const char *)params + o->offset;

	if (o->type == BENCH_OPT_UINT) {
		unsigned int v;

		memcpy(&v, field, sizeof(v));
		sbuf_printf(b, "%u", v);
	} else if (o->type == BENCH_OPT_STRING) {
		const char *s;

		memcpy(&s, field, sizeof(s));
		if (s)
			put_json_string(b, s);
		else
			sbuf_adds(b, "null");
	} else {
		bool on;

		memcpy(&on, field, sizeof(on));
		sbuf_adds(b, on ? "true" : "false");
	}
}

static void json_params(struct sbuf *b, const struct bench_desc *d, const void *params,
			unsigned int repeat, const char *cpu)
{
	const char *sep = "";

	sbuf_adds(b, ",\"params\":{");
	for (const struct bench_option *o = d->options; o && o->name; o++) {
		sbuf_printf(b, "%s", sep);
		put_json_string(b, o->name);
		sbuf_addc(b, ':');
		json_param(b, o, params);
		sep = ",";
	}
	sbuf_printf(b, "%s\"repeat\":%u", sep, repeat);
	if (cpu) {
		sbuf_adds(b, ",\"cpu\":");
		put_json_string(b, cpu);
	}
	sbuf_addc(b, '}');
}

/* A figure's object: its value, unit and label, and its spread when it has one. */
static void json_value(struct sbuf *b, const struct bench_value *v)
{
	sbuf_adds(b, ":{\"value\":");
	json_number(b, v->value);
	sbuf_adds(b, ",\"unit\":");
	put_json_string(b, v->unit);
	if (v->label) {
		sbuf_adds(b, ",\"label\":");
		put_json_string(b, _(v->label));
	}
	if (v->samples) {
		sbuf_adds(b, ",\"min\":");
		json_number(b, v->min);
		sbuf_adds(b, ",\"median\":");
		json_number(b, v->median);
		sbuf_adds(b, ",\"max\":");
		json_number(b, v->max);
		sbuf_printf(b, ",\"samples\":%u,\"of\":", v->samples);
		put_json_string(b, v->of ? v->of : "");
		sbuf_printf(b, ",\"bimodal\":%s", v->bimodal ? "true" : "false");
	}
	sbuf_addc(b, '}');
}

static void json_results(struct sbuf *b, const struct bench_result *res)
{
	const char *sep = "";

	sbuf_adds(b, ",\"results\":{");
	for (size_t i = 0; i < res->nvalues; i++) {
		const struct bench_value *v = &res->values[i];

		if (v->unavailable)
			continue;
		sbuf_printf(b, "%s", sep);
		sep = ",";
		put_json_string(b, v->key);
		json_value(b, v);
	}
	sbuf_addc(b, '}');
}

static void json_notes(struct sbuf *b, const struct bench_result *res)
{
	if (!res->nnotes)
		return;
	sbuf_adds(b, ",\"notes\":[");
	for (size_t i = 0; i < res->nnotes; i++) {
		if (i)
			sbuf_addc(b, ',');
		put_json_string(b, res->notes[i]);
	}
	sbuf_addc(b, ']');
}

/* The figures that could not be measured here, each with the reason; none: no member. */
static void json_unavailable(struct sbuf *b, const struct bench_result *res)
{
	const char *sep = NULL;

	for (size_t i = 0; i < res->nvalues; i++) {
		const struct bench_value *v = &res->values[i];

		if (!v->unavailable)
			continue;
		sbuf_adds(b, sep ? sep : ",\"unavailable\":{");
		sep = ",";
		put_json_string(b, v->key);
		sbuf_adds(b, ":{\"unit\":");
		put_json_string(b, v->unit);
		if (v->label) {
			sbuf_adds(b, ",\"label\":");
			put_json_string(b, _(v->label));
		}
		sbuf_adds(b, ",\"reason\":");
		put_json_string(b, v->unavailable);
		sbuf_addc(b, '}');
	}
	if (sep)
		sbuf_addc(b, '}');
}

static void json_series(struct sbuf *b, const struct bench_series *s)
{
	sbuf_adds(b, "{\"name\":");
	put_json_string(b, s->name);
	sbuf_adds(b, ",\"x\":");
	put_json_string(b, s->x);
	sbuf_adds(b, ",\"unit\":");
	put_json_string(b, s->unit);
	sbuf_adds(b, ",\"points\":[");
	for (size_t j = 0; j < s->n; j++) {
		sbuf_printf(b, "%s{\"x\":", j ? "," : "");
		json_number(b, s->points[j].x);
		sbuf_adds(b, ",\"value\":");
		json_number(b, s->points[j].value);
		sbuf_addc(b, '}');
	}
	sbuf_adds(b, "]}");
}

void bench_out_json(struct sbuf *b, const struct bench_desc *d, const void *params,
		    unsigned int repeat, const char *cpu, const struct bench_result *res)
{
	sbuf_adds(b, "{\"type\":\"result\",\"name\":");
	put_json_string(b, d->name);
	json_params(b, d, params, repeat, cpu);
	json_results(b, res);
	json_notes(b, res);
	json_unavailable(b, res);
	if (res->nseries) {
		sbuf_adds(b, ",\"series\":[");
		for (size_t i = 0; i < res->nseries; i++) {
			if (i)
				sbuf_addc(b, ',');
			json_series(b, &res->series[i]);
		}
		sbuf_addc(b, ']');
	}
	sbuf_adds(b, "}\n");
}

/* perf prints whole seconds and truncated milliseconds of a microsecond count. */
static void split_sec(double sec, unsigned long *s, unsigned long *ms)
{
	unsigned long long usec = sec > 0 ? (unsigned long long)(sec * 1e6 + 0.5) : 0;

	*s = (unsigned long)(usec / 1000000);
	*ms = (unsigned long)(usec % 1000000 / 1000);
}

/* The name a spread line gives v: its label when that is a short one, else its key. */
static const char *spread_name(const struct bench_value *v)
{
	if (v->style == BENCH_STYLE_LINE || !v->label || !v->label[0])
		return v->key;
	return _(v->label);
}

/* v's line in the chosen format, if it has one there. */
static void text_value(struct sbuf *b, const struct bench_value *v, bool simple)
{
	unsigned long s, ms;

	if (v->unavailable) {
		if (simple)
			sbuf_printf(b, "%s %s\n", v->key, _("unavailable"));
		return;
	}
	switch (v->style) {
	case BENCH_STYLE_TOTAL:
		split_sec(v->value, &s, &ms);
		if (simple)
			sbuf_printf(b, "%lu.%03lu\n", s, ms);
		else
			sbuf_printf(b, " %14s: %lu.%03lu [sec]\n\n", _(v->label), s, ms);
		break;
	case BENCH_STYLE_COUNT:
		if (simple && v->simple)
			sbuf_printf(b, "%s %.0f %s\n", v->key, v->value, v->unit);
		else if (!simple)
			sbuf_printf(b, "  %s: %.0f\n", _(v->label), v->value);
		break;
	case BENCH_STYLE_FIGURE:
		if (simple && v->simple)
			sbuf_printf(b, "%s %lf %s\n", v->key, v->value, v->unit);
		else if (simple)
			;
		else if (v->label)
			sbuf_printf(b, " %14lf %s  %s\n", v->value, v->unit, _(v->label));
		else
			sbuf_printf(b, " %14lf %s\n", v->value, v->unit);
		break;
	case BENCH_STYLE_LINE:
		sbuf_printf(b, "%s\n", _(v->label));
		break;
	case BENCH_STYLE_HIDDEN:
		break;
	}
}

static void text_series(struct sbuf *b, const struct bench_series *sr, bool simple)
{
	if (!simple)
		sbuf_printf(b, _("\n# Sweep of %s:\n %14s %14s\n"), sr->x, sr->x, sr->unit);
	for (size_t j = 0; j < sr->n; j++) {
		if (simple)
			sbuf_printf(b, "%s %g %lf\n", sr->name, sr->points[j].x,
				    sr->points[j].value);
		else
			sbuf_printf(b, " %14g %14lf\n", sr->points[j].x, sr->points[j].value);
	}
}

/* The "# " line of each figure's spread (or why it is missing), then the notes. */
static void text_spreads(struct sbuf *b, const struct bench_result *res)
{
	for (size_t i = 0; i < res->nvalues; i++) {
		const struct bench_value *v = &res->values[i];

		if (v->unavailable) {
			sbuf_printf(b, _("# %s: unavailable: %s\n"), spread_name(v),
				    v->unavailable);
			continue;
		}
		if (!v->samples)
			continue;
		sbuf_printf(b, _("# %s: min %.3f, median %.3f, max %.3f %s over %u %s\n"),
			    spread_name(v), v->min, v->median, v->max, v->unit, v->samples,
			    v->of ? v->of : "");
		if (v->bimodal)
			sbuf_printf(
			    b, _("# %s is BIMODAL: %u of %u %s near %.3f %s, %u near %.3f %s\n"),
			    spread_name(v), v->nlow, v->samples, v->of ? v->of : "", v->low,
			    v->unit, v->samples - v->nlow, v->high, v->unit);
	}
	for (size_t i = 0; i < res->nnotes; i++)
		sbuf_printf(b, "# %s\n", res->notes[i]);
}

/*
 * The default format is perf bench's lines, so that what parses perf's output
 * parses ours; what perf does not print (the spread, the causes, how the
 * work differs) follows as "# " lines, perf's own comment lines. The simple
 * format is what perf prints there: its text lines for synthesize, the total
 * time for the breakpoint benchmarks; figures perf has no line for are
 * labelled "KEY VALUE UNIT".
 */
void bench_out_text(struct sbuf *b, const struct bench_desc *d, bool simple,
		    const struct bench_result *res)
{
	if (!simple) {
		sbuf_printf(b, _("# Running '%s' benchmark:\n"), d->title);
		if (res->header[0])
			sbuf_printf(b, "# %s\n", res->header);
	}
	for (size_t i = 0; i < res->nvalues; i++)
		if (res->values[i].style != BENCH_STYLE_HIDDEN)
			text_value(b, &res->values[i], simple);
	for (size_t i = 0; i < res->nseries; i++)
		text_series(b, &res->series[i], simple);
	if (!simple)
		text_spreads(b, res);
}
