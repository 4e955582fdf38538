// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz_pressure.c: libFuzzer target for proc_parse_pressure(). Each input
 * is copied into a heap block of exactly its size, so ASan reports any read
 * past len; an accepted input is one or two lines, each ending in its
 * newline, the second only with has_full.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ptop/proc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct proc_pressure pr;
	char *buf = malloc(size ? size : 1);

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	if (proc_parse_pressure(buf, size, &pr) == 0) {
		const char *nl = memchr(buf, '\n', size);
		size_t lines = 0;

		for (const char *p = buf; p < buf + size; p++)
			lines += *p == '\n';
		if (buf[size - 1] != '\n' || !nl || lines != 1u + pr.has_full)
			abort();
	}
	free(buf);
	return 0;
}
