// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * crt.c: the terminal (htop's CRT.c): curses set up and given back on every
 * way out (quitting, SIGINT/SIGTERM/SIGHUP, a crash signal, exit(), a fatal
 * error), colours, drawing text safely, and reading keys from a terminal
 * that may be gone. Only this file starts and ends curses.
 */
#include <errno.h>
#include <langinfo.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wchar.h>

#include "tui.h"

static volatile sig_atomic_t crt_sig;
static bool crt_up;

void crt_restore(void)
{
	if (crt_up) {
		crt_up = false;
		endwin();
	}
	util_on_fatal(NULL);
}

static void on_quit_signal(int sig)
{
	crt_sig = sig;
}

static void on_crash_signal(int sig)
{
	/* Give the user their terminal back, then die of the same signal. */
	crt_restore();
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
	crt_up = true;
	atexit(crt_restore);
	util_on_fatal(crt_restore);
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	curs_set(0);
	if (!ui->no_mouse) {
		mousemask(BUTTON1_CLICKED | BUTTON1_PRESSED | BUTTON4_PRESSED | BUTTON5_PRESSED,
			  NULL);
		mouseinterval(0);
	}
	set_escdelay(25);
	/*
	 * No look for typed keys during a refresh: ncurses would flush and poll
	 * between lines (some 40 writes a frame instead of one). Keys typed
	 * meanwhile are all taken before the next draw (ui_loop).
	 */
	typeahead(-1);
	ui->utf8 = !ui->no_unicode && !strcmp(nl_langinfo(CODESET), "UTF-8");
	ui->view.utf8 = ui->utf8;
	crt_set_color(ui, ui->cfg.color && !(nc && *nc));
}

void crt_set_color(struct ui *ui, bool on)
{
	static bool started;

	/* each scheme's pairs, foreground and background (-1: the terminal's) */
	static const short schemes[][COLOR_COUNT][2] =
	    {
		[UI_SCHEME_DEFAULT] =
		    {
			[COLOR_LABEL] = {COLOR_CYAN, -1},
			[COLOR_BAR_USER] = {COLOR_GREEN, -1},
			[COLOR_BAR_SYSTEM] = {COLOR_RED, -1},
			[COLOR_BAR_NICE] = {COLOR_BLUE, -1},
			[COLOR_BAR_OTHER] = {COLOR_YELLOW, -1},
			[COLOR_SELECTED] = {COLOR_BLACK, COLOR_CYAN},
			[COLOR_TABLE_HEADER] = {COLOR_BLACK, COLOR_GREEN},
			[COLOR_STATUS] = {COLOR_YELLOW, -1},
			[COLOR_PANE_ACTIVE] = {COLOR_BLACK, COLOR_CYAN},
			[COLOR_TREE] = {COLOR_CYAN, -1},
			[COLOR_TAGGED] = {COLOR_YELLOW, -1},
			[COLOR_THREAD] = {COLOR_GREEN, -1},
			/* htop's ProcessNew, ProcessTomb */
			[COLOR_NEW] = {COLOR_BLACK, COLOR_GREEN},
			[COLOR_TOMB] = {COLOR_BLACK, COLOR_RED},
		    },
		/* htop's Black on White: no yellow or cyan text, which a light
	     * background washes out */
		[UI_SCHEME_LIGHT] =
		    {
			[COLOR_LABEL] = {COLOR_BLUE, -1},
			[COLOR_BAR_USER] = {COLOR_GREEN, -1},
			[COLOR_BAR_SYSTEM] = {COLOR_RED, -1},
			[COLOR_BAR_NICE] = {COLOR_BLUE, -1},
			[COLOR_BAR_OTHER] = {COLOR_MAGENTA, -1},
			[COLOR_SELECTED] = {COLOR_WHITE, COLOR_BLUE},
			[COLOR_TABLE_HEADER] = {COLOR_WHITE, COLOR_BLACK},
			[COLOR_STATUS] = {COLOR_MAGENTA, -1},
			[COLOR_PANE_ACTIVE] = {COLOR_WHITE, COLOR_BLUE},
			[COLOR_TREE] = {COLOR_BLUE, -1},
			[COLOR_TAGGED] = {COLOR_MAGENTA, -1},
			[COLOR_THREAD] = {COLOR_GREEN, -1},
			[COLOR_NEW] = {COLOR_WHITE, COLOR_GREEN},
			[COLOR_TOMB] = {COLOR_WHITE, COLOR_RED},
		    },
	    };
	unsigned s = ui->cfg.scheme == UI_SCHEME_LIGHT ? UI_SCHEME_LIGHT : UI_SCHEME_DEFAULT;

	ui->color = on && has_colors();
	if (!ui->color)
		return;
	if (!started) {
		started = true;
		start_color();
		use_default_colors();
	}
	for (int c = COLOR_LABEL; c < COLOR_COUNT; c++)
		init_pair((short)c, schemes[s][c][0], schemes[s][c][1]);
}

void crt_start(struct ui *ui)
{
	catch_signals();
	start_curses(ui);
}

int crt_signalled(void)
{
	return crt_sig;
}

/* Without colours, what tells the parts apart where the callers' reverse video
 * would make them alike: the headings are not the selection. */
static const attr_t mono_attrs[COLOR_COUNT] = {
    [COLOR_TABLE_HEADER] = A_BOLD | A_UNDERLINE,
};

attr_t ui_attr(const struct ui *ui, enum ui_color c, attr_t mono)
{
	if (ui->color)
		return COLOR_PAIR(c);
	return mono_attrs[c] ? mono_attrs[c] : mono;
}

/* ui_put()'s work; *done: the bytes of s drawn (n when all of it fit). y < 0: none
 * drawn, the columns only measured. */
static int put(const struct ui *ui, int y, int x, int maxw, const char *s, size_t n, size_t *done)
{
	mbstate_t st;
	size_t i = 0;
	int used = 0;
	bool draw = y >= 0;

	memset(&st, 0, sizeof(st));
	if (draw)
		move(y, x);
	while (i < n && used < maxw) {
		unsigned char c = (unsigned char)s[i];
		wchar_t wc;
		size_t l;
		int w;

		if (c < 0x80) {
			if (draw)
				addch(c >= 0x20 && c != 0x7f ? c : '?');
			used++;
			i++;
			continue;
		}
		l = ui->utf8 ? mbrtowc(&wc, s + i, n - i, &st) : (size_t)-1;
		if (l == (size_t)-1 || l == (size_t)-2 || l == 0) {
			memset(&st, 0, sizeof(st));
			if (draw)
				addch('?');
			used++;
			i++;
			continue;
		}
		w = wcwidth(wc);
		if (w < 0) {
			if (draw)
				addch('?');
			w = 1;
		} else if (used + w > maxw) {
			break;
		} else if (w > 0 && draw) {
			addnstr(s + i, (int)l);
		}
		used += w;
		i += l;
	}
	*done = i;
	return used;
}

int ui_put(const struct ui *ui, int y, int x, int maxw, const char *s, size_t n)
{
	size_t done;

	return put(ui, y, x, maxw, s, n, &done);
}

int ui_cols(const struct ui *ui, const char *s, size_t n)
{
	size_t done;

	return put(ui, -1, 0, INT_MAX, s, n, &done);
}

int ui_put_cut(const struct ui *ui, int y, int x, int maxw, const char *s, size_t n)
{
	size_t done;
	int used = put(ui, y, x, maxw, s, n, &done);

	if (done == n || maxw < 2)
		return used;
	/* a column short, then top's mark of text cut */
	used = put(ui, y, x, maxw - 1, s, n, &done);
	mvaddch(y, x + used, '+');
	return used + 1;
}

/*
 * Wait up to ms for a key; ERR when none came. A terminal that is gone sets
 * *gone (an errno): it hung up, or it is readable but reading gives nothing
 * (end of input, a read error). Without SIGHUP (setsid, a lost ssh) getch()
 * would return ERR at once, for ever.
 */
int crt_read_key(int ms, int *empty_reads, int *gone)
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
