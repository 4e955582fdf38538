// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * htoprc.c: an htop user's settings, taken where ptop has none of its own.
 * htop's htoprc ($XDG_CONFIG_HOME/htop/htoprc, else ~/.config/htop/htoprc)
 * as htop 3 writes it: its screens ("screen:Main=PID USER ... Command", by
 * htop's names for the columns: field_defs[].htop, then ".sort_key=",
 * ".sort_direction=", ".tree_view=", ".all_branches_collapsed=" lines, and
 * its tree's sort, ".tree_sort_key=", ".tree_sort_direction=", or PID by
 * ".tree_view_always_by_pid="), each a tab of the Processes pane, the first
 * shown, their line of tabs as screen_tabs says (off when a file lacks it,
 * as in htop); kernel and user threads, the delay in tenths, highlighting,
 * monochrome, and the header's meters (column_meters_0 into the left
 * column, the others into the right one, each meter once, bar, text, graph
 * or LED as column_meter_modes_N says where the meter has it). Files from
 * before htop 3.2's screens (htop 2, 3.0 and 3.1) name the columns and the
 * sort by number ("fields=0 48 17 ...", "sort_key=46": htop's field numbers
 * less one) and the meters as left_meters and right_meters: they are taken
 * where there is no screen, their one sort the tree's too. What ptop lacks
 * is named, not guessed.
 * Curses-free: read through rcfile.c, as ptoprc is.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "rcfile.h"

char *htoprc_path(void)
{
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
	struct sbuf b = {0};

	if (xdg && *xdg == '/')
		sbuf_printf(&b, "%s/htop/htoprc", xdg);
	else if (home && *home)
		sbuf_printf(&b, "%s/.config/htop/htoprc", home);
	else
		return NULL;
	sbuf_cstr(&b);
	return b.p;
}

/* htop's meter classes and the ptop meter that shows the same; NULL: none. */
static const char *meter_for(const char *htop)
{
	static const struct {
		const char *htop, *ptop;
	} map[] = {
	    {"AllCPUs", "cpu"},
	    {"AllCPUs2", "all_cpus2"},
	    {"AllCPUs4", "all_cpus4"},
	    {"AllCPUs8", "all_cpus8"},
	    {"LeftCPUs", "left_cpus"},
	    {"RightCPUs", "right_cpus"},
	    {"LeftCPUs2", "left_cpus2"},
	    {"RightCPUs2", "right_cpus2"},
	    {"LeftCPUs4", "left_cpus4"},
	    {"RightCPUs4", "right_cpus4"},
	    {"LeftCPUs8", "left_cpus8"},
	    {"RightCPUs8", "right_cpus8"},
	    {"CPU", "cpu"},
	    {"Memory", "memory"},
	    {"Swap", "swap"},
	    {"Tasks", "tasks"},
	    {"LoadAverage", "load"},
	    {"Load", "load"},
	    {"Uptime", "uptime"},
	    {"Clock", "uptime"},
	    {"DiskIO", "disk"},
	    {"NetworkIO", "network"},
	    {"PressureStallCPUSome", "psi_cpu"},
	    {"PressureStallMemorySome", "psi_memory"},
	    {"PressureStallMemoryFull", "psi_memory"},
	    {"PressureStallIOSome", "psi_io"},
	    {"PressureStallIOFull", "psi_io"},
	};

	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (!strcmp(htop, map[i].htop))
			return map[i].ptop;
	return NULL;
}

/*
 * htop's names for its Linux fields by the number its files write for them
 * (its field enum less one), for files older than its screens; NULL: a
 * number that names no field.
 */
static const char *const htop_numbered[] = {
    [0] = "PID",
    [1] = "Command",
    [2] = "STATE",
    [3] = "PPID",
    [4] = "PGRP",
    [5] = "SESSION",
    [6] = "TTY",
    [7] = "TPGID",
    [9] = "MINFLT",
    [10] = "CMINFLT",
    [11] = "MAJFLT",
    [12] = "CMAJFLT",
    [13] = "UTIME",
    [14] = "STIME",
    [15] = "CUTIME",
    [16] = "CSTIME",
    [17] = "PRIORITY",
    [18] = "NICE",
    [20] = "STARTTIME",
    [37] = "PROCESSOR",
    [38] = "M_VIRT",
    [39] = "M_RESIDENT",
    [40] = "M_SHARE",
    [41] = "M_TRS",
    [42] = "M_DRS",
    [43] = "M_LRS",
    [44] = "M_DT",
    [45] = "ST_UID",
    [46] = "PERCENT_CPU",
    [47] = "PERCENT_MEM",
    [48] = "USER",
    [49] = "TIME",
    [50] = "NLWP",
    [51] = "TGID",
    [52] = "PERCENT_NORM_CPU",
    [53] = "ELAPSED",
    [54] = "SCHEDULERPOLICY",
    [102] = "RCHAR",
    [103] = "WCHAR",
    [104] = "SYSCR",
    [105] = "SYSCW",
    [106] = "RBYTES",
    [107] = "WBYTES",
    [108] = "CNCLWB",
    [109] = "IO_READ_RATE",
    [110] = "IO_WRITE_RATE",
    [111] = "IO_RATE",
    [112] = "CGROUP",
    [113] = "OOM",
    [114] = "IO_PRIORITY",
    [115] = "PERCENT_CPU_DELAY",
    [116] = "PERCENT_IO_DELAY",
    [117] = "PERCENT_SWAP_DELAY",
    [118] = "M_PSS",
    [119] = "M_SWAP",
    [120] = "M_PSSWP",
    [121] = "CTXT",
    [122] = "SECATTR",
    [123] = "COMM", /* its PROC_COMM, named COMM */
    [124] = "EXE",  /* its PROC_EXE: the exe's last part */
    [125] = "CWD",
    [126] = "AUTOGROUP_ID",
    [127] = "AUTOGROUP_NICE",
    [128] = "CCGROUP",
    [129] = "CONTAINER",
    [130] = "M_PRIV",
    [131] = "GPU_TIME",
    [132] = "GPU_PERCENT",
    [133] = "ISCONTAINER",
    [134] = "M_EPSS",
    [135] = "NET_RX",
    [136] = "NET_TX",
    [137] = "NET_TOTAL",
};

/* htop's name for the field its file writes as text (a number), or NULL. */
static const char *htop_name_of(const char *text)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(text, &end, 10);
	if (errno || end == text || *end || n < 0 ||
	    (size_t)n >= sizeof(htop_numbered) / sizeof(htop_numbered[0]))
		return NULL;
	return htop_numbered[n];
}

/*
 * "0 48 17 ...": htop's numbered fields as the names a screen line gives
 * them, into names (a number that names nothing stays itself, as "#N", for
 * the list of what ptop lacks).
 */
static void numbered_names(char *v, struct sbuf *names)
{
	char *save = NULL;

	for (char *t = strtok_r(v, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
		const char *name = htop_name_of(t);

		if (name)
			sbuf_printf(names, "%s%s", names->len ? " " : "", name);
		else
			sbuf_printf(names, "%s#%s", names->len ? " " : "", t);
	}
	sbuf_cstr(names);
}

/* htop's column_meter_modes_N: "1 2 ..." (1 bar, 2 text, 3 graph, 4 LED), in order. */
#define HTOP_METERS_MAX 64
struct htop_column {
	char names[1024];
	unsigned char modes[HTOP_METERS_MAX];
	bool has_names;
};

static void take_modes(const char *v, struct htop_column *col)
{
	char *end;

	for (unsigned i = 0; i < HTOP_METERS_MAX; i++, v = end) {
		long m = strtol(v, &end, 10);

		if (end == v)
			break;
		col->modes[i] = (unsigned char)(m > 0 && m < 256 ? m : 0);
	}
}

/* One column's "NAME NAME ...": each name's meter, in order, once, in the
 * mode htop draws it where ptop has that mode; unknown ones into lacks. */
static void take_meters(struct htop_column *hc, unsigned column, struct ui_config *c, bool *seen,
			struct sbuf *lacks)
{
	char *save = NULL;
	unsigned i = 0;

	for (char *t = strtok_r(hc->names, " ", &save); t; t = strtok_r(NULL, " ", &save), i++) {
		const char *m = meter_for(t);
		int id = m ? meter_by_name(m) : -1;
		enum meter_mode mode;

		if (id < 0) {
			sbuf_printf(lacks, "%s%s", lacks->len ? ", " : "", t);
			continue;
		}
		if (seen[id] || c->nmeters == UI_METERS_MAX)
			continue;
		seen[id] = true;
		/* htop numbers the modes from 1, in ptop's order */
		mode = i < HTOP_METERS_MAX && hc->modes[i] >= 1 && hc->modes[i] <= METER_MODE_COUNT
			   ? (enum meter_mode)(hc->modes[i] - 1)
			   : METER_BAR;
		if (!meter_has_mode((unsigned)id, mode))
			mode = meter_default_mode((unsigned)id);
		c->meters[c->nmeters++] = (struct ui_meter){.id = (unsigned char)id,
							    .column = (unsigned char)column,
							    .mode = (unsigned char)mode};
	}
}

/* name into the list of what ptop lacks, once. */
static void lack(struct sbuf *lacks, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = lacks->len ? sbuf_cstr(lacks) : ""; (p = strstr(p, name)); p++)
		if ((p == lacks->p || p[-1] == ' ') && (p[n] == ',' || !p[n]))
			return;
	sbuf_printf(lacks, "%s%s", lacks->len ? ", " : "", name);
}

/* "PID USER ... Command": the columns into out, COMMAND last; unknown ones into lacks. */
static void take_columns(char *v, enum field_id *out, size_t *nout, struct sbuf *lacks)
{
	enum field_id cols[UI_MAX_COLUMNS];
	bool used[FIELD_COUNT] = {false};
	size_t n = 0;
	char *save = NULL;

	for (char *t = strtok_r(v, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
		int id = field_by_htop_name(t);

		if (id < 0) {
			lack(lacks, t);
			continue;
		}
		if (used[id] || id == FIELD_COMMAND)
			continue;
		used[id] = true;
		cols[n++] = (enum field_id)id;
	}
	cols[n++] = FIELD_COMMAND;
	memcpy(out, cols, n * sizeof(cols[0]));
	*nout = n;
}

/* htop reads its switches as numbers: "0", "" and text are off */
static bool yes(const char *v)
{
	return atoi(v) != 0;
}

/*
 * key as one of htop's per-column keys: prefix followed by the column's
 * digit (htop 3's column_meters_N, column_meter_modes_N), or left and right
 * (left_meters, right_meters and their modes, before); its column in *hc.
 */
static bool column_key(const char *key, const char *prefix, const char *left, const char *right,
		       struct htop_column *cols, struct htop_column **hc)
{
	size_t n = strlen(prefix);

	if (!strncmp(key, prefix, n) && key[n] >= '0' && key[n] <= '3' && !key[n + 1])
		*hc = &cols[key[n] - '0'];
	else if (!strcmp(key, left) || !strcmp(key, right))
		*hc = &cols[!strcmp(key, right)];
	else
		return false;
	return true;
}

/* What a read of htoprc gathers before it settles the sort and the header. */
struct htoprc_read {
	unsigned screens;  /* screen lines seen */
	unsigned tabs;	   /* taken into c->tabs, from the first */
	unsigned nameless; /* screen lines without a name, skipped */
	int tab;	   /* the tab the dotted lines now go to, or -1 */
	/* each tab's sort keys and directions, htop's list's and its tree's */
	struct htop_sorts {
		int sort, dir, tree_sort, tree_dir;
		bool by_pid; /* .tree_view_always_by_pid */
	} sorts[UI_TABS_MAX];
	/* htop's first column, then its others (three and four column layouts) */
	struct htop_column cols[4];
	/* the top-level keys of files before screens: what the first screen says wins */
	int old_sort, old_dir, old_tree, old_collapsed, reader_version;
	char *old_fields;
	struct sbuf lacks; /* columns ptop has not */
};

/* A display setting's key into c; false when l is none. */
static bool take_display(const char *l, const char *v, struct ui_config *c)
{
	if (!strcmp(l, "hide_kernel_threads")) {
		c->hide_kthreads = yes(v);
	} else if (!strcmp(l, "hide_userland_threads")) {
		c->user_threads = !yes(v);
	} else if (!strcmp(l, "delay")) {
		long t = atol(v);

		if (t > 0 && t <= 864000)
			c->delay_s = (double)t / 10; /* tenths, as htop's -d */
	} else if (!strcmp(l, "highlight_changes")) {
		c->highlight_changes = yes(v);
	} else if (!strcmp(l, "screen_tabs")) {
		c->screen_tabs = yes(v);
	} else if (!strcmp(l, "highlight_changes_delay_secs")) {
		long s = atol(v);

		if (s >= 1 && s <= UI_HIGHLIGHT_DELAY_MAX)
			c->highlight_delay = (unsigned)s;
	} else if (!strcmp(l, "color_scheme")) {
		/* htop's 1 is monochrome, 2 black on white */
		c->color = atoi(v) != 1;
		c->scheme = atoi(v) == 2 ? UI_SCHEME_LIGHT : UI_SCHEME_DEFAULT;
	} else {
		return false;
	}
	return true;
}

/*
 * "screen:NAME=PID USER ...": a tab, after the ones before (c's own are
 * replaced by the first); its name as ptop keeps names (control bytes and
 * '|' as '?', at most UI_TAB_NAME_MAX bytes). One without a name, or past
 * UI_TABS_MAX, is skipped with its dotted lines, and counted.
 */
static void take_screen(struct htoprc_read *h, const char *name, char *v, struct ui_config *c)
{
	struct ui_tab *t;
	size_t n = 0;

	h->screens++;
	h->tab = -1;
	while (*name == ' ')
		name++;
	if (!*name) {
		h->nameless++;
		return;
	}
	if (h->tabs == UI_TABS_MAX)
		return;
	h->tab = (int)h->tabs;
	t = &c->tabs[h->tabs++];
	for (; name[n] && n < UI_TAB_NAME_MAX; n++)
		t->name[n] = (unsigned char)name[n] < 0x20 || name[n] == 0x7f || name[n] == '|'
				 ? '?'
				 : name[n];
	while (n > 0 && t->name[n - 1] == ' ')
		n--;
	t->name[n] = '\0';
	take_columns(v, t->columns, &t->ncolumns, &h->lacks);
	/* htop's defaults for a screen that says no more */
	t->order = t->tree_order = (struct row_order){.field = FIELD_CPU};
	t->tree = t->collapsed = false;
	/* htop's tree of a new screen is by PID, ascending */
	h->sorts[h->tab] = (struct htop_sorts){.sort = -1, .tree_sort = FIELD_PID, .tree_dir = 1};
}

/* A screen's ".key=value" line, for tab t (h->tab). */
static void take_dotted(struct htoprc_read *h, const char *l, const char *v, struct ui_tab *t)
{
	struct htop_sorts *s = &h->sorts[h->tab];

	if (!strcmp(l, ".sort_key")) {
		s->sort = field_by_htop_name(v);
	} else if (!strcmp(l, ".sort_direction")) {
		s->dir = atoi(v);
	} else if (!strcmp(l, ".tree_sort_key")) {
		/* htop's own fallback for a key it does not know */
		s->tree_sort = field_by_htop_name(v);
		if (s->tree_sort < 0)
			s->tree_sort = FIELD_PID;
	} else if (!strcmp(l, ".tree_sort_direction")) {
		s->tree_dir = atoi(v);
	} else if (!strcmp(l, ".tree_view_always_by_pid")) {
		s->by_pid = yes(v);
	} else if (!strcmp(l, ".tree_view")) {
		t->tree = yes(v);
	} else if (!strcmp(l, ".all_branches_collapsed")) {
		t->collapsed = yes(v);
	}
}

/* One "key=value" line of htoprc (l the key, v the value). */
static void take_line(struct htoprc_read *h, const char *l, char *v, struct ui_config *c)
{
	struct htop_column *hc;

	if (!strncmp(l, "screen:", 7)) {
		take_screen(h, l + 7, v, c);
	} else if (*l == '.') {
		if (h->tab >= 0)
			take_dotted(h, l, v, &c->tabs[h->tab]);
	} else if (!strcmp(l, "fields")) {
		h->old_fields = v;
	} else if (!strcmp(l, "sort_key")) {
		const char *name = htop_name_of(v);

		h->old_sort = name ? field_by_htop_name(name) : -1;
	} else if (!strcmp(l, "sort_direction")) {
		h->old_dir = atoi(v);
	} else if (!strcmp(l, "tree_view")) {
		h->old_tree = yes(v);
	} else if (!strcmp(l, "all_branches_collapsed")) {
		h->old_collapsed = yes(v);
	} else if (!strcmp(l, "config_reader_min_version")) {
		h->reader_version = atoi(v);
	} else if (column_key(l, "column_meters_", "left_meters", "right_meters", h->cols, &hc)) {
		snprintf(hc->names, sizeof(hc->names), "%s", v);
		hc->has_names = true;
	} else if (column_key(l, "column_meter_modes_", "left_meter_modes", "right_meter_modes",
			      h->cols, &hc)) {
		take_modes(v, hc);
	} else {
		take_display(l, v, c);
	}
}

/* htop's sort field and direction into o; a sort that names nothing leaves o. */
static void take_order(const struct htoprc_read *h, int sort, int dir, struct row_order *o)
{
	if (sort < 0)
		return;
	o->field = (enum field_id)sort;
	if (h->screens || h->reader_version >= 2) /* htop 3.1 on: 1 ascending, -1 descending */
		o->reverse = dir && (dir > 0) != field_defs[sort].ascending;
	else /* before: 1 the field's own direction (CPU highest first), -1 the other */
		o->reverse = dir < 0;
}

/* The tabs' sorts, the first one shown; or the columns and sort of a file before screens. */
static void take_sort(struct htoprc_read *h, struct ui_config *c)
{
	if (h->tabs) {
		for (unsigned i = 0; i < h->tabs; i++) {
			const struct htop_sorts *s = &h->sorts[i];

			take_order(h, s->sort, s->dir, &c->tabs[i].order);
			take_order(h, s->by_pid ? FIELD_PID : s->tree_sort, s->tree_dir,
				   &c->tabs[i].tree_order);
		}
		c->ntabs = h->tabs;
		config_tab_open(c, 0);
		return;
	}
	if (h->screens)
		return;
	if (h->old_fields) {
		struct sbuf names = {0};

		numbered_names(h->old_fields, &names);
		take_columns(names.p, c->columns, &c->ncolumns, &h->lacks);
		sbuf_free(&names);
	}
	if (h->old_tree >= 0)
		c->tree = h->old_tree;
	if (h->old_collapsed >= 0)
		c->collapsed = h->old_collapsed;
	take_order(h, h->old_sort, h->old_dir, &c->order);
	c->other_order = c->order;
}

/* htop's meters, in its columns, when it names any; ptop's Cost meter after them. */
static void take_header(struct htoprc_read *h, struct ui_config *c, struct sbuf *mlacks)
{
	bool seen[UI_METERS_MAX] = {false};
	int cost = meter_by_name("cost");

	if (!h->cols[0].has_names && !h->cols[1].has_names && !h->cols[2].has_names &&
	    !h->cols[3].has_names)
		return;
	c->nmeters = 0;
	c->meters_chosen = true;
	for (unsigned i = 0; i < 4; i++)
		take_meters(&h->cols[i], i ? 1 : 0, c, seen, mlacks);
	/* what watching costs: ptop's own meter, kept under htop's */
	if (c->nmeters < UI_METERS_MAX && !seen[cost]) {
		unsigned char col = c->nmeters ? c->meters[c->nmeters - 1].column : 0;

		c->meters[c->nmeters++] =
		    (struct ui_meter){.id = (unsigned char)cost,
				      .column = col,
				      .mode = (unsigned char)meter_default_mode((unsigned)cost)};
	}
}

int htoprc_import(const char *path, struct ui_config *c, struct sbuf *said)
{
	struct htoprc_read h = {.tab = -1, .old_sort = -1, .old_tree = -1, .old_collapsed = -1};
	struct sbuf text = {0}, mlacks = {0}, errors = {0};
	char *save = NULL;
	int err;

	err = rcfile_read(path, &text, &errors);
	sbuf_free(&errors);
	if (err) {
		sbuf_free(&text);
		return err;
	}
	sbuf_cstr(&text);
	/* htop's tabs are off unless the file says screen_tabs=1; an empty file
	 * is none to htop, which then shows them */
	if (text.len)
		c->screen_tabs = false;
	for (char *l = strtok_r(text.p, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char *v = strchr(l, '=');

		if (!v || *l == '#')
			continue;
		*v++ = '\0';
		take_line(&h, l, v, c);
	}
	take_sort(&h, c);
	take_header(&h, c, &mlacks);
	sbuf_printf(said, _("Settings from %s (W saves them to ptoprc)"), path);
	if (h.lacks.len)
		sbuf_printf(said, _("; no such column in ptop: %s"), h.lacks.p);
	if (mlacks.len)
		sbuf_printf(said, _("; no such meter in ptop: %s"), mlacks.p);
	if (h.nameless)
		sbuf_printf(said, _("; %u screens without a name skipped"), h.nameless);
	if (h.screens - h.nameless > h.tabs)
		sbuf_printf(said, _("; %u screens, of which ptop keeps %u"), h.screens - h.nameless,
			    h.tabs);
	sbuf_free(&h.lacks);
	sbuf_free(&mlacks);
	sbuf_free(&text);
	return 0;
}
