// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz_stat.c: libFuzzer target for proc_parse_stat(). Each input is copied
 * into a heap block of exactly its size, so ASan reports any read past len;
 * on success the result is checked against the parser's own contract (comm
 * lies inside the buffer, the field count is in range, the state is a letter).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ptop/proc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct proc_stat st;
	char *buf = malloc(size ? size : 1);

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	if (proc_parse_stat(buf, size, &st) == 0) {
		if (st.comm.p < buf || st.comm.p + st.comm.n > buf + size)
			abort();
		/* more than PROC_STAT_MAX_FIELDS is a newer kernel's line: allowed */
		if (st.nfields < PROC_STAT_MIN_FIELDS || st.nfields > size / 2)
			abort();
		if (!((st.state >= 'a' && st.state <= 'z') || (st.state >= 'A' && st.state <= 'Z')))
			abort();
	}
	free(buf);
	return 0;
}
