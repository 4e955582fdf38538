// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz_schedstat.c: libFuzzer target for proc_parse_schedstat(). Each input is
 * copied into a heap block of exactly its size, so ASan reports any read
 * past len; an accepted input must be one line ending in its newline.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ptop/proc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct proc_schedstat ss;
	char *buf = malloc(size ? size : 1);

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	if (proc_parse_schedstat(buf, size, &ss) == 0) {
		if (buf[size - 1] != '\n' || memchr(buf, '\n', size - 1))
			abort();
	}
	free(buf);
	return 0;
}
