// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tui.c: the interactive viewer's loop. It waits for keys until the next
 * frame is due, so typing is never held up by more than one frame's build;
 * takes frames and hands the observer the rows on screen; draws the header,
 * the pane bar, the current pane, a menu over it and the status line; and
 * hands each key to dispatch.c, then does what its handler asked (rebuild
 * the rows, take a frame now). The terminal is crt.c's.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysinfo.h>

#include "ptop/export.h"
#include "ptop/perf.h"
#include "rcfile.h"
#include "tui.h"

#define UI_MIN_COLS 40
#define UI_MIN_LINES 10
/* Up to this many CPUs the header starts with a bar per CPU, as htop does. */
#define UI_PER_CPU_MAX 32

unsigned ui_needs(const struct ui *ui)
{
	enum field_id cols[UI_MAX_COLUMNS];
	unsigned needs = 0;

	for (size_t c = 0; c < ui->cfg.ncolumns; c++)
		needs |= field_defs[ui->cfg.columns[c]].needs;
	/* a pane of its own columns (the Counters pane's figures are side members) */
	if (ui_pane(ui)->columns)
		for (size_t c = 0, n = ui_pane(ui)->columns(ui, cols); c < n; c++)
			needs |= field_defs[cols[c]].needs;
	/* sorting by a column not shown reads what it needs too */
	return needs | field_defs[ui->cfg.order.field].needs;
}

/* ---- frames ---- */

static bool column_shown(const struct ui *ui, enum field_id id)
{
	for (size_t c = 0; c < ui->cfg.ncolumns; c++)
		if (ui->cfg.columns[c] == id)
			return true;
	return false;
}

/* A column the counters fill: a count, a figure derived from them, SCALE. */
static bool counter_column(enum field_id id)
{
	return field_defs[id].type == FT_CTR || field_defs[id].type == FT_CTRFIG ||
	       id == FIELD_SCALE;
}

/* Whether the pane shows counters: the Counters pane, or the Processes pane with a
 * counter column shown or sorted by. */
static bool counters_wanted(const struct ui *ui)
{
	if (ui_pane(ui) == &pane_counters)
		return true;
	if (ui_pane(ui) != &pane_processes)
		return false;
	if (counter_column(ui->cfg.order.field))
		return true;
	for (size_t c = 0; c < ui->cfg.ncolumns; c++)
		if (counter_column(ui->cfg.columns[c]))
			return true;
	return false;
}

/* Counters for the rows on screen where the pane shows them; perf descriptors for
 * the rows on screen when the PERF column is shown; breakpoints always. */
static void observe(struct ui *ui)
{
	const struct frame_proc **vis;
	size_t first, n;

	if (!pipeline_observes(ui->pipe))
		return;
	table_visible(ui, &first, &n);
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
	if (counters_wanted(ui) && !ui->ob_error) {
		/* counters (and libpfm4) only once someone looks at them */
		int err = pipeline_counters_start(ui->pipe);

		if (err)
			ui->ob_error = err == -ENOENT ? N_("unknown event")
						      : N_("perf events are not available");
	}
	pipeline_observe(ui->pipe, &ui->frame, vis, n, counters_wanted(ui),
			 ui_pane(ui) == &pane_processes && column_shown(ui, FIELD_PERF));
}

/* What the field filters (o, O) read: every row is filtered, shown or not. */
static unsigned filter_needs(const struct ui *ui)
{
	unsigned needs = 0;

	for (size_t i = 0; i < ui->nfield_filters; i++)
		needs |= field_defs[ui->field_filters[i].field].needs;
	return needs;
}

/* What the first frame settles: the time after which a process is new, and
 * the tree of a screen collapsed by default (htop's .all_branches_collapsed,
 * which htop applies to the screen shown at start only). */
static void first_frame(struct ui *ui)
{
	ui->first_uptime = ui->frame.uptime_s;
	if (ui->cfg.collapsed)
		procs_tree_all(ui, true);
}

static void take_frame(struct ui *ui)
{
	/* what is on screen is read in full; the rest as sorting, filtering and the counts need */
	size_t nview = table_view_pids(ui);
	unsigned meters = meters_needs(ui);
	unsigned exported = ui->exporter ? exporter_needs(ui->exporter) : 0;
	unsigned filters = filter_needs(ui);
	struct pipeline_request req = {
	    .needs = ui_needs(ui) | exported | filters,
	    .threads = ui->cfg.threads,
	    .user_threads = ui->cfg.user_threads,
	    .per_cpu = ui->cfg.per_cpu,
	    .sysio = meters & METER_NEEDS_SYSIO,
	    .psi = meters & METER_NEEDS_PSI,
	    .read_less = true,
	    .needs_all = field_defs[ui->cfg.order.field].needs | exported | filters,
	    .view = ui->view_pids,
	    .nview = nview,
	};
	double cpu = clock_cpu(), wall = clock_mono();
	int err;

	/* top's U (-U): the real, saved and fs uids of every process are status's */
	if (ui->filter.by_uid && ui->filter.uid_any) {
		req.needs |= PROC_NEED(PROC_FILE_STATUS);
		req.needs_all |= PROC_NEED(PROC_FILE_STATUS);
	}
	if (ui->replay)
		replay_seek(ui);
	err = pipeline_frame(ui->pipe, &req, &ui->frame);
	if (ui->replay && replay_taken(ui, err))
		return;
	if (err) {
		ui_status(ui, _("Cannot list processes: %s"), strerror(-err));
		return;
	}
	if (ui->wall_mark > 0 && wall > ui->wall_mark)
		ui->own_cpu_pct = (cpu - ui->cpu_mark) * 100.0 / (wall - ui->wall_mark);
	ui->cpu_mark = cpu;
	ui->wall_mark = wall;
	if (!ui->have_frame)
		first_frame(ui);
	ui->have_frame = true;
	ui->frames++;
	graph_frame(ui);
	if (ui->exporter) {
		const char *note =
		    exporter_frame(ui->exporter, ui->pipe, &ui->frame, NULL, 0, NULL);

		if (note)
			ui_status(ui, "%s", note);
	}
	/* why a column asked for has no value, once */
	if (ui->frame.delayacct_off && column_shown(ui, FIELD_IOD) && !ui->said_delayacct) {
		ui_status(ui, _("IOD%%: no block I/O delays are counted while sysctl "
				"kernel.task_delayacct is 0"));
		ui->said_delayacct = true;
	}
	if (column_shown(ui, FIELD_SWAPD) && !ui->said_swapd) {
		struct sbuf why = {0};

		if (field_swapd_why(&why, &ui->frame)) {
			ui_status(ui, "%.*s", (int)why.len, why.p);
			ui->said_swapd = true;
		}
		sbuf_free(&why);
	}
	/* -p's, as top's Tasks: line */
	ui->view.tasks =
	    rows_count_tasks(&ui->frame, &ui->filter, &ui->shown_tasks) ? &ui->shown_tasks : NULL;
	procs_rebuild(ui);
	observe(ui);
	/* sorted by what the observer just filled (a counter, PERF): sort again */
	if (!ui->cfg.tree && field_defs[ui->cfg.order.field].observer)
		procs_rebuild(ui);
}

/* Do what a handled key asked for. */
static void react(struct ui *ui, unsigned r)
{
	if (r & UI_REBUILD)
		procs_rebuild(ui);
	if (r & UI_REFETCH)
		ui->next_frame = 0;
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
	if (screen_covers(ui)) {
		/* help, the column chooser, a panel: over everything, with their own last line */
		screen_draw(ui);
		if (ui_prompt_open(ui))
			ui_draw_status(ui);
		refresh();
		return;
	}
	if (ui->have_frame) {
		y = meters_draw(ui, LINES - 5 - ui->replay);
		if (ui->replay)
			replay_draw_timeline(ui, y++);
		panes_draw_bar(ui, y++);
		ui_panes[ui->cfg.pane]->draw(ui, y, LINES - 1 - y);
	}
	screen_draw(ui); /* a menu over the pane */
	ui_draw_status(ui);
	refresh();
}

/* Settings: defaults, then ptoprc (its problems into errors), then the options. */
static void ui_settings(struct ui *ui, const struct ui_opts *o, struct sbuf *errors)
{
	char *path = config_path();
	int err;

	config_defaults(&ui->cfg);
	/* htop's default: a bar per CPU while they fit a screen; ptoprc may say otherwise */
	ui->cfg.per_cpu = get_nprocs_conf() <= UI_PER_CPU_MAX;
	ui->view = output_view_default;
	err = path ? config_read(path, &ui->cfg, errors) : 0;
	if (err && err != -ENOENT)
		sbuf_printf(errors, _("%s: cannot be read: %s\n"), path, strerror(-err));
	free(path);
	/* no ptoprc: an htop user's htoprc, said on the status line at start */
	if (err == -ENOENT) {
		char *hpath = htoprc_path();
		struct sbuf said = {0};

		if (hpath && !htoprc_import(hpath, &ui->cfg, &said))
			sbuf_printf(errors, "%s\n", sbuf_cstr(&said));
		sbuf_free(&said);
		free(hpath);
	}
	if (o->delay_s >= 0)
		ui->cfg.delay_s = o->delay_s;
	/* the order asked for, the list's and the tree's */
	if (o->order)
		ui->cfg.order = ui->cfg.other_order = *o->order;
	if (o->threads)
		ui->cfg.threads = true;
	if (o->cmdline)
		ui->cfg.cmdline = true;
	if (o->summary_unit >= 0)
		ui->cfg.summary_unit = (enum mem_unit)o->summary_unit;
	if (o->task_unit >= 0)
		ui->cfg.task_unit = (enum mem_unit)o->task_unit;
	if (o->keys >= 0)
		ui->cfg.keys = (enum key_profile)o->keys;
	/* no meters chosen: the header of the tool whose keys these are */
	if (!ui->cfg.meters_chosen)
		ui->cfg.nmeters =
		    meters_default(ui->cfg.meters, ui->cfg.keys, (unsigned)get_nprocs_conf());
	if (o->tree)
		config_tree_set(&ui->cfg, true);
	if (o->no_color)
		ui->cfg.color = false;
	if (o->highlight_delay >= 0) {
		ui->cfg.highlight_changes = true;
		ui->cfg.highlight_delay = (unsigned)o->highlight_delay;
	}
	ui->no_mouse = o->no_mouse;
	ui->no_unicode = o->no_unicode;
	display_apply(ui);
	ui->view.cumulative = o->cumulative;
	ui->filter = o->filter;
	if (o->filter_text)
		snprintf(ui->filter_text, sizeof(ui->filter_text), "%s", o->filter_text);
	if (ui->cfg.pane >= ui_pane_count())
		ui->cfg.pane = 0;
}

/* The frame pipeline with the observer and the watches asked for; 0, or the
 * exit status after saying why on stderr. */
static int ui_readers(struct ui *ui, const struct ui_opts *o)
{
	static const char *names[PERF_GROUP_MAX];
	int n = o->nevents;
	/* ptoprc's counters, which --counters overrides (without a list: the defaults) */
	const char *const *events = o->counters ? o->events : config_counters(&ui->cfg, names, &n);
	struct pipeline_opts po = {
	    .root = o->root,
	    .source = o->source_given ? o->source : ui->cfg.source,
	    .observe = {.counters = o->events != NULL,
			.events = events,
			.nevents = n,
			.budget = o->counter_budget ? o->counter_budget : 32},
	    .watches = o->watches,
	    .nwatches = o->nwatches,
	    .replay = o->replay,
	};
	struct pipeline_error why;

	if (pipeline_new(&po, &ui->pipe, &why)) {
		fprintf(stderr, "%s\n", why.msg);
		return why.status;
	}
	replay_start(ui);
	/* a replay shows the counters it recorded */
	if (!pipeline_observes(ui->pipe) && !ui->replay)
		ui->ob_error = N_("perf events are not available");
	if (o->listen) {
		char msg[256];

		if (exporter_start(o->listen, o->metrics, &ui->exporter, msg)) {
			fprintf(stderr, "%s\n", msg);
			pipeline_free(ui->pipe);
			return 1;
		}
		ui_status(ui, "%s", msg);
	}
	if (pipeline_source_note(ui->pipe))
		ui_status(ui, "%s", pipeline_source_note(ui->pipe));
	return 0;
}

/*
 * How long to wait for a key: until the next frame, at most a second (the
 * status line expires). In double first: a replay's next frame is never
 * (infinity), which no int holds.
 */
static int ms_to_next_frame(const struct ui *ui, double now)
{
	double ms = ui->paused ? 1000.0 : (ui->next_frame - now) * 1000.0 + 1.0;

	return ms < 0 ? 0 : ms > 1000.0 ? 1000 : (int)ms;
}

/* Frames, drawing and keys until q, a quit signal, -n frames, or a terminal
 * that is gone (returned as an errno, else 0). */
static int ui_loop(struct ui *ui)
{
	int tty_gone = 0, empty_reads = 0;

	while (!ui->quit && !crt_signalled()) {
		double now = clock_mono();
		int key, wait_ms;

		if (!ui->paused && now >= ui->next_frame) {
			if (ui->opts->iterations && ui->frames >= ui->opts->iterations)
				break;
			ui->next_frame = clock_mono() + ui->cfg.delay_s;
			take_frame(ui); /* a replay's waits for the user instead */
		}
		table_prepare(ui);
		draw(ui);
		now = clock_mono();
		wait_ms = ms_to_next_frame(ui, now);
		for (int i = 0; ui_panes[i]; i++) {
			int w = ui_panes[i]->poll ? ui_panes[i]->poll(ui) : -1;

			if (w >= 0 && w < wait_ms)
				wait_ms = w;
		}
		key = crt_read_key(wait_ms, &empty_reads, &tty_gone);
		/* Take every key already typed before drawing again: none is lost or delayed. */
		while (key != ERR && !ui->quit) {
			react(ui, dispatch_key(ui, key));
			key = crt_read_key(0, &empty_reads, &tty_gone);
		}
		if (tty_gone)
			break;
	}
	return tty_gone;
}

int ui_run(const struct ui_opts *o)
{
	static struct ui ui; /* large (the targets of tagged processes): not on the stack */
	struct sbuf errors = {0};
	int status, tty_gone;

	ui.opts = o;
	ui.watch_target.pidfd = -1;
	ui_settings(&ui, o, &errors);
	status = ui_readers(&ui, o);
	if (status) {
		sbuf_free(&errors);
		return status;
	}
	crt_start(&ui);
	if (errors.len) {
		/* reported once, at start; the first problem is enough to find the file */
		char *nl = memchr(errors.p, '\n', errors.len);

		ui_status(&ui, "%.*s", (int)(nl ? nl - errors.p : (long)errors.len), errors.p);
		ui.status_until += 4.0;
	}
	sbuf_free(&errors);
	tty_gone = ui_loop(&ui);
	screen_close_all(&ui);
	for (int i = 0; ui_panes[i]; i++)
		if (ui_panes[i]->shutdown)
			ui_panes[i]->shutdown(&ui);
	crt_restore();
	inspect_free();
	action_release(&ui);
	control_close(&ui.watch_target);
	free(ui.rows);
	free(ui.tree);
	free(ui.vis);
	free(ui.view_pids);
	sbuf_free(&ui.cell);
	exporter_stop(ui.exporter);
	frame_free(&ui.frame);
	pipeline_free(ui.pipe);
	if (tty_gone) {
		fprintf(stderr, _("ptop: the terminal is gone (%s): quitting\n"),
			strerror(tty_gone));
		status = 1;
	}
	if (crt_signalled()) {
		/* die of the signal, as a shell expects of a program it interrupted */
		signal(crt_signalled(), SIG_DFL);
		raise(crt_signalled());
		status = 128 + crt_signalled();
	}
	return status;
}
