// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tree.c: the process tree for the tree view (t, F5): each process under its
 * parent, each thread under its process, siblings in the chosen sort order, with what the drawing needs
 * (depth, last sibling, which ancestors still have siblings below). No curses.
 */
#include <stdlib.h>
#include <string.h>

#include "ptop/ui.h"

struct tree_ctx {
	const struct frame_proc *const *rows;
	size_t n;
	size_t *child_start; /* children of row i: kids[child_start[i] .. child_start[i+1]) */
	size_t *kids;
	const int *collapsed;
	size_t ncollapsed;
	struct tree_row *out;
	size_t nout;
};

static bool is_collapsed(const struct tree_ctx *t, int pid)
{
	for (size_t i = 0; i < t->ncollapsed; i++)
		if (t->collapsed[i] == pid)
			return true;
	return false;
}

/* Depth-first without recursion: a deep chain of processes cannot overflow the stack. */
static void emit(struct tree_ctx *t, size_t root, bool root_last)
{
	struct frame_entry {
		size_t row;
		size_t next_kid; /* index into kids of the next child to visit */
		unsigned depth;
		unsigned long branches;
	} *stack = xreallocarray(NULL, t->n + 1, sizeof(*stack));
	size_t sp = 0;

	stack[sp++] = (struct frame_entry){root, t->child_start[root], 0, 0};
	{
		struct tree_row *r = &t->out[t->nout++];
		size_t nk = t->child_start[root + 1] - t->child_start[root];

		*r = (struct tree_row){.p = t->rows[root],
				       .depth = 0,
				       .last = root_last,
				       .has_children = nk > 0,
				       .collapsed = nk > 0 && is_collapsed(t, t->rows[root]->pid)};
		if (r->collapsed)
			sp = 0;
	}
	while (sp) {
		struct frame_entry *e = &stack[sp - 1];
		size_t end = t->child_start[e->row + 1], kid, nk;
		bool last;
		struct tree_row *r;

		if (e->next_kid == end) {
			sp--;
			continue;
		}
		kid = t->kids[e->next_kid++];
		last = e->next_kid == end;
		nk = t->child_start[kid + 1] - t->child_start[kid];
		r = &t->out[t->nout++];
		*r = (struct tree_row){.p = t->rows[kid],
				       .depth = e->depth + 1,
				       .last = last,
				       .has_children = nk > 0,
				       .collapsed = nk > 0 && is_collapsed(t, t->rows[kid]->pid),
				       .branches = e->branches};
		if (!last && e->depth + 1 < sizeof(unsigned long) * 8)
			r->branches |= 1ul << (e->depth + 1);
		if (nk && !r->collapsed)
			stack[sp++] = (struct frame_entry){kid, t->child_start[kid], e->depth + 1,
							   r->branches};
	}
	free(stack);
}

struct sort_ctx {
	const struct row_order *ord;
	const struct frame_proc *const *rows;
};

static int idx_cmp(const void *x, const void *y, void *arg)
{
	const struct sort_ctx *s = arg;
	const struct frame_proc *a = s->rows[*(const size_t *)x];
	const struct frame_proc *b = s->rows[*(const size_t *)y];
	int c;

	if (!s->ord) { /* by PID */
		return (a->pid > b->pid) - (a->pid < b->pid);
	}
	c = field_compare(s->ord->field, a, b);
	if (!field_defs[s->ord->field].ascending)
		c = -c;
	return s->ord->reverse ? -c : c;
}

/* Index of pid among rows (sorted by pid in byp), or n. */
static size_t find_pid(const struct frame_proc *const *rows, const size_t *byp, size_t n, int pid)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (rows[byp[mid]]->pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && rows[byp[lo]]->pid == pid ? byp[lo] : n;
}

/*
 * A frame is read one process at a time, so a PID that exits and is reused by a
 * descendant meanwhile can close a cycle of ppids, which no root reaches. Walking up
 * from each row in sort order, cut a cycle at the first of its rows the walk reaches
 * twice: that row becomes a root, and none of the cycle is left out of the tree.
 */
static void break_cycles(size_t *parent, const size_t *order, size_t n)
{
	unsigned char *state = xcalloc(n + 1, 1); /* 0 unseen, 1 on this walk, 2 done */

	for (size_t k = 0; k < n; k++) {
		size_t j = order[k], hit;

		while (j < n && !state[j]) {
			state[j] = 1;
			j = parent[j];
		}
		hit = j < n && state[j] == 1 ? j : n;
		for (j = order[k]; j < n && state[j] == 1; j = parent[j])
			state[j] = 2;
		if (hit < n)
			parent[hit] = n;
	}
	free(state);
}

size_t tree_build(const struct frame_proc *const *rows, size_t n, const struct row_order *ord,
		  const int *collapsed, size_t ncollapsed, struct tree_row *out)
{
	struct tree_ctx t = {
	    .rows = rows, .n = n, .collapsed = collapsed, .ncollapsed = ncollapsed, .out = out};
	size_t *parent = xreallocarray(NULL, n + 1, sizeof(size_t));
	size_t *order = xreallocarray(NULL, n + 1, sizeof(size_t));
	size_t *byp = xreallocarray(NULL, n + 1, sizeof(size_t));
	size_t *fill = xreallocarray(NULL, n + 2, sizeof(size_t));
	struct sort_ctx by_pid = {NULL, rows}, by_ord = {ord, rows};
	size_t nroots = 0;

	t.child_start = xcalloc(n + 2, sizeof(size_t));
	t.kids = xreallocarray(NULL, n + 1, sizeof(size_t));

	for (size_t i = 0; i < n; i++)
		order[i] = byp[i] = i;
	qsort_r(byp, n, sizeof(*byp), idx_cmp, &by_pid);
	qsort_r(order, n, sizeof(*order), idx_cmp, &by_ord);

	/* A parent that is not shown (or a process that is its own parent) makes a root;
	 * a thread's parent is its process (its main thread's row with -H), as htop's. */
	for (size_t i = 0; i < n; i++) {
		int up = frame_proc_is_thread(rows[i]) ? rows[i]->tgid : rows[i]->ppid;

		parent[i] = up != rows[i]->pid ? find_pid(rows, byp, n, up) : n;
	}
	break_cycles(parent, order, n);
	for (size_t i = 0; i < n; i++)
		if (parent[i] < n)
			t.child_start[parent[i] + 1]++;
	for (size_t i = 0; i < n; i++)
		t.child_start[i + 1] += t.child_start[i];
	memcpy(fill, t.child_start, sizeof(size_t) * (n + 1));
	/* Children are filed in sort order because order[] is visited in it. */
	for (size_t k = 0; k < n; k++) {
		size_t i = order[k];

		if (parent[i] < n)
			t.kids[fill[parent[i]]++] = i;
	}
	/* Processes whose parents are not shown are the roots. */
	for (size_t k = 0; k < n; k++)
		nroots += parent[order[k]] >= n;
	{
		size_t seen_roots = 0;

		for (size_t k = 0; k < n; k++) {
			size_t i = order[k];

			if (parent[i] < n)
				continue;
			seen_roots++;
			emit(&t, i, seen_roots == nroots);
		}
	}
	free(parent);
	free(order);
	free(byp);
	free(fill);
	free(t.child_start);
	free(t.kids);
	return t.nout;
}
