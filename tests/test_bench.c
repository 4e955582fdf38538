// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_bench.c: unit tests for src/bench/: the table (every row present,
 * names unique, option tables within bench.c's parser), option setting by
 * name with its error codes, and each benchmark run with tiny parameters
 * through bench_run(), the entry point the CLI and the TUI use, checking the
 * result's shape and sanity: times > 0, counts > 0, a sweep's series with the
 * expected number of points. Breakpoint runs skip() when the kernel says
 * -ENODEV or -EACCES; bench_main() is checked for exit status 2 on bad usage.
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
#include <unistd.h>

#include "ptop/bench.h"
#include "child.h"

static unsigned int twice_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return 2 * (n > 0 ? (unsigned int)n : 1);
}

/* Set options from "name=value" strings, failing the test on any error. */
static void *params(const struct bench_desc *d, ...)
{
	void *p = bench_params_new(d);
	const char *kv;
	va_list ap;

	va_start(ap, d);
	while ((kv = va_arg(ap, const char *))) {
		char name[64];
		const char *eq = strchr(kv, '=');
		size_t n = eq ? (size_t)(eq - kv) : strlen(kv);

		assert_true(n < sizeof(name));
		memcpy(name, kv, n);
		name[n] = '\0';
		assert_int_equal(bench_params_set(d, p, name, eq ? eq + 1 : NULL), 0);
	}
	va_end(ap);
	return p;
}

/* Run; skip (and free) when the machine cannot, fail on any other error. */
static int run(const struct bench_desc *d, void *p, unsigned int repeat, struct bench_result *res)
{
	struct bench_ctx ctx = {.repeat = repeat};
	int err = bench_run(d, p, &ctx, res);

	if (err == -ENODEV || err == -EACCES || err == -EPERM) {
		print_message("%s: %s\n", d->name, res->message);
		bench_result_free(res);
		free(p);
		skip();
	}
	if (err)
		fail_msg("%s: %d %s", d->name, err, res->message);
	return err;
}

static void test_table(void **state)
{
	for (unsigned int i = 0; i < BENCH_COUNT; i++) {
		const struct bench_desc *d = bench_get(i);
		size_t nopt = 0;

		assert_non_null(d);
		assert_non_null(d->run);
		assert_non_null(d->summary);
		assert_ptr_equal(bench_find(d->name), d);
		for (unsigned int j = 0; j < i; j++)
			assert_string_not_equal(bench_get(j)->name, d->name);
		for (const struct bench_option *o = d->options; o && o->name; o++, nopt++) {
			/* -f, -r, -h are the common options' */
			assert_null(strchr("frh", o->short_name ? o->short_name : 'x'));
			assert_true(o->offset < d->params_size);
			for (const struct bench_option *q = d->options; q < o; q++) {
				assert_string_not_equal(q->name, o->name);
				assert_true(!o->short_name || q->short_name != o->short_name);
			}
		}
		assert_true(nopt <= BENCH_MAX_OPTIONS);
	}
	assert_null(bench_get(BENCH_COUNT));
	assert_null(bench_find("no-such-benchmark"));
}

static void test_params_set(void **state)
{
	const struct bench_desc *d = &bench_status;
	void *p = bench_params_new(d);

	assert_int_equal(bench_params_set(d, p, "loops", "10"), 0);
	assert_int_equal(bench_params_set(d, p, "loops", "0"), -ERANGE);
	assert_int_equal(bench_params_set(d, p, "loops", "99999999999999999999999"), -ERANGE);
	assert_int_equal(bench_params_set(d, p, "loops", "-1"), -EINVAL);
	assert_int_equal(bench_params_set(d, p, "loops", "1x"), -EINVAL);
	assert_int_equal(bench_params_set(d, p, "loops", ""), -EINVAL);
	assert_int_equal(bench_params_set(d, p, "nope", "1"), -ENOENT);
	assert_int_equal(bench_params_set(d, p, "path", ""), -EINVAL);
	free(p);
	p = bench_params_new(&bench_breakpoint_thread);
	assert_int_equal(bench_params_set(&bench_breakpoint_thread, p, "sweep", NULL), 0);
	assert_int_equal(bench_params_set(&bench_breakpoint_thread, p, "sweep", "maybe"), -EINVAL);
	free(p);
}

static void test_median(void **state)
{
	double a[] = {5, 1, 3}, b[] = {4, 1, 3, 2};

	assert_true(bench_median(a, 3) == 3);
	assert_true(bench_median(b, 4) == 2.5);
	assert_true(bench_median(NULL, 0) == 0);
}

static void check_status_file(const struct bench_result *res, const char *prefix)
{
	char key[64];

	snprintf(key, sizeof(key), "%s_open_read_close", prefix);
	assert_true(bench_value_of(res, key)->value > 0);
	assert_string_equal(bench_value_of(res, key)->unit, "usecs/op");
	snprintf(key, sizeof(key), "%s_pread", prefix);
	assert_true(bench_value_of(res, key)->value > 0);
	snprintf(key, sizeof(key), "%s_bytes", prefix);
	assert_true(bench_value_of(res, key)->value > 0);
}

static void test_status(void **state)
{
	struct bench_result res;
	void *p = params(&bench_status, "loops=50", NULL);

	run(&bench_status, p, 3, &res);
	check_status_file(&res, "status");
	check_status_file(&res, "stat");
	check_status_file(&res, "statm");
	assert_true(bench_value_of(&res, "ops")->value == 50);
	assert_int_equal(res.nseries, 0);
	assert_true(res.header[0]);
	bench_result_free(&res);
	free(p);
}

static void test_status_threads_path(void **state)
{
	struct bench_result res;
	void *p = params(&bench_status, "loops=20", "threads=3", "path=/proc/self/statm", NULL);

	run(&bench_status, p, 2, &res);
	check_status_file(&res, "path");
	assert_true(bench_value_of(&res, "ops")->value == 60);
	for (size_t i = 0; i < res.nvalues; i++)
		assert_null(strstr(res.values[i].key, "status_"));
	bench_result_free(&res);
	free(p);
}

static void test_status_missing_path(void **state)
{
	struct bench_result res;
	struct bench_ctx ctx = {.repeat = 1};
	void *p = params(&bench_status, "loops=5", "path=/proc/self/no-such-file", NULL);

	assert_int_equal(bench_run(&bench_status, p, &ctx, &res), -ENOENT);
	assert_non_null(strstr(res.message, "no-such-file"));
	bench_result_free(&res);
	free(p);
}

static void test_breakpoint_thread(void **state)
{
	struct bench_result res;
	void *p =
	    params(&bench_breakpoint_thread, "breakpoints=1", "parallelism=2", "threads=2", NULL);

	run(&bench_breakpoint_thread, p, 3, &res);
	assert_true(bench_value_of(&res, "total_time")->value > 0);
	assert_true(bench_value_of(&res, "usecs_per_op")->value > 0);
	/* perf's arithmetic: per cpu is per op times parallelism */
	assert_float_equal(bench_value_of(&res, "usecs_per_op_per_cpu")->value,
			   2 * bench_value_of(&res, "usecs_per_op")->value, 1e-6);
	assert_int_equal(res.nseries, 0);
	assert_non_null(strstr(res.header, "Created/joined 3 threads with 1 breakpoints"));
	bench_result_free(&res);
	free(p);
}

static void test_breakpoint_thread_sweep(void **state)
{
	struct bench_result res;
	void *p = params(&bench_breakpoint_thread, "breakpoints=0", "threads=1", "sweep", NULL);

	run(&bench_breakpoint_thread, p, 1, &res);
	assert_int_equal(res.nseries, 2);
	assert_string_equal(res.series[0].x, "breakpoints");
	/* 0..4, fewer only where the CPU has fewer debug registers */
	assert_true(res.series[0].n >= 2 && res.series[0].n <= 5);
	for (size_t i = 0; i < res.series[0].n; i++) {
		assert_true(res.series[0].points[i].x == (double)i);
		assert_true(res.series[0].points[i].value > 0);
	}
	assert_string_equal(res.series[1].x, "threads");
	assert_int_equal(res.series[1].n, twice_cpus());
	assert_true(res.series[1].points[0].x == 1);
	bench_result_free(&res);
	free(p);
}

static void test_breakpoint_enable(void **state)
{
	struct bench_result res;
	void *p = params(&bench_breakpoint_enable, "passive=1", "active=1", NULL);

	run(&bench_breakpoint_enable, p, 5, &res);
	assert_true(bench_value_of(&res, "total_time")->value > 0);
	assert_true(bench_value_of(&res, "usecs_per_op")->value > 0);
	assert_non_null(strstr(res.header, "1 passive and 1 active"));
	bench_result_free(&res);
	free(p);
}

static void test_breakpoint_enable_sweep(void **state)
{
	struct bench_result res;
	void *p = params(&bench_breakpoint_enable, "sweep", NULL);

	run(&bench_breakpoint_enable, p, 2, &res);
	assert_int_equal(res.nseries, 2);
	assert_string_equal(res.series[0].x, "passive");
	assert_string_equal(res.series[1].x, "active");
	for (size_t s = 0; s < 2; s++) {
		assert_int_equal(res.series[s].n, twice_cpus() + 1);
		for (size_t i = 0; i < res.series[s].n; i++) {
			assert_true(res.series[s].points[i].x == (double)i);
			assert_true(res.series[s].points[i].value > 0);
		}
	}
	bench_result_free(&res);
	free(p);
}

static void test_breakpoint_enospc(void **state)
{
	struct bench_result res;
	struct bench_ctx ctx = {.repeat = 1};
	void *p = params(&bench_breakpoint_thread, "breakpoints=64", NULL);
	int err = bench_run(&bench_breakpoint_thread, p, &ctx, &res);

	bench_result_free(&res);
	free(p);
	if (err == -ENODEV || err == -EACCES || err == -EPERM || !err)
		skip(); /* no breakpoints, or a machine with 64 of them */
	assert_int_equal(err, -ENOSPC);
	assert_non_null(strstr(res.message, "ENOSPC"));
}

static int main_status(const char *first, ...)
{
	char *argv[16];
	int argc = 0;
	va_list ap;

	argv[argc++] = "bench";
	va_start(ap, first);
	for (const char *a = first; a && argc < 15; a = va_arg(ap, const char *))
		argv[argc++] = (char *)a;
	va_end(ap);
	argv[argc] = NULL;
	return bench_main(argc, argv, "ptop");
}

static void test_main_usage(void **state)
{
	assert_int_equal(main_status("list", NULL), 0);
	assert_int_equal(main_status(NULL), 2);
	assert_int_equal(main_status("no-such", NULL), 2);
	assert_int_equal(main_status("list", "extra", NULL), 2);
	assert_int_equal(main_status("--format=xml", "list", NULL), 2);
	assert_int_equal(main_status("status", "--loops", NULL), 2);
	assert_int_equal(main_status("status", "--loops=0", NULL), 2);
	assert_int_equal(main_status("status", "--loops=abc", NULL), 2);
	assert_int_equal(main_status("status", "--bogus", NULL), 2);
	assert_int_equal(main_status("status", "-r", "0", NULL), 2);
	assert_int_equal(main_status("status", "stray", NULL), 2);
	assert_int_equal(main_status("breakpoint-enable", "--breakpoints=1", NULL), 2);
	assert_int_equal(main_status("status", "--loops=20", "--format=simple", "-r", "1", NULL),
			 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_table),
	    cmocka_unit_test(test_params_set),
	    cmocka_unit_test(test_median),
	    cmocka_unit_test(test_status),
	    cmocka_unit_test(test_status_threads_path),
	    cmocka_unit_test(test_status_missing_path),
	    cmocka_unit_test(test_breakpoint_thread),
	    cmocka_unit_test(test_breakpoint_thread_sweep),
	    cmocka_unit_test(test_breakpoint_enable),
	    cmocka_unit_test(test_breakpoint_enable_sweep),
	    cmocka_unit_test(test_breakpoint_enospc),
	    cmocka_unit_test(test_main_usage),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
