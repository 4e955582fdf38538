// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz_cgroup.c: libFuzzer target for proc_parse_cgroup() and
 * proc_cgroup_unit() on the path it finds. Each input is copied into a heap
 * block of exactly its size, so ASan reports any read past len; the paths
 * found must lie inside the input, start with '/', and the unit must fit.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ptop/proc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct proc_cgroup cg;
	const struct ptop_view *v;
	char *buf = malloc(size ? size : 1), unit[64];

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	if (proc_parse_cgroup(buf, size, &cg) == 0 && (v = proc_cgroup_path(&cg))) {
		if (v->p < buf || v->p + v->n > buf + size || !v->n || v->p[0] != '/')
			abort();
		if (proc_cgroup_unit(v->p, v->n, unit, sizeof(unit)) >= sizeof(unit) ||
		    strlen(unit) >= sizeof(unit))
			abort();
	}
	free(buf);
	return 0;
}
