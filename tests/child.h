/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * child.h: child processes the perf tests share: ending one, and a PID
 * that existed a moment ago and has been reaped. Include after cmocka.h.
 */
#ifndef PTOP_TESTS_CHILD_H
#define PTOP_TESTS_CHILD_H

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

#endif
