// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_parse_io.c: unit tests for proc_parse_io() (src/proc/parse_io.c):
 * real captures (a shell, a kernel thread), a later kernel's extra line,
 * the limits of 64 bits, and every way the text can be malformed or cut
 * short, each with its exact error code. Inputs sit in heap buffers of
 * exactly their length so ASan catches an over-read.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "fixture.h"

#include "ptop/proc.h"

static int parse_str(const char *s, struct proc_io *io)
{
	size_t len = strlen(s);
	char *b = malloc(len ? len : 1);
	int err;

	assert_non_null(b);
	memcpy(b, s, len);
	err = proc_parse_io(b, len, io);
	free(b);
	return err;
}

static int parse_fixture(const char *rel, struct proc_io *io)
{
	size_t len;
	char *b = fixture_load(rel, &len);
	int err = proc_parse_io(b, len, io);

	free(b);
	return err;
}

static void test_real(void **state)
{
	struct proc_io io;

	assert_int_equal(parse_fixture("shell/proc/9791/io", &io), 0);
	assert_true(io.rchar == 14784 && io.wchar == 0 && io.syscr == 21 && io.syscw == 0);
	assert_true(io.read_bytes == 0 && io.write_bytes == 8192 && io.cancelled_write_bytes == 0);
	memset(&io, 0xff, sizeof(io));
	assert_int_equal(parse_fixture("kthread/proc/2/io", &io), 0);
	assert_true(io.rchar == 0 && io.write_bytes == 0 && io.cancelled_write_bytes == 0);
}

static void test_hostile(void **state)
{
	struct proc_io io;

	/* a name a later kernel adds is skipped */
	assert_int_equal(parse_fixture("hostile/proc/100/io", &io), 0);
	assert_true(io.rchar == 14784 && io.write_bytes == 8192);
	assert_int_equal(parse_fixture("hostile/proc/105/io", &io), 0);
	assert_true(io.rchar == UINT64_MAX && io.read_bytes == UINT64_MAX &&
		    io.cancelled_write_bytes == UINT64_MAX);
}

static void test_malformed_fixtures(void **state)
{
	static const struct {
		const char *rel;
		int err;
	} cases[] = {
	    {"malformed/proc/200/io", -EINVAL}, /* empty */
	    {"malformed/proc/201/io", -EINVAL}, /* three lines of seven */
	    {"malformed/proc/202/io", -EINVAL}, /* one line, cut mid-number */
	    {"malformed/proc/203/io", -ERANGE}, /* 2^64 */
	    {"malformed/proc/204/io", -EINVAL}, /* rchar twice, syscr missing */
	    {"malformed/proc/205/io", -EINVAL}, /* negative */
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct proc_io io;

		if (parse_fixture(cases[i].rel, &io) != cases[i].err)
			fail_msg("%s: %d, want %d", cases[i].rel, parse_fixture(cases[i].rel, &io),
				 cases[i].err);
	}
}

#define IO7                                                                                        \
	"rchar: 1\nwchar: 2\nsyscr: 3\nsyscw: 4\nread_bytes: 5\nwrite_bytes: 6\n"                  \
	"cancelled_write_bytes: 7\n"

static void test_malformed(void **state)
{
	static const struct {
		const char *in;
		int err;
	} cases[] = {
	    {IO7, 0},
	    {"", -EINVAL},
	    {"\n", -EINVAL},
	    {IO7 "\n", -EINVAL},			     /* an empty line */
	    {IO7 "x: 1", -EINVAL},			     /* cut: no newline */
	    {IO7 "rchar: 1\n", -EINVAL},		     /* twice */
	    {"rchar:1\n", -EINVAL},			     /* no space */
	    {"rchar:  1\n", -EINVAL},			     /* two spaces */
	    {"rchar: 1 \n", -EINVAL},			     /* trailing space */
	    {"rchar: 0x1\n", -EINVAL},			     /* hex */
	    {"rchar: \n", -EINVAL},			     /* no number */
	    {"Rchar: 1\n", -EINVAL},			     /* not the kernel's name */
	    {": 1\n", -EINVAL},				     /* no name */
	    {"rchar 1\n", -EINVAL},			     /* no colon */
	    {IO7 "future: 99999999999999999999\n", -ERANGE}, /* even a skipped line's number */
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct proc_io io;

		if (parse_str(cases[i].in, &io) != cases[i].err)
			fail_msg("case %zu: %d, want %d", i, parse_str(cases[i].in, &io),
				 cases[i].err);
	}
}

static void test_every_prefix(void **state)
{
	size_t len;
	char *b = fixture_load("shell/proc/9791/io", &len);

	/* a prefix is accepted only if it ends a line and holds all seven: only the whole */
	for (size_t n = 0; n < len; n++) {
		char *c = malloc(n ? n : 1);
		struct proc_io io;

		memcpy(c, b, n);
		assert_int_equal(proc_parse_io(c, n, &io), -EINVAL);
		free(c);
	}
	free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_real),
	    cmocka_unit_test(test_hostile),
	    cmocka_unit_test(test_malformed_fixtures),
	    cmocka_unit_test(test_malformed),
	    cmocka_unit_test(test_every_prefix),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
