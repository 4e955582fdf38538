// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_taskstats.c: unit tests for the taskstats reader (src/proc/taskstats.c):
 * the replies a kernel gave (tests/fixtures/taskstats, from Linux 6.18 on
 * x86-64: host byte order, as netlink is; the family lookup,
 * PID 1's stats, the errors for a task that is gone and for a caller without
 * CAP_NET_ADMIN), each figure read where struct taskstats keeps it, every
 * prefix of a reply and replies made hostile (lengths that overrun, a stats
 * struct too short, another family, an acknowledgement), each with its exact
 * error code; then the live kernel: a sleeping child's cpu_delay_total is
 * its schedstat's run delay, a vanished PID is -ESRCH, and a caller that
 * dropped to nobody is refused. Inputs sit in heap buffers of exactly their
 * length so ASan catches an over-read.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <grp.h>
#include <linux/genetlink.h>
#include <linux/taskstats.h>

#include "ptop/proc.h"
#include "child.h"
#include "fixture.h"

/* The family id the fixtures' kernel gave TASKSTATS. */
#define FAMILY 31
/* In get-pid1: the header (16), genetlink's (4), AGGR_PID's (4), PID's (8), STATS' (4). */
#define STATS_AT 36

static void put_u16(char *b, size_t at, uint16_t v)
{
	memcpy(b + at, &v, sizeof(v));
}

static void put_u32(char *b, size_t at, uint32_t v)
{
	memcpy(b + at, &v, sizeof(v));
}

static void put_u64(char *b, size_t at, uint64_t v)
{
	memcpy(b + at, &v, sizeof(v));
}

static void test_family(void **state)
{
	size_t len;
	char *b = fixture_load("taskstats/family", &len);
	uint16_t id = 0;

	assert_int_equal(proc_taskstats_parse_family(b, len, &id), 0);
	assert_int_equal(id, FAMILY);
	free(b);
	b = fixture_load("taskstats/family-enoent", &len);
	assert_int_equal(proc_taskstats_parse_family(b, len, &id), -ENOENT);
	free(b);
}

static void test_reply(void **state)
{
	struct proc_taskstats ts;
	size_t len;
	char *b = fixture_load("taskstats/get-pid1", &len);

	assert_int_equal(proc_taskstats_parse_reply(b, len, FAMILY, &ts), 0);
	assert_int_equal(ts.pid, 1);
	/* a newer kernel's struct than the headers': read all the same */
	assert_int_equal(ts.version, 16);
	assert_true(ts.cpu_delay_ns == 78245552);
	assert_true(ts.blkio_delay_ns == 0 && ts.swapin_delay_ns == 0);
	/* each figure where version 1 put it */
	put_u64(b, STATS_AT + offsetof(struct taskstats, cpu_delay_total), 111);
	put_u64(b, STATS_AT + offsetof(struct taskstats, blkio_delay_total), 222);
	put_u64(b, STATS_AT + offsetof(struct taskstats, swapin_delay_total), UINT64_MAX);
	assert_int_equal(proc_taskstats_parse_reply(b, len, FAMILY, &ts), 0);
	assert_true(ts.cpu_delay_ns == 111 && ts.blkio_delay_ns == 222);
	assert_true(ts.swapin_delay_ns == UINT64_MAX);
	free(b);
}

static void test_errors(void **state)
{
	struct proc_taskstats ts;
	size_t len;
	char *b = fixture_load("taskstats/get-esrch", &len);

	assert_int_equal(proc_taskstats_parse_reply(b, len, FAMILY, &ts), -ESRCH);
	free(b);
	b = fixture_load("taskstats/get-eperm", &len);
	assert_int_equal(proc_taskstats_parse_reply(b, len, FAMILY, &ts), -EPERM);
	/* an acknowledgement (error 0) and a positive error bring no stats */
	put_u32(b, 16, 0);
	assert_int_equal(proc_taskstats_parse_reply(b, len, FAMILY, &ts), -EINVAL);
	put_u32(b, 16, 5);
	assert_int_equal(proc_taskstats_parse_reply(b, len, FAMILY, &ts), -EINVAL);
	/* an error message too short for its code */
	put_u32(b, 0, 18);
	assert_int_equal(proc_taskstats_parse_reply(b, len, FAMILY, &ts), -EINVAL);
	free(b);
}

/* Every prefix of a reply is cut short: the header's length says more than is there. */
static void test_prefixes(void **state)
{
	struct proc_taskstats ts;
	uint16_t id;
	size_t len, flen;
	char *b = fixture_load("taskstats/get-pid1", &len);
	char *f = fixture_load("taskstats/family", &flen);

	for (size_t n = 0; n < len; n++) {
		char *p = malloc(n ? n : 1);

		assert_non_null(p);
		memcpy(p, b, n);
		assert_int_equal(proc_taskstats_parse_reply(p, n, FAMILY, &ts), -EINVAL);
		free(p);
	}
	for (size_t n = 0; n < flen; n++) {
		char *p = malloc(n ? n : 1);

		assert_non_null(p);
		memcpy(p, f, n);
		assert_int_equal(proc_taskstats_parse_family(p, n, &id), -EINVAL);
		free(p);
	}
	free(b);
	free(f);
}

/* A copy of get-pid1 to spoil, in a buffer of exactly its length. */
static char *pid1(size_t *len)
{
	return fixture_load("taskstats/get-pid1", len);
}

static void test_hostile(void **state)
{
	struct proc_taskstats ts;
	uint16_t id;
	size_t len, flen;
	char *b, *f;

	/* another family's message, another command, the other parser's reply */
	b = pid1(&len);
	assert_int_equal(proc_taskstats_parse_reply(b, len, FAMILY + 1, &ts), -EINVAL);
	b[16] = TASKSTATS_CMD_GET;
	assert_int_equal(proc_taskstats_parse_reply(b, len, FAMILY, &ts), -EINVAL);
	free(b);
	b = pid1(&len);
	assert_int_equal(proc_taskstats_parse_family(b, len, &id), -EINVAL);
	f = fixture_load("taskstats/family", &flen);
	assert_int_equal(proc_taskstats_parse_reply(f, flen, GENL_ID_CTRL, &ts), -EINVAL);
	/* a family id that is the control family's own or below it */
	for (size_t at = 20; at + 4 <= flen;) {
		uint16_t alen, type;

		memcpy(&alen, f + at, 2);
		memcpy(&type, f + at + 2, 2);
		if (type == CTRL_ATTR_FAMILY_ID)
			put_u16(f, at + 4, GENL_ID_CTRL);
		at += (alen + 3u) & ~3u;
	}
	assert_int_equal(proc_taskstats_parse_family(f, flen, &id), -EINVAL);
	free(f);
	/* an outer attribute of length 0, one below its header, one past the message */
	put_u16(b, 20, 0);
	assert_int_equal(proc_taskstats_parse_reply(b, len, FAMILY, &ts), -EINVAL);
	put_u16(b, 20, 3);
	assert_int_equal(proc_taskstats_parse_reply(b, len, FAMILY, &ts), -EINVAL);
	put_u16(b, 20, (uint16_t)(len - 20 + 4));
	assert_int_equal(proc_taskstats_parse_reply(b, len, FAMILY, &ts), -EINVAL);
	free(b);
	/* a nested attribute running past its parent */
	b = pid1(&len);
	put_u16(b, STATS_AT - 4, 2000);
	assert_int_equal(proc_taskstats_parse_reply(b, len, FAMILY, &ts), -EINVAL);
	free(b);
	/* stats too short to reach swapin_delay_total */
	b = pid1(&len);
	put_u16(b, STATS_AT - 4,
		(uint16_t)(4 + offsetof(struct taskstats, swapin_delay_total) + 7));
	assert_int_equal(proc_taskstats_parse_reply(b, len, FAMILY, &ts), -EINVAL);
	/* ... and just long enough, with the nest cut to end where the stats do */
	put_u16(b, STATS_AT - 4,
		(uint16_t)(4 + offsetof(struct taskstats, swapin_delay_total) + 8));
	put_u16(b, 20,
		(uint16_t)(STATS_AT - 20 + offsetof(struct taskstats, swapin_delay_total) + 8));
	assert_int_equal(proc_taskstats_parse_reply(b, len, FAMILY, &ts), 0);
	assert_int_equal(ts.pid, 1);
	free(b);
	/* a nest without its stats, or without the PID */
	b = pid1(&len);
	put_u16(b, STATS_AT - 2, TASKSTATS_TYPE_NULL);
	assert_int_equal(proc_taskstats_parse_reply(b, len, FAMILY, &ts), -EINVAL);
	free(b);
	b = pid1(&len);
	put_u16(b, 26, TASKSTATS_TYPE_NULL);
	assert_int_equal(proc_taskstats_parse_reply(b, len, FAMILY, &ts), -EINVAL);
	free(b);
	/* no nest at all */
	b = pid1(&len);
	put_u16(b, 22, TASKSTATS_TYPE_NULL);
	assert_int_equal(proc_taskstats_parse_reply(b, len, FAMILY, &ts), -EINVAL);
	free(b);
}

/* pid's run delay (schedstat's second figure), ns; -1 without it. */
static int64_t run_delay(pid_t pid)
{
	struct proc_schedstat ss;
	char path[64], buf[128];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/schedstat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n <= 0 || proc_parse_schedstat(buf, (size_t)n, &ss))
		return -1;
	return (int64_t)ss.wait_ns;
}

/*
 * The live kernel: a sleeping child's cpu_delay_total is the run delay its schedstat
 * gives (both the scheduler's sched_info.run_delay), which proves the reply is read
 * where the kernel writes it.
 */
static void test_live(void **state)
{
	struct proc_taskstats_conn *c;
	struct proc_taskstats ts;
	int err = proc_taskstats_open(&c);
	pid_t kid;
	bool agreed = false;

	if (err == -ENOENT || err == -EOPNOTSUPP)
		SKIP("no taskstats in this kernel (%s)", strerror(-err));
	assert_int_equal(err, 0);
	err = proc_taskstats_get(c, getpid(), &ts);
	if (err == -EPERM || err == -EACCES) {
		proc_taskstats_close(c);
		SKIP("taskstats needs CAP_NET_ADMIN");
	}
	assert_int_equal(err, 0);
	assert_int_equal(ts.pid, getpid());
	if (run_delay(getpid()) < 0) {
		proc_taskstats_close(c);
		SKIP("no schedstat to compare with (CONFIG_SCHED_INFO)");
	}
	kid = fork();
	assert_true(kid >= 0);
	if (kid == 0) {
		for (;;)
			pause();
	}
	settle(kid);
	/* asleep, its run delay does not move: equal, or a few microseconds apart were it
	 * woken between the two reads */
	for (int i = 0; i < 100 && !agreed; i++) {
		int64_t before = run_delay(kid), after;

		assert_int_equal(proc_taskstats_get(c, kid, &ts), 0);
		after = run_delay(kid);
		assert_int_equal(ts.pid, kid);
		if (before >= 0 && before == after) {
			int64_t d = (int64_t)ts.cpu_delay_ns - before;

			assert_true(d >= -5000 && d <= 5000);
			agreed = true;
		}
	}
	assert_true(agreed);
	reap(kid);
	assert_int_equal(proc_taskstats_get(c, gone_pid(), &ts), -ESRCH);
	proc_taskstats_close(c);
}

/* Without CAP_NET_ADMIN (root dropped to nobody in a child): refused, -EPERM. */
static void test_refused(void **state)
{
	int status;
	pid_t kid;

	if (geteuid() != 0)
		SKIP("not root: no uid to drop from");
	kid = fork();
	assert_true(kid >= 0);
	if (kid == 0) {
		struct proc_taskstats_conn *c;
		struct proc_taskstats ts;
		int err;

		if (setgroups(0, NULL) || setresgid(65534, 65534, 65534) ||
		    setresuid(65534, 65534, 65534))
			_exit(100);
		err = proc_taskstats_open(&c);
		if (err)
			_exit(err == -ENOENT || err == -EOPNOTSUPP ? 101 : 102);
		err = proc_taskstats_get(c, getppid(), &ts);
		_exit(err == -EPERM || err == -EACCES ? 0 : 103);
	}
	assert_int_equal(waitpid(kid, &status, 0), kid);
	assert_true(WIFEXITED(status));
	if (WEXITSTATUS(status) == 101)
		SKIP("no taskstats in this kernel");
	assert_int_equal(WEXITSTATUS(status), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_family),  cmocka_unit_test(test_reply),
	    cmocka_unit_test(test_errors),  cmocka_unit_test(test_prefixes),
	    cmocka_unit_test(test_hostile), cmocka_unit_test(test_live),
	    cmocka_unit_test(test_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
