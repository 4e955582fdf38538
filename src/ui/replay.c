// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * replay.c: the viewer on a recording (ptop -r FILE). Frames come from the
 * pipeline's recording instead of /proc and stay until the user travels:
 * t and T (atop's) or ] and [ one frame, { and } a minute, g a typed time,
 * Home and End the ends; a timeline under the header shows where the frame
 * is between the recording's first and last. Actions on live processes (signals, renice, breakpoints) are refused
 * with a message: the rows are history; so are the keys that would ask the
 * frame source for something else (pause, delay, threads). Touches no kernel
 * interface.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>

#include "ptop/record.h"
#include "tui.h"

bool replay_on(const struct ui *ui)
{
	return ui->replay;
}

void replay_start(struct ui *ui)
{
	struct record_reader *r = pipeline_replay(ui->pipe);

	ui->replay = r != NULL;
	/* open on the newest frame that reads: time travel goes back from there */
	if (r) {
		ui->replay_pos = record_frames(r) - 1;
		ui->replay_back = true;
	}
}

void replay_seek(struct ui *ui)
{
	pipeline_travel(ui->pipe, ui->replay_pos, ui->replay_back);
	/* the next frame comes when the user travels, not with the clock */
	ui->next_frame = HUGE_VAL;
}

bool replay_taken(struct ui *ui, int err)
{
	const struct record_error *d = pipeline_replay_damage(ui->pipe);
	/* frames as the header counts them, from 1 */
	unsigned long long want = ui->replay_pos + 1, got, bad = d ? d->frame + 1 : 0;

	if (err == -ENODATA && d) {
		ui_status(ui, _("No frame of the recording reads: frame %llu is damaged (%s)"), bad,
			  d->why);
		return true;
	}
	if (err) {
		ui_status(ui, "%s", pipeline_replay_error(ui->pipe));
		return true;
	}
	ui->replay_pos = pipeline_position(ui->pipe);
	got = ui->replay_pos + 1;
	if (!d)
		return false;
	/* gone the other way: none reads the way the user went */
	if (ui->replay_back && got > want)
		ui_status(ui, _("No frame before frame %llu reads: frame %llu is damaged (%s)"),
			  got, bad, d->why);
	else if (!ui->replay_back && got < want)
		ui_status(ui, _("No frame after frame %llu reads: frame %llu is damaged (%s)"), got,
			  bad, d->why);
	else if (got > want + 1 || want > got + 1)
		ui_status(ui, _("Skipped frames %llu to %llu: frame %llu is damaged (%s)"),
			  got > want ? want : got + 1, got > want ? got - 1 : want, bad, d->why);
	else
		ui_status(ui, _("Skipped frame %llu: frame %llu is damaged (%s)"),
			  got > want ? want : got + 1, bad, d->why);
	return false;
}

static int64_t frame_ns(const struct frame *f)
{
	return (int64_t)f->time.tv_sec * 1000000000 + f->time.tv_nsec;
}

/*
 * Go to the first frame at or after t (the last when t is after it), as
 * atop's b does: a time typed to the second lands on that second, not on the
 * frame before it. A corrupt frame: the next one that reads.
 */
static unsigned go_time(struct ui *ui, int64_t t)
{
	struct record_reader *r = pipeline_replay(ui->pipe);
	struct record_error e;
	int64_t at;
	uint64_t n;

	if (record_find_time(r, t, &n, &e)) {
		ui_status(ui, "%s", e.msg);
		return UI_HANDLED;
	}
	/* n is the last frame at or before t; a head that cannot be read: from it on */
	if (!record_frame_time(r, n, &at, &e) && at < t && n + 1 < record_frames(r))
		n++;
	ui->replay_pos = n;
	ui->replay_back = false;
	return UI_HANDLED | UI_REFETCH;
}

/*
 * A minute forward (dir 1) or back (-1): the last frame at or before the time
 * a minute away, at least one frame; past a corrupt one the way the user goes.
 */
static unsigned go_minute(struct ui *ui, int dir)
{
	struct record_reader *r = pipeline_replay(ui->pipe);
	uint64_t before = ui->replay_pos, n;
	struct record_error e;

	if (record_find_time(r, frame_ns(&ui->frame) + dir * 60000000000LL, &n, &e)) {
		ui_status(ui, "%s", e.msg);
		return UI_HANDLED;
	}
	ui->replay_pos = n;
	ui->replay_back = dir < 0;
	if (n == before && dir > 0 && before + 1 < record_frames(r))
		ui->replay_pos++;
	else if (n == before && dir < 0 && before > 0)
		ui->replay_pos--;
	return UI_HANDLED | UI_REFETCH;
}

static unsigned go_frame(struct ui *ui, int64_t delta)
{
	uint64_t last = record_frames(pipeline_replay(ui->pipe)) - 1;

	/* past a corrupt frame the way the user goes: [ lands before it, ] after */
	ui->replay_back = delta < 0;
	if (delta < 0)
		ui->replay_pos = ui->replay_pos >= (uint64_t)-delta ? ui->replay_pos + delta : 0;
	else
		ui->replay_pos =
		    last - ui->replay_pos >= (uint64_t)delta ? ui->replay_pos + delta : last;
	return UI_HANDLED | UI_REFETCH;
}

static unsigned goto_done(struct ui *ui, const char *text);

static const struct ui_prompt goto_prompt = {
    .label = N_("Go to (HH:MM[:SS] or YYYY-MM-DD HH:MM[:SS]): "),
    .done = goto_done,
};

unsigned replay_key(struct ui *ui, enum ui_action act, int key)
{
	if (!ui->replay)
		return UI_IGNORED;
	switch (key) {
	case 'T':
	case '[':
		return go_frame(ui, -1);
	case 't':
	case ']':
		return go_frame(ui, 1);
	case '{':
		return go_minute(ui, -1);
	case '}':
		return go_minute(ui, 1);
	case KEY_HOME:
		return go_frame(ui, INT64_MIN / 2);
	case KEY_END:
		return go_frame(ui, INT64_MAX / 2);
	case 'g':
		ui_prompt(ui, &goto_prompt, "");
		return UI_HANDLED;
	}
	switch (act) {
	case ACT_KILL:
	case ACT_RENICE:
	case ACT_KILL_PID:
	case ACT_RENICE_PID:
	case ACT_NICE_DOWN:
	case ACT_NICE_UP:
	case ACT_WATCH:
	case ACT_DISARM:
		ui_status(ui, _("Replaying a recording: its processes cannot be signalled, "
				"reniced or watched"));
		return UI_HANDLED;
	case ACT_PAUSE:
	case ACT_DELAY:
		/* frames change only when the user travels: there is no clock to pause or set */
		ui_status(ui, _("Replaying a recording: travel with t T [ ] { } g Home End"));
		return UI_HANDLED;
	case ACT_THREADS:
	case ACT_USER_THREADS:
		/* the rows are what was recorded: no frame source to ask for the others */
		ui_status(ui,
			  ui->frame.threads
			      ? _("Replaying a recording of threads: it holds no process rows")
			      : _("Replaying a recording of processes: it holds no threads (record "
				  "with -H)"));
		return UI_HANDLED;
	default:
		return UI_IGNORED;
	}
}

static unsigned goto_done(struct ui *ui, const char *text)
{
	int64_t t;

	int err = record_parse_time(text, frame_ns(&ui->frame), &t);

	if (err == -ERANGE) {
		ui_status(ui,
			  _("Out of the times a recording holds (1677-09-21 to 2262-04-11): '%s'"),
			  text);
		return UI_HANDLED;
	}
	if (err) {
		ui_status(ui, _("Not a time: '%s' (HH:MM[:SS] or YYYY-MM-DD HH:MM[:SS])"), text);
		return UI_HANDLED;
	}
	return go_time(ui, t);
}

void replay_draw_note(struct ui *ui)
{
	struct record_reader *r = pipeline_replay(ui->pipe);
	struct tm tm;
	char day[32];

	localtime_r(&ui->frame.time.tv_sec, &tm);
	strftime(day, sizeof(day), "%Y-%m-%d", &tm);
	attron(ui_attr(ui, COLOR_STATUS, A_BOLD));
	printw(_("  [replay %s, frame %llu/%llu]"), day, (unsigned long long)ui->replay_pos + 1,
	       (unsigned long long)record_frames(r));
	attroff(ui_attr(ui, COLOR_STATUS, A_BOLD));
}

/* The day of a frame's time, and its time of day, as the clock here shows them. */
static void timeline_label(int64_t t_ns, char *day, char *hms)
{
	time_t sec = (time_t)(t_ns / 1000000000);
	struct tm tm;

	localtime_r(&sec, &tm);
	strftime(day, 16, "%Y-%m-%d", &tm);
	strftime(hms, 16, "%H:%M:%S", &tm);
}

/* Where the frame shown is, from 0 (the first frame's time) to 1 (the last's). */
static double timeline_place(struct ui *ui, int64_t *t0, int64_t *t1)
{
	struct record_reader *r = pipeline_replay(ui->pipe);
	uint64_t last = record_frames(r) - 1;
	struct record_error e;
	int64_t now = frame_ns(&ui->frame);

	if (record_frame_time(r, 0, t0, &e) || record_frame_time(r, last, t1, &e) || *t1 <= *t0) {
		/* a damaged head: its place among the frames instead */
		*t0 = *t1 = now;
		return last ? (double)ui->replay_pos / (double)last : 1;
	}
	if (now <= *t0)
		return 0;
	return now >= *t1 ? 1 : (double)(now - *t0) / (double)(*t1 - *t0);
}

void replay_draw_timeline(struct ui *ui, int y)
{
	int64_t t0, t1;
	double at = timeline_place(ui, &t0, &t1);
	char first[32], last[32], day0[16], day1[16], hms0[16], hms1[16];
	int inner, mark;

	/* a recording of days (a directory of day files): the ends say which */
	timeline_label(t0, day0, hms0);
	timeline_label(t1, day1, hms1);
	if (strcmp(day0, day1)) {
		snprintf(first, sizeof(first), "%s %.5s", day0, hms0);
		snprintf(last, sizeof(last), "%s %.5s", day1, hms1);
	} else {
		snprintf(first, sizeof(first), "%s", hms0);
		snprintf(last, sizeof(last), "%s", hms1);
	}
	inner = COLS - (int)strlen(first) - (int)strlen(last) - 4;
	if (inner < 3)
		return;
	mark = (int)(at * (inner - 1) + 0.5);
	attron(ui_attr(ui, COLOR_LABEL, A_BOLD));
	mvaddstr(y, 0, first);
	attroff(ui_attr(ui, COLOR_LABEL, A_BOLD));
	addstr(" [");
	for (int i = 0; i < inner; i++) {
		if (i == mark) {
			attron(ui_attr(ui, COLOR_STATUS, A_BOLD));
			addstr(ui->utf8 ? "\u25cf" : "|");
			attroff(ui_attr(ui, COLOR_STATUS, A_BOLD));
		} else if (ui->utf8) {
			addstr(i < mark ? "\u2501" : "\u2500");
		} else {
			addch(i < mark ? '=' : '-');
		}
	}
	addstr("] ");
	attron(ui_attr(ui, COLOR_LABEL, A_BOLD));
	addstr(last);
	attroff(ui_attr(ui, COLOR_LABEL, A_BOLD));
}

bool replay_help(size_t i, const char **keys, const char **what)
{
	static const char *const help[][2] = {
	    {"T t", N_("Replay: one frame back, one forward (atop's keys)")},
	    {"[ ]", N_("Replay: one frame back, one forward")},
	    {"{ }", N_("Replay: a minute back, a minute forward")},
	    {"g", N_("Replay: go to a time, HH:MM[:SS] or YYYY-MM-DD HH:MM[:SS]")},
	    {"Home End", N_("Replay: the first frame, the last frame")},
	};

	if (i >= sizeof(help) / sizeof(help[0]))
		return false;
	*keys = help[i][0];
	*what = _(help[i][1]);
	return true;
}

void replay_draw_hints(struct ui *ui, int y)
{
	static const char *const hints[][2] = {
	    {"tT", N_("Frame")},      {"{}", N_("Minute")}, {"g", N_("GoTo")},
	    {"Home/End", N_("Ends")}, {"F1", N_("Help")},   {"F10", N_("Quit")},
	};
	int x = 0;

	for (size_t i = 0; i < sizeof(hints) / sizeof(hints[0]) && x < COLS; i++) {
		const char *h = _(hints[i][1]);

		attron(A_BOLD);
		mvaddnstr(y, x, hints[i][0], COLS - x);
		attroff(A_BOLD);
		x = getcurx(stdscr);
		attron(ui_attr(ui, COLOR_SELECTED, A_REVERSE));
		ui_put(ui, y, x, COLS - x, h, strlen(h));
		attroff(ui_attr(ui, COLOR_SELECTED, A_REVERSE));
		x = getcurx(stdscr) + 1;
		if (x <= 0)
			break;
	}
}
