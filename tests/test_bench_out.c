// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_bench_out.c: src/bench/bench_out.c, how `ptop bench` writes a result:
 * one result holding every style of figure, a spread, an unavailable
 * figure, a sweep and a note, written byte for byte as JSON (which
 * protocol.c reads back), perf bench's lines and perf's simple format; and
 * the progress, skipped and error lines.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../src/bench/bench_out.h"
#include "ptop/bench.h"

struct tparams {
	unsigned int loops;
	const char *path;
	bool sweep;
};

static const struct tparams defaults = {.loops = 100, .sweep = true};

static const struct bench_option options[] = {
    {.name = "loops",
     .short_name = 'l',
     .type = BENCH_OPT_UINT,
     .offset = offsetof(struct tparams, loops),
     .min = 1,
     .max = 1000,
     .arg = "N",
     .help = "loops"},
    {.name = "path",
     .type = BENCH_OPT_STRING,
     .offset = offsetof(struct tparams, path),
     .arg = "PATH",
     .help = "a path"},
    {.name = "sweep",
     .type = BENCH_OPT_FLAG,
     .offset = offsetof(struct tparams, sweep),
     .help = "sweep"},
    {.name = NULL},
};

static const struct bench_desc desc = {
    .name = "test",
    .title = "test-title",
    .summary = "a test",
    .options = options,
    .params_size = sizeof(struct tparams),
    .defaults = &defaults,
};

/* One figure of every style, a spread, an unavailable figure, a sweep and a note. */
static struct bench_result *build(void)
{
	struct bench_result *res = calloc(1, sizeof(*res));
	double samples[] = {3, 2, 2.5};
	struct bench_series *s;

	assert_non_null(res);
	snprintf(res->header, sizeof(res->header), "%s", "100 loops");
	bench_add_value(res, "total_time", "Total time", "sec", 1.2345, BENCH_STYLE_TOTAL, true);
	bench_set_spread(bench_add_value(res, "usecs_per_op", "per op", "usecs/op", 2.5,
					 BENCH_STYLE_FIGURE, true),
			 samples, 3, "runs");
	bench_add_value(res, "loops", "loops run", "loops", 100, BENCH_STYLE_COUNT, false);
	bench_add_value(res, "ipis", "IPIs", "IPIs", 3, BENCH_STYLE_HIDDEN, false);
	bench_add_unavailable(res, "cold", "cold cache", "cycles", "no PMU");
	bench_add_value(res, "line", "7 lines", "", 0, BENCH_STYLE_LINE, false);
	s = bench_add_series(res, "sweep", "threads", "usecs/op");
	bench_series_add(s, 1, 2.5);
	bench_series_add(s, 2, 3.25);
	bench_note(res, "a %s", "note");
	return res;
}

static void free_result(struct bench_result *res)
{
	bench_result_free(res);
	free(res);
}

static void test_json(void **state)
{
	static const char want[] =
	    "{\"type\":\"result\",\"name\":\"test\","
	    "\"params\":{\"loops\":100,\"path\":null,\"sweep\":true,\"repeat\":5,\"cpu\":\"0\"},"
	    "\"results\":{\"total_time\":{\"value\":1.2345,\"unit\":\"sec\",\"label\":\"Total "
	    "time\"},"
	    "\"usecs_per_op\":{\"value\":2.5,\"unit\":\"usecs/op\",\"label\":\"per op\","
	    "\"min\":2,\"median\":2.5,\"max\":3,\"samples\":3,\"of\":\"runs\",\"bimodal\":false},"
	    "\"loops\":{\"value\":100,\"unit\":\"loops\",\"label\":\"loops run\"},"
	    "\"ipis\":{\"value\":3,\"unit\":\"IPIs\",\"label\":\"IPIs\"},"
	    "\"line\":{\"value\":0,\"unit\":\"\",\"label\":\"7 lines\"}},"
	    "\"notes\":[\"a note\"],"
	    "\"unavailable\":{\"cold\":{\"unit\":\"cycles\",\"label\":\"cold cache\","
	    "\"reason\":\"no PMU\"}},"
	    "\"series\":[{\"name\":\"sweep\",\"x\":\"threads\",\"unit\":\"usecs/op\","
	    "\"points\":[{\"x\":1,\"value\":2.5},{\"x\":2,\"value\":3.25}]}]}\n";
	struct bench_result *res = build();
	struct sbuf b = {0};
	struct bench_msg m;

	(void)state;
	bench_out_json(&b, &desc, &defaults, 5, "0", res);
	assert_string_equal(sbuf_cstr(&b), want);
	/* what the Bench pane reads back */
	assert_int_equal(bench_msg_parse(b.p, b.len - 1, &m), 0);
	assert_int_equal(m.type, BENCH_MSG_RESULT);
	assert_int_equal(m.result.nvalues, res->nvalues);
	assert_int_equal(m.result.nseries, 1);
	assert_int_equal(m.result.nnotes, 1);
	bench_result_free(&m.result);
	sbuf_free(&b);
	free_result(res);
}

static void test_text(void **state)
{
	static const char want[] =
	    "# Running 'test-title' benchmark:\n"
	    "# 100 loops\n"
	    "     Total time: 1.234 [sec]\n"
	    "\n"
	    "       2.500000 usecs/op  per op\n"
	    "  loops run: 100\n"
	    "7 lines\n"
	    "\n"
	    "# Sweep of threads:\n"
	    "        threads       usecs/op\n"
	    "              1       2.500000\n"
	    "              2       3.250000\n"
	    "# per op: min 2.000, median 2.500, max 3.000 usecs/op over 3 runs\n"
	    "# cold cache: unavailable: no PMU\n"
	    "# a note\n";
	struct bench_result *res = build();
	struct sbuf b = {0};

	(void)state;
	bench_out_text(&b, &desc, false, res);
	assert_string_equal(sbuf_cstr(&b), want);
	sbuf_free(&b);
	free_result(res);
}

static void test_simple(void **state)
{
	static const char want[] = "1.234\n"
				   "usecs_per_op 2.500000 usecs/op\n"
				   "cold unavailable\n"
				   "7 lines\n"
				   "sweep 1 2.500000\n"
				   "sweep 2 3.250000\n";
	struct bench_result *res = build();
	struct sbuf b = {0};

	(void)state;
	bench_out_text(&b, &desc, true, res);
	assert_string_equal(sbuf_cstr(&b), want);
	sbuf_free(&b);
	free_result(res);
}

static void test_progress_and_failures(void **state)
{
	struct sbuf b = {0};

	(void)state;
	bench_out_json_progress(&b, "test", 0.5);
	bench_out_json_failure(&b, "test", -ENODEV, "No hardware support");
	bench_out_json_failure(&b, "test", -EACCES, "denied");
	bench_out_json_failure(&b, "test", -EXDEV, "odd");
	assert_string_equal(
	    sbuf_cstr(&b),
	    "{\"type\":\"progress\",\"name\":\"test\",\"progress\":0.500}\n"
	    "{\"type\":\"skipped\",\"name\":\"test\",\"error\":\"ENODEV\",\"message\":\"No "
	    "hardware support\"}\n"
	    "{\"type\":\"error\",\"name\":\"test\",\"error\":\"EACCES\",\"message\":\"denied\"}\n"
	    "{\"type\":\"error\",\"name\":\"test\",\"error\":\"EUNKNOWN\",\"message\":\"odd\"}\n");
	sbuf_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_json),
	    cmocka_unit_test(test_text),
	    cmocka_unit_test(test_simple),
	    cmocka_unit_test(test_progress_and_failures),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
