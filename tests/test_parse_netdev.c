// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_parse_netdev.c: unit tests for proc_parse_netdev()
 * (src/proc/parse_netdev.c): a real capture, an old kernel's layout with no
 * space after a long first count, the longest name and 2^64 - 1, and
 * malformed text with its exact error code.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "fixture.h"

#include "ptop/proc.h"

#define HEAD                                                                                       \
	"Inter-|   Receive                                                |  Transmit\n"           \
	" face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs " \
	"drop fifo colls carrier compressed\n"

static int parse_str(const char *s, struct proc_netdev_entry *e, size_t cap, size_t *n)
{
	size_t len = strlen(s);
	char *b = malloc(len ? len : 1);
	int err;

	memcpy(b, s, len);
	err = proc_parse_netdev(b, len, e, cap, n);
	free(b);
	return err;
}

static void test_real(void **state)
{
	struct proc_netdev_entry e[16];
	size_t len, n;
	char *b = fixture_load("net/proc/net/dev", &len);

	assert_int_equal(proc_parse_netdev(b, len, e, 16, &n), 0);
	assert_int_equal(n, 4);
	assert_string_equal(e[0].name, "lo");
	assert_true(e[0].rx_bytes == 1196709 && e[0].rx_packets == 649 && e[0].tx_bytes == 1196709);
	assert_string_equal(e[3].name, "eth0");
	assert_true(e[3].rx_bytes == 73966599 && e[3].tx_bytes == 182600 &&
		    e[3].tx_packets == 2436);
	free(b);
}

static void test_hostile(void **state)
{
	struct proc_netdev_entry e[4];
	size_t len, n;
	char *b = fixture_load("hostile/proc/net/dev", &len);

	assert_int_equal(proc_parse_netdev(b, len, e, 4, &n), 0);
	assert_int_equal(n, 3);
	assert_true(e[1].rx_bytes == 123456789012ull && e[1].rx_packets == 3021);
	assert_string_equal(e[2].name, "fifteen_chars_x");
	assert_true(e[2].rx_bytes == UINT64_MAX && e[2].tx_bytes == UINT64_MAX);
	/* more interfaces than room: the first ones, and -ENOSPC */
	assert_int_equal(proc_parse_netdev(b, len, e, 2, &n), -ENOSPC);
	assert_int_equal(n, 2);
	free(b);
}

static void test_malformed(void **state)
{
	static const struct {
		const char *in;
		int err;
	} cases[] = {
	    {"", -EINVAL},
	    {HEAD, 0}, /* no interfaces at all: valid */
	    {"no heading\n", -EINVAL},
	    {HEAD "  lo: 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15\n", -EINVAL},	 /* fifteen */
	    {HEAD "  lo: 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17\n", -EINVAL}, /* seventeen */
	    {HEAD "  lo: 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16", -EINVAL},	 /* cut */
	    {HEAD "  lo: 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 -16\n", -EINVAL},
	    {HEAD "  lo: 18446744073709551616 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n", -ERANGE},
	    {HEAD "  : 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n", -EINVAL}, /* no name */
	    {HEAD "sixteen_chars_xx: 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n", -EINVAL},
	    {HEAD "  l o: 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n", -EINVAL},
	    {HEAD "  lo 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n", -EINVAL},
	    {HEAD "  l\001o: 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n", -EINVAL}, /* control */
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct proc_netdev_entry e[4];
		size_t n;
		int err = parse_str(cases[i].in, e, 4, &n);

		if (err != cases[i].err)
			fail_msg("case %zu: %d, want %d", i, err, cases[i].err);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_real),
	    cmocka_unit_test(test_hostile),
	    cmocka_unit_test(test_malformed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
