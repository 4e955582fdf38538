// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pecfg.c: prometheus-process-exporter's configuration (pecfg.h says what it
 * holds). The YAML document is loaded by libyaml and walked; each rule's
 * name template is split once into parts, so naming a process is appending
 * them; a template that uses anything but process-exporter's fields is
 * refused rather than shown half-filled. PCRE2 runs each expression with a
 * match limit (RE2, which process-exporter uses, never backtracks; PCRE2
 * could, on a hostile expression and command line).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <yaml.h>

#include "../ui/rcfile.h"
#include "ptop/pecfg.h"
#include "ptop/util.h"

/* The sonames in Debian 12 (packages libyaml-0-2 and libpcre2-8-0). */
#define YAML_SONAME "libyaml-0.so.2"
#define PCRE2_SONAME "libpcre2-8.so.0"

/*
 * libyaml and PCRE2 are loaded when a configuration is first read, as
 * libmicrohttpd is when the endpoint starts: a run that reads none maps
 * neither (about 170 KiB resident). Each is called as lib.NAME(), through
 * its own pointer; PCRE2's names are macros of its 8-bit names, as dlsym
 * finds them.
 */
#define LIB_YAML(X)                                                                                \
	X(yaml_parser_initialize)                                                                  \
	X(yaml_parser_set_input_string)                                                            \
	X(yaml_parser_load)                                                                        \
	X(yaml_parser_delete)                                                                      \
	X(yaml_document_delete)                                                                    \
	X(yaml_document_get_node)                                                                  \
	X(yaml_document_get_root_node)
#define LIB_PCRE2(X)                                                                               \
	X(pcre2_compile)                                                                           \
	X(pcre2_code_free)                                                                         \
	X(pcre2_get_error_message)                                                                 \
	X(pcre2_match_context_create)                                                              \
	X(pcre2_match_context_free)                                                                \
	X(pcre2_set_match_limit)                                                                   \
	X(pcre2_match_data_create_from_pattern)                                                    \
	X(pcre2_match_data_free)                                                                   \
	X(pcre2_match)                                                                             \
	X(pcre2_get_ovector_pointer)                                                               \
	X(pcre2_pattern_info)
#define LIB_PTR(fn) __typeof__(fn) *fn;
#define LIB_NAME(fn) LIB_NAME_(fn)
#define LIB_NAME_(fn) #fn
#define LIB_SYM(fn) {LIB_NAME(fn), (void **)&lib.fn},

static struct {
	int state; /* 0 not tried, 1 loaded, -1 not available */
	LIB_YAML(LIB_PTR)
	LIB_PCRE2(LIB_PTR)
} lib;

/* Load both libraries once. 0, or -ELIBACC with why in why. */
static int lib_load(const char *name, struct sbuf *why)
{
	const struct dl_sym yaml[] = {LIB_YAML(LIB_SYM)};
	const struct dl_sym pcre2[] = {LIB_PCRE2(LIB_SYM)};

	if (!lib.state) {
		bool ok = !util_dlsyms(YAML_SONAME, 0, yaml, sizeof(yaml) / sizeof(yaml[0])) &&
			  !util_dlsyms(PCRE2_SONAME, 0, pcre2, sizeof(pcre2) / sizeof(pcre2[0]));

		lib.state = ok ? 1 : -1;
	}
	if (lib.state > 0)
		return 0;
	sbuf_printf(why, _("%s: reading it needs %s and %s, which could not be loaded\n"), name,
		    YAML_SONAME, PCRE2_SONAME);
	return -ELIBACC;
}

/* Steps of backtracking one expression may take on one command line. */
#define PECFG_MATCH_LIMIT 100000

enum part_kind {
	PART_TEXT,
	PART_COMM,
	PART_EXE_BASE,
	PART_EXE_FULL,
	PART_USERNAME,
	PART_PID,
	PART_START_TIME,
	PART_CGROUPS,
	PART_CWD,
	PART_MATCH, /* text: the group's name */
};

static const struct {
	const char *name;
	enum part_kind kind;
} fields[] = {
    {"Comm", PART_COMM},	 {"ExeBase", PART_EXE_BASE}, {"ExeFull", PART_EXE_FULL},
    {"Username", PART_USERNAME}, {"PID", PART_PID},	     {"StartTime", PART_START_TIME},
    {"Cgroups", PART_CGROUPS},	 {"Cwd", PART_CWD},
};

struct part {
	enum part_kind kind;
	char *text;
};

struct exe {
	char *base; /* the program's name */
	char *full; /* the whole path, or NULL: any path with that name */
};

struct rule {
	struct part *parts;
	size_t nparts;
	bool has_comm, has_exe, has_cmdline; /* a key given, even with an empty list */
	char **comm;
	size_t ncomm;
	struct exe *exe;
	size_t nexe;
	pcre2_code **re;
	size_t nre;
};

struct pecfg {
	struct rule *rules;
	size_t nrules;
	pcre2_match_context *mctx;
};

/* What the walk of a document needs for its messages. */
struct walk {
	yaml_document_t *doc;
	const char *name;
	struct sbuf *why, *warn;
	int faults;
};

__attribute__((format(printf, 3, 4))) static void fault(struct walk *w, const yaml_node_t *n,
							const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	sbuf_printf(w->why, "%s:%lu: %s\n", w->name, n ? (unsigned long)n->start_mark.line + 1 : 1,
		    msg);
	w->faults++;
}

static char *dup_n(const char *s, size_t n)
{
	char *d = xmalloc(n + 1);

	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

static char *scalar(const yaml_node_t *n)
{
	return dup_n((const char *)n->data.scalar.value, n->data.scalar.length);
}

static bool is_key(const yaml_node_t *n, const char *key)
{
	return n && n->type == YAML_SCALAR_NODE && n->data.scalar.length == strlen(key) &&
	       !memcmp(n->data.scalar.value, key, n->data.scalar.length);
}

/* A YAML null: nothing, "~" or "null" unquoted. */
static bool is_null(const yaml_node_t *n)
{
	if (n->type != YAML_SCALAR_NODE || n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		return false;
	return is_key(n, "") || is_key(n, "~") || is_key(n, "null") || is_key(n, "Null") ||
	       is_key(n, "NULL");
}

/* The scalars of sequence n as strings into *out (count *n_out); false after a fault. */
static bool strings(struct walk *w, const yaml_node_t *n, const char *key, char ***out,
		    size_t *n_out)
{
	size_t count;

	if (n->type != YAML_SEQUENCE_NODE) {
		fault(w, n, _("%s must be a list"), key);
		return false;
	}
	count = (size_t)(n->data.sequence.items.top - n->data.sequence.items.start);
	*out = xcalloc(count ? count : 1, sizeof(**out));
	*n_out = 0;
	for (yaml_node_item_t *i = n->data.sequence.items.start; i < n->data.sequence.items.top;
	     i++) {
		const yaml_node_t *item = lib.yaml_document_get_node(w->doc, *i);

		if (!item || item->type != YAML_SCALAR_NODE) {
			fault(w, item ? item : n, _("%s must be a list of strings"), key);
			for (size_t k = 0; k < *n_out; k++)
				free((*out)[k]);
			free(*out);
			*out = NULL;
			return false;
		}
		(*out)[(*n_out)++] = scalar(item);
	}
	return true;
}

/* filepath.Base's answer: the last element of path, "/" for slashes only, "." for "". */
static void base_of(const char *path, const char **start, size_t *len)
{
	size_t n = strlen(path);

	while (n > 1 && path[n - 1] == '/')
		n--;
	if (n == 0) {
		*start = ".";
		*len = 1;
		return;
	}
	*start = path;
	for (size_t i = n; i > 0; i--)
		if (path[i - 1] == '/' && n > 1) {
			*start = path + i;
			break;
		}
	*len = n - (size_t)(*start - path);
}

static void take_exes(struct rule *r, char **list, size_t n)
{
	r->exe = xcalloc(n ? n : 1, sizeof(*r->exe));
	for (size_t i = 0; i < n; i++) {
		const char *b;
		size_t blen;

		base_of(list[i], &b, &blen);
		r->exe[i].base = dup_n(b, blen);
		r->exe[i].full = strchr(list[i], '/') ? list[i] : NULL;
		if (!r->exe[i].full)
			free(list[i]);
	}
	r->nexe = n;
	free(list);
}

static bool compile_all(struct walk *w, const yaml_node_t *n, struct rule *r, char **list,
			size_t count)
{
	bool ok = true;

	r->re = xcalloc(count ? count : 1, sizeof(*r->re));
	for (size_t i = 0; i < count; i++) {
		int code;
		PCRE2_SIZE at;

		r->re[i] = lib.pcre2_compile((PCRE2_SPTR)list[i], PCRE2_ZERO_TERMINATED, 0, &code,
					     &at, NULL);
		if (!r->re[i]) {
			PCRE2_UCHAR msg[256];

			lib.pcre2_get_error_message(code, msg, sizeof(msg));
			fault(w, n, _("bad cmdline expression \"%s\" at offset %lu: %s"), list[i],
			      (unsigned long)at, (const char *)msg);
			ok = false;
		} else {
			r->nre = i + 1;
		}
		free(list[i]);
	}
	free(list);
	return ok;
}

static void add_part(struct rule *r, enum part_kind kind, const char *text, size_t len)
{
	r->parts = xreallocarray(r->parts, r->nparts + 1, sizeof(*r->parts));
	r->parts[r->nparts].kind = kind;
	r->parts[r->nparts].text = text ? dup_n(text, len) : NULL;
	r->nparts++;
}

/* One action "{{ ... }}" of a template (inside, len bytes) as a part; false after a fault. */
static bool take_action(struct walk *w, const yaml_node_t *n, struct rule *r, const char *in,
			size_t len, const char *tmpl)
{
	while (len && (*in == ' ' || *in == '\t')) {
		in++;
		len--;
	}
	while (len && (in[len - 1] == ' ' || in[len - 1] == '\t'))
		len--;
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		if (len == strlen(fields[i].name) + 1 && *in == '.' &&
		    !memcmp(in + 1, fields[i].name, len - 1)) {
			add_part(r, fields[i].kind, NULL, 0);
			return true;
		}
	if (len > 9 && !memcmp(in, ".Matches.", 9)) {
		bool word = true;

		for (size_t i = 9; i < len; i++)
			word &= (in[i] >= 'a' && in[i] <= 'z') || (in[i] >= 'A' && in[i] <= 'Z') ||
				(in[i] >= '0' && in[i] <= '9') || in[i] == '_';
		if (word) {
			add_part(r, PART_MATCH, in + 9, len - 9);
			return true;
		}
	}
	fault(w, n,
	      _("name template \"%s\": {{%.*s}} is not one of process-exporter's fields (.Comm, "
		".ExeBase, .ExeFull, .Username, .PID, .StartTime, .Cgroups, .Cwd, .Matches.NAME)"),
	      tmpl, (int)len, in);
	return false;
}

static bool take_template(struct walk *w, const yaml_node_t *n, struct rule *r, const char *tmpl)
{
	const char *p = tmpl;

	for (;;) {
		const char *open = strstr(p, "{{"), *close;

		if (!open) {
			if (*p)
				add_part(r, PART_TEXT, p, strlen(p));
			return true;
		}
		if (open > p)
			add_part(r, PART_TEXT, p, (size_t)(open - p));
		close = strstr(open + 2, "}}");
		if (!close) {
			fault(w, n, _("name template \"%s\": a {{ without its }}"), tmpl);
			return false;
		}
		if (!take_action(w, n, r, open + 2, (size_t)(close - open - 2), tmpl))
			return false;
		p = close + 2;
	}
}

/* One item of process_names into r; false after a fault. */
static bool take_rule(struct walk *w, const yaml_node_t *n, struct rule *r)
{
	const char *tmpl = "{{.ExeBase}}";
	char *own_tmpl = NULL;
	bool ok = true;

	if (n->type != YAML_MAPPING_NODE) {
		fault(w, n,
		      _("each item of process_names must be a mapping (name, comm, exe, "
			"cmdline)"));
		return false;
	}
	for (yaml_node_pair_t *pr = n->data.mapping.pairs.start;
	     ok && pr < n->data.mapping.pairs.top; pr++) {
		const yaml_node_t *k = lib.yaml_document_get_node(w->doc, pr->key);
		const yaml_node_t *v = lib.yaml_document_get_node(w->doc, pr->value);
		char **list;
		size_t count;

		if (!k || !v)
			continue;
		/* a key given twice is refused, as process-exporter's YAML reader refuses it */
		for (yaml_node_pair_t *q = n->data.mapping.pairs.start; ok && q < pr; q++) {
			const yaml_node_t *earlier = lib.yaml_document_get_node(w->doc, q->key);

			if (k->type == YAML_SCALAR_NODE && earlier &&
			    is_key(earlier, (const char *)k->data.scalar.value)) {
				fault(w, k, _("%s given twice in one rule"),
				      (const char *)k->data.scalar.value);
				ok = false;
			}
		}
		if (!ok)
			break;
		if (is_key(k, "name")) {
			if (v->type != YAML_SCALAR_NODE) {
				fault(w, v, _("name must be a string"));
				ok = false;
			} else if (v->data.scalar.length) {
				free(own_tmpl);
				own_tmpl = scalar(v);
			}
		} else if (is_key(k, "comm") || is_key(k, "exe") || is_key(k, "cmdline")) {
			const char *key = (const char *)k->data.scalar.value;

			if (is_null(v))
				continue; /* as process-exporter: no list, no matcher */
			if (!strings(w, v, key, &list, &count)) {
				ok = false;
			} else if (is_key(k, "comm")) {
				r->has_comm = true;
				r->comm = list;
				r->ncomm = count;
			} else if (is_key(k, "exe")) {
				r->has_exe = true;
				take_exes(r, list, count);
			} else {
				r->has_cmdline = true;
				ok = compile_all(w, v, r, list, count);
			}
		} else if (w->warn) {
			char *key = k->type == YAML_SCALAR_NODE ? scalar(k) : xstrdup("?");

			sbuf_printf(w->warn,
				    _("%s:%lu: %s is not a key process-exporter reads: skipped\n"),
				    w->name, (unsigned long)k->start_mark.line + 1, key);
			free(key);
		}
	}
	if (ok && !r->has_comm && !r->has_exe && !r->has_cmdline) {
		fault(w, n, _("a rule with no matchers (comm, exe or cmdline)"));
		ok = false;
	}
	if (ok)
		ok = take_template(w, n, r, own_tmpl ? own_tmpl : tmpl);
	free(own_tmpl);
	return ok;
}

static void free_rule(struct rule *r)
{
	for (size_t i = 0; i < r->nparts; i++)
		free(r->parts[i].text);
	free(r->parts);
	for (size_t i = 0; i < r->ncomm; i++)
		free(r->comm[i]);
	free(r->comm);
	for (size_t i = 0; i < r->nexe; i++) {
		free(r->exe[i].base);
		free(r->exe[i].full);
	}
	free(r->exe);
	for (size_t i = 0; i < r->nre; i++)
		lib.pcre2_code_free(r->re[i]);
	free(r->re);
}

void pecfg_free(struct pecfg *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->nrules; i++)
		free_rule(&c->rules[i]);
	free(c->rules);
	lib.pcre2_match_context_free(c->mctx);
	free(c);
}

static void walk_root(struct walk *w, struct pecfg *c)
{
	const yaml_node_t *root = lib.yaml_document_get_root_node(w->doc), *list = NULL;

	if (!root || root->type != YAML_MAPPING_NODE) {
		fault(w, root, _("not process-exporter's configuration: no process_names"));
		return;
	}
	for (yaml_node_pair_t *pr = root->data.mapping.pairs.start;
	     pr < root->data.mapping.pairs.top; pr++)
		if (is_key(lib.yaml_document_get_node(w->doc, pr->key), "process_names"))
			list = lib.yaml_document_get_node(w->doc, pr->value);
	if (!list) {
		fault(w, root, _("not process-exporter's configuration: no process_names"));
		return;
	}
	if (list->type != YAML_SEQUENCE_NODE) {
		fault(w, list, _("process_names must be a list of rules"));
		return;
	}
	for (yaml_node_item_t *i = list->data.sequence.items.start;
	     i < list->data.sequence.items.top; i++) {
		const yaml_node_t *item = lib.yaml_document_get_node(w->doc, *i);
		struct rule r = {0};

		if (item && take_rule(w, item, &r)) {
			c->rules = xreallocarray(c->rules, c->nrules + 1, sizeof(*c->rules));
			c->rules[c->nrules++] = r;
		} else {
			free_rule(&r);
		}
	}
}

int pecfg_parse(const char *text, size_t len, const char *name, struct pecfg **out,
		struct sbuf *why, struct sbuf *warn)
{
	struct pecfg *c = xcalloc(1, sizeof(*c));
	yaml_parser_t parser;
	yaml_document_t doc;
	struct walk w = {.doc = &doc, .name = name, .why = why, .warn = warn};

	*out = NULL;
	if (lib_load(name, why)) {
		free(c);
		return -ELIBACC;
	}
	if (!lib.yaml_parser_initialize(&parser))
		abort(); /* out of memory */
	lib.yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
	if (!lib.yaml_parser_load(&parser, &doc)) {
		sbuf_printf(why, _("%s:%lu: not YAML: %s\n"), name,
			    (unsigned long)parser.problem_mark.line + 1,
			    parser.problem ? parser.problem : _("unreadable"));
		lib.yaml_parser_delete(&parser);
		free(c);
		return -EINVAL;
	}
	walk_root(&w, c);
	lib.yaml_document_delete(&doc);
	lib.yaml_parser_delete(&parser);
	if (w.faults) {
		pecfg_free(c);
		return -EINVAL;
	}
	c->mctx = lib.pcre2_match_context_create(NULL);
	if (!c->mctx)
		abort();
	lib.pcre2_set_match_limit(c->mctx, PECFG_MATCH_LIMIT);
	*out = c;
	return 0;
}

int pecfg_read(const char *path, struct pecfg **out, struct sbuf *why, struct sbuf *warn)
{
	struct sbuf text = {0};
	int err = rcfile_read(path, &text, why);

	*out = NULL;
	if (!err)
		err = pecfg_parse(text.p ? text.p : "", text.len, path, out, why, warn);
	sbuf_free(&text);
	return err;
}

size_t pecfg_rules(const struct pecfg *c)
{
	return c->nrules;
}

/* A named group's value from the last match, kept for the template. */
struct capture {
	char *name, *value;
};

struct captures {
	struct capture *v;
	size_t n;
};

static void capture_set(struct captures *cs, const char *name, const char *value, size_t len)
{
	for (size_t i = 0; i < cs->n; i++)
		if (!strcmp(cs->v[i].name, name)) {
			free(cs->v[i].value);
			cs->v[i].value = dup_n(value, len);
			return;
		}
	cs->v = xreallocarray(cs->v, cs->n + 1, sizeof(*cs->v));
	cs->v[cs->n].name = xstrdup(name);
	cs->v[cs->n].value = dup_n(value, len);
	cs->n++;
}

static void captures_free(struct captures *cs)
{
	for (size_t i = 0; i < cs->n; i++) {
		free(cs->v[i].name);
		free(cs->v[i].value);
	}
	free(cs->v);
}

/* Every expression matches line; their named groups into cs. */
static bool cmdline_matches(const struct pecfg *c, const struct rule *r, const char *line,
			    struct captures *cs)
{
	for (size_t i = 0; i < r->nre; i++) {
		pcre2_match_data *md = lib.pcre2_match_data_create_from_pattern(r->re[i], NULL);
		uint32_t count = 0, size = 0;
		PCRE2_SPTR table;
		PCRE2_SIZE *ov;
		int rc;

		if (!md)
			abort();
		rc = lib.pcre2_match(r->re[i], (PCRE2_SPTR)line, strlen(line), 0, 0, md, c->mctx);
		if (rc < 0) { /* no match, or past the match limit: no match either */
			lib.pcre2_match_data_free(md);
			return false;
		}
		ov = lib.pcre2_get_ovector_pointer(md);
		lib.pcre2_pattern_info(r->re[i], PCRE2_INFO_NAMECOUNT, &count);
		lib.pcre2_pattern_info(r->re[i], PCRE2_INFO_NAMEENTRYSIZE, &size);
		lib.pcre2_pattern_info(r->re[i], PCRE2_INFO_NAMETABLE, &table);
		for (uint32_t k = 0; k < count; k++, table += size) {
			unsigned g = ((unsigned)table[0] << 8) | table[1];
			PCRE2_SIZE s = ov[2 * g], e = ov[2 * g + 1];

			if ((int)g >= rc || s == PCRE2_UNSET)
				capture_set(cs, (const char *)table + 2, "", 0);
			else
				capture_set(cs, (const char *)table + 2, line + s, e - s);
		}
		lib.pcre2_match_data_free(md);
	}
	return true;
}

static bool exe_matches(const struct rule *r, const struct pecfg_proc *p)
{
	const char *b;
	size_t blen;

	if (!p->argc)
		return false;
	base_of(p->argv[0], &b, &blen);
	/* the last rule for a name wins, as a later key of a map would */
	for (size_t i = r->nexe; i > 0; i--) {
		const struct exe *e = &r->exe[i - 1];

		if (strlen(e->base) == blen && !memcmp(e->base, b, blen))
			return !e->full || !strcmp(e->full, p->argv[0]);
	}
	return false;
}

static bool comm_matches(const struct rule *r, const struct pecfg_proc *p)
{
	for (size_t i = 0; i < r->ncomm; i++)
		if (!strcmp(r->comm[i], p->comm))
			return true;
	return false;
}

/* Go's time.Time printed: "2006-01-02 15:04:05.123 -0700 MST", the fraction's zeros dropped. */
static void put_time(struct sbuf *b, double t)
{
	time_t secs = (time_t)t;
	long ns = (long)((t - (double)secs) * 1e9 + 0.5);
	char date[64], zone[64], frac[16];
	struct tm tm;

	if (ns >= 1000000000L) {
		secs++;
		ns -= 1000000000L;
	}
	localtime_r(&secs, &tm);
	strftime(date, sizeof(date), "%Y-%m-%d %H:%M:%S", &tm);
	strftime(zone, sizeof(zone), "%z %Z", &tm);
	frac[0] = '\0';
	if (ns) {
		int n = snprintf(frac, sizeof(frac), ".%09ld", ns);

		while (n > 1 && frac[n - 1] == '0')
			frac[--n] = '\0';
	}
	sbuf_printf(b, "%s%s %s", date, frac, zone);
}

static void put_part(struct sbuf *b, const struct part *pt, const struct pecfg_proc *p,
		     const struct captures *cs)
{
	const char *base, *full = p->argc ? p->argv[0] : p->comm;
	size_t blen;

	switch (pt->kind) {
	case PART_TEXT:
		sbuf_printf(b, "%s", pt->text);
		break;
	case PART_COMM:
		sbuf_printf(b, "%s", p->comm);
		break;
	case PART_EXE_BASE:
		if (p->argc)
			base_of(full, &base, &blen);
		else
			base = full, blen = strlen(full);
		sbuf_printf(b, "%.*s", (int)blen, base);
		break;
	case PART_EXE_FULL:
		sbuf_printf(b, "%s", full);
		break;
	case PART_USERNAME:
		sbuf_printf(b, "%s", p->user ? p->user : "");
		break;
	case PART_PID:
		sbuf_printf(b, "%ld", p->pid);
		break;
	case PART_START_TIME:
		put_time(b, p->start_time);
		break;
	case PART_CGROUPS: /* a Go slice printed: [a b] */
		sbuf_printf(b, "[");
		for (size_t i = 0; i < p->ncgroups; i++)
			sbuf_printf(b, "%s%s", i ? " " : "", p->cgroups[i]);
		sbuf_printf(b, "]");
		break;
	case PART_CWD:
		sbuf_printf(b, "%s", p->cwd ? p->cwd : "");
		break;
	case PART_MATCH:
		for (size_t i = 0; i < cs->n; i++)
			if (!strcmp(cs->v[i].name, pt->text)) {
				sbuf_printf(b, "%s", cs->v[i].value);
				return;
			}
		sbuf_printf(b, "<no value>"); /* what Go's template prints for a missing key */
		break;
	}
}

unsigned pecfg_needs(const struct pecfg *c)
{
	unsigned needs = 0;

	for (size_t i = 0; i < c->nrules; i++) {
		const struct rule *r = &c->rules[i];

		if (r->has_exe || r->has_cmdline)
			needs |= PECFG_NEEDS_ARGV;
		for (size_t k = 0; k < r->nparts; k++) {
			if (r->parts[k].kind == PART_EXE_BASE || r->parts[k].kind == PART_EXE_FULL)
				needs |= PECFG_NEEDS_ARGV;
			else if (r->parts[k].kind == PART_CGROUPS)
				needs |= PECFG_NEEDS_CGROUPS;
			else if (r->parts[k].kind == PART_CWD)
				needs |= PECFG_NEEDS_CWD;
		}
	}
	return needs;
}

bool pecfg_name(const struct pecfg *c, const struct pecfg_proc *p, struct sbuf *name)
{
	struct sbuf line = {0};
	bool joined = false;

	for (size_t i = 0; i < c->nrules; i++) {
		const struct rule *r = &c->rules[i];
		struct captures cs = {0};

		if (r->has_comm && !comm_matches(r, p))
			continue;
		if (r->has_exe && !exe_matches(r, p))
			continue;
		if (r->has_cmdline) {
			if (!joined) {
				for (size_t k = 0; k < p->argc; k++)
					sbuf_printf(&line, "%s%s", k ? " " : "", p->argv[k]);
				sbuf_cstr(&line);
				joined = true;
			}
			if (!cmdline_matches(c, r, line.p, &cs)) {
				captures_free(&cs);
				continue;
			}
		}
		for (size_t k = 0; k < r->nparts; k++)
			put_part(name, &r->parts[k], p, &cs);
		captures_free(&cs);
		sbuf_free(&line);
		return true;
	}
	sbuf_free(&line);
	return false;
}
