// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dispatch.c: where a key goes. A key is the screen's on top of the stack
 * when one is open (a prompt, a menu, the column chooser, a panel, help,
 * the picker: screens.c), whatever the key, else the
 * travel keys' of a replay, else a pane's hot key, else the current pane's,
 * else one of the keys every pane shares (quit, help, pause, the delay, W,
 * the menus, colour, a watch), else the panels' and the display's; a key
 * nobody takes gets a hint. Every handler returns what the loop must do
 * (enum ui_reaction); none rebuilds or refetches itself.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "ptop/perf.h"
#include "tui.h"

void ui_write_config(struct ui *ui)
{
	char *path = config_path();
	struct sbuf why = {0};

	if (!path) {
		ui_status(ui, _("Cannot write settings: neither XDG_CONFIG_HOME nor HOME is set"));
		return;
	}
	if (config_write_why(path, &ui->cfg, &why))
		ui_status(ui, "%s", sbuf_cstr(&why));
	else
		ui_status(ui, _("Settings written to %s"), path);
	sbuf_free(&why);
	free(path);
}

static unsigned delay_done(struct ui *ui, const char *text)
{
	char *end;
	double d;

	if (!text[0])
		return UI_HANDLED;
	errno = 0;
	d = strtod_user(text, &end);
	if (*end || errno || !isfinite(d) || d < 0 || d > 86400) {
		ui_status(ui, _("Not a delay: %s"), text);
		return UI_HANDLED;
	}
	ui->cfg.delay_s = d;
	ui->next_frame = clock_mono() + d;
	ui_status(ui, _("Delay: %g s"), d);
	return UI_HANDLED;
}

static const struct ui_prompt delay_prompt = {
    .label = N_("Delay in seconds: "),
    .done = delay_done,
};

/*
 * D answered: arm on the process the prompt opened on, if it is still that
 * one (perf_event_open takes a PID), and disarm again if it ended meanwhile.
 */
static unsigned watch_done(struct ui *ui, const char *text)
{
	struct proc_target *t = &ui->watch_target;
	struct perf_bp_spec spec;
	char arg[UI_TEXT_MAX + 16], why[512];
	int err;

	if (!text[0] || !pipeline_observes(ui->pipe)) {
		control_close(t);
		return UI_HANDLED;
	}
	snprintf(arg, sizeof(arg), "%d:%s", t->tgid, text);
	if (perf_bp_parse(arg, &spec)) {
		ui_status(ui,
			  _("Not a watch: %s (NAME, LIB:NAME, ADDR or FILE+ADDR, then :LEN:TYPE)"),
			  text);
		control_close(t);
		return UI_HANDLED;
	}
	err = control_before(t);
	if (err) {
		ui_status(ui, _("Cannot watch %d (%s): %s"), t->tgid, t->name,
			  control_strerror(err));
		control_close(t);
		return UI_HANDLED;
	}
	err = pipeline_watch(ui->pipe, &spec);
	if (!err && control_after(t)) {
		pipeline_unwatch(ui->pipe, pipeline_nwatches(ui->pipe) - 1);
		err = CONTROL_RACED;
	}
	if (err) {
		if (err == CONTROL_RACED)
			snprintf(why, sizeof(why), "%s", control_strerror(err));
		else
			pipeline_watch_error(&spec, err, why, sizeof(why));
		ui_status(ui, _("Cannot watch %d (%s): %s"), t->tgid, t->name, why);
	} else if (spec.object[0]) {
		ui_status(ui, _("Watching %s on %d (%s): 0x%llx in %s, %d bytes"), text, t->tgid,
			  t->name, (unsigned long long)spec.addr, spec.object, spec.len);
	} else {
		ui_status(ui, _("Watching %s on %d (%s)"), text, t->tgid, t->name);
	}
	control_close(t);
	return err ? UI_HANDLED : UI_HANDLED | UI_REFETCH;
}

static unsigned watch_cancel(struct ui *ui)
{
	control_close(&ui->watch_target);
	return UI_HANDLED;
}

static const struct ui_prompt watch_prompt = {
    .label = N_("Watch NAME, LIB:NAME, 0xADDR or FILE+0xADDR [:LEN[:TYPE]] (1/2/4/8; "
		"r w rw x): "),
    .done = watch_done,
    .cancel = watch_cancel,
};

/* D: the watch prompt, its process fixed now (PID and start time), named in its label. */
static void watch_open(struct ui *ui)
{
	const struct frame_proc *p = procs_selected(ui);
	struct proc_target *t = &ui->watch_target;
	int err;

	if (!p) {
		ui_status(ui, _("Select a process to watch first"));
		return;
	}
	err = action_target_open(t, ui->opts->root, p);
	if (!err)
		err = control_before(t);
	if (err) {
		ui_status(ui, _("Cannot watch %d (%s): %s"), t->tgid, t->name,
			  control_strerror(err));
		control_close(t);
		return;
	}
	ui_prompt(ui, &watch_prompt, "");
}

/* The keys every pane shares, when the pane did not take the action. */
static unsigned shared_key(struct ui *ui, enum ui_action act)
{
	switch (act) {
	case ACT_QUIT:
		ui->quit = true;
		break;
	case ACT_HELP:
		menus_open_help(ui);
		break;
	case ACT_PAUSE:
		ui->paused = !ui->paused;
		ui_status(ui, ui->paused ? _("Paused (Z resumes)") : _("Resumed"));
		return ui->paused ? UI_HANDLED : UI_HANDLED | UI_REFETCH;
	case ACT_REFRESH:
		return UI_HANDLED | UI_REFETCH;
	case ACT_DELAY: {
		char now[32];

		if (ui->opts->secure) {
			ui_status(ui, _("Secure mode (-s): the delay stays"));
			break;
		}
		snprintf(now, sizeof(now), "%g", ui->cfg.delay_s);
		ui_prompt(ui, &delay_prompt, now);
		break;
	}
	case ACT_WRITE_CONFIG:
		ui_write_config(ui);
		break;
	case ACT_COLUMNS:
		menus_open_columns(ui);
		break;
	case ACT_SETUP:
		setup_open(ui);
		break;
	case ACT_SORT_MENU:
		menus_open_sort(ui);
		break;
	case ACT_PANE_NEXT:
		return panes_cycle(ui, 1);
	case ACT_PANE_PREV:
		return panes_cycle(ui, -1);
	case ACT_REDRAW:
		clearok(curscr, TRUE);
		break;
	case ACT_COLOR:
		ui->cfg.color = !ui->color;
		crt_set_color(ui, ui->cfg.color);
		if (ui->cfg.color && !ui->color)
			ui_status(ui, _("This terminal has no colours"));
		break;
	case ACT_WATCH:
		watch_open(ui);
		break;
	default:
		return UI_IGNORED;
	}
	return UI_HANDLED;
}

unsigned dispatch_key(struct ui *ui, int key)
{
	enum ui_action act;
	unsigned r;

	if (key == KEY_RESIZE)
		return UI_HANDLED; /* redrawn at the new size right after */
	if (key == KEY_MOUSE)
		return panes_mouse(ui);
	r = screen_key(ui, key); /* a screen open takes every key */
	if (r)
		return r;
	r = replay_key(ui, keymap_lookup(key, ui->cfg.keys), key);
	if (r)
		return r;
	for (int i = 0; ui_panes[i]; i++) {
		if (ui_panes[i]->hotkey != key)
			continue;
		if (ui_panes[i] == &pane_processes && ui_pane(ui) == &pane_processes) {
			ui->cfg.per_cpu = !ui->cfg.per_cpu; /* top's `1` where it means something */
			return UI_HANDLED | UI_REFETCH;
		}
		panes_switch(ui, i);
		return UI_HANDLED;
	}
	act = keymap_lookup(key, ui->cfg.keys);
	r = ui_pane(ui)->key(ui, act, key);
	if (!r)
		r = shared_key(ui, act);
	if (!r)
		r = inspect_action(ui, act);
	if (!r)
		r = display_key(ui, act);
	if (!r && key != KEY_ESC)
		ui_no_such_key(ui, key);
	return r ? r : UI_HANDLED;
}
