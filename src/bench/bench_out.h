/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bench_out.h: how `ptop bench` writes a result (bench_out.c): perf bench's
 * lines, its simple format, or the JSON lines that bench.h documents. Used
 * by bench.c only; each function appends to a buffer the caller owns and
 * writes.
 */
#ifndef PTOP_BENCH_OUT_H
#define PTOP_BENCH_OUT_H

#include <stdbool.h>

#include "ptop/bench.h"
#include "ptop/util.h"

/*
 * res of d as one "result" JSON line: d's params as they were (params: d's
 * params struct), with the common repeat and cpu (the --cpu list, or NULL).
 */
void bench_out_json(struct sbuf *b, const struct bench_desc *d, const void *params,
		    unsigned int repeat, const char *cpu, const struct bench_result *res);

/* A "progress" JSON line: done (0..1) of the benchmark called name. */
void bench_out_json_progress(struct sbuf *b, const char *name, double done);

/*
 * A "skipped" (err -ENODEV) or "error" JSON line for the benchmark called
 * name, with err (-errno) by its errno name and msg for people.
 */
void bench_out_json_failure(struct sbuf *b, const char *name, int err, const char *msg);

/*
 * res of d as perf bench prints it, with what perf does not print as "# "
 * lines; with simple, perf's simple format (no "# " lines).
 */
void bench_out_text(struct sbuf *b, const struct bench_desc *d, bool simple,
		    const struct bench_result *res);

#endif
