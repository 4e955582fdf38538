// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz_io.c: libFuzzer target for proc_parse_io(). Each input is copied into
 * a heap block of exactly its size, so ASan reports any read past len; an
 * accepted input must end in a newline.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ptop/proc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct proc_io io;
	char *buf = malloc(size ? size : 1);

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	if (proc_parse_io(buf, size, &io) == 0 && buf[size - 1] != '\n')
		abort();
	free(buf);
	return 0;
}
