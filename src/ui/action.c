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
#include <sched.h>
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
	t->err = 0;
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

int action_affinity(const struct ui_target *t, const char *root, const cpu_set_t *cpus)
{
	int err;

	/* A fixture root names processes of another machine: never touch those. */
	if (root && strcmp(root, "/proc"))
		return -EPERM;
	/* sched_setaffinity has no pidfd form: the start time, checked right before */
	err = target_check(t, root);
	if (err)
		return err;
	return sched_setaffinity(t->pid, sizeof(*cpus), cpus) < 0 ? -errno : 0;
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

static void action_gone(struct ui *ui, const struct ui_target *t)
{
	ui_status(ui, _("Process %d (%s) is gone: nothing was done"), t->pid, t->name);
}

void action_release(struct ui *ui)
{
	for (size_t i = 0; i < ui->ntargets; i++)
		action_target_close(&ui->targets[i]);
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
		struct ui_target *t = &ui->targets[ui->ntargets++];
		const struct frame_proc *p = tag_row(ui, &ui->tags[i]);

		t->pidfd = -1; /* never opened: nothing to close */
		if (p) {
			t->err = action_target_open(t, ui->opts->root, p);
			continue;
		}
		*t = (struct ui_target){.pid = ui->tags[i].pid,
					.start_ticks = ui->tags[i].start_ticks,
					.pidfd = -1,
					.err = -ESRCH};
		snprintf(t->name, sizeof(t->name), "%s", ui->tags[i].name);
	}
}

bool action_choose(struct ui *ui, const struct frame_proc *p)
{
	struct ui_target *t = &ui->targets[0];
	int err;

	if (ui->opts->secure) {
		ui_status(ui, _("Secure mode (-s): no signals, no renice"));
		return false;
	}
	action_release(ui);
	if (ui->ntags) {
		choose_tagged(ui);
		return true; /* the gone ones are reported when the action is done */
	}
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

void action_targets_label(const struct ui *ui, char *buf, size_t n)
{
	if (ui->ntargets == 1 && !ui->ntags)
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
		const struct ui_target *t = &ui->targets[i];

		if (err[i] != -ESRCH)
			continue;
		sbuf_printf(&b, "%s %d (%s)", ngone++ ? "," : _("; gone, nothing done:"), t->pid,
			    t->name);
		tags_drop(ui, t->pid, t->start_ticks);
	}
	for (size_t i = 0; i < ui->ntargets; i++) {
		const struct ui_target *t = &ui->targets[i];

		if (err[i] && err[i] != -ESRCH)
			sbuf_printf(&b, "%s %d (%s): %s", nfail++ ? "," : _("; failed:"), t->pid,
				    t->name, strerror(-err[i]));
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
		const struct ui_target *t = &ui->targets[i];

		err[i] = t->err ? t->err : action_signal(t, ui->opts->root, sig);
		ok += !err[i];
	}
	if (ui->ntargets == 1 && !ui->ntags) {
		const struct ui_target *t = &ui->targets[0];

		if (err[0] == -ESRCH)
			action_gone(ui, t);
		else if (err[0])
			ui_status(ui, _("Cannot send SIG%s to %d (%s): %s"), name, t->pid, t->name,
				  strerror(-err[0]));
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
		const struct ui_target *t = &ui->targets[i];

		err[i] = t->err ? t->err : action_renice(t, ui->opts->root, relative, value, &set);
		ok += !err[i];
	}
	if (ui->ntargets == 1 && !ui->ntags) {
		const struct ui_target *t = &ui->targets[0];

		if (err[0] == -ESRCH)
			action_gone(ui, t);
		else if (err[0])
			ui_status(ui, _("Cannot renice %d (%s): %s"), t->pid, t->name,
				  strerror(-err[0]));
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

void ui_renice_prompt(struct ui *ui, const struct frame_proc *p)
{
	char who[UI_TEXT_MAX / 2];

	if (!action_choose(ui, p))
		return;
	action_targets_label(ui, who, sizeof(who));
	ui_prompt(ui, PROMPT_RENICE, "");
	snprintf(ui->prompt_label, sizeof(ui->prompt_label), _("Renice %s to (-20..19): "), who);
}
