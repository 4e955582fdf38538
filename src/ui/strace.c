// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * strace.c: htop's s: strace -p on the selected process, in the terminal.
 * Curses steps aside (endwin) while strace runs and the screen comes back
 * when it ends. Ctrl-C stops strace, not ptop: ptop ignores the terminal's
 * SIGINT and SIGQUIT until its child is done.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tui.h"

/* Whether an executable named name is in $PATH. */
static bool on_path(const char *name)
{
	const char *path = getenv("PATH");

	while (path && *path) {
		const char *end = strchr(path, ':');
		size_t n = end ? (size_t)(end - path) : strlen(path);
		char full[4096];

		if (n &&
		    (size_t)snprintf(full, sizeof(full), "%.*s/%s", (int)n, path, name) <
			sizeof(full) &&
		    !access(full, X_OK))
			return true;
		path = end ? end + 1 : NULL;
	}
	return false;
}

/* Run strace on t's task with the terminal; its wait status, or -errno. */
static int run_strace(const struct proc_target *t)
{
	struct sigaction ign = {.sa_handler = SIG_IGN}, old_int, old_quit;
	char pid[16];
	int status = 0;
	pid_t child;

	snprintf(pid, sizeof(pid), "%d", t->pid);
	sigaction(SIGINT, &ign, &old_int);
	sigaction(SIGQUIT, &ign, &old_quit);
	child = fork();
	if (child == 0) {
		signal(SIGINT, SIG_DFL);
		signal(SIGQUIT, SIG_DFL);
		execlp("strace", "strace", "-p", pid, (char *)NULL);
		_exit(127);
	}
	if (child > 0) {
		while (waitpid(child, &status, 0) < 0 && errno == EINTR)
			;
	}
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGQUIT, &old_quit, NULL);
	return child < 0 ? -errno : status;
}

void inspect_strace(struct ui *ui, const struct frame_proc *p, const char *who)
{
	struct proc_target t = {.pidfd = -1};
	int err, status;

	if (ui->opts->secure) {
		ui_status(ui, _("Secure mode (-s): no strace"));
		return;
	}
	if (!on_path("strace")) {
		ui_status(ui, _("strace is not installed: cannot trace %s"), who);
		return;
	}
	/* strace takes a number: it must still be the process the row showed */
	err = action_target_open(&t, ui->opts->root, p);
	if (!err)
		err = control_before(&t);
	if (err) {
		control_close(&t);
		ui_status(ui, _("Cannot trace %s: %s"), who, control_strerror(err));
		return;
	}
	def_prog_mode();
	endwin();
	printf(_("Tracing %s with strace; Ctrl-C stops it and returns to ptop.\n"), who);
	fflush(stdout);
	status = run_strace(&t);
	control_close(&t);
	reset_prog_mode();
	clearok(curscr, TRUE);
	refresh();
	if (status < 0)
		ui_status(ui, _("Cannot run strace: %s"), strerror(-status));
	else if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		ui_status(ui, _("strace could not be started"));
	else if (WIFEXITED(status) && WEXITSTATUS(status))
		ui_status(ui, _("strace of %s ended with status %d"), who, WEXITSTATUS(status));
	else
		ui_status(ui, _("strace of %s ended"), who);
}
