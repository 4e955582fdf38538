// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_parse_statm.c: unit tests for proc_parse_statm() (src/proc/parse_statm.c).
 * The seven page counts of real captures in tests/fixtures (a shell, a
 * threaded process, kernel threads and a zombie, which have no mm and print
 * zeros) are checked one by one, then the limits of 64 bits and every way a
 * line can be malformed or cut short, each with its exact error code. Inputs
 * sit in heap buffers of exactly their length so ASan catches an over-read.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "fixture.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ptop/proc.h"

static int parse_mem(const char *s, size_t len, struct proc_statm *sm)
{
	char *b = malloc(len);
	int err;

	assert_non_null(b);
	memcpy(b, s, len);
	err = proc_parse_statm(b, len, sm);
	free(b);
	return err;
}

static int parse_str(const char *s, struct proc_statm *sm)
{
	return parse_mem(s, strlen(s), sm);
}

static void check_fixture(const char *rel, uint64_t size, uint64_t resident, uint64_t shared,
			  uint64_t text, uint64_t lib, uint64_t data, uint64_t dt)
{
	struct proc_statm sm;
	size_t len;
	char *b = fixture_load(rel, &len);

	assert_int_equal(proc_parse_statm(b, len, &sm), 0);
	assert_true(sm.size == size);
	assert_true(sm.resident == resident);
	assert_true(sm.shared == shared);
	assert_true(sm.text == text);
	assert_true(sm.lib == lib);
	assert_true(sm.data == data);
	assert_true(sm.dt == dt);
	free(b);
}

static void test_real(void **state)
{
	check_fixture("shell/proc/9791/statm", 1090, 790, 721, 193, 0, 109, 0);
	check_fixture("threaded/proc/9789/statm", 6766, 310, 280, 1, 0, 6233, 0);
	check_fixture("zombie/proc/9790/statm", 730, 453, 425, 5, 0, 89, 0);
	check_fixture("paths/proc/10029/statm", 6766, 311, 280, 1, 0, 6233, 0);
}

static void test_no_mm(void **state)
{
	/* kernel threads and zombies print zeros, and a zero must still be read */
	struct proc_statm sm;

	memset(&sm, 0xff, sizeof(sm));
	check_fixture("kthread/proc/2/statm", 0, 0, 0, 0, 0, 0, 0);
	check_fixture("kthread/proc/23/statm", 0, 0, 0, 0, 0, 0, 0);
	check_fixture("zombie/proc/9796/statm", 0, 0, 0, 0, 0, 0, 0);
	assert_int_equal(parse_str("0 0 0 0 0 0 0\n", &sm), 0);
	assert_true(sm.size == 0 && sm.resident == 0 && sm.dt == 0);
}

static void test_limits(void **state)
{
	struct proc_statm sm;

	check_fixture("hostile/proc/105/statm", UINT64_MAX, UINT64_MAX, 0, 0, 0, UINT64_MAX, 0);
	assert_int_equal(parse_str("1 2 3 4 5 6 18446744073709551615\n", &sm), 0);
	assert_true(sm.size == 1 && sm.data == 6 && sm.dt == UINT64_MAX);
	assert_int_equal(parse_str("0001 02 3 4 5 6 7\n", &sm), 0);
	assert_true(sm.size == 1 && sm.resident == 2);
}

static void test_malformed_fixtures(void **state)
{
	static const struct {
		const char *rel;
		int err;
	} cases[] = {
	    {"malformed/proc/200/statm", -EINVAL}, /* empty */
	    {"malformed/proc/201/statm", -EINVAL}, /* cut between fields */
	    {"malformed/proc/202/statm", -EINVAL}, /* cut inside a number */
	    {"malformed/proc/203/statm", -ERANGE}, /* 2^64 */
	    {"malformed/proc/204/statm", -ERANGE}, /* 20 nines */
	    {"malformed/proc/205/statm", -EINVAL}, /* negative */
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct proc_statm sm;
		size_t len;
		char *b = fixture_load(cases[i].rel, &len);

		assert_int_equal(proc_parse_statm(b, len, &sm), cases[i].err);
		free(b);
	}
}

static void test_malformed(void **state)
{
	static const struct {
		const char *in;
		int err;
	} cases[] = {
	    {"", -EINVAL},
	    {"\n", -EINVAL},
	    {"1\n", -EINVAL},
	    {"1 2 3 4 5 6\n", -EINVAL},	     /* six fields */
	    {"1 2 3 4 5 6 7 8\n", -EINVAL},  /* eight */
	    {"1 2 3 4 5 6 7", -EINVAL},	     /* no newline */
	    {"1 2 3 4 5 6 7 \n", -EINVAL},   /* trailing space */
	    {" 1 2 3 4 5 6 7\n", -EINVAL},   /* leading space */
	    {"1  2 3 4 5 6 7\n", -EINVAL},   /* two spaces */
	    {"1\t2 3 4 5 6 7\n", -EINVAL},   /* tab */
	    {"1 2 3 4 5 6 7\n\n", -EINVAL},  /* a second line */
	    {"1 2 3 4 5 6 7\r\n", -EINVAL},  /* CR */
	    {"1 2 3 x 5 6 7\n", -EINVAL},    /* letter */
	    {"1 2 3 4a 5 6 7\n", -EINVAL},   /* letter after digits */
	    {"1 2 3 +4 5 6 7\n", -EINVAL},   /* plus sign */
	    {"1 2 3 -4 5 6 7\n", -EINVAL},   /* minus sign */
	    {"1 2 3 0x4 5 6 7\n", -EINVAL},  /* hex */
	    {"1 2 3 4 5 6 \xff\n", -EINVAL}, /* not ASCII */
	    {"18446744073709551616 2 3 4 5 6 7\n", -ERANGE},
	    {"1 2 3 4 5 6 18446744073709551616\n", -ERANGE},
	    {"1 2 3 4 5 6 100000000000000000000\n", -ERANGE},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct proc_statm sm;

		if (parse_str(cases[i].in, &sm) != cases[i].err)
			fail_msg("case %zu: \"%s\" gave %d, want %d", i, cases[i].in,
				 parse_str(cases[i].in, &sm), cases[i].err);
	}
}

static void test_every_prefix(void **state)
{
	static const char *const rels[] = {"shell/proc/9791/statm", "hostile/proc/105/statm",
					   "kthread/proc/2/statm"};

	for (size_t i = 0; i < sizeof(rels) / sizeof(rels[0]); i++) {
		struct proc_statm sm;
		size_t len;
		char *b = fixture_load(rels[i], &len);

		for (size_t n = 0; n < len; n++)
			assert_int_equal(parse_mem(b, n, &sm), -EINVAL);
		assert_int_equal(parse_mem(b, len, &sm), 0);
		free(b);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_real),      cmocka_unit_test(test_no_mm),
	    cmocka_unit_test(test_limits),    cmocka_unit_test(test_malformed_fixtures),
	    cmocka_unit_test(test_malformed), cmocka_unit_test(test_every_prefix),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
