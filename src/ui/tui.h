/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tui.h: the viewer's state and what its files share: the loop (tui.c),
 * the stack of modal screens (screens.c), where keys go (dispatch.c), the
 * terminal (crt.c), the status line and prompts (prompt.c), menus, help and the column chooser (menus.c), the
 * signal menu (signals.c), actions on a chosen process (action.c, top's k and
 * r in topact.c), the header meters (meters.c) and the panes (procs.c with table.c, counters.c,
 * breakpoints.c, bench.c with bench_child.h). A pane is one row in
 * panes.c's ui_panes[] table: a name, a draw function for its part of the
 * screen and a key handler.
 */
#ifndef PTOP_UI_TUI_H
#define PTOP_UI_TUI_H

#include <curses.h>
#include <sched.h>
#include <stdbool.h>

#include "ptop/control.h"
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
	COLOR_NEW,    /* highlight_changes: a process that started */
	COLOR_TOMB,   /* ... and one that ended */
	COLOR_COUNT
};

struct ui;

/*
 * A modal screen (a prompt, a menu, help, the column chooser, an inspect
 * panel, the event picker): pushed on the viewer's stack (screens.c), the one
 * on top owns every key until it is popped; nothing behind it (a pane, the
 * process table) sees a key meanwhile. htop's ScreenManager with its panels.
 */
struct ui_screen {
	/* A key, any key: a mask of enum ui_reaction (UI_HANDLED is added). */
	unsigned (*key)(struct ui *ui, int key);
	/* Draw it: over the whole screen when full, else over the pane; NULL when
	 * its owner draws it (the prompt on the status line, the picker in its pane). */
	void (*draw)(struct ui *ui);
	bool full;
	/* Popped, or ptop quits with it open: let go of what it held. May be NULL. */
	void (*closed)(struct ui *ui);
};

#define UI_SCREENS_MAX 8

/* A one-line prompt on the status line (htop's IncSet): a widget with callbacks. */
struct ui_prompt {
	const char *label; /* translatable; NULL: ui->prompt_label, written by the opener */
	/* Enter, with the text typed: a mask of enum ui_reaction. */
	unsigned (*done)(struct ui *ui, const char *text);
	/* The text changed while typing (the filter narrows, the search jumps). May be NULL. */
	unsigned (*changed)(struct ui *ui, const char *text);
	/* Esc. May be NULL. */
	unsigned (*cancel)(struct ui *ui);
	/* A key the line editor has no use for (F3 in the search bar). May be NULL. */
	unsigned (*key)(struct ui *ui, int key);
};

#define UI_TEXT_MAX 128
#define UI_COLLAPSED_MAX 256

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
	double first_uptime; /* the first frame's uptime: what started after it is new */

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
	/* the selection is a process, not a row: kept across frames (procs.c) */
	int sel_pid;
	uint64_t sel_start; /* its start time, clock ticks after boot */
	char sel_name[PROC_COMM_MAX + 1];
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
	bool no_mouse;	 /* -M: no mouse events asked for */
	bool no_unicode; /* --no-unicode: utf8 stays false */
	bool paused;
	bool quit;
	const struct ui_screen *screens[UI_SCREENS_MAX]; /* the modal screens, last on top */
	size_t nscreens;
	int menu_sel;  /* selection in a menu or list screen */
	int menu_top;  /* a list longer than the screen: its first row shown */
	int menu_page; /* lines the list shows, for PgUp/PgDn (0: a menu's own) */
	int help_scroll;
	const struct ui_prompt *prompt; /* the prompt open, or the last one */
	char input[UI_TEXT_MAX];
	size_t input_len;
	bool input_fresh;		/* input is the current value, shown: typing replaces it */
	char prompt_label[UI_TEXT_MAX]; /* a prompt's label naming its target */
	/* of the signal menu or the renice prompt: the tagged processes, or the selected one */
	struct proc_target targets[UI_TAGS_MAX];
	size_t ntargets;
	bool targets_tagged; /* they are the tagged processes (messages count them) */
	/* top's k and r: the default PID's process (the selected one when asked), and which */
	int ask_pid;
	uint64_t ask_start; /* its start time, clock ticks after boot */
	bool ask_kill;	    /* k (a signal), else r (a nice value) */
	struct ui_tag tags[UI_TAGS_MAX];
	size_t ntags;
	char status[256];
	double status_until;
	int table_y, table_h; /* where the pane's rows are, for mouse clicks */
	int pane_bar_y;

	/* counters and breakpoints */
	const char *ob_error;		 /* why counters could not start, or NULL */
	bool said_delayacct;		 /* the status line said why IOD% has no value */
	bool said_swapd;		 /* ... and why SWPD% has none */
	struct sbuf cell;		 /* scratch for one table cell, kept across frames */
	size_t bp_sel;			 /* selected breakpoint in the Breakpoints pane */
	struct proc_target watch_target; /* the process a D prompt arms on */

	/* how rows are shown, passed to field_format() beside the frame: the memory
	 * columns' unit (top's e), the summary's (E), from cfg (display_apply()) */
	struct output_view view;
	struct frame_tasks shown_tasks; /* -p's counts (view.tasks points here when narrowed) */

	/* a replay (ptop -r FILE): frames from a recording */
	bool replay;
	uint64_t replay_pos; /* the frame shown, counted from 0; or travelled to */
	bool replay_back;    /* travelled back: a corrupt frame gives the nearest before it */
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
	/* The pane's own columns this frame, into out (room for UI_MAX_COLUMNS), which the
	 * frame reads for; NULL: it shows the Processes pane's columns, or none. */
	size_t (*columns)(const struct ui *ui, enum field_id *out);
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
/* Tab (dir > 0) and Shift-Tab: the Processes pane's next (or previous)
 * screen, past its last (first) the next (previous) pane, wrapping around;
 * arriving at the Processes pane, its first (last) screen. The reaction. */
unsigned panes_cycle(struct ui *ui, int dir);
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
/* The columns ui_put() would take for n bytes of s, with room for all of them. */
int ui_cols(const struct ui *ui, const char *s, size_t n);
/* As ui_put(), but text that does not fit ends in '+' in its last column, as top marks a cut. */
int ui_put_cut(const struct ui *ui, int y, int x, int maxw, const char *s, size_t n);

/* screens.c: the stack of modal screens */
/* Open s over what shows; it takes every key from now on. Past UI_SCREENS_MAX
 * the top one is closed first. */
void screen_push(struct ui *ui, const struct ui_screen *s);
/* Close the screen on top (its closed() is called); nothing when none is open. */
void screen_pop(struct ui *ui);
/* The screen on top, or NULL. */
const struct ui_screen *screen_top(const struct ui *ui);
/* Close every screen (ptop quits). */
void screen_close_all(struct ui *ui);
/* A key for the screen on top: its reaction, or UI_IGNORED when none is open. */
unsigned screen_key(struct ui *ui, int key);
/* Draw the screens: true when a full one covers the panes (drawn, then, alone
 * with what is above it). Called with the panes drawn already when false. */
bool screen_covers(const struct ui *ui);
void screen_draw(struct ui *ui);

/* tabs.c: the Processes pane's screens as tabs */
/* Whether the tabs' line is shown: two or more screens, and screen_tabs on. */
bool tabs_shown(const struct ui *ui);
/* When tabs_shown(), the tabs on line y: 1; else nothing drawn, 0. */
int tabs_draw(struct ui *ui, int y);
/* Show screen i (< ui->cfg.ntabs): the reaction (its rows rebuilt, a frame now). */
unsigned tabs_show(struct ui *ui, unsigned i);
/* A click at column x of the tabs' line: the reaction. */
unsigned tabs_click(struct ui *ui, int x);

/* prompt.c: the status line */
void ui_status(struct ui *ui, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Open prompt p with initial text (shown selected: typing replaces it). */
void ui_prompt(struct ui *ui, const struct ui_prompt *p, const char *initial);
/* Whether a prompt is the screen on top. */
bool ui_prompt_open(const struct ui *ui);
/* A key nothing took: say so, rather than ignore it (top and htop users try theirs). */
void ui_no_such_key(struct ui *ui, int key);
/* The prompt, a message, or the function-key bar, on the last line. */
void ui_draw_status(struct ui *ui);

/* menus.c */
/*
 * Up/Down/Home/End, and PgUp/PgDn by ui->menu_page lines (the menu's 15
 * when 0), in a list of n entries (ui->menu_sel); true when key was one.
 */
bool ui_menu_move(struct ui *ui, int key, int n);
void ui_draw_menu(struct ui *ui, const char *title, const char *const *items, int n);
/* Open the sort menu (F6), help (h) or the column chooser (F2). */
void menus_open_sort(struct ui *ui);
void menus_open_help(struct ui *ui);
void menus_open_columns(struct ui *ui);

/* setup.c: F2, htop's Setup: meters, display options, colours, the column
 * chooser; ptoprc written when it closes. */
void setup_open(struct ui *ui);

/* signals.c */
/* Open the signal menu on row p's process (fixed now: see action_choose). */
void ui_signal_menu(struct ui *ui, const struct frame_proc *p);
/* The signal s names: a number (1..SIGRTMAX) or a name as the menu has it,
 * with or without SIG, in any case (TERM, sigkill, RTMIN+2); its name without
 * SIG into name (n bytes). The signal, or -1 when s is none. */
int signal_parse(const char *s, char *name, size_t n);

/* topact.c: top's k and r (the top profile's): a PID asked for, then what to do */
/* Open k's (kill) or r's prompt for a PID, the selected process's by default. */
void topact_open(struct ui *ui, bool kill);

/* dispatch.c: a key to whatever takes it; what the loop must do (enum ui_reaction) */
unsigned dispatch_key(struct ui *ui, int key);
/* W: the settings to ptoprc; the status line says where, or why not. */
void ui_write_config(struct ui *ui);

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
/* The idle filter and the field filters, for the status line, appended to b. */
void filter_draw_kept(struct ui *ui, struct sbuf *b);
/* u (and top's u, U), i, o, O, K and *; UI_IGNORED for any other action. */
unsigned filter_key(struct ui *ui, enum ui_action act);
/* Open the u menu: All users, then the users that have processes now. */
void filter_user_menu(struct ui *ui);

/* tags.c */
/* Whether p is tagged (by PID and start time). */
bool tags_has(const struct ui *ui, const struct frame_proc *p);
/* Untag the process of that PID and start time, if tagged. */
void tags_drop(struct ui *ui, int pid, uint64_t start_ticks);
/* Space, c and U on the process rows; UI_IGNORED for any other action. */
unsigned tags_key(struct ui *ui, enum ui_action act);

/* action.c: acting on the processes the user chose, and no other (through control.h). */
/* Fix t on row p (control_open). 0, or -ESRCH (gone, or its PID already
 * reused), -EACCES, ... (-errno). */
int action_target_open(struct proc_target *t, const char *root, const struct frame_proc *p);
/* Secure mode (-s): true, and the status line says no process may be acted on. */
bool action_refused(struct ui *ui);
/* Fix ui->targets: every tagged process when there are tags (one that is gone
 * already is reported and untagged, never replaced), else row p. False (and
 * the reason on the status line) when there is nothing to act on. */
bool action_choose(struct ui *ui, const struct frame_proc *p);
/* The same on row p alone, whatever is tagged (top's k and r name one PID). */
bool action_choose_one(struct ui *ui, const struct frame_proc *p);
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
/* What a meter needs read beyond the system totals (struct meter_def.needs). */
#define METER_NEEDS_SYSIO (1u << 0) /* frame.sysio */
#define METER_NEEDS_PSI (1u << 1)   /* frame.psi */
/* What the header's meters need read: METER_NEEDS_*. */
unsigned meters_needs(const struct ui *ui);
/* How many meters meters.c's table has (ids 0 to this, less one). */
unsigned meters_count(void);
int meters_draw(struct ui *ui, int max_rows);
int meters_height(const struct ui *ui, int max_rows);
/* meter_graph.c: keep what a new frame says of CPU and memory for the graphs
 * (every frame taken, shown or not). */
void graph_frame(const struct ui *ui);

/* procs.c: the Processes pane: its rows (the Counters pane shares them) and the selection */
/* Row i of the pane, in the order shown (the tree's when it shows); i < ui->nrows. */
const struct frame_proc *procs_row_at(const struct ui *ui, size_t i);
/* Filter and order the frame's rows again, keeping the selected (followed) process. */
void procs_rebuild(struct ui *ui);
const struct frame_proc *procs_selected(const struct ui *ui);
/* The user chose row i (< ui->nrows): the selection is its process from now on. */
void procs_select_row(struct ui *ui, size_t i);
void procs_search_next(struct ui *ui, bool from_current);
/* Every branch of the frame's tree collapsed (as many as UI_COLLAPSED_MAX), as
 * htop's: but the roots' and PID 1's, so their children show, closed; or,
 * collapse false, every branch expanded. The caller rebuilds the rows. */
void procs_tree_all(struct ui *ui, bool collapse);

/* table.c: the pane's rows drawn as a table */
/* What a pane shows of the rows, as htop's screens: columns of the field table. */
struct table_screen {
	const enum field_id *columns; /* in their order on screen; those that fit are drawn */
	size_t ncolumns;
	/* column id's heading on this screen, or NULL for field_title()'s (NULL: none of
	 * them); a column is as wide as its heading when that is wider than the table's */
	const char *(*title)(const struct ui *ui, enum field_id id);
};
/* The heading on line y, then the rows on the h-1 lines below it, scrolled so that
 * the selection shows: s's columns that fit the screen, each cell by field_format(). */
void table_draw(struct ui *ui, int y, int h, const struct table_screen *s);
/* table_draw() of the Processes pane: the shown columns (ui->cfg.columns). */
void table_draw_fields(struct ui *ui, int y, int h);
/* The field whose column (as table_draw() draws s) holds screen column x, or -1. */
int table_screen_column_at(const struct ui *ui, const struct table_screen *s, int x);
/* table_screen_column_at() of the Processes pane's screen. */
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
/* Open it, the events counted now ticked: a screen that takes every key while
 * open. Typing (or /) filters the list, Esc clears the filter. E, Esc (no
 * filter), q or F10 close it and count the ticked events from the next frame
 * (UI_REFETCH). */
void picker_open(struct ui *ui);
/* Draw it over the pane's rows y..y+h-1. */
void picker_draw(struct ui *ui, int y, int h);
/* Close it without counting anything new (ptop quits). */
void picker_shutdown(struct ui *ui);
/* The first of ptoprc's counters that no PMU or libpfm4 knows, or NULL. */
const char *picker_unknown(const struct ui *ui);

/* inspect.c: the selected process looked at closely (htop's e, l, a; s in strace.c) */
/* e, l, s and a on the selected process; UI_IGNORED for any other action. */
unsigned inspect_action(struct ui *ui, enum ui_action act);
/* Free what the panels kept, before ptop exits. */
void inspect_free(void);
/* strace.c: run strace -p on row p's task (named who) in the terminal, or say why not. */
void inspect_strace(struct ui *ui, const struct frame_proc *p, const char *who);

/* display.c: how the header and the memory columns show what they show */
/* m, E, and top's e, l and S; UI_IGNORED for any other action. */
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
 * the pipeline gave, the nearest that reads (the status line then says which
 * frames it skipped, and which frame is damaged). True when there is no new
 * frame to show (the status line says why).
 */
bool replay_taken(struct ui *ui, int err);
/* Time travel and the refused actions; UI_IGNORED for other keys or when live. */
unsigned replay_key(struct ui *ui, enum ui_action act, int key);
/* The header's note: "[replay DAY, frame N/M]". */
void replay_draw_note(struct ui *ui);
/* The timeline on line y, the width of the screen: the first frame's time,
 * a bar with a mark where the frame shown is between the first and the
 * last frame's times, the last frame's time. */
void replay_draw_timeline(struct ui *ui, int y);
/*
 * The help screen's line i of the travel keys, which go before the keys it
 * lists after them: true with *keys and *what (translated, static), false
 * past the last.
 */
bool replay_help(size_t i, const char **keys, const char **what);
/* The function bar of a replay, on line y. */
void replay_draw_hints(struct ui *ui, int y);

#endif
