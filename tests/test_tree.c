// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_tree.c: the tree view's ordering (src/ui/tree.c) over hand-made
 * process rows, no /proc involved. Parents come before their children, one
 * level deeper; siblings follow the sort order; processes whose parent is
 * not among the rows are roots; a thread's row (htop's user threads) is under
 * its process; a collapsed PID is shown, marked, without
 * its descendants; the `last` flags and `branches` bits are what the drawing
 * needs; a 10000-deep chain and a cycle of parents (possible when PIDs are
 * reused while a frame is read) are handled. A checker verifies every
 * invariant on random forests too.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ptop/ui.h"

struct forest {
	struct frame_proc *procs;
	const struct frame_proc **rows;
	struct tree_row *out;
	size_t n;
};

static void forest_init(struct forest *f, size_t n)
{
	f->procs = xcalloc(n ? n : 1, sizeof(*f->procs));
	f->rows = xcalloc(n ? n : 1, sizeof(*f->rows));
	f->out = xcalloc(n ? n : 1, sizeof(*f->out));
	f->n = n;
	for (size_t i = 0; i < n; i++)
		f->rows[i] = &f->procs[i];
}

static void forest_free(struct forest *f)
{
	free(f->procs);
	free(f->rows);
	free(f->out);
}

static void set_proc(struct frame_proc *p, int pid, int ppid, double cpu)
{
	memset(p, 0, sizeof(*p));
	p->pid = p->tgid = pid;
	p->ppid = ppid;
	p->cpu_pct = cpu;
	p->user = "root";
	p->comm_len = 4;
	memcpy(p->comm, "proc", 4);
}

static size_t build(struct forest *f, const struct row_order *ord, const int *collapsed,
		    size_t ncollapsed)
{
	return tree_build(f->rows, f->n, ord, collapsed, ncollapsed, f->out);
}

struct want {
	int pid;
	unsigned depth;
	bool last, has_children, collapsed;
	unsigned long branches;
};

static void assert_rows(const struct tree_row *got, size_t ngot, const struct want *want,
			size_t nwant)
{
	if (ngot != nwant)
		fail_msg("%zu rows, expected %zu", ngot, nwant);
	for (size_t i = 0; i < nwant; i++) {
		const struct tree_row *r = &got[i];
		const struct want *w = &want[i];

		if (r->p->pid != w->pid || r->depth != w->depth || r->last != w->last ||
		    r->has_children != w->has_children || r->collapsed != w->collapsed ||
		    r->branches != w->branches)
			fail_msg("row %zu: pid %d depth %u last %d children %d collapsed %d "
				 "branches %#lx; expected pid %d depth %u last %d children %d "
				 "collapsed %d branches %#lx",
				 i, r->p->pid, r->depth, r->last, r->has_children, r->collapsed,
				 r->branches, w->pid, w->depth, w->last, w->has_children,
				 w->collapsed, w->branches);
	}
}

/*
 * Every invariant of a tree listing: each row once; a child right under its parent's
 * subtree, one level deeper; `last` true exactly when no later sibling follows; bit d
 * of `branches` set exactly when the ancestor at depth d has later siblings.
 */
static void check_invariants(const struct forest *f, const struct tree_row *out, size_t nout,
			     const struct row_order *ord)
{
	const struct tree_row **anc = xcalloc(nout + 1, sizeof(*anc));
	char *seen = xcalloc(f->n ? f->n : 1, 1);

	for (size_t i = 0; i < nout; i++) {
		const struct tree_row *r = &out[i];
		size_t idx = (size_t)(r->p - f->procs);
		size_t j;

		assert_true(idx < f->n);
		if (seen[idx]++)
			fail_msg("pid %d listed twice", r->p->pid);
		if (r->depth > 0) {
			assert_non_null(anc[r->depth - 1]);
			assert_int_equal(anc[r->depth - 1]->p->pid,
					 frame_proc_is_thread(r->p) ? r->p->tgid : r->p->ppid);
			assert_true(i > 0 && out[i - 1].depth + 1 >= r->depth);
		}
		anc[r->depth] = r;
		/* the next row at this depth or above: a sibling exactly when at this depth */
		for (j = i + 1; j < nout && out[j].depth > r->depth; j++)
			;
		assert_int_equal(r->last, !(j < nout && out[j].depth == r->depth));
		if (j < nout && out[j].depth == r->depth && ord) {
			/* siblings in sort order */
			int c = field_compare(ord->field, r->p, out[j].p);

			if (!field_defs[ord->field].ascending)
				c = -c;
			if (ord->reverse)
				c = -c;
			assert_true(c < 0);
		}
		/* has_children: the next row is a child, unless collapsed */
		if (!r->collapsed)
			assert_int_equal(r->has_children,
					 i + 1 < nout && out[i + 1].depth == r->depth + 1);
		for (unsigned d = 1; d < r->depth && d < sizeof(unsigned long) * 8; d++)
			assert_int_equal(r->branches >> d & 1, !anc[d]->last);
	}
	free(anc);
	free(seen);
}

/*
 *   8 (orphan: its parent 999 is not shown)
 *   `- 9
 *   1
 *   |- 3
 *   |  `- 6
 *   `- 2
 *      |- 5
 *      |  `- 7
 *      `- 4
 */
static void make_sample(struct forest *f)
{
	static const struct {
		int pid, ppid;
		double cpu;
	} procs[] = {
	    /* given in no particular order */
	    {7, 5, 0.5}, {4, 2, 1}, {1, 0, 0}, {9, 8, 0.25}, {3, 1, 10},
	    {6, 3, 0},	 {2, 1, 5}, {5, 2, 2}, {8, 999, 50},
	};

	forest_init(f, sizeof(procs) / sizeof(procs[0]));
	for (size_t i = 0; i < f->n; i++)
		set_proc(&f->procs[i], procs[i].pid, procs[i].ppid, procs[i].cpu);
}

static void test_shape_by_cpu(void **state)
{
	struct forest f;
	struct row_order ord = {.field = FIELD_CPU};
	static const struct want want[] = {
	    {8, 0, false, true, false, 0},   {9, 1, true, false, false, 0},
	    {1, 0, true, true, false, 0},    {3, 1, false, true, false, 0x2},
	    {6, 2, true, false, false, 0x2}, {2, 1, true, true, false, 0},
	    {5, 2, false, true, false, 0x4}, {7, 3, true, false, false, 0x4},
	    {4, 2, true, false, false, 0},
	};

	(void)state;
	make_sample(&f);
	assert_rows(f.out, build(&f, &ord, NULL, 0), want, sizeof(want) / sizeof(want[0]));
	check_invariants(&f, f.out, f.n, &ord);
	forest_free(&f);
}

static void test_shape_by_pid_and_reversed(void **state)
{
	struct forest f;
	struct row_order by_pid = {.field = FIELD_PID};
	struct row_order cpu_rev = {.field = FIELD_CPU, .reverse = true};
	static const struct want want_pid[] = {
	    {1, 0, false, true, false, 0},    {2, 1, false, true, false, 0x2},
	    {4, 2, false, false, false, 0x6}, {5, 2, true, true, false, 0x2},
	    {7, 3, true, false, false, 0x2},  {3, 1, true, true, false, 0},
	    {6, 2, true, false, false, 0},    {8, 0, true, true, false, 0},
	    {9, 1, true, false, false, 0},
	};
	static const struct want want_rev[] = {
	    {1, 0, false, true, false, 0},    {2, 1, false, true, false, 0x2},
	    {4, 2, false, false, false, 0x6}, {5, 2, true, true, false, 0x2},
	    {7, 3, true, false, false, 0x2},  {3, 1, true, true, false, 0},
	    {6, 2, true, false, false, 0},    {8, 0, true, true, false, 0},
	    {9, 1, true, false, false, 0},
	};

	(void)state;
	make_sample(&f);
	assert_rows(f.out, build(&f, &by_pid, NULL, 0), want_pid,
		    sizeof(want_pid) / sizeof(want_pid[0]));
	check_invariants(&f, f.out, f.n, &by_pid);
	/* %CPU reversed: the least busy first, which here is PID order too */
	assert_rows(f.out, build(&f, &cpu_rev, NULL, 0), want_rev,
		    sizeof(want_rev) / sizeof(want_rev[0]));
	check_invariants(&f, f.out, f.n, &cpu_rev);
	/* no order given: by PID */
	assert_rows(f.out, build(&f, NULL, NULL, 0), want_pid,
		    sizeof(want_pid) / sizeof(want_pid[0]));
	forest_free(&f);
}

static void test_collapsed(void **state)
{
	struct forest f;
	struct row_order ord = {.field = FIELD_CPU};
	static const int c2[] = {2};
	static const struct want want2[] = {
	    {8, 0, false, true, false, 0},   {9, 1, true, false, false, 0},
	    {1, 0, true, true, false, 0},    {3, 1, false, true, false, 0x2},
	    {6, 2, true, false, false, 0x2}, {2, 1, true, true, true, 0},
	};
	/* collapsing a root, a leaf (nothing to hide) and a PID not shown at all */
	static const int c8[] = {8, 6, 12345, 3};
	static const struct want want8[] = {
	    {8, 0, false, true, true, 0},    {1, 0, true, true, false, 0},
	    {3, 1, false, true, true, 0x2},  {2, 1, true, true, false, 0},
	    {5, 2, false, true, false, 0x4}, {7, 3, true, false, false, 0x4},
	    {4, 2, true, false, false, 0},
	};
	static const int c1[] = {1};
	static const struct want want1[] = {
	    {8, 0, false, true, false, 0},
	    {9, 1, true, false, false, 0},
	    {1, 0, true, true, true, 0},
	};

	(void)state;
	make_sample(&f);
	assert_rows(f.out, build(&f, &ord, c2, 1), want2, sizeof(want2) / sizeof(want2[0]));
	assert_rows(f.out, build(&f, &ord, c8, 4), want8, sizeof(want8) / sizeof(want8[0]));
	assert_rows(f.out, build(&f, &ord, c1, 1), want1, sizeof(want1) / sizeof(want1[0]));
	forest_free(&f);
}

static void test_orphans_are_roots(void **state)
{
	struct forest f;
	struct row_order ord = {.field = FIELD_CPU};
	size_t n;

	(void)state;
	/* a filtered view: parents missing, a process its own parent, PID 1's ppid 0 */
	forest_init(&f, 5);
	set_proc(&f.procs[0], 300, 200, 3); /* 200 filtered out */
	set_proc(&f.procs[1], 100, 100, 1);
	set_proc(&f.procs[2], 1, 0, 4);
	set_proc(&f.procs[3], 400, 300, 2);  /* under 300 */
	set_proc(&f.procs[4], 500, 4000, 5); /* parent gone */
	n = build(&f, &ord, NULL, 0);
	{
		static const struct want want[] = {
		    {500, 0, false, false, false, 0}, {1, 0, false, false, false, 0},
		    {300, 0, false, true, false, 0},  {400, 1, true, false, false, 0},
		    {100, 0, true, false, false, 0},
		};

		assert_rows(f.out, n, want, sizeof(want) / sizeof(want[0]));
	}
	check_invariants(&f, f.out, n, &ord);
	forest_free(&f);
}

/* htop's user threads: a thread's row goes under its process, among its child processes. */
static void test_threads_under_process(void **state)
{
	struct forest f;
	struct row_order ord = {.field = FIELD_CPU};
	size_t n;

	(void)state;
	forest_init(&f, 5);
	set_proc(&f.procs[0], 1, 0, 0);
	set_proc(&f.procs[1], 100, 1, 10);
	set_proc(&f.procs[2], 101, 1, 1); /* a thread keeps its process's ppid */
	f.procs[2].tgid = 100;
	set_proc(&f.procs[3], 102, 1, 9);
	f.procs[3].tgid = 100;
	set_proc(&f.procs[4], 200, 100, 5);
	n = build(&f, &ord, NULL, 0);
	{
		static const struct want want[] = {
		    {1, 0, true, true, false, 0},     {100, 1, true, true, false, 0},
		    {102, 2, false, false, false, 4}, {200, 2, false, false, false, 4},
		    {101, 2, true, false, false, 0},
		};

		assert_rows(f.out, n, want, sizeof(want) / sizeof(want[0]));
	}
	check_invariants(&f, f.out, n, &ord);
	forest_free(&f);
}

static void test_empty_and_single(void **state)
{
	struct forest f;
	struct row_order ord = {.field = FIELD_CPU};

	(void)state;
	forest_init(&f, 0);
	assert_int_equal(build(&f, &ord, NULL, 0), 0);
	forest_free(&f);

	forest_init(&f, 1);
	set_proc(&f.procs[0], 42, 1, 0);
	assert_int_equal(build(&f, &ord, (const int[]){42}, 1), 1);
	assert_int_equal(f.out[0].p->pid, 42);
	assert_int_equal(f.out[0].depth, 0);
	assert_true(f.out[0].last);
	assert_false(f.out[0].has_children);
	assert_false(f.out[0].collapsed); /* nothing to collapse */
	forest_free(&f);
}

static void test_deep_chain(void **state)
{
	enum { DEPTH = 10000 };
	struct forest f;
	struct row_order ord = {.field = FIELD_CPU};
	size_t n;

	(void)state;
	/* PID k+1 is the child of k; listed deepest first */
	forest_init(&f, DEPTH);
	for (size_t i = 0; i < DEPTH; i++)
		set_proc(&f.procs[i], (int)(DEPTH - i), (int)(DEPTH - i - 1), (double)i);
	n = build(&f, &ord, NULL, 0);
	assert_int_equal(n, DEPTH);
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(f.out[i].p->pid, (int)i + 1);
		assert_int_equal(f.out[i].depth, i);
		assert_true(f.out[i].last);
		assert_int_equal(f.out[i].has_children, i + 1 < DEPTH);
		assert_false(f.out[i].collapsed);
		assert_int_equal(f.out[i].branches, 0);
	}
	check_invariants(&f, f.out, n, &ord);

	/* collapsed half way down */
	n = build(&f, &ord, (const int[]){5000}, 1);
	assert_int_equal(n, 5000);
	assert_int_equal(f.out[4999].p->pid, 5000);
	assert_true(f.out[4999].collapsed);
	forest_free(&f);
}

static void test_deep_branches(void **state)
{
	/* a spine 100 deep where each spine process also has a leaf child listed after the
	 * next spine process: every spine row has a later sibling, so its bit is set, up to
	 * the bits an unsigned long has */
	enum { SPINE = 100 };
	struct forest f;
	struct row_order ord = {.field = FIELD_CPU};
	const unsigned bits = sizeof(unsigned long) * 8;
	size_t n, spine = 0;

	(void)state;
	forest_init(&f, 2 * SPINE);
	for (int k = 0; k < SPINE; k++) {
		set_proc(&f.procs[2 * k], k + 1, k, 10);	/* spine: busy */
		set_proc(&f.procs[2 * k + 1], 10000 + k, k, 1); /* leaf: idle */
	}
	/* PID 10000 hangs under PID 0, which is not shown: a second root */
	n = build(&f, &ord, NULL, 0);
	assert_int_equal(n, 2 * SPINE);
	check_invariants(&f, f.out, n, &ord);
	for (size_t i = 0; i < n; i++) {
		const struct tree_row *r = &f.out[i];
		unsigned long want = 0;

		if (r->p->pid >= 10000)
			continue;
		/* spine row k sits at depth k - 1; all but the root have a later sibling */
		assert_int_equal(r->depth, spine);
		for (unsigned d = 1; d <= r->depth && d < bits; d++)
			want |= 1ul << d;
		if (r->branches != want)
			fail_msg("spine depth %u: branches %#lx, expected %#lx", r->depth,
				 r->branches, want);
		spine++;
	}
	assert_int_equal(spine, SPINE);
	forest_free(&f);
}

static void test_parent_cycle(void **state)
{
	/* 10 and 11 name each other as parents: read at different moments, a reused PID
	 * can do that. They are still shown, once each. */
	struct forest f;
	struct row_order ord = {.field = FIELD_PID};
	size_t n;

	(void)state;
	forest_init(&f, 4);
	set_proc(&f.procs[0], 10, 11, 0);
	set_proc(&f.procs[1], 11, 10, 0);
	set_proc(&f.procs[2], 12, 11, 0);
	set_proc(&f.procs[3], 1, 0, 0);
	n = build(&f, &ord, NULL, 0);
	assert_int_equal(n, 4);
	{
		bool seen[4] = {false};

		for (size_t i = 0; i < n; i++) {
			size_t idx = (size_t)(f.out[i].p - f.procs);

			assert_true(idx < 4);
			assert_false(seen[idx]);
			seen[idx] = true;
		}
	}
	{
		/* cut where the walk from 10, first in PID order, comes back to it */
		static const struct want want[] = {
		    {1, 0, false, false, false, 0},
		    {10, 0, true, true, false, 0},
		    {11, 1, true, true, false, 0},
		    {12, 2, true, false, false, 0},
		};

		assert_rows(f.out, n, want, sizeof(want) / sizeof(want[0]));
	}
	check_invariants(&f, f.out, n, &ord);
	/* a process that is its own parent is a root, not a cycle */
	f.procs[1].ppid = 11;
	f.procs[0].ppid = 11;
	n = build(&f, &ord, NULL, 0);
	assert_int_equal(n, 4);
	check_invariants(&f, f.out, n, &ord);
	assert_int_equal(f.out[1].p->pid, 11);
	assert_int_equal(f.out[1].depth, 0);
	assert_int_equal(f.out[2].p->pid, 10);
	assert_int_equal(f.out[2].depth, 1);
	forest_free(&f);
}

static void test_random_forests(void **state)
{
	static const struct row_order orders[] = {
	    {.field = FIELD_CPU},  {.field = FIELD_PID},     {.field = FIELD_CPU, .reverse = true},
	    {.field = FIELD_TIME}, {.field = FIELD_COMMAND},
	};
	unsigned seed = 7;

	(void)state;
	for (int round = 0; round < 40; round++) {
		struct forest f;
		size_t n = 1 + (size_t)round * 37 % 700, got;
		const struct row_order *ord = &orders[round % 5];
		int collapsed[3];

		forest_init(&f, n);
		for (size_t i = 0; i < n; i++) {
			int pid = (int)(i * 3 + 2);
			int ppid;

			seed = seed * 1103515245u + 12345u;
			/* an earlier process, or one not shown; in odd rounds any process,
			 * so that cycles of parents occur too */
			if (round & 1)
				ppid = seed >> 16 & 7 ? (int)((seed >> 8) % n * 3 + 2) : 1;
			else
				ppid = i && seed >> 16 & 3 ? (int)((seed >> 8) % i * 3 + 2) : 1;
			set_proc(&f.procs[i], pid, ppid, (double)(seed >> 20 & 63));
			f.procs[i].utime = seed >> 4 & 255;
			f.procs[i].comm[0] = (char)('a' + (seed >> 12) % 26);
		}
		/* present them shuffled */
		for (size_t i = n; i > 1; i--) {
			size_t j;
			const struct frame_proc *tmp;

			seed = seed * 1103515245u + 12345u;
			j = (seed >> 8) % i;
			tmp = f.rows[i - 1];
			f.rows[i - 1] = f.rows[j];
			f.rows[j] = tmp;
		}
		got = build(&f, ord, NULL, 0);
		assert_int_equal(got, n);
		check_invariants(&f, f.out, got, ord);
		for (int k = 0; k < 3; k++)
			collapsed[k] = f.procs[(size_t)k * 7 % n].pid;
		got = build(&f, ord, collapsed, 3);
		assert_true(got <= n);
		check_invariants(&f, f.out, got, ord);
		for (size_t i = 0; i < got; i++)
			for (size_t k = 0; k < 3; k++)
				if (f.out[i].p->pid == collapsed[k])
					assert_int_equal(f.out[i].collapsed, f.out[i].has_children);
		forest_free(&f);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_shape_by_cpu),
	    cmocka_unit_test(test_shape_by_pid_and_reversed),
	    cmocka_unit_test(test_collapsed),
	    cmocka_unit_test(test_orphans_are_roots),
	    cmocka_unit_test(test_threads_under_process),
	    cmocka_unit_test(test_empty_and_single),
	    cmocka_unit_test(test_deep_chain),
	    cmocka_unit_test(test_deep_branches),
	    cmocka_unit_test(test_parent_cycle),
	    cmocka_unit_test(test_random_forests),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
