// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_sample.c: the frame builder (src/proc/sample.c) on the live /proc.
 * Its per-process values are checked against libproc2's pids API as an
 * oracle; frames are built while hundreds of children exit underneath; %CPU
 * deltas are checked on a busy and an idle child and across a PID reused by
 * a new process (set up through /proc/sys/kernel/ns_last_pid where allowed);
 * task counts are checked with a stopped and a zombie child. RES is checked
 * against statm, thread rows against each thread's own stat while threads
 * come and go, and the user against a child that drops root or execs a
 * set-user-ID program. Whatever waits on a child waits on what the kernel
 * counts (its ticks, a byte on a pipe), with a deadline long enough for a
 * loaded machine. Read-less frames are checked against full reads: rows in
 * view agree field by field, a kept row that lags (reniced) is made exact by
 * sampler_complete, one that starts running or is reparented is read again.
 */
#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <libproc2/pids.h>

#include "ptop/frame.h"
#include "ptop/output.h"
#include "ptop/util.h"
#include "../src/bpf/bpfsrc.h"
#include "child.h"

/*
 * These test the /proc source, whose reads follow the needs asked for;
 * tests/test_bpf.sh compares the BPF source with it.
 */
static int procfs_sampler(struct sampler_opts *o, struct sampler **s)
{
	return sampler_new(o, s);
}

static const struct frame_proc *frame_find(const struct frame *f, int pid)
{
	for (size_t i = 0; i < f->nprocs; i++)
		if (f->procs[i].pid == pid)
			return &f->procs[i];
	return NULL;
}

static void sleep_ms(long ms)
{
	struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = ms % 1000 * 1000000L};

	while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
		;
}

/* Generous: a loaded 2-core machine may starve a child for seconds. */
#define DEADLINE_S 30.0

/* utime + stime of pid (or of its thread tid when tid > 0), in ticks; -1 when gone. */
static int64_t read_ticks(pid_t pid, pid_t tid)
{
	unsigned long long ut, st;
	char path[96], buf[1024];
	const char *rp;
	ssize_t n;
	int fd;

	if (tid > 0)
		snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", pid, tid);
	else
		snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	rp = strrchr(buf, ')');
	/* state ppid pgrp session tty_nr tpgid flags minflt cminflt majflt cmajflt utime stime */
	if (!rp ||
	    sscanf(rp + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ut, &st) != 2)
		return -1;
	return (int64_t)(ut + st);
}

/* Wait until pid (or its thread tid) has run at least `ticks` clock ticks. */
static int64_t wait_ticks(pid_t pid, pid_t tid, int64_t ticks)
{
	double t0 = clock_mono();
	int64_t now;

	while ((now = read_ticks(pid, tid)) < ticks) {
		if (now < 0 || clock_mono() - t0 > DEADLINE_S)
			fail_msg("%d/%d: %lld ticks, waited for %lld", pid, tid, (long long)now,
				 (long long)ticks);
		sleep_ms(5);
	}
	return now;
}

/*
 * Children that wait to be killed are tracked, so that a failed assertion
 * (which leaves the test function early) does not leave them running.
 */
#define MAX_TRACKED 16
static pid_t tracked[MAX_TRACKED];

static pid_t track(pid_t pid)
{
	for (int i = 0; i < MAX_TRACKED; i++) {
		if (!tracked[i]) {
			tracked[i] = pid;
			return pid;
		}
	}
	kill(pid, SIGKILL);
	fail_msg("too many tracked children");
	return -1;
}

/* Kill what is tracked, then reap every child left, exited or killed. */
static int reap_children(void **state)
{
	for (int i = 0; i < MAX_TRACKED; i++) {
		if (tracked[i] > 0)
			kill(tracked[i], SIGKILL);
		tracked[i] = 0;
	}
	while (waitpid(-1, NULL, 0) > 0 || errno == EINTR)
		;
	return 0;
}

static pid_t fork_idle(void)
{
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0) {
		for (;;)
			pause();
	}
	return track(pid);
}

static pid_t fork_busy(void)
{
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0) {
		volatile unsigned long x = 0;

		for (;;)
			x++;
	}
	return track(pid);
}

static void kill_reap(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	for (int i = 0; i < MAX_TRACKED; i++)
		if (tracked[i] == pid)
			tracked[i] = 0;
}

/* Wait until pid's state (as /proc prints it) is `want`, up to DEADLINE_S. */
static bool wait_state(pid_t pid, char want)
{
	double t0 = clock_mono();
	char now;

	while ((now = state_of(pid)) != want) {
		if (now == '?' || clock_mono() - t0 > DEADLINE_S)
			return false;
		sleep_ms(10);
	}
	return true;
}

enum oracle_idx {
	O_PID,
	O_PPID,
	O_STATE,
	O_CMD,
	O_NICE,
	O_PRIO,
	O_NLWP,
	O_UTIME,
	O_STIME,
	O_BEGAN,
	O_VSIZE,
	O_RSS,
	O_EUID,
	O_EUSER,
	O_N
};

static enum pids_item oracle_items[O_N] = {
    [O_PID] = PIDS_ID_PID,	 [O_PPID] = PIDS_ID_PPID,      [O_STATE] = PIDS_STATE,
    [O_CMD] = PIDS_CMD,		 [O_NICE] = PIDS_NICE,	       [O_PRIO] = PIDS_PRIORITY,
    [O_NLWP] = PIDS_NLWP,	 [O_UTIME] = PIDS_TICS_USER,   [O_STIME] = PIDS_TICS_SYSTEM,
    [O_BEGAN] = PIDS_TICS_BEGAN, [O_VSIZE] = PIDS_VSIZE_BYTES, [O_RSS] = PIDS_RSS,
    [O_EUID] = PIDS_ID_EUID,	 [O_EUSER] = PIDS_ID_EUSER,
};

#define OV(st, idx, type) ((st)->head[idx].result.type)

/* Compare the frame's record of pid with libproc2's; `moving`: the process runs. */
static void check_oracle(const struct frame *f, struct pids_info *info, pid_t pid, bool moving)
{
	const struct frame_proc *p = frame_find(f, pid);
	unsigned these = (unsigned)pid;
	struct pids_fetch *fetch;
	struct pids_stack *st;
	uint64_t page_kb = (uint64_t)sysconf(_SC_PAGESIZE) / 1024;
	int64_t d;

	assert_non_null(p);
	fetch = procps_pids_select(info, &these, 1, PIDS_SELECT_PID);
	assert_non_null(fetch);
	assert_int_equal(fetch->counts->total, 1);
	st = fetch->stacks[0];
	assert_int_equal(OV(st, O_PID, s_int), pid);
	assert_int_equal(p->ppid, OV(st, O_PPID, s_int));
	assert_int_equal(p->comm_len, strlen(OV(st, O_CMD, str)));
	assert_memory_equal(p->comm, OV(st, O_CMD, str), p->comm_len);
	assert_int_equal(p->nice, OV(st, O_NICE, s_int));
	assert_int_equal(p->priority, OV(st, O_PRIO, s_int));
	assert_int_equal(p->start_ticks, OV(st, O_BEGAN, ull_int));
	assert_int_equal(p->uid, OV(st, O_EUID, u_int));
	assert_string_equal(p->user, OV(st, O_EUSER, str));
	if (!moving) {
		assert_int_equal(p->threads, OV(st, O_NLWP, s_int));
		assert_int_equal(p->vsize_kb, OV(st, O_VSIZE, ul_int) / 1024);
		assert_int_equal(p->state, OV(st, O_STATE, s_ch));
		assert_int_equal(p->utime, OV(st, O_UTIME, ull_int));
		assert_int_equal(p->stime, OV(st, O_STIME, ull_int));
		assert_int_equal(p->rss_kb, OV(st, O_RSS, ul_int) * page_kb);
		return;
	}
	/* It ran between the two reads: a few ticks and pages apart. */
	assert_true(p->threads >= 1);
	d = (int64_t)OV(st, O_UTIME, ull_int) - (int64_t)p->utime;
	assert_true(d >= 0 && d <= 5);
	d = (int64_t)OV(st, O_STIME, ull_int) - (int64_t)p->stime;
	assert_true(d >= 0 && d <= 5);
	/* and pages: the test itself allocates between the reads (libproc2's
	 * tables, the frame's rows: megabytes under the sanitizers with
	 * thousands of processes) */
	d = (int64_t)(OV(st, O_RSS, ul_int) * page_kb) - (int64_t)p->rss_kb;
	assert_true(d >= -8192 && d <= 8192);
	/* libproc2 itself allocates between the two reads: the mappings may grow. */
	d = (int64_t)(OV(st, O_VSIZE, ul_int) / 1024) - (int64_t)p->vsize_kb;
	assert_true(d >= -16384 && d <= 16384);
	assert_true(p->rss_kb > 0);
}

static void test_oracle_libproc2(void **state)
{
	struct sampler_opts o = {0};
	struct pids_info *info = NULL;
	struct frame f = {0};
	struct sampler *s;
	pid_t child = fork_idle();

	assert_true(wait_state(child, 'S'));
	assert_int_equal(procps_pids_new(&info, oracle_items, O_N), 0);
	assert_int_equal(procfs_sampler(&o, &s), 0);
	assert_int_equal(sampler_frame(s, &f), 0);
	assert_true(f.nprocs >= 3);
	assert_true(f.hz > 0);
	assert_true(f.mem.total > 0);
	assert_true(f.uptime_s > 0);
	assert_int_equal(f.interval_s, 0);

	if (frame_find(&f, 1))
		check_oracle(&f, info, 1, true); /* PID 1 may be busy: its figures move */
	check_oracle(&f, info, child, false);
	check_oracle(&f, info, getpid(), true);
	assert_int_equal(frame_find(&f, getpid())->state, 'R');
	assert_int_equal(frame_find(&f, child)->ppid, getpid());
	/* The child's name is this program's: the kernel's comm, at most 15 bytes. */
	assert_int_equal(frame_find(&f, child)->comm_len, strlen("test_sample"));
	assert_memory_equal(frame_find(&f, child)->comm, "test_sample", strlen("test_sample"));

	/* A second frame: the same values for the idle child, now with an interval. */
	sleep_ms(50);
	assert_int_equal(sampler_frame(s, &f), 0);
	assert_true(f.interval_s >= 0.04);
	check_oracle(&f, info, child, false);
	check_oracle(&f, info, getpid(), true);

	kill_reap(child);
	procps_pids_unref(&info);
	frame_free(&f);
	sampler_free(s);
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

#define RACE_CHILDREN 200
#define RACE_PER_ROUND 8

static void test_race_vanishing(void **state)
{
	struct sampler_opts o = {.needs = PROC_NEED(PROC_FILE_STATM) | PROC_NEED(PROC_FILE_STATUS)};
	pid_t kids[RACE_CHILDREN];
	struct frame f = {0};
	struct sampler *s;
	int *pids = NULL;
	size_t pids_cap = 0;
	unsigned forked = 0, frames = 0, vanished = 0, reaped = 0;
	double t0;

	assert_int_equal(procfs_sampler(&o, &s), 0);
	srand((unsigned)getpid());
	t0 = clock_mono();
	while (clock_mono() - t0 < 0.5 || forked < RACE_CHILDREN) {
		for (int k = 0; k < RACE_PER_ROUND && forked < RACE_CHILDREN; k++) {
			long delay_us = rand() % 20001;
			pid_t pid = fork();

			assert_true(pid >= 0);
			if (pid == 0) {
				struct timespec ts = {0, delay_us * 1000};

				nanosleep(&ts, NULL);
				_exit(0);
			}
			kids[forked++] = pid;
		}
		/* Reap some as we go: zombies vanish between enumeration and read. */
		while (waitpid(-1, NULL, WNOHANG) > 0)
			reaped++;

		assert_int_equal(sampler_frame(s, &f), 0);
		frames++;
		vanished += f.cost.vanished;
		assert_true(f.cost.vanished <= forked + 16);
		assert_int_equal(f.cost.unreadable, 0);
		assert_int_equal(f.tasks.total, f.nprocs);
		assert_true(frame_find(&f, getpid()) != NULL);

		if (pids_cap < f.nprocs) {
			pids_cap = f.nprocs * 2;
			pids = xreallocarray(pids, pids_cap, sizeof(*pids));
		}
		/*
		 * Any process may name itself "" (prctl PR_SET_NAME): only the
		 * names this test knows are checked.
		 */
		for (size_t i = 0; i < f.nprocs; i++) {
			const struct frame_proc *p = &f.procs[i];

			assert_true(p->pid > 0);
			assert_true(p->comm_len <= PROC_COMM_MAX);
			if (p->pid == getpid() || p->ppid == getpid()) {
				assert_int_equal(p->comm_len, strlen("test_sample"));
				assert_memory_equal(p->comm, "test_sample", p->comm_len);
			}
			pids[i] = p->pid;
		}
		qsort(pids, f.nprocs, sizeof(*pids), cmp_int);
		for (size_t i = 1; i < f.nprocs; i++)
			assert_int_not_equal(pids[i - 1], pids[i]);
	}
	for (unsigned k = 0; k < forked; k++)
		if (waitpid(kids[k], NULL, 0) == kids[k])
			reaped++;
	assert_int_equal(reaped, RACE_CHILDREN);
	assert_true(frames >= 5);
	/* Each child can vanish mid-read at most once; others on the system rarely do. */
	assert_true(vanished <= RACE_CHILDREN + 16);

	/*
	 * Afterwards no child of the race is left in a frame. Its PID may be
	 * another process's by now (pid_max wraps fast on a busy machine): such
	 * a row is not our child.
	 */
	assert_int_equal(sampler_frame(s, &f), 0);
	for (unsigned k = 0; k < forked; k++) {
		const struct frame_proc *p = frame_find(&f, kids[k]);

		assert_true(p == NULL || p->ppid != getpid());
	}
	free(pids);
	frame_free(&f);
	sampler_free(s);
}

/*
 * Percent of one CPU may exceed 100 by what the tick and the reading skew
 * add: the interval runs from frame start to frame start, while each process
 * is read a little later. Over an interval of 100 ticks or more this stays small.
 */
#define CPU_SLACK 0.2

static void test_cpu_deltas(void **state)
{
	struct sampler_opts o = {0};
	const struct frame_proc *p;
	struct frame f = {0};
	struct sampler *s;
	pid_t busy = fork_busy(), idle = fork_idle();
	uint64_t busy0;
	double want;

	assert_true(wait_state(idle, 'S'));
	assert_int_equal(procfs_sampler(&o, &s), 0);
	assert_int_equal(sampler_frame(s, &f), 0);
	p = frame_find(&f, busy);
	assert_non_null(p);
	busy0 = p->utime + p->stime;
	/* However loaded the machine, the busy child gets its ticks in the end. */
	wait_ticks(busy, 0, (int64_t)busy0 + 100);
	assert_int_equal(sampler_frame(s, &f), 0);
	assert_true(f.interval_s > 0 && f.interval_s < DEADLINE_S + 5);

	p = frame_find(&f, busy);
	assert_non_null(p);
	assert_true(p->utime + p->stime >= busy0 + 100);
	want = (double)(p->utime + p->stime - busy0) / (double)f.hz / f.interval_s * 100.0;
	assert_true(p->cpu_pct > 0);
	assert_true(p->cpu_pct > want - 1e-6 && p->cpu_pct < want + 1e-6);
	assert_true(p->cpu_pct <= 100.0 * (1 + CPU_SLACK)); /* one thread: one CPU at most */
	p = frame_find(&f, idle);
	assert_non_null(p);
	assert_true(p->cpu_pct >= 0.0 && p->cpu_pct < 0.5);

	kill_reap(busy);
	kill_reap(idle);
	frame_free(&f);
	sampler_free(s);
}

/* Make the next fork() get pid, if this kernel lets the test choose. */
static bool set_next_pid(pid_t pid)
{
	int fd = open("/proc/sys/kernel/ns_last_pid", O_WRONLY | O_CLOEXEC);
	char buf[16];
	int n;
	bool ok;

	if (fd < 0)
		return false;
	n = snprintf(buf, sizeof(buf), "%d", pid - 1);
	ok = write(fd, buf, (size_t)n) == n;
	close(fd);
	return ok;
}

/*
 * A busy process that ran long is replaced, under the same PID, by a new
 * busy one. If the sampler took the old ticks as the new one's previous
 * value, the delta would be negative (shown as 0); it must start afresh.
 */
/*
 * Command lines (top -c): this process's own arguments, a kernel thread's
 * name in brackets, and for a process gone since the frame its name, with
 * -ESRCH, so that every row has one.
 */
static void test_cmdline(void **state)
{
	struct sampler_opts o = {0};
	struct frame_proc *p;
	struct frame f = {0};
	struct sampler *s;
	pid_t gone = fork_idle();
	char want[64];

	assert_int_equal(procfs_sampler(&o, &s), 0);
	assert_int_equal(sampler_frame(s, &f), 0);

	p = (struct frame_proc *)frame_find(&f, getpid());
	assert_non_null(p);
	assert_int_equal(sampler_cmdline(s, &f, p), 0);
	assert_true(p->has_cmd);
	assert_non_null(memmem(f.strings.p + p->cmd_off, p->cmd_len, "test_sample", 11));

	p = (struct frame_proc *)frame_find(&f, 2); /* kthreadd */
	if (p) {
		assert_int_equal(sampler_cmdline(s, &f, p), 0);
		snprintf(want, sizeof(want), "[%.*s]", (int)p->comm_len, p->comm);
		assert_int_equal(p->cmd_len, strlen(want));
		assert_memory_equal(f.strings.p + p->cmd_off, want, p->cmd_len);
	}

	p = (struct frame_proc *)frame_find(&f, gone);
	assert_non_null(p);
	kill_reap(gone);
	assert_int_equal(sampler_cmdline(s, &f, p), -ESRCH);
	assert_true(p->has_cmd);
	assert_int_equal(p->cmd_len, p->comm_len);
	assert_memory_equal(f.strings.p + p->cmd_off, p->comm, p->comm_len);
	frame_free(&f);
	sampler_free(s);
}

/* Resident and shared pages of pid (or of its thread tid), from statm. */
static bool read_statm(pid_t pid, pid_t tid, uint64_t *resident, uint64_t *shared)
{
	unsigned long long size, res, shr;
	char path[96];
	FILE *fp;
	bool ok;

	if (tid > 0)
		snprintf(path, sizeof(path), "/proc/%d/task/%d/statm", pid, tid);
	else
		snprintf(path, sizeof(path), "/proc/%d/statm", pid);
	fp = fopen(path, "r");
	if (!fp)
		return false;
	ok = fscanf(fp, "%llu %llu %llu", &size, &res, &shr) == 3;
	fclose(fp);
	*resident = res;
	*shared = shr;
	return ok;
}

/* A child that touches `kb` KiB of its own, says so with a byte on *rd, then waits. */
static pid_t fork_toucher(size_t kb, int *rd)
{
	int fds[2];
	pid_t pid;

	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		/* volatile: a store nothing reads is not optimised away */
		volatile char *mem = malloc(kb * 1024);

		close(fds[0]);
		if (!mem)
			_exit(1);
		for (size_t i = 0; i < kb * 1024; i += 512)
			mem[i] = 0x5a;
		if (write(fds[1], "m", 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	close(fds[1]);
	*rd = fds[0];
	return track(pid);
}

/*
 * With a row per thread, a process whose main thread has exited
 * (pthread_exit) shows that zombie thread and the thread that still runs,
 * not one zombie row.
 */
static void test_threads_zombie_main(void **state)
{
	struct sampler_opts o = {.threads = true, .needs = PROC_NEED(PROC_FILE_STATM)};
	uint64_t page_kb = (uint64_t)sysconf(_SC_PAGESIZE) / 1024;
	const struct frame_proc *live = NULL;
	struct frame f = {0};
	struct sampler *s;
	pid_t pid = fork();
	size_t rows = 0, zombies = 0;
	double t0 = clock_mono();
	uint64_t resident, shared;

	assert_true(pid >= 0);
	if (pid == 0) {
		pthread_t t;

		if (pthread_create(&t, NULL, sleep_forever, NULL))
			_exit(1);
		pthread_exit(NULL);
	}
	track(pid);
	assert_int_equal(procfs_sampler(&o, &s), 0);
	/*
	 * Until the leader is a zombie with its thread alive, and statm read just
	 * after the frame agrees with it: the exiting leader may still be
	 * faulting pages in between the two (seen once: 0x890 vs 0x8b0 KiB).
	 */
	for (;;) {
		const struct frame_proc *p;

		rows = zombies = 0;
		live = NULL;
		assert_int_equal(sampler_frame(s, &f), 0);
		p = frame_find(&f, pid);
		for (size_t i = 0; p && p->state == 'Z' && p->threads == 2 && i < f.nprocs; i++) {
			if (f.procs[i].tgid != pid)
				continue;
			rows++;
			if (f.procs[i].state == 'Z')
				zombies++;
			else
				live = &f.procs[i];
		}
		if (live && read_statm(pid, live->pid, &resident, &shared) &&
		    live->rss_kb == resident * page_kb && live->shared_kb == shared * page_kb)
			break;
		assert_true(clock_mono() - t0 < DEADLINE_S);
		sleep_ms(10);
	}
	assert_int_equal(rows, 2);
	assert_int_equal(zombies, 1);
	/* The process's own statm and stat say 0 (no mm on the leader); the live thread's do not. */
	assert_non_null(live);
	assert_true(resident > 0);
	assert_int_equal(live->rss_kb, resident * page_kb);
	assert_int_equal(live->shared_kb, shared * page_kb);
	assert_true(live->vsize_kb > 0);
	assert_true(live->mem_pct > 0);
	frame_free(&f);
	sampler_free(s);
}

/*
 * RES is statm's resident figure (exact, what top shows), not stat's rss (a
 * per-CPU counter's estimate on recent kernels), so that SHR, from the same
 * statm, never exceeds it.
 */
static void test_res_statm(void **state)
{
	struct sampler_opts o = {.needs = PROC_NEED(PROC_FILE_STATM)};
	uint64_t page_kb = (uint64_t)sysconf(_SC_PAGESIZE) / 1024;
	uint64_t res0, shr0, res1, shr1;
	const struct frame_proc *p = NULL;
	struct frame f = {0};
	struct sampler *s;
	size_t touched = 32 * 1024 + 17 * page_kb; /* not a multiple of any batch */
	char c;
	int rd;
	pid_t pid = fork_toucher(touched, &rd);

	assert_int_equal(read(rd, &c, 1), 1);
	close(rd);
	assert_true(wait_state(pid, 'S'));
	assert_int_equal(procfs_sampler(&o, &s), 0);
	/* It sleeps: statm read before and after the frame agree, so the frame saw that. */
	for (int tries = 0; tries < 10; tries++) {
		assert_true(read_statm(pid, 0, &res0, &shr0));
		assert_int_equal(sampler_frame(s, &f), 0);
		assert_true(read_statm(pid, 0, &res1, &shr1));
		if (res0 == res1 && shr0 == shr1)
			break;
	}
	assert_int_equal(res0, res1);
	p = frame_find(&f, pid);
	assert_non_null(p);
	assert_int_equal(p->rss_kb, res1 * page_kb);
	assert_int_equal(p->shared_kb, shr1 * page_kb);
	assert_true(p->rss_kb >= p->shared_kb);
	assert_true(p->rss_kb >= touched);
	assert_true(p->mem_pct > 0);
	assert_true(fabs(p->mem_pct - (double)p->rss_kb * 100.0 / (double)f.mem.total) < 1e-9);
	/* Every process in the frame: SHR never above RES. */
	for (size_t i = 0; i < f.nprocs; i++)
		assert_true(f.procs[i].shared_kb <= f.procs[i].rss_kb);

	/* The viewer reads what its columns need: RES or %MEM alone bring statm. */
	for (int k = 0; k < 2; k++) {
		o.needs = field_defs[k ? FIELD_MEM : FIELD_RES].needs;
		sampler_configure(s, &o);
		assert_true(read_statm(pid, 0, &res0, &shr0));
		assert_int_equal(sampler_frame(s, &f), 0);
		p = frame_find(&f, pid);
		assert_non_null(p);
		assert_int_equal(p->rss_kb, res0 * page_kb);
	}

	/* Without statm, SHR is not shown (0), not statm's figure next to stat's RES. */
	o.needs = 0;
	sampler_configure(s, &o);
	assert_int_equal(sampler_frame(s, &f), 0);
	p = frame_find(&f, pid);
	assert_non_null(p);
	assert_int_equal(p->shared_kb, 0);
	assert_true(p->rss_kb >= touched);
	kill_reap(pid);
	frame_free(&f);
	sampler_free(s);
}

/* Utime + stime of a row's own thread: TIME+ as top -H shows it. */
static void check_own_thread(const struct frame_proc *p, pid_t pid)
{
	int64_t own = read_ticks(pid, p->pid);

	assert_true(own >= 0);
	assert_int_equal((int64_t)(p->utime + p->stime), own);
}

/* A thread that burns about 300 ms of CPU, then ends. */
static void *burn_and_exit(void *arg)
{
	struct timespec ts;

	do {
		for (volatile int i = 0; i < 100000; i++)
			;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	} while (ts.tv_sec == 0 && ts.tv_nsec < 300000000L);
	return arg;
}

/*
 * With a row per thread, a process left with one thread shows that
 * thread's own figures, not the process's (which keep the time of threads
 * that ended).
 */
static void test_threads_single_own(void **state)
{
	struct sampler_opts o = {.threads = true};
	const struct frame_proc *p;
	struct frame f = {0};
	struct sampler *s;
	int fds[2];
	pid_t pid;
	char c;

	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		pthread_t t;

		close(fds[0]);
		if (pthread_create(&t, NULL, burn_and_exit, NULL) || pthread_join(t, NULL))
			_exit(1);
		if (write(fds[1], "j", 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	track(pid);
	close(fds[1]);
	assert_int_equal(read(fds[0], &c, 1), 1);
	close(fds[0]);
	assert_true(wait_state(pid, 'S'));
	/* The process's ticks hold the ended thread's: 300 ms against the main thread's few. */
	assert_true(read_ticks(pid, 0) >= read_ticks(pid, pid) + 20);

	assert_int_equal(procfs_sampler(&o, &s), 0);
	for (int i = 0; i < 2; i++) {
		assert_int_equal(sampler_frame(s, &f), 0);
		p = frame_find(&f, pid);
		assert_non_null(p);
		assert_int_equal(p->tgid, pid);
		assert_int_equal(p->threads, 1);
		check_own_thread(p, pid);
		assert_true(p->cpu_pct < 1.0);
	}
	kill_reap(pid);
	frame_free(&f);
	sampler_free(s);
}

/* Burn this thread's CPU until `ms` more of it are spent. */
static void burn_ms(long ms)
{
	struct timespec ts;
	double t0, t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	t0 = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
	do {
		for (volatile int i = 0; i < 10000; i++)
			;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
		t = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
	} while (t - t0 < (double)ms / 1000.0);
}

static void *burn_20ms(void *arg)
{
	burn_ms(20);
	return arg;
}

#define CHURN_FRAMES 60

/*
 * Threads come and go between frames while the main thread burns: its
 * TIME+ never goes back, and no thread shows more than one CPU, however
 * often the process goes from one thread to two and back.
 */
static void test_threads_churn(void **state)
{
	struct sampler_opts o = {.threads = true};
	struct frame f = {0};
	struct sampler *s;
	int64_t main_prev = -1;
	unsigned seen_one = 0, seen_more = 0;
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0) {
		for (;;) {
			pthread_t t;

			burn_ms(50);
			if (pthread_create(&t, NULL, burn_20ms, NULL))
				_exit(1);
			burn_ms(30);
			pthread_join(t, NULL);
		}
	}
	track(pid);
	assert_int_equal(procfs_sampler(&o, &s), 0);
	for (int i = 0; i < CHURN_FRAMES; i++) {
		int64_t main_now;
		size_t rows = 0;

		assert_int_equal(sampler_frame(s, &f), 0);
		for (size_t k = 0; k < f.nprocs; k++) {
			const struct frame_proc *p = &f.procs[k];

			if (p->tgid != pid)
				continue;
			rows++;
			if (i > 0)
				assert_true(p->cpu_pct <= 100.0 * (1 + CPU_SLACK));
			if (p->pid != pid)
				continue;
			main_now = (int64_t)(p->utime + p->stime);
			assert_true(main_now >= main_prev);
			main_prev = main_now;
		}
		assert_true(rows >= 1);
		if (rows == 1)
			seen_one++;
		else
			seen_more++;
		/*
		 * Long enough that a tick more or less is within the slack,
		 * and a different number of ticks each frame: the child's
		 * cycle is 8 ticks of its main thread's CPU, and a fixed 20
		 * would sample only two phases of it, half a cycle apart,
		 * both of which can fall outside the second thread's life.
		 */
		wait_ticks(pid, pid, read_ticks(pid, pid) + 20 + i % 8);
	}
	/* Both cases happened, or the test proved nothing. */
	assert_true(seen_one > 0);
	assert_true(seen_more > 0);
	kill_reap(pid);
	frame_free(&f);
	sampler_free(s);
}

#define TABLE_FIRST 1024 /* the first size of the sampler's thread tables */

/* A fresh proc root in dir (room for 256 bytes) named after what, with an empty 100/. */
static void fake_root(char dir[256], const char *what)
{
	const char *tmp = getenv("TMPDIR");
	char path[512];

	snprintf(dir, 256, "%s/ptop-%s-XXXXXX", tmp && *tmp ? tmp : "/tmp", what);
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/100", dir);
	assert_int_equal(mkdir(path, 0755), 0);
}

/* A stat line of a thread tid of process 100 (of nthreads threads) at path. */
static void fake_stat(const char *path, int tid, int nthreads)
{
	FILE *fp = fopen(path, "w");

	assert_non_null(fp);
	fprintf(fp,
		"%d (t%d) S 1 100 100 0 -1 4194304 0 0 0 0 %d 1 0 0 20 0 %d 0 5000 27713536 280 "
		"18446744073709551615 0 0 0 0 0 0 0 0 0 0 0 0 17 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n",
		tid, tid, tid % 7, nthreads);
	assert_int_equal(fclose(fp), 0);
}

/* In dir, thread tid of process 100 (its task/TID/stat), of nthreads threads. */
static void fake_thread(const char *dir, int tid, int nthreads)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/100/task/%d", dir, tid);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/100/task/%d/stat", dir, tid);
	fake_stat(path, tid, nthreads);
}

/*
 * The thread tables grow mid-frame while the previous frame's entry of the
 * thread being read is in hand (a use after free the sanitizer run caught
 * once the machine had more than 1024 threads): a fake process with as many
 * threads as the tables' first size, then one more, sampled with -H. The
 * second frame grows the tables at its last thread, which (in all but one
 * order of the directory) is one with a baseline; the sanitizer run fails
 * on the old code, and every run checks the rows and their ticks.
 */
static void test_threads_tables_grow(void **state)
{
	char dir[256], path[512];
	struct sampler_opts o = {.threads = true, .root = dir};
	struct frame f = {0};
	struct sampler *s;

	(void)state;
	fake_root(dir, "grow");
	snprintf(path, sizeof(path), "%s/100/task", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	for (int i = 0; i < TABLE_FIRST; i++)
		fake_thread(dir, 100 + i, TABLE_FIRST);
	snprintf(path, sizeof(path), "%s/100/stat", dir);
	fake_stat(path, 100, TABLE_FIRST);
	snprintf(path, sizeof(path), "%s/100/status", dir); /* a copy's uid is looked up there */
	{
		FILE *fp = fopen(path, "w");

		assert_non_null(fp);
		fprintf(fp,
			"Name:\tt100\nTgid:\t100\nPid:\t100\nPPid:\t1\n"
			"Uid:\t0\t0\t0\t0\nGid:\t0\t0\t0\t0\nThreads:\t%d\n",
			TABLE_FIRST);
		assert_int_equal(fclose(fp), 0);
	}
	assert_int_equal(sampler_new(&o, &s), 0);
	for (int i = 0; i < 2; i++) {
		size_t rows = 0;

		assert_int_equal(sampler_frame(s, &f), 0);
		for (size_t k = 0; k < f.nprocs; k++) {
			const struct frame_proc *p = &f.procs[k];

			assert_int_equal(p->tgid, 100);
			assert_int_equal(p->utime, (uint64_t)(p->pid % 7));
			/* no tick since the first frame: no CPU in the second */
			if (i == 1 && p->pid < 100 + TABLE_FIRST)
				assert_true(p->cpu_pct == 0);
			rows++;
		}
		assert_int_equal(rows, TABLE_FIRST + i);
		if (i == 0)
			fake_thread(dir, 100 + TABLE_FIRST, TABLE_FIRST + 1);
	}
	frame_free(&f);
	sampler_free(s);
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	assert_int_equal(system(path), 0);
}

/*
 * In a copy of /proc (fixtures, --proc-root) the owner of PID/ is whoever
 * made the copy: the uid comes from status, at first sight when the owner is
 * root and on every later look, never from the owner (which the real proc
 * gives as the effective uid).
 */
static void test_uid_in_a_copy(void **state)
{
	char dir[256], path[512];
	struct sampler_opts o = {.root = dir, .needs = PROC_NEED(PROC_FILE_STATM)};
	const struct frame_proc *p;
	struct frame f = {0};
	struct sampler *s;
	FILE *fp;

	(void)state;
	fake_root(dir, "uid");
	snprintf(path, sizeof(path), "%s/100/stat", dir);
	fake_stat(path, 100, 1);
	snprintf(path, sizeof(path), "%s/100/statm", dir);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs("6766 280 200 1 0 300 0\n", fp);
	assert_int_equal(fclose(fp), 0);
	snprintf(path, sizeof(path), "%s/100/status", dir);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs("Name:\tt100\nState:\tS (sleeping)\nTgid:\t100\nPid:\t100\nPPid:\t1\n"
	      "Uid:\t4241\t4242\t4243\t4244\nGid:\t0\t0\t0\t0\nThreads:\t1\n",
	      fp);
	assert_int_equal(fclose(fp), 0);
	assert_int_equal(sampler_new(&o, &s), 0);
	for (int i = 0; i < 2 * SAMPLER_UID_RECHECK; i++) {
		assert_int_equal(sampler_frame(s, &f), 0);
		p = frame_find(&f, 100);
		assert_non_null(p);
		/* an owner other than root is taken at first sight, until the next look */
		if (geteuid() == 0 || i >= SAMPLER_UID_RECHECK)
			assert_int_equal(p->uid, 4242);
	}
	frame_free(&f);
	sampler_free(s);
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	assert_int_equal(system(path), 0);
}

static void test_pid_reuse(void **state)
{
	struct sampler_opts o = {0};
	const struct frame_proc *p;
	struct frame f = {0};
	struct sampler *s;
	uint64_t old_start, old_ticks;
	pid_t old, fresh = -1;

	assert_int_equal(procfs_sampler(&o, &s), 0);
	old = fork_busy();
	wait_ticks(old, 0, 100);
	assert_int_equal(sampler_frame(s, &f), 0);
	p = frame_find(&f, old);
	assert_non_null(p);
	old_ticks = p->utime + p->stime;
	assert_true(old_ticks >= 100);
	old_start = p->start_ticks;
	kill_reap(old);

	/* Other processes may fork meanwhile and take the PID: try a few times. */
	sleep_ms(20); /* a later start time, in clock ticks */
	for (int tries = 0; tries < 5 && fresh != old; tries++) {
		if (fresh > 0)
			kill_reap(fresh);
		if (!set_next_pid(old)) {
			sampler_free(s);
			frame_free(&f);
			SKIP("ns_last_pid is not writable here: cannot force a PID reuse");
			return;
		}
		fresh = fork_busy();
	}
	if (fresh != old) {
		kill_reap(fresh);
		sampler_free(s);
		frame_free(&f);
		SKIP("other processes took the PID five times");
		return;
	}
	/* Far fewer ticks than the old one had: taken as its baseline they would show 0%. */
	wait_ticks(fresh, 0, 5);
	assert_int_equal(sampler_frame(s, &f), 0);
	p = frame_find(&f, old);
	assert_non_null(p);
	assert_int_equal(p->ppid, getpid());
	assert_true(p->start_ticks > old_start);
	assert_true(p->utime + p->stime >= 5);
	assert_true(p->utime + p->stime < old_ticks);
	assert_true(p->cpu_pct > 0.0);
	kill_reap(fresh);
	frame_free(&f);
	sampler_free(s);
}

static void test_task_counts(void **state)
{
	struct sampler_opts o = {0};
	const struct frame_proc *p;
	struct frame_tasks t = {0};
	struct frame f = {0};
	struct sampler *s;
	pid_t stopped = fork_idle(), zombie;
	siginfo_t si;

	zombie = fork();
	assert_true(zombie >= 0);
	if (zombie == 0)
		_exit(3);
	track(zombie);
	/* Wait for the exit but leave it unreaped: a zombie. */
	memset(&si, 0, sizeof(si));
	assert_int_equal(waitid(P_PID, (id_t)zombie, &si, WEXITED | WNOWAIT), 0);
	assert_int_equal(kill(stopped, SIGSTOP), 0);
	assert_true(wait_state(stopped, 'T'));
	assert_true(wait_state(zombie, 'Z'));

	assert_int_equal(procfs_sampler(&o, &s), 0);
	assert_int_equal(sampler_frame(s, &f), 0);
	assert_int_equal(f.tasks.total, f.nprocs);
	assert_int_equal(f.tasks.running + f.tasks.sleeping + f.tasks.stopped + f.tasks.zombie,
			 f.tasks.total);
	assert_true(f.tasks.stopped >= 1);
	assert_true(f.tasks.zombie >= 1);
	assert_true(f.tasks.running >= 1); /* this test, reading */

	/* The summary counts are exactly the states of the records. */
	for (size_t i = 0; i < f.nprocs; i++) {
		switch (f.procs[i].state) {
		case 'R':
			t.running++;
			break;
		case 'T':
		case 't':
			t.stopped++;
			break;
		case 'Z':
			t.zombie++;
			break;
		default:
			t.sleeping++;
			break;
		}
	}
	assert_int_equal(t.running, f.tasks.running);
	assert_int_equal(t.sleeping, f.tasks.sleeping);
	assert_int_equal(t.stopped, f.tasks.stopped);
	assert_int_equal(t.zombie, f.tasks.zombie);

	p = frame_find(&f, stopped);
	assert_non_null(p);
	assert_int_equal(p->state, 'T');
	p = frame_find(&f, zombie);
	assert_non_null(p);
	assert_int_equal(p->state, 'Z');
	assert_int_equal(p->rss_kb, 0);

	kill_reap(stopped);
	kill_reap(zombie);
	frame_free(&f);
	sampler_free(s);
}

/* Read /proc/self/statm's third field (shared pages). */
static uint64_t self_shared_pages(void)
{
	unsigned long long size, res, shared;
	FILE *fp = fopen("/proc/self/statm", "r");

	assert_non_null(fp);
	assert_int_equal(fscanf(fp, "%llu %llu %llu", &size, &res, &shared), 3);
	fclose(fp);
	return shared;
}

static void test_needs_statm_status(void **state)
{
	struct sampler_opts o = {0};
	const struct frame_proc *p;
	struct frame f = {0};
	struct sampler *s;
	uint64_t page_kb = (uint64_t)sysconf(_SC_PAGESIZE) / 1024, shared;
	int64_t d;

	/* Without statm asked for, shared_kb stays 0 (and status fields too). */
	assert_int_equal(procfs_sampler(&o, &s), 0);
	assert_int_equal(sampler_frame(s, &f), 0);
	p = frame_find(&f, getpid());
	assert_non_null(p);
	assert_int_equal(p->shared_kb, 0);
	assert_int_equal(p->rss_anon_kb, 0);
	assert_int_equal(p->vctxsw + p->nvctxsw, 0);
	sampler_free(s);

	o.needs = PROC_NEED(PROC_FILE_STATM);
	assert_int_equal(procfs_sampler(&o, &s), 0);
	assert_int_equal(sampler_frame(s, &f), 0);
	shared = self_shared_pages() * page_kb;
	p = frame_find(&f, getpid());
	assert_non_null(p);
	assert_true(p->shared_kb > 0);
	d = (int64_t)shared - (int64_t)p->shared_kb;
	assert_true(d >= -256 && d <= 256);
	assert_true(p->shared_kb <= p->rss_kb + 256);
	assert_int_equal(p->rss_anon_kb, 0);
	sampler_free(s);

	o.needs = PROC_NEED(PROC_FILE_STATUS);
	assert_int_equal(procfs_sampler(&o, &s), 0);
	assert_int_equal(sampler_frame(s, &f), 0);
	p = frame_find(&f, getpid());
	assert_non_null(p);
	assert_int_equal(p->shared_kb, 0);
	assert_true(p->rss_anon_kb > 0);
	assert_true(p->rss_anon_kb + p->rss_file_kb <= p->rss_kb + 1024);
	assert_true(p->vctxsw + p->nvctxsw > 0);
	sampler_free(s);
	frame_free(&f);
}

/* Whether rows_select() with -u uid keeps pid. */
static bool uid_filter_keeps(const struct frame *f, uid_t uid, pid_t pid)
{
	struct row_filter flt = {.by_uid = true, .uid = uid};
	struct row_order ord = {.field = FIELD_PID};
	const struct frame_proc **rows = xreallocarray(NULL, f->nprocs, sizeof(*rows));
	size_t n = rows_select(f, &flt, &ord, rows);
	bool kept = false;

	for (size_t i = 0; i < n; i++)
		kept |= rows[i]->pid == pid;
	free(rows);
	return kept;
}

/*
 * A process that drops root with setresuid() (and so becomes non-dumpable:
 * its files in /proc/PID stay root's, the directory is the new user's) shows
 * its new uid within SAMPLER_UID_RECHECK frames, and -u follows it; a
 * sampler that first sees it after the change shows the new uid at once.
 */
static void uid_setresuid(bool read_less)
{
	const uid_t nobody = 65534;
	struct sampler_opts o = {.needs = PROC_NEED(PROC_FILE_STATM), .read_less = read_less};
	char path[64];
	struct stat st;
	const struct frame_proc *p;
	struct frame f = {0};
	struct sampler *s;
	struct users *users;
	int go[2], done[2];
	pid_t pid;
	char c;
	int frames = 0;

	if (geteuid() != 0) {
		SKIP("setresuid() to another user needs root");
		return;
	}
	assert_int_equal(pipe(go), 0);
	assert_int_equal(pipe(done), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(go[1]);
		close(done[0]);
		if (read(go[0], &c, 1) != 1 || setresgid(nobody, nobody, nobody) ||
		    setresuid(nobody, nobody, nobody) || write(done[1], "u", 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	track(pid);
	close(go[0]);
	close(done[1]);
	assert_true(wait_state(pid, 'S'));
	assert_int_equal(procfs_sampler(&o, &s), 0);
	assert_int_equal(sampler_frame(s, &f), 0);
	p = frame_find(&f, pid);
	assert_non_null(p);
	assert_int_equal(p->uid, 0);
	assert_true(uid_filter_keeps(&f, 0, pid));

	assert_int_equal(write(go[1], "g", 1), 1);
	assert_int_equal(read(done[0], &c, 1), 1);
	assert_true(wait_state(pid, 'S'));
	do {
		assert_int_equal(sampler_frame(s, &f), 0);
		p = frame_find(&f, pid);
		assert_non_null(p);
	} while (p->uid != nobody && ++frames < SAMPLER_UID_RECHECK);
	assert_int_equal(p->uid, nobody);
	users = users_new();
	assert_string_equal(p->user, users_name(users, nobody));
	users_free(users);
	assert_true(uid_filter_keeps(&f, nobody, pid));
	assert_false(uid_filter_keeps(&f, 0, pid));
	sampler_free(s);

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_uid, 0); /* not dumpable: the case of a root-owned file */
	assert_int_equal(procfs_sampler(&o, &s), 0);
	assert_int_equal(sampler_frame(s, &f), 0);
	p = frame_find(&f, pid);
	assert_non_null(p);
	assert_int_equal(p->uid, nobody);
	close(go[1]);
	close(done[0]);
	kill_reap(pid);
	frame_free(&f);
	sampler_free(s);
}

static void test_uid_setresuid(void **state)
{
	uid_setresuid(false);
}

/* Read-less, the process that ran is looked at again however short its run. */
static void test_uid_setresuid_read_less(void **state)
{
	uid_setresuid(true);
}

/* Copy src to dst, owned by uid, set-user-ID. 0, or -errno. */
static int make_setuid_copy(const char *src, const char *dst, uid_t uid)
{
	char buf[65536];
	int in = open(src, O_RDONLY | O_CLOEXEC), out, err = 0;
	ssize_t n;

	if (in < 0)
		return -errno;
	out = open(dst, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0700);
	if (out < 0) {
		err = -errno;
		close(in);
		return err;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n)
			err = -EIO;
	if (n < 0 || fchown(out, uid, uid) || fchmod(out, 04755))
		err = err ? err : -errno;
	close(in);
	close(out);
	return err;
}

/* The effective uid in /proc/PID/status, or -1. */
static long status_euid(pid_t pid)
{
	char path[64], line[256];
	long ruid, euid = -1;
	FILE *fp;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	fp = fopen(path, "r");
	if (!fp)
		return -1;
	while (fgets(line, sizeof(line), fp))
		if (sscanf(line, "Uid: %ld %ld", &ruid, &euid) == 2)
			break;
	fclose(fp);
	return euid;
}

/*
 * A process that execs a set-user-ID program changes its name and size in
 * stat: the very next frame shows its new user.
 */
static void test_uid_setuid_exec(void **state)
{
	const uid_t nobody = 65534;
	struct sampler_opts o = {.needs = PROC_NEED(PROC_FILE_STATM)};
	char dir[] = "/tmp/ptop-suid.XXXXXX", prog[64];
	const struct frame_proc *p;
	struct frame f = {0};
	struct sampler *s;
	double t0;
	int go[2], err;
	pid_t pid;
	char c = 'g';

	if (geteuid() != 0) {
		SKIP("making a set-user-ID program of another user needs root");
		return;
	}
	assert_non_null(mkdtemp(dir));
	snprintf(prog, sizeof(prog), "%s/suid_sleep", dir);
	err = make_setuid_copy("/bin/sleep", prog, nobody);
	if (err) {
		unlink(prog);
		rmdir(dir);
		SKIP("cannot make a set-user-ID copy of /bin/sleep: %s", strerror(-err));
		return;
	}
	assert_int_equal(chmod(dir, 0755), 0);
	assert_int_equal(pipe(go), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(1);
		execl(prog, "suid_sleep", "600", (char *)NULL);
		_exit(127);
	}
	track(pid);
	close(go[0]);
	assert_int_equal(procfs_sampler(&o, &s), 0);
	assert_int_equal(sampler_frame(s, &f), 0);
	p = frame_find(&f, pid);
	assert_non_null(p);
	assert_int_equal(p->uid, 0);

	assert_int_equal(write(go[1], &c, 1), 1);
	close(go[1]);
	t0 = clock_mono();
	while (status_euid(pid) != (long)nobody) {
		if (clock_mono() - t0 > DEADLINE_S)
			break;
		sleep_ms(5);
	}
	/* Running, it needs the file no more. */
	unlink(prog);
	rmdir(dir);
	if (status_euid(pid) != (long)nobody) {
		kill_reap(pid);
		frame_free(&f);
		sampler_free(s);
		SKIP("the set-user-ID bit had no effect here (a nosuid mount?)");
		return;
	}
	assert_int_equal(sampler_frame(s, &f), 0);
	p = frame_find(&f, pid);
	assert_non_null(p);
	assert_int_equal(p->uid, nobody);
	assert_true(uid_filter_keeps(&f, nobody, pid));
	kill_reap(pid);
	frame_free(&f);
	sampler_free(s);
}

/* ---- read-less frames (sampler_opts.read_less) ---- */

#define RL_NEEDS (PROC_NEED(PROC_FILE_STATM) | PROC_NEED(PROC_FILE_STATUS))

/* Frames until pid's row is kept from an earlier one; the row. */
static const struct frame_proc *frame_until_kept(struct sampler *s, struct frame *f, pid_t pid)
{
	/* a full read at most every SAMPLER_FULL_EVERY_MAX frames: within twice that, one is kept */
	for (int i = 0; i < 2 * SAMPLER_FULL_EVERY_MAX + 2; i++) {
		const struct frame_proc *p;

		assert_int_equal(sampler_frame(s, f), 0);
		p = frame_find(f, pid);
		assert_non_null(p);
		if (p->kept)
			return p;
	}
	fail_msg("%d was never kept", pid);
	return NULL;
}

/*
 * What stat (and with memory, statm and status) gave a and b agree on, field
 * by field. Out of view, memory may lag (the man page says how far).
 */
static void assert_rows_agree(const struct frame_proc *a, const struct frame_proc *b, bool memory)
{
	assert_int_equal(a->pid, b->pid);
	assert_int_equal(a->ppid, b->ppid);
	assert_int_equal(a->state, b->state);
	assert_int_equal(a->comm_len, b->comm_len);
	assert_memory_equal(a->comm, b->comm, a->comm_len);
	assert_int_equal(a->uid, b->uid);
	assert_int_equal(a->priority, b->priority);
	assert_int_equal(a->nice, b->nice);
	assert_int_equal(a->threads, b->threads);
	assert_int_equal(a->vsize_kb, b->vsize_kb);
	assert_int_equal(a->utime, b->utime);
	assert_int_equal(a->stime, b->stime);
	assert_int_equal(a->start_ticks, b->start_ticks);
	assert_int_equal(a->processor, b->processor);
	assert_true(a->cpu_pct == 0 && b->cpu_pct == 0);
	if (!memory)
		return;
	assert_int_equal(a->rss_kb, b->rss_kb);
	assert_int_equal(a->shared_kb, b->shared_kb);
	assert_int_equal(a->swap_kb, b->swap_kb);
	assert_int_equal(a->rss_anon_kb, b->rss_anon_kb);
	assert_int_equal(a->rss_file_kb, b->rss_file_kb);
	assert_int_equal(a->vctxsw, b->vctxsw);
	assert_int_equal(a->nvctxsw, b->nvctxsw);
}

/* This process's nice value, which its children are born with; skips at 19,
 * which leaves no higher value to renice them to. */
static int nice_now(void)
{
	int v;

	errno = 0;
	v = getpriority(PRIO_PROCESS, 0);
	assert_int_equal(errno, 0);
	if (v >= 19)
		skip();
	return v;
}

/*
 * Idle children, one in view: its row is read in full every frame and agrees
 * with a full-read sampler's; the one out of view is kept, and still agrees,
 * until another process renices it (which it does not run for): then the
 * kept row lags, and sampler_complete() (what a presenter calls for rows that
 * come into view) makes it exact. Counts of kept and full rows add up.
 */
static void test_read_less_view(void **state)
{
	int base = nice_now();
	pid_t shown = fork_idle(), hidden = fork_idle();
	struct sampler_opts full_o = {.needs = RL_NEEDS};
	struct sampler_opts rl_o = {
	    .needs = RL_NEEDS,
	    .read_less = true,
	    .view = &shown,
	    .nview = 1,
	};
	struct frame fa = {0}, fb = {0};
	struct sampler *a, *b;
	struct frame_proc *p;
	const struct frame_proc *q;

	assert_true(wait_state(shown, 'S') && wait_state(hidden, 'S'));
	assert_int_equal(sampler_new(&rl_o, &a), 0);
	assert_int_equal(sampler_new(&full_o, &b), 0);
	/* b's first frame shows the share since each process began; its next, since this one */
	assert_int_equal(sampler_frame(b, &fb), 0);
	q = frame_until_kept(a, &fa, hidden);
	assert_int_equal(fa.cost.read_full + fa.cost.read_kept, fa.nprocs);
	assert_true(fa.cost.read_kept > 0);
	assert_string_equal(fa.cost.source, "procfs");
	assert_int_equal(sampler_frame(b, &fb), 0);
	assert_rows_agree(q, frame_find(&fb, hidden), false);
	q = frame_find(&fa, shown);
	assert_false(q->kept);
	assert_rows_agree(q, frame_find(&fb, shown), true);

	/* renice it once a frame until a frame keeps its row (not a periodic full read),
	 * upwards from the nice value it was born with: the tests may run under nice(1) */
	for (int i = 0, was = base;; i++) {
		int v = base + 1 + i % (19 - base);

		assert_true(i < 2 * SAMPLER_FULL_EVERY_MAX + 2);
		assert_int_equal(setpriority(PRIO_PROCESS, (id_t)hidden, v), 0);
		assert_int_equal(sampler_frame(a, &fa), 0);
		p = (struct frame_proc *)frame_find(&fa, hidden);
		assert_non_null(p);
		if (!p->kept) {
			assert_int_equal(p->nice, v);
			was = v;
			continue;
		}
		assert_int_equal(p->nice, was); /* the lag the man page owns up to */
		assert_int_equal(sampler_complete(a, &fa, p), 0);
		assert_false(p->kept);
		assert_int_equal(p->nice, v);
		break;
	}
	assert_int_equal(sampler_frame(b, &fb), 0);
	assert_rows_agree(p, frame_find(&fb, hidden), true);

	kill_reap(shown);
	kill_reap(hidden);
	frame_free(&fa);
	frame_free(&fb);
	sampler_free(a);
	sampler_free(b);
}

/*
 * What a kept row lags by is bounded: a process reniced by another (which it
 * does not run for) shows its new nice within SAMPLER_FULL_EVERY_MAX frames
 * out of view. With a delay longer than half of SAMPLER_FULL_SECONDS, every
 * frame reads every process in full: nothing lags.
 */
static void test_read_less_lag(void **state)
{
	int v = nice_now() + 1;
	pid_t pid = fork_idle();
	struct sampler_opts o = {.read_less = true};
	const struct frame_proc *p;
	struct frame f = {0};
	struct sampler *s;
	int i;

	assert_true(wait_state(pid, 'S'));
	assert_int_equal(sampler_new(&o, &s), 0);
	p = frame_until_kept(s, &f, pid);
	assert_int_not_equal(p->nice, v);
	assert_int_equal(setpriority(PRIO_PROCESS, (id_t)pid, v), 0);
	for (i = 0; i <= SAMPLER_FULL_EVERY_MAX; i++) {
		assert_int_equal(sampler_frame(s, &f), 0);
		p = frame_find(&f, pid);
		assert_non_null(p);
		if (!p->kept)
			break;
	}
	assert_true(i <= SAMPLER_FULL_EVERY_MAX);
	assert_int_equal(p->nice, v);

	/* a frame after a pause that long keeps nothing (the interval only grows under load) */
	sleep_ms(2100);
	assert_int_equal(sampler_frame(s, &f), 0);
	assert_true(f.interval_s * 2 > SAMPLER_FULL_SECONDS);
	assert_int_equal(f.cost.read_kept, 0);
	assert_int_equal(f.cost.read_full, f.nprocs);
	p = frame_find(&f, pid);
	assert_non_null(p);
	assert_false(p->kept);

	kill_reap(pid);
	frame_free(&f);
	sampler_free(s);
}

/* A kept process that starts running is read again: its ticks and %CPU move. */
static void test_read_less_wakes(void **state)
{
	struct sampler_opts o = {.read_less = true};
	const struct frame_proc *p;
	struct frame f = {0};
	struct sampler *s;
	int go[2];
	uint64_t ticks0;
	pid_t pid;

	assert_int_equal(pipe(go), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		volatile unsigned long x = 0;
		char c;

		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(1);
		for (;;)
			x++;
	}
	track(pid);
	close(go[0]);
	assert_true(wait_state(pid, 'S'));
	assert_int_equal(sampler_new(&o, &s), 0);
	p = frame_until_kept(s, &f, pid);
	ticks0 = p->utime + p->stime;
	assert_int_equal(write(go[1], "x", 1), 1);
	wait_ticks(pid, 0, (int64_t)ticks0 + 5);
	assert_int_equal(sampler_frame(s, &f), 0);
	p = frame_find(&f, pid);
	assert_non_null(p);
	assert_false(p->kept);
	assert_true(p->utime + p->stime >= ticks0 + 5);
	assert_true(p->cpu_pct > 0);
	close(go[1]);
	kill_reap(pid);
	frame_free(&f);
	sampler_free(s);
}

/* The body of a thread that waits for a byte on the pipe *arg, then spins. */
static void *spin_when_told(void *arg)
{
	char c;

	if (read(*(int *)arg, &c, 1) != 1)
		return NULL;
	for (volatile unsigned long i = 0;; i++)
		;
	return arg;
}

/* A child of three threads: its leader and one more sleep for good; the
 * third spins once a byte is written to *go. Returns after they exist. */
static pid_t fork_threads(int *go)
{
	int fds[2], ready[2];
	pid_t pid;
	char c;

	assert_int_equal(pipe(fds), 0);
	assert_int_equal(pipe(ready), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		pthread_t t;

		close(fds[1]);
		close(ready[0]);
		if (pthread_create(&t, NULL, sleep_forever, NULL) ||
		    pthread_create(&t, NULL, spin_when_told, &fds[0]) ||
		    write(ready[1], "r", 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	track(pid);
	close(fds[0]);
	close(ready[1]);
	assert_int_equal(read(ready[0], &c, 1), 1);
	close(ready[0]);
	*go = fds[1];
	return pid;
}

/*
 * A process of several threads is kept like one of a single thread while
 * none of them runs (its process CPU clock is every thread's), and agrees
 * with a full read; once a thread other than the leader runs, the row is
 * read again. With htop's user threads shown, such a process is never kept:
 * a kept row brings no thread rows.
 */
static void test_read_less_threads(void **state)
{
	struct sampler_opts o = {.read_less = true};
	struct sampler_opts ut_o = {.read_less = true, .user_threads = true};
	struct sampler_opts full_o = {0};
	struct frame f = {0}, fb = {0};
	const struct frame_proc *p;
	struct sampler *s, *b;
	uint64_t ticks0;
	bool kept_any = false;
	int go;
	pid_t pid = fork_threads(&go);

	assert_true(wait_state(pid, 'S'));
	/* htop's user threads: read in full every frame, its threads listed after it */
	assert_int_equal(sampler_new(&ut_o, &s), 0);
	for (int i = 0; i < 2 * SAMPLER_FULL_EVERY_MAX + 2; i++) {
		size_t at;

		assert_int_equal(sampler_frame(s, &f), 0);
		kept_any |= f.cost.read_kept > 0;
		p = frame_find(&f, pid);
		assert_non_null(p);
		assert_false(p->kept);
		at = (size_t)(p - f.procs);
		assert_true(at + 2 < f.nprocs);
		assert_int_equal(f.procs[at + 1].tgid, pid);
		assert_int_equal(f.procs[at + 2].tgid, pid);
	}
	assert_true(kept_any); /* read-less was at work for the others */
	sampler_free(s);

	assert_int_equal(sampler_new(&o, &s), 0);
	assert_int_equal(sampler_new(&full_o, &b), 0);
	assert_int_equal(sampler_frame(b, &fb), 0); /* a share over the frame, not since start */
	p = frame_until_kept(s, &f, pid);
	assert_int_equal(p->threads, 3);
	assert_int_equal(sampler_frame(b, &fb), 0);
	assert_rows_agree(p, frame_find(&fb, pid), false);

	ticks0 = p->utime + p->stime;
	assert_int_equal(write(go, "x", 1), 1);
	wait_ticks(pid, 0, (int64_t)ticks0 + 5);
	assert_int_equal(sampler_frame(s, &f), 0);
	p = frame_find(&f, pid);
	assert_non_null(p);
	assert_false(p->kept);
	assert_true(p->utime + p->stime >= ticks0 + 5);
	assert_true(p->cpu_pct > 0);

	close(go);
	kill_reap(pid);
	frame_free(&f);
	frame_free(&fb);
	sampler_free(s);
	sampler_free(b);
}

/*
 * A kept process whose parent exits is reparented without running: its
 * PPID must not lag (the tree would hang it under a process that is gone).
 */
static void test_read_less_reparent(void **state)
{
	struct sampler_opts o = {.read_less = true};
	const struct frame_proc *p;
	struct frame f = {0};
	struct sampler *s;
	pid_t mid, leaf;
	int fds[2];

	/* orphans come to this process, where the test can reap them */
	assert_int_equal(prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
	assert_int_equal(pipe(fds), 0);
	mid = fork();
	assert_true(mid >= 0);
	if (mid == 0) {
		pid_t g = fork();

		if (g == 0) {
			for (;;)
				pause();
		}
		if (write(fds[1], &g, sizeof(g)) != sizeof(g))
			_exit(1);
		for (;;)
			pause();
	}
	track(mid);
	close(fds[1]);
	assert_int_equal(read(fds[0], &leaf, sizeof(leaf)), sizeof(leaf));
	close(fds[0]);
	track(leaf);
	assert_true(wait_state(leaf, 'S'));
	assert_int_equal(sampler_new(&o, &s), 0);
	p = frame_until_kept(s, &f, leaf);
	assert_int_equal(p->ppid, mid);
	kill_reap(mid);
	assert_int_equal(sampler_frame(s, &f), 0);
	p = frame_find(&f, leaf);
	assert_non_null(p);
	assert_int_equal(p->ppid, getpid());
	kill_reap(leaf);
	prctl(PR_SET_CHILD_SUBREAPER, 0);
	frame_free(&f);
	sampler_free(s);
}

/*
 * The BPF source's start times take the boot time offset of ptop's time
 * namespace from /proc/self/timens_offsets, as the kernel prints it; a
 * file without the line, or with a bad one, is an error, never an offset.
 */
static void test_timens_boottime(void **state)
{
	static const struct {
		const char *text;
		int err;
		int64_t ns;
	} cases[] = {
	    {"monotonic           0         0\nboottime            0         0\n", 0, 0},
	    {"monotonic         -50         0\nboottime      1000000         0\n", 0,
	     1000000000000000},
	    {"boottime        -3600 250000000\nmonotonic 1 0\n", 0, -3599750000000},
	    {"boottime 0 999999999", 0, 999999999},
	    {"  boottime\t7\t1\n", 0, 7000000001},
	    {"monotonic           0         0\n", -ENOENT, 0},
	    {"", -ENOENT, 0},
	    {"boottimes 1 0\n", -ENOENT, 0},
	    {"boottime\n", -EINVAL, 0},
	    {"boottime 1\n", -EINVAL, 0},
	    {"boottime x 0\n", -EINVAL, 0},
	    {"boottime 1 1000000000\n", -EINVAL, 0},
	    {"boottime 1 -1\n", -EINVAL, 0},
	    {"boottime 1 0 junk\n", -EINVAL, 0},
	    {"boottime 99999999999999999999 0\n", -ERANGE, 0},
	    {"boottime 9223372036 0\n", -ERANGE, 0},
	    {"boottime -9223372036 0\n", -ERANGE, 0},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int64_t ns = -1;
		int err = bpfsrc_parse_boottime(cases[i].text, strlen(cases[i].text), &ns);

		if (err != cases[i].err || (!err && ns != cases[i].ns))
			fail_msg("%zu: %d %lld, want %d %lld", i, err, (long long)ns, cases[i].err,
				 (long long)cases[i].ns);
		if (err)
			assert_int_equal(ns, -1);
	}
	/* cut anywhere: an error or the line's value, never a read past the end */
	{
		const char *text = "monotonic 0 0\nboottime 123 456\n";

		for (size_t n = 0; n < strlen(text); n++) {
			char *cut = xmalloc(n ? n : 1);
			int64_t ns = 0;
			int err;

			memcpy(cut, text, n);
			err = bpfsrc_parse_boottime(cut, n, &ns);
			assert_true(err == -ENOENT || err == -EINVAL || (err == 0 && ns > 0));
			free(cut);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_teardown(test_oracle_libproc2, reap_children),
	    cmocka_unit_test_teardown(test_race_vanishing, reap_children),
	    cmocka_unit_test_teardown(test_cpu_deltas, reap_children),
	    cmocka_unit_test_teardown(test_cmdline, reap_children),
	    cmocka_unit_test_teardown(test_threads_zombie_main, reap_children),
	    cmocka_unit_test_teardown(test_pid_reuse, reap_children),
	    cmocka_unit_test_teardown(test_task_counts, reap_children),
	    cmocka_unit_test_teardown(test_needs_statm_status, reap_children),
	    cmocka_unit_test_teardown(test_res_statm, reap_children),
	    cmocka_unit_test_teardown(test_threads_single_own, reap_children),
	    cmocka_unit_test_teardown(test_threads_churn, reap_children),
	    cmocka_unit_test_teardown(test_threads_tables_grow, reap_children),
	    cmocka_unit_test(test_uid_in_a_copy),
	    cmocka_unit_test_teardown(test_uid_setresuid, reap_children),
	    cmocka_unit_test_teardown(test_uid_setresuid_read_less, reap_children),
	    cmocka_unit_test_teardown(test_uid_setuid_exec, reap_children),
	    cmocka_unit_test_teardown(test_read_less_view, reap_children),
	    cmocka_unit_test_teardown(test_read_less_lag, reap_children),
	    cmocka_unit_test_teardown(test_read_less_wakes, reap_children),
	    cmocka_unit_test_teardown(test_read_less_threads, reap_children),
	    cmocka_unit_test_teardown(test_read_less_reparent, reap_children),
	    cmocka_unit_test(test_timens_boottime),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
