// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dispconfig.c: ptoprc's lines for how the header and the memory columns
 * show the frame, as m, E and e (display.c) chose them and W saved them:
 * "memory = bars|text|hidden", "summary_unit = MiB", "task_unit = KiB".
 * (top's l, the load line, is a yes-or-no setting among config.c's.)
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ptop/ui.h"

static const char *const mem_display_names[MEM_DISPLAY_COUNT] = {
    [MEM_BARS] = "bars",
    [MEM_TEXT] = "text",
    [MEM_HIDDEN] = "hidden",
};

const char *config_mem_display_name(enum mem_display d)
{
	return mem_display_names[d < MEM_DISPLAY_COUNT ? d : MEM_BARS];
}

static const char *parse_unit(const char *val, enum mem_unit *out)
{
	int u = mem_unit_by_name(val);

	if (u < 0)
		return N_("expected KiB, MiB, GiB, TiB, PiB or EiB");
	*out = (enum mem_unit)u;
	return NULL;
}

bool config_parse_display(struct ui_config *c, const char *key, const char *val, const char **why)
{
	*why = NULL;
	if (!strcmp(key, "summary_unit"))
		*why = parse_unit(val, &c->summary_unit);
	else if (!strcmp(key, "task_unit"))
		*why = parse_unit(val, &c->task_unit);
	else if (!strcmp(key, "memory")) {
		int d = 0;

		while (d < MEM_DISPLAY_COUNT && strcasecmp(val, mem_display_names[d]))
			d++;
		if (d == MEM_DISPLAY_COUNT)
			*why = N_("memory must be bars, text or hidden");
		else
			c->memory = (enum mem_display)d;
	} else if (!strcmp(key, "highlight_delay")) {
		char *end;
		unsigned long v = strtoul(val, &end, 10);

		if (end == val || *end || *val == '-' || v < 1 || v > UI_HIGHLIGHT_DELAY_MAX)
			*why = N_("highlight_delay must be whole seconds from 1 to 86400");
		else
			c->highlight_delay = (unsigned)v;
	} else
		return false;
	return true;
}

void config_write_display(struct sbuf *b, const struct ui_config *c)
{
	sbuf_printf(b, "memory = %s\nsummary_unit = %s\ntask_unit = %s\n",
		    config_mem_display_name(c->memory), mem_unit_name(c->summary_unit),
		    mem_unit_name(c->task_unit));
	sbuf_printf(b, "highlight_changes = %s\nhighlight_delay = %u\n",
		    c->highlight_changes ? "yes" : "no", c->highlight_delay);
}
