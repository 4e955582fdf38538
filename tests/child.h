/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * child.h: what the perf and bench tests share about processes: ending a
 * child, a PID that existed a moment ago and has been reaped, and the count
 * of this process's open descriptors, to see that nothing was left open.
 * Include after cmocka.h.
 */
#ifndef PTOP_TESTS_CHILD_H
#define PTOP_TESTS_CHILD_H

#include <dirent.h>
#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

static inline void reap(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/* A pid that existed a moment ago and has been reaped. */
static inline pid_t gone_pid(void)
{
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0)
		_exit(0);
	assert_int_equal(waitpid(pid, NULL, 0), pid);
	return pid;
}

/* Descriptors this process has open now. */
static inline int count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			n++;
	closedir(d);
	return n - 1; /* the directory's own descriptor */
}

#endif
