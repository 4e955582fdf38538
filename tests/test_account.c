// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_account.c: where an interval's busy CPU went (src/frame/account.c),
 * over frames built by hand: a parent's children's share less what earlier
 * frames showed of the children, a reused PID, exit records (their share of
 * the interval, a zombie's merged into its row, less the run time a row
 * told), threads summed per process.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../src/frame/account.h"

#define HZ 100

static void frame_init(struct frame *f, double interval)
{
	memset(f, 0, sizeof(*f));
	f->hz = HZ;
	f->ncpu = 2;
	f->interval_s = interval;
	f->cap = 16;
	f->procs = calloc(f->cap, sizeof(*f->procs));
	f->exited_cap = 8;
	f->exited = calloc(f->exited_cap, sizeof(*f->exited));
}

static struct frame_proc *add(struct frame *f, int pid, int ppid, uint64_t start, uint64_t ticks,
			      uint64_t cticks)
{
	struct frame_proc *p = &f->procs[f->nprocs++];

	memset(p, 0, sizeof(*p));
	p->pid = p->tgid = pid;
	p->ppid = ppid;
	p->start_ticks = start;
	p->utime = ticks / 2;
	p->stime = ticks - ticks / 2;
	p->cutime = cticks;
	p->state = 'S';
	return p;
}

static struct frame_proc *add_exit(struct frame *f, int pid, int ppid, uint64_t start,
				   uint64_t run_ms)
{
	struct frame_proc *e = &f->exited[f->nexited++];

	memset(e, 0, sizeof(*e));
	e->pid = e->tgid = pid;
	e->ppid = ppid;
	e->start_ticks = start;
	e->run_ns = run_ms * 1000000;
	e->exited = true;
	e->exit_status = 7 << 8;
	e->maxrss_kb = 1234;
	return e;
}

static const struct frame_proc *row(const struct frame *f, int pid)
{
	for (size_t i = 0; i < f->nprocs; i++)
		if (f->procs[i].pid == pid)
			return &f->procs[i];
	fail_msg("no row %d", pid);
	return NULL;
}

static void frame_done(struct frame *f)
{
	free(f->procs);
	free(f->exited);
}

/*
 * A parent's children's time grows by a reaped child's whole life (its own
 * and its reaped children's); what the last frame showed of that child as a
 * row is not counted again.
 */
static void test_children_less_shown(void **state)
{
	struct account *a = account_new();
	struct frame f1, f2;

	(void)state;
	frame_init(&f1, 0);
	add(&f1, 100, 1, 10, 5, 0);
	add(&f1, 101, 100, 20, 30, 4);
	account_frame(a, &f1);
	assert_int_equal(row(&f1, 100)->child_ticks, 0); /* nothing to compare with */

	frame_init(&f2, 2.0);
	f2.cpu.user = 20;
	f2.cpu.system = 5;
	f2.cpu.irq = 1;
	f2.cpu.softirq = 1;
	add(&f2, 100, 1, 10, 5, 0 + 34 + 50); /* 101 reaped at 34 ticks, 102 at 50 */
	account_frame(a, &f2);
	/* 84 grown, 34 of it shown as 101's row before: 102 was never seen */
	assert_int_equal(row(&f2, 100)->child_ticks, 50);
	assert_float_equal(row(&f2, 100)->child_pct, 50.0 / HZ / 2.0 * 100.0, 1e-9);
	assert_float_equal(f2.acct.children_s, 0.5, 1e-9);
	/* 25% of 2 CPUs over 2 s */
	assert_float_equal(f2.acct.busy_s, 1.0, 1e-9);
	assert_float_equal(f2.acct.irq_s, 0.08, 1e-9);
	frame_done(&f1);
	frame_done(&f2);
	account_free(a);
}

/*
 * A child reaped while a frame was read: gone from that frame, though its
 * parent was read before the reap (its children's time not grown yet); what
 * the child's row showed comes off the parent's growth in the next frame.
 */
static void test_reaped_mid_read(void **state)
{
	struct account *a = account_new();
	struct frame f[4];

	(void)state;
	for (int k = 0; k < 4; k++)
		frame_init(&f[k], k ? 1.0 : 0);
	add(&f[0], 100, 1, 10, 5, 0);
	add(&f[0], 101, 100, 20, 12, 0);
	account_frame(a, &f[0]);
	add(&f[1], 100, 1, 10, 5, 0); /* read before the reap: nothing grown */
	account_frame(a, &f[1]);
	assert_int_equal(f[1].procs[0].child_ticks, 0);
	add(&f[2], 100, 1, 10, 5, 24); /* the child's whole 24 ticks, 12 of them shown */
	account_frame(a, &f[2]);
	assert_int_equal(f[2].procs[0].child_ticks, 12);
	add(&f[3], 100, 1, 10, 5, 24 + 7); /* a new child, never shown: all of it */
	account_frame(a, &f[3]);
	assert_int_equal(f[3].procs[0].child_ticks, 7);
	for (int k = 0; k < 4; k++)
		frame_done(&f[k]);
	account_free(a);
}

/* A process not in the frame before is new: all its children's time is this interval's. */
static void test_new_process_and_reused_pid(void **state)
{
	struct account *a = account_new();
	struct frame f1, f2;

	(void)state;
	frame_init(&f1, 0);
	add(&f1, 200, 1, 10, 40, 0);
	add(&f1, 300, 200, 11, 25, 0);
	account_frame(a, &f1);
	frame_init(&f2, 1.0);
	add(&f2, 200, 1, 10, 40, 25);
	/* PID 300 again, another process: the first one vanished (and was reaped by 200) */
	add(&f2, 300, 1, 90, 3, 12);
	account_frame(a, &f2);
	assert_int_equal(row(&f2, 200)->child_ticks, 0);
	assert_int_equal(row(&f2, 300)->child_ticks, 12);
	frame_done(&f1);
	frame_done(&f2);
	account_free(a);
}

/*
 * Exit records: one never seen counts whole, one seen counts what it ran
 * since, one whose row is still here (a zombie) is merged into the row, and
 * so is one that ended after its row was read: the row takes what it ran
 * past the read.
 */
static void test_exits(void **state)
{
	struct account *a = account_new();
	struct frame f1, f2;
	const struct frame_proc *z;

	(void)state;
	frame_init(&f1, 0);
	add(&f1, 400, 1, 10, 1, 0);
	add(&f1, 401, 400, 20, 30, 0); /* 0.3 s at 100 Hz */
	add(&f1, 402, 400, 21, 10, 0);
	add(&f1, 404, 400, 22, 5, 0);
	account_frame(a, &f1);

	frame_init(&f2, 2.0);
	f2.acct.exits = true;
	add(&f2, 400, 1, 10, 1, 0);
	add(&f2, 402, 400, 21, 12, 0)->state = 'Z';
	add(&f2, 404, 400, 22, 5, 0);	  /* read alive, then it ended: 0.2 s past the read */
	add_exit(&f2, 401, 400, 20, 500); /* ran 0.2 s more, then ended */
	add_exit(&f2, 403, 400, 30, 200); /* born and ended in the interval */
	add_exit(&f2, 402, 400, 21, 120); /* still a zombie: its row stays */
	add_exit(&f2, 401, 400, 99, 100); /* PID 401 again: another process, never seen */
	add_exit(&f2, 404, 400, 22, 250);
	account_frame(a, &f2);
	assert_true(f2.acct.exits);
	assert_int_equal(f2.nexited, 3);
	assert_int_equal(f2.exited[0].pid, 401);
	assert_float_equal(f2.exited[0].cpu_pct, 0.2 / 2.0 * 100.0, 1e-9);
	assert_int_equal(f2.exited[1].pid, 403);
	assert_float_equal(f2.exited[1].cpu_pct, 0.2 / 2.0 * 100.0, 1e-9);
	assert_int_equal(f2.exited[2].start_ticks, 99);
	assert_float_equal(f2.exited[2].cpu_pct, 0.1 / 2.0 * 100.0, 1e-9);
	assert_float_equal(f2.acct.exited_s, 0.5, 1e-9);
	z = row(&f2, 402);
	assert_true(z->exited);
	assert_int_equal(z->exit_status, 7 << 8);
	assert_int_equal(z->maxrss_kb, 1234);
	assert_float_equal(z->cpu_pct, 0, 1e-9); /* nothing past its row */
	z = row(&f2, 404);
	assert_true(z->exited);
	assert_float_equal(z->cpu_pct, 0.2 / 2.0 * 100.0, 1e-9);
	assert_float_equal(f2.acct.rows_s, 0.2, 1e-9);
	frame_done(&f1);
	frame_done(&f2);
	account_free(a);
}

/*
 * An exit record comes after the reap, often a frame after the row went:
 * what that row showed is still taken off, once; storage bytes likewise.
 */
static void test_late_exit(void **state)
{
	struct account *a = account_new();
	struct frame f[4];
	struct frame_proc *p, *e;

	(void)state;
	for (int k = 0; k < 4; k++) {
		frame_init(&f[k], k ? 1.0 : 0);
		f[k].uptime_s = 100 + k;
		add(&f[k], 1, 0, 1, 0, 0);
	}
	p = add(&f[0], 700, 1, 50, 30, 0);
	p->has_io = true;
	p->io_read_bytes = 1000;
	account_frame(a, &f[0]);
	account_frame(a, &f[1]); /* 700 gone, its record not yet here */
	e = add_exit(&f[2], 700, 1, 50, 500);
	e->has_io = true;
	e->io_read_bytes = 1600;
	account_frame(a, &f[2]);
	assert_int_equal(f[2].nexited, 1);
	assert_float_equal(f[2].exited[0].cpu_pct, 20.0, 1e-9); /* 0.5 s less 0.3 s, over 1 s */
	assert_int_equal(f[2].exited[0].io_read_rate, 600);
	/* the same again (it cannot come twice, but a reused PID and start could): whole */
	add_exit(&f[3], 700, 1, 50, 500);
	account_frame(a, &f[3]);
	assert_float_equal(f[3].exited[0].cpu_pct, 50.0, 1e-9);
	for (int k = 0; k < 4; k++)
		frame_done(&f[k]);
	account_free(a);
}

/*
 * Rows that tell their run time (the BPF source's): what they showed is
 * that, not their ticks, which leave out up to one. A process that ran
 * 1.2 ms, no tick, before the first frame and ended in the second is 0.3 ms
 * of that interval, not 1.5 ms; merged into its row, likewise.
 */
static void test_exit_less_run_time(void **state)
{
	struct account *a = account_new();
	struct frame f1, f2;

	(void)state;
	frame_init(&f1, 0);
	add(&f1, 800, 1, 10, 0, 0)->run_ns = 1200000;
	add(&f1, 801, 1, 10, 0, 0)->run_ns = 1200000;
	add(&f1, 802, 1, 10, 0, 0); /* no run time told: its ticks */
	account_frame(a, &f1);

	frame_init(&f2, 1.0);
	f2.acct.exits = true;
	add(&f2, 801, 1, 10, 0, 0)->run_ns = 1400000; /* read alive, then it ended */
	add_exit(&f2, 800, 1, 10, 0)->run_ns = 1500000;
	add_exit(&f2, 801, 1, 10, 0)->run_ns = 1500000;
	add_exit(&f2, 802, 1, 10, 0)->run_ns = 1500000;
	account_frame(a, &f2);
	assert_int_equal(f2.nexited, 2);
	assert_int_equal(f2.exited[0].pid, 800);
	assert_float_equal(f2.exited[0].cpu_pct, 0.03, 1e-9);
	assert_int_equal(f2.exited[1].pid, 802);
	assert_float_equal(f2.exited[1].cpu_pct, 0.15, 1e-9);
	assert_float_equal(f2.acct.exited_s, 0.0018, 1e-12);
	assert_true(row(&f2, 801)->exited);
	assert_float_equal(f2.acct.rows_s, 0.0001, 1e-12); /* 1.5 ms less the 1.4 ms read */
	frame_done(&f1);
	frame_done(&f2);
	account_free(a);
}

/* Rows that are threads (top -H): a process's threads are one process here. */
static void test_threads(void **state)
{
	struct account *a = account_new();
	struct frame f1, f2;
	struct frame_proc *t;

	(void)state;
	frame_init(&f1, 0);
	f1.threads = true;
	add(&f1, 500, 1, 10, 2, 0);
	add(&f1, 501, 500, 20, 10, 0);	   /* a child process... */
	t = add(&f1, 502, 500, 20, 15, 0); /* ...with a second thread */
	t->tgid = 501;
	t->ppid = 500;
	account_frame(a, &f1);
	frame_init(&f2, 1.0);
	f2.threads = true;
	add(&f2, 500, 1, 10, 2, 40)->cpu_pct = 5;
	t = add(&f2, 503, 1, 10, 0, 40); /* the parent's second thread, same children's time */
	t->tgid = 500;
	t->cpu_pct = 7;
	account_frame(a, &f2);
	/* 40 grown, the child's two threads showed 25 */
	assert_int_equal(row(&f2, 500)->child_ticks, 15);
	assert_int_equal(row(&f2, 503)->child_ticks, 0);
	assert_float_equal(f2.acct.rows_s, 0.12, 1e-9);
	frame_done(&f1);
	frame_done(&f2);
	account_free(a);
}

/* The share of busy CPU explained: rows and exits, or rows and children's time. */
static void test_accounted_pct(void **state)
{
	struct frame_account t = {
	    .busy_s = 2.0, .rows_s = 1.0, .exited_s = 0.5, .lost_s = 0.1, .children_s = 0.7};

	(void)state;
	assert_float_equal(frame_accounted_pct(&t), 85.0, 1e-9);
	t.exits = true;
	assert_float_equal(frame_accounted_pct(&t), 80.0, 1e-9);
	t.busy_s = 0;
	assert_true(frame_accounted_pct(&t) < 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_children_less_shown),
	    cmocka_unit_test(test_new_process_and_reused_pid),
	    cmocka_unit_test(test_reaped_mid_read),
	    cmocka_unit_test(test_exits),
	    cmocka_unit_test(test_late_exit),
	    cmocka_unit_test(test_exit_less_run_time),
	    cmocka_unit_test(test_threads),
	    cmocka_unit_test(test_accounted_pct),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
