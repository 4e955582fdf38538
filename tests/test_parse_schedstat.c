// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_parse_schedstat.c: unit tests for proc_parse_schedstat()
 * (src/proc/parse_schedstat.c): this process's own schedstat, lines as the
 * kernel prints them, the limits of 64 bits, every prefix of a line (cut
 * short) and malformed lines, each with its exact error code. Inputs sit in
 * heap buffers of exactly their length so ASan catches an over-read.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ptop/proc.h"

static int parse_str(const char *s, struct proc_schedstat *ss)
{
	size_t len = strlen(s);
	char *b = malloc(len ? len : 1);
	int err;

	assert_non_null(b);
	memcpy(b, s, len);
	err = proc_parse_schedstat(b, len, ss);
	free(b);
	return err;
}

static void test_values(void **state)
{
	struct proc_schedstat ss;

	assert_int_equal(parse_str("222471784 45985649 669\n", &ss), 0);
	assert_true(ss.run_ns == 222471784 && ss.wait_ns == 45985649 && ss.slices == 669);
	assert_int_equal(parse_str("0 0 0\n", &ss), 0);
	assert_true(ss.run_ns == 0 && ss.slices == 0);
	assert_int_equal(parse_str("18446744073709551615 1 2\n", &ss), 0);
	assert_true(ss.run_ns == UINT64_MAX);
}

/*
 * This process's own: it has run, so its run time is not 0. The kernel adds
 * a task's run time when it is switched out or at a tick, so a process that
 * started under load may read 0 before either: a sleep switches it out first.
 */
static void test_self(void **state)
{
	struct proc_schedstat ss;
	char buf[128];
	int fd;
	ssize_t n;

	usleep(1000);
	fd = open("/proc/self/schedstat", O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		print_message(
		    "skipped: no /proc/self/schedstat (a kernel without CONFIG_SCHED_INFO)\n");
		skip();
	}
	n = read(fd, buf, sizeof(buf));
	close(fd);
	assert_true(n > 0);
	assert_int_equal(proc_parse_schedstat(buf, (size_t)n, &ss), 0);
	assert_true(ss.run_ns > 0);
}

static void test_malformed(void **state)
{
	static const struct {
		const char *in;
		int err;
	} cases[] = {
	    {"", -EINVAL},
	    {"\n", -EINVAL},
	    {"1 2\n", -EINVAL},	    /* two fields */
	    {"1 2 3 4\n", -EINVAL}, /* four */
	    {"1 2 3", -EINVAL},	    /* no newline */
	    {"1 2 3 \n", -EINVAL},  /* trailing space */
	    {"1  2 3\n", -EINVAL},  /* two spaces */
	    {"1\t2 3\n", -EINVAL},  /* tab */
	    {"1 2 3\n\n", -EINVAL}, /* a second line */
	    {"1 -2 3\n", -EINVAL},  /* minus sign */
	    {"1 2 x\n", -EINVAL},   /* letter */
	    {"18446744073709551616 2 3\n", -ERANGE},
	};
	struct proc_schedstat ss;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		if (parse_str(cases[i].in, &ss) != cases[i].err)
			fail_msg("case %zu: \"%s\" gave %d, want %d", i, cases[i].in,
				 parse_str(cases[i].in, &ss), cases[i].err);
}

/* Every prefix of a line is cut short: -EINVAL, never a read past its end. */
static void test_every_prefix(void **state)
{
	static const char line[] = "222471784 45985649 669\n";
	struct proc_schedstat ss;

	for (size_t n = 0; n < sizeof(line) - 1; n++) {
		char *b = malloc(n ? n : 1);

		assert_non_null(b);
		memcpy(b, line, n);
		assert_int_equal(proc_parse_schedstat(b, n, &ss), -EINVAL);
		free(b);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_values),
	    cmocka_unit_test(test_self),
	    cmocka_unit_test(test_malformed),
	    cmocka_unit_test(test_every_prefix),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
