// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz_netdev.c: libFuzzer target for proc_parse_netdev(). Each input is
 * copied into a heap block of exactly its size, so ASan reports any read
 * past len; every interface name found must be NUL-terminated and non-empty.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ptop/proc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct proc_netdev_entry e[8];
	char *buf = malloc(size ? size : 1);
	size_t n = 0;
	int err;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	err = proc_parse_netdev(buf, size, e, 8, &n);
	if (n > 8)
		abort();
	for (size_t i = 0; i < n && (err == 0 || err == -ENOSPC); i++)
		if (!e[i].name[0] || strnlen(e[i].name, sizeof(e[i].name)) == sizeof(e[i].name))
			abort();
	free(buf);
	return 0;
}
