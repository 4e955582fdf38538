// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_protocol.c: src/bench/protocol.c, the reader of `ptop bench
 * --format=json` lines that the Bench pane uses: progress, results with
 * values, sweeps and unavailable figures, skipped and error lines, and lines
 * that are not the protocol, cut short or nested too deep.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "ptop/bench.h"

static int parse(const char *s, struct bench_msg *m)
{
	/* an exactly sized copy: a read past the line shows under ASan */
	size_t n = strlen(s);
	char *b = malloc(n ? n : 1);
	int err;

	assert_non_null(b);
	memcpy(b, s, n);
	err = bench_msg_parse(b, n, m);
	free(b);
	return err;
}

static void test_progress(void **state)
{
	struct bench_msg m;

	(void)state;
	assert_int_equal(parse("{\"type\":\"progress\",\"name\":\"status\",\"progress\":0.42}", &m),
			 0);
	assert_int_equal(m.type, BENCH_MSG_PROGRESS);
	assert_string_equal(m.name, "status");
	assert_true(m.progress > 0.419 && m.progress < 0.421);
	bench_result_free(&m.result);
}

static void test_result(void **state)
{
	static const char line[] =
	    "{\"type\":\"result\",\"name\":\"breakpoint-thread\","
	    "\"params\":{\"breakpoints\":1,\"sweep\":true,\"path\":null,\"list\":[1,[2]]},"
	    "\"results\":{\"total_time\":{\"value\":0.0019,\"unit\":\"sec\",\"label\":\"Total "
	    "time\"},\"usecs_per_op\":{\"value\":472.96,\"unit\":\"usecs/op\"}},"
	    "\"series\":[{\"name\":\"breakpoints\",\"x\":\"breakpoints\",\"unit\":\"usecs/op\","
	    "\"points\":[{\"x\":0,\"value\":43.0},{\"x\":4,\"value\":51.9e0}]}],"
	    "\"unavailable\":{\"rdpmc_cold\":{\"unit\":\"cycles\",\"label\":\"cold\","
	    "\"reason\":\"no \\\"PMU\\\"\\u0021\"}}}";
	struct bench_msg m;

	(void)state;
	assert_int_equal(parse(line, &m), 0);
	assert_int_equal(m.type, BENCH_MSG_RESULT);
	assert_string_equal(m.name, "breakpoint-thread");
	assert_int_equal(m.result.nvalues, 3);
	assert_string_equal(m.result.values[0].key, "total_time");
	assert_string_equal(m.result.values[0].label, "Total time");
	assert_string_equal(m.result.values[0].unit, "sec");
	assert_true(m.result.values[1].value > 472.95 && m.result.values[1].value < 472.97);
	assert_string_equal(m.result.values[1].label, "");
	assert_null(m.result.values[1].unavailable);
	assert_string_equal(m.result.values[2].key, "rdpmc_cold");
	assert_string_equal(m.result.values[2].unavailable, "no \"PMU\"!");
	assert_int_equal(m.result.nseries, 1);
	assert_string_equal(m.result.series[0].name, "breakpoints");
	assert_string_equal(m.result.series[0].unit, "usecs/op");
	assert_int_equal(m.result.series[0].n, 2);
	assert_true(m.result.series[0].points[1].x == 4);
	assert_true(m.result.series[0].points[1].value > 51.89);
	bench_result_free(&m.result);
}

/* A repeated figure's spread and the notes come back as bench.c wrote them. */
static void test_spread_and_notes(void **state)
{
	static const char line[] =
	    "{\"type\":\"result\",\"name\":\"breakpoint-enable\",\"params\":{\"cpu\":\"0\"},"
	    "\"results\":{\"usecs_per_op\":{\"value\":50.5,\"unit\":\"usecs/op\",\"min\":2.5,"
	    "\"median\":3,\"max\":410,\"samples\":10,\"of\":\"flips\",\"bimodal\": true},"
	    "\"ipis\":{\"value\":0,\"unit\":\"IPIs\"}},"
	    "\"notes\":[\"during the timed part: 0 IPIs\",\"pinned to CPUs 0 (--cpu)\"]}";
	struct bench_msg m;
	const struct bench_value *v;

	(void)state;
	assert_int_equal(parse(line, &m), 0);
	assert_int_equal(m.result.nvalues, 2);
	v = &m.result.values[0];
	assert_true(v->value == 50.5 && v->min == 2.5 && v->median == 3 && v->max == 410);
	assert_int_equal(v->samples, 10);
	assert_string_equal(v->of, "flips");
	assert_true(v->bimodal);
	assert_int_equal(m.result.values[1].samples, 0);
	assert_false(m.result.values[1].bimodal);
	assert_int_equal(m.result.nnotes, 2);
	assert_string_equal(m.result.notes[1], "pinned to CPUs 0 (--cpu)");
	bench_result_free(&m.result);
	assert_int_equal(parse("{\"type\":\"result\",\"results\":{\"a\":{\"value\":1,"
			       "\"bimodal\":maybe}}}",
			       &m),
			 -EINVAL);
	assert_int_equal(parse("{\"type\":\"result\",\"notes\":[1]}", &m), -EINVAL);
}

static void test_skipped_and_error(void **state)
{
	struct bench_msg m;

	(void)state;
	assert_int_equal(parse("{\"type\":\"skipped\",\"name\":\"rdpmc\",\"error\":\"ENODEV\","
			       "\"message\":\"No hardware support\"}",
			       &m),
			 0);
	assert_int_equal(m.type, BENCH_MSG_SKIPPED);
	assert_string_equal(m.result.message, "No hardware support");
	bench_result_free(&m.result);
	assert_int_equal(parse(" { \"type\" : \"error\" , \"message\" : \"ENOSPC\" } ", &m), 0);
	assert_int_equal(m.type, BENCH_MSG_ERROR);
	bench_result_free(&m.result);
}

static void test_malformed(void **state)
{
	static const char *const bad[] = {
	    "",
	    "not json",
	    "[]",
	    "{}",				       /* no type */
	    "{\"type\":\"bogus\"}",		       /* unknown type */
	    "{\"type\":\"progress\",\"progress\":}",   /* no value */
	    "{\"type\":\"progress\",\"progress\":0.5", /* cut short */
	    "{\"type\":\"progress\"} trailing",
	    "{\"type\":\"result\",\"results\":{\"a\":{\"unit\":\"s\"}}}",  /* value missing */
	    "{\"type\":\"result\",\"series\":[{\"points\":[{\"x\":1}]}]}", /* point value missing */
	    "{\"type\":\"progress\",\"name\":\"a\\u00\"}",		   /* bad escape */
	    "{\"type\":\"progress\",\"x\":[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]}", /* too deep */
	};
	struct bench_msg m;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int err = parse(bad[i], &m);

		if (err != -EINVAL)
			fail_msg("accepted: %s", bad[i]);
	}
}

/* Every prefix of a real line is refused, never read past. */
static void test_every_prefix(void **state)
{
	static const char line[] =
	    "{\"type\":\"result\",\"name\":\"status\",\"results\":{\"a\":{\"value\":1.5,"
	    "\"unit\":\"usecs/op\",\"label\":\"A\"}},\"series\":[{\"name\":\"s\",\"x\":\"t\","
	    "\"unit\":\"u\",\"points\":[{\"x\":1,\"value\":2}]}]}";
	struct bench_msg m;
	char buf[sizeof(line)];

	(void)state;
	for (size_t n = 0; n < sizeof(line) - 1; n++) {
		memcpy(buf, line, n);
		buf[n] = '\0';
		assert_int_equal(parse(buf, &m), -EINVAL);
	}
	assert_int_equal(parse(line, &m), 0);
	bench_result_free(&m.result);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_progress),	      cmocka_unit_test(test_result),
	    cmocka_unit_test(test_skipped_and_error), cmocka_unit_test(test_malformed),
	    cmocka_unit_test(test_every_prefix),      cmocka_unit_test(test_spread_and_notes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
