// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * parse_stat.c: the /proc/PID/stat parser. One line of space-separated
 * fields, where field 2 (comm) is the task's name in parentheses, printed
 * unescaped: it may hold spaces, parentheses, newlines and any other byte.
 * No allocation; comm is a view into the caller's buffer.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "ptop/proc.h"
#include "num.h"

/* Fields 4..52 in order: where each goes and whether it may be negative. */
struct stat_field {
	unsigned short off;
	bool is_signed;
};

/* clang-format off */
#define S(f) { offsetof(struct proc_stat, f), true }
#define U(f) { offsetof(struct proc_stat, f), false }
static const struct stat_field stat_fields[] = {
	S(ppid), S(pgrp), S(session), S(tty_nr), S(tpgid), U(flags),
	U(minflt), U(cminflt), U(majflt), U(cmajflt), U(utime), U(stime),
	S(cutime), S(cstime), S(priority), S(nice), S(num_threads), S(itrealvalue),
	U(starttime), U(vsize), S(rss), U(rsslim), U(startcode), U(endcode),
	U(startstack), U(kstkesp), U(kstkeip), U(signal), U(blocked), U(sigignore),
	U(sigcatch), U(wchan), U(nswap), U(cnswap), S(exit_signal), S(processor),
	U(rt_priority), U(policy), U(delayacct_blkio_ticks), U(guest_time), S(cguest_time),
	U(start_data), U(end_data), U(start_brk), U(arg_start), U(arg_end),
	U(env_start), U(env_end), S(exit_code),
};
/* clang-format on */
#undef S
#undef U
_Static_assert(sizeof(stat_fields) / sizeof(stat_fields[0]) == PROC_STAT_MAX_FIELDS - 3,
	       "stat_fields must list fields 4..52");

int proc_parse_stat(const char *buf, size_t len, struct proc_stat *out)
{
	const char *p = buf, *end, *close;
	unsigned i;
	int err;

	/* A line without its newline was cut short: its last number may be too. */
	if (len < 2 || buf[len - 1] != '\n')
		return -EINVAL;
	end = buf + len - 1;
	memset(out, 0, sizeof(*out));

	err = num_s64(&p, end, &out->pid);
	if (err)
		return err;
	if (num_expect(&p, end, ' ') || num_expect(&p, end, '('))
		return -EINVAL;
	/* The name may contain ')': only the last one in the line closes it. */
	close = memrchr(p, ')', (size_t)(end - p));
	if (!close)
		return -EINVAL;
	out->comm.p = p;
	out->comm.n = (size_t)(close - p);
	p = close + 1;
	if (num_expect(&p, end, ' ') || p >= end)
		return -EINVAL;
	/*
	 * Every state is a letter: anything else means field 3 is missing, and a
	 * one-digit field 4 taken for it would shift every later field.
	 */
	if ((unsigned char)((*p | 0x20) - 'a') > 'z' - 'a')
		return -EINVAL;
	out->state = *p++;

	for (i = 0; i < sizeof(stat_fields) / sizeof(stat_fields[0]) && p < end; i++) {
		void *dst = (char *)out + stat_fields[i].off;

		if (num_expect(&p, end, ' '))
			return -EINVAL;
		err = stat_fields[i].is_signed ? num_s64(&p, end, dst) : num_u64(&p, end, dst);
		if (err)
			return err;
	}
	/* A later kernel may print more fields: numbers, which ptop does not use. */
	while (p < end) {
		uint64_t ignored;

		if (num_expect(&p, end, ' '))
			return -EINVAL;
		if (p < end && *p == '-')
			p++;
		err = num_u64(&p, end, &ignored);
		if (err)
			return err;
		i++;
	}
	out->nfields = i + 3;
	if (out->nfields < PROC_STAT_MIN_FIELDS)
		return -EINVAL;
	return 0;
}
