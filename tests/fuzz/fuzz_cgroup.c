// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz_cgroup.c: libFuzzer target for proc_parse_cgroup() and
 * proc_cgroup_unit() and proc_cgroup_compress() on the path it finds, and the
 * latter on the whole input. Each input is copied into a heap block of
 * exactly its size, so ASan reports any read past len; the paths found must
 * lie inside the input, start with '/', and the unit must fit; a condensed
 * path is never longer than the path with a tag for each component.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ptop/proc.h"
#include "ptop/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct proc_cgroup cg;
	const struct ptop_view *v;
	char *buf = malloc(size ? size : 1), unit[64];
	struct sbuf b = {0};

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	/* at most "[U:" and "]" more than a component's bytes, per component */
	proc_cgroup_compress(buf, size, &b);
	if (b.len > 5 * size)
		abort();
	sbuf_free(&b);
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
