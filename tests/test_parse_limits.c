// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_parse_limits.c: unit tests for proc_parse_limits_nofile(),
 * proc_parse_rollup(), proc_parse_oom(), proc_parse_wchan(), proc_parse_autogroup() and
 * proc_parse_secattr(), proc_parse_ns_link()
 * (src/proc/parse_limits.c): fixtures of real and
 * hostile text, this process's own files, and every prefix of a real file
 * (cut short) refused. Inputs sit in heap buffers of exactly their length so
 * ASan catches an over-read.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <sys/resource.h>

#include "ptop/proc.h"
#include "fixture.h"

static int limits(const char *rel, uint64_t *soft)
{
	size_t len;
	char *b = fixture_load(rel, &len);
	int err = proc_parse_limits_nofile(b, len, soft);

	free(b);
	return err;
}

static int rollup(const char *rel, struct proc_rollup *r)
{
	size_t len;
	char *b = fixture_load(rel, &len);
	int err = proc_parse_rollup(b, len, r);

	free(b);
	return err;
}

static void test_limits_fixtures(void **state)
{
	uint64_t soft;

	(void)state;
	assert_int_equal(limits("limits/init", &soft), 0);
	assert_int_equal(soft, 65536);
	assert_int_equal(limits("limits/unlimited", &soft), 0);
	assert_true(soft == UINT64_MAX);
	assert_int_equal(limits("limits/hostile-twice", &soft), -EINVAL);
	assert_int_equal(limits("limits/hostile-missing", &soft), -EINVAL);
	assert_int_equal(limits("limits/hostile-cut", &soft), -EINVAL);
	assert_int_equal(limits("limits/hostile-overflow", &soft), -ERANGE);
	assert_int_equal(proc_parse_limits_nofile("", 0, &soft), -EINVAL);
}

static void test_rollup_fixtures(void **state)
{
	struct proc_rollup r;

	(void)state;
	assert_int_equal(rollup("rollup/shell", &r), 0);
	assert_int_equal(r.pss_kb, 983);
	assert_int_equal(r.swap_pss_kb, 0);
	assert_int_equal(r.pss_anon_kb, 739);
	assert_int_equal(r.pss_file_kb, 243);
	assert_int_equal(r.pss_shmem_kb, 0);
	assert_int_equal(r.private_clean_kb, 40);
	assert_int_equal(r.private_dirty_kb, 380);
	assert_int_equal(r.rss_kb, 4360);
	assert_int_equal(r.have, PROC_ROLLUP_SPLIT | PROC_ROLLUP_PRIVATE | PROC_ROLLUP_SWAPPSS |
				     PROC_ROLLUP_RSS);
	assert_int_equal(rollup("rollup/old-noswappss", &r), 0);
	assert_int_equal(r.pss_kb, 983);
	assert_int_equal(r.have, PROC_ROLLUP_SPLIT | PROC_ROLLUP_PRIVATE | PROC_ROLLUP_RSS);
	/* before Linux 5.9: no Pss_Anon, Pss_File, Pss_Shmem */
	assert_int_equal(rollup("rollup/old-nosplit", &r), 0);
	assert_int_equal(r.pss_kb, 1017);
	assert_int_equal(r.private_clean_kb + r.private_dirty_kb, 1044);
	assert_int_equal(r.swap_pss_kb, 32);
	assert_int_equal(r.pss_anon_kb, 0);
	assert_int_equal(r.rss_kb, 3904);
	assert_int_equal(r.have, PROC_ROLLUP_PRIVATE | PROC_ROLLUP_SWAPPSS | PROC_ROLLUP_RSS);
	assert_int_equal(rollup("rollup/hostile-split-twice", &r), -EINVAL);
	assert_int_equal(rollup("rollup/kthread", &r), -ENODATA);
	assert_int_equal(rollup("rollup/hostile-nopss", &r), -EINVAL);
	assert_int_equal(rollup("rollup/hostile-cut", &r), -EINVAL);
	assert_int_equal(rollup("rollup/hostile-unit", &r), -EINVAL);
	assert_int_equal(rollup("rollup/hostile-twice", &r), -EINVAL);
}

static int oom(const char *rel, int *v)
{
	size_t len;
	char *b = fixture_load(rel, &len);
	int err = proc_parse_oom(b, len, v);

	free(b);
	return err;
}

static void test_oom_fixtures(void **state)
{
	int v;

	(void)state;
	assert_int_equal(oom("oom/score", &v), 0);
	assert_int_equal(v, 667);
	assert_int_equal(oom("oom/adj-min", &v), 0);
	assert_int_equal(v, -1000);
	assert_int_equal(oom("oom/zero", &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(oom("oom/hostile-cut", &v), -EINVAL);
	assert_int_equal(oom("oom/hostile-trail", &v), -EINVAL);
	assert_int_equal(oom("oom/hostile-sign", &v), -EINVAL);
	assert_int_equal(oom("oom/hostile-empty", &v), -EINVAL);
	assert_int_equal(oom("oom/hostile-two", &v), -EINVAL);
	assert_int_equal(oom("oom/hostile-overflow", &v), -ERANGE);
	assert_int_equal(proc_parse_oom("", 0, &v), -EINVAL);
}

static int wchan(const char *rel, const char **name, size_t *n)
{
	size_t len;
	char *b = fixture_load(rel, &len);
	int err = proc_parse_wchan(b, len, name, n);

	/* the name points into the buffer: compared by the caller before it goes */
	if (!err && *n)
		*name = strndup(*name, *n);
	free(b);
	return err;
}

/* The wchan fixture rel parses to want ("" for "0"). */
static void wchan_is(const char *rel, const char *want)
{
	const char *name;
	size_t n;

	assert_int_equal(wchan(rel, &name, &n), 0);
	assert_int_equal(n, strlen(want));
	if (n) {
		assert_memory_equal(name, want, n);
		free((void *)name);
	}
}

static void test_wchan_fixtures(void **state)
{
	const char *name;
	size_t n;

	(void)state;
	wchan_is("wchan/constprop", "poll_schedule_timeout.constprop.0");
	wchan_is("wchan/epoll", "do_epoll_wait");
	wchan_is("wchan/kthreadd", "kthreadd");
	wchan_is("wchan/running", "");
	assert_int_equal(wchan("wchan/long-max", &name, &n), 0);
	assert_int_equal(n, PROC_WCHAN_MAX - 1);
	free((void *)name);
	assert_int_equal(wchan("wchan/hostile-empty", &name, &n), -EINVAL);
	assert_int_equal(wchan("wchan/hostile-newline", &name, &n), -EINVAL);
	assert_int_equal(wchan("wchan/hostile-zero-newline", &name, &n), -EINVAL);
	assert_int_equal(wchan("wchan/hostile-space", &name, &n), -EINVAL);
	assert_int_equal(wchan("wchan/hostile-nul", &name, &n), -EINVAL);
	assert_int_equal(wchan("wchan/hostile-long", &name, &n), -ERANGE);
	assert_int_equal(proc_parse_wchan("", 0, &name, &n), -EINVAL);
}

static int agrp(const char *rel, int64_t *id, int *nice)
{
	size_t len;
	char *b = fixture_load(rel, &len);
	int err = proc_parse_autogroup(b, len, id, nice);

	free(b);
	return err;
}

static void test_autogroup_fixtures(void **state)
{
	int64_t id;
	int nice;

	(void)state;
	assert_int_equal(agrp("autogroup/session", &id, &nice), 0);
	assert_int_equal(id, 6257);
	assert_int_equal(nice, 0);
	assert_int_equal(agrp("autogroup/niced", &id, &nice), 0);
	assert_int_equal(id, 12);
	assert_int_equal(nice, -5);
	assert_int_equal(agrp("autogroup/nice-max", &id, &nice), 0);
	assert_int_equal(nice, 19);
	assert_int_equal(agrp("autogroup/root-group", &id, &nice), -ENODATA);
	assert_int_equal(agrp("autogroup/hostile-cut", &id, &nice), -EINVAL);
	assert_int_equal(agrp("autogroup/hostile-nonl", &id, &nice), -EINVAL);
	assert_int_equal(agrp("autogroup/hostile-two", &id, &nice), -EINVAL);
	assert_int_equal(agrp("autogroup/hostile-prefix", &id, &nice), -EINVAL);
	assert_int_equal(agrp("autogroup/hostile-space", &id, &nice), -EINVAL);
	assert_int_equal(agrp("autogroup/hostile-noid", &id, &nice), -EINVAL);
	assert_int_equal(agrp("autogroup/hostile-nice", &id, &nice), -ERANGE);
	assert_int_equal(agrp("autogroup/hostile-negid", &id, &nice), -ERANGE);
	assert_int_equal(agrp("autogroup/hostile-overflow", &id, &nice), -ERANGE);
}

/* The label the secattr fixture rel gives, compared with want (NULL: err expected). */
static void secattr_is(const char *rel, const char *want, int err)
{
	const char *label;
	size_t len, n;
	char *b = fixture_load(rel, &len);

	assert_int_equal(proc_parse_secattr(b, len, &label, &n), err);
	if (!err) {
		assert_ptr_equal(label, b);
		assert_int_equal(n, strlen(want));
		assert_memory_equal(label, want, n);
	}
	free(b);
}

static void test_secattr_fixtures(void **state)
{
	(void)state;
	secattr_is("secattr/apparmor-unconfined", "unconfined", 0);
	secattr_is("secattr/apparmor-enforce", "/usr/sbin/cupsd (enforce)", 0);
	secattr_is("secattr/selinux", "system_u:system_r:init_t:s0", 0);
	secattr_is("secattr/smack", "_", 0);
	secattr_is("secattr/hostile-empty", NULL, -ENODATA);
	secattr_is("secattr/hostile-newline", NULL, -ENODATA);
	secattr_is("secattr/hostile-two", NULL, -EINVAL);
	secattr_is("secattr/hostile-nul", NULL, -EINVAL);
}

/* The uid the loginuid fixture rel gives, compared with want, or err. */
static void loginuid_is(const char *rel, uint32_t want, int err)
{
	size_t len;
	uint32_t uid = 7;
	char *b = fixture_load(rel, &len);

	assert_int_equal(proc_parse_loginuid(b, len, &uid), err);
	assert_int_equal(uid, err ? 0 : want);
	free(b);
}

static void test_loginuid_fixtures(void **state)
{
	static const struct {
		const char *rel;
		uint32_t want;
		int err;
	} cases[] = {
	    {"loginuid/user", 1000, 0},
	    {"loginuid/root", 0, 0},
	    /* none set: (uid_t)-1, which top shows as -1 */
	    {"loginuid/unset", UINT32_MAX, 0},
	    {"loginuid/hostile-empty", 0, -EINVAL},
	    {"loginuid/hostile-newline", 0, -EINVAL},
	    {"loginuid/hostile-negative", 0, -EINVAL},
	    {"loginuid/hostile-space", 0, -EINVAL},
	    {"loginuid/hostile-overflow", 0, -ERANGE},
	    {"loginuid/hostile-huge", 0, -ERANGE},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		loginuid_is(cases[i].rel, cases[i].want, cases[i].err);
}

/* The CPU list fixture rel read for 64 CPUs: err, and the CPUs set as a mask. */
static void cpulist_is(const char *rel, uint64_t want, int err)
{
	size_t len;
	uint8_t set[8] = {0};
	uint64_t got = 0;
	char *b = fixture_load(rel, &len);

	assert_int_equal(proc_parse_cpulist(b, len, set, 64), err);
	for (int c = 0; c < 64; c++)
		got |= (uint64_t)(set[c / 8] >> (c % 8) & 1) << c;
	if (!err)
		assert_true(got == want);
	free(b);
}

static void test_cpulist_fixtures(void **state)
{
	static const struct {
		const char *rel;
		uint64_t want; /* the CPUs, as a mask */
		int err;
	} cases[] = {
	    {"cpulist/ranges", 0xf | 1u << 8 | 3u << 10, 0},
	    {"cpulist/one", 1, 0},
	    /* a node without CPUs (memory only) */
	    {"cpulist/none", 0, 0},
	    {"cpulist/hostile-nonl", 0, -EINVAL},
	    {"cpulist/hostile-backwards", 0, -EINVAL},
	    {"cpulist/hostile-trailing", 0, -EINVAL},
	    {"cpulist/hostile-space", 0, -EINVAL},
	    {"cpulist/hostile-two", 0, -EINVAL},
	    {"cpulist/hostile-beyond", 0, -ERANGE},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		cpulist_is(cases[i].rel, cases[i].want, cases[i].err);
}

/* A ns link's target as readlink gives it (no NUL), in a heap block of exactly its length. */
static int ns_link(const char *text, uint64_t *ino)
{
	size_t len = strlen(text);
	char *b = malloc(len ? len : 1);
	int err;

	assert_non_null(b);
	memcpy(b, text, len);
	err = proc_parse_ns_link(b, len, ino);
	free(b);
	return err;
}

static void test_ns_link(void **state)
{
	uint64_t ino = 1;

	(void)state;
	assert_int_equal(ns_link("net:[4026531840]", &ino), 0);
	assert_int_equal(ino, 4026531840u);
	assert_int_equal(ns_link("time:[18446744073709551615]", &ino), 0);
	assert_int_equal(ino, UINT64_MAX);
	assert_int_equal(ns_link("net:[18446744073709551616]", &ino), -ERANGE);
	assert_int_equal(ino, 0);
	assert_int_equal(ns_link("net:[0]", &ino), -ERANGE);
	assert_int_equal(ns_link("", &ino), -EINVAL);
	assert_int_equal(ns_link("[1]", &ino), -EINVAL);
	assert_int_equal(ns_link("net:[]", &ino), -EINVAL);
	assert_int_equal(ns_link("net:[12", &ino), -EINVAL);
	assert_int_equal(ns_link("net:[1 2]", &ino), -EINVAL);
	assert_int_equal(ns_link("net:[12]x", &ino), -EINVAL);
	assert_int_equal(ns_link("net:12", &ino), -EINVAL);
}

/* Read a file of this process into a heap buffer of exactly its length. */
static char *own(const char *name, size_t *len)
{
	char path[64], tmp[8192];
	ssize_t n;
	char *b;
	int fd;

	snprintf(path, sizeof(path), "/proc/self/%s", name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	n = read(fd, tmp, sizeof(tmp));
	close(fd);
	assert_true(n > 0);
	*len = (size_t)n;
	b = malloc(*len);
	assert_non_null(b);
	memcpy(b, tmp, *len);
	return b;
}

/* This process's autogroup, where the kernel has them: one line, or none (the root group). */
static void own_autogroup(void)
{
	char tmp[128];
	int64_t id;
	ssize_t len;
	int fd = open("/proc/self/autogroup", O_RDONLY | O_CLOEXEC), nice, err;

	if (fd < 0)
		return; /* a kernel without CONFIG_SCHED_AUTOGROUP */
	len = read(fd, tmp, sizeof(tmp));
	close(fd);
	assert_true(len >= 0);
	err = proc_parse_autogroup(tmp, (size_t)len, &id, &nice);
	assert_true(err == 0 || (err == -ENODATA && len == 0));
	if (!err)
		assert_true(id > 0 && nice >= -20 && nice <= 19);
	for (ssize_t k = 0; k < len; k++)
		assert_int_not_equal(proc_parse_autogroup(tmp, (size_t)k, &id, &nice), 0);
}

static void test_own(void **state)
{
	struct proc_rollup r;
	struct rlimit rl;
	const char *name;
	uint64_t soft;
	size_t len, name_len;
	char *b;
	int v;

	(void)state;
	b = own("limits", &len);
	assert_int_equal(proc_parse_limits_nofile(b, len, &soft), 0);
	assert_int_equal(getrlimit(RLIMIT_NOFILE, &rl), 0);
	if (rl.rlim_cur == RLIM_INFINITY)
		assert_true(soft == UINT64_MAX);
	else
		assert_int_equal(soft, rl.rlim_cur);
	/* every prefix that cuts the line short is refused */
	for (size_t n = 0; n < len; n++) {
		const char *at = memmem(b, len, "Max open files", 14);
		const char *eol = at ? memchr(at, '\n', len - (size_t)(at - b)) : NULL;

		if (eol && n > (size_t)(at - b) && n <= (size_t)(eol - b))
			assert_int_not_equal(proc_parse_limits_nofile(b, n, &soft), 0);
	}
	free(b);
	b = own("smaps_rollup", &len);
	assert_int_equal(proc_parse_rollup(b, len, &r), 0);
	assert_true(r.pss_kb > 0);
	for (size_t n = 1; n < len; n++)
		if (b[n - 1] != '\n')
			assert_int_not_equal(proc_parse_rollup(b, n, &r), 0);
	free(b);
	b = own("oom_score_adj", &len);
	assert_int_equal(proc_parse_oom(b, len, &v), 0);
	assert_true(v >= -1000 && v <= 1000);
	for (size_t n = 0; n < len; n++)
		assert_int_not_equal(proc_parse_oom(b, n, &v), 0);
	free(b);
	b = own("oom_score", &len);
	assert_int_equal(proc_parse_oom(b, len, &v), 0);
	assert_true(v >= 0);
	free(b);
	/* running now, or refused a look: "0" either way; a symbol otherwise */
	b = own("wchan", &len);
	assert_int_equal(proc_parse_wchan(b, len, &name, &name_len), 0);
	free(b);
	own_autogroup();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_limits_fixtures),
	    cmocka_unit_test(test_rollup_fixtures),
	    cmocka_unit_test(test_oom_fixtures),
	    cmocka_unit_test(test_wchan_fixtures),
	    cmocka_unit_test(test_autogroup_fixtures),
	    cmocka_unit_test(test_secattr_fixtures),
	    cmocka_unit_test(test_loginuid_fixtures),
	    cmocka_unit_test(test_cpulist_fixtures),
	    cmocka_unit_test(test_ns_link),
	    cmocka_unit_test(test_own),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
