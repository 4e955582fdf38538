// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tui.c: the interactive viewer's loop. It waits for keys until the next
 * frame is due, so typing is never held up by more than one frame's build;
 * draws the header, the pane bar, the current pane and a status line; and
 * runs the screens every pane shares: help, column chooser, sort menu,
 * signal menu and one-line prompts. The terminal is restored on every way
 * out: quitting, SIGINT/SIGTERM/SIGHUP, a crash signal, or exit().
 */
#include <errno.h>
#include <langinfo.h>
#include <math.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wchar.h>

#include "ptop/perf.h"
#include "tui.h"

#define UI_MIN_COLS 40
#define UI_MIN_LINES 10

static const struct pane_def *const panes[PANE_COUNT] = {
    [PANE_PROCESSES] = &pane_processes,
    [PANE_COUNTERS] = &pane_counters,
    [PANE_BREAKPOINTS] = &pane_breakpoints,
    [PANE_BENCH] = &pane_bench,
};

static volatile sig_atomic_t ui_signalled;
static bool ui_curses_up;

/* ---- terminal set-up and restoration ---- */

static void restore_terminal(void)
{
	if (ui_curses_up) {
		ui_curses_up = false;
		endwin();
	}
}

static void on_quit_signal(int sig)
{
	ui_signalled = sig;
}

static void on_crash_signal(int sig)
{
	/* Give the user their terminal back, then die of the same signal. */
	restore_terminal();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void catch_signals(void)
{
	struct sigaction sa;
	static const int quit_sigs[] = {SIGINT, SIGTERM, SIGHUP};
	static const int crash_sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_quit_signal;
	for (size_t i = 0; i < sizeof(quit_sigs) / sizeof(quit_sigs[0]); i++)
		sigaction(quit_sigs[i], &sa, NULL);
	sa.sa_handler = on_crash_signal;
	sa.sa_flags = SA_RESETHAND;
	for (size_t i = 0; i < sizeof(crash_sigs) / sizeof(crash_sigs[0]); i++)
		sigaction(crash_sigs[i], &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

static void start_curses(struct ui *ui)
{
	const char *nc = getenv("NO_COLOR");

	initscr();
	ui_curses_up = true;
	atexit(restore_terminal);
	util_on_fatal(restore_terminal);
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	curs_set(0);
	mousemask(BUTTON1_CLICKED | BUTTON1_PRESSED, NULL);
	mouseinterval(0);
	set_escdelay(25);
	ui->utf8 = !strcmp(nl_langinfo(CODESET), "UTF-8");
	ui->color = ui->cfg.color && has_colors() && !(nc && *nc);
	if (ui->color) {
		start_color();
		use_default_colors();
		init_pair(COLOR_LABEL, COLOR_CYAN, -1);
		init_pair(COLOR_BAR_USER, COLOR_GREEN, -1);
		init_pair(COLOR_BAR_SYSTEM, COLOR_RED, -1);
		init_pair(COLOR_BAR_NICE, COLOR_BLUE, -1);
		init_pair(COLOR_BAR_OTHER, COLOR_YELLOW, -1);
		init_pair(COLOR_SELECTED, COLOR_BLACK, COLOR_CYAN);
		init_pair(COLOR_TABLE_HEADER, COLOR_BLACK, COLOR_GREEN);
		init_pair(COLOR_STATUS, COLOR_YELLOW, -1);
		init_pair(COLOR_PANE_ACTIVE, COLOR_BLACK, COLOR_CYAN);
		init_pair(COLOR_TREE, COLOR_CYAN, -1);
	}
}

attr_t ui_attr(const struct ui *ui, enum ui_color c, attr_t mono)
{
	return ui->color ? COLOR_PAIR(c) : mono;
}

/* ---- text ---- */

int ui_put(const struct ui *ui, int y, int x, int maxw, const char *s, size_t n)
{
	mbstate_t st;
	size_t i = 0;
	int used = 0;

	memset(&st, 0, sizeof(st));
	move(y, x);
	while (i < n && used < maxw) {
		unsigned char c = (unsigned char)s[i];
		wchar_t wc;
		size_t l;
		int w;

		if (c < 0x80) {
			addch(c >= 0x20 && c != 0x7f ? c : '?');
			used++;
			i++;
			continue;
		}
		l = ui->utf8 ? mbrtowc(&wc, s + i, n - i, &st) : (size_t)-1;
		if (l == (size_t)-1 || l == (size_t)-2 || l == 0) {
			memset(&st, 0, sizeof(st));
			addch('?');
			used++;
			i++;
			continue;
		}
		w = wcwidth(wc);
		if (w < 0) {
			addch('?');
			w = 1;
		} else if (used + w > maxw) {
			break;
		} else if (w > 0) {
			addnstr(s + i, (int)l);
		}
		used += w;
		i += l;
	}
	return used;
}

void ui_status(struct ui *ui, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ui->status, sizeof(ui->status), fmt, ap);
	va_end(ap);
	ui->status_until = clock_mono() + 4.0;
}

void ui_prompt(struct ui *ui, enum prompt_kind kind, const char *initial)
{
	ui->mode = MODE_PROMPT;
	ui->prompt = kind;
	snprintf(ui->input, sizeof(ui->input), "%s", initial);
	ui->input_len = strlen(ui->input);
	ui->prompt_label[0] = '\0';
}

unsigned ui_needs(const struct ui *ui)
{
	unsigned needs = 0;

	for (size_t c = 0; c < ui->cfg.ncolumns; c++)
		needs |= field_defs[ui->cfg.columns[c]].needs;
	return needs;
}

/* ---- frames ---- */

static bool column_shown(const struct ui *ui, enum field_id id)
{
	for (size_t c = 0; c < ui->cfg.ncolumns; c++)
		if (ui->cfg.columns[c] == id)
			return true;
	return false;
}

/* Counters for the rows on screen in the Counters pane; perf descriptors for the
 * rows on screen when the PERF column is shown; breakpoints always. */
static void observe(struct ui *ui)
{
	const struct frame_proc **vis;
	size_t first, n;

	if (!ui->ob)
		return;
	procs_visible(ui, &first, &n);
	if (ui->cfg.tree) {
		if (ui->vis_cap < n) {
			ui->vis_cap = n;
			ui->vis = xreallocarray(ui->vis, n, sizeof(*ui->vis));
		}
		for (size_t i = 0; i < n; i++)
			ui->vis[i] = ui->tree[first + i].p;
		vis = ui->vis;
	} else {
		vis = ui->rows + first; /* the rows on screen are contiguous */
	}
	if (ui->cfg.pane == PANE_COUNTERS && !ui->ob_error) {
		/* counters (and libpfm4) only once someone looks at them */
		int err = observer_counters_start(ui->ob, NULL);

		if (err)
			ui->ob_error = err == -ENOENT ? N_("unknown event")
						      : N_("perf events are not available");
	}
	observer_set(ui->ob, ui->cfg.pane == PANE_COUNTERS,
		     ui->cfg.pane == PANE_PROCESSES && column_shown(ui, FIELD_PERF));
	observer_update(ui->ob, &ui->frame, vis, n);
}

static void take_frame(struct ui *ui)
{
	struct sampler_opts so = {.root = ui->opts->root,
				  .needs = ui_needs(ui),
				  .threads = ui->cfg.threads,
				  .per_cpu = ui->cfg.per_cpu};
	double cpu = clock_cpu(), wall = clock_mono();
	int err;

	sampler_configure(ui->sampler, &so);
	if (ui->ob)
		observer_begin(ui->ob);
	err = sampler_frame(ui->sampler, &ui->frame);
	if (err) {
		ui_status(ui, _("Cannot list processes: %s"), strerror(-err));
		return;
	}
	if (ui->wall_mark > 0 && wall > ui->wall_mark)
		ui->own_cpu_pct = (cpu - ui->cpu_mark) * 100.0 / (wall - ui->wall_mark);
	ui->cpu_mark = cpu;
	ui->wall_mark = wall;
	ui->have_frame = true;
	ui->frames++;
	procs_rebuild(ui);
	observe(ui);
}

/* ---- screens ---- */

static const char *const prompt_labels[] = {
    [PROMPT_SEARCH] = N_("Search: "),
    [PROMPT_FILTER] = N_("Filter: "),
    [PROMPT_USER] = N_("Show user (empty: all): "),
    [PROMPT_RENICE] = "", /* names its target: ui->prompt_label */
    [PROMPT_DELAY] = N_("Delay in seconds: "),
    [PROMPT_WATCH] = N_("Watch ADDR[:LEN[:TYPE]] (hex or [heap]+0x40; 1/2/4/8; r w rw x): "),
    [PROMPT_PANE] = "",
};

static void draw_status(struct ui *ui)
{
	int y = LINES - 1;

	move(y, 0);
	clrtoeol();
	if (ui->mode == MODE_PROMPT) {
		attron(ui_attr(ui, COLOR_STATUS, A_BOLD));
		mvaddstr(y, 0,
			 ui->prompt == PROMPT_PANE ? ui->pane_prompt
			 : ui->prompt_label[0]	   ? ui->prompt_label
						   : _(prompt_labels[ui->prompt]));
		attroff(ui_attr(ui, COLOR_STATUS, A_BOLD));
		ui_put(ui, y, getcurx(stdscr), COLS - getcurx(stdscr) - 1, ui->input,
		       ui->input_len);
		addch('_');
		return;
	}
	if (ui->status[0] && clock_mono() < ui->status_until) {
		attron(ui_attr(ui, COLOR_STATUS, A_BOLD));
		ui_put(ui, y, 0, COLS, ui->status, strlen(ui->status));
		attroff(ui_attr(ui, COLOR_STATUS, A_BOLD));
		return;
	}
	{
		static const char *const hints[] = {
		    N_("F1Help"),  N_("F3Search"), N_("F4Filter"), N_("F5Tree"),  N_("F6SortBy"),
		    N_("F7Nice-"), N_("F8Nice+"),  N_("F9Kill"),   N_("F10Quit"),
		};
		int x = 0;

		for (size_t i = 0; i < sizeof(hints) / sizeof(hints[0]) && x < COLS; i++) {
			const char *h = _(hints[i]);
			size_t klen = h[2] >= '0' && h[2] <= '9' ? 3 : 2;

			attron(A_BOLD);
			mvaddnstr(y, x, h, (int)klen);
			attroff(A_BOLD);
			attron(ui_attr(ui, COLOR_SELECTED, A_REVERSE));
			ui_put(ui, y, x + (int)klen, COLS - x - (int)klen, h + klen,
			       strlen(h + klen));
			attroff(ui_attr(ui, COLOR_SELECTED, A_REVERSE));
			x = getcurx(stdscr) + 1;
			if (x <= 0)
				break;
		}
	}
}

static void draw_pane_bar(struct ui *ui, int y)
{
	int x = 0;

	ui->pane_bar_y = y;
	move(y, 0);
	clrtoeol();
	for (int i = 0; i < PANE_COUNT; i++) {
		char label[64];
		bool on = ui->cfg.pane == (enum ui_pane_id)i;

		if (!panes[i])
			continue;
		snprintf(label, sizeof(label), " %d %s ", i + 1, _(panes[i]->name));
		if (on)
			attron(ui_attr(ui, COLOR_PANE_ACTIVE, A_REVERSE) | A_BOLD);
		mvaddnstr(y, x, label, COLS - x);
		if (on)
			attroff(ui_attr(ui, COLOR_PANE_ACTIVE, A_REVERSE) | A_BOLD);
		x += (int)strlen(label) + 1;
		if (x >= COLS)
			break;
	}
}

static void draw_help(struct ui *ui)
{
	int y = 0, line = 0;

	erase();
	attron(A_BOLD);
	mvprintw(y++, 0, _("ptop %s - keys (Up and Down scroll, any other key closes)"),
		 PACKAGE_VERSION);
	attroff(A_BOLD);
	y++;
	for (int a = 1; a < ACT_COUNT; a++) {
		char keys[64] = "";
		size_t kl = 0;

		for (size_t k = 0; k < keymap_len; k++) {
			if (keymap[k].action != (enum ui_action)a)
				continue;
			kl += (size_t)snprintf(keys + kl, sizeof(keys) - kl, "%s%s", kl ? " " : "",
					       keymap[k].label);
			if (kl >= sizeof(keys))
				kl = sizeof(keys) - 1;
		}
		if (!kl)
			continue;
		if (line++ < ui->help_scroll)
			continue;
		if (y >= LINES - 1)
			break;
		attron(ui_attr(ui, COLOR_LABEL, A_BOLD));
		mvprintw(y, 1, "%-14s", keys);
		attroff(ui_attr(ui, COLOR_LABEL, A_BOLD));
		ui_put(ui, y, 16, COLS - 16, _(action_defs[a].help),
		       strlen(_(action_defs[a].help)));
		y++;
	}
	if (y < LINES - 1)
		mvaddstr(
		    y + 1 < LINES - 1 ? y + 1 : y, 1,
		    _("Mouse: click a row to select it, a heading to sort, a pane to switch."));
}

static void draw_columns(struct ui *ui)
{
	bool shown[FIELD_COUNT] = {false};
	int y = 2;

	erase();
	attron(A_BOLD);
	mvaddstr(0, 0, _("Columns: Space shows or hides, Left/Right move, Esc or Enter closes"));
	attroff(A_BOLD);
	for (size_t c = 0; c < ui->cfg.ncolumns; c++)
		shown[ui->cfg.columns[c]] = true;
	/* shown columns in their order, then the hidden ones */
	for (int pass = 0; pass < 2; pass++) {
		for (int i = 0; i < FIELD_COUNT; i++) {
			int id =
			    pass ? i : (i < (int)ui->cfg.ncolumns ? (int)ui->cfg.columns[i] : -1);
			int idx = y - 2;

			if (id < 0 || (pass == 1 && shown[id]))
				continue;
			if (y >= LINES - 1)
				return;
			if (idx == ui->menu_sel)
				attron(ui_attr(ui, COLOR_SELECTED, A_REVERSE));
			mvprintw(y, 1, "[%c] %-8s %s", shown[id] ? 'x' : ' ', field_defs[id].title,
				 _(field_defs[id].desc));
			if (idx == ui->menu_sel)
				attroff(ui_attr(ui, COLOR_SELECTED, A_REVERSE));
			y++;
		}
	}
}

/* Up/Down/Home/End in a list of n entries; true when key was one of them. */
static bool menu_move(struct ui *ui, int key, int n)
{
	switch (key) {
	case KEY_UP:
		if (ui->menu_sel > 0)
			ui->menu_sel--;
		return true;
	case KEY_DOWN:
		if (ui->menu_sel < n - 1)
			ui->menu_sel++;
		return true;
	case KEY_HOME:
		ui->menu_sel = 0;
		return true;
	case KEY_END:
		ui->menu_sel = n - 1;
		return true;
	}
	return false;
}

/* The field at line i of the column chooser (shown ones first). */
static enum field_id column_at(const struct ui *ui, int i)
{
	bool shown[FIELD_COUNT] = {false};

	if (i < (int)ui->cfg.ncolumns)
		return ui->cfg.columns[i];
	for (size_t c = 0; c < ui->cfg.ncolumns; c++)
		shown[ui->cfg.columns[c]] = true;
	i -= (int)ui->cfg.ncolumns;
	for (int id = 0; id < FIELD_COUNT; id++)
		if (!shown[id] && i-- == 0)
			return (enum field_id)id;
	return FIELD_COMMAND;
}

static void columns_key(struct ui *ui, int key)
{
	enum field_id id = column_at(ui, ui->menu_sel);
	size_t n = ui->cfg.ncolumns;
	int at = -1;

	for (size_t c = 0; c < n; c++)
		if (ui->cfg.columns[c] == id)
			at = (int)c;
	if (menu_move(ui, key, FIELD_COUNT))
		return;
	switch (key) {
	case ' ':
		if (id == FIELD_COMMAND)
			break; /* the name is always shown, last */
		if (at >= 0) {
			memmove(&ui->cfg.columns[at], &ui->cfg.columns[at + 1],
				(n - (size_t)at - 1) * sizeof(id));
			ui->cfg.ncolumns--;
		} else {
			ui->cfg.columns[n - 1] = id;
			ui->cfg.columns[n] = FIELD_COMMAND;
			ui->cfg.ncolumns++;
		}
		ui->next_frame = 0; /* a new column may need another file read */
		break;
	case KEY_LEFT:
	case KEY_RIGHT: {
		int to = at + (key == KEY_LEFT ? -1 : 1);

		/* COMMAND stays last; only shown columns move */
		if (at < 0 || id == FIELD_COMMAND || to < 0 || to >= (int)n - 1)
			break;
		ui->cfg.columns[at] = ui->cfg.columns[to];
		ui->cfg.columns[to] = id;
		ui->menu_sel = to;
		break;
	}
	case 27:
	case '\r':
	case '\n':
	case KEY_ENTER:
	case 'q':
	case 'f':
		ui->mode = MODE_NORMAL;
		break;
	}
	procs_rebuild(ui);
}

static void draw_menu(struct ui *ui, const char *title, const char *const *items, int n)
{
	int w = (int)strlen(title) + 3, h = n + 2, y0, x0;

	if (w < 30)
		w = 30;
	if (w > COLS)
		w = COLS;

	if (h > LINES - 2)
		h = LINES - 2;
	y0 = (LINES - h) / 2;
	x0 = (COLS - w) / 2 > 0 ? (COLS - w) / 2 : 0;
	for (int r = 0; r < h; r++)
		mvhline(y0 + r, x0, ' ', w);
	attron(A_BOLD);
	mvaddnstr(y0, x0 + 1, title, w - 2);
	attroff(A_BOLD);
	for (int i = 0, first = ui->menu_sel >= h - 2 ? ui->menu_sel - (h - 3) : 0;
	     i < h - 2 && first + i < n; i++) {
		bool on = first + i == ui->menu_sel;

		if (on)
			attron(ui_attr(ui, COLOR_SELECTED, A_REVERSE));
		mvaddnstr(y0 + 1 + i, x0 + 2, items[first + i], w - 4);
		if (on)
			attroff(ui_attr(ui, COLOR_SELECTED, A_REVERSE));
	}
}

static const struct {
	int sig;
	const char *name;
} signals[] = {
    {SIGHUP, "1 HUP"},	  {SIGINT, "2 INT"},	{SIGQUIT, "3 QUIT"},	{SIGKILL, "9 KILL"},
    {SIGUSR1, "10 USR1"}, {SIGUSR2, "12 USR2"}, {SIGTERM, "15 TERM"},	{SIGCONT, "18 CONT"},
    {SIGSTOP, "19 STOP"}, {SIGTSTP, "20 TSTP"}, {SIGWINCH, "28 WINCH"},
};
#define NSIGNALS ((int)(sizeof(signals) / sizeof(signals[0])))

/* The signal menu's entry for sig (SIGTERM when it has none). */
static int signal_index(int sig)
{
	for (int i = 0; i < NSIGNALS; i++)
		if (signals[i].sig == sig)
			return i;
	return signal_index(SIGTERM);
}

/* Fix the target on row p for the signal menu or the renice prompt; false (and
 * the reason on the status line) when there is nothing to act on. */
static bool open_target(struct ui *ui, const struct frame_proc *p)
{
	int err = action_target_open(&ui->target, ui->opts->root, p);

	if (err == -ESRCH)
		action_gone(ui, &ui->target);
	else if (err)
		ui_status(ui, _("Cannot act on %d (%s): %s"), ui->target.pid, ui->target.name,
			  strerror(-err));
	return !err;
}

void ui_signal_menu(struct ui *ui, const struct frame_proc *p)
{
	if (!p || !open_target(ui, p))
		return;
	ui->mode = MODE_SIGNAL_MENU;
	ui->menu_sel = signal_index(SIGTERM);
}

void ui_renice_prompt(struct ui *ui, const struct frame_proc *p)
{
	if (!p || !open_target(ui, p))
		return;
	ui_prompt(ui, PROMPT_RENICE, "");
	snprintf(ui->prompt_label, sizeof(ui->prompt_label), _("Renice %d (%s) to (-20..19): "),
		 ui->target.pid, ui->target.name);
}

static void signal_menu_key(struct ui *ui, int key)
{
	const struct ui_target *t = &ui->target;

	if (menu_move(ui, key, NSIGNALS))
		return;
	switch (key) {
	case '\r':
	case '\n':
	case KEY_ENTER: {
		const char *name = strchr(signals[ui->menu_sel].name, ' ') + 1;
		int err = action_signal(t, ui->opts->root, signals[ui->menu_sel].sig);

		ui->mode = MODE_NORMAL;
		if (err == -ESRCH)
			action_gone(ui, t);
		else if (err)
			ui_status(ui, _("Cannot send SIG%s to %d (%s): %s"), name, t->pid, t->name,
				  strerror(-err));
		else
			ui_status(ui, _("Sent SIG%s to %d (%s)"), name, t->pid, t->name);
		action_target_close(&ui->target);
		ui->next_frame = 0;
		return;
	}
	case 27:
	case 'q':
		ui->mode = MODE_NORMAL;
		action_target_close(&ui->target);
		ui_status(ui, _("Cancelled"));
		return;
	}
}

static void sort_menu_key(struct ui *ui, int key)
{
	if (menu_move(ui, key, (int)ui->cfg.ncolumns))
		return;
	switch (key) {
	case '\r':
	case '\n':
	case KEY_ENTER:
		ui->cfg.order = (struct row_order){.field = ui->cfg.columns[ui->menu_sel]};
		ui->mode = MODE_NORMAL;
		procs_rebuild(ui);
		return;
	case 27:
	case 'q':
		ui->mode = MODE_NORMAL;
		return;
	}
}

static void prompt_done(struct ui *ui)
{
	char *end;

	ui->mode = MODE_NORMAL;
	switch (ui->prompt) {
	case PROMPT_SEARCH:
		snprintf(ui->search_text, sizeof(ui->search_text), "%s", ui->input);
		procs_search_next(ui, true);
		break;
	case PROMPT_FILTER:
		snprintf(ui->filter_text, sizeof(ui->filter_text), "%s", ui->input);
		procs_rebuild(ui);
		break;
	case PROMPT_USER:
		if (!ui->input[0]) {
			ui->filter.by_uid = false;
		} else if (users_parse(ui->input, &ui->filter.uid)) {
			ui_status(ui, _("Unknown user: %s"), ui->input);
			break;
		} else {
			ui->filter.by_uid = true;
		}
		procs_rebuild(ui);
		break;
	case PROMPT_RENICE: {
		const struct ui_target *t = &ui->target;
		long v;
		int set, err;

		errno = 0;
		v = strtol(ui->input, &end, 10);
		if (!ui->input[0]) {
			ui_status(ui, _("Cancelled"));
		} else if (*end || errno || v < -20 || v > 19) {
			ui_status(ui, _("Not a nice value: %s"), ui->input);
		} else if ((err = action_renice(t, ui->opts->root, false, (int)v, &set)) ==
			   -ESRCH) {
			action_gone(ui, t);
		} else if (err) {
			ui_status(ui, _("Cannot renice %d (%s): %s"), t->pid, t->name,
				  strerror(-err));
		} else {
			ui_status(ui, _("Process %d (%s) reniced to %d"), t->pid, t->name, set);
			ui->next_frame = 0;
		}
		action_target_close(&ui->target);
		break;
	}
	case PROMPT_PANE:
		if (panes[ui->cfg.pane]->prompt_done)
			panes[ui->cfg.pane]->prompt_done(ui, ui->input);
		break;
	case PROMPT_WATCH: {
		struct perf_bp_spec spec;
		char arg[UI_TEXT_MAX + 16];
		int err;

		if (!ui->input[0] || !ui->ob)
			break;
		snprintf(arg, sizeof(arg), "%d:%s", ui->watch_pid, ui->input);
		if (perf_bp_parse(arg, &spec)) {
			ui_status(ui, _("Not a watch: %s (ADDR[:LEN[:TYPE]])"), ui->input);
			break;
		}
		err = observer_watch(ui->ob, &spec);
		if (err)
			ui_status(ui, _("Cannot watch %d: %s"), ui->watch_pid,
				  _(perf_bp_strerror(err)));
		else
			ui_status(ui, _("Watching %s on %d"), ui->input, ui->watch_pid);
		ui->next_frame = 0;
		break;
	}
	case PROMPT_DELAY: {
		double d;

		if (!ui->input[0])
			break;
		errno = 0;
		d = strtod(ui->input, &end);
		if (*end || errno || !isfinite(d) || d < 0 || d > 86400) {
			ui_status(ui, _("Not a delay: %s"), ui->input);
			break;
		}
		ui->cfg.delay_s = d;
		ui->next_frame = clock_mono() + d;
		ui_status(ui, _("Delay: %g s"), d);
		break;
	}
	}
}

static void prompt_key(struct ui *ui, int key)
{
	if (key == 27) { /* Esc: cancel; for the filter it also clears it */
		ui->mode = MODE_NORMAL;
		action_target_close(&ui->target);
		if (ui->prompt == PROMPT_FILTER) {
			ui->filter_text[0] = '\0';
			procs_rebuild(ui);
		}
		return;
	}
	if (key == '\r' || key == '\n' || key == KEY_ENTER) {
		prompt_done(ui);
		return;
	}
	if (key == KEY_BACKSPACE || key == 127 || key == 8) {
		/* drop a whole UTF-8 sequence */
		while (ui->input_len > 0 &&
		       ((unsigned char)ui->input[--ui->input_len] & 0xc0) == 0x80)
			;
		ui->input[ui->input_len] = '\0';
	} else if (key == 21) { /* Ctrl-U: the whole line, as a shell's */
		ui->input_len = 0;
		ui->input[0] = '\0';
	} else if (key == 23) { /* Ctrl-W: the word before the cursor and the blanks after it */
		while (ui->input_len > 0 && ui->input[ui->input_len - 1] == ' ')
			ui->input_len--;
		while (ui->input_len > 0 && ui->input[ui->input_len - 1] != ' ')
			ui->input_len--;
		ui->input[ui->input_len] = '\0';
	} else if (key >= 0x20 && key < 0x100 && key != 0x7f &&
		   ui->input_len + 1 < sizeof(ui->input)) {
		ui->input[ui->input_len++] = (char)key;
		ui->input[ui->input_len] = '\0';
	} else {
		return;
	}
	/* The filter narrows and the search jumps while typing, as in htop. */
	if (ui->prompt == PROMPT_FILTER) {
		snprintf(ui->filter_text, sizeof(ui->filter_text), "%s", ui->input);
		procs_rebuild(ui);
	} else if (ui->prompt == PROMPT_SEARCH) {
		snprintf(ui->search_text, sizeof(ui->search_text), "%s", ui->input);
		procs_search_next(ui, true);
	}
}

static void switch_pane(struct ui *ui, int to)
{
	if (to < 0 || to >= PANE_COUNT)
		return;
	if (!panes[to]) {
		ui_status(ui, _("That pane is not part of this build yet"));
		return;
	}
	ui->cfg.pane = (enum ui_pane_id)to;
}

static void cycle_pane(struct ui *ui, int dir)
{
	int p = (int)ui->cfg.pane;

	for (int k = 0; k < PANE_COUNT; k++) {
		p = (p + dir + PANE_COUNT) % PANE_COUNT;
		if (panes[p]) {
			ui->cfg.pane = (enum ui_pane_id)p;
			return;
		}
	}
}

static void write_config(struct ui *ui)
{
	char *path = config_path();
	int err;

	if (!path) {
		ui_status(ui, _("Cannot write settings: neither XDG_CONFIG_HOME nor HOME is set"));
		return;
	}
	err = config_write(path, &ui->cfg);
	if (err)
		ui_status(ui, _("Cannot write %s: %s"), path, strerror(-err));
	else
		ui_status(ui, _("Settings written to %s"), path);
	free(path);
}

static void mouse_event(struct ui *ui)
{
	MEVENT ev;

	if (getmouse(&ev) != OK || ui->mode != MODE_NORMAL)
		return;
	if (ev.y == ui->pane_bar_y) {
		int x = 0;

		for (int i = 0; i < PANE_COUNT; i++) {
			char label[64];
			int w;

			if (!panes[i])
				continue;
			w = snprintf(label, sizeof(label), " %d %s ", i + 1, _(panes[i]->name)) + 1;
			if (ev.x >= x && ev.x < x + w) {
				switch_pane(ui, i);
				return;
			}
			x += w;
		}
		return;
	}
	if (panes[ui->cfg.pane]->click)
		panes[ui->cfg.pane]->click(ui, ev.y, ev.x);
}

static void handle_key(struct ui *ui, int key)
{
	enum ui_action act;

	if (key == KEY_RESIZE)
		return; /* redrawn at the new size right after */
	if (key == KEY_MOUSE) {
		mouse_event(ui);
		return;
	}
	switch (ui->mode) {
	case MODE_PROMPT:
		prompt_key(ui, key);
		return;
	case MODE_COLUMNS:
		columns_key(ui, key);
		return;
	case MODE_SIGNAL_MENU:
		signal_menu_key(ui, key);
		return;
	case MODE_SORT_MENU:
		sort_menu_key(ui, key);
		return;
	case MODE_HELP:
		if (key == KEY_DOWN)
			ui->help_scroll++;
		else if (key == KEY_UP && ui->help_scroll > 0)
			ui->help_scroll--;
		else
			ui->mode = MODE_NORMAL;
		return;
	case MODE_NORMAL:
		break;
	}

	act = keymap_lookup(key);
	if (act == ACT_PANE_1 && ui->cfg.pane == PANE_PROCESSES) {
		ui->cfg.per_cpu = !ui->cfg.per_cpu; /* top's `1` where it means something */
		ui->next_frame = 0;
		return;
	}
	if (panes[ui->cfg.pane]->key(ui, act, key))
		return;
	switch (act) {
	case ACT_QUIT:
		ui->quit = true;
		break;
	case ACT_HELP:
		ui->mode = MODE_HELP;
		ui->help_scroll = 0;
		break;
	case ACT_PAUSE:
		ui->paused = !ui->paused;
		if (!ui->paused)
			ui->next_frame = 0;
		break;
	case ACT_DELAY: {
		char now[32];

		snprintf(now, sizeof(now), "%g", ui->cfg.delay_s);
		ui_prompt(ui, PROMPT_DELAY, now);
		break;
	}
	case ACT_WRITE_CONFIG:
		write_config(ui);
		break;
	case ACT_COLUMNS:
		ui->mode = MODE_COLUMNS;
		ui->menu_sel = 0;
		break;
	case ACT_SORT_MENU:
		ui->mode = MODE_SORT_MENU;
		ui->menu_sel = 0;
		for (size_t c = 0; c < ui->cfg.ncolumns; c++)
			if (ui->cfg.columns[c] == ui->cfg.order.field)
				ui->menu_sel = (int)c;
		break;
	case ACT_PANE_NEXT:
		cycle_pane(ui, 1);
		break;
	case ACT_PANE_PREV:
		cycle_pane(ui, -1);
		break;
	case ACT_PANE_1:
	case ACT_PANE_2:
	case ACT_PANE_3:
	case ACT_PANE_4:
		switch_pane(ui, act - ACT_PANE_1);
		break;
	case ACT_REDRAW:
		clearok(curscr, TRUE);
		break;
	case ACT_WATCH: {
		const struct frame_proc *p = procs_selected(ui);

		if (!p) {
			ui_status(ui, _("Select a process to watch first"));
			break;
		}
		ui->watch_pid = p->tgid ? p->tgid : p->pid;
		ui_prompt(ui, PROMPT_WATCH, "");
		break;
	}
	default:
		break;
	}
}

static void draw(struct ui *ui)
{
	int y;

	erase();
	if (COLS < UI_MIN_COLS || LINES < UI_MIN_LINES) {
		mvaddnstr(0, 0, _("terminal too small"), COLS);
		refresh();
		return;
	}
	if (ui->mode == MODE_HELP) {
		draw_help(ui);
		refresh();
		return;
	}
	if (ui->mode == MODE_COLUMNS) {
		draw_columns(ui);
		refresh();
		return;
	}
	if (ui->have_frame) {
		y = meters_draw(ui, LINES - 5);
		draw_pane_bar(ui, y++);
		panes[ui->cfg.pane]->draw(ui, y, LINES - 1 - y);
	}
	if (ui->mode == MODE_SIGNAL_MENU) {
		const char *items[NSIGNALS];
		char title[UI_TEXT_MAX];

		for (int i = 0; i < NSIGNALS; i++)
			items[i] = signals[i].name;
		snprintf(title, sizeof(title), _("Send signal to %d (%s):"), ui->target.pid,
			 ui->target.name);
		draw_menu(ui, title, items, NSIGNALS);
	} else if (ui->mode == MODE_SORT_MENU) {
		const char *items[UI_MAX_COLUMNS];

		for (size_t c = 0; c < ui->cfg.ncolumns; c++)
			items[c] = field_defs[ui->cfg.columns[c]].title;
		draw_menu(ui, _("Sort by:"), items, (int)ui->cfg.ncolumns);
	}
	draw_status(ui);
	refresh();
}

/*
 * Wait up to ms for a key; ERR when none came. A terminal that is gone sets
 * *gone (an errno): it hung up, or it is readable but reading gives nothing
 * (end of input, a read error). Without SIGHUP (setsid, a lost ssh) getch()
 * would return ERR at once, for ever.
 */
static int read_key(int ms, int *empty_reads, int *gone)
{
	struct pollfd pfd = {.fd = STDIN_FILENO, .events = POLLIN};
	int r = poll(&pfd, 1, ms), key;

	if (r < 0 && errno != EINTR) {
		*gone = errno;
		return ERR;
	}
	if (r > 0 && (pfd.revents & (POLLHUP | POLLERR | POLLNVAL))) {
		*gone = pfd.revents & POLLNVAL ? EBADF : EIO;
		return ERR;
	}
	timeout(0);
	key = getch();
	if (key != ERR)
		*empty_reads = 0;
	else if (r > 0 && ++*empty_reads >= 3)
		*gone = EIO;
	return key;
}

int ui_run(const struct ui_opts *o)
{
	struct ui ui = {.opts = o, .target = {.pidfd = -1}};
	struct sampler_opts so = {.root = o->root};
	struct sbuf errors = {0};
	char *path;
	int err, status = 0, tty_gone = 0, empty_reads = 0;

	config_defaults(&ui.cfg);
	path = config_path();
	err = path ? config_read(path, &ui.cfg, &errors) : 0;
	if (err && err != -ENOENT)
		sbuf_printf(&errors, _("%s: cannot be read: %s\n"), path, strerror(-err));
	free(path);
	if (o->delay_s >= 0)
		ui.cfg.delay_s = o->delay_s;
	if (o->order)
		ui.cfg.order = *o->order;
	if (o->threads)
		ui.cfg.threads = true;
	if (o->cmdline)
		ui.cfg.cmdline = true;
	ui.filter = o->filter;
	if (!panes[ui.cfg.pane])
		ui.cfg.pane = PANE_PROCESSES;

	err = sampler_new(&so, &ui.sampler);
	if (err) {
		fprintf(stderr, _("ptop: cannot read %s: %s\n"), o->root ? o->root : "/proc",
			strerror(-err));
		sbuf_free(&errors);
		return 1;
	}
	{
		struct observer_opts oo = {.root = o->root,
					   .counters = o->events != NULL,
					   .events = o->events,
					   .nevents = o->nevents,
					   .budget = o->counter_budget ? o->counter_budget : 32};
		const char *bad = NULL;

		err = observer_new(&oo, &ui.ob, &bad);
		if (err == -ENOENT) {
			fprintf(stderr, _("ptop: unknown event '%s'\n"), bad ? bad : "?");
			sampler_free(ui.sampler);
			sbuf_free(&errors);
			return 2;
		}
		if (err)
			ui.ob_error = N_("perf events are not available");
		for (size_t i = 0; ui.ob && i < o->nwatches; i++) {
			err = observer_watch(ui.ob, &o->watches[i]);
			if (err) {
				fprintf(stderr, _("ptop: cannot watch %d: %s\n"), o->watches[i].pid,
					_(perf_bp_strerror(err)));
				observer_free(ui.ob);
				sampler_free(ui.sampler);
				sbuf_free(&errors);
				return 1;
			}
		}
	}
	catch_signals();
	start_curses(&ui);
	if (errors.len) {
		/* reported once, at start; the first problem is enough to find the file */
		char *nl = memchr(errors.p, '\n', errors.len);

		ui_status(&ui, "%.*s", (int)(nl ? nl - errors.p : (long)errors.len), errors.p);
		ui.status_until += 4.0;
	}

	while (!ui.quit && !ui_signalled) {
		double now = clock_mono();
		int key, wait_ms;

		if (!ui.paused && now >= ui.next_frame) {
			if (o->iterations && ui.frames >= o->iterations)
				break;
			take_frame(&ui);
			ui.next_frame = clock_mono() + ui.cfg.delay_s;
		}
		draw(&ui);
		now = clock_mono();
		wait_ms = ui.paused ? 1000 : (int)((ui.next_frame - now) * 1000.0) + 1;
		if (wait_ms < 0)
			wait_ms = 0;
		if (wait_ms > 1000)
			wait_ms = 1000; /* wake for the status line to expire */
		for (int i = 0; i < PANE_COUNT; i++) {
			int w = panes[i] && panes[i]->poll ? panes[i]->poll(&ui) : -1;

			if (w >= 0 && w < wait_ms)
				wait_ms = w;
		}
		key = read_key(wait_ms, &empty_reads, &tty_gone);
		/* Take every key already typed before drawing again: none is lost or delayed. */
		while (key != ERR && !ui.quit) {
			handle_key(&ui, key);
			key = read_key(0, &empty_reads, &tty_gone);
		}
		if (tty_gone)
			break;
	}
	for (int i = 0; i < PANE_COUNT; i++)
		if (panes[i] && panes[i]->shutdown)
			panes[i]->shutdown(&ui);
	restore_terminal();
	util_on_fatal(NULL);
	action_target_close(&ui.target);
	sbuf_free(&errors);
	free(ui.rows);
	free(ui.tree);
	free(ui.vis);
	observer_free(ui.ob);
	sbuf_free(&ui.cell);
	frame_free(&ui.frame);
	sampler_free(ui.sampler);
	if (tty_gone) {
		fprintf(stderr, _("ptop: the terminal is gone (%s): quitting\n"),
			strerror(tty_gone));
		status = 1;
	}
	if (ui_signalled) {
		/* die of the signal, as a shell expects of a program it interrupted */
		signal(ui_signalled, SIG_DFL);
		raise(ui_signalled);
		status = 128 + ui_signalled;
	}
	return status;
}
