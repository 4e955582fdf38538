/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * num.h: the hand-written number readers behind every /proc parser. They
 * read at *pp, never past end, advance *pp past the digits and detect
 * overflow (unlike perf's io__get_dec). 0, -EINVAL (no digit) or -ERANGE.
 */
#ifndef PTOP_PROC_NUM_H
#define PTOP_PROC_NUM_H

#include <errno.h>
#include <stdint.h>

static inline int num_u64(const char **pp, const char *end, uint64_t *out)
{
	const char *p = *pp, *safe;
	uint64_t v = 0;

	if (p >= end || (unsigned char)(*p - '0') > 9)
		return -EINVAL;
	/* 19 digits cannot overflow: no check in the loop that reads nearly every number */
	safe = end - p > 19 ? p + 19 : end;
	do {
		v = v * 10 + (unsigned char)(*p - '0');
		p++;
	} while (p < safe && (unsigned char)(*p - '0') <= 9);
	for (; p < end && (unsigned char)(*p - '0') <= 9; p++) {
		unsigned d = (unsigned char)(*p - '0');

		/* v * 10 + d must stay <= UINT64_MAX */
		if (v > UINT64_MAX / 10 || (v == UINT64_MAX / 10 && d > UINT64_MAX % 10))
			return -ERANGE;
		v = v * 10 + d;
	}
	*pp = p;
	*out = v;
	return 0;
}

static inline int num_s64(const char **pp, const char *end, int64_t *out)
{
	const char *p = *pp;
	int neg = p < end && *p == '-';
	uint64_t v;
	int err;

	p += neg;
	err = num_u64(&p, end, &v);
	if (err)
		return err;
	if (v > (uint64_t)INT64_MAX + neg)
		return -ERANGE;
	*out = neg ? (int64_t)(0 - v) : (int64_t)v;
	*pp = p;
	return 0;
}

static inline int num_hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 0x20;
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

static inline int num_x64(const char **pp, const char *end, uint64_t *out)
{
	const char *p = *pp;
	uint64_t v = 0;
	int d;

	if (p >= end || num_hex_digit(*p) < 0)
		return -EINVAL;
	while (p < end && (d = num_hex_digit(*p)) >= 0) {
		if (v >> 60)
			return -ERANGE;
		v = v << 4 | (unsigned)d;
		p++;
	}
	*pp = p;
	*out = v;
	return 0;
}

/* Expect character c at *pp and step over it. */
static inline int num_expect(const char **pp, const char *end, char c)
{
	if (*pp >= end || **pp != c)
		return -EINVAL;
	(*pp)++;
	return 0;
}

#endif
