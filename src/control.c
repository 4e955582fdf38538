// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * control.c: acting on the process a person chose and on no other (see
 * control.h). The target's /proc/TGID directory, opened once, is both the
 * pidfd that signals go through (pidfd_send_signal takes it; a process it
 * cannot name in ptop's pid namespace is refused, not replaced by the one
 * that has its number here) and the way to its stat (openat: a directory of
 * an ended process reads nothing, whoever has its PID now). setpriority and
 * sched_setaffinity take PIDs: the start time is checked before them and the
 * process seen alive through the descriptor after them, so a PID reused in
 * between is reported, not passed over.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/pidfd.h>
#include <sys/resource.h>
#include <unistd.h>

#include "ptop/control.h"
#include "ptop/gettext.h"

static bool root_is_proc(const char *root)
{
	return !root || !strcmp(root, "/proc");
}

bool control_own_proc(const char *root)
{
	return root_is_proc(root) && proc_own_pid_ns("/proc");
}

/*
 * The start time of t's task: through its directory when open, else under
 * root. -ESRCH for a zombie too: it has ended, only its entry waits for its
 * parent, and it has no address space to watch nor priority that matters.
 */
static int task_start(const struct proc_target *t, const char *root, uint64_t *start)
{
	char rel[PROC_PATH_MAX], path[4096], buf[1024];
	const char *name = rel;
	struct proc_stat st;
	ssize_t n;
	int fd, err;

	if (t->pidfd >= 0) {
		if (t->pid == t->tgid)
			name = "stat";
		else
			snprintf(rel, sizeof(rel), "task/%d/stat", t->pid);
		fd = openat(t->pidfd, name, O_RDONLY | O_CLOEXEC);
	} else {
		proc_path(rel, (unsigned)t->tgid, t->pid == t->tgid ? 0 : (unsigned)t->pid, "stat");
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", root ? root : "/proc", rel) >=
		    sizeof(path))
			return -ENAMETOOLONG;
		fd = open(path, O_RDONLY | O_CLOEXEC);
	}
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
	if (st.state == 'Z' || st.state == 'X')
		return -ESRCH;
	*start = st.starttime;
	return 0;
}

void control_close(struct proc_target *t)
{
	if (t->pidfd >= 0)
		close(t->pidfd);
	t->pidfd = -1;
	t->set = false;
}

int control_open(struct proc_target *t, const char *root, int pid, int tgid, uint64_t start_ticks,
		 const char *comm, size_t comm_len)
{
	uint64_t start;
	int err;

	control_close(t);
	t->err = 0;
	t->pid = pid;
	t->tgid = tgid ? tgid : pid;
	t->start_ticks = start_ticks;
	snprintf(t->name, sizeof(t->name), "%.*s", (int)comm_len, comm);
	for (char *c = t->name; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
	t->own_pids = control_own_proc(root);
	/* A copy of /proc names processes of another machine: never act on those. */
	if (root_is_proc(root)) {
		char dir[32];

		snprintf(dir, sizeof(dir), "/proc/%d", t->tgid);
		t->pidfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (t->pidfd < 0)
			return errno == ENOENT ? -ESRCH : -errno;
	}
	/* Opened first, checked after: if the start time read through the
	 * directory matches the row's, the descriptor is the row's process. */
	err = task_start(t, root, &start);
	if (!err && start != t->start_ticks)
		err = -ESRCH;
	if (err) {
		control_close(t);
		return err;
	}
	t->set = true;
	return 0;
}

/* Alive through the descriptor: a zombie counts, a reaped process does not. */
static int target_alive(const struct proc_target *t)
{
	if (pidfd_send_signal(t->pidfd, 0, NULL, 0) == 0)
		return 0;
	if (errno == EINVAL)
		return -EXDEV; /* not in ptop's pid namespace */
	return errno == ESRCH ? -ESRCH : -errno;
}

int control_check(const struct proc_target *t)
{
	uint64_t start;
	int err;

	if (!t->set || t->pidfd < 0)
		return t->set ? -EPERM : -ESRCH;
	err = target_alive(t);
	if (err && err != -EPERM)
		return err;
	err = task_start(t, NULL, &start);
	if (err)
		return err;
	return start == t->start_ticks ? 0 : -ESRCH;
}

int control_before(const struct proc_target *t)
{
	int err = control_check(t);

	if (err)
		return err;
	return t->own_pids ? 0 : -EXDEV;
}

int control_after(const struct proc_target *t)
{
	/* alive now, so its PID was never free between the check and the call */
	return control_check(t) == -ESRCH ? CONTROL_RACED : 0;
}

int control_signal(const struct proc_target *t, int sig)
{
	int err = control_check(t);

	if (err)
		return err;
	if (pidfd_send_signal(t->pidfd, sig, NULL, 0) == 0)
		return 0;
	return errno == EINVAL ? -EXDEV : -errno;
}

int control_renice(const struct proc_target *t, bool relative, int value, int *set_to)
{
	int err = control_before(t), nice = value;

	if (err)
		return err;
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
		return errno == ESRCH ? -ESRCH : -errno;
	err = control_after(t);
	if (err)
		return err;
	*set_to = nice;
	return 0;
}

int control_affinity(const struct proc_target *t, const cpu_set_t *cpus)
{
	int err = control_before(t);

	if (err)
		return err;
	if (sched_setaffinity(t->pid, sizeof(*cpus), cpus) < 0)
		return errno == ESRCH ? -ESRCH : -errno;
	return control_after(t);
}

const char *control_strerror(int err)
{
	switch (err) {
	case -ESRCH:
		return _("it is gone");
	case -EXDEV:
		return _("this /proc belongs to another pid namespace: ptop cannot name that "
			 "process to the kernel");
	case CONTROL_RACED:
		return _("it ended during the call: its PID may have reached another process");
	default:
		return strerror(-err);
	}
}
