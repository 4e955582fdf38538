// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_action.c: src/ui/action.c, the path every signal and renice of the
 * viewer takes. A target is fixed on a row (PID and start time); the signal
 * reaches that process through its pidfd and no other: not a process that
 * took its PID after it ended (made here by writing ns_last_pid as root),
 * not one whose row was stale when the menu opened. A relative renice starts
 * from the kernel's current value, so quick presses add up.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/resource.h>

#include <cmocka.h>

#include "../src/ui/tui.h"
#include "child.h"

/* A child that sleeps until killed, and its row as a frame would hold it. */
static pid_t sleeper(struct frame_proc *row)
{
	char path[64], buf[1024];
	struct proc_stat st;
	pid_t pid = fork();
	ssize_t n;
	int fd;

	assert_true(pid >= 0);
	if (pid == 0) {
		/* gone with the test, however it ends */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		for (;;)
			pause();
	}
	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	n = read(fd, buf, sizeof(buf));
	close(fd);
	assert_true(n > 0);
	assert_int_equal(proc_parse_stat(buf, (size_t)n, &st), 0);
	memset(row, 0, sizeof(*row));
	row->pid = row->tgid = pid;
	row->start_ticks = st.starttime;
	memcpy(row->comm, "sleeper", 7);
	row->comm_len = 7;
	return pid;
}

/* Signalled by SIGTERM (reaped), or still running (not reaped). */
static bool terminated_by(pid_t pid, int sig)
{
	int status;

	if (waitpid(pid, &status, 0) != pid)
		return false;
	return WIFSIGNALED(status) && WTERMSIG(status) == sig;
}

static void test_signal_reaches_target(void **state)
{
	struct ui_target t = {.pidfd = -1};
	struct frame_proc row;
	pid_t pid = sleeper(&row);

	(void)state;
	assert_int_equal(action_target_open(&t, NULL, &row), 0);
	assert_true(t.set);
	assert_int_equal(t.pid, pid);
	assert_string_equal(t.name, "sleeper");
	assert_int_equal(action_signal(&t, NULL, SIGTERM), 0);
	assert_true(terminated_by(pid, SIGTERM));
	/* gone now: said, not done */
	assert_int_equal(action_signal(&t, NULL, SIGTERM), -ESRCH);
	action_target_close(&t);
	assert_int_equal(t.pidfd, -1);
}

/* A row whose process was replaced before the menu opened: refused at once. */
static void test_stale_row_refused(void **state)
{
	struct ui_target t = {.pidfd = -1};
	struct frame_proc row;
	pid_t pid = sleeper(&row);

	(void)state;
	row.start_ticks++;
	assert_int_equal(action_target_open(&t, NULL, &row), -ESRCH);
	assert_false(t.set);
	assert_int_equal(t.pidfd, -1);
	assert_int_equal(kill(pid, 0), 0);
	reap(pid);
}

static void test_gone_before_open(void **state)
{
	struct ui_target t = {.pidfd = -1};
	struct frame_proc row;
	pid_t pid = sleeper(&row);

	(void)state;
	reap(pid);
	assert_int_equal(action_target_open(&t, NULL, &row), -ESRCH);
	assert_int_equal(t.pidfd, -1);
}

/* Fork until a child gets PID want (ns_last_pid steers the next PID); 0 if
 * another process took it first every time. */
static pid_t fork_as(pid_t want)
{
	for (int tries = 0; tries < 200; tries++) {
		FILE *f = fopen("/proc/sys/kernel/ns_last_pid", "w");
		pid_t pid;

		if (!f)
			return 0;
		fprintf(f, "%d", want - 1);
		if (fclose(f) != 0)
			return 0;
		pid = fork();
		assert_true(pid >= 0);
		if (pid == 0) {
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			for (;;)
				pause();
		}
		if (pid == want)
			return pid;
		reap(pid);
	}
	return 0;
}

static void test_reused_pid_never_hit(void **state)
{
	struct ui_target t = {.pidfd = -1};
	struct frame_proc row;
	pid_t pid = sleeper(&row), other;
	int set = 99, before;

	(void)state;
	if (geteuid() != 0) {
		reap(pid);
		SKIP("making a PID be reused needs root (ns_last_pid)");
	}
	assert_int_equal(action_target_open(&t, NULL, &row), 0);
	reap(pid);
	other = fork_as(pid);
	if (!other) {
		action_target_close(&t);
		SKIP("PID %d could not be taken again (ns_last_pid not writable, or busy)", pid);
	}
	errno = 0;
	before = getpriority(PRIO_PROCESS, (id_t)other);
	assert_int_equal(errno, 0);
	assert_int_equal(action_signal(&t, NULL, SIGKILL), -ESRCH);
	assert_int_equal(action_renice(&t, NULL, false, 7, &set), -ESRCH);
	assert_int_equal(action_renice(&t, NULL, true, 1, &set), -ESRCH);
	assert_int_equal(set, 99);
	/* the newcomer with the old PID is untouched */
	assert_int_equal(kill(other, 0), 0);
	assert_int_equal(getpriority(PRIO_PROCESS, (id_t)other), before);
	action_target_close(&t);
	reap(other);
}

static void test_renice_steps_add_up(void **state)
{
	struct ui_target t = {.pidfd = -1};
	struct frame_proc row;
	pid_t pid;
	int set = 0, born;

	(void)state;
	/* the child is born with this process's nice value: the tests may run under nice(1) */
	errno = 0;
	born = getpriority(PRIO_PROCESS, 0);
	assert_int_equal(errno, 0);
	if (born > 16)
		SKIP("running at nice %d: no room for three steps", born);
	pid = sleeper(&row);
	assert_int_equal(action_target_open(&t, NULL, &row), 0);
	/* the row's nice stays what it was; the kernel's value moves */
	for (int i = 1; i <= 3; i++) {
		assert_int_equal(action_renice(&t, NULL, true, 1, &set), 0);
		assert_int_equal(set, born + i);
		assert_int_equal(getpriority(PRIO_PROCESS, (id_t)pid), born + i);
	}
	assert_int_equal(action_renice(&t, NULL, false, 19, &set), 0);
	assert_int_equal(action_renice(&t, NULL, true, 1, &set), 0);
	assert_int_equal(set, 19); /* clamped */
	action_target_close(&t);
	reap(pid);
}

/* A fixture root names another machine's processes: never signalled. */
static void test_fixture_root_never_signalled(void **state)
{
	struct ui_target t = {.pidfd = -1};
	struct frame_proc row;
	pid_t pid = sleeper(&row);

	(void)state;
	/* whatever the fixture holds, this PID's start time is not this child's */
	assert_int_not_equal(action_target_open(&t, FIXTURES "/shell/proc", &row), 0);
	assert_int_equal(t.pidfd, -1);
	assert_int_equal(kill(pid, 0), 0);
	reap(pid);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_signal_reaches_target),
	    cmocka_unit_test(test_stale_row_refused),
	    cmocka_unit_test(test_gone_before_open),
	    cmocka_unit_test(test_reused_pid_never_hit),
	    cmocka_unit_test(test_renice_steps_add_up),
	    cmocka_unit_test(test_fixture_root_never_signalled),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
