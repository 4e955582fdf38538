// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz_maps.c: libFuzzer target for proc_parse_maps_line(). The input is
 * copied into a heap block of exactly its size, so ASan reports any read
 * past len, and walked line by line with *used as a reader does: a bad line
 * is stepped over to its newline. Every parsed line must keep its path
 * inside the line and its addresses in order. The whole input is summed as
 * htop's LIB too (proc_maps_lib()): an empty one is no answer, a file count
 * beyond the places given says how many more would do, a failure sums nothing.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ptop/proc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size ? size : 1);
	struct proc_maps_file files[64];
	size_t off = 0, need;
	uint64_t bytes;
	int err;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	while (off < size) {
		struct proc_maps_entry e;
		const char *line = buf + off, *nl;
		size_t used = 0;

		if (proc_parse_maps_line(line, size - off, &e, &used) == 0) {
			if (used == 0 || used > size - off)
				abort();
			if (e.path.p < line || e.path.p + e.path.n > line + used)
				abort();
			if (e.end < e.start)
				abort();
			off += used;
			continue;
		}
		/* *used is only promised on success: find the next line ourselves */
		nl = memchr(line, '\n', size - off);
		off = nl ? (size_t)(nl - buf) + 1 : size;
	}
	err = proc_maps_lib(buf, size, files, 64, &need, &bytes);
	if ((!err && !size) || (err == -ENOSPC && need <= 64) || (err && bytes))
		abort();
	free(buf);
	return 0;
}
