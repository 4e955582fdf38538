// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_bpf_delta.c: the BPF source's delta pass (src/bpf/tasks.bpf.c,
 * ptop_delta) against its full walk, field by field, while processes change
 * in the ways it must not miss. Two sources in this process, one with the
 * delta and one walking every task, give back-to-back frames; a first frame
 * from the delta makes every later one incremental. Between frames the test's
 * children start and end, run and burn CPU, change their name (the leader's,
 * by another of its threads through /proc/PID/comm), are reniced by another
 * process, change uid, gain and lose threads, lose their parent (reparented
 * to this process, a subreaper), and lose memory they did not touch
 * (process_madvise's MADV_PAGEOUT from here). After each change, once the
 * children sleep, every field of their rows is the same from both, and the
 * delta read fewer processes in full than there are. Needs root (or CAP_BPF +
 * CAP_PERFMON) and a kernel where the delta loads: otherwise skipped (77),
 * saying why.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../src/bpf/bpfsrc.h"
#include "child.h"

#define MS 1000000LL
#define NKIDS 6

static struct bpfsrc *delta_src, *walk_src;
static struct users *users;
static struct frame fd_frame, fw_frame;
static int nfull; /* processes the last delta frame read in full */

/* The children: each waits for commands on its pipe and says "done" on the other. */
struct kid {
	pid_t pid;
	int cmd, done;
};
static struct kid kids[NKIDS];
static pid_t orphan; /* a grandchild whose parent ended */

static double uptime(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void frame_of(struct bpfsrc *s, struct frame *f)
{
	struct bpfsrc_ctx c = {.users = users,
			       .hz = sysconf(_SC_CLK_TCK),
			       .page_kb = (uint64_t)sysconf(_SC_PAGESIZE) / 1024,
			       .io = true,
			       .interval = 0.1};

	f->nprocs = 0;
	memset(&f->tasks, 0, sizeof(f->tasks));
	f->uptime_s = uptime();
	f->mem.total = 1 << 24;
	assert_int_equal(bpfsrc_frame(s, f, &c), 0);
}

static const struct frame_proc *row_of(const struct frame *f, pid_t pid)
{
	for (size_t i = 0; i < f->nprocs; i++)
		if (f->procs[i].pid == pid)
			return &f->procs[i];
	return NULL;
}

/* Every field a /proc frame has, the same in both rows (rates and shares aside). */
static void same_row(const struct frame_proc *d, const struct frame_proc *w)
{
	char what[64];

	snprintf(what, sizeof(what), "pid %d", w->pid);
#define SAME(field)                                                                                \
	do {                                                                                       \
		if (d->field != w->field)                                                          \
			fail_msg("%s %s: delta %lld, walk %lld", what, #field,                     \
				 (long long)d->field, (long long)w->field);                        \
	} while (0)
	SAME(pid);
	SAME(ppid);
	SAME(tgid);
	SAME(state);
	SAME(uid);
	SAME(ruid);
	SAME(suid);
	SAME(fsuid);
	SAME(priority);
	SAME(nice);
	SAME(threads);
	SAME(vsize_kb);
	SAME(rss_kb);
	SAME(shared_kb);
	SAME(swap_kb);
	SAME(rss_anon_kb);
	SAME(rss_file_kb);
	SAME(utime);
	SAME(stime);
	SAME(cutime);
	SAME(cstime);
	SAME(start_ticks);
	SAME(processor);
	SAME(vctxsw);
	SAME(nvctxsw);
	SAME(has_io);
	SAME(io_rchar);
	SAME(io_wchar);
	SAME(io_read_bytes);
	SAME(io_write_bytes);
	SAME(comm_len);
#undef SAME
	if (memcmp(d->comm, w->comm, w->comm_len))
		fail_msg("%s comm: delta %.*s, walk %.*s", what, d->comm_len, d->comm, w->comm_len,
			 w->comm);
	if (!d->user != !w->user || (d->user && strcmp(d->user, w->user)))
		fail_msg("%s user: delta %s, walk %s", what, d->user ? d->user : "-",
			 w->user ? w->user : "-");
}

/* Frames from both sources, the children's rows compared, each settled first. */
static void compare(const char *step)
{
	const struct bpfsrc_stats *st;

	for (int k = 0; k < NKIDS; k++)
		if (kids[k].pid)
			settle(kids[k].pid);
	if (orphan)
		settle(orphan);
	frame_of(delta_src, &fd_frame);
	st = bpfsrc_last(delta_src);
	assert_true(st->delta);
	nfull = (int)st->refreshed;
	frame_of(walk_src, &fw_frame);
	print_message("%s: the delta read %u of %u processes in full\n", step, st->refreshed,
		      st->processes);
	for (int k = 0; k < NKIDS + 1; k++) {
		pid_t pid = k < NKIDS ? kids[k].pid : orphan;
		const struct frame_proc *d, *w;

		if (!pid)
			continue;
		d = row_of(&fd_frame, pid);
		w = row_of(&fw_frame, pid);
		if (!w && !d)
			continue;
		if (!d || !w)
			fail_msg("%s: pid %d: a row from %s only", step, (int)pid,
				 d ? "the delta" : "the walk");
		same_row(d, w);
	}
	/* whatever ran between the two frames aside, processes that ended are gone from both */
	for (size_t i = 0; i < fd_frame.nprocs; i++)
		if (!row_of(&fw_frame, fd_frame.procs[i].pid) && !kill(fd_frame.procs[i].pid, 0) &&
		    state_of(fd_frame.procs[i].pid) != 'Z')
			fail_msg("%s: pid %d from the delta, not the walk, and alive", step,
				 fd_frame.procs[i].pid);
}

/* A thread of pid that is running (R), within 10 s. */
static pid_t running_thread(pid_t pid)
{
	char dir[64];

	snprintf(dir, sizeof(dir), "/proc/%d/task", (int)pid);
	for (int i = 0; i < 1000; i++) {
		DIR *d = opendir(dir);
		struct dirent *e;
		pid_t tid = 0;

		assert_non_null(d);
		while ((e = readdir(d)))
			if (e->d_name[0] != '.' && state_of(atoi(e->d_name)) == 'R')
				tid = atoi(e->d_name);
		closedir(d);
		if (tid)
			return tid;
		usleep(10000);
	}
	fail_msg("no thread of %d runs", (int)pid);
	return 0;
}

/* A thread's context switches, both kinds, from its status. */
static uint64_t switches(pid_t tid)
{
	char path[64], line[256];
	unsigned long long n, sum = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)tid);
	f = fopen(path, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "voluntary_ctxt_switches: %llu", &n) == 1 ||
		    sscanf(line, "nonvoluntary_ctxt_switches: %llu", &n) == 1)
			sum += n;
	fclose(f);
	return sum;
}

static void *idle_thread(void *arg)
{
	int fd = *(int *)arg;
	char c;

	while (read(fd, &c, 1) < 0 && errno == EINTR)
		;
	return NULL;
}

/* The leader's name, written by another of its threads, as only they may. */
static void *rename_leader(void *arg)
{
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "/proc/self/task/%d/comm", (int)getpid());
	fd = open(path, O_WRONLY);
	if (fd < 0 || write(fd, "ptop-written", 12) != 12)
		_exit(10);
	close(fd);
	return arg;
}

/* A child's loop: one command a byte, answered by a byte when done. */
static void kid_main(int cmd, int done)
{
	static char *map;
	pthread_t th[40];
	int quit[2], stay[2]; /* what the threads that end and those that stay wait on */
	size_t nth = 0;
	char c;

	if (pipe(quit) || pipe(stay))
		_exit(8);
	while (read(cmd, &c, 1) == 1) {
		switch (c) {
		case 'b': /* burn 100 ms of CPU */ {
			struct timespec t0, t;

			clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
			do
				clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
			while ((t.tv_sec - t0.tv_sec) * 1000000000LL + t.tv_nsec - t0.tv_nsec <
			       100 * MS);
			break;
		}
		case 'n': /* a new name, by another thread */ {
			pthread_t w;

			if (pthread_create(&w, NULL, rename_leader, NULL))
				_exit(9);
			pthread_join(w, NULL);
			break;
		}
		case 'u': /* another uid */
			if (setresuid(65534, 65534, 65534))
				_exit(3);
			break;
		case 't': /* 40 more threads */
			for (; nth < 40; nth++)
				if (pthread_create(&th[nth], NULL, idle_thread,
						   nth < 30 ? &quit[0] : &stay[0]))
					_exit(4);
			break;
		case 'T': /* ... and 30 of them end */
			for (int i = 0; i < 30; i++)
				if (write(quit[1], "x", 1) != 1)
					_exit(5);
			for (int i = 0; i < 30; i++)
				pthread_join(th[i], NULL);
			break;
		case 'm': /* 32 MiB of a file's pages, mapped and read */ {
			char tmpl[] = "/tmp/ptop-delta-XXXXXX";
			int fd = mkstemp(tmpl);
			volatile char sum = 0;

			if (fd < 0 || ftruncate(fd, 32 << 20))
				_exit(6);
			unlink(tmpl);
			map = mmap(NULL, 32 << 20, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
			if (map == MAP_FAILED)
				_exit(6);
			for (size_t i = 0; i < (32u << 20); i += 4096)
				map[i] = 1;
			sum += map[0];
			close(fd);
			break;
		}
		case 'f': /* fork a grandchild, which outlives this process */ {
			pid_t g = fork();

			if (g == 0) {
				prctl(PR_SET_NAME, "ptop-orphan");
				for (;;)
					pause();
			}
			if (write(done, &g, sizeof(g)) != sizeof(g))
				_exit(7);
			break;
		}
		case 's': /* a thread that runs for good, with no reason to leave its CPU */ {
			struct sched_param sp = {.sched_priority = 1};
			pthread_attr_t a;
			pthread_t t;

			/* real-time where allowed: nothing of the machine's load preempts it */
			pthread_attr_init(&a);
			if (!pthread_attr_setinheritsched(&a, PTHREAD_EXPLICIT_SCHED))
				pthread_attr_setschedpolicy(&a, SCHED_FIFO);
			pthread_attr_setschedparam(&a, &sp);
			if (pthread_create(&t, &a, spin_forever, NULL) &&
			    pthread_create(&t, NULL, spin_forever, NULL))
				_exit(11);
			break;
		}
		case 'q':
			_exit(0);
		}
		if (write(done, "k", 1) != 1)
			_exit(2);
	}
	_exit(0);
}

static void start_kid(int k)
{
	int cmd[2], done[2];
	pid_t pid;

	assert_int_equal(pipe(cmd), 0);
	assert_int_equal(pipe(done), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(cmd[1]);
		close(done[0]);
		prctl(PR_SET_NAME, "ptop-delta");
		kid_main(cmd[0], done[1]);
	}
	close(cmd[0]);
	close(done[1]);
	kids[k] = (struct kid){.pid = pid, .cmd = cmd[1], .done = done[0]};
}

static void tell(int k, char c)
{
	char r;

	assert_int_equal(write(kids[k].cmd, &c, 1), 1);
	if (c == 'f') {
		pid_t g;

		assert_int_equal(read(kids[k].done, &g, sizeof(g)), sizeof(g));
		orphan = g;
	}
	if (c == 'q') {
		assert_int_equal(waitpid(kids[k].pid, NULL, 0), kids[k].pid);
		close(kids[k].cmd);
		close(kids[k].done);
		kids[k].pid = 0;
		return;
	}
	assert_int_equal(read(kids[k].done, &r, 1), 1);
}

static void test_changes(void **state)
{
	char path[64];

	assert_int_equal(prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
	for (int k = 0; k < 3; k++)
		start_kid(k);
	compare("first frame");
	compare("nothing changed");
	assert_true(nfull < (int)fd_frame.nprocs);

	/* new processes, one that runs */
	for (int k = 3; k < NKIDS; k++)
		start_kid(k);
	tell(0, 'b');
	compare("started, one burnt CPU");

	/* renamed; reniced by another process; a new uid */
	tell(1, 'n');
	assert_int_equal(setpriority(PRIO_PROCESS, (id_t)kids[3].pid, 7), 0);
	tell(4, 'u');
	compare("renamed, reniced, new uid");

	/* threads come and go */
	tell(5, 't');
	compare("40 threads more");
	tell(5, 'T');
	compare("30 threads ended");

	/* memory that leaves without the process running */
	tell(0, 'm');
	compare("32 MiB mapped");
	{
		char line[256];
		unsigned long lo, hi;
		FILE *maps;
		struct iovec iov = {0};
		int pidfd = (int)syscall(SYS_pidfd_open, kids[0].pid, 0);

		snprintf(path, sizeof(path), "/proc/%d/maps", (int)kids[0].pid);
		maps = fopen(path, "r");
		assert_non_null(maps);
		while (fgets(line, sizeof(line), maps))
			if (strstr(line, "ptop-delta-") && sscanf(line, "%lx-%lx", &lo, &hi) == 2) {
				iov.iov_base = (void *)lo;
				iov.iov_len = hi - lo;
			}
		fclose(maps);
		assert_non_null(iov.iov_base);
		if (pidfd < 0 || syscall(SYS_process_madvise, pidfd, &iov, 1, MADV_PAGEOUT, 0) < 0)
			print_message(
			    "note: process_madvise: %s: memory from outside not checked\n",
			    strerror(errno));
		if (pidfd >= 0)
			close(pidfd);
	}
	compare("its pages reclaimed from outside");

	/* a parent ends: its child comes to this process, a subreaper */
	tell(1, 'f');
	compare("forked a grandchild");
	tell(1, 'q');
	compare("its parent ended");
	tell(2, 'q');
	compare("one more ended");

	/*
	 * A thread that runs on without a switch: its process is read again
	 * every frame while it runs (a switch marks it only as it starts).
	 */
	tell(3, 's');
	{
		const struct frame_proc *p;
		uint64_t last = 0, sw, last_sw = 0;
		pid_t spinner = running_thread(kids[3].pid);
		int sure = 0;

		for (int i = 0; i < 8; i++) {
			usleep(200000);
			frame_of(delta_src, &fd_frame);
			sw = switches(spinner);
			p = row_of(&fd_frame, kids[3].pid);
			assert_non_null(p);
			print_message("spinning: %llu ticks, %llu switches\n",
				      (unsigned long long)(p->utime + p->stime),
				      (unsigned long long)sw);
			if (i) {
				assert_true(p->utime + p->stime > last);
				sure += sw == last_sw; /* it ran on with no switch */
			}
			last = p->utime + p->stime;
			last_sw = switches(spinner);
		}
		if (!sure)
			print_message("note: the spinner was switched out in every interval: "
				      "CPU without a switch not shown apart\n");
	}
}

static int teardown(void **state)
{
	for (int k = 0; k < NKIDS; k++)
		if (kids[k].pid) {
			kill(kids[k].pid, SIGKILL);
			waitpid(kids[k].pid, NULL, 0);
		}
	if (orphan) {
		kill(orphan, SIGKILL);
		waitpid(orphan, NULL, 0);
	}
	frame_free(&fd_frame);
	frame_free(&fw_frame);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_teardown(test_changes, teardown),
	};
	int err, ret;

	if (!bpfsrc_built()) {
		printf("skipped: ptop was built without BPF\n");
		return 77;
	}
	err = bpfsrc_open(&delta_src, true);
	if (err) {
		printf("skipped: the BPF source does not load here: %s\n", strerror(-err));
		return 77;
	}
	if (bpfsrc_delta_error(delta_src)) {
		printf("skipped: the delta pass does not load here: %s\n",
		       strerror(-bpfsrc_delta_error(delta_src)));
		bpfsrc_free(delta_src);
		return 77;
	}
	err = bpfsrc_open(&walk_src, false);
	if (err) {
		printf("skipped: a second BPF source does not load: %s\n", strerror(-err));
		bpfsrc_free(delta_src);
		return 77;
	}
	users = users_new();
	ret = cmocka_run_group_tests(tests, NULL, NULL);
	users_free(users);
	bpfsrc_free(walk_src);
	bpfsrc_free(delta_src);
	return ret;
}
