/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ui.h: the interactive viewer. ui_run() owns the terminal; the rest of this
 * header is the curses-free parts the viewer is built from, kept apart so
 * they can be tested without a terminal: the key map, the settings file
 * (ptoprc) and the process tree.
 */
#ifndef PTOP_UI_H
#define PTOP_UI_H

#include <stdbool.h>
#include <stddef.h>

#include "ptop/output.h"
#include "ptop/perf.h"
#include "ptop/source.h"

/* ---- settings (src/ui/config.c) ---- */

#define UI_MAX_COLUMNS FIELD_COUNT
#define UI_METERS_MAX 32
#define UI_HIGHLIGHT_DELAY 5 /* seconds, htop's default highlight_delay_secs */
#define UI_HIGHLIGHT_DELAY_MAX 86400

/* The viewer's panes are a table (src/ui/tui.c); a pane is its index there,
 * 0 being Processes. The index a ptoprc name ("counters", any case) stands
 * for, or -1. */
int ui_pane_by_name(const char *name);
/* The ptoprc name of pane i (of Processes when i is past the table). */
const char *ui_pane_name(unsigned i);
/* How many panes the table has. */
unsigned ui_pane_count(void);

/* Where htop and top give a key different meanings, whose ptop follows. */
enum key_profile {
	KEYS_HTOP, /* the default */
	KEYS_TOP,
	KEYS_PROFILE_COUNT
};

/* The ptoprc name of profile p ("htop", "top"). */
const char *keymap_profile_name(enum key_profile p);
/* The profile a ptoprc name stands for (any case), or -1. */
int keymap_profile_by_name(const char *name);

/* How a meter shows its figures: htop's column_meter_modes numbers, less one
 * (1 bar, 2 text, 3 graph, 4 LED). */
enum meter_mode { METER_BAR, METER_TEXT, METER_GRAPH, METER_LED, METER_MODE_COUNT };

/* One meter of the header: which, in which column, drawn how. */
struct ui_meter {
	unsigned char id;     /* index in meters.c's table (meter_by_name) */
	unsigned char column; /* 0 left (or the whole width when no meter is right), 1 right */
	unsigned char mode;   /* enum meter_mode, one the meter has (meter_has_mode) */
};

/* The meter ptoprc's meters line calls name, or -1; a meter's name. */
int meter_by_name(const char *name);
const char *meter_name(unsigned id);
/* The ptoprc name of mode m ("bar", "text", "graph", "led"); the mode a name
 * stands for, or -1. */
const char *meter_mode_name(enum meter_mode m);
int meter_mode_by_name(const char *name);
/* Meter id can be drawn as m; the mode it is drawn as unless told. */
bool meter_has_mode(unsigned id, enum meter_mode m);
enum meter_mode meter_default_mode(unsigned id);
/* The default header into m (room for UI_METERS_MAX); how many meters. htop's
 * two columns (CPUs, memory, swap; tasks, load, uptime; with more than 4 of
 * the machine's ncpus CPUs, the first half heading the left column and the
 * second the right, as htop), or for top's key profile top's lines and
 * ptop's own below them, in one column. */
unsigned meters_default(struct ui_meter *m, enum key_profile keys, unsigned ncpus);

/* The colours (Setup's Colors, ptoprc's color_scheme): htop's default, none
 * (color = no, -C, NO_COLOR), or dark ones for a light terminal (htop's Black
 * on White). */
enum ui_scheme { UI_SCHEME_DEFAULT, UI_SCHEME_MONOCHROME, UI_SCHEME_LIGHT, UI_SCHEMES };

/* How the header shows memory and swap (m). */
enum mem_display {
	MEM_BARS,   /* htop's Mem and Swp bars, the default */
	MEM_TEXT,   /* top's two lines, as ptop -b prints them */
	MEM_HIDDEN, /* neither */
	MEM_DISPLAY_COUNT
};

/* The ptoprc name of d ("bars", "text", "hidden"). */
const char *config_mem_display_name(enum mem_display d);

/*
 * One of the Processes pane's screens (htop's ScreenSettings), shown as a tab
 * when there are several: its name, its columns, its sort and its tree view.
 * Called a tab in the code, apart from the modal screens of the viewer's stack.
 */
#define UI_TABS_MAX 16
#define UI_TAB_NAME_MAX 20 /* bytes, as htop's SCREEN_NAME_LEN */
struct ui_tab {
	char name[UI_TAB_NAME_MAX + 1]; /* not empty; no '|' or control character */
	enum field_id columns[UI_MAX_COLUMNS];
	size_t ncolumns;
	struct row_order order;	     /* its cumulative is not the tab's: ui_config's stays */
	struct row_order tree_order; /* its tree view's, as htop's .tree_sort_key */
	bool tree;
	bool collapsed; /* htop's .all_branches_collapsed: every branch collapsed at start */
};

struct ui_config {
	/* the shown tab's columns, order, tree and collapsed, worked on in place
	 * (tabs[tab]'s own copies are brought up to date by config_tab_save());
	 * order is the view's shown, the tree's in the tree view (as htop's two
	 * sorts a screen), other_order the other view's: config_tree_set() swaps
	 * them */
	enum field_id columns[UI_MAX_COLUMNS]; /* shown, in order; COMMAND is always last */
	size_t ncolumns;
	struct row_order order;
	struct row_order other_order;
	bool tree;
	bool collapsed;
	/* the Processes pane's screens, at least one, and the one shown */
	struct ui_tab tabs[UI_TABS_MAX];
	unsigned ntabs, tab;
	bool screen_tabs; /* htop's screen_tabs: the tabs' line shown (with two or more) */
	double delay_s;
	bool color;		    /* colour when the terminal has it */
	enum ui_scheme scheme;	    /* which colours, when color (never UI_SCHEME_MONOCHROME) */
	bool threads;		    /* top's H: a row per thread instead of per process */
	bool user_threads;	    /* htop's H: each process's other threads as rows after it */
	bool hide_kthreads;	    /* K: kernel threads left out */
	bool per_cpu;		    /* one CPU bar per CPU */
	bool cmdline;		    /* full command lines instead of names */
	unsigned pane;		    /* index in the pane table */
	enum key_profile keys;	    /* whose meaning a key has where htop and top differ */
	enum frame_source source;   /* where rows come from; --source overrides */
	enum mem_display memory;    /* m */
	enum mem_unit summary_unit; /* E: the memory lines' unit; -E overrides */
	enum mem_unit task_unit;    /* e: the memory columns' first unit; -e overrides */
	bool load_line;		    /* l: the uptime and load line shown */
	/* the Counters pane's events (ptoprc counters =, the E picker); --counters
	 * overrides; none: the defaults */
	char counters[PERF_GROUP_MAX][PERF_NAME_MAX];
	int ncounters;
	/* the header's meters, each column top to bottom (ptoprc meters =) */
	struct ui_meter meters[UI_METERS_MAX];
	unsigned nmeters;
	bool meters_chosen; /* by ptoprc or htoprc: not the key profile's default */
	/* htop's highlight_changes: processes that started (since the first frame)
	 * or ended within highlight_delay seconds, coloured */
	bool highlight_changes;
	unsigned highlight_delay;
};

/* top's columns, sort by %CPU, 3 s, colour, Processes pane, memory bars, top's units
 * (MiB lines, KiB columns), the load line shown, one screen (Main), its tabs' line
 * shown when there are more. */
void config_defaults(struct ui_config *c);

/*
 * The settings file: $XDG_CONFIG_HOME/ptop/ptoprc, or ~/.config/ptop/ptoprc.
 * Returns a malloc'd path, or NULL when neither variable gives a home.
 */
char *config_path(void);

/* A larger ptoprc is refused unread (bytes). */
#define CONFIG_MAX_SIZE (1 << 20)
/* Bad lines described one by one; past these, only counted. */
#define CONFIG_MAX_REPORTED 5

/*
 * Read settings from path over *c. path (or what a link leads to) must be a
 * regular file of at most CONFIG_MAX_SIZE bytes; it is looked at before it is
 * opened and opened O_NONBLOCK, so a FIFO or a device never blocks. A line
 * that is not "key = value" with a known key and a valid value is skipped,
 * never fatal: the first CONFIG_MAX_REPORTED are described in *errors, one
 * line each ("ptoprc:LINE: why"), then one "ptoprc: and N more" line.
 * Returns 0; -ENOENT when there is no file (c untouched, nothing said); or,
 * with c untouched and a line "PATH: why" in *errors, -EISDIR for a directory,
 * -EINVAL for another file that is not regular, -EFBIG when too large; or
 * -errno when it cannot be read.
 */
int config_read(const char *path, struct ui_config *c, struct sbuf *errors);

/*
 * Write *c to path, creating its directories: into a new file beside it
 * (O_CREAT|O_EXCL|O_NOFOLLOW, so a planted link is never followed), written
 * whole and fsync'd, then renamed over path, and the directory fsync'd. An
 * existing file's permission bits (0777) are kept; a new file gets 0644 less
 * the umask. When path is a symbolic link, its target is written instead
 * (the new file goes beside the target, the link stays), but only when the
 * link and its target both belong to the effective user and the target is a
 * regular file; else nothing is written. Returns 0 or -errno: -EPERM for a
 * link or target of another user; -ENOENT, -ELOOP or -EISDIR for a link to
 * no regular file; -EISDIR when path is a directory, -EINVAL when it is
 * another file that is not regular. The new file is removed on every
 * failure. On failure, one translated line saying why, naming path, without
 * '\n', is appended to *why (which may be NULL).
 */
int config_write_why(const char *path, const struct ui_config *c, struct sbuf *why);

/* config_write_why() without the reason. */
int config_write(const char *path, const struct ui_config *c);

/* ---- the counters setting (src/ui/ctrconfig.c) ---- */

/*
 * Set c's counters from a ptoprc value: event names separated by commas
 * ("context-switches,page-faults"), at most PERF_GROUP_MAX, none twice, each
 * of letters, digits and _ - . : = / + (libpfm4's PMU::EVENT:UMASK=VALUE);
 * empty: the defaults. Whether the names are known is found when counting
 * starts. Returns NULL, or why not (translatable, N_()) with c untouched.
 */
const char *config_parse_counters(const char *val, struct ui_config *c);
/* The "counters = ..." line for c into b ("counters = " for the defaults). */
void config_write_counters(struct sbuf *b, const struct ui_config *c);
/* c's counters as the array of names observer_opts takes (pointing into c);
 * *n how many (0: NULL, the defaults). */
const char *const *config_counters(const struct ui_config *c, const char **names, int *n);

/* ---- the Processes pane's screens (src/ui/tabconfig.c) ---- */

/* tabs[tab] takes the shown tab's columns, order, tree and collapsed (kept in place in c). */
void config_tab_save(struct ui_config *c);
/* Show tab i (< ntabs): its columns, order, tree and collapsed in place of c's, which are
 * dropped (config_tab_show() keeps them); c's order.cumulative stays. */
void config_tab_open(struct ui_config *c, unsigned i);
/* The tree view on or off, its order and the list's swapped when it changes. */
void config_tree_set(struct ui_config *c, bool on);
/* config_tab_save(), then config_tab_open(c, i). */
void config_tab_show(struct ui_config *c, unsigned i);
/* NULL when name may name a tab (1 to UI_TAB_NAME_MAX bytes, no '|' nor
 * control character), else why not (translatable, N_()). */
const char *config_tab_name_check(const char *name);
/* A new tab at index at (<= ntabs) named "New", as htop makes one: PID and
 * COMMAND, by PID; the shown tab stays shown. 0, or -ENOSPC at UI_TABS_MAX. */
int config_tab_add(struct ui_config *c, unsigned at);
/* Remove tab i; the shown one stays shown, or its neighbour is when it was i.
 * 0, or -EINVAL for the last tab or an i past them. */
int config_tab_remove(struct ui_config *c, unsigned i);
/* Swap tab i with its neighbour before (dir < 0) or after it; the shown tab
 * stays shown where it went. 0, or -EINVAL when there is no such neighbour. */
int config_tab_move(struct ui_config *c, unsigned i, int dir);
/*
 * ptoprc's "screen = NAME | COLUMNS | SORT [reverse] [tree] [collapsed]
 * [| TREESORT [reverse]]" into c (the tree's sort, when not the list's): the
 * first line a file gives (*taken 0) replaces the tabs c had; *taken counts
 * the lines taken. NULL when taken, else why not (translatable, N_(); c
 * untouched); past UI_TABS_MAX, the first line past says so and the others
 * are skipped without a word.
 */
const char *config_parse_tab(struct ui_config *c, char *val, unsigned *taken);
/* The screen_tabs line and the screen lines for c into b, the shown tab's
 * from c's columns, order, tree and collapsed. */
void config_write_tabs(struct sbuf *b, const struct ui_config *c);

/* ---- the display settings (src/ui/dispconfig.c) ---- */

/*
 * ptoprc's memory (bars, text, hidden), summary_unit and task_unit (KiB ...
 * EiB, or a letter, any case): true when key is one of them, and then *why
 * is NULL (c set) or why val is not a value (translatable, N_(); c untouched).
 */
bool config_parse_display(struct ui_config *c, const char *key, const char *val, const char **why);
/* Their lines for c into b. */
void config_write_display(struct sbuf *b, const struct ui_config *c);

/* ---- process tree (src/ui/tree.c) ---- */

struct tree_row {
	const struct frame_proc *p;
	unsigned depth;
	bool last; /* the last child of its parent: draws "`-" rather than "|-" */
	bool has_children;
	bool collapsed;
	unsigned long branches; /* bit d set: an ancestor at depth d has later siblings */
};

/*
 * Order rows as a forest: each process under its parent, siblings sorted by
 * ord, roots those whose parent is not among rows. Children of a PID in
 * collapsed[] are left out. out needs room for n. Returns the rows written.
 */
size_t tree_build(const struct frame_proc *const *rows, size_t n, const struct row_order *ord,
		  const int *collapsed, size_t ncollapsed, struct tree_row *out);

/* ---- row filters (src/ui/fieldfilter.c) ---- */

/* top's other filters (o, O): [!]FIELD=VALUE, [!]FIELD<VALUE, [!]FIELD>VALUE. */
struct field_filter {
	enum field_id field;
	char op;       /* '=' (the value shown contains text), '<' or '>' */
	bool negate;   /* '!': keep the rows that do not match */
	bool icase;    /* o: any case; O: exact case */
	double num;    /* what '<' and '>' compare a number field with */
	char text[64]; /* the value as typed */
};

#define UI_FIELD_FILTERS_MAX 8

/*
 * Parse s (NUL-terminated) into *ff; FIELD is a column heading or a field
 * name, in any case. Returns 0; -EINVAL without an operator or a field, or
 * when '<' or '>' on a number field has no number; -ENOENT for an unknown
 * field; -ERANGE when the value does not fit ff->text.
 */
int field_filter_parse(const char *s, bool icase, struct field_filter *ff);
/* Whether row p of frame f, as view v shows it (NULL: the defaults), passes ff;
 * scratch is any buffer, reused. */
bool field_filter_match(const struct field_filter *ff, const struct frame_proc *p,
			const struct frame *f, const struct output_view *v, struct sbuf *scratch);

/* ---- key map (src/ui/keymap.c) ---- */

/* Keys curses passes through as bytes. */
#define KEY_CTRL(c) ((c)&0x1f)
#define KEY_ESC 27
#define KEY_DEL 127

enum ui_action {
	ACT_NONE,
	ACT_QUIT,
	ACT_HELP,
	ACT_UP,
	ACT_DOWN,
	ACT_PAGE_UP,
	ACT_PAGE_DOWN,
	ACT_HOME,
	ACT_END,
	ACT_SCROLL_LEFT, /* long command lines */
	ACT_SCROLL_RIGHT,
	ACT_SORT_CPU,
	ACT_SORT_MEM,
	ACT_SORT_TIME,
	ACT_SORT_PID,
	ACT_SORT_PID_TOP, /* top's N: PID, in the direction the order has (highest first at start) */
	ACT_SORT_PREV,
	ACT_SORT_NEXT,
	ACT_SORT_MENU,
	ACT_SORT_REVERSE,
	ACT_SEARCH,
	ACT_SEARCH_NEXT,
	ACT_FILTER,
	ACT_USER,
	ACT_USER_PROMPT,       /* top's u: a user by name or uid, its effective uid */
	ACT_USER_ANY_PROMPT,   /* top's U: real, effective, saved or file system uid */
	ACT_IDLE,	       /* top's i: the processes idle in the interval hidden or shown */
	ACT_CUMULATIVE,	       /* top's S: TIME+ with the dead children's time, or without */
	ACT_FIELD_FILTER,      /* top's o: FIELD=VALUE, any case */
	ACT_FIELD_FILTER_CASE, /* top's O: exact case */
	ACT_FOLLOW,
	ACT_KILL,
	ACT_RENICE,
	ACT_KILL_PID,	/* top's k: a PID asked for (the selected one by default), then a signal */
	ACT_RENICE_PID, /* top's r: a PID asked for, then a nice value */
	ACT_NICE_DOWN,	/* F7: raise priority (nice - 1) */
	ACT_NICE_UP,	/* F8: lower priority (nice + 1) */
	ACT_PAUSE,
	ACT_REFRESH, /* take a frame now (top's Space and Enter) */
	ACT_TAG,     /* tag the selected process and move down */
	ACT_TAG_CHILDREN,
	ACT_UNTAG_ALL,
	ACT_DELAY,
	ACT_WRITE_CONFIG,
	ACT_COLUMNS,
	ACT_SETUP, /* F2: meters, display options, colours, columns */
	ACT_CMDLINE,
	ACT_THREADS,	  /* top's H: a row per thread instead of per process */
	ACT_USER_THREADS, /* htop's H: user processes' threads shown or hidden */
	ACT_TREE,
	ACT_TREE_ALL,	   /* htop's *: expand or collapse every branch */
	ACT_HIDE_KTHREADS, /* htop's K */
	ACT_COLLAPSE,
	ACT_EXPAND,
	ACT_PANE_NEXT,
	ACT_PANE_PREV,
	ACT_REDRAW,
	ACT_COLOR,	    /* top's z */
	ACT_WATCH,	    /* arm a breakpoint on the selected process */
	ACT_DISARM,	    /* disarm the selected breakpoint */
	ACT_ENVIRON,	    /* htop's e: the selected process's environment */
	ACT_FILES,	    /* htop's l: its open files */
	ACT_STRACE,	    /* htop's s: strace it */
	ACT_AFFINITY,	    /* htop's a: its CPU affinity, shown and set */
	ACT_CGROUP_PSI,	    /* its cgroup's pressure (atop's per cgroup; htop has none) */
	ACT_MEMORY_DISPLAY, /* top's m: the memory meters as bars, text, or hidden */
	ACT_TASK_UNITS,	    /* top's e: the memory columns' unit */
	ACT_SUMMARY_UNITS,  /* top's E: the memory lines' unit; the event picker on Counters */
	ACT_LOAD_LINE,	    /* top's l: the uptime and load line shown or hidden */
	ACT_COUNT
};

/* Which profiles a binding is in: a key htop and top agree on is in both. */
#define KEYMAP_HTOP (1u << KEYS_HTOP)
#define KEYMAP_TOP (1u << KEYS_TOP)
#define KEYMAP_BOTH (KEYMAP_HTOP | KEYMAP_TOP)

struct key_binding {
	int key; /* a character or a curses KEY_* code */
	enum ui_action action;
	const char *label; /* how help shows the key: "P", "F6", "Up" */
	unsigned profiles; /* KEYMAP_HTOP, KEYMAP_TOP or KEYMAP_BOTH */
};

struct action_def {
	const char *help; /* one line, translatable */
};

extern const struct key_binding keymap[];
extern const size_t keymap_len;
extern const struct action_def action_defs[ACT_COUNT];

/* The action bound to key in profile prof, or ACT_NONE. */
enum ui_action keymap_lookup(int key, enum key_profile prof);

/* ---- the viewer (src/ui/tui.c) ---- */

struct ui_opts {
	const char *root;	       /* proc root, NULL for /proc */
	double delay_s;		       /* < 0: from the settings file */
	struct row_filter filter;      /* from -p / -u */
	const struct row_order *order; /* from -s, or NULL */
	long iterations;	       /* stop after N frames (-n), 0: never */
	bool counters;		       /* --counters: its events (or the defaults) over ptoprc's */
	const char *const *events;     /* --counters=EVENTS for the Counters pane, or NULL */
	int nevents;
	unsigned counter_budget;
	const struct perf_bp_spec *watches; /* --watch, armed at start */
	size_t nwatches;
	bool threads;	 /* -H: start with a row per thread (else the settings say) */
	bool cmdline;	 /* -c: start with command lines (else the settings say) */
	bool cumulative; /* -S: start with TIME+ including the dead children's time */
	bool secure;	 /* -s: top's secure mode: no signal, renice or delay change */
	const struct serve_addr *listen;    /* --listen --viewer: serve metrics too, or NULL */
	const struct metrics_opts *metrics; /* with listen */
	const char *replay;		    /* -r: a recording's frames instead of /proc */
	enum frame_source source; /* --source, when source_given (else the settings say) */
	bool source_given;
	int summary_unit, task_unit; /* -E, -e (enum mem_unit); < 0: the settings say */
	int keys;		     /* --keys (enum key_profile); < 0: the settings say */
	bool tree;		     /* -t/--tree: start in the tree view (else the settings say) */
	bool no_color;		     /* -C/--no-color: monochrome, as NO_COLOR */
	bool no_mouse;		     /* -M/--no-mouse */
	bool no_unicode;	     /* --no-unicode: ASCII only, whatever the locale */
	const char *filter_text;     /* -F/--filter: the F4 filter to start with, or NULL */
	int highlight_delay; /* --highlight-changes[=DELAY]: seconds; < 0: the settings say */
};

/* Run the viewer until the user quits. Returns the exit status. */
int ui_run(const struct ui_opts *o);

#endif
