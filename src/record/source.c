// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * source.c: a recording as a frame source (source.h): its frames in order
 * from the first, or from where seek() put it; a corrupt frame is passed
 * over to the next that reads, counted and named (record_read_next/prev).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "ptop/record.h"
#include "ptop/source.h"

struct replay_source {
	struct record_reader *rec;
	uint64_t next;		    /* the frame frame() gives next */
	bool travel, back;	    /* seek to the nearest frame that reads, back first */
	struct record_error err;    /* the last failure, or the first corrupt frame skipped */
	struct record_error damage; /* the first corrupt frame the last frame skipped */
	uint64_t skipped;	    /* corrupt frames skipped so far */
	uint64_t took_skipped;	    /* of them by the last frame */
};

static int replay_open(const struct frame_source_opts *o, void **out, char *why, size_t cap)
{
	struct replay_source *r = xcalloc(1, sizeof(*r));
	struct record_error re;
	int err;

	err = record_reader_open(o->replay, &r->rec, &re);
	if (err) {
		snprintf(why, cap, "%s", re.msg);
		free(r);
		return err;
	}
	*out = r;
	return 0;
}

static void replay_close(void *v)
{
	struct replay_source *r = v;

	if (!r)
		return;
	record_reader_free(r->rec);
	free(r);
}

/* The next frame, past damage (seek() says which way). */
static int replay_frame(void *v, const struct sampler_opts *want, struct frame *f)
{
	struct replay_source *r = v;
	uint64_t skipped = 0, n = r->next;
	int err;

	(void)want;
	if (r->travel && r->back)
		err = record_read_prev(r->rec, &r->next, f, &skipped, &r->damage);
	else
		err = record_read_next(r->rec, &r->next, f, &skipped, &r->damage);
	if (err == -ERANGE && r->travel) {
		/* nothing reads that way: the nearest frame the other way, the damage still the
		 * first met */
		struct record_error other;

		r->next = n;
		err = r->back ? record_read_next(r->rec, &r->next, f, &skipped, &other)
			      : record_read_prev(r->rec, &r->next, f, &skipped, &other);
		if (err && err != -ERANGE)
			r->damage = other;
	}
	r->travel = false;
	if ((err && err != -ERANGE) || (skipped && !r->skipped))
		r->err = r->damage;
	r->took_skipped = skipped;
	r->skipped += skipped;
	if (err == -ERANGE)
		return -ENODATA;
	if (!err)
		r->next++;
	return err;
}

static void replay_seek(void *v, uint64_t n, enum source_seek how)
{
	struct replay_source *r = v;

	r->next = n;
	r->travel = how != SOURCE_SEEK_EXACT;
	r->back = how == SOURCE_SEEK_NEAREST_BACK;
}

static unsigned replay_provides(const void *v)
{
	(void)v;
	return SOURCE_SEEK;
}

struct record_reader *replay_source_reader(void *v)
{
	return ((struct replay_source *)v)->rec;
}

uint64_t replay_source_position(const void *v)
{
	const struct replay_source *r = v;

	return r->next ? r->next - 1 : 0;
}

uint64_t replay_source_skipped(const void *v)
{
	return ((const struct replay_source *)v)->skipped;
}

const char *replay_source_error(const void *v)
{
	return ((const struct replay_source *)v)->err.msg;
}

const struct record_error *replay_source_damage(const void *v)
{
	const struct replay_source *r = v;

	return r->took_skipped && r->damage.why ? &r->damage : NULL;
}

const struct frame_source_ops source_replay = {
    .name = "replay",
    .open = replay_open,
    .frame = replay_frame,
    .provides = replay_provides,
    .seek = replay_seek,
    .close = replay_close,
};
