// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz_record.c: libFuzzer target for the recording reader (src/record/).
 * The first byte chooses what the rest is: even, a whole file (in a memfd,
 * opened and every frame read as a replay reads, past corrupt ones, then
 * back from the end as the viewer travels, then a seek by time); odd, one
 * frame's uncompressed data for record_decode(), whose frame must then hold
 * no more rows than it said and command lines inside its strings. The file
 * path meets the checksums first, so the decoder gets its own way in.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ptop/record.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* frame_free() without the sampler it lives with */
static void release(struct frame *f)
{
	free(f->procs);
	free(f->exited);
	free(f->cpus);
	frame_sides_free(f);
	sbuf_free(&f->strings);
}

static void fuzz_file(const uint8_t *data, size_t size)
{
	struct record_reader *r;
	struct record_error e;
	struct frame f = {0};
	uint64_t n;
	int fd = memfd_create("fuzz_record", 0);

	if (fd < 0)
		return;
	if (write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return;
	}
	if (record_reader_open_fd(fd, "fuzz", &r, &e) == 0) {
		uint64_t skipped = 0, read = 0;
		const char *where;

		/* as a replay reads: past corrupt frames to the next keyframe */
		for (uint64_t k = 0; k < record_frames(r) && read < 256; k++, read++) {
			int err = record_read_next(r, &k, &f, &skipped, &e);

			if (err == -ERANGE)
				break;
			if (err || k >= record_frames(r))
				abort();
		}
		if (skipped > record_frames(r) || record_reader_tail(r, &where) > size)
			abort();
		/* as the viewer goes back: a frame at or before the one asked for */
		for (uint64_t k = record_frames(r), i = 0; k-- > 0 && i < 64; i++) {
			uint64_t at = k;
			int err = record_read_prev(r, &k, &f, &skipped, &e);

			if (err == -ERANGE)
				break;
			if (err || k > at)
				abort();
		}
		record_find_time(r, INT64_MAX / 2, &n, &e);
		record_reader_free(r);
	}
	release(&f);
}

static void fuzz_decode(const uint8_t *data, size_t size)
{
	struct record_store st = {0};
	struct frame f = {0};
	char *buf = malloc(size ? size : 1);

	if (!buf)
		return;
	memcpy(buf, data, size);
	if (record_decode(buf, size, RECORD_VERSION, &f, &st) == 0) {
		for (size_t i = 0; i < f.nprocs; i++) {
			const struct frame_proc *p = &f.procs[i];

			if (p->has_cmd && (size_t)p->cmd_off + p->cmd_len > f.strings.len)
				abort();
			if (p->comm_len > PROC_COMM_MAX || !p->user)
				abort();
		}
		if (f.nprocs > f.cap || f.counters.nevents > FRAME_MAX_EVENTS)
			abort();
		/* version 4's exited processes: each one ended, each a sane row */
		if (f.nexited > f.exited_cap)
			abort();
		for (size_t i = 0; i < f.nexited; i++)
			if (!f.exited[i].exited || f.exited[i].comm_len > PROC_COMM_MAX ||
			    !f.exited[i].user)
				abort();
	}
	free(buf);
	release(&f);
	record_store_free(&st);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size == 0)
		return 0;
	if (data[0] & 1)
		fuzz_decode(data + 1, size - 1);
	else
		fuzz_file(data + 1, size - 1);
	return 0;
}
