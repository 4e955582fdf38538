// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fieldfilter.c: top's "other filters" (the o and O keys): FIELD=VALUE keeps
 * rows whose field, as shown, contains VALUE; FIELD<VALUE and FIELD>VALUE
 * compare, as numbers where the field is a number (memory in KiB, times in
 * clock ticks, as kept) and as text otherwise; a leading '!' keeps the rows
 * that do not match. FIELD is a column heading, top's or htop's (%CPU,
 * CPU%, COMMAND), or a field name, ptop's or htop's (cpu, PERCENT_CPU). No curses here: the viewer's prompts are in filter.c.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ptop/ui.h"

/* A column heading, top's or htop's, or a field name, ptop's or htop's: field_named()'s. */
static int field_lookup(const char *s, size_t n)
{
	char name[32];

	if (!n || n >= sizeof(name))
		return -1;
	memcpy(name, s, n);
	name[n] = '\0';
	return field_named(name, true);
}

static bool is_text(enum field_id id)
{
	enum field_type t = field_defs[id].type;

	return t == FT_CHAR || t == FT_NAME || t == FT_COMM || id == FIELD_COMMAND;
}

int field_filter_parse(const char *s, bool icase, struct field_filter *ff)
{
	const char *op;
	int id;
	char *end;

	memset(ff, 0, sizeof(*ff));
	ff->icase = icase;
	if (*s == '!') {
		ff->negate = true;
		s++;
	}
	op = strpbrk(s, "=<>");
	if (!op || op == s)
		return -EINVAL;
	id = field_lookup(s, (size_t)(op - s));
	if (id < 0)
		return -ENOENT;
	ff->field = (enum field_id)id;
	ff->op = *op;
	if (strlen(op + 1) >= sizeof(ff->text))
		return -ERANGE;
	strcpy(ff->text, op + 1);
	if (ff->op == '=' || is_text(ff->field))
		return 0;
	errno = 0;
	ff->num = strtod(ff->text, &end);
	if (end == ff->text || *end || errno || !isfinite(ff->num))
		return -EINVAL;
	return 0;
}

/* The field's kept value as a number (a percentage, KiB, ticks, a count). */
static double field_value(enum field_id id, const struct frame_proc *p, struct sbuf *scratch)
{
	sbuf_reset(scratch);
	field_number(scratch, id, p);
	return strtod(sbuf_cstr(scratch), NULL);
}

bool field_filter_match(const struct field_filter *ff, const struct frame_proc *p,
			const struct frame *f, const struct output_view *v, struct sbuf *scratch)
{
	bool hit;

	if (ff->op != '=' && !is_text(ff->field)) {
		double x = field_value(ff->field, p, scratch);

		hit = ff->op == '<' ? x < ff->num : x > ff->num;
	} else {
		int c;

		sbuf_reset(scratch);
		field_format(scratch, ff->field, p, f, v);
		if (ff->op == '=') {
			hit = text_contains(scratch->p ? scratch->p : "", scratch->len, ff->text,
					    ff->icase);
		} else {
			const char *t = sbuf_cstr(scratch);

			c = ff->icase ? strcasecmp(t, ff->text) : strcmp(t, ff->text);
			hit = ff->op == '<' ? c < 0 : c > 0;
		}
	}
	return hit != ff->negate;
}
