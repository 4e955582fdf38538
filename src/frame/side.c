// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * side.c: the rows' sides (frame_proc.side), the members of row.def's
 * ROW_SIDE lines. A frame keeps them in chunks that never move, so a row's
 * pointer holds while rows are added and sorted, and keeps the chunks across
 * fills as it keeps its row array.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptop/frame.h"

/* sides a chunk holds */
#define SIDE_CHUNK 256

struct frame_side_chunk {
	struct frame_side_chunk *next;
	size_t used;
	struct frame_proc_side s[SIDE_CHUNK];
};

_Thread_local struct frame_proc_side frame_side_scratch;

/* const and all zero: in read-only memory, so a write through a row without a side faults */
const struct frame_proc_side frame_side_none;

void frame_side_missing(const struct frame_proc *p)
{
	fprintf(stderr, "ptop: pid %d: a side member read in a frame without sides\n", p->pid);
	abort();
}

void frame_sides_begin(struct frame *f, bool want)
{
	for (struct frame_side_chunk *c = f->sides; c; c = c->next)
		c->used = 0;
	f->side_at = f->sides;
	f->has_sides = want;
}

struct frame_proc_side *frame_side_add(struct frame *f, struct frame_proc *p)
{
	struct frame_side_chunk *c = f->side_at;

	p->side = NULL;
	if (!f->has_sides)
		return NULL;
	/* the chunks kept from earlier fills in turn, then new ones (each walked past once) */
	while (c && c->used == SIDE_CHUNK)
		c = c->next;
	if (!c) {
		c = xcalloc(1, sizeof(*c));
		c->next = f->sides;
		f->sides = c;
	}
	f->side_at = c;
	p->side = &c->s[c->used++];
	memset(p->side, 0, sizeof(*p->side));
	return p->side;
}

void frame_row_assign(struct frame_proc *to, const struct frame_proc *from,
		      const struct frame_proc_side *from_side)
{
	struct frame_proc_side *side = to->side;

	*to = *from;
	to->side = side;
	if (side && from_side)
		*side = *from_side;
	else if (side)
		memset(side, 0, sizeof(*side));
}

void frame_sides_free(struct frame *f)
{
	while (f->sides) {
		struct frame_side_chunk *c = f->sides;

		f->sides = c->next;
		free(c);
	}
	f->side_at = NULL;
	f->has_sides = false;
}
