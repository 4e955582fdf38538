// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_control.c: src/control.c, the path every signal, renice and affinity
 * of the viewer takes. A target is fixed on a row (PID and start time); the
 * signal reaches that process through its /proc directory and no other: not
 * a process that took its PID after it ended (made here by writing
 * ns_last_pid as root), not one whose row was stale when the menu opened, not
 * one of a parent pid namespace whose /proc ptop sees. A relative renice
 * starts from the kernel's current value, so quick presses add up.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include <cmocka.h>

#include "ptop/control.h"
#include "ptop/frame.h"
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

static int open_row(struct proc_target *t, const char *root, const struct frame_proc *p)
{
	return control_open(t, root, p->pid, p->tgid, p->start_ticks, p->comm, p->comm_len);
}

static void test_signal_reaches_target(void **state)
{
	struct proc_target t = {.pidfd = -1};
	struct frame_proc row;
	pid_t pid = sleeper(&row);

	(void)state;
	assert_int_equal(open_row(&t, NULL, &row), 0);
	assert_true(t.set);
	assert_int_equal(t.pid, pid);
	assert_string_equal(t.name, "sleeper");
	assert_int_equal(control_signal(&t, SIGTERM), 0);
	assert_true(terminated_by(pid, SIGTERM));
	/* gone now: said, not done */
	assert_int_equal(control_signal(&t, SIGTERM), -ESRCH);
	control_close(&t);
	assert_int_equal(t.pidfd, -1);
}

/* A row whose process was replaced before the menu opened: refused at once. */
static void test_stale_row_refused(void **state)
{
	struct proc_target t = {.pidfd = -1};
	struct frame_proc row;
	pid_t pid = sleeper(&row);

	(void)state;
	row.start_ticks++;
	assert_int_equal(open_row(&t, NULL, &row), -ESRCH);
	assert_false(t.set);
	assert_int_equal(t.pidfd, -1);
	assert_int_equal(kill(pid, 0), 0);
	reap(pid);
}

static void test_gone_before_open(void **state)
{
	struct proc_target t = {.pidfd = -1};
	struct frame_proc row;
	pid_t pid = sleeper(&row);

	(void)state;
	reap(pid);
	assert_int_equal(open_row(&t, NULL, &row), -ESRCH);
	assert_int_equal(t.pidfd, -1);
}

/* A zombie (ended, not reaped by its parent yet) is gone: nothing is done to it. */
static void test_zombie_is_gone(void **state)
{
	struct proc_target t = {.pidfd = -1};
	struct frame_proc row;
	pid_t pid = sleeper(&row);
	siginfo_t info;
	int set = 0;

	(void)state;
	assert_int_equal(open_row(&t, NULL, &row), 0);
	assert_int_equal(kill(pid, SIGKILL), 0);
	/* ended, and left unreaped */
	assert_int_equal(waitid(P_PID, (id_t)pid, &info, WEXITED | WNOWAIT), 0);
	assert_int_equal(control_check(&t), -ESRCH);
	assert_int_equal(control_signal(&t, SIGTERM), -ESRCH);
	assert_int_equal(control_renice(&t, false, 5, &set), -ESRCH);
	assert_int_equal(control_before(&t), -ESRCH);
	control_close(&t);
	/* and a row of it is refused at once */
	assert_int_equal(open_row(&t, NULL, &row), -ESRCH);
	reap(pid);
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
	struct proc_target t = {.pidfd = -1};
	struct frame_proc row;
	pid_t pid = sleeper(&row), other;
	int set = 99, before;

	(void)state;
	if (geteuid() != 0) {
		reap(pid);
		SKIP("making a PID be reused needs root (ns_last_pid)");
	}
	assert_int_equal(open_row(&t, NULL, &row), 0);
	reap(pid);
	other = fork_as(pid);
	if (!other) {
		control_close(&t);
		SKIP("PID %d could not be taken again (ns_last_pid not writable, or busy)", pid);
	}
	errno = 0;
	before = getpriority(PRIO_PROCESS, (id_t)other);
	assert_int_equal(errno, 0);
	assert_int_equal(control_signal(&t, SIGKILL), -ESRCH);
	assert_int_equal(control_renice(&t, false, 7, &set), -ESRCH);
	assert_int_equal(control_renice(&t, true, 1, &set), -ESRCH);
	assert_int_equal(set, 99);
	/* the newcomer with the old PID is untouched */
	assert_int_equal(kill(other, 0), 0);
	assert_int_equal(getpriority(PRIO_PROCESS, (id_t)other), before);
	control_close(&t);
	reap(other);
}

static void test_renice_steps_add_up(void **state)
{
	struct proc_target t = {.pidfd = -1};
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
	assert_int_equal(open_row(&t, NULL, &row), 0);
	/* the row's nice stays what it was; the kernel's value moves */
	for (int i = 1; i <= 3; i++) {
		assert_int_equal(control_renice(&t, true, 1, &set), 0);
		assert_int_equal(set, born + i);
		assert_int_equal(getpriority(PRIO_PROCESS, (id_t)pid), born + i);
	}
	assert_int_equal(control_renice(&t, false, 19, &set), 0);
	assert_int_equal(control_renice(&t, true, 1, &set), 0);
	assert_int_equal(set, 19); /* clamped */
	control_close(&t);
	reap(pid);
}

/* A fixture root names another machine's processes: never signalled. */
static void test_fixture_root_never_signalled(void **state)
{
	struct proc_target t = {.pidfd = -1};
	struct frame_proc row;
	pid_t pid = sleeper(&row);

	(void)state;
	/* whatever the fixture holds, this PID's start time is not this child's */
	assert_int_not_equal(open_row(&t, FIXTURES "/shell/proc", &row), 0);
	assert_int_equal(t.pidfd, -1);
	assert_int_equal(kill(pid, 0), 0);
	reap(pid);
}

/* The child's verdict on a parent namespace's process, as an exit status. */
static int foreign_verdict(const struct frame_proc *row)
{
	struct proc_target t = {.pidfd = -1};
	cpu_set_t cpus;
	int set = 0;

	if (control_own_proc(NULL))
		return 10; /* /proc/self would not be this child's own PID */
	if (open_row(&t, NULL, row))
		return 11; /* the row is there: it is /proc's, and its start time matches */
	if (control_signal(&t, SIGKILL) != -EXDEV)
		return 12;
	if (control_renice(&t, false, 5, &set) != -EXDEV)
		return 13;
	CPU_ZERO(&cpus);
	CPU_SET(0, &cpus);
	if (control_affinity(&t, &cpus) != -EXDEV)
		return 14;
	control_close(&t);
	return 0;
}

/*
 * A pid namespace that sees its parent's /proc (unshare -p -f without
 * --mount-proc): a row's PID is another process's here. The signal is
 * refused by the kernel through the directory; renice and affinity, which
 * take PIDs, are refused by ptop.
 */
static void test_foreign_pid_namespace_refused(void **state)
{
	struct frame_proc row;
	pid_t pid = sleeper(&row), child;
	int status, born;

	(void)state;
	errno = 0;
	born = getpriority(PRIO_PROCESS, (id_t)pid);
	assert_int_equal(errno, 0);
	child = fork();
	assert_true(child >= 0);
	if (child == 0) {
		pid_t inner;

		if (unshare(CLONE_NEWPID) < 0)
			_exit(77);
		inner = fork(); /* the first child is PID 1 of the new namespace */
		if (inner < 0)
			_exit(20);
		if (inner == 0)
			_exit(foreign_verdict(&row));
		if (waitpid(inner, &status, 0) != inner || !WIFEXITED(status))
			_exit(21);
		_exit(WEXITSTATUS(status));
	}
	assert_int_equal(waitpid(child, &status, 0), child);
	assert_true(WIFEXITED(status));
	if (WEXITSTATUS(status) == 77) {
		reap(pid);
		SKIP("a new pid namespace needs CAP_SYS_ADMIN");
	}
	assert_int_equal(WEXITSTATUS(status), 0);
	/* nothing reached the process */
	assert_int_equal(kill(pid, 0), 0);
	assert_int_equal(getpriority(PRIO_PROCESS, (id_t)pid), born);
	reap(pid);
}

static void test_strerror_says_why(void **state)
{
	(void)state;
	assert_string_equal(control_strerror(-ESRCH), "it is gone");
	assert_non_null(strstr(control_strerror(-EXDEV), "pid namespace"));
	assert_non_null(strstr(control_strerror(CONTROL_RACED), "may have reached"));
	assert_string_equal(control_strerror(-EACCES), strerror(EACCES));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_signal_reaches_target),
	    cmocka_unit_test(test_stale_row_refused),
	    cmocka_unit_test(test_gone_before_open),
	    cmocka_unit_test(test_zombie_is_gone),
	    cmocka_unit_test(test_reused_pid_never_hit),
	    cmocka_unit_test(test_renice_steps_add_up),
	    cmocka_unit_test(test_fixture_root_never_signalled),
	    cmocka_unit_test(test_foreign_pid_namespace_refused),
	    cmocka_unit_test(test_strerror_says_why),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
