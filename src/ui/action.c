// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * action.c: the viewer's side of acting on the processes the user chose
 * (signal, renice): which ones (every tagged process, or the selected one),
 * fixed when the menu or prompt opens through src/control.c, which does the
 * acting; and what the status line says of it. Frames keep coming while the
 * menu is open, rows move and PIDs are reused, so nothing here looks at rows
 * again.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptop/control.h"
#include "tui.h"

int action_target_open(struct proc_target *t, const char *root, const struct frame_proc *p)
{
	return control_open(t, root, p->pid, p->tgid, p->start_ticks, p->comm, p->comm_len);
}

static void action_gone(struct ui *ui, const struct proc_target *t)
{
	ui_status(ui, _("Process %d (%s) is gone: nothing was done"), t->pid, t->name);
}

void action_release(struct ui *ui)
{
	for (size_t i = 0; i < ui->ntargets; i++)
		control_close(&ui->targets[i]);
	ui->ntargets = 0;
}

/* The row of the tagged process in this frame, or NULL when it is gone. */
static const struct frame_proc *tag_row(const struct ui *ui, const struct ui_tag *tag)
{
	for (size_t i = 0; i < ui->frame.nprocs; i++) {
		const struct frame_proc *p = &ui->frame.procs[i];

		if (p->pid == tag->pid && p->start_ticks == tag->start_ticks)
			return p;
	}
	return NULL;
}

/* Fix one target per tag; one that cannot be fixed keeps its reason in err. */
static void choose_tagged(struct ui *ui)
{
	for (size_t i = 0; i < ui->ntags; i++) {
		struct proc_target *t = &ui->targets[ui->ntargets++];
		const struct frame_proc *p = tag_row(ui, &ui->tags[i]);

		t->pidfd = -1; /* never opened: nothing to close */
		if (p) {
			t->err = action_target_open(t, ui->opts->root, p);
			continue;
		}
		*t = (struct proc_target){.pid = ui->tags[i].pid,
					  .start_ticks = ui->tags[i].start_ticks,
					  .pidfd = -1,
					  .err = -ESRCH};
		snprintf(t->name, sizeof(t->name), "%s", ui->tags[i].name);
	}
}

bool action_refused(struct ui *ui)
{
	if (ui->opts->secure)
		ui_status(ui, _("Secure mode (-s): no signals, no renice"));
	return ui->opts->secure;
}

/* Fix ui->targets on row p alone. */
static bool choose_one(struct ui *ui, const struct frame_proc *p)
{
	struct proc_target *t = &ui->targets[0];
	int err;

	if (!p)
		return false;
	ui->ntargets = 1;
	t->pidfd = -1;
	err = action_target_open(t, ui->opts->root, p);
	if (err == -ESRCH)
		action_gone(ui, t);
	else if (err)
		ui_status(ui, _("Cannot act on %d (%s): %s"), t->pid, t->name, strerror(-err));
	if (err)
		action_release(ui);
	return !err;
}

bool action_choose(struct ui *ui, const struct frame_proc *p)
{
	if (action_refused(ui))
		return false;
	action_release(ui);
	ui->targets_tagged = ui->ntags > 0;
	if (ui->ntags) {
		choose_tagged(ui);
		return true; /* the gone ones are reported when the action is done */
	}
	return choose_one(ui, p);
}

bool action_choose_one(struct ui *ui, const struct frame_proc *p)
{
	if (action_refused(ui))
		return false;
	action_release(ui);
	ui->targets_tagged = false;
	return choose_one(ui, p);
}

void action_targets_label(const struct ui *ui, char *buf, size_t n)
{
	if (ui->ntargets == 1 && !ui->targets_tagged)
		snprintf(buf, n, "%d (%s)", ui->targets[0].pid, ui->targets[0].name);
	else
		snprintf(buf, n, _("%zu tagged processes"), ui->ntargets);
}

/*
 * After acting on several targets (err[i] each): "DONE; gone, nothing done:
 * PID (name) ...; failed: PID (name): why ...", on the status line. The gone
 * ones are untagged: they are reported once.
 */
static void report_all(struct ui *ui, const char *done, const int *err)
{
	struct sbuf b = {0};
	size_t ngone = 0, nfail = 0;

	sbuf_adds(&b, done);
	for (size_t i = 0; i < ui->ntargets; i++) {
		const struct proc_target *t = &ui->targets[i];

		if (err[i] != -ESRCH)
			continue;
		sbuf_printf(&b, "%s %d (%s)", ngone++ ? "," : _("; gone, nothing done:"), t->pid,
			    t->name);
		tags_drop(ui, t->pid, t->start_ticks);
	}
	for (size_t i = 0; i < ui->ntargets; i++) {
		const struct proc_target *t = &ui->targets[i];

		if (err[i] && err[i] != -ESRCH)
			sbuf_printf(&b, "%s %d (%s): %s", nfail++ ? "," : _("; failed:"), t->pid,
				    t->name, control_strerror(err[i]));
	}
	ui_status(ui, "%s", sbuf_cstr(&b));
	sbuf_free(&b);
}

void action_signal_targets(struct ui *ui, int sig, const char *name)
{
	int err[UI_TAGS_MAX];
	size_t ok = 0;
	char done[128];

	for (size_t i = 0; i < ui->ntargets; i++) {
		const struct proc_target *t = &ui->targets[i];

		err[i] = t->err ? t->err : control_signal(t, sig);
		ok += !err[i];
	}
	if (ui->ntargets == 1 && !ui->targets_tagged) {
		const struct proc_target *t = &ui->targets[0];

		if (err[0] == -ESRCH)
			action_gone(ui, t);
		else if (err[0])
			ui_status(ui, _("Cannot send SIG%s to %d (%s): %s"), name, t->pid, t->name,
				  control_strerror(err[0]));
		else
			ui_status(ui, _("Sent SIG%s to %d (%s)"), name, t->pid, t->name);
	} else {
		snprintf(done, sizeof(done), _("Sent SIG%s to %zu of %zu tagged processes"), name,
			 ok, ui->ntargets);
		report_all(ui, done, err);
	}
	action_release(ui);
}

unsigned action_renice_target(struct ui *ui, bool relative, int value)
{
	int err[UI_TAGS_MAX], set = 0;
	size_t ok = 0;
	char done[128];

	for (size_t i = 0; i < ui->ntargets; i++) {
		const struct proc_target *t = &ui->targets[i];

		err[i] = t->err ? t->err : control_renice(t, relative, value, &set);
		ok += !err[i];
	}
	if (ui->ntargets == 1 && !ui->targets_tagged) {
		const struct proc_target *t = &ui->targets[0];

		if (err[0] == -ESRCH)
			action_gone(ui, t);
		else if (err[0])
			ui_status(ui, _("Cannot renice %d (%s): %s"), t->pid, t->name,
				  control_strerror(err[0]));
		else
			ui_status(ui, _("Process %d (%s) reniced to %d"), t->pid, t->name, set);
	} else {
		if (relative)
			snprintf(done, sizeof(done),
				 _("Reniced %zu of %zu tagged processes by %+d"), ok, ui->ntargets,
				 value);
		else
			snprintf(done, sizeof(done), _("Reniced %zu of %zu tagged processes to %d"),
				 ok, ui->ntargets, value);
		report_all(ui, done, err);
	}
	action_release(ui);
	return ok ? UI_HANDLED | UI_REFETCH : UI_HANDLED;
}

static unsigned renice_done(struct ui *ui, const char *text)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(text, &end, 10);
	if (text[0] && !*end && !errno && v >= -20 && v <= 19)
		return action_renice_target(ui, false, (int)v);
	if (!text[0])
		ui_status(ui, _("Cancelled"));
	else
		ui_status(ui, _("Not a nice value: %s"), text);
	action_release(ui);
	return UI_HANDLED;
}

static unsigned renice_cancel(struct ui *ui)
{
	action_release(ui);
	return UI_HANDLED;
}

/* Its label names the targets: ui->prompt_label. */
static const struct ui_prompt renice_prompt = {.done = renice_done, .cancel = renice_cancel};

void ui_renice_prompt(struct ui *ui, const struct frame_proc *p)
{
	char who[UI_TEXT_MAX / 2];

	if (!action_choose(ui, p))
		return;
	action_targets_label(ui, who, sizeof(who));
	ui_prompt(ui, &renice_prompt, "");
	snprintf(ui->prompt_label, sizeof(ui->prompt_label), _("Renice %s to (-20..19): "), who);
}
