// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_num.c: unit tests for src/proc/num.h, the decimal, signed and hex
 * readers under every /proc parser. They check the values at and around the
 * 64-bit limits, the exact error codes (-EINVAL for no digit, -ERANGE for
 * overflow), where *pp is left, and that no reader looks past `end`: every
 * input sits in a heap buffer of exactly its length, so a build with
 * --enable-sanitizers turns any over-read into a failure.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../src/proc/num.h"

/* A copy of s without its NUL, in a buffer of exactly strlen(s) bytes. */
static char *exact(const char *s, size_t *len)
{
	*len = strlen(s);
	char *b = malloc(*len ? *len : 1);

	assert_non_null(b);
	memcpy(b, s, *len);
	return b;
}

/* Run num_u64 on all of s; on success check the value and how far it read. */
static void check_u64(const char *s, int want_err, uint64_t want, size_t want_used)
{
	size_t len;
	char *b = exact(s, &len);
	const char *p = b;
	uint64_t v = 0xdeadbeef;
	int err = num_u64(&p, b + len, &v);

	assert_int_equal(err, want_err);
	if (!want_err) {
		assert_true(v == want);
		assert_int_equal((size_t)(p - b), want_used);
	}
	free(b);
}

static void check_s64(const char *s, int want_err, int64_t want, size_t want_used)
{
	size_t len;
	char *b = exact(s, &len);
	const char *p = b;
	int64_t v = 0x5eed;
	int err = num_s64(&p, b + len, &v);

	assert_int_equal(err, want_err);
	if (!want_err) {
		assert_true(v == want);
		assert_int_equal((size_t)(p - b), want_used);
	}
	free(b);
}

static void check_x64(const char *s, int want_err, uint64_t want, size_t want_used)
{
	size_t len;
	char *b = exact(s, &len);
	const char *p = b;
	uint64_t v = 0xdeadbeef;
	int err = num_x64(&p, b + len, &v);

	assert_int_equal(err, want_err);
	if (!want_err) {
		assert_true(v == want);
		assert_int_equal((size_t)(p - b), want_used);
	}
	free(b);
}

static void test_u64_values(void **state)
{
	check_u64("0", 0, 0, 1);
	check_u64("7", 0, 7, 1);
	check_u64("203046", 0, 203046, 6);
	check_u64("00000000000000000000000042", 0, 42, 26);
	/* 2^64 / 10 and its neighbours, where the overflow test changes branch */
	check_u64("1844674407370955161", 0, 1844674407370955161ull, 19);
	check_u64("1844674407370955162", 0, 1844674407370955162ull, 19);
	check_u64("18446744073709551609", 0, 18446744073709551609ull, 20);
	check_u64("18446744073709551614", 0, UINT64_MAX - 1, 20);
	check_u64("18446744073709551615", 0, UINT64_MAX, 20);
	check_u64("000018446744073709551615", 0, UINT64_MAX, 24);
}

static void test_u64_overflow(void **state)
{
	check_u64("18446744073709551616", -ERANGE, 0, 0);
	check_u64("18446744073709551619", -ERANGE, 0, 0);
	check_u64("18446744073709551620", -ERANGE, 0, 0);
	check_u64("18446744073709551700", -ERANGE, 0, 0);
	check_u64("99999999999999999999", -ERANGE, 0, 0);
	check_u64("184467440737095516150", -ERANGE, 0, 0);
	check_u64("100000000000000000000000000000", -ERANGE, 0, 0);
}

static void test_u64_stops(void **state)
{
	/* It reads digits only, and stops at the first byte that is not one. */
	check_u64("123 456", 0, 123, 3);
	check_u64("9\n", 0, 9, 1);
	check_u64("12kB", 0, 12, 2);
	check_u64("1:0", 0, 1, 1);   /* ':' is '9' + 1 */
	check_u64("1/0", 0, 1, 1);   /* '/' is '0' - 1 */
	check_u64("5\xff", 0, 5, 1); /* a byte above 127 is not a digit */
}

static void test_u64_not_a_number(void **state)
{
	check_u64("", -EINVAL, 0, 0);
	check_u64(" 1", -EINVAL, 0, 0);
	check_u64("-1", -EINVAL, 0, 0);
	check_u64("+1", -EINVAL, 0, 0);
	check_u64("x1", -EINVAL, 0, 0);
	check_u64(":", -EINVAL, 0, 0);
	check_u64("/", -EINVAL, 0, 0);
	check_u64("\xff", -EINVAL, 0, 0);
	check_u64("\n", -EINVAL, 0, 0);
}

static void test_u64_respects_end(void **state)
{
	/* end cuts the number: the digits after it are never looked at. */
	char *b = malloc(8);
	const char *p = b;
	uint64_t v;

	assert_non_null(b);
	memcpy(b, "12345678", 8);
	assert_int_equal(num_u64(&p, b + 3, &v), 0);
	assert_true(v == 123);
	assert_ptr_equal(p, b + 3);

	p = b + 3;
	assert_int_equal(num_u64(&p, b + 3, &v), -EINVAL);
	p = b + 8;
	assert_int_equal(num_u64(&p, b + 8, &v), -EINVAL);
	free(b);
}

/*
 * Against strtoull: numbers of every length from 1 to 22 digits (the
 * 8-digit steps, the unchecked tail and the checked one), with leading
 * zeros, each followed by nothing or by a byte that is not a digit, and a
 * run broken at every position by a byte just below '0', just above '9'
 * or with the high bit set (what a word-at-a-time check could let through).
 */
static void test_u64_every_length(void **state)
{
	static const char breaks[] = {'/', ':', ' ', 'x', (char)0xb0, (char)0xb9};
	char s[40], t[40], head[40];

	(void)state;
	srand(7);
	for (int round = 0; round < 200; round++) {
		for (size_t n = 1; n <= 22; n++) {
			uint64_t want;

			for (size_t i = 0; i < n; i++)
				s[i] = (char)('0' +
					      (round < 10 ? (round + (int)i) % 10 : rand() % 10));
			if (round % 3 == 0 && n > 1)
				s[0] = '0'; /* leading zeros */
			s[n] = '\0';
			errno = 0;
			want = strtoull(s, NULL, 10);
			check_u64(s, errno == ERANGE ? -ERANGE : 0, want, n);
			for (size_t b = 0; b < sizeof(breaks); b++) {
				for (size_t at = 1; at < n; at++) {
					memcpy(t, s, n + 1);
					t[at] = breaks[b];
					memcpy(head, s, at);
					head[at] = '\0';
					errno = 0;
					want = strtoull(head, NULL, 10);
					check_u64(t, errno == ERANGE ? -ERANGE : 0, want, at);
				}
			}
		}
	}
}

static void test_s64_values(void **state)
{
	check_s64("0", 0, 0, 1);
	check_s64("-0", 0, 0, 2);
	check_s64("-1", 0, -1, 2);
	check_s64("20", 0, 20, 2);
	check_s64("-100", 0, -100, 4);
	check_s64("9223372036854775807", 0, INT64_MAX, 19);
	check_s64("-9223372036854775807", 0, -INT64_MAX, 20);
	check_s64("-9223372036854775808", 0, INT64_MIN, 20);
	check_s64("-00009223372036854775808", 0, INT64_MIN, 24);
	check_s64("-17 0", 0, -17, 3);
}

static void test_s64_errors(void **state)
{
	check_s64("9223372036854775808", -ERANGE, 0, 0);
	check_s64("-9223372036854775809", -ERANGE, 0, 0);
	check_s64("18446744073709551615", -ERANGE, 0, 0);
	check_s64("-18446744073709551615", -ERANGE, 0, 0);
	check_s64("-18446744073709551616", -ERANGE, 0, 0);
	check_s64("", -EINVAL, 0, 0);
	check_s64("-", -EINVAL, 0, 0);
	check_s64("--1", -EINVAL, 0, 0);
	check_s64("- 1", -EINVAL, 0, 0);
	check_s64("+1", -EINVAL, 0, 0);
	check_s64("-x", -EINVAL, 0, 0);
}

static void test_s64_minus_at_end(void **state)
{
	/* A '-' that is the last byte before end must not make it read on. */
	char *b = malloc(2);
	const char *p = b;
	int64_t v;

	assert_non_null(b);
	memcpy(b, "-5", 2);
	assert_int_equal(num_s64(&p, b + 1, &v), -EINVAL);
	p = b;
	assert_int_equal(num_s64(&p, b + 2, &v), 0);
	assert_true(v == -5);
	assert_ptr_equal(p, b + 2);
	free(b);
}

static void test_x64_values(void **state)
{
	check_x64("0", 0, 0, 1);
	check_x64("00000000", 0, 0, 8);
	check_x64("fe", 0, 0xfe, 2);
	check_x64("FE", 0, 0xfe, 2);
	check_x64("aBcDeF", 0, 0xabcdef, 6);
	check_x64("0123456789", 0, 0x123456789ull, 10);
	check_x64("555fc2195000-", 0, 0x555fc2195000ull, 12);
	check_x64("ffffffffff600000", 0, 0xffffffffff600000ull, 16);
	check_x64("ffffffffffffffff", 0, UINT64_MAX, 16);
	check_x64("0000000000000000ffffffffffffffff", 0, UINT64_MAX, 32);
	check_x64("fg", 0, 0xf, 1);
	check_x64("9:", 0, 9, 1);
	check_x64("a@", 0, 0xa, 1);
	check_x64("a`", 0, 0xa, 1);
}

static void test_x64_errors(void **state)
{
	check_x64("10000000000000000", -ERANGE, 0, 0);
	check_x64("fffffffffffffffff", -ERANGE, 0, 0);
	check_x64("123456789abcdef01", -ERANGE, 0, 0);
	check_x64("", -EINVAL, 0, 0);
	check_x64("g", -EINVAL, 0, 0);
	check_x64("G", -EINVAL, 0, 0);
	check_x64("x1", -EINVAL, 0, 0);
	check_x64("-1", -EINVAL, 0, 0);
	check_x64(" f", -EINVAL, 0, 0);
	/* 'A' and 'a' with the top bit set: the case-folding must not accept them */
	check_x64("\xe1", -EINVAL, 0, 0);
	check_x64("\xc1", -EINVAL, 0, 0);
}

static void test_hex_digit_every_byte(void **state)
{
	for (int c = 0; c < 256; c++) {
		int want = -1;

		if (c >= '0' && c <= '9')
			want = c - '0';
		else if (c >= 'a' && c <= 'f')
			want = c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			want = c - 'A' + 10;
		assert_int_equal(num_hex_digit((char)c), want);
	}
}

static void test_expect(void **state)
{
	char *b = malloc(2);
	const char *p = b;

	assert_non_null(b);
	memcpy(b, " (", 2);
	assert_int_equal(num_expect(&p, b + 2, '('), -EINVAL);
	assert_ptr_equal(p, b);
	assert_int_equal(num_expect(&p, b + 2, ' '), 0);
	assert_ptr_equal(p, b + 1);
	assert_int_equal(num_expect(&p, b + 2, '('), 0);
	assert_ptr_equal(p, b + 2);
	/* at end there is nothing to match, not even the byte that would follow */
	assert_int_equal(num_expect(&p, b + 2, ' '), -EINVAL);
	assert_int_equal(num_expect(&p, b + 2, '\0'), -EINVAL);
	assert_ptr_equal(p, b + 2);
	free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_u64_values),	     cmocka_unit_test(test_u64_overflow),
	    cmocka_unit_test(test_u64_stops),	     cmocka_unit_test(test_u64_not_a_number),
	    cmocka_unit_test(test_u64_respects_end), cmocka_unit_test(test_u64_every_length),
	    cmocka_unit_test(test_s64_values),	     cmocka_unit_test(test_s64_errors),
	    cmocka_unit_test(test_s64_minus_at_end), cmocka_unit_test(test_x64_values),
	    cmocka_unit_test(test_x64_errors),	     cmocka_unit_test(test_hex_digit_every_byte),
	    cmocka_unit_test(test_expect),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
