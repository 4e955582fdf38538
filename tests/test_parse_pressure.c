// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_parse_pressure.c: unit tests for proc_parse_pressure()
 * (src/proc/parse_pressure.c): the machine's own pressure files where the
 * kernel has them, fixtures of real and hostile text, the limits of the
 * numbers, and every prefix of a file (cut short), each with its exact
 * error code. Inputs sit in heap buffers of exactly their length so ASan
 * catches an over-read.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "ptop/proc.h"
#include "fixture.h"

static int parse_n(const char *s, size_t len, struct proc_pressure *pr)
{
	char *b = malloc(len ? len : 1);
	int err;

	assert_non_null(b);
	memcpy(b, s, len);
	err = proc_parse_pressure(b, len, pr);
	free(b);
	return err;
}

static int parse_str(const char *s, struct proc_pressure *pr)
{
	return parse_n(s, strlen(s), pr);
}

static void test_fixtures(void **state)
{
	struct proc_pressure pr;
	size_t len;
	char *b = fixture_load("pressure/busy/pressure", &len);

	assert_int_equal(proc_parse_pressure(b, len, &pr), 0);
	free(b);
	assert_true(pr.has_full);
	assert_int_equal(pr.some.avg_x100[0], 9999);
	assert_int_equal(pr.some.avg_x100[1], 10000);
	assert_int_equal(pr.some.avg_x100[2], 705);
	assert_true(pr.some.total_us == UINT64_MAX);
	assert_int_equal(pr.full.avg_x100[0], 1234);
	assert_int_equal(pr.full.avg_x100[1], 560);
	assert_int_equal(pr.full.avg_x100[2], 1);
	assert_true(pr.full.total_us == 123456789012ull);

	b = fixture_load("pressure/cpu-old/pressure", &len);
	assert_int_equal(proc_parse_pressure(b, len, &pr), 0);
	free(b);
	assert_false(pr.has_full); /* cpu before 5.13: no full line */

	b = fixture_load("pressure/io/pressure", &len);
	assert_int_equal(proc_parse_pressure(b, len, &pr), 0);
	free(b);
	assert_true(pr.has_full);

	b = fixture_load("pressure/hostile-nofrac/pressure", &len);
	assert_int_equal(proc_parse_pressure(b, len, &pr), -EINVAL);
	free(b);
	b = fixture_load("pressure/hostile-cut/pressure", &len);
	assert_int_equal(proc_parse_pressure(b, len, &pr), -EINVAL);
	free(b);
	b = fixture_load("pressure/hostile-3lines/pressure", &len);
	assert_int_equal(proc_parse_pressure(b, len, &pr), -EINVAL);
	free(b);
}

/* This machine's, where the kernel has pressure stall information. */
static void test_live(void **state)
{
	static const char *const files[] = {"/proc/pressure/cpu", "/proc/pressure/memory",
					    "/proc/pressure/io"};
	struct proc_pressure pr;

	for (unsigned i = 0; i < 3; i++) {
		char buf[512];
		int fd = open(files[i], O_RDONLY | O_CLOEXEC);
		ssize_t n;

		if (fd < 0) {
			print_message("%s: %s: not checked\n", files[i], strerror(errno));
			continue;
		}
		n = read(fd, buf, sizeof(buf));
		close(fd);
		if (n < 0) {
			/* EOPNOTSUPP: PSI built in but off (psi=0) */
			print_message("%s: %s: not checked\n", files[i], strerror(errno));
			continue;
		}
		assert_int_equal(parse_n(buf, (size_t)n, &pr), 0);
		/* memory and io always have full; cpu from 5.13 */
		if (i)
			assert_true(pr.has_full);
		for (unsigned k = 0; k < 3; k++)
			assert_true(pr.some.avg_x100[k] <= 10000 && pr.full.avg_x100[k] <= 10000);
	}
}

static void test_limits(void **state)
{
	struct proc_pressure pr;

	/* 42949672.95 fits in 32 bits of hundredths; a cent more does not */
	assert_int_equal(parse_str("some avg10=42949672.95 avg60=0.00 avg300=0.00 total=0\n", &pr),
			 0);
	assert_int_equal(pr.some.avg_x100[0], UINT32_MAX);
	assert_int_equal(parse_str("some avg10=42949672.96 avg60=0.00 avg300=0.00 total=0\n", &pr),
			 -ERANGE);
	assert_int_equal(
	    parse_str("some avg10=0.00 avg60=0.00 avg300=0.00 total=18446744073709551616\n", &pr),
	    -ERANGE);
	assert_int_equal(parse_str("some avg10=0.001 avg60=0.00 avg300=0.00 total=0\n", &pr),
			 -EINVAL);
	assert_int_equal(parse_str("full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n", &pr),
			 -EINVAL); /* full alone */
	assert_int_equal(parse_str("some avg10=0.00 avg60=0.00 avg300=0.00 total=0 \n", &pr),
			 -EINVAL);
	assert_int_equal(parse_str("some avg10=-1.00 avg60=0.00 avg300=0.00 total=0\n", &pr),
			 -EINVAL);
	assert_int_equal(parse_str("", &pr), -EINVAL);
}

/* Every prefix of a whole file short of its last "full" byte is refused or, at the
 * end of the some line, a file without full. */
static void test_prefixes(void **state)
{
	const char *s = "some avg10=1.25 avg60=0.50 avg300=0.07 total=77\n"
			"full avg10=0.25 avg60=0.10 avg300=0.02 total=9\n";
	size_t n = strlen(s), some_end = strchr(s, '\n') - s + 1;
	struct proc_pressure pr;

	for (size_t len = 0; len < n; len++) {
		int err = parse_n(s, len, &pr);

		if (len == some_end) {
			assert_int_equal(err, 0);
			assert_false(pr.has_full);
			assert_int_equal(pr.some.avg_x100[0], 125);
		} else {
			assert_int_equal(err, -EINVAL);
		}
	}
	assert_int_equal(parse_n(s, n, &pr), 0);
	assert_true(pr.has_full && pr.full.total_us == 9);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_fixtures),
	    cmocka_unit_test(test_live),
	    cmocka_unit_test(test_limits),
	    cmocka_unit_test(test_prefixes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
