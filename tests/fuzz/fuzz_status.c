// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz_status.c: libFuzzer target for proc_parse_status(). Each input is
 * copied into a heap block of exactly its size, so ASan reports any read
 * past len; on success Name must be a view inside the buffer holding no
 * newline, Groups one of digits and blanks only, NSpid at least one pid, and
 * only known bits may be set in `have`.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ptop/proc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const unsigned known = PROC_STATUS_VMSIZE | PROC_STATUS_VMRSS | PROC_STATUS_RSSANON |
			       PROC_STATUS_RSSFILE | PROC_STATUS_RSSSHMEM | PROC_STATUS_VMSWAP |
			       PROC_STATUS_CTXT | PROC_STATUS_GROUPS | PROC_STATUS_VMLCK |
			       PROC_STATUS_NSPID;
	struct proc_status ps;
	char *buf = malloc(size ? size : 1);

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	if (proc_parse_status(buf, size, &ps) == 0) {
		if (ps.name.p < buf || ps.name.p + ps.name.n > buf + size)
			abort();
		if (ps.name.n && memchr(ps.name.p, '\n', ps.name.n))
			abort();
		if (ps.have & ~known)
			abort();
		/* NSpid: a pid per level, at least its own */
		if (!(ps.have & PROC_STATUS_NSPID) != !ps.nspids)
			abort();
		/* the groups: a view inside the line, of digits and blanks only */
		if (ps.have & PROC_STATUS_GROUPS) {
			if (ps.groups.n &&
			    (ps.groups.p < buf || ps.groups.p + ps.groups.n > buf + size))
				abort();
			for (size_t i = 0; i < ps.groups.n; i++)
				if (!strchr("0123456789 \t", ps.groups.p[i]) || !ps.groups.p[i])
					abort();
			if (ps.ngroups > ps.groups.n)
				abort();
		}
	}
	free(buf);
	return 0;
}
