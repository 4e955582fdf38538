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

/* ---- settings (src/ui/config.c) ---- */

#define UI_MAX_COLUMNS FIELD_COUNT

enum ui_pane_id { PANE_PROCESSES, PANE_COUNTERS, PANE_BREAKPOINTS, PANE_BENCH, PANE_COUNT };

/* The pane a ptoprc name ("counters", any case) stands for, or -1 (src/ui/tui.c,
 * from the panes' own table). */
int ui_pane_by_name(const char *name);
/* The ptoprc name of pane id. */
const char *ui_pane_name(enum ui_pane_id id);

struct ui_config {
	enum field_id columns[UI_MAX_COLUMNS]; /* shown, in order; COMMAND is always last */
	size_t ncolumns;
	struct row_order order;
	double delay_s;
	bool color; /* colour when the terminal has it */
	bool tree;
	bool threads;
	bool per_cpu; /* one CPU bar per CPU */
	bool cmdline; /* full command lines instead of names */
	enum ui_pane_id pane;
	enum frame_source source; /* where rows come from; --source overrides */
};

/* top's columns, sort by %CPU, 3 s, colour, Processes pane. */
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
	ACT_SORT_CPU,
	ACT_SORT_MEM,
	ACT_SORT_TIME,
	ACT_SORT_PID,
	ACT_SORT_PREV,
	ACT_SORT_NEXT,
	ACT_SORT_MENU,
	ACT_SORT_REVERSE,
	ACT_SEARCH,
	ACT_SEARCH_NEXT,
	ACT_FILTER,
	ACT_USER,
	ACT_FOLLOW,
	ACT_KILL,
	ACT_RENICE,
	ACT_NICE_DOWN, /* F7: raise priority (nice - 1) */
	ACT_NICE_UP,   /* F8: lower priority (nice + 1) */
	ACT_PAUSE,
	ACT_DELAY,
	ACT_WRITE_CONFIG,
	ACT_COLUMNS,
	ACT_CMDLINE,
	ACT_THREADS,
	ACT_TREE,
	ACT_COLLAPSE,
	ACT_EXPAND,
	ACT_PANE_NEXT,
	ACT_PANE_PREV,
	ACT_REDRAW,
	ACT_WATCH,  /* arm a breakpoint on the selected process */
	ACT_DISARM, /* disarm the selected breakpoint */
	ACT_COUNT
};

struct key_binding {
	int key; /* a character or a curses KEY_* code */
	enum ui_action action;
	const char *label; /* how help shows the key: "P", "F6", "Up" */
};

struct action_def {
	const char *help; /* one line, translatable */
};

extern const struct key_binding keymap[];
extern const size_t keymap_len;
extern const struct action_def action_defs[ACT_COUNT];

/* The action bound to key, or ACT_NONE. */
enum ui_action keymap_lookup(int key);

/* ---- the viewer (src/ui/tui.c) ---- */

struct ui_opts {
	const char *root;	       /* proc root, NULL for /proc */
	double delay_s;		       /* < 0: from the settings file */
	struct row_filter filter;      /* from -p / -u */
	const struct row_order *order; /* from -s, or NULL */
	long iterations;	       /* stop after N frames (-n), 0: never */
	const char *const *events;     /* --counters=EVENTS for the Counters pane, or NULL */
	int nevents;
	unsigned counter_budget;
	const struct perf_bp_spec *watches; /* --watch, armed at start */
	size_t nwatches;
	bool threads;		  /* -H: start with a row per thread (else the settings say) */
	bool cmdline;		  /* -c: start with command lines (else the settings say) */
	enum frame_source source; /* --source, when source_given (else the settings say) */
	bool source_given;
};

/* Run the viewer until the user quits. Returns the exit status. */
int ui_run(const struct ui_opts *o);

#endif
