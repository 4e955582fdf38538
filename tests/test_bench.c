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
#include <sched.h>
#include <stdbool.h>
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
	for (unsigned int i = 0; i < bench_count(); i++) {
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
	assert_null(bench_get(bench_count()));
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

/* Spread and bimodality: one group, two groups far apart, a lone outlier. */
static void test_spread(void **state)
{
	double one[] = {5, 4, 6, 5, 5, 4.5, 5.5, 5, 5, 5};
	double two[] = {3, 300, 2.5, 3.5, 280, 3, 310, 2.8, 290, 3.1};
	double outlier[] = {3, 3, 3.1, 2.9, 3, 3, 3, 3, 3, 900};
	struct bench_value v = {0};

	bench_set_spread(&v, one, 10, "runs");
	assert_true(v.samples == 10 && v.min == 4 && v.max == 6 && v.median == 5);
	assert_string_equal(v.of, "runs");
	assert_false(v.bimodal);
	bench_set_spread(&v, two, 10, "runs");
	assert_true(v.bimodal);
	assert_int_equal(v.nlow, 6);
	assert_true(v.low == 3 && v.high == 295);
	/* one slow sample of ten is an outlier, not a second mode */
	bench_set_spread(&v, outlier, 10, "runs");
	assert_false(v.bimodal);
	assert_true(v.max == 900);
	bench_set_spread(NULL, one, 10, "runs");
}

/* The CAL row of /proc/interrupts, summed over CPUs; its absence is an error. */
static void test_call_ipis(void **state)
{
	uint64_t n = 0;

	assert_int_equal(bench_read_call_ipis(FIXTURES "/interrupts/proc", &n), 0);
	assert_true(n == 42365 + 33851);
	assert_int_equal(bench_read_call_ipis(FIXTURES "/interrupts-nocal/proc", &n), -ENOENT);
	assert_int_equal(bench_read_call_ipis(FIXTURES "/no-such/proc", &n), -ENOENT);
}

/* --cpu's list, as taskset -c takes it; the process ends up on those CPUs. */
static void test_pin(void **state)
{
	static const char *const bad[] = {"", "x", "0,", ",0", "1-0", "0-", "-1", "0 1", "99999"};
	cpu_set_t before, after;

	assert_int_equal(sched_getaffinity(0, sizeof(before), &before), 0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(bench_pin(bad[i]), -EINVAL);
	assert_int_equal(bench_pin(NULL), -EINVAL);
	if (!CPU_ISSET(0, &before))
		SKIP("CPU 0 is not allowed to this test");
	assert_int_equal(bench_pin("0"), 0);
	assert_int_equal(sched_getaffinity(0, sizeof(after), &after), 0);
	assert_int_equal(CPU_COUNT(&after), 1);
	assert_true(CPU_ISSET(0, &after));
	assert_int_equal(bench_pin("0,0-0"), 0);
	/* a CPU that cannot be online: the list is valid, the machine lacks it */
	if (sysconf(_SC_NPROCESSORS_CONF) < 1000)
		assert_int_equal(bench_pin("1000"), -ENODEV);
	assert_int_equal(sched_setaffinity(0, sizeof(before), &before), 0);
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

/* Every way of reading has a figure per process, for the processes there are. */
static void test_scan(void **state)
{
	static const char *const keys[] = {"open_read_close", "held", "read_less", "ptop_full",
					   "ptop_read_less"};
	const struct bench_value *bpf = NULL;
	struct bench_result res;
	void *p = params(&bench_scan, "frames=2", NULL);

	run(&bench_scan, p, 2, &res);
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		const struct bench_value *v = bench_value_of(&res, keys[i]);

		assert_true(v->value > 0);
		assert_int_equal(v->samples, 2);
	}
	/* BPF: a figure where it loads, else a note that says why, not a zero */
	for (size_t i = 0; i < res.nvalues; i++)
		if (!strcmp(res.values[i].key, "ptop_bpf"))
			bpf = &res.values[i];
	if (bpf) {
		assert_true(bpf->value > 0);
		assert_int_equal(bpf->samples, 2);
	} else {
		bool said = false;

		for (size_t i = 0; i < res.nnotes; i++)
			said |= strncmp(res.notes[i], "bpf: ", 5) == 0;
		assert_true(said);
	}
	/* at least this test and its parent */
	assert_true(bench_value_of(&res, "processes")->value >= 2);
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

	const struct bench_value *v;
	bool said = false;

	run(&bench_breakpoint_enable, p, 5, &res);
	assert_true(bench_value_of(&res, "total_time")->value > 0);
	v = bench_value_of(&res, "usecs_per_op");
	assert_true(v->value > 0);
	/* five flips, each its own block: the mean lies within their spread */
	assert_int_equal(v->samples, 5);
	assert_true(v->min <= v->median && v->median <= v->max);
	assert_true(v->min <= v->value * 1.001 && v->value <= v->max * 1.001);
	assert_non_null(strstr(res.header, "1 passive and 1 active"));
	/* the causes are counted, or listed as unavailable */
	assert_true(bench_value_of(&res, "context_switches")->value >= 0);
	assert_true(bench_value_of(&res, "migrations")->value >= 0);
	assert_true(bench_value_of(&res, "ipis")->value >= 0);
	for (size_t i = 0; i < res.nnotes; i++)
		said |= !strncmp(res.notes[i], "during the timed part: ", 23);
	assert_true(said);
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
	    cmocka_unit_test(test_spread),
	    cmocka_unit_test(test_call_ipis),
	    cmocka_unit_test(test_pin),
	    cmocka_unit_test(test_status),
	    cmocka_unit_test(test_status_threads_path),
	    cmocka_unit_test(test_scan),
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
