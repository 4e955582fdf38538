// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz_pecfg.c: libFuzzer target for pecfg_parse() (src/output/pecfg.c),
 * process-exporter's configuration. Each input is parsed from a heap block
 * of exactly its size, so ASan reports any read past it; a configuration
 * that parses is then asked for the names of a few processes (one with a
 * command line, a kernel thread without one), whose names must be text.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ptop/pecfg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const argv[] = {"/usr/bin/python3", "-config.file", "/etc/x.yml",
					   "run.py"};
	static const char *const cgroups[] = {"0::/user.slice"};
	const struct pecfg_proc procs[] = {
	    {.comm = "python3",
	     .argv = argv,
	     .argc = 4,
	     .user = "root",
	     .pid = 42,
	     .start_time = 1700000000.5,
	     .cgroups = cgroups,
	     .ncgroups = 1,
	     .cwd = "/"},
	    {.comm = "kworker/0:1", .user = "root", .pid = 7},
	};
	struct sbuf why = {0}, warn = {0};
	struct pecfg *c;
	char *buf = malloc(size ? size : 1);

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	if (pecfg_parse(buf, size, "fuzz", &c, &why, &warn) == 0) {
		for (size_t i = 0; i < sizeof(procs) / sizeof(procs[0]); i++) {
			struct sbuf name = {0};

			if (pecfg_name(c, &procs[i], &name) && memchr(name.p, '\0', name.len))
				abort(); /* a name is text */
			sbuf_free(&name);
		}
		pecfg_free(c);
	} else if (!why.len) {
		abort(); /* a refusal says why */
	}
	sbuf_free(&why);
	sbuf_free(&warn);
	free(buf);
	return 0;
}
