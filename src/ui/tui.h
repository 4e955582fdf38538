/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tui.h: the viewer's state and what its files share: the loop (tui.c),
 * where keys go (dispatch.c), the terminal (crt.c), the status line and
 * prompts (prompt.c), menus, help and the column chooser (menus.c), the
 * signal menu (signals.c), actions on a chosen process (action.c), the
 * header meters (meters.c) and the panes (procs.c with table.c, counters.c,
 * breakpoints.c, bench.c with bench_child.h). A pane is one row in
 * panes.c's ui_panes[] table: a name, a draw function for its part of the
 * screen and a key handler.
 */
#ifndef PTOP_UI_TUI_H
#define PTOP_UI_TUI_H

#include <curses.h>
#include <sched.h>
#include <stdbool.h>

#include "ptop/frame.h"
#include "ptop/pipeline.h"
#include "ptop/ui.h"

enum ui_color {
	COLOR_LABEL = 1,
	COLOR_BAR_USER,
	COLOR_BAR_SYSTEM,
	COLOR_BAR_NICE,
	COLOR_BAR_OTHER,
	COLOR_SELECTED,
	COLOR_TABLE_HEADER,
	COLOR_STATUS,
	COLOR_PANE_ACTIVE,
	COLOR_TREE,
	COLOR_TAGGED,
	COLOR_THREAD, /* a thread's row among processes, as htop colours them */
	COLOR_COUNT
};

enum ui_mode {
	MODE_NORMAL,
	MODE_HELP,
	MODE_COLUMNS,
	MODE_SORT_MENU,
	MODE_SIGNAL_MENU,
	MODE_USER_MENU,
	MODE_PROMPT,
	MODE_INSPECT, /* a panel of inspect.c over the whole screen */
};

enum prompt_kind {
	PROMPT_SEARCH,
	PROMPT_FILTER,
	PROMPT_FIELD_FILTER,	  /* o */
	PROMPT_FIELD_FILTER_CASE, /* O */
	PROMPT_RENICE,
	PROMPT_DELAY,
	PROMPT_WATCH,
	PROMPT_PANE, /* answered by the current pane's prompt_done */
	PROMPT_GOTO, /* a time in a recording (replay.c) */
};

#define UI_TEXT_MAX 128
#define UI_COLLAPSED_MAX 256

/* A process an action is aimed at, fixed when its menu or prompt opens (action.c). */
struct ui_target {
	int pid;	      /* the row's task: a process, or a thread in the threads view */
	int tgid;	      /* its process: what a signal reaches */
	uint64_t start_ticks; /* clock ticks after boot: tells a reused PID apart */
	int pidfd;	      /* of tgid; -1 when closed or the kernel has no pidfd_open */
	char name[PROC_COMM_MAX + 1]; /* comm, printable, for messages */
	bool set;
	int err; /* a tagged target: why it could not be fixed (-ESRCH gone), else 0 */
};

/* A tagged process: its PID and start time, so a reused PID is not tagged. */
struct ui_tag {
	int pid;
	uint64_t start_ticks;	      /* clock ticks after boot */
	char name[PROC_COMM_MAX + 1]; /* comm when tagged, for messages */
};

#define UI_TAGS_MAX 512

/* A user in the u menu. */
struct ui_user {
	uid_t uid;
	char name[33];
};

#define UI_USERS_MAX 64

struct ui {
	const struct ui_opts *opts;
	struct ui_config cfg;
	struct pipeline *pipe;	   /* frames, counters, breakpoints: src/frame */
	struct exporter *exporter; /* --listen: each frame's metrics served, or NULL */
	struct frame frame;
	bool have_frame;
	long frames;
	double next_frame;	    /* CLOCK_MONOTONIC seconds */
	double cpu_mark, wall_mark; /* ptop's own CPU use, measured between frames */
	double own_cpu_pct;

	/* the Processes pane's view of the frame */
	const struct frame_proc **rows;
	size_t nrows, rows_cap;
	struct tree_row *tree;
	size_t tree_cap;
	const struct frame_proc **vis; /* tree rows on screen, for the observer */
	int *view_pids;		       /* PIDs on screen, asked to be read in full */
	size_t view_cap;
	size_t vis_cap;
	size_t sel, scroll;
	int sel_pid;
	bool follow;
	int collapsed[UI_COLLAPSED_MAX];
	size_t ncollapsed;
	struct row_filter filter;
	char filter_text[UI_TEXT_MAX];
	char search_text[UI_TEXT_MAX];
	struct field_filter field_filters[UI_FIELD_FILTERS_MAX]; /* o, O */
	size_t nfield_filters;
	struct ui_user users[UI_USERS_MAX]; /* of the u menu */
	size_t nusers;
	unsigned cmd_scroll; /* columns of COMMAND scrolled off to the left */
	int menu_number;     /* digits typed in the signal menu */

	/* screen */
	bool color;
	bool utf8;
	bool paused;
	bool quit;
	enum ui_mode mode;
	int menu_sel; /* selection in a menu or list screen */
	int help_scroll;
	enum prompt_kind prompt;
	char input[UI_TEXT_MAX];
	size_t input_len;
	bool input_fresh;		/* input is the current value, shown: typing replaces it */
	char prompt_label[UI_TEXT_MAX]; /* a prompt's label naming its target */
	/* of the signal menu or the renice prompt: the tagged processes, or the selected one */
	struct ui_target targets[UI_TAGS_MAX];
	size_t ntargets;
	struct ui_tag tags[UI_TAGS_MAX];
	size_t ntags;
	char status[256];
	double status_until;
	int table_y, table_h; /* where the pane's rows are, for mouse clicks */
	int pane_bar_y;

	/* counters and breakpoints */
	const char *ob_error;	 /* why counters could not start, or NULL */
	struct sbuf cell;	 /* scratch for one table cell, kept across frames */
	size_t bp_sel;		 /* selected breakpoint in the Breakpoints pane */
	int watch_pid;		 /* the process a `w` prompt arms on */
	const char *pane_prompt; /* label of a PROMPT_PANE prompt */

	/* the frame's view: the memory columns' unit (top's e), the summary's (E),
	 * from cfg (display_apply()) */
	struct output_view view;

	/* a replay (ptop -r FILE): frames from a recording */
	bool replay;
	uint64_t replay_pos;	 /* the frame shown, counted from 0 */
	uint64_t replay_skipped; /* corrupt frames skipped so far, as told */
};

/* What a handled key asks of the loop (htop's Htop_Reaction): the loop
 * rebuilds the rows or takes a frame, so no handler does it itself. */
enum ui_reaction {
	UI_IGNORED = 0,	     /* not this handler's key: the next one may take it */
	UI_HANDLED = 1 << 0, /* taken; the screen is drawn again anyway */
	UI_REBUILD = 1 << 1, /* the rows' filter, order, tree or columns changed */
	UI_REFETCH = 1 << 2, /* what a frame reads or shows changed: take one now */
};

/* The panes and their table. */
struct pane_def {
	const char *name;	 /* translatable */
	const char *config_name; /* in ptoprc: pane = NAME */
	int hotkey;		 /* the key that shows it */
	const char *key_help;	 /* what that key does, for the help screen; translatable */
	void (*draw)(struct ui *ui, int y, int h);
	/* Handle an action: a mask of enum ui_reaction; UI_IGNORED leaves it to the loop. */
	unsigned (*key)(struct ui *ui, enum ui_action act, int key);
	unsigned (*click)(struct ui *ui, int y, int x);
	/* Called every turn of the loop, whichever pane shows: work in the
	 * background (a benchmark's pipe). Returns the longest wait in ms it can
	 * bear before the next call, or -1 for no limit. May be NULL. */
	int (*poll)(struct ui *ui);
	/* Called once before ptop exits (a running benchmark is stopped). May be NULL. */
	void (*shutdown)(struct ui *ui);
	/* A prompt this pane opened was answered. May be NULL. */
	void (*prompt_done)(struct ui *ui, const char *text);
	/* The columns F6 offers, into out (room for max); NULL: the Processes pane's. */
	size_t (*sort_columns)(struct ui *ui, enum field_id *out, size_t max);
};

/* bench_figures.c: a benchmark's figures as the Bench pane shows them */
struct bench_value;
struct bench_series;
/* A figure's label: its own, else a name for the figures perf prints bare, else its key. */
const char *bench_value_label(const struct bench_value *v);
/* v in unit, to fit a person's eye (about four significant digits; seconds below
 * one in ms or us; whole counts without decimals; "us" for perf's "usecs"). The
 * JSON lines carry no style: a whole value of what is no time nor rate is a count. */
void bench_format_value(char *out, size_t cap, double v, const char *unit, int style);
/* A sweep's bar chart titled "UNIT by AXIS", from *y; *y is left after it. */
void bench_draw_chart(struct ui *ui, const struct bench_series *s, int *y, int ymax);

extern const struct pane_def pane_processes;
extern const struct pane_def pane_counters;
extern const struct pane_def pane_breakpoints;
extern const struct pane_def pane_bench;
/* The panes (panes.c), NULL-terminated; ui->cfg.pane indexes it. */
extern const struct pane_def *const ui_panes[];
/* The pane shown. */
const struct pane_def *ui_pane(const struct ui *ui);

/* panes.c: the pane bar and switching panes */
/* Draw the pane bar on line y (and remember it, for clicks). */
void panes_draw_bar(struct ui *ui, int y);
/* Show pane to (an index in ui_panes[]); anything else is ignored. */
void panes_switch(struct ui *ui, int to);
/* Show the next pane (dir > 0) or the previous one, wrapping around. */
void panes_cycle(struct ui *ui, int dir);
/* A mouse event: the wheel, a click on the pane bar or in the pane. */
unsigned panes_mouse(struct ui *ui);

/* crt.c: the terminal */
/* Catch the quit and crash signals, start curses; the terminal is given back
 * by crt_restore(), at exit() and before a fatal message. */
void crt_start(struct ui *ui);
/* Draw in colour (when the terminal has it) or in monochrome from now on. */
void crt_set_color(struct ui *ui, bool on);
/* End curses if it is up; safe to call more than once. */
void crt_restore(void);
/* The quit signal (SIGINT, SIGTERM, SIGHUP) received, or 0. */
int crt_signalled(void);
/* Wait up to ms for a key; ERR when none came. *gone is set to an errno when
 * the terminal hung up or reads give nothing (3 times in a row in
 * *empty_reads), which getch() alone would report as "no key", for ever. */
int crt_read_key(int ms, int *empty_reads, int *gone);
attr_t ui_attr(const struct ui *ui, enum ui_color c, attr_t mono);
/* Draw n bytes at (y, x) in at most maxw columns: wide characters counted, anything
 * unprintable or not valid in the locale as '?'. Returns the columns used. */
int ui_put(const struct ui *ui, int y, int x, int maxw, const char *s, size_t n);

/* prompt.c: the status line */
void ui_status(struct ui *ui, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void ui_prompt(struct ui *ui, enum prompt_kind kind, const char *initial);
/* A key nothing took: say so, rather than ignore it (top and htop users try theirs). */
void ui_no_such_key(struct ui *ui, int key);
unsigned ui_prompt_key(struct ui *ui, int key);
/* The prompt, a message, or the function-key bar, on the last line. */
void ui_draw_status(struct ui *ui);

/* menus.c */
/* Up/Down/Home/End in a list of n entries (ui->menu_sel); true when key was one. */
bool ui_menu_move(struct ui *ui, int key, int n);
void ui_draw_menu(struct ui *ui, const char *title, const char *const *items, int n);
unsigned ui_sort_menu_key(struct ui *ui, int key);
void ui_draw_sort_menu(struct ui *ui);
void ui_draw_help(struct ui *ui);
void ui_draw_columns(struct ui *ui);
unsigned ui_columns_key(struct ui *ui, int key);

/* signals.c */
/* Open the signal menu on row p's process (fixed now: see action_choose). */
void ui_signal_menu(struct ui *ui, const struct frame_proc *p);
unsigned ui_signal_menu_key(struct ui *ui, int key);
void ui_draw_signal_menu(struct ui *ui);

/* dispatch.c: a key to whatever takes it; what the loop must do (enum ui_reaction) */
unsigned dispatch_key(struct ui *ui, int key);

/* tui.c */
/* Which /proc files the shown columns and the sort column need. */
unsigned ui_needs(const struct ui *ui);

/* filter.c */
/* Whether the command of p as shown (its command line when those are shown,
 * read now if need be) contains text, in any case. */
bool filter_text_match(struct ui *ui, const struct frame_proc *p, const char *text);
/* Keep the rows the name filter and the field filters let through, in order;
 * returns how many. */
size_t filter_rows(struct ui *ui, const struct frame_proc **rows, size_t n);
/* The field filters, for the status line, appended to b. */
void filter_draw_kept(struct ui *ui, struct sbuf *b);
/* u, o, O, K and *; UI_IGNORED for any other action. */
unsigned filter_key(struct ui *ui, enum ui_action act);
/* The o or O prompt was answered (empty: clear the field filters). */
unsigned filter_field_done(struct ui *ui);
/* Open the u menu: All users, then the users that have processes now. */
void filter_user_menu(struct ui *ui);
unsigned filter_user_menu_key(struct ui *ui, int key);
void filter_draw_user_menu(struct ui *ui);

/* tags.c */
/* Whether p is tagged (by PID and start time). */
bool tags_has(const struct ui *ui, const struct frame_proc *p);
/* Untag the process of that PID and start time, if tagged. */
void tags_drop(struct ui *ui, int pid, uint64_t start_ticks);
/* Space, c and U on the process rows; UI_IGNORED for any other action. */
unsigned tags_key(struct ui *ui, enum ui_action act);

/* action.c: acting on the processes the user chose, and no other. */
/* Fix t on row p: pidfd of its process, then its start time checked against the
 * row's. 0, or -ESRCH (gone, or its PID already reused), -EACCES, ... (-errno). */
int action_target_open(struct ui_target *t, const char *root, const struct frame_proc *p);
void action_target_close(struct ui_target *t);
/* Send sig to t's process through its pidfd. 0, -ESRCH when it is gone, or -errno. */
int action_signal(const struct ui_target *t, const char *root, int sig);
/* Set t's nice to value, or (relative) to what the kernel has now plus value,
 * clamped to -20..19; *set_to is what was set. 0, -ESRCH when gone, or -errno. */
int action_renice(const struct ui_target *t, const char *root, bool relative, int value,
		  int *set_to);
/* Set the CPU affinity of t's task to cpus, after checking its start time.
 * 0, -ESRCH when it is gone, -EPERM under a proc root other than /proc, or -errno. */
int action_affinity(const struct ui_target *t, const char *root, const cpu_set_t *cpus);
/* Fix ui->targets: every tagged process when there are tags (one that is gone
 * already is reported and untagged, never replaced), else row p. False (and
 * the reason on the status line) when there is nothing to act on. */
bool action_choose(struct ui *ui, const struct frame_proc *p);
/* Close ui->targets. */
void action_release(struct ui *ui);
/* "1234 (name)" for one target, "3 tagged processes" for more, into buf. */
void action_targets_label(const struct ui *ui, char *buf, size_t n);
/* Send sig (named name, without SIG) to ui->targets, say how it went on the
 * status line, and let the targets go. */
void action_signal_targets(struct ui *ui, int sig, const char *name);
/* Open the renice prompt on row p's process (fixed now). */
void ui_renice_prompt(struct ui *ui, const struct frame_proc *p);
/* Renice ui->targets (see action_renice), say how it went on the status line,
 * and let the targets go. Returns the reaction: a frame now when one was set. */
unsigned action_renice_target(struct ui *ui, bool relative, int value);

/* meters.c: draws the header from row 0; returns the rows used. */
int meters_draw(struct ui *ui, int max_rows);
int meters_height(const struct ui *ui, int max_rows);

/* procs.c: the Processes pane: its rows (the Counters pane shares them) and the selection */
/* Row i of the pane, in the order shown (the tree's when it shows); i < ui->nrows. */
const struct frame_proc *procs_row_at(const struct ui *ui, size_t i);
/* Filter and order the frame's rows again, keeping the selected (followed) process. */
void procs_rebuild(struct ui *ui);
const struct frame_proc *procs_selected(const struct ui *ui);
void procs_search_next(struct ui *ui, bool from_current);

/* table.c: the pane's rows drawn as a table */
/* A heading on line y (drawn by heading), then rows on the h-1 lines below it
 * (each by row), scrolled so that the selection shows. */
void table_draw(struct ui *ui, int y, int h,
		void (*row)(struct ui *ui, int y, const struct frame_proc *p, bool sel),
		void (*heading)(struct ui *ui, int y));
/* table_draw() with the shown columns of the field table that fit the screen. */
void table_draw_fields(struct ui *ui, int y, int h);
/* The field whose column (as table_draw_fields() draws it) holds screen column x, or -1. */
int table_column_at(const struct ui *ui, int x);
/* Which rows are on screen now (for the observer): first index and count. */
void table_visible(const struct ui *ui, size_t *first, size_t *n);
/* The PIDs of the rows on screen into ui->view_pids (before the next frame); how many. */
size_t table_view_pids(struct ui *ui);
/* Read what the rows in view show beyond the frame (command lines), before
 * drawing: drawing never touches /proc. */
void table_prepare(struct ui *ui);

/* picker.c: the Counters pane's event picker (E) */
bool picker_is_open(void);
/* Open it, the events counted now ticked. */
void picker_open(struct ui *ui);
/* Any key while it is open (it takes them all): typing (or /) filters the
 * list, Esc clears the filter. E, Esc (no filter), q or F10 close it and
 * count the ticked events from the next frame (UI_REFETCH). */
unsigned picker_key(struct ui *ui, enum ui_action act, int key);
/* Draw it over the pane's rows y..y+h-1. */
void picker_draw(struct ui *ui, int y, int h);
/* Close it without counting anything new (ptop quits). */
void picker_shutdown(struct ui *ui);
/* The first of ptoprc's counters that no PMU or libpfm4 knows, or NULL. */
const char *picker_unknown(const struct ui *ui);

/* inspect.c: the selected process looked at closely (htop's e, l, a; s in strace.c) */
/* e, l, s and a on the selected process; UI_IGNORED for any other action. */
unsigned inspect_action(struct ui *ui, enum ui_action act);
/* A key while a panel is open (MODE_INSPECT): scrolling, Esc and q close it. */
unsigned inspect_key(struct ui *ui, int key);
/* The open panel, over the whole screen. */
void inspect_draw(struct ui *ui);
/* Close the panel (and let its target go). */
void inspect_close(struct ui *ui);
/* Free what the panels kept, before ptop exits. */
void inspect_free(void);
/* strace.c: run strace -p on row p's task (named who) in the terminal, or say why not. */
void inspect_strace(struct ui *ui, const struct frame_proc *p, const char *who);

/* display.c: how the header and the memory columns show what they show */
/* m, E, and top's e and l; UI_IGNORED for any other action. */
unsigned display_key(struct ui *ui, enum ui_action act);
/* ui->view as the settings say (after they are read, and after each change). */
void display_apply(struct ui *ui);

/* ---- replay.c: the viewer on a recording ---- */

/* Whether the frames come from a recording. */
bool replay_on(const struct ui *ui);
/* After the pipeline is made: a replay opens on the recording's last frame. */
void replay_start(struct ui *ui);
/* Before a replay's frame is taken: the frame the user travelled to, and no timer. */
void replay_seek(struct ui *ui);
/*
 * After a replay's pipeline_frame() returned err: the frame shown is the one
 * the pipeline gave (past corrupt frames, which the status line then names).
 * True when there is no new frame to show (the status line says why).
 */
bool replay_taken(struct ui *ui, int err);
/* Time travel and the refused actions; UI_IGNORED for other keys or when live. */
unsigned replay_key(struct ui *ui, enum ui_action act, int key);
/* g answered with text: go to that time. */
unsigned replay_goto_done(struct ui *ui, const char *text);
/* The header's note: "[replay DAY, frame N/M]". */
void replay_draw_note(struct ui *ui);
/*
 * The help screen's line i of the travel keys, which go before the keys it
 * lists after them: true with *keys and *what (translated, static), false
 * past the last.
 */
bool replay_help(size_t i, const char **keys, const char **what);
/* The function bar of a replay, on line y. */
void replay_draw_hints(struct ui *ui, int y);

#endif
