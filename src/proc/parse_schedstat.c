// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * parse_schedstat.c: the /proc/PID/schedstat parser: three counts on one
 * line (run time ns, run-queue wait ns, timeslices), as proc_pid_schedstat()
 * prints them.
 */
#include <errno.h>

#include "ptop/proc.h"
#include "num.h"

int proc_parse_schedstat(const char *buf, size_t len, struct proc_schedstat *out)
{
	uint64_t *v[] = {&out->run_ns, &out->wait_ns, &out->slices};
	const char *p = buf, *end;
	int err;

	if (len < 2 || buf[len - 1] != '\n')
		return -EINVAL;
	end = buf + len - 1;
	for (unsigned i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		if (i && num_expect(&p, end, ' '))
			return -EINVAL;
		err = num_u64(&p, end, v[i]);
		if (err)
			return err;
	}
	return p == end ? 0 : -EINVAL;
}
