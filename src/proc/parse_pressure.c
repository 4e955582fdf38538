// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * parse_pressure.c: the pressure stall files' parser (/proc/pressure/cpu,
 * memory and io; a cgroup's cpu.pressure and the like): a "some" line and
 * an optional "full" line, as psi_show() prints them.
 */
#include <errno.h>
#include <string.h>

#include "ptop/proc.h"
#include "num.h"

/* "WORD" at *pp, stepped over; -EINVAL when it is not there. */
static int word(const char **pp, const char *end, const char *w)
{
	size_t n = strlen(w);

	if ((size_t)(end - *pp) < n || memcmp(*pp, w, n))
		return -EINVAL;
	*pp += n;
	return 0;
}

/* "I.FF" at *pp: hundredths, the fraction always two digits (LOAD_INT.LOAD_FRAC). */
static int hundredths(const char **pp, const char *end, uint32_t *out)
{
	const char *p;
	uint64_t i, f;
	int err = num_u64(pp, end, &i);

	if (err)
		return err;
	if (num_expect(pp, end, '.'))
		return -EINVAL;
	p = *pp;
	err = num_u64(pp, end, &f);
	if (err)
		return err;
	if (*pp - p != 2)
		return -EINVAL;
	if (i > (UINT32_MAX - f) / 100)
		return -ERANGE;
	*out = (uint32_t)(i * 100 + f);
	return 0;
}

/* One line after its kind, to its newline (stepped over). */
static int line(const char **pp, const char *end, struct proc_pressure_line *l)
{
	static const char *const keys[] = {" avg10=", " avg60=", " avg300="};
	int err;

	for (unsigned i = 0; i < 3; i++) {
		if (word(pp, end, keys[i]))
			return -EINVAL;
		err = hundredths(pp, end, &l->avg_x100[i]);
		if (err)
			return err;
	}
	if (word(pp, end, " total="))
		return -EINVAL;
	err = num_u64(pp, end, &l->total_us);
	if (err)
		return err;
	return num_expect(pp, end, '\n') ? -EINVAL : 0;
}

int proc_parse_pressure(const char *buf, size_t len, struct proc_pressure *out)
{
	const char *p = buf, *end = buf + len;
	int err;

	memset(out, 0, sizeof(*out));
	if (word(&p, end, "some"))
		return -EINVAL;
	err = line(&p, end, &out->some);
	if (err)
		return err;
	if (p == end)
		return 0;
	if (word(&p, end, "full"))
		return -EINVAL;
	err = line(&p, end, &out->full);
	if (err)
		return err;
	out->has_full = true;
	return p == end ? 0 : -EINVAL;
}
