// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_delta.c: the figures of an interval made from two frames
 * (src/frame/delta.c): every member row.def says the deltas fill, held
 * against the two rows it comes from; none on a process's first frame, for
 * a reused PID, or where either frame did not read what it comes from.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "../src/frame/delta.h"

/* the rows' sides: each row() takes one of its own */
static struct frame_proc_side sides[64];
static size_t nsides;

static struct frame_proc row(int pid, uint64_t start, uint64_t base)
{
	struct frame_proc_side *side = &sides[nsides++];

	assert_true(nsides <= sizeof(sides) / sizeof(sides[0]));
	*side = (struct frame_proc_side){.has_flt = true,
					 .minflt = base + 100,
					 .majflt = base + 10,
					 .has_blkio = true,
					 .blkio_ticks = base,
					 .has_swapin = true,
					 .swapin_delay_ns = base * 2000000,
					 .has_run_delay = true,
					 .run_delay_ns = base * 1000000};
	return (struct frame_proc){.pid = pid,
				   .tgid = pid,
				   .start_ticks = start,
				   .has_ctxsw = true,
				   .vctxsw = base + 5,
				   .nvctxsw = base + 2,
				   .side = side};
}

/* Frame f of the rows given, over interval seconds. */
static void frame_of(struct frame *f, struct frame_proc *rows, size_t n, double interval)
{
	memset(f, 0, sizeof(*f));
	f->procs = rows;
	f->nprocs = n;
	f->has_sides = true;
	f->interval_s = interval;
}

/* Whether any delta flag is set in p. */
static bool any_delta(const struct frame_proc *p)
{
	return p->side->has_dflt || p->side->has_dctx || p->side->has_cpud || p->side->has_iod ||
	       p->side->has_swapd;
}

static void test_two_frames(void **state)
{
	struct deltas *d = deltas_new();
	struct frame_proc a[2] = {row(10, 500, 0), row(20, 600, 0)};
	struct frame_proc b[3] = {row(10, 500, 50), row(20, 700, 50), row(30, 800, 50)};
	long hz = sysconf(_SC_CLK_TCK);
	struct frame f;

	(void)state;
	frame_of(&f, a, 2, 0);
	deltas_frame(d, &f);
	/* the first frame: nothing before it */
	assert_false(any_delta(&a[0]));
	assert_false(any_delta(&a[1]));
	frame_of(&f, b, 3, 2.0);
	deltas_frame(d, &f);
	assert_true(b[0].side->has_dflt);
	assert_int_equal(b[0].side->minflt_delta, 50);
	assert_int_equal(b[0].side->majflt_delta, 50);
	assert_true(b[0].side->has_dctx);
	assert_int_equal(b[0].side->ctxsw_delta, 100);
	assert_true(b[0].side->has_cpud);
	/* 50 ms waited over 2 s */
	assert_float_equal(b[0].side->cpu_delay_pct, 2.5, 1e-9);
	assert_true(b[0].side->has_iod);
	assert_float_equal(b[0].side->io_delay_pct, 50.0 / (double)hz / 2.0 * 100.0, 1e-9);
	/* 100 ms waited for swap over 2 s */
	assert_true(b[0].side->has_swapd);
	assert_float_equal(b[0].side->swap_delay_pct, 5.0, 1e-9);
	/* PID 20 is another process now (its start time), 30 is new */
	assert_false(any_delta(&b[1]));
	assert_false(any_delta(&b[2]));
	deltas_free(d);
}

/* A figure whose source either frame did not read has no value, the others do. */
static void test_unread(void **state)
{
	struct deltas *d = deltas_new();
	struct frame_proc a[1] = {row(10, 500, 0)};
	struct frame_proc b[1] = {row(10, 500, 7)};
	struct frame_proc c[1] = {row(10, 500, 9)};
	struct frame f;

	(void)state;
	a[0].has_ctxsw = false;
	a[0].side->has_blkio = false;
	a[0].side->has_swapin = false;
	frame_of(&f, a, 1, 0);
	deltas_frame(d, &f);
	b[0].side->has_run_delay = false;
	frame_of(&f, b, 1, 1.0);
	deltas_frame(d, &f);
	assert_true(b[0].side->has_dflt);
	assert_int_equal(b[0].side->minflt_delta, 7);
	assert_false(b[0].side->has_dctx);
	assert_false(b[0].side->has_cpud);
	assert_false(b[0].side->has_iod);
	assert_false(b[0].side->has_swapd);
	/* the frame before did read them now: a value again, over the last interval only */
	frame_of(&f, c, 1, 1.0);
	deltas_frame(d, &f);
	assert_true(c[0].side->has_dctx);
	assert_int_equal(c[0].side->ctxsw_delta, 4);
	assert_true(c[0].side->has_iod);
	assert_true(c[0].side->has_swapd);
	assert_float_equal(c[0].side->swap_delay_pct, 2.0 * 2000000 / 1e9 * 100.0, 1e-9);
	assert_false(c[0].side->has_cpud);
	deltas_free(d);
}

/* A thread's row is matched with its thread's, not with its process's of the same PID. */
static void test_threads(void **state)
{
	struct deltas *d = deltas_new();
	struct frame_proc a[2] = {row(10, 500, 0), row(11, 500, 0)};
	struct frame_proc b[2] = {row(10, 500, 3), row(11, 500, 5)};
	struct frame f;

	(void)state;
	a[1].tgid = b[1].tgid = 10;
	frame_of(&f, a, 2, 0);
	deltas_frame(d, &f);
	frame_of(&f, b, 2, 1.0);
	deltas_frame(d, &f);
	assert_int_equal(b[0].side->minflt_delta, 3);
	assert_int_equal(b[1].side->minflt_delta, 5);
	deltas_free(d);
}

/* Rows out of PID order (a thread's after its process's, a sort) find theirs all the same. */
static void test_out_of_order(void **state)
{
	struct deltas *d = deltas_new();
	struct frame_proc a[3] = {row(30, 1, 0), row(10, 1, 0), row(20, 1, 0)};
	struct frame_proc b[3] = {row(20, 1, 2), row(30, 1, 3), row(10, 1, 1)};
	struct frame f;

	(void)state;
	frame_of(&f, a, 3, 0);
	deltas_frame(d, &f);
	frame_of(&f, b, 3, 1.0);
	deltas_frame(d, &f);
	for (size_t i = 0; i < 3; i++) {
		assert_true(b[i].side->has_dflt);
		assert_int_equal(b[i].side->minflt_delta, (uint64_t)b[i].pid / 10);
	}
	deltas_free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_two_frames),
	    cmocka_unit_test(test_unread),
	    cmocka_unit_test(test_threads),
	    cmocka_unit_test(test_out_of_order),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
