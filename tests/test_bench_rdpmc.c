// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_bench_rdpmc.c: unit tests for src/bench/rdpmc.c, run through
 * bench_run() with tiny --runs: the read(2) row always has figures (median
 * between its 10th and 90th percentiles, all > 0) and the run count; each
 * rdpmc row is either measured the same way or unavailable with a reason; a
 * software --event makes the rdpmc rows unavailable and names the event; an
 * unknown event is -ENOENT with its name in the message. Skips where the
 * kernel refuses perf_event_open altogether.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptop/bench.h"

static const struct bench_value *find(const struct bench_result *res, const char *key)
{
	for (size_t i = 0; i < res->nvalues; i++)
		if (!strcmp(res->values[i].key, key))
			return &res->values[i];
	return NULL;
}

static void *params(const char *runs, const char *event)
{
	void *p = bench_params_new(&bench_rdpmc);

	assert_int_equal(bench_params_set(&bench_rdpmc, p, "runs", runs), 0);
	if (event)
		assert_int_equal(bench_params_set(&bench_rdpmc, p, "event", event), 0);
	return p;
}

/* Run; skip (and free) when the machine cannot, fail on any other error. */
static void run(void *p, unsigned int repeat, struct bench_result *res)
{
	struct bench_ctx ctx = {.repeat = repeat};
	int err = bench_run(&bench_rdpmc, p, &ctx, res);

	if (err == -ENODEV || err == -EACCES || err == -EPERM) {
		print_message("skipped: rdpmc: %s\n", res->message);
		bench_result_free(res);
		free(p);
		skip();
	}
	if (err)
		fail_msg("rdpmc: %d %s", err, res->message);
}

/* A measured row: median, p10 <= median <= p90, all > 0 TSC ticks (not core cycles). */
static void check_measured(const struct bench_result *res, const char *key)
{
	char k10[64], k90[64];
	const struct bench_value *m = find(res, key), *lo, *hi;

	snprintf(k10, sizeof(k10), "%s_p10", key);
	snprintf(k90, sizeof(k90), "%s_p90", key);
	lo = find(res, k10);
	hi = find(res, k90);
	assert_non_null(m);
	assert_non_null(lo);
	assert_non_null(hi);
	assert_null(m->unavailable);
	assert_string_equal(m->unit, "TSC ticks");
	assert_true(m->simple);
	assert_true(lo->value > 0);
	assert_true(lo->value <= m->value && m->value <= hi->value);
}

/* An rdpmc row is measured, or unavailable with a reason and no percentiles. */
static bool check_rdpmc_row(const struct bench_result *res, const char *key)
{
	const struct bench_value *m = find(res, key);
	char k10[64];

	assert_non_null(m);
	if (!m->unavailable) {
		check_measured(res, key);
		return true;
	}
	assert_true(m->unavailable[0]);
	snprintf(k10, sizeof(k10), "%s_p10", key);
	assert_null(find(res, k10));
	return false;
}

static void test_rdpmc_default(void **state)
{
	struct bench_result res;
	void *p = params("8", NULL);
	bool cold, warm;

	run(p, 2, &res);
	check_measured(&res, "read_syscall");
	cold = check_rdpmc_row(&res, "rdpmc_cold");
	warm = check_rdpmc_row(&res, "rdpmc_warm");
	assert_true(cold == warm);
	if (cold)
		assert_non_null(find(&res, "rdpmc_cold_faults"));
	else
		print_message("rdpmc rows: %s\n", find(&res, "rdpmc_cold")->unavailable);
	assert_non_null(find(&res, "timer"));
	assert_true(find(&res, "runs")->value == 16);
	assert_non_null(strstr(res.header, "instructions"));
	bench_result_free(&res);
	free(p);
}

static void test_rdpmc_software_event(void **state)
{
	struct bench_result res;
	void *p = params("4", "task-clock");

	run(p, 1, &res);
	check_measured(&res, "read_syscall");
	assert_non_null(strstr(find(&res, "read_syscall")->label, "task-clock"));
	assert_false(check_rdpmc_row(&res, "rdpmc_cold"));
	assert_non_null(strstr(find(&res, "rdpmc_warm")->unavailable, "software"));
	/* a software event's page maps too: the first load of a fresh one is timed */
	check_measured(&res, "page_touch_cold");
	assert_true(find(&res, "runs")->value == 4);
	bench_result_free(&res);
	free(p);
}

static void test_rdpmc_unknown_event(void **state)
{
	struct bench_result res;
	struct bench_ctx ctx = {.repeat = 1};
	void *p = params("1", "no-such-event-xyz");

	assert_int_equal(bench_run(&bench_rdpmc, p, &ctx, &res), -ENOENT);
	assert_non_null(strstr(res.message, "no-such-event-xyz"));
	bench_result_free(&res);
	free(p);
}

static void test_rdpmc_options(void **state)
{
	void *p = bench_params_new(&bench_rdpmc);

	assert_int_equal(bench_params_set(&bench_rdpmc, p, "runs", "0"), -ERANGE);
	assert_int_equal(bench_params_set(&bench_rdpmc, p, "runs", "1000001"), -ERANGE);
	assert_int_equal(bench_params_set(&bench_rdpmc, p, "event", ""), -EINVAL);
	assert_ptr_equal(bench_find("rdpmc"), &bench_rdpmc);
	free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_rdpmc_options),
	    cmocka_unit_test(test_rdpmc_default),
	    cmocka_unit_test(test_rdpmc_software_event),
	    cmocka_unit_test(test_rdpmc_unknown_event),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
