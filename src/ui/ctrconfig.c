// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ctrconfig.c: ptoprc's "counters = EVENT,..." line: the events the Counters
 * pane counts, as its picker (E) chose them and W saved them. Only the
 * spelling is checked here: whether libpfm4 knows a name is found when
 * counting starts, so that reading ptoprc never loads libpfm4.
 */
#include <ctype.h>
#include <string.h>

#include "ptop/ui.h"

/* What libpfm4's names are made of: PMU::EVENT:UMASK=VALUE, perf's a-b. */
static bool name_char(int ch)
{
	return isalnum(ch) || strchr("_-.:=/+", ch);
}

const char *config_parse_counters(const char *val, struct ui_config *c)
{
	char names[PERF_GROUP_MAX][PERF_NAME_MAX];
	int n = 0;

	while (*val) {
		const char *end = strchr(val, ','), *s = val, *e;

		if (!end)
			end = val + strlen(val);
		e = end;
		while (s < e && (*s == ' ' || *s == '\t'))
			s++;
		while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
			e--;
		if (s == e)
			return N_("an empty event name (two commas?)");
		if (n == PERF_GROUP_MAX)
			return N_("at most 8 events (ctr1..ctr8)");
		if (e - s >= PERF_NAME_MAX)
			return N_("an event name too long");
		for (const char *q = s; q < e; q++)
			if (!name_char((unsigned char)*q))
				return N_("event names are letters, digits and _ - . : = / +");
		memcpy(names[n], s, (size_t)(e - s));
		names[n][e - s] = '\0';
		for (int i = 0; i < n; i++)
			if (!strcmp(names[i], names[n]))
				return N_("an event named twice");
		n++;
		val = *end ? end + 1 : end;
		if (*end && !*val)
			return N_("an empty event name (two commas?)");
	}
	memcpy(c->counters, names, sizeof(names));
	c->ncounters = n;
	return NULL;
}

void config_write_counters(struct sbuf *b, const struct ui_config *c)
{
	/* written empty too: the defaults, over what an older file said */
	sbuf_adds(b, "counters = ");
	for (int i = 0; i < c->ncounters; i++)
		sbuf_printf(b, "%s%s", i ? "," : "", c->counters[i]);
	sbuf_addc(b, '\n');
}

const char *const *config_counters(const struct ui_config *c, const char **names, int *n)
{
	*n = c->ncounters;
	for (int i = 0; i < c->ncounters; i++)
		names[i] = c->counters[i];
	return c->ncounters ? names : NULL;
}
