// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz_limits.c: libFuzzer target for proc_parse_limits_nofile(),
 * proc_parse_rollup(), proc_parse_oom() and proc_parse_wchan(). Each input is
 * copied into a heap block of exactly its size, so ASan reports any read past
 * len; an accepted input ends in a newline, an accepted rollup has a Pss line
 * (and no split figure its Pss_Anon line did not give, nor a group bit unknown),
 * an accepted OOM number has that one newline only, an accepted wchan is its
 * whole input, without a newline, or "0" with no name, an accepted
 * autogroup is one line with a nice value in -20..19, an accepted
 * security label is a non-empty start of the input with no newline or NUL,
 * an accepted loginuid is digits only, an accepted CPU list ends in a newline,
 * and an accepted ns link target ends in "]" with a non-zero inode.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ptop/proc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Whether the n bytes at s are decimal digits, and some. */
static int all_digits(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return 0;
	return n > 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct proc_rollup r;
	const char *name;
	uint64_t soft, ino;
	int64_t id;
	size_t n;
	int oom, nice;
	uint32_t uid;
	uint8_t cpus[8];
	char *buf = malloc(size ? size : 1);

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	if (proc_parse_limits_nofile(buf, size, &soft) == 0 &&
	    (!size || buf[size - 1] != '\n' || !memmem(buf, size, "Max open files ", 15)))
		abort();
	if (proc_parse_rollup(buf, size, &r) == 0 &&
	    (buf[size - 1] != '\n' || !memmem(buf, size, "\nPss:", 5) ||
	     r.have & ~(PROC_ROLLUP_SPLIT | PROC_ROLLUP_PRIVATE | PROC_ROLLUP_SWAPPSS |
			PROC_ROLLUP_RSS) ||
	     (!(r.have & PROC_ROLLUP_SPLIT) && r.pss_anon_kb &&
	      !memmem(buf, size, "\nPss_Anon:", 10))))
		abort();
	if (proc_parse_oom(buf, size, &oom) == 0 &&
	    (buf[size - 1] != '\n' || memchr(buf, '\n', size - 1)))
		abort();
	if (proc_parse_wchan(buf, size, &name, &n) == 0 &&
	    (name != buf || memchr(buf, '\n', size) || (n ? n != size : size != 1 || *buf != '0')))
		abort();
	if (proc_parse_secattr(buf, size, &name, &n) == 0 &&
	    (name != buf || !n || n > size || memchr(buf, '\n', n) || memchr(buf, '\0', n)))
		abort();
	if (proc_parse_ns_link(buf, size, &ino) == 0 &&
	    (!ino || buf[size - 1] != ']' || !memchr(buf, '[', size)))
		abort();
	if (proc_parse_autogroup(buf, size, &id, &nice) == 0 &&
	    (buf[size - 1] != '\n' || memchr(buf, '\n', size - 1) || id < 0 || nice < -20 ||
	     nice > 19))
		abort();
	if (proc_parse_loginuid(buf, size, &uid) == 0 && !all_digits(buf, size))
		abort();
	memset(cpus, 0, sizeof(cpus));
	if (proc_parse_cpulist(buf, size, cpus, 64) == 0 && buf[size - 1] != '\n')
		abort();
	free(buf);
	return 0;
}
