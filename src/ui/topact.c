// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * topact.c: top's k and r, as the top profile binds them: the status line
 * asks for a PID, the selected process's by default (top's is its first
 * row), then for a signal (a number or a name, TERM by default) or a nice
 * value. A PID typed names the process of a row shown now (a PID no row
 * shows is refused, never signalled blindly); the default, the process that
 * was selected. It is fixed at once through action.c (its /proc directory
 * held, its start time checked), so the signal or the nice value reaches the
 * process the user chose or none: one that ended meanwhile is reported.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

#include "tui.h"

/* The default's row: the process selected when k or r was pressed, if the frame has it. */
static const struct frame_proc *default_row(const struct ui *ui)
{
	for (size_t i = 0; i < ui->frame.nprocs; i++) {
		const struct frame_proc *p = &ui->frame.procs[i];

		if (p->pid == ui->ask_pid && p->start_ticks == ui->ask_start)
			return p;
	}
	return NULL;
}

/* The row shown for a PID typed: one the user can see, or NULL. */
static const struct frame_proc *shown_row(const struct ui *ui, int pid)
{
	for (size_t i = 0; i < ui->nrows; i++) {
		const struct frame_proc *p = procs_row_at(ui, i);

		if (p->pid == pid)
			return p;
	}
	return NULL;
}

static unsigned ask_release(struct ui *ui)
{
	action_release(ui);
	return UI_HANDLED;
}

/* The second prompt of k: the signal, TERM when blank. */
static unsigned signal_done(struct ui *ui, const char *text)
{
	char name[24] = "TERM";
	int sig = text[0] ? signal_parse(text, name, sizeof(name)) : SIGTERM;

	if (sig < 0) {
		ui_status(ui, _("Invalid signal"));
		return ask_release(ui);
	}
	action_signal_targets(ui, sig, name);
	return UI_HANDLED | UI_REFETCH;
}

/* The second prompt of r: the nice value (clamped to -20..19 as the kernel does). */
static unsigned nice_done(struct ui *ui, const char *text)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(text, &end, 10);
	if (!text[0]) {
		ui_status(ui, _("Cancelled"));
		return ask_release(ui);
	}
	if (*end || errno) {
		ui_status(ui, _("Not a nice value: %s"), text);
		return ask_release(ui);
	}
	return action_renice_target(ui, false, v < -20 ? -20 : v > 19 ? 19 : (int)v);
}

static const struct ui_prompt signal_prompt = {.done = signal_done, .cancel = ask_release};
static const struct ui_prompt nice_prompt = {.done = nice_done, .cancel = ask_release};

/* The PID answered (blank: the default): fix its process, then ask what to do. */
static unsigned pid_done(struct ui *ui, const char *text)
{
	const struct frame_proc *p;
	char *end;
	long pid = ui->ask_pid;

	if (text[0]) {
		errno = 0;
		pid = strtol(text, &end, 10);
		if (*end || errno || pid <= 0 || pid > INT32_MAX) {
			ui_status(ui, _("Not a PID: %s"), text);
			return UI_HANDLED;
		}
	}
	/* the default is the process that was selected, not whatever has its PID now */
	p = text[0] ? shown_row(ui, (int)pid) : default_row(ui);
	if (!p && !text[0]) {
		ui_status(ui, _("Process %d is gone: nothing was done"), (int)pid);
		return UI_HANDLED;
	}
	if (!p) {
		ui_status(ui, _("No process %d in view: nothing was done"), (int)pid);
		return UI_HANDLED;
	}
	if (!action_choose_one(ui, p))
		return UI_HANDLED;
	ui_prompt(ui, ui->ask_kill ? &signal_prompt : &nice_prompt, "");
	if (ui->ask_kill)
		snprintf(ui->prompt_label, sizeof(ui->prompt_label),
			 _("Send pid %d signal [%d/sigterm]: "), p->pid, SIGTERM);
	else
		snprintf(ui->prompt_label, sizeof(ui->prompt_label), _("Renice PID %d to value: "),
			 p->pid);
	return UI_HANDLED;
}

static const struct ui_prompt pid_prompt = {.done = pid_done};

void topact_open(struct ui *ui, bool kill)
{
	const struct frame_proc *p = procs_selected(ui);

	if (action_refused(ui))
		return;
	if (!p) {
		ui_status(ui, _("No process in view"));
		return;
	}
	ui->ask_pid = p->pid;
	ui->ask_start = p->start_ticks;
	ui->ask_kill = kill;
	ui_prompt(ui, &pid_prompt, "");
	if (kill)
		snprintf(ui->prompt_label, sizeof(ui->prompt_label),
			 _("PID to signal/kill [default pid = %d]: "), p->pid);
	else
		snprintf(ui->prompt_label, sizeof(ui->prompt_label),
			 _("PID to renice [default pid = %d]: "), p->pid);
}
