// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_scan.c: the reader (src/proc/scan.c, src/proc/fdcache.c). PID
 * enumeration, slot reuse and dropping, and held descriptors are checked
 * against a proc root this test builds in a temporary directory, then against
 * the live /proc: the test's own PID, a child that exits (-ESRCH), new
 * children found by a scan that lists only the root's new PIDs, and the
 * open/read/close fallback when RLIMIT_NOFILE leaves only a small budget.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "child.h"

#include "ptop/proc.h"
#include "ptop/util.h"

#define MAX_SEEN 8192

struct fake_root {
	char dir[64];
};

/* Write `text` to root/rel, creating nothing but the file itself. */
static void put_file(const char *root, const char *rel, const char *text)
{
	char path[256];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	fp = fopen(path, "w");
	assert_non_null(fp);
	assert_int_equal(fputs(text, fp) >= 0, 1);
	assert_int_equal(fclose(fp), 0);
}

/* A PID directory with a stat line naming pid and comm, and a statm line. */
static void add_pid(const char *root, int pid, const char *comm)
{
	char path[256], text[512], rel[64];

	snprintf(path, sizeof(path), "%s/%d", root, pid);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(text, sizeof(text),
		 "%d (%s) S 1 %d %d 0 -1 4194560 100 0 0 0 7 3 0 0 20 0 1 0 %d 1234567 89 "
		 "18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 0 0 0 0 0 0\n",
		 pid, comm, pid, pid, 1000 + pid);
	snprintf(rel, sizeof(rel), "%d/stat", pid);
	put_file(root, rel, text);
	snprintf(rel, sizeof(rel), "%d/statm", pid);
	put_file(root, rel, "301 89 40 5 0 120 0\n");
}

static void rm_pid(const char *root, int pid)
{
	char path[256];
	const char *files[] = {"stat", "statm"};

	for (size_t i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/%d/%s", root, pid, files[i]);
		unlink(path); /* statm may have been removed on purpose */
	}
	snprintf(path, sizeof(path), "%s/%d", root, pid);
	assert_int_equal(rmdir(path), 0);
}

static int fake_setup(void **state)
{
	struct fake_root *fr = calloc(1, sizeof(*fr));
	const char *tmp = getenv("TMPDIR");

	if (!fr)
		return -1;
	snprintf(fr->dir, sizeof(fr->dir), "%s/ptop-scan-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(fr->dir)) {
		free(fr);
		return -1;
	}
	*state = fr;
	return 0;
}

static int fake_teardown(void **state)
{
	struct fake_root *fr = *state;
	char cmd[128];

	/* Only the directory this test made, with a fixed prefix, is removed. */
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", fr->dir);
	if (strstr(fr->dir, "/ptop-scan-") && system(cmd) != 0)
		return -1;
	free(fr);
	return 0;
}

struct scan_result {
	int pid[MAX_SEEN];
	bool is_new[MAX_SEEN];
	struct proc_slot *slot[MAX_SEEN];
	size_t n;
};

/* One full scan, begin to end; returns what proc_reader_end dropped. */
static unsigned scan_all(struct proc_reader *r, struct scan_result *res)
{
	struct proc_slot *s;
	bool is_new;
	int ret;

	res->n = 0;
	assert_int_equal(proc_reader_begin(r), 0);
	while ((ret = proc_reader_next(r, &s, &is_new)) == 1) {
		assert_true(res->n < MAX_SEEN);
		assert_int_equal(s->pid > 0, 1);
		res->pid[res->n] = s->pid;
		res->is_new[res->n] = is_new;
		res->slot[res->n] = s;
		res->n++;
	}
	assert_int_equal(ret, 0);
	return proc_reader_end(r);
}

/* Index of pid in res, or -1. */
static int find_pid(const struct scan_result *res, int pid)
{
	for (size_t i = 0; i < res->n; i++)
		if (res->pid[i] == pid)
			return (int)i;
	return -1;
}

static void test_new_missing_root(void **state)
{
	struct proc_reader *r = NULL;

	assert_int_equal(proc_reader_new("/nonexistent/ptop-proc-root", &r), -ENOENT);
	assert_null(r);
}

static void test_fake_scan_lifecycle(void **state)
{
	struct fake_root *fr = *state;
	struct scan_result *res = calloc(1, sizeof(*res));
	struct proc_reader_stats st;
	struct proc_reader *r;
	struct proc_stat ps;
	char buf[1024], path[256];
	ssize_t n;
	int i;

	assert_non_null(res);
	add_pid(fr->dir, 100, "alpha");
	add_pid(fr->dir, 200, "beta gamma");
	add_pid(fr->dir, 300, "x) y");
	/* Names that are not all digits, and a numeric regular file, are not processes. */
	snprintf(path, sizeof(path), "%s/self", fr->dir);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/12ab", fr->dir);
	assert_int_equal(mkdir(path, 0755), 0);
	put_file(fr->dir, "400", "not a directory\n");
	put_file(fr->dir, "uptime", "1.00 2.00\n");

	assert_int_equal(proc_reader_new(fr->dir, &r), 0);
	assert_int_equal(scan_all(r, res), 0);
	assert_int_equal(res->n, 3);
	for (int pid = 100; pid <= 300; pid += 100) {
		i = find_pid(res, pid);
		assert_int_not_equal(i, -1);
		assert_true(res->is_new[i]);
		/* The owner of the directory: whoever made it, this test. */
		assert_int_equal(res->slot[i]->uid, geteuid());
		for (int f = 0; f < PROC_NFILES; f++)
			assert_int_equal(res->slot[i]->fd[f], -1);
	}
	proc_reader_stats(r, &st);
	assert_int_equal(st.slots, 3);
	assert_int_equal(st.fds_held, 0);

	/* Read every stat: one held descriptor each, contents intact. */
	for (size_t k = 0; k < res->n; k++) {
		n = proc_reader_read(r, res->slot[k], PROC_FILE_STAT, buf, sizeof(buf));
		assert_true(n > 0);
		assert_int_equal(proc_parse_stat(buf, (size_t)n, &ps), 0);
		assert_int_equal(ps.pid, res->pid[k]);
		assert_int_equal(ps.starttime, 1000 + res->pid[k]);
		assert_int_not_equal(res->slot[k]->fd[PROC_FILE_STAT], -1);
	}
	i = find_pid(res, 300);
	n = proc_reader_read(r, res->slot[i], PROC_FILE_STAT, buf, sizeof(buf));
	assert_int_equal(proc_parse_stat(buf, (size_t)n, &ps), 0);
	assert_int_equal(ps.comm.n, 4);
	assert_memory_equal(ps.comm.p, "x) y", 4);
	n = proc_reader_read(r, res->slot[i], PROC_FILE_STATM, buf, sizeof(buf));
	assert_int_equal(n, (ssize_t)strlen("301 89 40 5 0 120 0\n"));
	assert_memory_equal(buf, "301 89 40 5 0 120 0\n", (size_t)n);
	proc_reader_stats(r, &st);
	assert_int_equal(st.fds_held, 4);
	assert_int_equal(st.fallback, 0);
	assert_true(st.fd_budget > st.fds_held);

	/* A file that does not fit in the buffer is refused, not cut. */
	n = proc_reader_read(r, res->slot[i], PROC_FILE_STAT, buf, 16);
	assert_int_equal(n, -EFBIG);
	/* A file the process does not have (status here) reads as gone. */
	n = proc_reader_read(r, res->slot[i], PROC_FILE_STATUS, buf, sizeof(buf));
	assert_int_equal(n, -ESRCH);

	/* Second scan: the same slots, none new, none dropped. */
	{
		struct proc_slot *before = res->slot[find_pid(res, 200)];

		assert_int_equal(scan_all(r, res), 0);
		assert_int_equal(res->n, 3);
		for (size_t k = 0; k < res->n; k++)
			assert_false(res->is_new[k]);
		assert_ptr_equal(res->slot[find_pid(res, 200)], before);
	}

	/* 200 goes away, 500 appears. */
	rm_pid(fr->dir, 200);
	add_pid(fr->dir, 500, "epsilon");
	assert_int_equal(scan_all(r, res), 1);
	assert_int_equal(res->n, 3);
	assert_int_equal(find_pid(res, 200), -1);
	i = find_pid(res, 500);
	assert_int_not_equal(i, -1);
	assert_true(res->is_new[i]);
	assert_false(res->is_new[find_pid(res, 100)]);
	assert_false(res->is_new[find_pid(res, 300)]);
	proc_reader_stats(r, &st);
	assert_int_equal(st.slots, 3);
	/* 200's stat descriptor was closed with its slot: 100 stat, 300 stat and statm. */
	assert_int_equal(st.fds_held, 3);

	/* An explicit drop frees the slot and its descriptors; the next scan finds it anew. */
	i = find_pid(res, 300);
	proc_reader_drop(r, res->slot[i]);
	proc_reader_stats(r, &st);
	assert_int_equal(st.slots, 2);
	assert_int_equal(st.fds_held, 1);
	assert_int_equal(scan_all(r, res), 0);
	i = find_pid(res, 300);
	assert_int_not_equal(i, -1);
	assert_true(res->is_new[i]);
	assert_false(res->is_new[find_pid(res, 100)]);
	assert_false(res->is_new[find_pid(res, 500)]);

	/* restat of a directory that is gone reports the process gone. */
	rm_pid(fr->dir, 500);
	assert_int_equal(proc_reader_restat(r, res->slot[find_pid(res, 500)]), -ESRCH);
	assert_int_equal(proc_reader_restat(r, res->slot[find_pid(res, 100)]), 0);

	/* Everything gone: the scan ends empty and drops all. */
	rm_pid(fr->dir, 100);
	rm_pid(fr->dir, 300);
	assert_int_equal(scan_all(r, res), 3);
	assert_int_equal(res->n, 0);
	proc_reader_stats(r, &st);
	assert_int_equal(st.slots, 0);
	assert_int_equal(st.fds_held, 0);
	proc_reader_free(r);
	free(res);
}

/* Enough PIDs to grow the slot table, then removing every other one exercises deletion. */
/*
 * A root whose ns_last_pid stands still: after a listing made once it had
 * stood still for PROC_LIST_SETTLE_S, scans walk that listing (a directory
 * added without moving the last PID is not seen, a removed one is returned
 * and found gone by its read); a move of the last PID lists the root again.
 */
static void test_fake_listing_reuse(void **state)
{
	struct fake_root *fr = *state;
	struct scan_result *res = calloc(1, sizeof(*res));
	struct proc_reader_stats st;
	struct proc_reader *r;
	char path[256], self[16], buf[512];
	double t0;
	int i;

	assert_non_null(res);
	snprintf(path, sizeof(path), "%s/sys", fr->dir);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/sys/kernel", fr->dir);
	assert_int_equal(mkdir(path, 0755), 0);
	put_file(fr->dir, "sys/kernel/ns_last_pid", "100\n");
	snprintf(path, sizeof(path), "%s/self", fr->dir);
	snprintf(self, sizeof(self), "%d", (int)getpid());
	assert_int_equal(symlink(self, path), 0);
	add_pid(fr->dir, 10, "a");
	add_pid(fr->dir, 20, "b");

	assert_int_equal(proc_reader_new(fr->dir, &r), 0);
	scan_all(r, res); /* the last PID just seen: this listing is not trusted */
	assert_int_equal(res->n, 2);
	usleep((useconds_t)(PROC_LIST_SETTLE_S * 1e6) + 50000);
	scan_all(r, res); /* stood still long enough: trusted */
	assert_int_equal(res->n, 2);

	add_pid(fr->dir, 30, "c");
	scan_all(r, res);
	assert_int_equal(res->n, 2);
	assert_int_equal(find_pid(res, 30), -1);
	proc_reader_stats(r, &st);
	assert_int_equal(st.reused, 1);
	assert_int_equal(st.relisted, 2);

	/* gone without a new PID: listed again, and its read says so */
	rm_pid(fr->dir, 20);
	scan_all(r, res);
	i = find_pid(res, 20);
	assert_int_not_equal(i, -1);
	assert_int_equal(proc_reader_read(r, res->slot[i], PROC_FILE_STAT, buf, sizeof(buf)),
			 -ESRCH);
	proc_reader_drop(r, res->slot[i]);
	scan_all(r, res);
	assert_int_equal(res->n, 1);
	assert_int_equal(res->pid[0], 10);

	/* a PID allocated: the root is read again */
	put_file(fr->dir, "sys/kernel/ns_last_pid", "101\n");
	scan_all(r, res);
	assert_int_equal(res->n, 2);
	assert_int_not_equal(find_pid(res, 30), -1);
	assert_true(res->is_new[find_pid(res, 30)]);

	/* however still the last PID, the root is read again once the listing is
	 * PROC_RELIST_S old (a PID given with set_tid does not move it): not
	 * before, and within a generous deadline after */
	usleep((useconds_t)(PROC_LIST_SETTLE_S * 1e6) + 50000);
	t0 = clock_mono();
	scan_all(r, res); /* trusted: made once the last PID had stood still */
	add_pid(fr->dir, 40, "d");
	for (i = 0; find_pid(res, 40) == -1 && clock_mono() - t0 < PROC_RELIST_S + 30; i++) {
		usleep(20000);
		scan_all(r, res);
	}
	assert_int_not_equal(find_pid(res, 40), -1);
	assert_true(i >= 2);
	assert_true(clock_mono() - t0 >= PROC_RELIST_S);
	proc_reader_free(r);
	rm_pid(fr->dir, 40);
	free(res);
}

static void test_fake_many(void **state)
{
	struct fake_root *fr = *state;
	struct scan_result *res = calloc(1, sizeof(*res));
	struct proc_reader_stats st;
	struct proc_reader *r;
	char path[256];
	const int count = 3000;

	assert_non_null(res);
	for (int k = 0; k < count; k++) {
		/* Spread the PIDs so that probe chains wrap around the table. */
		snprintf(path, sizeof(path), "%s/%d", fr->dir, 7 + k * 37);
		assert_int_equal(mkdir(path, 0755), 0);
	}
	assert_int_equal(proc_reader_new(fr->dir, &r), 0);
	assert_int_equal(scan_all(r, res), 0);
	assert_int_equal(res->n, count);
	for (size_t k = 0; k < res->n; k++)
		assert_true(res->is_new[k]);

	for (int k = 0; k < count; k += 2) {
		snprintf(path, sizeof(path), "%s/%d", fr->dir, 7 + k * 37);
		assert_int_equal(rmdir(path), 0);
	}
	assert_int_equal(scan_all(r, res), count / 2);
	assert_int_equal(res->n, count / 2);
	for (size_t k = 0; k < res->n; k++) {
		assert_false(res->is_new[k]);
		assert_int_equal((res->pid[k] - 7) / 37 % 2, 1);
	}
	proc_reader_stats(r, &st);
	assert_int_equal(st.slots, count / 2);

	/* Every surviving slot is still found (no probe chain was broken). */
	assert_int_equal(scan_all(r, res), 0);
	assert_int_equal(res->n, count / 2);
	for (size_t k = 0; k < res->n; k++)
		assert_false(res->is_new[k]);
	for (int k = 1; k < count; k += 2) {
		snprintf(path, sizeof(path), "%s/%d", fr->dir, 7 + k * 37);
		assert_int_equal(rmdir(path), 0);
	}
	proc_reader_free(r);
	free(res);
}

static void test_live_self(void **state)
{
	struct scan_result *res = calloc(1, sizeof(*res));
	struct proc_reader_stats st;
	struct proc_reader *r;
	struct proc_slot *self;
	struct proc_stat ps;
	char buf[2048];
	ssize_t n;
	int i, fd;

	assert_non_null(res);
	assert_int_equal(proc_reader_new(NULL, &r), 0);
	scan_all(r, res);
	assert_true(res->n > 1);
	i = find_pid(res, getpid());
	assert_int_not_equal(i, -1);
	assert_true(res->is_new[i]);
	assert_int_not_equal(find_pid(res, getppid()), -1);
	self = res->slot[i];
	assert_int_equal(self->uid, geteuid());

	n = proc_reader_read(r, self, PROC_FILE_STAT, buf, sizeof(buf));
	assert_true(n > 0);
	assert_int_equal(proc_parse_stat(buf, (size_t)n, &ps), 0);
	assert_int_equal(ps.pid, getpid());
	assert_int_equal(ps.ppid, getppid());
	assert_int_equal(ps.state, 'R');
	fd = self->fd[PROC_FILE_STAT];
	assert_true(fd >= 0);
	proc_reader_stats(r, &st);
	assert_int_equal(st.fds_held, 1);

	/* Again, through the same descriptor: the kernel regenerates the text. */
	n = proc_reader_read(r, self, PROC_FILE_STAT, buf, sizeof(buf));
	assert_true(n > 0);
	assert_int_equal(proc_parse_stat(buf, (size_t)n, &ps), 0);
	assert_int_equal(ps.pid, getpid());
	assert_int_equal(self->fd[PROC_FILE_STAT], fd);
	proc_reader_stats(r, &st);
	assert_int_equal(st.fds_held, 1);
	assert_int_equal(st.fallback, 0);

	/* The next scan finds the same slot, not a new one. */
	scan_all(r, res);
	i = find_pid(res, getpid());
	assert_int_not_equal(i, -1);
	assert_false(res->is_new[i]);
	assert_ptr_equal(res->slot[i], self);
	proc_reader_free(r);
	free(res);
}

#define TAIL_KIDS 8
static pid_t tail_kids[TAIL_KIDS];

static int kill_tail_kids(void **state)
{
	(void)state;
	for (int k = 0; k < TAIL_KIDS; k++)
		if (tail_kids[k] > 0)
			reap(tail_kids[k]);
	memset(tail_kids, 0, sizeof(tail_kids));
	return 0;
}

static int add_id(void *ctx, int id)
{
	struct scan_result *ids = ctx;

	if (ids->n < MAX_SEEN)
		ids->pid[ids->n++] = id;
	return 0;
}

/* The PIDs /proc lists from the start, in its order (ascending). */
static void list_proc(struct scan_result *ids)
{
	char buf[32768];
	int fd = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	assert_true(fd >= 0);
	ids->n = 0;
	assert_int_equal(proc_dir_ids(fd, buf, sizeof(buf), add_id, ids, NULL), 0);
	close(fd);
}

/*
 * The live /proc: once a listing has settled, a scan after new processes
 * lists the root only past what had settled (a tail), and still finds the
 * new children and every process that lived before and after it, in
 * ascending order, as a listing from the start does.
 */
static void test_live_tail(void **state)
{
	struct scan_result *res = calloc(1, sizeof(*res)), *before = calloc(1, sizeof(*before)),
			   *after = calloc(1, sizeof(*after));
	struct proc_reader_stats st;
	struct proc_reader *r;
	int k, tries;

	(void)state;
	assert_true(res && before && after);
	if (access("/proc/sys/kernel/ns_last_pid", R_OK) != 0) {
		SKIP("no /proc/sys/kernel/ns_last_pid to read: every scan lists from the start");
		goto out;
	}
	assert_int_equal(proc_reader_new(NULL, &r), 0);
	scan_all(r, res);
	for (tries = 0; tries < 20; tries++) {
		usleep((useconds_t)(PROC_LIST_SETTLE_S * 1e6) + 50000);
		scan_all(r, res); /* what had settled is trusted */
		for (k = 0; k < TAIL_KIDS; k++) {
			tail_kids[k] = fork();
			assert_true(tail_kids[k] >= 0);
			if (tail_kids[k] == 0) {
				pause();
				_exit(0);
			}
		}
		proc_reader_stats(r, &st);
		list_proc(before);
		scan_all(r, res);
		list_proc(after);
		{
			struct proc_reader_stats st2;

			proc_reader_stats(r, &st2);
			/* a listing from the start instead (the PIDs wrapped meanwhile): again */
			if (st2.tails > st.tails)
				break;
		}
		kill_tail_kids(state);
	}
	assert_true(tries < 20);
	for (k = 0; k < TAIL_KIDS; k++) {
		int i = find_pid(res, tail_kids[k]);

		assert_int_not_equal(i, -1);
		assert_true(res->is_new[i]);
	}
	assert_int_not_equal(find_pid(res, getpid()), -1);
	for (size_t i = 0; i < before->n; i++)
		if (find_pid(after, before->pid[i]) != -1)
			assert_int_not_equal(find_pid(res, before->pid[i]), -1);
	for (size_t i = 1; i < res->n; i++)
		assert_true(res->pid[i - 1] < res->pid[i]);
	proc_reader_free(r);
out:
	free(res);
	free(before);
	free(after);
}

/* A child a test forked, killed by the teardown if an assertion ended the test early. */
static pid_t live_child;

static int kill_child(void **state)
{
	if (live_child > 0) {
		kill(live_child, SIGKILL);
		waitpid(live_child, NULL, 0);
	}
	live_child = 0;
	return 0;
}

static void test_live_child_gone(void **state)
{
	struct scan_result *res = calloc(1, sizeof(*res));
	struct proc_reader *r;
	struct proc_slot *slot;
	struct proc_stat ps;
	char buf[2048];
	ssize_t n;
	pid_t child;
	int i, status;

	assert_non_null(res);
	child = fork();
	assert_true(child >= 0);
	if (child == 0) {
		pause();
		_exit(0);
	}
	live_child = child;
	assert_int_equal(proc_reader_new(NULL, &r), 0);
	scan_all(r, res);
	i = find_pid(res, child);
	assert_int_not_equal(i, -1);
	slot = res->slot[i];
	n = proc_reader_read(r, slot, PROC_FILE_STAT, buf, sizeof(buf));
	assert_true(n > 0);
	assert_int_equal(proc_parse_stat(buf, (size_t)n, &ps), 0);
	assert_int_equal(ps.pid, child);
	assert_int_equal(ps.ppid, getpid());
	assert_true(slot->fd[PROC_FILE_STAT] >= 0);

	assert_int_equal(kill(child, SIGKILL), 0);
	assert_int_equal(waitpid(child, &status, 0), child);
	live_child = 0;
	assert_true(WIFSIGNALED(status));

	/* The held descriptor fails, the reopen finds no directory: gone. */
	n = proc_reader_read(r, slot, PROC_FILE_STAT, buf, sizeof(buf));
	assert_int_equal(n, -ESRCH);
	assert_int_equal(slot->fd[PROC_FILE_STAT], -1);

	/* The scan does not list it and drops its slot. */
	assert_true(scan_all(r, res) >= 1);
	assert_int_equal(find_pid(res, child), -1);
	proc_reader_free(r);
	free(res);
}

/*
 * The process CPU clock: a child blocked on a pipe reads the same twice, as
 * its schedstat does (one thread: the same run time); once it spins, the
 * clock moves; once reaped, -ESRCH. A fixture root has no clock.
 */
static void test_live_runtime(void **state)
{
	struct scan_result *res = calloc(1, sizeof(*res));
	struct proc_reader *r;
	struct proc_slot *slot;
	uint64_t ns0, ns1;
	int go[2], i;
	double t0;
	pid_t child;

	assert_non_null(res);
	assert_int_equal(pipe(go), 0);
	child = fork();
	assert_true(child >= 0);
	if (child == 0) {
		char c;

		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(1);
		for (volatile unsigned long x = 0;; x++)
			;
	}
	live_child = child;
	close(go[0]);
	t0 = clock_mono();
	while (state_of(child) != 'S') {
		assert_true(clock_mono() - t0 < 30);
		usleep(2000);
	}
	assert_int_equal(proc_reader_new(NULL, &r), 0);
	scan_all(r, res);
	i = find_pid(res, child);
	assert_int_not_equal(i, -1);
	slot = res->slot[i];
	assert_int_equal(proc_reader_runtime(r, slot, &ns0), 0);
	assert_true(ns0 > 0);
	assert_int_equal(proc_reader_runtime(r, slot, &ns1), 0);
	assert_int_equal(ns0, ns1);
	if (schedstat_ns(child) >= 0)
		assert_int_equal(schedstat_ns(child), (int64_t)ns0);

	assert_int_equal(write(go[1], "x", 1), 1);
	close(go[1]);
	t0 = clock_mono();
	do {
		assert_true(clock_mono() - t0 < 30);
		usleep(2000);
		assert_int_equal(proc_reader_runtime(r, slot, &ns1), 0);
	} while (ns1 < ns0 + 10000000u);

	kill_child(state);
	assert_int_equal(proc_reader_runtime(r, slot, &ns1), -ESRCH);
	proc_reader_free(r);
	free(res);
}

static void test_fake_runtime(void **state)
{
	struct fake_root *fr = *state;
	struct scan_result *res = calloc(1, sizeof(*res));
	struct proc_reader *r;
	uint64_t ns;

	assert_non_null(res);
	add_pid(fr->dir, (int)getpid(), "me");
	assert_int_equal(proc_reader_new(fr->dir, &r), 0);
	scan_all(r, res);
	assert_int_equal(res->n, 1);
	/* the PID is ptop's own, but the root is not its namespace's proc */
	assert_int_equal(proc_reader_runtime(r, res->slot[0], &ns), -EOPNOTSUPP);
	proc_reader_free(r);
	free(res);
}

#define BUDGET_HARD (PROC_FD_RESERVE + 44)
#define BUDGET_CHILDREN 120

/*
 * Runs in a forked child, so the lowered limit dies with it. Returns 0 or
 * a distinct code for what failed, printed to stderr.
 */
static int budget_child(void)
{
	struct scan_result *res = calloc(1, sizeof(*res));
	pid_t kids[BUDGET_CHILDREN];
	struct proc_reader_stats st;
	struct rlimit rl = {.rlim_cur = BUDGET_HARD, .rlim_max = BUDGET_HARD};
	struct proc_reader *r;
	unsigned ok = 0, gone = 0, bad = 0, found = 0;
	char buf[2048];
	int code = 0, nkids = 0;

	if (!res || setrlimit(RLIMIT_NOFILE, &rl) != 0) {
		fprintf(stderr, "budget: setrlimit: %s\n", strerror(errno));
		return 10;
	}
	for (; nkids < BUDGET_CHILDREN; nkids++) {
		kids[nkids] = fork();
		if (kids[nkids] < 0) {
			code = 11;
			goto out_kids;
		}
		if (kids[nkids] == 0) {
			pause();
			_exit(0);
		}
	}
	if (proc_reader_new(NULL, &r) != 0) {
		code = 12;
		goto out_kids;
	}
	for (int round = 0; round < 2 && !code; round++) {
		proc_reader_begin(r);
		{
			struct proc_slot *s;
			bool is_new;

			res->n = 0;
			while (proc_reader_next(r, &s, &is_new) == 1 && res->n < MAX_SEEN)
				res->slot[res->n++] = s;
			proc_reader_end(r);
		}
		ok = gone = bad = found = 0;
		for (size_t k = 0; k < res->n; k++) {
			for (int f = PROC_FILE_STAT; f <= PROC_FILE_STATM; f++) {
				struct proc_stat ps;
				ssize_t n = proc_reader_read(r, res->slot[k], (enum proc_file)f,
							     buf, sizeof(buf));

				if (n == -ESRCH) {
					gone++;
				} else if (n <= 0) {
					bad++;
				} else {
					ok++;
					if (f == PROC_FILE_STAT &&
					    (proc_parse_stat(buf, (size_t)n, &ps) != 0 ||
					     ps.pid != res->slot[k]->pid))
						bad++;
				}
			}
			for (int c = 0; c < BUDGET_CHILDREN; c++)
				found += kids[c] == res->slot[k]->pid;
		}
		proc_reader_stats(r, &st);
		if (st.fd_budget != BUDGET_HARD - PROC_FD_RESERVE) {
			fprintf(stderr, "budget: fd_budget %u, not %d\n", st.fd_budget,
				BUDGET_HARD - PROC_FD_RESERVE);
			code = 13;
		} else if (found != BUDGET_CHILDREN || bad) {
			fprintf(stderr, "budget: round %d: found %u of %d children, %u bad reads\n",
				round, found, BUDGET_CHILDREN, bad);
			code = 14;
		} else if (ok <= 2 * st.fd_budget || st.fallback == 0 ||
			   st.fallback + st.fds_held < ok) {
			fprintf(stderr, "budget: round %d: %u reads, fallback %u, held %u\n", round,
				ok, st.fallback, st.fds_held);
			code = 15;
		} else if (st.fds_held > st.fd_budget) {
			fprintf(stderr, "budget: %u held over budget %u\n", st.fds_held,
				st.fd_budget);
			code = 16;
		}
	}
	proc_reader_free(r);
out_kids:
	for (int k = 0; k < nkids; k++) {
		kill(kids[k], SIGKILL);
		waitpid(kids[k], NULL, 0);
	}
	free(res);
	return code;
}

static void test_live_budget_fallback(void **state)
{
	struct rlimit rl;
	pid_t child;
	int status;

	assert_int_equal(getrlimit(RLIMIT_NOFILE, &rl), 0);
	if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < BUDGET_HARD) {
		skip(); /* the hard limit is already below what this test sets */
		return;
	}
	child = fork();
	assert_true(child >= 0);
	if (child == 0)
		_exit(budget_child());
	assert_int_equal(waitpid(child, &status, 0), child);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

struct tid_set {
	int tids[16];
	int n;
};

static int collect_tid(void *ctx, int tid)
{
	struct tid_set *t = ctx;

	if (t->n < 16)
		t->tids[t->n++] = tid;
	return 0;
}

static bool has_tid(const struct tid_set *t, int tid)
{
	for (int i = 0; i < t->n; i++)
		if (t->tids[i] == tid)
			return true;
	return false;
}

/* proc_tasks(), the reader-less walk perf/ uses, under a fake root and the real one. */
static void test_tasks_fake_and_live(void **state)
{
	struct fake_root *fr = *state;
	struct proc_reader *r;
	struct tid_set a = {0}, b = {0};
	char path[512];

	for (const char *const *d = (const char *const[]){"123", "123/task", "123/task/123",
							  "123/task/130", "123/task/x1", NULL};
	     *d; d++) {
		snprintf(path, sizeof(path), "%s/%s", fr->dir, *d);
		assert_int_equal(mkdir(path, 0755), 0);
	}
	assert_int_equal(proc_tasks(fr->dir, 123, collect_tid, &a), 0);
	assert_int_equal(a.n, 2); /* "x1" is no thread */
	assert_true(has_tid(&a, 123) && has_tid(&a, 130));
	/* the reader's walk is the same walk */
	assert_int_equal(proc_reader_new(fr->dir, &r), 0);
	assert_int_equal(proc_reader_tasks(r, 123, collect_tid, &b), 0);
	proc_reader_free(r);
	assert_int_equal(b.n, 2);
	assert_int_equal(proc_tasks(fr->dir, 124, collect_tid, &a), -ESRCH);
	snprintf(path, sizeof(path), "%s/no-such-root", fr->dir);
	assert_int_equal(proc_tasks(path, 123, collect_tid, &a), -ENOENT);
	/* the real /proc: this process's one thread is itself */
	memset(&a, 0, sizeof(a));
	assert_int_equal(proc_tasks(NULL, getpid(), collect_tid, &a), 0);
	assert_int_equal(a.n, 1);
	assert_int_equal(a.tids[0], getpid());
}

static int stop_at_5(void *ctx, int id)
{
	collect_tid(ctx, id);
	return id == 5 ? 42 : 0;
}

/*
 * proc_dir_ids(), the getdents64 walk bench/ uses: every all-digits name and
 * only those, across many small reads of a buffer too small for the whole
 * directory, stopped by the callback's non-zero, and errors as -errno.
 */
static void test_dir_ids(void **state)
{
	struct fake_root *fr = *state;
	struct tid_set a = {0};
	char path[512], buf[128];
	uint64_t calls = 0;
	int fd;

	for (const char *const *d = (const char *const[]){"1", "5", "12", "300", "4194304", "self",
							  "1x", "x1", "007", NULL};
	     *d; d++) {
		snprintf(path, sizeof(path), "%s/%s", fr->dir, *d);
		assert_int_equal(mkdir(path, 0755), 0);
	}
	fd = open(fr->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(fd >= 0);
	assert_int_equal(proc_dir_ids(fd, buf, sizeof(buf), collect_tid, &a, &calls), 0);
	assert_int_equal(a.n, 6); /* 1 5 12 300 4194304 007 */
	assert_true(has_tid(&a, 1) && has_tid(&a, 5) && has_tid(&a, 12) && has_tid(&a, 300) &&
		    has_tid(&a, 4194304) && has_tid(&a, 7));
	assert_true(calls > 2); /* the small buffer took several reads, and one gave 0 */
	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	memset(&a, 0, sizeof(a));
	assert_int_equal(proc_dir_ids(fd, buf, sizeof(buf), stop_at_5, &a, NULL), 42);
	assert_true(has_tid(&a, 5));
	close(fd);
	assert_int_equal(proc_dir_ids(-1, buf, sizeof(buf), collect_tid, &a, NULL), -EBADF);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_new_missing_root),
	    cmocka_unit_test_setup_teardown(test_fake_scan_lifecycle, fake_setup, fake_teardown),
	    cmocka_unit_test_setup_teardown(test_fake_many, fake_setup, fake_teardown),
	    cmocka_unit_test_setup_teardown(test_fake_listing_reuse, fake_setup, fake_teardown),
	    cmocka_unit_test_setup_teardown(test_tasks_fake_and_live, fake_setup, fake_teardown),
	    cmocka_unit_test_setup_teardown(test_dir_ids, fake_setup, fake_teardown),
	    cmocka_unit_test(test_live_self),
	    cmocka_unit_test_teardown(test_live_child_gone, kill_child),
	    cmocka_unit_test(test_live_budget_fallback),
	    cmocka_unit_test_teardown(test_live_tail, kill_tail_kids),
	    cmocka_unit_test_teardown(test_live_runtime, kill_child),
	    cmocka_unit_test_setup_teardown(test_fake_runtime, fake_setup, fake_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
