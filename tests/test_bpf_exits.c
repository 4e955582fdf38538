// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_bpf_exits.c: the BPF source's exit hook (src/bpf/tasks.bpf.c,
 * bpfsrc_exits()) against what wait4() says of the same children: a process
 * that burns 200 ms of CPU and exits 7 gives one record with its name, parent,
 * start, CPU, status and peak RSS; a process of five threads gives one record
 * with all their CPU, whichever thread ends last and however; a storm larger
 * than a small ring buffer (PTOP_TEST_EXIT_RING, for tests only) is counted
 * as lost, with its CPU, in a pid namespace of its own (whose pids the records
 * give). Records come an RCU grace period after the reap: each test drains
 * until its records are there, within a deadline. Needs root (or CAP_BPF +
 * CAP_PERFMON) and a kernel that loads the hook: otherwise the whole program
 * is skipped (77), saying why.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../src/bpf/bpfsrc.h"
#include "child.h"

#define MS 1000000LL

static struct bpfsrc *src;
static struct users *users;
static struct frame frame;

static struct bpfsrc_ctx ctx_of(void)
{
	return (struct bpfsrc_ctx){.users = users,
				   .hz = sysconf(_SC_CLK_TCK),
				   .page_kb = (uint64_t)sysconf(_SC_PAGESIZE) / 1024,
				   .io = true};
}

static int64_t rusage_ns(const struct rusage *ru)
{
	return ((int64_t)ru->ru_utime.tv_sec + ru->ru_stime.tv_sec) * 1000000000 +
	       ((int64_t)ru->ru_utime.tv_usec + ru->ru_stime.tv_usec) * 1000;
}

/* The exited rows of pid in f; how many into *n, the last one returned. */
static const struct frame_proc *exited_of(const struct frame *f, pid_t pid, int *n)
{
	const struct frame_proc *p = NULL;

	*n = 0;
	for (size_t i = 0; i < f->nexited; i++) {
		if (f->exited[i].pid == pid) {
			p = &f->exited[i];
			(*n)++;
		}
	}
	return p;
}

/*
 * Drain until pid's record comes (within 10 s); it, and into *n how many
 * came in that drain (a second one would come with it: a record is written
 * when its process's leader is freed, once).
 */
static const struct frame_proc *drain_for(pid_t pid, const struct bpfsrc_ctx *c, int *n)
{
	const struct frame_proc *p = NULL;

	for (int i = 0; i < 1000 && !p; i++) {
		if (i)
			usleep(10000);
		assert_int_equal(bpfsrc_exits(src, &frame, c), 0);
		p = exited_of(&frame, pid, n);
	}
	assert_non_null(p);
	return p;
}

/* Field 22 of pid's stat: its start, clock ticks after boot, as rows show it. */
static uint64_t start_ticks_of(pid_t pid)
{
	char path[64], buf[1024], *p;
	unsigned long long v = 0;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	p = strrchr(buf, ')');
	assert_non_null(p);
	/* after ")": state is field 3, starttime 22 */
	for (int field = 2; field < 22 && p; field++)
		p = strchr(p + 1, ' ');
	assert_non_null(p);
	assert_int_equal(sscanf(p + 1, "%llu", &v), 1);
	return v;
}

static void test_one_process(void **state)
{
	struct bpfsrc_ctx c = ctx_of();
	const struct frame_proc *p;
	struct rusage ru;
	int go[2], status, n;
	uint64_t start;
	pid_t pid;
	char byte = 0;

	assert_int_equal(bpfsrc_exits(src, &frame, &c), 0); /* what came before */
	assert_int_equal(pipe(go), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(go[1]);
		prctl(PR_SET_NAME, "ptop-exit7");
		if (read(go[0], &byte, 1) != 1)
			_exit(1);
		burn(CLOCK_PROCESS_CPUTIME_ID, 200 * MS);
		_exit(7);
	}
	close(go[0]);
	start = start_ticks_of(pid);
	assert_int_equal(write(go[1], &byte, 1), 1);
	close(go[1]);
	assert_int_equal(wait4(pid, &status, 0, &ru), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 7);

	p = drain_for(pid, &c, &n);
	assert_true(frame.acct.exits);
	assert_int_equal(n, 1);
	assert_true(p->exited);
	assert_int_equal(p->state, 'X');
	assert_int_equal(p->tgid, pid);
	assert_int_equal(p->comm_len, strlen("ptop-exit7"));
	assert_memory_equal(p->comm, "ptop-exit7", p->comm_len);
	assert_int_equal(p->ppid, getpid());
	assert_int_equal(p->uid, geteuid());
	assert_non_null(p->user);
	assert_int_equal(p->exit_status, 7 << 8);
	assert_true(p->run_ns >= 150 * MS && p->run_ns <= 400 * MS);
	/*
	 * the kernel's own figure, its exit included (wait4 truncates to µs); a
	 * record taken late (its free held back) has its CPU as at the exit
	 */
	assert_true((int64_t)p->run_ns <= rusage_ns(&ru) + 2000);
	assert_true((int64_t)p->run_ns >= rusage_ns(&ru) - 5 * MS);
	/* ticks split the run time: together no more than it, at most two ticks less */
	assert_true((p->utime + p->stime) * (1000000000ull / (uint64_t)c.hz) <= p->run_ns);
	assert_true((p->utime + p->stime + 2) * (1000000000ull / (uint64_t)c.hz) > p->run_ns);
	/*
	 * the split is the kernel's tick samples, as wait4's is (scaled to the run
	 * time): user time in one iff in the other (on a loaded VM every tick of a
	 * burn was once sampled as system)
	 */
	assert_int_equal(p->utime > 0, ru.ru_utime.tv_sec > 0 || ru.ru_utime.tv_usec > 0);
	assert_true(p->maxrss_kb > 0);
	assert_int_equal(p->maxrss_kb, (uint64_t)ru.ru_maxrss);
	assert_int_equal(p->start_ticks, start);
	assert_true(p->end_ticks >= p->start_ticks);
	assert_true(p->has_io);
	assert_true(p->cpu_pct == 0);
}

/* How the five-thread child ends (test_threads). */
enum ending {
	THREADS_FIRST, /* the four burners end (pthread_exit), then the leader exits */
	GROUP_EXIT,    /* the leader's exit kills the four, blocked */
	LEADER_FIRST, /* the leader ends first (pthread_exit); the last burner's exit kills the rest */
};

static int out_fd;
static enum ending how;
static atomic_int burnt;

/* A burner: 100 ms of its own CPU, which it reports to the parent, then as how says. */
static void *burner(void *arg)
{
	int64_t ns;

	burn(CLOCK_THREAD_CPUTIME_ID, 100 * MS);
	ns = cpu_ns(CLOCK_THREAD_CPUTIME_ID);
	if (write(out_fd, &ns, sizeof(ns)) != sizeof(ns))
		_exit(1);
	if (atomic_fetch_add(&burnt, 1) == 3 && how == LEADER_FIRST)
		_exit(5);
	if (how == THREADS_FIRST)
		return arg;
	for (;;)
		pause();
}

static void threads_child(int fd)
{
	pthread_t t[4];

	out_fd = fd;
	prctl(PR_SET_NAME, "ptop-threads");
	for (int i = 0; i < 4; i++)
		if (pthread_create(&t[i], NULL, burner, NULL))
			_exit(1);
	if (how == LEADER_FIRST)
		pthread_exit(NULL);
	if (how == THREADS_FIRST) {
		for (int i = 0; i < 4; i++)
			pthread_join(t[i], NULL);
		_exit(5);
	}
	while (atomic_load(&burnt) < 4)
		sched_yield();
	_exit(5);
}

static void test_threads(void **state)
{
	static const char *const names[] = {"threads first", "group exit", "leader first"};
	struct bpfsrc_ctx c = ctx_of();

	for (how = THREADS_FIRST; how <= LEADER_FIRST; how++) {
		const struct frame_proc *p;
		int64_t ns, sum = 0;
		struct rusage ru;
		int fds[2], status, n;
		pid_t pid;

		assert_int_equal(bpfsrc_exits(src, &frame, &c), 0);
		assert_int_equal(pipe(fds), 0);
		pid = fork();
		assert_true(pid >= 0);
		if (pid == 0) {
			close(fds[0]);
			threads_child(fds[1]);
		}
		close(fds[1]);
		for (int i = 0; i < 4; i++) {
			assert_int_equal(read(fds[0], &ns, sizeof(ns)), sizeof(ns));
			assert_true(ns >= 100 * MS);
			sum += ns;
		}
		close(fds[0]);
		assert_int_equal(wait4(pid, &status, 0, &ru), pid);
		assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 5);

		p = drain_for(pid, &c, &n);
		print_message("%s: %d record(s), run_ns %llu, threads %lld, wait4 %lld\n",
			      names[how], n, p ? (unsigned long long)p->run_ns : 0ull,
			      (long long)sum, (long long)rusage_ns(&ru));
		assert_int_equal(n, 1);
		assert_memory_equal(p->comm, "ptop-threads", p->comm_len);
		assert_int_equal(p->exit_status, 5 << 8);
		/* every thread's CPU, each counted once */
		assert_true((int64_t)p->run_ns >= sum);
		assert_true((int64_t)p->run_ns <= rusage_ns(&ru) + 2000);
		assert_true((int64_t)p->run_ns >= rusage_ns(&ru) - 5 * MS);
	}
}

/* What the storm's reader saw, sent to the test through a pipe. */
struct storm {
	int err;	     /* 0, or -errno of the open, negative; > 0: skipped, errno */
	int children;	     /* processes forked and reaped */
	int recorded;	     /* records of them */
	int others;	     /* other records (none: the namespace is the storm's) */
	uint64_t lost;	     /* frame.acct.lost over the drains */
	int64_t used_ns;     /* the children's CPU by wait4() */
	int64_t recorded_ns; /* theirs by the records */
	int64_t lost_ns;     /* frame.acct.lost_s over the drains, ns */
	int ppid_mismatch;   /* records of them whose parent was not the reader */
};

#define STORM 300

/*
 * The storm's reader: pid 1 of a new pid namespace, so that only its own
 * children's exits are recorded (nothing of the machine's other processes
 * fills the ring or the lost counts) and their pids are the namespace's.
 */
static void storm_reader(int fd)
{
	struct storm s = {0};
	struct bpfsrc *b;
	struct frame f = {0};
	struct bpfsrc_ctx c = ctx_of();
	static pid_t pids[STORM];

	setenv("PTOP_TEST_EXIT_RING", "4096", 1);
	s.err = bpfsrc_open(&b, false);
	unsetenv("PTOP_TEST_EXIT_RING");
	if (!s.err && !bpfsrc_has_exits(b))
		s.err = bpfsrc_exits_error(b);
	if (s.err)
		goto out;
	/* the loader's child is the one other process to end here: its record first */
	for (int tries = 0; tries < 1000 && !s.err && !f.nexited && !f.acct.lost; tries++) {
		if (tries)
			usleep(10000);
		s.err = bpfsrc_exits(b, &f, &c);
	}
	if (s.err)
		goto out;
	for (int i = 0; i < STORM; i++) {
		struct rusage ru;
		int status;

		pids[i] = fork();
		if (pids[i] < 0) {
			s.err = -errno;
			goto out;
		}
		if (pids[i] == 0) {
			burn(CLOCK_PROCESS_CPUTIME_ID, 3 * MS);
			_exit(0);
		}
		if (wait4(pids[i], &status, 0, &ru) != pids[i]) {
			s.err = -errno;
			goto out;
		}
		s.used_ns += rusage_ns(&ru);
		s.children++;
	}
	/* records come a grace period after each reap: drain until all are there or lost */
	for (int tries = 0; tries < 2000 && !s.err && s.recorded + (int)s.lost < STORM; tries++) {
		if (tries)
			usleep(10000);
		s.err = bpfsrc_exits(b, &f, &c);
		s.lost += f.acct.lost;
		s.lost_ns += (int64_t)(f.acct.lost_s * 1e9 + 0.5);
		for (size_t i = 0; i < f.nexited; i++) {
			bool mine = false;

			for (int k = 0; k < STORM && !mine; k++)
				mine = f.exited[i].pid == pids[k];
			if (mine) {
				s.recorded++;
				s.recorded_ns += (int64_t)f.exited[i].run_ns;
				s.ppid_mismatch += f.exited[i].ppid != 1;
			} else {
				s.others++;
			}
		}
	}
	frame_free(&f);
	bpfsrc_free(b);
out:
	if (write(fd, &s, sizeof(s)) != sizeof(s))
		_exit(1);
	_exit(0);
}

static void test_storm(void **state)
{
	struct storm s = {0};
	int fds[2], status;
	pid_t pid;

	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(fds[0]);
		if (unshare(CLONE_NEWPID)) {
			s.err = errno;
			if (write(fds[1], &s, sizeof(s)) != sizeof(s))
				_exit(1);
			_exit(0);
		}
		pid = fork(); /* pid 1 of the new namespace */
		if (pid == 0)
			storm_reader(fds[1]);
		_exit(pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status)
			  ? WEXITSTATUS(status)
			  : 1);
	}
	close(fds[1]);
	assert_int_equal(read(fds[0], &s, sizeof(s)), sizeof(s));
	close(fds[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	if (s.err > 0)
		SKIP("no pid namespace for the storm: %s", strerror(s.err));
	print_message("storm: %d children, %d recorded, %llu lost, %d others; CPU %lld ns used, "
		      "%lld recorded + %lld lost\n",
		      s.children, s.recorded, (unsigned long long)s.lost, s.others,
		      (long long)s.used_ns, (long long)s.recorded_ns, (long long)s.lost_ns);
	assert_int_equal(s.err, 0);
	assert_int_equal(s.children, STORM);
	assert_int_equal(s.others, 0);
	assert_int_equal(s.ppid_mismatch, 0);
	assert_true(s.recorded > 0);
	assert_true(s.lost > 0);
	/* every exit is either recorded or counted as lost */
	assert_int_equal((uint64_t)s.recorded + s.lost, STORM);
	/*
	 * and so is its CPU: to wait4's µs on each but records taken late (their
	 * free held back), whose CPU is as it stood at the exit
	 */
	assert_true(s.recorded_ns + s.lost_ns <= s.used_ns + STORM * 2000);
	assert_true(s.recorded_ns + s.lost_ns >= s.used_ns - s.used_ns / 100);
}

/* Each test's frame, emptied. */
static int teardown(void **state)
{
	frame_free(&frame);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_teardown(test_one_process, teardown),
	    cmocka_unit_test_teardown(test_threads, teardown),
	    cmocka_unit_test_teardown(test_storm, teardown),
	};
	int err, ret;

	if (!bpfsrc_built()) {
		printf("skipped: ptop was built without BPF\n");
		return 77;
	}
	err = bpfsrc_open(&src, false);
	if (err) {
		printf("skipped: the BPF source does not load here: %s\n", strerror(-err));
		return 77;
	}
	if (!bpfsrc_has_exits(src)) {
		printf("skipped: the exit hook does not load here: %s\n",
		       strerror(-bpfsrc_exits_error(src)));
		bpfsrc_free(src);
		return 77;
	}
	users = users_new();
	ret = cmocka_run_group_tests(tests, NULL, NULL);
	users_free(users);
	bpfsrc_free(src);
	return ret;
}
