// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz_fieldfilter.c: libFuzzer target for field_filter_parse() and
 * field_filter_match(): any input either is refused with a known error or
 * gives a filter that a row can be matched against.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ptop/ui.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* a side as a frame that filters on a side member's column has (FRAME_NEED_SIDE) */
	struct frame_proc_side side = {0};
	struct frame_proc p = {
	    .pid = 1, .comm_len = 4, .comm = "init", .user = "root", .side = &side};
	struct frame f = {.hz = 100};
	struct field_filter ff;
	struct sbuf scratch = {0};
	char *s = malloc(size + 1);
	int err;

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	err = field_filter_parse(s, size & 1, &ff);
	if (err && err != -EINVAL && err != -ENOENT && err != -ERANGE)
		abort();
	if (!err) {
		if (ff.field >= FIELD_COUNT || !strchr("=<>", ff.op) ||
		    !memchr(ff.text, '\0', sizeof(ff.text)))
			abort();
		field_filter_match(&ff, &p, &f, NULL, &scratch);
	}
	sbuf_free(&scratch);
	free(s);
	return 0;
}
