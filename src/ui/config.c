// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * config.c: ptoprc, the settings `W` writes and ptop reads at start:
 * "key = value" lines, '#' comments. A line ptop cannot use is described
 * once and skipped, so an old or damaged file never stops ptop from starting.
 * How the file is read and replaced safely is rcfile.c's.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "rcfile.h"

static const enum field_id default_columns[] = {
    FIELD_PID, FIELD_USER,  FIELD_PR,  FIELD_NI,  FIELD_VIRT, FIELD_RES,
    FIELD_SHR, FIELD_STATE, FIELD_CPU, FIELD_MEM, FIELD_TIME, FIELD_COMMAND,
};

void config_defaults(struct ui_config *c)
{
	memset(c, 0, sizeof(*c));
	memcpy(c->columns, default_columns, sizeof(default_columns));
	c->ncolumns = sizeof(default_columns) / sizeof(default_columns[0]);
	c->order.field = FIELD_CPU;
	c->other_order = c->order;
	/* one screen, htop's first */
	c->ntabs = 1;
	snprintf(c->tabs[0].name, sizeof(c->tabs[0].name), "Main");
	config_tab_save(c);
	c->screen_tabs = true; /* as htop without an htoprc */
	c->delay_s = 3.0;
	c->color = true;
	c->pane = 0; /* Processes */
	c->summary_unit = UNIT_MIB;
	c->load_line = true;
	c->nmeters = meters_default(c->meters, KEYS_HTOP, 0);
	c->highlight_delay = UI_HIGHLIGHT_DELAY;
}

char *config_path(void)
{
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
	struct sbuf b = {0};

	if (xdg && *xdg == '/')
		sbuf_printf(&b, "%s/ptop/ptoprc", xdg);
	else if (home && *home)
		sbuf_printf(&b, "%s/.config/ptop/ptoprc", home);
	else
		return NULL;
	sbuf_cstr(&b);
	return b.p;
}

static int parse_bool(const char *v, bool *out)
{
	if (!strcasecmp(v, "yes") || !strcasecmp(v, "true") || !strcmp(v, "1") ||
	    !strcasecmp(v, "on"))
		*out = true;
	else if (!strcasecmp(v, "no") || !strcasecmp(v, "false") || !strcmp(v, "0") ||
		 !strcasecmp(v, "off"))
		*out = false;
	else
		return -EINVAL;
	return 0;
}

int config_parse_columns(char *v, enum field_id *out, size_t *nout)
{
	enum field_id cols[UI_MAX_COLUMNS];
	bool used[FIELD_COUNT] = {false};
	size_t n = 0;
	char *save = NULL;

	for (char *tok = strtok_r(v, ", \t", &save); tok; tok = strtok_r(NULL, ", \t", &save)) {
		int id = field_named(tok, false);

		if (id < 0 || used[id])
			return -EINVAL;
		used[id] = true;
		if (id != FIELD_COMMAND)
			cols[n++] = (enum field_id)id;
	}
	cols[n++] = FIELD_COMMAND;
	memcpy(out, cols, n * sizeof(cols[0]));
	*nout = n;
	return 0;
}

/* One column's "cpu,memory:text" into m[*n...]; each meter at most once. */
static const char *parse_meter_column(char *v, unsigned col, struct ui_meter *m, unsigned *n,
				      bool *used)
{
	char *save = NULL;

	for (char *tok = strtok_r(v, ", \t", &save); tok; tok = strtok_r(NULL, ", \t", &save)) {
		char *colon = strchr(tok, ':');
		int id, mode;

		if (colon)
			*colon++ = '\0';
		id = meter_by_name(tok);
		if (id < 0)
			return N_("unknown meter");
		if (used[id])
			return N_("a meter named twice");
		mode = colon ? meter_mode_by_name(colon) : (int)meter_default_mode((unsigned)id);
		if (mode < 0 || !meter_has_mode((unsigned)id, (enum meter_mode)mode))
			return N_("a meter shown in a mode it has not (bar, text, graph or led)");
		used[id] = true;
		m[(*n)++] = (struct ui_meter){.id = (unsigned char)id,
					      .column = (unsigned char)col,
					      .mode = (unsigned char)mode};
	}
	return NULL;
}

/* "cpu,memory:text,swap | tasks,load,uptime": the header's meters, the left
 * column (or the only one) before '|', the right one after it. */
static const char *parse_meters(char *v, struct ui_config *c)
{
	struct ui_meter m[UI_METERS_MAX];
	bool used[UI_METERS_MAX] = {false};
	char *bar = strchr(v, '|');
	const char *why;
	unsigned n = 0;

	if (bar) {
		*bar++ = '\0';
		if (strchr(bar, '|'))
			return N_("more than two columns of meters");
	}
	why = parse_meter_column(v, 0, m, &n, used);
	if (!why && bar)
		why = parse_meter_column(bar, 1, m, &n, used);
	if (why)
		return why;
	memcpy(c->meters, m, n * sizeof(m[0]));
	c->nmeters = n;
	c->meters_chosen = true;
	return NULL;
}

/* The meters line's value, as parse_meters() reads it. */
static void meters_text(struct sbuf *b, const struct ui_config *c)
{
	bool right = false;

	for (unsigned i = 0; i < c->nmeters; i++)
		right |= c->meters[i].column != 0;
	for (unsigned col = 0; col < (right ? 2u : 1u); col++) {
		bool first = true;

		if (col)
			sbuf_adds(b, " |");
		for (unsigned i = 0; i < c->nmeters; i++) {
			const struct ui_meter *m = &c->meters[i];

			if ((m->column != 0) != (col != 0))
				continue;
			sbuf_printf(b, "%s%s", first ? " " : ",", meter_name(m->id));
			if (m->mode != meter_default_mode(m->id))
				sbuf_printf(b, ":%s", meter_mode_name((enum meter_mode)m->mode));
			first = false;
		}
	}
}

char *config_trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r' || e[-1] == '\n'))
		*--e = '\0';
	return s;
}

/* A yes-or-no setting's key into c: NULL when set, a reason when val is bad, "" when key is none. */
static const char *apply_flag(struct ui_config *c, const char *key, const char *val)
{
	static const struct {
		const char *key;
		size_t off;
	} flags[] = {
	    {"sort_reverse", offsetof(struct ui_config, order.reverse)},
	    {"color", offsetof(struct ui_config, color)},
	    {"tree", offsetof(struct ui_config, tree)},
	    {"threads", offsetof(struct ui_config, threads)},
	    {"user_threads", offsetof(struct ui_config, user_threads)},
	    {"hide_kernel_threads", offsetof(struct ui_config, hide_kthreads)},
	    {"per_cpu", offsetof(struct ui_config, per_cpu)},
	    {"cmdline", offsetof(struct ui_config, cmdline)},
	    {"load_line", offsetof(struct ui_config, load_line)},
	    {"highlight_changes", offsetof(struct ui_config, highlight_changes)},
	    {"screen_tabs", offsetof(struct ui_config, screen_tabs)},
	};
	bool b;

	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		if (strcmp(key, flags[i].key))
			continue;
		if (parse_bool(val, &b))
			return N_("expected yes or no");
		*(bool *)((char *)c + flags[i].off) = b;
		return NULL;
	}
	return "";
}

/* A setting that names one of a set (keys, source, color_scheme, pane); as apply_flag(). */
static const char *apply_choice(struct ui_config *c, const char *key, const char *val)
{
	if (!strcmp(key, "keys")) {
		int prof = keymap_profile_by_name(val);

		if (prof < 0)
			return N_("keys must be htop or top");
		c->keys = (enum key_profile)prof;
		return NULL;
	}
	if (!strcmp(key, "source"))
		return frame_source_parse(val, &c->source)
			   ? N_("source must be auto, procfs or bpf")
			   : NULL;
	if (!strcmp(key, "color_scheme")) {
		/* monochrome is color = no, which -C and NO_COLOR also ask for */
		if (!strcmp(val, "monochrome"))
			c->color = false;
		else if (!strcmp(val, "default") || !strcmp(val, "light"))
			c->scheme = *val == 'l' ? UI_SCHEME_LIGHT : UI_SCHEME_DEFAULT;
		else
			return N_("color_scheme must be default, monochrome or light");
		return NULL;
	}
	if (!strcmp(key, "pane")) {
		int pane = ui_pane_by_name(val);

		if (pane < 0)
			return N_("unknown pane");
		c->pane = (unsigned)pane;
		return NULL;
	}
	return "";
}

/* Apply one "key = value"; a translatable reason on failure. */
static const char *apply(struct ui_config *c, const char *key, char *val)
{
	const char *why;
	int id;

	if (!strcmp(key, "columns"))
		return config_parse_columns(val, c->columns, &c->ncolumns)
			   ? N_("unknown or repeated column")
			   : NULL;
	if (!strcmp(key, "meters"))
		return parse_meters(val, c);
	if (!strcmp(key, "sort")) {
		id = field_named(val, false);
		if (id < 0)
			return N_("unknown sort field");
		c->order.field = (enum field_id)id;
		return NULL;
	}
	if (!strcmp(key, "delay")) {
		char *end;
		double d = strtod_point(val, &end);

		if (end == val || *end || !isfinite(d) || d < 0 || d > 86400)
			return N_("delay must be a number of seconds");
		c->delay_s = d;
		return NULL;
	}
	if (!strcmp(key, "counters"))
		return config_parse_counters(val, c);
	if (config_parse_display(c, key, val, &why))
		return why;
	why = apply_choice(c, key, val);
	if (!why || *why)
		return why;
	why = apply_flag(c, key, val);
	if (!why || *why)
		return why;
	return N_("unknown setting");
}

/* Where the reader says what it skipped: the first few lines by number, then a count. */
struct bad_lines {
	struct sbuf *errors;
	unsigned n;
};

static void bad_line(struct bad_lines *bad, unsigned lineno, const char *key, const char *why)
{
	if (bad->n++ >= CONFIG_MAX_REPORTED)
		return;
	if (key)
		sbuf_printf(bad->errors, "ptoprc:%u: %s: %s\n", lineno, key, _(why));
	else
		sbuf_printf(bad->errors, "ptoprc:%u: %s\n", lineno, _(why));
}

/* text[0..len) is the whole file; it is cut into lines in place. */
static void parse(struct ui_config *c, char *text, size_t len, struct sbuf *errors)
{
	struct bad_lines bad = {.errors = errors};
	char line[1024];
	unsigned lineno = 0, tabs = 0;

	for (size_t off = 0; off < len;) {
		char *start = text + off, *nl = memchr(start, '\n', len - off);
		size_t n = nl ? (size_t)(nl - start) : len - off;
		char *key, *val, *eq;
		const char *why;

		off += n + 1;
		lineno++;
		if (n >= sizeof(line)) {
			bad_line(&bad, lineno, NULL, N_("line too long"));
			continue;
		}
		/* a NUL would end the line early and let the garbage after it pass */
		if (memchr(start, '\0', n)) {
			bad_line(&bad, lineno, NULL, N_("not text (a NUL byte)"));
			continue;
		}
		memcpy(line, start, n);
		line[n] = '\0';
		key = config_trim(line);
		if (!*key || *key == '#')
			continue;
		eq = strchr(key, '=');
		if (!eq) {
			bad_line(&bad, lineno, NULL, N_("expected key = value"));
			continue;
		}
		*eq = '\0';
		val = config_trim(eq + 1);
		key = config_trim(key);
		/* a file's screen lines replace the screens ptop had: they are counted */
		why = strcmp(key, "screen") ? apply(c, key, val) : config_parse_tab(c, val, &tabs);
		if (why)
			bad_line(&bad, lineno, key, why);
	}
	/* with screen lines, the first one opens, whatever columns and sort said;
	 * without, the one sort of older files is the tree's too */
	if (tabs)
		config_tab_open(c, 0);
	else
		c->other_order = c->order;
	if (bad.n > CONFIG_MAX_REPORTED) {
		sbuf_adds(errors, "ptoprc: ");
		sbuf_printf(errors, _("and %u more"), bad.n - CONFIG_MAX_REPORTED);
		sbuf_addc(errors, '\n');
	}
}

int config_read(const char *path, struct ui_config *c, struct sbuf *errors)
{
	struct sbuf text = {0};
	int err = rcfile_read(path, &text, errors);

	if (!err)
		parse(c, text.p, text.len, errors);
	sbuf_free(&text);
	return err;
}

static void settings_text(struct sbuf *b, const struct ui_config *c)
{
	sbuf_adds(b, "# ptop settings, written by the W key\ncolumns = ");
	for (size_t i = 0; i < c->ncolumns; i++)
		sbuf_printf(b, "%s%s", i ? "," : "", field_defs[c->columns[i]].name);
	sbuf_printf(b, "\nsort = %s\nsort_reverse = %s\n", field_defs[c->order.field].name,
		    c->order.reverse ? "yes" : "no");
	sbuf_printf(b, "delay = %g\ncolor = %s\ntree = %s\nthreads = %s\n", c->delay_s,
		    c->color ? "yes" : "no", c->tree ? "yes" : "no", c->threads ? "yes" : "no");
	sbuf_printf(b, "user_threads = %s\nhide_kernel_threads = %s\n",
		    c->user_threads ? "yes" : "no", c->hide_kthreads ? "yes" : "no");
	sbuf_printf(b, "per_cpu = %s\ncmdline = %s\npane = %s\n", c->per_cpu ? "yes" : "no",
		    c->cmdline ? "yes" : "no", ui_pane_name(c->pane));
	sbuf_printf(b, "keys = %s\nload_line = %s\n", keymap_profile_name(c->keys),
		    c->load_line ? "yes" : "no");
	sbuf_printf(b, "color_scheme = %s\n", c->scheme == UI_SCHEME_LIGHT ? "light" : "default");
	config_write_display(b, c);
	if (c->source != FRAME_SOURCE_AUTO)
		sbuf_printf(b, "source = %s\n", frame_source_name(c->source));
	sbuf_adds(b, "meters =");
	meters_text(b, c);
	sbuf_addc(b, '\n');
	config_write_counters(b, c);
	config_write_tabs(b, c);
}

int config_write_why(const char *path, const struct ui_config *c, struct sbuf *why)
{
	struct sbuf b = {0}, scratch = {0};
	int err;

	settings_text(&b, c);
	err = rcfile_replace(path, b.p, b.len, why ? why : &scratch);
	sbuf_free(&b);
	sbuf_free(&scratch);
	return err;
}

int config_write(const char *path, const struct ui_config *c)
{
	return config_write_why(path, c, NULL);
}
