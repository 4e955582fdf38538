// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * action.c: actions on a process the user chose (signal, renice). The choice
 * is fixed when the menu or prompt opens: the task's PID and start time, and a
 * pidfd of its process (pidfd_open). Frames keep coming while the menu is
 * open, rows move and PIDs are reused, so nothing here looks at rows again:
 * a signal goes through the pidfd (pidfd_send_signal), which can only reach
 * the process it was opened on; a renice, which has no pidfd form, checks the
 * start time in /proc/PID/task/TID/stat right before setpriority(2).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/pidfd.h>
#include <sys/resource.h>
#include <unistd.h>

#include "ptop/proc.h"
#include "tui.h"

/* The start time of task pid of process tgid, from the proc root (NULL: /proc). */
static int task_start(const char *root, int tgid, int pid, uint64_t *start)
{
	char rel[PROC_PATH_MAX], path[4096], buf[1024];
	struct proc_stat st;
	ssize_t n;
	int fd, err;

	proc_path(rel, (unsigned)tgid, pid == tgid ? 0 : (unsigned)pid, "stat");
	if ((size_t)snprintf(path, sizeof(path), "%s/%s", root ? root : "/proc", rel) >=
	    sizeof(path))
		return -ENAMETOOLONG;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? -ESRCH : -errno;
	n = read(fd, buf, sizeof(buf));
	err = n < 0 ? -errno : 0;
	close(fd);
	if (err)
		return err == -ENOENT ? -ESRCH : err;
	err = proc_parse_stat(buf, (size_t)n, &st);
	if (err)
		return err;
	*start = st.starttime;
	return 0;
}

void action_target_close(struct ui_target *t)
{
	if (t->pidfd >= 0)
		close(t->pidfd);
	t->pidfd = -1;
	t->set = false;
}

int action_target_open(struct ui_target *t, const char *root, const struct frame_proc *p)
{
	uint64_t start;
	int err;

	action_target_close(t);
	t->pid = p->pid;
	t->tgid = p->tgid ? p->tgid : p->pid;
	t->start_ticks = p->start_ticks;
	snprintf(t->name, sizeof(t->name), "%.*s", (int)p->comm_len, p->comm);
	for (char *c = t->name; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
	/* A fixture root names processes of another machine: never signal those. */
	if (!root || !strcmp(root, "/proc")) {
		t->pidfd = pidfd_open(t->tgid, 0);
		if (t->pidfd < 0 && errno != ENOSYS)
			return errno == EINVAL ? -ESRCH : -errno;
	}
	/* Opened first, checked after: if the start time still matches now, the
	 * pidfd holds the process the row showed, whatever happens to the PID. */
	err = task_start(root, t->tgid, t->pid, &start);
	if (!err && start != t->start_ticks)
		err = -ESRCH;
	if (err) {
		action_target_close(t);
		return err;
	}
	t->set = true;
	return 0;
}

/* Still the process that was chosen: 0, or -ESRCH when it is gone or its PID reused. */
static int target_check(const struct ui_target *t, const char *root)
{
	uint64_t start;
	int err;

	if (!t->set)
		return -ESRCH;
	if (t->pidfd >= 0 && pidfd_send_signal(t->pidfd, 0, NULL, 0) < 0)
		return -errno;
	err = task_start(root, t->tgid, t->pid, &start);
	if (err)
		return err;
	return start == t->start_ticks ? 0 : -ESRCH;
}

int action_signal(const struct ui_target *t, const char *root, int sig)
{
	int err = target_check(t, root);

	if (err)
		return err;
	if (t->pidfd >= 0)
		return pidfd_send_signal(t->pidfd, sig, NULL, 0) < 0 ? -errno : 0;
	if (root && strcmp(root, "/proc"))
		return -EPERM;
	/* no pidfd_open in this kernel: the start time was checked just now */
	return kill(t->tgid, sig) < 0 ? -errno : 0;
}

int action_renice(const struct ui_target *t, const char *root, bool relative, int value,
		  int *set_to)
{
	int err = target_check(t, root), nice = value;

	if (err)
		return err;
	if (root && strcmp(root, "/proc"))
		return -EPERM;
	if (relative) {
		/* from the value the kernel has now, so that quick presses add up */
		errno = 0;
		nice = getpriority(PRIO_PROCESS, (id_t)t->pid);
		if (nice == -1 && errno)
			return errno == ESRCH ? -ESRCH : -errno;
		nice += value;
	}
	if (nice < -20)
		nice = -20;
	if (nice > 19)
		nice = 19;
	if (setpriority(PRIO_PROCESS, (id_t)t->pid, nice) < 0)
		return -errno;
	*set_to = nice;
	return 0;
}

void action_gone(struct ui *ui, const struct ui_target *t)
{
	ui_status(ui, _("Process %d (%s) is gone: nothing was done"), t->pid, t->name);
}

/* Fix the target on row p for the signal menu or the renice prompt; false (and
 * the reason on the status line) when there is nothing to act on. */
bool action_choose(struct ui *ui, const struct frame_proc *p)
{
	int err;

	if (ui->opts->secure) {
		ui_status(ui, _("Secure mode (-s): no signals, no renice"));
		return false;
	}
	err = action_target_open(&ui->target, ui->opts->root, p);

	if (err == -ESRCH)
		action_gone(ui, &ui->target);
	else if (err)
		ui_status(ui, _("Cannot act on %d (%s): %s"), ui->target.pid, ui->target.name,
			  strerror(-err));
	return !err;
}

unsigned action_renice_target(struct ui *ui, bool relative, int value)
{
	const struct ui_target *t = &ui->target;
	int set = 0, err = action_renice(t, ui->opts->root, relative, value, &set);

	if (err == -ESRCH)
		action_gone(ui, t);
	else if (err)
		ui_status(ui, _("Cannot renice %d (%s): %s"), t->pid, t->name, strerror(-err));
	else
		ui_status(ui, _("Process %d (%s) reniced to %d"), t->pid, t->name, set);
	action_target_close(&ui->target);
	return err ? UI_HANDLED : UI_HANDLED | UI_REFETCH;
}

void ui_renice_prompt(struct ui *ui, const struct frame_proc *p)
{
	if (!p || !action_choose(ui, p))
		return;
	ui_prompt(ui, PROMPT_RENICE, "");
	snprintf(ui->prompt_label, sizeof(ui->prompt_label), _("Renice %d (%s) to (-20..19): "),
		 ui->target.pid, ui->target.name);
}
