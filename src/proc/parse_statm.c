// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * parse_statm.c: the /proc/PID/statm parser: seven page counts on one line.
 */
#include <errno.h>
#include <string.h>

#include "ptop/proc.h"
#include "num.h"

int proc_parse_statm(const char *buf, size_t len, struct proc_statm *out)
{
	uint64_t *v[] = {&out->size, &out->resident, &out->shared, &out->text,
			 &out->lib,  &out->data,     &out->dt};
	const char *p = buf, *end;
	unsigned i;
	int err;

	if (len < 2 || buf[len - 1] != '\n')
		return -EINVAL;
	end = buf + len - 1;
	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		if (i && num_expect(&p, end, ' '))
			return -EINVAL;
		err = num_u64(&p, end, v[i]);
		if (err)
			return err;
	}
	return p == end ? 0 : -EINVAL;
}
