// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_counters.c: unit tests for src/perf/counters.c and src/perf/perffd.c
 * against the running kernel: event names resolved through libpfm4 to the
 * kernel's PERF_TYPE_* and PERF_COUNT_* values, the software fallback of a
 * counter set on a machine without a PMU (and the hardware path where one
 * exists), software counters on a busy and an idle child, the attach budget,
 * detaching (descriptors really closed, counted in /proc/self/fd), a gone
 * process dropped quietly, one read() of the leader returning the whole
 * group, perf_scale's arithmetic, a refused attach (EACCES/EPERM) as a
 * non-root user, and perf_fd_count. Each case that needs what this machine
 * lacks skip()s and says why.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "child.h"

#include <dirent.h>
#include <fcntl.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ptop/frame.h"
#include "ptop/output.h"
#include "ptop/perf.h"

enum child_kind { CHILD_IDLE, CHILD_BUSY };

/* How long a test waits for what the kernel counts, on a machine as loaded as it gets (ms). */
#define DEADLINE_MS 30000

/*
 * What a test holds, so that the teardown can release it when an assertion
 * ends the test early: a failed test must not leave descriptors or children
 * behind for the next one to count.
 */
static struct {
	struct perf_counters *sets[4];
	pid_t kids[16];
} held;

static void hold_kid(pid_t pid)
{
	for (size_t i = 0; i < sizeof(held.kids) / sizeof(held.kids[0]); i++) {
		if (!held.kids[i]) {
			held.kids[i] = pid;
			return;
		}
	}
	fail_msg("more children than the teardown can hold");
}

/* A counter set the teardown frees if the test does not. */
static struct perf_counters *new_set(const char *const *events, int n, unsigned budget)
{
	struct perf_counters *c = NULL;

	assert_int_equal(perf_counters_new(events, n, budget, &c, NULL), 0);
	for (size_t i = 0; i < sizeof(held.sets) / sizeof(held.sets[0]); i++) {
		if (!held.sets[i]) {
			held.sets[i] = c;
			return c;
		}
	}
	perf_counters_free(c);
	fail_msg("more counter sets than the teardown can hold");
	return NULL;
}

static void free_set(struct perf_counters *c)
{
	for (size_t i = 0; i < sizeof(held.sets) / sizeof(held.sets[0]); i++)
		if (held.sets[i] == c)
			held.sets[i] = NULL;
	perf_counters_free(c);
}

/*
 * After each test: free the sets and end the children it left (a failed
 * assertion skips its own cleanup), then close any perf_event descriptor
 * still open. One left by a test that released everything it held is a
 * leak: the teardown fails then.
 */
static int teardown(void **state)
{
	perf_set_open_fn(NULL); /* a test that injected errors and failed */
	perf_set_sysfs_root(NULL);
	bool released = true;
	int leaked;

	for (size_t i = 0; i < sizeof(held.sets) / sizeof(held.sets[0]); i++) {
		if (held.sets[i]) {
			perf_counters_free(held.sets[i]);
			held.sets[i] = NULL;
			released = false;
		}
	}
	for (size_t i = 0; i < sizeof(held.kids) / sizeof(held.kids[0]); i++) {
		/* a child not yet reaped is still ours: its pid cannot have been reused */
		if (held.kids[i] && waitpid(held.kids[i], NULL, WNOHANG) == 0)
			reap(held.kids[i]);
		held.kids[i] = 0;
	}
	leaked = perf_fd_count(NULL, getpid());
	if (leaked > 0) {
		DIR *d = opendir("/proc/self/fd");
		struct dirent *e;
		char link[64];

		while (d && (e = readdir(d))) {
			char path[300];
			ssize_t n;

			snprintf(path, sizeof(path), "/proc/self/fd/%s", e->d_name);
			n = readlink(path, link, sizeof(link) - 1);
			if (n > 0 && e->d_name[0] != '.' && atoi(e->d_name) != dirfd(d)) {
				link[n] = '\0';
				if (!strcmp(link, "anon_inode:[perf_event]"))
					close(atoi(e->d_name));
			}
		}
		if (d)
			closedir(d);
		if (released) {
			print_message("the test left %d perf_event descriptors open\n", leaked);
			return -1;
		}
	}
	return 0;
}

static void sleep_ms(long ms)
{
	struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = ms % 1000 * 1000000L};

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* Threads of pid now, from /proc/PID/task. */
static int count_threads(pid_t pid)
{
	char path[64];
	struct dirent *e;
	DIR *d;
	int n = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	if (!d)
		return -1;
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

/*
 * fork(); the child holds no descriptor of ours (perf_event ones least of
 * all), and alarm() ends it if the test dies first.
 */
static pid_t fork_child(void)
{
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0) {
		for (int fd = 3; fd < 1024; fd++)
			close(fd);
		alarm(DEADLINE_MS / 1000 * 2);
	}
	hold_kid(pid);
	return pid;
}

/*
 * A child that spins or sleeps until killed; alarm() ends it if the test
 * dies first. With nthreads, its main thread sleeps while nthreads threads
 * it started spin or sleep; it is returned once they all run, so they exist
 * before any counter is attached.
 */
static pid_t spawn_threads(int nthreads, enum child_kind kind)
{
	pid_t pid = fork_child();

	if (pid == 0) {
		for (int i = 0; i < nthreads; i++) {
			pthread_t t;

			if (pthread_create(&t, NULL,
					   kind == CHILD_BUSY ? spin_forever : sleep_forever, NULL))
				_exit(1);
		}
		if (!nthreads && kind == CHILD_BUSY)
			spin_forever(NULL);
		for (;;)
			pause();
	}
	for (int i = 0; i < 400 && count_threads(pid) != nthreads + 1; i++)
		sleep_ms(5);
	assert_int_equal(count_threads(pid), nthreads + 1);
	return pid;
}

static pid_t spawn(enum child_kind kind)
{
	return spawn_threads(0, kind);
}

/* The time a task (a thread id) has run on a CPU (ns), from /proc/TID/schedstat; -1 without it. */
static int64_t task_ns(pid_t tid)
{
	return schedstat_ns(tid);
}

/* The time all of pid's threads have run (ns), summed over /proc/PID/task/TID/schedstat. */
static int64_t proc_ns(pid_t pid)
{
	char path[64];
	struct dirent *e;
	int64_t sum = 0;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	assert_non_null(d);
	while ((e = readdir(d))) {
		char stat[300];
		long long ns;
		FILE *f;

		if (e->d_name[0] == '.')
			continue;
		snprintf(stat, sizeof(stat), "/proc/%d/task/%s/schedstat", (int)pid, e->d_name);
		f = fopen(stat, "r");
		if (!f)
			continue; /* a thread that ended meanwhile */
		if (fscanf(f, "%lld", &ns) == 1)
			sum += ns;
		fclose(f);
	}
	closedir(d);
	return sum;
}

/*
 * Wait until run() says the task has run ns more than from, however long
 * the CPUs are crowded (up to DEADLINE_MS); the test fails past that.
 * Returns what run() says then.
 */
static int64_t wait_run(int64_t (*run)(pid_t), pid_t pid, int64_t from, int64_t ns)
{
	int64_t now = run(pid);

	for (int waited = 0; now - from < ns; waited += 10) {
		if (waited >= DEADLINE_MS)
			fail_msg("pid %d ran %.0f ms in %d s, %.0f ms wanted", (int)pid,
				 (double)(now - from) / 1e6, DEADLINE_MS / 1000, (double)ns / 1e6);
		sleep_ms(10);
		now = run(pid);
	}
	return now;
}

static int event_index(const struct perf_counters_info *info, const char *name)
{
	for (int i = 0; i < info->nevents; i++)
		if (!strcmp(info->names[i], name))
			return i;
	fail_msg("no event '%s' in the set", name);
	return -1;
}

/* Does this machine count hardware events? The same probe the counter set makes. */
static int hardware_probe(void)
{
	struct perf_event_spec ev;
	struct perf_group g;
	int err = perf_event_resolve("instructions", &ev);

	if (err)
		return err;
	err = perf_group_open(&g, 0, &ev, 1);
	if (!err)
		perf_group_close(&g);
	return err;
}

/* Root, or perf_event_paranoid below 2: events may count in kernel context. */
static bool kernel_counting_allowed(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	int level = 2;

	if (f) {
		if (fscanf(f, "%d", &level) != 1)
			level = 2;
		fclose(f);
	}
	return geteuid() == 0 || level < 2;
}

static void resolves_to(const char *name, uint32_t type, uint64_t config)
{
	struct perf_event_spec ev;

	assert_int_equal(perf_event_resolve(name, &ev), 0);
	assert_string_equal(ev.name, name);
	assert_int_equal(ev.attr.type, type);
	assert_int_equal(ev.attr.config, config);
	assert_int_equal(ev.hardware, type != PERF_TYPE_SOFTWARE);
}

static void test_resolve(void **state)
{
	struct perf_event_spec ev;
	char long_name[PERF_NAME_MAX + 8];

	assert_int_equal(perf_init(), 0);
	resolves_to("cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);
	resolves_to("instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	resolves_to("cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES);
	resolves_to("branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES);
	resolves_to("task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK);
	resolves_to("context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES);
	resolves_to("cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS);
	resolves_to("page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS);

	assert_int_equal(perf_event_resolve("no-such-event-anywhere", &ev), -ENOENT);
	memset(long_name, 'c', sizeof(long_name) - 1);
	long_name[sizeof(long_name) - 1] = '\0';
	assert_int_equal(perf_event_resolve(long_name, &ev), -ENOENT);
}

static void test_new_unknown_event(void **state)
{
	const char *events[] = {"task-clock", "bogus-event"};
	struct perf_counters *c = (struct perf_counters *)1;
	const char *bad = NULL;

	assert_int_equal(perf_counters_new(events, 2, 4, &c, &bad), -ENOENT);
	assert_non_null(bad);
	assert_string_equal(bad, "bogus-event");
}

static void test_software_asked_for(void **state)
{
	struct perf_counters_info info;
	struct perf_counters *c;

	c = new_set(perf_software_events, 4, 4);
	perf_counters_info(c, &info);
	assert_int_equal(info.nevents, 4);
	assert_false(info.hardware);
	assert_null(info.why_software); /* asked for, not a fallback */
	for (int i = 0; i < 4; i++)
		assert_string_equal(info.names[i], perf_software_events[i]);
	assert_int_equal(info.attached, 0);
	free_set(c);
}

static void test_default_falls_back(void **state)
{
	struct perf_counters_info info;
	struct perf_counters *c;
	int probe = hardware_probe();

	if (probe == 0)
		SKIP(
		    "hardware events open here (a PMU exists): the software fallback is not taken");
	c = new_set(NULL, 0, 4);
	perf_counters_info(c, &info);
	assert_false(info.hardware);
	assert_non_null(info.why_software);
	assert_true(strlen(info.why_software) > 0);
	if (probe == -ENOENT || probe == -ENODEV || probe == -EOPNOTSUPP)
		assert_string_equal(info.why_software, "no hardware PMU");
	else if (probe == -EACCES || probe == -EPERM)
		assert_non_null(strstr(info.why_software, "perf_event_paranoid"));
	assert_int_equal(info.nevents, 4);
	for (int i = 0; i < 4; i++)
		assert_string_equal(info.names[i], perf_software_events[i]);
	free_set(c);
}

static void test_hardware_counts(void **state)
{
	struct perf_counters_info info;
	const struct perf_proc *g;
	struct perf_counters *c;
	int probe = hardware_probe();
	pid_t busy;
	int ins;

	if (probe)
		SKIP("hardware events do not open here (%s): no PMU to test", strerror(-probe));
	c = new_set(NULL, 0, 4);
	perf_counters_info(c, &info);
	assert_true(info.hardware);
	assert_null(info.why_software);
	assert_int_equal(info.nevents, 4);
	for (int i = 0; i < 4; i++)
		assert_string_equal(info.names[i], perf_hardware_events[i]);

	busy = spawn(CHILD_BUSY);
	perf_counters_update(c, &busy, 1);
	wait_run(task_ns, busy, task_ns(busy), 100000000);
	perf_counters_update(c, &busy, 1);
	g = perf_counters_get(c, busy);
	assert_non_null(g);
	ins = event_index(&info, "instructions");
	assert_true(g->delta[ins] > 1e6);
	assert_true(g->delta[event_index(&info, "cycles")] > 1e6);
	assert_true(g->scale > 0 && g->scale <= 1.0);
	reap(busy);
	free_set(c);
}

static void test_busy_and_idle(void **state)
{
	struct perf_counters_info info;
	const struct perf_proc *gb, *gi;
	struct perf_counters *c;
	pid_t pids[2];
	double t0, elapsed_ns;
	int64_t before, start, stop, after;
	int tc;

	pids[0] = spawn(CHILD_BUSY);
	pids[1] = spawn(CHILD_IDLE);
	c = new_set(perf_software_events, 4, 4);
	before = schedstat_ns(pids[0]);
	perf_counters_update(c, pids, 2);
	start = schedstat_ns(pids[0]);
	t0 = clock_mono();
	/* until the child has run 150 ms, however long other work crowds the CPUs */
	stop = wait_run(task_ns, pids[0], start, 150000000);
	perf_counters_update(c, pids, 2);
	after = schedstat_ns(pids[0]);
	elapsed_ns = (clock_mono() - t0) * 1e9;
	perf_counters_info(c, &info);
	assert_int_equal(info.attached, 2);
	assert_int_equal(info.not_attached, 0);
	assert_int_equal(info.last_error, 0);
	tc = event_index(&info, "task-clock");

	gb = perf_counters_get(c, pids[0]);
	gi = perf_counters_get(c, pids[1]);
	assert_non_null(gb);
	assert_non_null(gi);
	assert_int_equal(gb->pid, pids[0]);
	assert_int_equal(gb->n, 4);
	/* one thread cannot run longer than the wall clock */
	assert_true(gb->delta[tc] < elapsed_ns * 1.05 + 5e6);
	/* and the scheduler agrees, within its lazy accounting (a tick or two) */
	assert_true(gb->delta[tc] > (double)(stop - start) - 20e6);
	assert_true(gb->delta[tc] < (double)(after - before) + 20e6);
	assert_float_equal(gb->scale, 1.0, 1e-9);
	assert_true(gi->delta[tc] < 10e6);
	assert_true(gi->delta[tc] < gb->delta[tc] / 10);
	assert_float_equal(gi->scale, 1.0, 1e-9);

	reap(pids[0]);
	reap(pids[1]);
	free_set(c);
}

/*
 * Threads that were running before the counters were attached count: the
 * main thread sleeps, two threads it started spin, and the process's
 * task-clock is theirs. One group per thread: 3 x 4 descriptors.
 */
static void test_threads_before_attach(void **state)
{
	struct perf_counters_info info;
	const struct perf_proc *g;
	struct perf_counters *c;
	pid_t pid = spawn_threads(2, CHILD_BUSY);
	int before = count_fds(), tc;
	int64_t t0, t1, t2;

	c = new_set(perf_software_events, 4, 4);
	t0 = proc_ns(pid);
	perf_counters_update(c, &pid, 1);
	t1 = proc_ns(pid);
	assert_int_equal(count_fds() - before, 3 * 4);
	wait_run(proc_ns, pid, t1, 200000000);
	perf_counters_update(c, &pid, 1);
	t2 = proc_ns(pid);
	perf_counters_info(c, &info);
	assert_int_equal(info.attached, 1);
	assert_int_equal(info.partial, 0);
	tc = event_index(&info, "task-clock");
	g = perf_counters_get(c, pid);
	assert_non_null(g);
	assert_int_equal(g->nthreads, 3);
	assert_false(g->partial);
	assert_true(g->have_prev);
	print_message("task-clock of 2 spinning threads: %.0f ms, scheduler %.0f..%.0f ms\n",
		      g->delta[tc] / 1e6, (double)(t2 - t1) / 1e6, (double)(t2 - t0) / 1e6);
	/* The main thread alone would read about 0; the threads ran 200 ms and more. */
	assert_true(g->delta[tc] > 150e6);
	assert_true(g->delta[tc] < (double)(t2 - t0) + 20e6);
	reap(pid);
	free_set(c);
	assert_int_equal(count_fds(), before);
}

/*
 * A process whose main thread has exited (pthread_exit) while another
 * thread spins: the main thread is a zombie and cannot be attached, the
 * process still is, through the thread that runs.
 */
static void test_main_thread_exited(void **state)
{
	struct perf_counters_info info;
	struct perf_counters *c;
	const struct perf_proc *g;
	pid_t pid = fork_child();
	int tc;

	if (pid == 0) {
		pthread_t t;

		if (pthread_create(&t, NULL, spin_forever, NULL))
			_exit(1);
		pthread_exit(NULL);
	}
	for (int i = 0; i < 400 && state_of(pid) != 'Z'; i++)
		sleep_ms(5);
	assert_int_equal(state_of(pid), 'Z');
	c = new_set(perf_software_events, 4, 4);
	perf_counters_update(c, &pid, 1);
	wait_run(proc_ns, pid, proc_ns(pid), 100000000);
	perf_counters_update(c, &pid, 1);
	perf_counters_info(c, &info);
	tc = event_index(&info, "task-clock");
	assert_int_equal(info.attached, 1);
	g = perf_counters_get(c, pid);
	assert_non_null(g);
	assert_int_equal(g->nthreads, 1);
	print_message("task-clock with the main thread gone: %.0f ms\n", g->delta[tc] / 1e6);
	assert_true(g->delta[tc] > 50e6);
	reap(pid);
	free_set(c);
}

/* Threads with a row each (top's H): a group per thread, its own counts only. */
static void test_per_thread(void **state)
{
	struct perf_counters_info info;
	struct perf_counters *c;
	pid_t pid = spawn_threads(2, CHILD_BUSY);
	int before = count_fds(), tc, tids[2] = {pid, 0};
	char path[64];
	DIR *d;
	struct dirent *e;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	assert_non_null(d);
	while ((e = readdir(d)))
		if (atoi(e->d_name) > 0 && atoi(e->d_name) != pid)
			tids[1] = atoi(e->d_name);
	closedir(d);
	assert_true(tids[1] > 0);

	c = new_set(perf_software_events, 4, 4);
	/* per process first: the main thread's pid brings every thread */
	perf_counters_update(c, &pid, 1);
	assert_int_equal(perf_counters_get(c, pid)->nthreads, 3);
	/* per thread: switching detaches, then one group per row */
	perf_counters_per_thread(c, true);
	assert_int_equal(count_fds(), before);
	perf_counters_update(c, tids, 2);
	assert_int_equal(count_fds() - before, 2 * 4);
	wait_run(task_ns, tids[1], task_ns(tids[1]), 100000000);
	perf_counters_update(c, tids, 2);
	perf_counters_info(c, &info);
	tc = event_index(&info, "task-clock");
	assert_int_equal(perf_counters_get(c, tids[0])->nthreads, 1);
	assert_int_equal(perf_counters_get(c, tids[1])->nthreads, 1);
	print_message("task-clock: main thread %.1f ms, spinning thread %.1f ms\n",
		      perf_counters_get(c, tids[0])->delta[tc] / 1e6,
		      perf_counters_get(c, tids[1])->delta[tc] / 1e6);
	/* the main thread sleeps; the other spins */
	assert_true(perf_counters_get(c, tids[0])->delta[tc] < 20e6);
	assert_true(perf_counters_get(c, tids[1])->delta[tc] > 50e6);
	reap(pid);

	/*
	 * A thread created after attaching is not counted by its creator's row
	 * (it gets a row of its own): the main thread starts a spinner 100 ms
	 * after the group was opened on it.
	 */
	pid = fork_child();
	if (pid == 0) {
		pthread_t t;

		sleep_ms(100);
		if (pthread_create(&t, NULL, spin_forever, NULL))
			_exit(1);
		for (;;)
			pause();
	}
	perf_counters_update(c, &pid, 1);
	{
		int64_t from = proc_ns(pid);

		for (int i = 0; i < DEADLINE_MS / 10 && count_threads(pid) != 2; i++)
			sleep_ms(10);
		assert_int_equal(count_threads(pid), 2);
		wait_run(proc_ns, pid, from, 100000000);
	}
	perf_counters_update(c, &pid, 1);
	print_message("main thread's row while its new thread spun: %.1f ms\n",
		      perf_counters_get(c, pid)->delta[tc] / 1e6);
	assert_true(perf_counters_get(c, pid)->delta[tc] < 20e6);
	reap(pid);
	free_set(c);
	assert_int_equal(count_fds(), before);
}

/*
 * The limits: a process gets PERF_THREADS_MAX groups at most, and the set
 * PERF_FDS_MAX descriptors; a process past either keeps its main thread's
 * group (it is still attached) and is counted as partial.
 */
static void test_thread_limits(void **state)
{
	enum { N = 3 };
	const int groups = PERF_FDS_MAX / 4, each = groups / 2 - 3;
	struct perf_counters_info info;
	struct perf_counters *c;
	pid_t pids[N + 1];
	int before = count_fds();

	_Static_assert(PERF_FDS_MAX / 4 / 2 - 3 < PERF_THREADS_MAX, "each fits one process");
	for (int i = 0; i < N; i++)
		pids[i] = spawn_threads(each - 1, CHILD_IDLE);
	pids[N] = spawn_threads(PERF_THREADS_MAX + 2, CHILD_IDLE);
	c = new_set(perf_software_events, 4, 8);

	/* One process over PERF_THREADS_MAX: it gets that many groups. */
	perf_counters_update(c, &pids[N], 1);
	assert_int_equal(perf_counters_get(c, pids[N])->nthreads, PERF_THREADS_MAX);
	assert_true(perf_counters_get(c, pids[N])->partial);
	perf_counters_info(c, &info);
	assert_int_equal(info.partial, 1);

	/* Three under it: two fit the descriptor cap whole, the third gets what is left. */
	perf_counters_update(c, pids, N);
	perf_counters_info(c, &info);
	assert_int_equal(info.attached, N);
	assert_int_equal(info.partial, 1);
	assert_int_equal(perf_counters_get(c, pids[0])->nthreads, each);
	assert_int_equal(perf_counters_get(c, pids[1])->nthreads, each);
	assert_false(perf_counters_get(c, pids[1])->partial);
	assert_int_equal(perf_counters_get(c, pids[2])->nthreads, groups - 2 * each);
	assert_true(perf_counters_get(c, pids[2])->partial);
	assert_true(count_fds() - before <= PERF_FDS_MAX);

	/* The cap reached, one more process is not attached, and says why. */
	{
		pid_t more[N + 1] = {pids[0], pids[1], pids[2], spawn(CHILD_IDLE)};

		perf_counters_update(c, more, N + 1);
		perf_counters_info(c, &info);
		assert_int_equal(info.attached, N);
		assert_int_equal(info.not_attached, 1);
		assert_int_equal(info.last_error, -EMFILE);
		assert_null(perf_counters_get(c, more[N]));
		assert_true(count_fds() - before <= PERF_FDS_MAX);

		/*
		 * The same process first in priority order is attached: the cap
		 * goes in that order, so the last one, not the new one, gives up
		 * groups (its main thread's stays).
		 */
		pid_t first[N + 1] = {more[N], pids[0], pids[1], pids[2]};

		perf_counters_update(c, first, N + 1);
		perf_counters_info(c, &info);
		assert_int_equal(info.attached, N + 1);
		assert_int_equal(info.not_attached, 0);
		assert_non_null(perf_counters_get(c, more[N]));
		assert_int_equal(perf_counters_get(c, pids[0])->nthreads, each);
		assert_int_equal(perf_counters_get(c, pids[1])->nthreads, each);
		assert_int_equal(perf_counters_get(c, pids[2])->nthreads, groups - 2 * each - 1);
		assert_true(perf_counters_get(c, pids[2])->partial);
		assert_true(count_fds() - before <= PERF_FDS_MAX);
		reap(more[N]);
	}

	perf_counters_update(c, NULL, 0);
	assert_int_equal(count_fds(), before);
	for (int i = 0; i <= N; i++)
		reap(pids[i]);
	free_set(c);
}

static void test_budget(void **state)
{
	struct perf_counters_info info;
	struct perf_counters *c;
	pid_t pids[4];

	for (int i = 0; i < 4; i++)
		pids[i] = spawn(CHILD_IDLE);
	c = new_set(perf_software_events, 4, 2);
	perf_counters_update(c, pids, 4);
	perf_counters_info(c, &info);
	assert_int_equal(info.attached, 2);
	assert_int_equal(info.not_attached, 2);
	assert_int_equal(info.last_error, 0);
	/* the first in priority order get the counters */
	assert_non_null(perf_counters_get(c, pids[0]));
	assert_non_null(perf_counters_get(c, pids[1]));
	assert_null(perf_counters_get(c, pids[2]));
	assert_null(perf_counters_get(c, pids[3]));

	/* a new priority order moves the budget */
	perf_counters_update(c, pids + 2, 2);
	perf_counters_info(c, &info);
	assert_int_equal(info.attached, 2);
	assert_int_equal(info.not_attached, 0);
	assert_null(perf_counters_get(c, pids[0]));
	assert_non_null(perf_counters_get(c, pids[2]));
	assert_non_null(perf_counters_get(c, pids[3]));

	for (int i = 0; i < 4; i++)
		reap(pids[i]);
	free_set(c);
}

static void test_detach_closes(void **state)
{
	struct perf_counters_info info;
	struct perf_counters *c;
	pid_t pids[2];
	int before, attached_fds;

	pids[0] = spawn(CHILD_IDLE);
	pids[1] = spawn(CHILD_IDLE);
	before = count_fds();
	c = new_set(perf_software_events, 4, 8);
	perf_counters_update(c, pids, 2);
	attached_fds = count_fds();
	assert_int_equal(attached_fds - before, 2 * 4);

	perf_counters_update(c, pids, 1);
	perf_counters_info(c, &info);
	assert_int_equal(info.attached, 1);
	assert_non_null(perf_counters_get(c, pids[0]));
	assert_null(perf_counters_get(c, pids[1]));
	assert_int_equal(attached_fds - count_fds(), 4);
	/* the kept group is the same one: its descriptors were not reopened */
	assert_true(perf_counters_get(c, pids[0])->have_prev);

	perf_counters_update(c, NULL, 0);
	perf_counters_info(c, &info);
	assert_int_equal(info.attached, 0);
	assert_int_equal(count_fds(), before);

	free_set(c);
	assert_int_equal(count_fds(), before);
	reap(pids[0]);
	reap(pids[1]);
}

static void test_gone_dropped(void **state)
{
	struct perf_counters_info info;
	struct perf_counters *c;
	pid_t pids[2];

	pids[0] = gone_pid();
	pids[1] = spawn(CHILD_IDLE);
	c = new_set(perf_software_events, 4, 8);
	perf_counters_update(c, pids, 2);
	perf_counters_info(c, &info);
	assert_int_equal(info.attached, 1);
	assert_int_equal(info.not_attached, 0);
	assert_int_equal(info.last_error, 0);
	assert_null(perf_counters_get(c, pids[0]));
	assert_non_null(perf_counters_get(c, pids[1]));
	reap(pids[1]);
	free_set(c);
}

static void test_group_one_read(void **state)
{
	struct perf_event_spec ev[4];
	struct perf_group g;
	uint64_t buf[3 + PERF_GROUP_MAX];
	int members[3];
	size_t pages = 64, psz = (size_t)sysconf(_SC_PAGESIZE);
	uint64_t first;
	char *mem;
	ssize_t n;

	for (int i = 0; i < 4; i++)
		assert_int_equal(perf_event_resolve(perf_software_events[i], &ev[i]), 0);
	assert_int_equal(perf_group_open(&g, 0, ev, 4), 0);
	assert_int_equal(g.n, 4);
	for (int i = 0; i < 4; i++)
		assert_true(g.fd[i] >= 0);

	/* work each event can see: CPU time, a sleep, fresh pages */
	for (volatile int i = 0; i < 1000000; i++)
		;
	/* several sleeps: the kernel does not count the first switch after the group opens */
	for (int i = 0; i < 5; i++)
		sleep_ms(2);
	mem = mmap(NULL, pages * psz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(mem != MAP_FAILED);
	for (size_t i = 0; i < pages; i++)
		mem[i * psz] = 1;
	munmap(mem, pages * psz);

	/* The leader alone answers for the group: hide the members' descriptors. */
	for (int i = 0; i < 3; i++) {
		members[i] = g.fd[i + 1];
		g.fd[i + 1] = -1;
	}
	assert_int_equal(perf_group_read(&g), 0);
	for (int i = 0; i < 3; i++)
		g.fd[i + 1] = members[i];
	assert_true(g.have_prev);
	assert_true(g.enabled > 0);
	assert_int_equal(g.running, g.enabled);
	assert_float_equal(g.scale, 1.0, 1e-9);
	assert_true(g.raw[0] > 1000); /* task-clock, ns */
	/* context-switches: the sleeps; counted in kernel context, so only where that is allowed */
	if (kernel_counting_allowed())
		assert_true(g.raw[1] >= 1);
	else
		assert_int_equal(g.raw[1], 0);
	assert_true(g.raw[3] >= pages); /* page-faults */
	assert_float_equal(g.delta[3], (double)g.raw[3], 0);

	/* and the raw layout is what perf_group_read decodes: nr, enabled, running, values */
	n = read(g.fd[0], buf, sizeof(buf));
	assert_int_equal(n, (ssize_t)(sizeof(uint64_t) * (3 + 4)));
	assert_int_equal(buf[0], 4);
	assert_true(buf[1] >= g.enabled);
	assert_true(buf[6] >= g.raw[3]);

	/* a second read gives deltas since the first (not scaled: running == enabled) */
	first = g.raw[0];
	for (volatile int i = 0; i < 1000000; i++)
		;
	assert_int_equal(perf_group_read(&g), 0);
	assert_true(g.raw[0] > first);
	assert_float_equal(g.delta[0], (double)(g.raw[0] - first), 0);

	perf_group_close(&g);
	assert_int_equal(g.n, 0);
	assert_int_equal(perf_group_read(&g), -EBADF);
}

static void test_group_open_bad(void **state)
{
	struct perf_event_spec ev[PERF_GROUP_MAX + 1];
	struct perf_group g;

	for (int i = 0; i <= PERF_GROUP_MAX; i++)
		assert_int_equal(perf_event_resolve("task-clock", &ev[i]), 0);
	assert_int_equal(perf_group_open(&g, 0, ev, 0), -EINVAL);
	assert_int_equal(perf_group_open(&g, 0, ev, PERF_GROUP_MAX + 1), -EINVAL);
	assert_int_equal(perf_group_open(&g, gone_pid(), ev, 2), -ESRCH);
	assert_int_equal(g.n, 0);
}

static void test_scale(void **state)
{
	assert_float_equal(perf_scale(100, 1000, 1000), 100.0, 0);
	assert_float_equal(perf_scale(100, 1000, 500), 200.0, 1e-9);
	assert_float_equal(perf_scale(100, 1000, 250), 400.0, 1e-9);
	assert_float_equal(perf_scale(3, 10, 7), 3.0 * 10 / 7, 1e-9);
	assert_float_equal(perf_scale(100, 1000, 0), 0.0, 0);
	assert_float_equal(perf_scale(0, 1000, 500), 0.0, 0);
	/* running never exceeds enabled; if a kernel says so, do not scale down */
	assert_float_equal(perf_scale(100, 500, 1000), 100.0, 0);
}

/*
 * A frame of n records for pids, holding 0xff bytes wherever the sampler
 * leaves a field to the observer (it reuses its slots); rows point at them.
 */
static void fake_frame(struct frame *f, const struct frame_proc **rows, const pid_t *pids, size_t n)
{
	memset(f, 0, sizeof(*f));
	f->procs = xcalloc(n, sizeof(*f->procs));
	memset(f->procs, 0xff, n * sizeof(*f->procs));
	f->nprocs = f->cap = n;
	frame_sides_begin(f, true);
	for (size_t i = 0; i < n; i++) {
		struct frame_proc *p = &f->procs[i];

		memset(frame_side_add(f, p), 0xff, sizeof(*p->side));
		p->pid = p->tgid = pids[i];
		p->has_ctr = false;
		p->perf_fds = -1;
		p->user = "me";
		/* the sampler's, as it leaves them without io and cgroup asked for */
		p->cgroup = p->container = NULL;
		p->has_io = false;
		p->has_cmd = false;
		/* stat gives the faults always; job control and statm's segments when asked */
		p->side->has_flt = true;
		p->side->has_job = false;
		p->side->has_seg = false;
		/* the flags of the members read on request, and the deltas', as the sampler and the
		 * deltas leave them unasked; the counting mark, which the sampler clears */
		p->side->has_gid = p->side->has_rsssh = p->side->has_tflags = p->side->has_numa =
		    p->side->has_loginuid = false;
		p->side->has_dflt = p->side->has_dctx = p->side->has_cpud = p->side->has_iod =
		    p->side->has_swapd = false;
		p->side->has_rollup = p->side->has_pss_split = p->side->has_io_ops =
		    p->side->has_dirty = p->side->has_lib = false;
		p->ctr_counting = false;
		/* the sampler's too (frame_grow): a live process, nothing accounted yet */
		p->exited = false;
		p->child_ticks = 0;
		p->child_pct = 0;
		p->comm_len = 4;
		memcpy(p->comm, "proc", 4);
		rows[i] = p;
	}
}

/*
 * In the unprivileged child: an observer attaching to PID 1 (refused with
 * err) and the text output's Counters section, which must say why. 0 or the
 * failed check's number.
 */
static int refusal_said(int err)
{
	struct observer_opts o = {
	    .counters = true, .events = perf_software_events, .nevents = 4, .budget = 4};
	const struct frame_proc *rows[1];
	pid_t one = 1;
	struct observer *ob;
	struct sbuf b = {0};
	struct frame f;
	char want[128];
	const char *out;
	int level, ret = 0;

	if (observer_new(&o, &ob, NULL))
		return 20;
	fake_frame(&f, rows, &one, 1);
	observer_begin(ob);
	observer_update(ob, &f, rows, 1);
	if (f.counters.refused != 1 || f.counters.refused_error != err)
		ret = 21;
	output_text_frame(&b, &f, NULL, rows, 1, true);
	out = sbuf_cstr(&b);
	snprintf(want, sizeof(want), "counters: not attached to 1 process: %s", strerror(-err));
	if (!ret && !strstr(out, want))
		ret = 22;
	if (!ret && perf_paranoid(NULL, &level) == 0) {
		snprintf(want, sizeof(want), "(perf_event_paranoid=%d)\n", level);
		if (!strstr(out, want))
			ret = 23;
	}
	if (ret)
		fprintf(stderr, "%s", out);
	observer_free(ob);
	sbuf_free(&b);
	free(f.procs);
	frame_sides_free(&f);
	return ret;
}

/* In a child made an unprivileged user: attach to PID 1 and report what happened. */
static int refused_as_user(void)
{
	struct perf_counters_info info;
	struct perf_event_spec ev;
	struct perf_counters *c;
	struct perf_group g;
	pid_t one = 1;
	int err;

	if (getuid() == 0 && (setgid(65534) || setuid(65534)))
		return 10;
	if (perf_event_resolve("task-clock", &ev))
		return 11;
	err = perf_group_open(&g, 1, &ev, 1);
	if (err != -EACCES && err != -EPERM)
		return 12;
	if (perf_counters_new(perf_software_events, 4, 4, &c, NULL))
		return 13;
	perf_counters_update(c, &one, 1);
	perf_counters_info(c, &info);
	if (info.attached != 0 || info.not_attached != 1 || info.last_error != err)
		return 14;
	if (info.refused != 1 || info.refused_error != err)
		return 15;
	free_set(c);
	return refusal_said(err);
}

static void test_refused(void **state)
{
	int status;
	pid_t pid;

	/*
	 * As root, the check runs in a child that gives up root first; where it
	 * cannot (no CAP_SETUID in this container) there is nobody to be refused.
	 */
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(refused_as_user());
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	if (WEXITSTATUS(status) == 10)
		SKIP("running as root and cannot become another user: no refusal to observe");
	if (WEXITSTATUS(status) == 12)
		SKIP("an unprivileged user may count PID 1 here: no refusal to observe");
	assert_int_equal(WEXITSTATUS(status), 0);
}

static void test_perf_fd_count(void **state)
{
	struct perf_event_spec ev;
	struct perf_group g[3];
	int n = perf_fd_count(NULL, getpid());
	pid_t child = spawn(CHILD_IDLE); /* before our events: it inherits none */

	/* counted before and after within this test: what others hold does not matter */
	assert_true(n >= 0);
	assert_int_equal(perf_event_resolve("task-clock", &ev), 0);
	for (int i = 0; i < 3; i++)
		assert_int_equal(perf_group_open(&g[i], 0, &ev, 1), 0);
	assert_int_equal(perf_fd_count(NULL, getpid()), n + 3);
	assert_int_equal(perf_fd_count(NULL, child), 0);
	for (int i = 0; i < 3; i++)
		perf_group_close(&g[i]);
	assert_int_equal(perf_fd_count(NULL, getpid()), n);
	reap(child);
	assert_int_equal(perf_fd_count(NULL, child), -ESRCH);
	assert_int_equal(perf_fd_count(FIXTURES "/no-such-root", 1), -ESRCH);
}

/*
 * A frame whose records hold garbage where the observer fills them in (the
 * sampler reuses its slots): ptop's own row must come out with every
 * counter field set, not partial because of what the slot held before.
 */
static void test_own_row_fields_set(void **state)
{
	struct observer_opts o = {
	    .counters = true, .events = perf_software_events, .nevents = 4, .budget = 4};
	const struct frame_proc *rows[1];
	struct observer *ob;
	struct frame f;
	struct sbuf b = {0};
	pid_t self = getpid();

	fake_frame(&f, rows, &self, 1);
	assert_int_equal(observer_new(&o, &ob, NULL), 0);
	for (int i = 0; i < 2; i++) {
		observer_begin(ob);
		observer_update(ob, &f, rows, 1);
	}
	assert_true(f.procs[0].has_ctr);
	/* the byte itself: a bool holding 0xff may test false */
	assert_int_equal(*(const unsigned char *)&f.procs[0].ctr_partial, 0);
	output_json_frame(&b, &f, NULL, rows, 1, true);
	assert_null(strstr(sbuf_cstr(&b), "\"partial\":true"));
	observer_free(ob);
	sbuf_free(&b);
	free(f.procs);
	frame_sides_free(&f);
}

/*
 * The child of an attached process after fork() has a row of its own: the
 * parent's counters must not count it too (inherit without inherit_thread
 * copies them into every child). The attached process starts, once told
 * through a pipe, a thread and a forked child that both spin: the thread
 * counts for it, the child does not.
 */
static void fork_and_thread(int go, int report)
{
	pthread_t t;
	pid_t gc;
	char b;

	if (read(go, &b, 1) != 1)
		_exit(1);
	gc = fork();
	if (gc == 0) {
		alarm(DEADLINE_MS / 1000 * 2);
		spin_forever(NULL);
	}
	if (gc < 0 || pthread_create(&t, NULL, spin_forever, NULL) ||
	    write(report, &gc, sizeof(gc)) != sizeof(gc))
		_exit(1);
	for (;;)
		pause();
}

static void test_fork_not_inherited(void **state)
{
	struct perf_counters_info info;
	struct perf_counters *c;
	const struct perf_proc *g;
	int go[2], report[2], tc;
	pid_t pid, gc = 0;
	int64_t from_gc, from_pid, to_pid;

	assert_int_equal(pipe(go), 0);
	assert_int_equal(pipe(report), 0);
	/* not fork_child(): the child keeps the pipes (and holds no perf_event descriptor yet) */
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		alarm(DEADLINE_MS / 1000 * 2);
		fork_and_thread(go[0], report[1]);
	}
	hold_kid(pid);
	close(go[0]);
	close(report[1]);
	c = new_set(perf_software_events, 4, 4);
	perf_counters_update(c, &pid, 1);
	from_pid = proc_ns(pid);
	assert_int_equal(write(go[1], "g", 1), 1);
	assert_int_equal(read(report[0], &gc, sizeof(gc)), (ssize_t)sizeof(gc));
	close(go[1]);
	close(report[0]);
	from_gc = 0;
	/* both ran 200 ms since attaching: the thread in pid, the child in gc */
	wait_run(task_ns, gc, from_gc, 200000000);
	wait_run(proc_ns, pid, from_pid, 200000000);
	perf_counters_update(c, &pid, 1);
	to_pid = proc_ns(pid);
	perf_counters_info(c, &info);
	assert_false(info.children_counted);
	tc = event_index(&info, "task-clock");
	g = perf_counters_get(c, pid);
	assert_non_null(g);
	print_message("task-clock of a process whose thread and child spun: %.0f ms "
		      "(its threads ran %.0f ms, the child %.0f ms)\n",
		      g->delta[tc] / 1e6, (double)(to_pid - from_pid) / 1e6,
		      (double)task_ns(gc) / 1e6);
	/* its thread counts (inherited), the forked child does not */
	assert_true(g->delta[tc] > 150e6);
	assert_true(g->delta[tc] < (double)(to_pid - from_pid) + 20e6);
	kill(gc, SIGKILL);
	reap(pid);
	free_set(c);
}

/* A kernel before 5.13: inherit_thread is an unknown bit, EINVAL. */
static long old_kernel_open(struct perf_event_attr *attr, int pid, int cpu, int group,
			    unsigned long flags)
{
	if (attr->inherit_thread) {
		errno = EINVAL;
		return -1;
	}
	return syscall(SYS_perf_event_open, attr, pid, cpu, group, flags);
}

/* There the counters open without the bit, and the set and the text output say so. */
static void test_no_inherit_thread(void **state)
{
	struct observer_opts o = {
	    .counters = true, .events = perf_software_events, .nevents = 4, .budget = 4};
	const struct frame_proc *rows[1];
	struct perf_counters_info info;
	struct perf_counters *c;
	struct observer *ob;
	struct sbuf b = {0};
	struct frame f;
	pid_t pid = spawn(CHILD_IDLE);

	c = new_set(perf_software_events, 4, 4);
	perf_counters_update(c, &pid, 1);
	perf_counters_info(c, &info);
	assert_int_equal(info.attached, 1);
	assert_false(info.children_counted);

	perf_set_open_fn(old_kernel_open);
	perf_counters_update(c, NULL, 0);
	perf_counters_update(c, &pid, 1);
	perf_counters_info(c, &info);
	assert_int_equal(info.attached, 1);
	assert_int_equal(info.last_error, 0);
	assert_true(info.children_counted);
	assert_true(perf_children_counted());
	free_set(c);

	assert_int_equal(observer_new(&o, &ob, NULL), 0);
	fake_frame(&f, rows, &pid, 1);
	observer_begin(ob);
	observer_update(ob, &f, rows, 1);
	perf_set_open_fn(NULL);
	assert_true(f.procs[0].has_ctr);
	assert_true(f.counters.children_counted);
	output_text_frame(&b, &f, NULL, rows, 1, true);
	assert_non_null(strstr(sbuf_cstr(&b), "kernel without inherit_thread"));
	assert_false(perf_children_counted());
	observer_free(ob);
	sbuf_free(&b);
	free(f.procs);
	frame_sides_free(&f);
	reap(pid);
}

/*
 * Events that are pipes: what the observer reads from ptop's own events is
 * what the test wrote, records of value, time_enabled, time_running.
 */
static int fake_self[PERF_GROUP_MAX], fake_self_n;

static long pipe_open(struct perf_event_attr *attr, int pid, int cpu, int group,
		      unsigned long flags)
{
	if (fake_self_n == PERF_GROUP_MAX) {
		errno = EMFILE;
		return -1;
	}
	return fake_self[fake_self_n++];
}

/*
 * ptop's own row with its events multiplexed: counted a quarter of the
 * interval, so its counts are four times what was read, and its SCALE is
 * 0.25, not 1.
 */
static void test_own_row_scaled(void **state)
{
	const char *const events[] = {"task-clock"};
	struct observer_opts o = {.counters = true, .events = events, .nevents = 1, .budget = 4};
	/* two frames, each read at its start and at its update */
	const uint64_t rec[4][3] = {
	    {100, 1000, 1000}, {1000, 2000, 2000}, {1200, 2500, 2100}, {1500, 6000, 3000}};
	const struct frame_proc *rows[1];
	struct observer *ob;
	struct frame f;
	pid_t self = getpid();
	int fds[2];

	assert_int_equal(pipe(fds), 0);
	assert_int_equal(write(fds[1], rec, sizeof(rec)), (ssize_t)sizeof(rec));
	close(fds[1]);
	fake_self[0] = fds[0];
	fake_self_n = 0;
	perf_set_open_fn(pipe_open);
	assert_int_equal(observer_new(&o, &ob, NULL), 0);
	perf_set_open_fn(NULL);
	assert_int_equal(fake_self_n, 1);
	fake_frame(&f, rows, &self, 1);
	for (int i = 0; i < 2; i++) {
		observer_begin(ob);
		observer_update(ob, &f, rows, 1);
	}
	assert_true(f.procs[0].has_ctr);
	/* 500 counted while running 1000 ns of 4000 enabled */
	assert_float_equal(f.procs[0].ctr[0], 2000.0, 1e-6);
	assert_float_equal(f.procs[0].ctr_scale, 0.25, 1e-9);
	/* the frame's own cost: 300 counted in 900 of 3500 ns */
	assert_float_equal(f.counters.self_ctr[0], 300.0 * 3500 / 900, 1e-6);
	observer_free(ob);
	free(f.procs);
	frame_sides_free(&f);
}

/*
 * A group whose leader is a pipe: perf_group_read decodes what the test
 * wrote there, record by record (nr, time_enabled, time_running, values).
 */
static int fake_fds[PERF_GROUP_MAX * 2], fake_n, fake_next;

static long queue_open(struct perf_event_attr *attr, int pid, int cpu, int group,
		       unsigned long flags)
{
	if (fake_next == fake_n) {
		errno = EMFILE;
		return -1;
	}
	return fake_fds[fake_next++];
}

/* queue_open, where an entry of -1 is the kernel refusing that open with EINVAL. */
static long queue_einval_open(struct perf_event_attr *attr, int pid, int cpu, int group,
			      unsigned long flags)
{
	if (fake_next < fake_n && fake_fds[fake_next] == -1) {
		fake_next++;
		errno = EINVAL;
		return -1;
	}
	return queue_open(attr, pid, cpu, group, flags);
}

/*
 * A group of n events whose leader reads the records in rec, one per
 * read() as from the kernel: a pipe in packet mode (O_DIRECT), one write
 * per record; a record is len[i] words.
 */
static int fake_group(struct perf_group *g, int n, const uint64_t *rec, const size_t *len,
		      size_t nrec)
{
	struct perf_event_spec ev[PERF_GROUP_MAX];
	int fds[2], err;

	for (int i = 0; i < n; i++)
		assert_int_equal(perf_event_resolve("task-clock", &ev[i]), 0);
	assert_int_equal(pipe2(fds, O_DIRECT), 0);
	for (size_t i = 0; i < nrec; rec += len[i++])
		assert_int_equal(write(fds[1], rec, len[i] * 8), (ssize_t)(len[i] * 8));
	close(fds[1]);
	fake_n = fake_next = 0;
	fake_fds[fake_n++] = fds[0];
	for (int i = 1; i < n; i++)
		fake_fds[fake_n++] = dup(fds[0]);
	perf_set_open_fn(queue_open);
	err = perf_group_open_task(g, getpid(), ev, n, false);
	perf_set_open_fn(NULL);
	return err;
}

/*
 * Multiplexed groups: counts scaled by Δenabled/Δrunning, an interval in
 * which the group never ran is not counted (not a zero), a short read and
 * a wrong number of values are errors.
 */
static void test_group_buffers(void **state)
{
	const uint64_t rec[] = {
	    2, 1000, 1000, 10, 20, /* the first read: since attaching */
	    2, 3000, 1500, 30, 60, /* ran a quarter of 2000 ns: counts times 4 */
	    2, 5000, 1500, 30, 60, /* enabled, never ran: nothing counted */
	    2, 5000, 1500, 30, 60, /* not even enabled (the task slept): a true 0 */
	    3, 6000, 2500, 40, 70, /* three values for a group of two */
	    2, 7000};		   /* cut short */
	const size_t len[] = {5, 5, 5, 5, 5, 2};
	struct perf_group g;

	assert_int_equal(fake_group(&g, 2, rec, len, 6), 0);
	assert_int_equal(perf_group_read(&g), 0);
	assert_false(g.not_counted);
	assert_float_equal(g.delta[0], 10, 1e-9);

	assert_int_equal(perf_group_read(&g), 0);
	assert_false(g.not_counted);
	assert_float_equal(g.scale, 0.25, 1e-9);
	assert_float_equal(g.delta[0], 80, 1e-9);
	assert_float_equal(g.delta[1], 160, 1e-9);

	assert_int_equal(perf_group_read(&g), 0);
	assert_true(g.not_counted);
	assert_float_equal(g.scale, 0, 1e-9);

	assert_int_equal(perf_group_read(&g), 0);
	assert_false(g.not_counted);
	assert_float_equal(g.delta[0], 0, 1e-9);

	assert_int_equal(perf_group_read(&g), -EIO);
	assert_int_equal(perf_group_read(&g), -EIO);
	perf_group_close(&g);
}

/*
 * Through the observer to the text output: a process and ptop itself whose
 * events were enabled but never ran in the interval show "not counted", not
 * a count of 0.
 */
static void test_not_counted_shown(void **state)
{
	const char *const events[] = {"task-clock"};
	struct observer_opts o = {.counters = true, .events = events, .nevents = 1, .budget = 4};
	const uint64_t self_rec[4][3] = {
	    {10, 100, 100}, {20, 200, 200}, {20, 250, 200}, {20, 900, 200}};
	const uint64_t grp_rec[2][4] = {{1, 1000, 1000, 5}, {1, 3000, 1000, 5}};
	const struct frame_proc *rows[2];
	pid_t pids[2] = {getpid(), spawn(CHILD_IDLE)};
	struct observer *ob;
	struct sbuf b = {0};
	struct frame f;
	int sp[2], gp[2];
	const char *out;

	assert_int_equal(pipe(sp), 0);
	assert_int_equal(write(sp[1], self_rec, sizeof(self_rec)), (ssize_t)sizeof(self_rec));
	close(sp[1]);
	assert_int_equal(pipe2(gp, O_DIRECT), 0);
	for (int i = 0; i < 2; i++)
		assert_int_equal(write(gp[1], grp_rec[i], sizeof(grp_rec[i])),
				 (ssize_t)sizeof(grp_rec[i]));
	close(gp[1]);
	fake_n = fake_next = 0;
	fake_fds[fake_n++] = sp[0];
	fake_fds[fake_n++] = gp[0];
	perf_set_open_fn(queue_open);
	assert_int_equal(observer_new(&o, &ob, NULL), 0);
	fake_frame(&f, rows, pids, 2);
	for (int i = 0; i < 2; i++) {
		observer_begin(ob);
		observer_update(ob, &f, rows, 2);
	}
	perf_set_open_fn(NULL);
	assert_int_equal(fake_next, 2);
	for (int i = 0; i < 2; i++) {
		assert_true(f.procs[i].has_ctr);
		assert_true(f.procs[i].ctr_not_counted);
	}
	output_text_frame(&b, &f, NULL, rows, 2, true);
	out = sbuf_cstr(&b);
	print_message("%s", strstr(out, "Counters"));
	for (int i = 0; i < 2; i++) {
		char want[64];

		snprintf(want, sizeof(want), "%7d      not counted", (int)pids[i]);
		assert_non_null(strstr(out, want));
	}
	observer_free(ob);
	sbuf_free(&b);
	free(f.procs);
	frame_sides_free(&f);
	reap(pids[1]);
}

/* perf_event_paranoid 2 for a user: kernel counting refused, user level allowed. */
static long paranoid_open(struct perf_event_attr *attr, int pid, int cpu, int group,
			  unsigned long flags)
{
	if (!attr->exclude_kernel) {
		errno = EACCES;
		return -1;
	}
	return syscall(SYS_perf_event_open, attr, pid, cpu, group, flags);
}

/*
 * Counted user level only, context switches and migrations (the kernel
 * counts them in its own context) read 0 whatever happens: the rows say
 * n/a for them, for ptop's own row too, and the text output says why.
 */
static void test_user_only_na(void **state)
{
	struct observer_opts o = {
	    .counters = true, .events = perf_software_events, .nevents = 4, .budget = 4};
	const struct frame_proc *rows[2];
	pid_t pids[2] = {getpid(), spawn(CHILD_IDLE)};
	const uint8_t na = 1u << 1 | 1u << 2; /* context-switches, cpu-migrations */
	struct observer *ob;
	struct sbuf b = {0};
	struct frame f;
	const char *out;

	perf_set_open_fn(paranoid_open);
	assert_int_equal(observer_new(&o, &ob, NULL), 0);
	fake_frame(&f, rows, pids, 2);
	for (int i = 0; i < 2; i++) {
		observer_begin(ob);
		observer_update(ob, &f, rows, 2);
	}
	perf_set_open_fn(NULL);
	assert_string_equal(f.counters.names[1], "context-switches");
	assert_string_equal(f.counters.names[2], "cpu-migrations");
	assert_int_equal(f.counters.na, na);
	for (int i = 0; i < 2; i++) {
		assert_true(f.procs[i].has_ctr);
		assert_int_equal(f.procs[i].ctr_na, na);
	}
	output_text_frame(&b, &f, NULL, rows, 2, true);
	out = sbuf_cstr(&b);
	print_message("%s", strstr(out, "Counters"));
	/* after task-clock's figure, in the rows of both */
	assert_non_null(strstr(out, "              n/a              n/a"));
	assert_non_null(strstr(out,
			       "counters: user only (kernel counting refused): context-switches "
			       "cpu-migrations n/a\n"));
	observer_free(ob);
	sbuf_free(&b);
	free(f.procs);
	frame_sides_free(&f);
	reap(pids[1]);
}

/*
 * The same as the kernel does it: a user (not root) under
 * perf_event_paranoid 2 counts its own child. After setuid the process is
 * not dumpable, and the kernel refuses even the same user: PR_SET_DUMPABLE
 * gives that back. 0, 10 when it cannot become a user, 11 when kernel
 * counting is allowed here anyway, or the failed check's number.
 */
static int user_only_as_user(void)
{
	const int cs = 1, mig = 2;
	const struct perf_proc *g;
	struct perf_counters *c;
	int level = 2, status = 0;
	pid_t kid;

	if (getuid() == 0 && (setgid(65534) || setuid(65534)))
		return 10;
	if (perf_paranoid(NULL, &level) == 0 && level < 2)
		return 11;
	if (prctl(PR_SET_DUMPABLE, 1, 0, 0, 0))
		return 12;
	kid = fork();
	if (kid < 0)
		return 13;
	if (kid == 0) {
		alarm(DEADLINE_MS / 1000 * 2);
		for (;;)
			sleep_ms(1); /* a context switch each */
	}
	if (perf_counters_new(perf_software_events, 4, 4, &c, NULL))
		status = 14;
	if (!status) {
		perf_counters_update(c, &kid, 1);
		sleep_ms(100);
		perf_counters_update(c, &kid, 1);
		g = perf_counters_get(c, kid);
		if (!g)
			status = 15;
		else if (!(g->na & (1u << cs)) || !(g->na & (1u << mig)))
			status = 16;
		else if (g->na & ~(1u << cs | 1u << mig))
			status = 17;
		perf_counters_free(c);
	}
	kill(kid, SIGKILL);
	waitpid(kid, NULL, 0);
	return status;
}

static void test_user_only_as_user(void **state)
{
	int status;
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0)
		_exit(user_only_as_user());
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	if (WEXITSTATUS(status) == 10)
		SKIP("running as root and cannot become another user");
	if (WEXITSTATUS(status) == 11)
		SKIP("perf_event_paranoid below 2: users may count in the kernel here");
	assert_int_equal(WEXITSTATUS(status), 0);
}

/* What paranoid_open was asked for: no open may exclude every privilege level. */
static int excluded_all;

static long paranoid_open_watch(struct perf_event_attr *attr, int pid, int cpu, int group,
				unsigned long flags)
{
	excluded_all += attr->exclude_user && attr->exclude_kernel;
	return paranoid_open(attr, pid, cpu, group, flags);
}

/*
 * name:k counts the kernel alone; where kernel counting is refused, the
 * user-level retry would make it count at no level at all, under a
 * "hardware" label. It is refused instead, and the set says why.
 */
static void test_kernel_only_refused(void **state)
{
	const char *const events[] = {"cycles:k", "task-clock"};
	struct perf_counters_info info;
	struct perf_event_spec ev;
	struct perf_counters *c;
	struct perf_group g;

	assert_int_equal(perf_event_resolve("task-clock:k", &ev), 0);
	assert_true(ev.attr.exclude_user);
	excluded_all = 0;
	perf_set_open_fn(paranoid_open_watch);
	assert_int_equal(perf_group_open(&g, 0, &ev, 1), -EACCES);
	assert_int_equal(excluded_all, 0);

	c = new_set(events, 2, 4);
	perf_set_open_fn(NULL);
	assert_int_equal(excluded_all, 0);
	perf_counters_info(c, &info);
	assert_false(info.hardware);
	assert_non_null(info.why_software);
	assert_string_equal(info.why_software,
			    "kernel-only events (:k) refused (perf_event_paranoid)");
	free_set(c);
}

static void test_open_reasons(void **state)
{
	/* no PMU: whatever says "no such event" means that */
	assert_string_equal(perf_open_strerror(-ENOENT, false), "no hardware PMU");
	assert_string_equal(perf_open_strerror(-EOPNOTSUPP, false), "no hardware PMU");
	assert_string_equal(perf_open_strerror(-ENODEV, false), "no hardware PMU");
	/* a PMU that exists: the event, or the way it is asked for, is what fails */
	assert_string_equal(perf_open_strerror(-ENOENT, true), "not an event this PMU has");
	assert_string_equal(perf_open_strerror(-EOPNOTSUPP, true),
			    "not supported by the PMU here (per task or mode exclusion)");
	/* the paranoid checks say EACCES; EPERM is seccomp or a security module */
	assert_string_equal(perf_open_strerror(-EACCES, true), "refused (perf_event_paranoid)");
	assert_string_equal(perf_open_strerror(-EPERM, false),
			    "not permitted (seccomp or a security policy)");
	assert_string_equal(perf_open_strerror(-EINVAL, true),
			    "rejected by the kernel (invalid attributes)");
	assert_string_equal(perf_open_strerror(-EMFILE, true), "out of descriptors");
	assert_string_equal(perf_open_strerror(-EIO, true), "unavailable");
}

static void test_core_pmus(void **state)
{
	struct perf_pmu pmus[PERF_PMUS_MAX];

	perf_set_sysfs_root(FIXTURES "/sysfs-hybrid");
	assert_int_equal(perf_core_pmus(pmus, PERF_PMUS_MAX), 2);
	assert_string_equal(pmus[0].name, "cpu_atom");
	assert_int_equal(pmus[0].type, 10);
	assert_string_equal(pmus[1].name, "cpu_core");
	assert_int_equal(pmus[1].type, 4);
	assert_int_equal(perf_core_pmus(pmus, 1), 1);
	perf_set_sysfs_root(FIXTURES "/sysfs-nopmu");
	assert_int_equal(perf_core_pmus(pmus, PERF_PMUS_MAX), 0);
	perf_set_sysfs_root(FIXTURES "/no-such-root");
	assert_int_equal(perf_core_pmus(pmus, PERF_PMUS_MAX), -ENOENT);
	perf_set_sysfs_root(NULL);
}

struct listed {
	char names[4096];
	int n, hardware;
};

static int list_one(void *ctx, const struct perf_event_desc *d)
{
	struct listed *l = ctx;
	struct perf_event_spec ev;

	/* every name offered is one counting takes */
	assert_int_equal(perf_event_resolve(d->name, &ev), 0);
	assert_int_equal(ev.hardware, d->hardware);
	assert_non_null(d->desc);
	if (strlen(l->names) + strlen(d->name) + 2 < sizeof(l->names)) {
		strcat(l->names, d->name);
		strcat(l->names, ",");
	}
	l->n++;
	l->hardware += d->hardware;
	return 0;
}

static int list_stop(void *ctx, const struct perf_event_desc *d)
{
	(void)d;
	return ++*(int *)ctx == 2 ? -EINTR : 0;
}

/* The picker's list: software events always; hardware ones where sysfs shows a PMU. */
static void test_event_list(void **state)
{
	struct listed l = {0};
	bool pmu = true;
	int calls = 0;

	(void)state;
	perf_set_sysfs_root(FIXTURES "/sysfs-nopmu");
	assert_int_equal(perf_event_list(list_one, &l, &pmu), 0);
	assert_false(pmu);
	assert_int_equal(l.hardware, 0);
	assert_non_null(strstr(l.names, "task-clock,"));
	assert_non_null(strstr(l.names, "context-switches,"));
	assert_non_null(strstr(l.names, "page-faults,"));
	assert_null(strstr(l.names, "cycles,"));
	memset(&l, 0, sizeof(l));
	perf_set_sysfs_root(FIXTURES "/sysfs-hybrid");
	assert_int_equal(perf_event_list(list_one, &l, &pmu), 0);
	assert_true(pmu);
	assert_non_null(strstr(l.names, ",cycles,"));
	assert_non_null(strstr(l.names, ",instructions,"));
	assert_true(l.hardware >= 4);
	/* a callback's non-zero return stops the listing and is returned */
	assert_int_equal(perf_event_list(list_stop, &calls, &pmu), -EINTR);
	assert_int_equal(calls, 2);
	perf_set_sysfs_root(NULL);
}

/* A seccomp filter refuses cycles, the PMU cannot count instructions per task. */
static long picky_open(struct perf_event_attr *attr, int pid, int cpu, int group,
		       unsigned long flags)
{
	if (attr->type == PERF_TYPE_HARDWARE) {
		errno =
		    (attr->config & 0xffffffff) == PERF_COUNT_HW_CPU_CYCLES ? EPERM : EOPNOTSUPP;
		return -1;
	}
	return syscall(SYS_perf_event_open, attr, pid, cpu, group, flags);
}

/* A PMU that counts its events as task-clock would: every hardware event opens. */
static long lenient_open(struct perf_event_attr *attr, int pid, int cpu, int group,
			 unsigned long flags)
{
	struct perf_event_attr a = *attr;

	if (a.type == PERF_TYPE_HARDWARE) {
		a.type = PERF_TYPE_SOFTWARE;
		a.config = PERF_COUNT_SW_TASK_CLOCK;
	}
	return syscall(SYS_perf_event_open, &a, pid, cpu, group, flags);
}

/*
 * Each event says why it did not open, by what the kernel answered and
 * whether a PMU exists; and where hardware and software events are mixed,
 * only the software ones carry the ~ marker.
 */
static void test_reasons_per_event(void **state)
{
	const char *const events[] = {"cycles", "instructions", "task-clock"};
	struct perf_counters_info info;
	struct perf_counters *c;

	perf_set_sysfs_root(FIXTURES "/sysfs-hybrid");
	perf_set_open_fn(picky_open);
	c = new_set(events, 3, 4);
	perf_counters_info(c, &info);
	assert_false(info.hardware);
	assert_string_equal(info.why_software, "not permitted (seccomp or a security policy)");
	assert_int_equal(info.nfailed, 2);
	assert_string_equal(info.failed[0], "cycles");
	assert_string_equal(info.failed_why[0], "not permitted (seccomp or a security policy)");
	assert_string_equal(info.failed[1], "instructions");
	assert_string_equal(info.failed_why[1],
			    "not supported by the PMU here (per task or mode exclusion)");
	assert_int_equal(info.software, 0x0f); /* the software fallback, all four */
	free_set(c);

	/* without a PMU, the same answer means there is none */
	perf_set_sysfs_root(FIXTURES "/sysfs-nopmu");
	c = new_set(events + 1, 2, 4);
	perf_counters_info(c, &info);
	assert_string_equal(info.why_software, "no hardware PMU");
	assert_int_equal(info.nfailed, 1);
	assert_string_equal(info.failed_why[0], "no hardware PMU");
	free_set(c);

	perf_set_open_fn(lenient_open);
	c = new_set(events + 1, 2, 4);
	perf_set_open_fn(NULL);
	perf_set_sysfs_root(NULL);
	perf_counters_info(c, &info);
	assert_true(info.hardware);
	assert_int_equal(info.nfailed, 0);
	assert_int_equal(info.software, 1u << 1); /* task-clock alone */
	free_set(c);
}

/* A PMU with two counters: the kernel refuses a third event in a group (EINVAL). */
static int two_leaders[64], two_members[64], two_n;

static long two_counters_open(struct perf_event_attr *attr, int pid, int cpu, int group,
			      unsigned long flags)
{
	long fd;
	int k;

	for (k = 0; k < two_n && two_leaders[k] != group; k++)
		;
	if (group >= 0 && k < two_n && two_members[k] >= 1) {
		errno = EINVAL;
		return -1;
	}
	fd = syscall(SYS_perf_event_open, attr, pid, cpu, group, flags);
	if (fd >= 0 && group < 0 && two_n < 64) {
		two_leaders[two_n] = (int)fd;
		two_members[two_n++] = 0;
	} else if (fd >= 0 && k < two_n) {
		two_members[k]++;
	}
	return fd;
}

/*
 * Where a group does not fit the PMU, the events are split into groups
 * that do (each with its leader), not thrown out for software events; each
 * is read and scaled by its own times, and the output says so.
 */
static void test_split_groups(void **state)
{
	struct observer_opts o = {
	    .counters = true, .events = perf_software_events, .nevents = 4, .budget = 4};
	const struct frame_proc *rows[1];
	struct perf_event_spec ev[4];
	struct perf_group g;
	struct observer *ob;
	struct sbuf b = {0};
	struct frame f;
	pid_t pid = spawn(CHILD_BUSY);
	int before = count_fds();

	for (int i = 0; i < 4; i++)
		assert_int_equal(perf_event_resolve(perf_software_events[i], &ev[i]), 0);
	two_n = 0;
	perf_set_open_fn(two_counters_open);
	assert_int_equal(perf_group_open(&g, pid, ev, 4), 0);
	assert_int_equal(g.n, 4);
	assert_int_equal(g.nsplit, 2);
	assert_int_equal(g.start[0], 0);
	assert_int_equal(g.start[1], 2);
	assert_int_equal(g.start[2], 4);
	assert_int_equal(count_fds() - before, 4);
	wait_run(task_ns, pid, task_ns(pid), 50000000);
	assert_int_equal(perf_group_read(&g), 0);
	assert_true(g.raw[0] > 10000000); /* task-clock, in the first group */
	assert_true(g.raw[3] > 0 || g.raw[0] > 0);
	perf_group_close(&g);
	assert_int_equal(count_fds(), before);

	/* the set keeps its events and says they were split */
	two_n = 0;
	assert_int_equal(observer_new(&o, &ob, NULL), 0);
	fake_frame(&f, rows, &pid, 1);
	for (int i = 0; i < 2; i++) {
		if (i)
			wait_run(task_ns, pid, task_ns(pid), 20000000);
		observer_begin(ob);
		observer_update(ob, &f, rows, 1);
	}
	perf_set_open_fn(NULL);
	assert_true(f.procs[0].has_ctr);
	assert_int_equal(f.counters.nsplit, 2);
	assert_true(f.procs[0].ctr[0] > 0);
	output_text_frame(&b, &f, NULL, rows, 1, true);
	assert_non_null(strstr(sbuf_cstr(&b), "split into 2 groups"));
	observer_free(ob);
	sbuf_free(&b);
	free(f.procs);
	frame_sides_free(&f);
	reap(pid);
}

/* Split groups through pipes: each kernel group scaled by its own times. */
static void test_split_scaling(void **state)
{
	const uint64_t a[2][5] = {{2, 1000, 1000, 10, 20}, {2, 3000, 3000, 30, 60}};
	const uint64_t b[2][4] = {{1, 1000, 500, 5}, {1, 3000, 1000, 15}};
	struct perf_event_spec ev[3];
	struct perf_group g;
	int pa[2], pb[2];

	for (int i = 0; i < 3; i++)
		assert_int_equal(perf_event_resolve("task-clock", &ev[i]), 0);
	assert_int_equal(pipe2(pa, O_DIRECT), 0);
	assert_int_equal(pipe2(pb, O_DIRECT), 0);
	for (int i = 0; i < 2; i++) {
		assert_int_equal(write(pa[1], a[i], sizeof(a[i])), (ssize_t)sizeof(a[i]));
		assert_int_equal(write(pb[1], b[i], sizeof(b[i])), (ssize_t)sizeof(b[i]));
	}
	close(pa[1]);
	close(pb[1]);
	/* leader, member, a third refused as a member (no fd taken), the same as a leader */
	fake_n = fake_next = 0;
	fake_fds[fake_n++] = pa[0];
	fake_fds[fake_n++] = dup(pa[0]);
	fake_fds[fake_n++] = -1;
	fake_fds[fake_n++] = pb[0];
	perf_set_open_fn(queue_einval_open);
	assert_int_equal(perf_group_open_task(&g, getpid(), ev, 3, false), 0);
	perf_set_open_fn(NULL);
	assert_int_equal(g.nsplit, 2);
	assert_int_equal(perf_group_read(&g), 0);
	assert_float_equal(g.delta[2], 10, 1e-9); /* 5 in half the time */
	assert_float_equal(g.scale, 0.5, 1e-9);
	assert_int_equal(perf_group_read(&g), 0);
	assert_float_equal(g.delta[0], 20, 1e-9);
	assert_float_equal(g.delta[1], 40, 1e-9);
	assert_float_equal(g.delta[2], 40, 1e-9); /* 10 in a quarter of the time */
	assert_float_equal(g.scale, 0.25, 1e-9);
	assert_false(g.not_counted);
	perf_group_close(&g);
}

/* What a hybrid CPU was asked to open, and counting each hardware event as task-clock. */
static struct {
	uint32_t type;
	uint64_t config;
	int group, fd, pid;
} opened[32];
static int nopened;

static long hybrid_open(struct perf_event_attr *attr, int pid, int cpu, int group,
			unsigned long flags)
{
	struct perf_event_attr a = *attr;
	long fd;

	if (a.type == PERF_TYPE_HARDWARE) {
		a.type = PERF_TYPE_SOFTWARE;
		a.config = PERF_COUNT_SW_TASK_CLOCK;
	}
	fd = syscall(SYS_perf_event_open, &a, pid, cpu, group, flags);
	if (nopened < 32)
		opened[nopened++] =
		    (typeof(opened[0])){attr->type, attr->config, group, (int)fd, pid};
	return fd;
}

/*
 * A hybrid CPU (a fake sysfs with cpu_core, type 4, and cpu_atom, type 10):
 * each generic hardware event is opened once per core PMU with the PMU's
 * type in config's high bits, each core type's events in a group of their
 * own, software events in another, and a column is the sum of its copies.
 */
static void test_hybrid_pmus(void **state)
{
	const char *const events[] = {"cycles", "instructions", "task-clock"};
	struct perf_counters_info info;
	struct perf_counters *c;
	const struct perf_proc *p;
	pid_t pid = spawn(CHILD_BUSY);
	int k = 0;

	perf_set_sysfs_root(FIXTURES "/sysfs-hybrid");
	perf_set_open_fn(hybrid_open);
	c = new_set(events, 3, 4);
	nopened = 0;
	perf_counters_update(c, &pid, 1);
	wait_run(task_ns, pid, task_ns(pid), 100000000);
	perf_counters_update(c, &pid, 1);
	perf_set_open_fn(NULL);
	perf_set_sysfs_root(NULL);
	perf_counters_info(c, &info);
	assert_true(info.hardware);
	assert_int_equal(info.nevents, 3);
	assert_int_equal(info.npmus, 2);
	assert_string_equal(info.pmus[0], "cpu_atom");
	assert_string_equal(info.pmus[1], "cpu_core");
	assert_int_equal(info.nsplit, 1); /* by core type, not refused */

	assert_int_equal(nopened, 5);
	for (int i = 0; i < 5; i++)
		assert_int_equal(opened[i].pid, pid);
	/* task-clock leads the software group */
	assert_int_equal(opened[k].type, PERF_TYPE_SOFTWARE);
	assert_int_equal(opened[k].group, -1);
	k++;
	/* then each core type: cycles leads, instructions joins, the type in the high bits */
	for (uint64_t type = 10; type; type = type == 10 ? 4 : 0) {
		int leader = opened[k].fd;

		assert_int_equal(opened[k].type, PERF_TYPE_HARDWARE);
		assert_int_equal(opened[k].config, type << 32 | PERF_COUNT_HW_CPU_CYCLES);
		assert_int_equal(opened[k++].group, -1);
		assert_int_equal(opened[k].config, type << 32 | PERF_COUNT_HW_INSTRUCTIONS);
		assert_int_equal(opened[k++].group, leader);
	}

	/* each copy counted the task's time here: the columns are their sums */
	p = perf_counters_get(c, pid);
	assert_non_null(p);
	print_message("hybrid: cycles %.0f, instructions %.0f, task-clock %.0f\n", p->delta[0],
		      p->delta[1], p->delta[2]);
	assert_true(p->delta[2] > 50e6);
	assert_float_equal(p->delta[0], 2 * p->delta[2], 0.1 * p->delta[2] + 2e6);
	assert_float_equal(p->delta[1], 2 * p->delta[2], 0.1 * p->delta[2] + 2e6);
	assert_false(p->not_counted);
	free_set(c);
	reap(pid);

	/* and the text output says what the sums are over */
	{
		const struct frame_proc *rows[1];
		struct sbuf b = {0};
		struct frame f;

		fake_frame(&f, rows, &pid, 1);
		f.counters.on = true;
		f.counters.hardware = true;
		f.counters.npmus = 2;
		strcpy(f.counters.pmus[0], "cpu_atom");
		strcpy(f.counters.pmus[1], "cpu_core");
		output_text_frame(&b, &f, NULL, rows, 0, true);
		assert_non_null(
		    strstr(sbuf_cstr(&b),
			   "; hybrid CPU: hardware events summed over cpu_atom, cpu_core;"));
		sbuf_free(&b);
		free(f.procs);
		frame_sides_free(&f);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_teardown(test_resolve, teardown),
	    cmocka_unit_test_teardown(test_event_list, teardown),
	    cmocka_unit_test_teardown(test_new_unknown_event, teardown),
	    cmocka_unit_test_teardown(test_software_asked_for, teardown),
	    cmocka_unit_test_teardown(test_default_falls_back, teardown),
	    cmocka_unit_test_teardown(test_hardware_counts, teardown),
	    cmocka_unit_test_teardown(test_busy_and_idle, teardown),
	    cmocka_unit_test_teardown(test_threads_before_attach, teardown),
	    cmocka_unit_test_teardown(test_main_thread_exited, teardown),
	    cmocka_unit_test_teardown(test_per_thread, teardown),
	    cmocka_unit_test_teardown(test_thread_limits, teardown),
	    cmocka_unit_test_teardown(test_budget, teardown),
	    cmocka_unit_test_teardown(test_detach_closes, teardown),
	    cmocka_unit_test_teardown(test_gone_dropped, teardown),
	    cmocka_unit_test_teardown(test_group_one_read, teardown),
	    cmocka_unit_test_teardown(test_group_open_bad, teardown),
	    cmocka_unit_test_teardown(test_scale, teardown),
	    cmocka_unit_test_teardown(test_refused, teardown),
	    cmocka_unit_test_teardown(test_perf_fd_count, teardown),
	    cmocka_unit_test_teardown(test_own_row_fields_set, teardown),
	    cmocka_unit_test_teardown(test_fork_not_inherited, teardown),
	    cmocka_unit_test_teardown(test_no_inherit_thread, teardown),
	    cmocka_unit_test_teardown(test_own_row_scaled, teardown),
	    cmocka_unit_test_teardown(test_group_buffers, teardown),
	    cmocka_unit_test_teardown(test_not_counted_shown, teardown),
	    cmocka_unit_test_teardown(test_user_only_na, teardown),
	    cmocka_unit_test_teardown(test_user_only_as_user, teardown),
	    cmocka_unit_test_teardown(test_kernel_only_refused, teardown),
	    cmocka_unit_test_teardown(test_open_reasons, teardown),
	    cmocka_unit_test_teardown(test_core_pmus, teardown),
	    cmocka_unit_test_teardown(test_reasons_per_event, teardown),
	    cmocka_unit_test_teardown(test_split_groups, teardown),
	    cmocka_unit_test_teardown(test_split_scaling, teardown),
	    cmocka_unit_test_teardown(test_hybrid_pmus, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
