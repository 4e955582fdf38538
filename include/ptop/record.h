/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * record.h: ptop's recording file (ptop --record, ptop -r). A header with
 * the machine's facts, then frames appended one after another, each written
 * whole with its length and a CRC-32 so that a recorder killed mid-write or
 * stopped by a full disk leaves a file that reads back to its last complete
 * frame. A frame is zstd-compressed against the previous one (a delta: idle
 * processes cost almost nothing) with a keyframe, compressed alone, every
 * RECORD_KEY_EVERY frames; each frame names its keyframe and each keyframe
 * the one before, so a reader finds every keyframe from the end without
 * reading the frames between, and a seek decodes at most RECORD_KEY_EVERY
 * frames. The layout is in doc/DESIGN.md ("Recording").
 */
#ifndef PTOP_RECORD_H
#define PTOP_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ptop/frame.h"

#define RECORD_VERSION 16     /* the format this ptop writes, and the newest it reads */
#define RECORD_KEY_EVERY 60   /* frames from one keyframe to the next */
#define RECORD_HEADER_LEN 256 /* bytes of the file header */
#define RECORD_FRAME_HEAD 48  /* bytes before each frame's compressed data */
/* Where the header keeps the CRC-32 of its version and length fields (bytes 8 to 15), in
 * every version: a damaged version is told from a newer one by it (0: a file older than it). */
#define RECORD_VERSION_CRC_AT 252
/* A version above this is damage, never a newer ptop's. */
#define RECORD_VERSION_SANE 255
/* A frame's compressed and decoded sizes are refused above this: a corrupt length
 * must not make the reader allocate gigabytes. */
#define RECORD_FRAME_MAX (256u << 20)

/*
 * What every row of a recording keeps, whatever the columns shown: the members
 * of stat (the job control and scheduling ones included) and statm, read every
 * frame, and those of status, io and cgroup, read for a process only where they
 * may have changed since its last read (RECORD_NEEDS_LAZY, sampler_opts'
 * needs_lazy): read every frame, they cost a recorder of 2,200 idle processes
 * 2.4 times its CPU. A member that costs a file of its own per process (the
 * OOM score, wchan, exe, cwd, ...) is kept when a shown column or --fields
 * asks for it.
 */
#define RECORD_NEEDS (ROW_NEED_STATM | ROW_NEED_JOB | FRAME_NEED_SIDE)
#define RECORD_NEEDS_LAZY (ROW_NEED_STATUS | ROW_NEED_IO | ROW_NEED_CGROUP)

/* The machine a recording was made on (the file header). */
struct record_info {
	uint32_t version;
	int64_t created_ns; /* CLOCK_REALTIME when the file was created */
	uint32_t hz;	    /* clock ticks per second */
	uint32_t page_size; /* bytes */
	uint32_t ncpu;
	uint32_t key_every; /* frames from one keyframe to the next */
	char hostname[65];
	char kernel[65]; /* uname's release */
};

/* Why a record function failed: a translated "ptop: FILE: ..." without a newline. */
struct record_error {
	char msg[320];
	/* a corrupt frame (-EINVAL from reading one): which, counted from 0, and why
	 * (translated); why is NULL for any other failure */
	uint64_t frame;
	const char *why;
};

struct record_writer;
struct record_reader;

/*
 * Open path for recording: create it (whole header or no file: written under
 * a temporary name and linked into place), or append to a recording that is
 * there after its last complete frame, cutting off a frame a crash left half
 * written. A recording of format version 2 is appended to in version 2 (its
 * frames' data is the same), without the recorder's cost. Returns 0, or
 * -errno with e saying why: -EPROTO not a ptop recording, a newer version or
 * version 1, -EINVAL corrupt, else the system's error.
 */
int record_writer_open(const char *path, struct record_writer **out, struct record_error *e);

/*
 * Append frame f, whole or not at all, and its cost to the recorder into
 * the next frame's head. The data reaches the disk (fdatasync) at every
 * keyframe and on close: a power cut loses at most RECORD_KEY_EVERY frames,
 * a killed recorder none that were written. Returns 0, or -errno (-ENOSPC a
 * full disk) with e saying why; the file then still ends after the last
 * complete frame, and later calls fail.
 */
int record_write(struct record_writer *w, const struct frame *f, struct record_error *e);

/* Bytes written to the file so far by this writer, header included. */
uint64_t record_writer_bytes(const struct record_writer *w);

/* Sync and close. Returns 0 or -errno (the sync failed: e says so). NULL is ignored. */
int record_writer_close(struct record_writer *w, struct record_error *e);

/*
 * Open a recording for reading (path is for messages; fd is owned by the
 * reader from then on, also on failure). Reads the header and finds the
 * keyframes from the last complete frame back; when a damaged keyframe head
 * breaks their chain, from every frame head that holds, in one more read of
 * the file (the frames it cannot place are then skipped by
 * record_read_next()). Returns 0, or -errno with e saying why: -EPROTO not a
 * recording, a newer version, -EINVAL truncated or corrupt header, or too
 * many damaged heads at its end, -ENODATA no complete frame.
 */
int record_reader_open_fd(int fd, const char *path, struct record_reader **out,
			  struct record_error *e);
/* record_reader_open_fd() on path opened read-only. */
int record_reader_open(const char *path, struct record_reader **out, struct record_error *e);
void record_reader_free(struct record_reader *r);

const struct record_info *record_reader_info(const struct record_reader *r);
/*
 * Bytes after the last complete frame (a frame cut short by a crash, or what
 * a file system left), which the reader skips; 0 also while another process
 * records into the file (its lock held: the frame being written). For a
 * directory, those of the first day file that has some; *path says which.
 */
uint64_t record_reader_tail(const struct record_reader *r, const char **path);
/* The path the reader was opened on (a file or a directory), for messages. */
const char *record_reader_path(const struct record_reader *r);
/* Frames in the recording (numbered 0 to this - 1). */
uint64_t record_frames(const struct record_reader *r);

/*
 * Decode frame n into f (reusing f's memory, as the sampler does). Reading
 * n + 1 after n decodes one frame; any other n decodes from its keyframe.
 * The frame's user names, breakpoints and counter reasons belong to the
 * reader and last until the next call. Returns 0, -ERANGE for n past the
 * end, or -EINVAL with e saying where the file is corrupt.
 */
int record_read(struct record_reader *r, uint64_t n, struct frame *f, struct record_error *e);

/*
 * record_read() past damage: frame *n, or, when it is corrupt, the first
 * frame that reads from the next keyframe on (a delta needs every frame
 * since its keyframe). *n becomes the frame read and *skipped grows by the
 * frames passed over; e says what the first corrupt frame was. Returns 0,
 * -ERANGE when no frame from *n on reads (*n is then record_frames()), or
 * another error of record_read().
 */
int record_read_next(struct record_reader *r, uint64_t *n, struct frame *f, uint64_t *skipped,
		     struct record_error *e);
/*
 * record_read_next() backwards: frame *n, or, when it is corrupt, the last
 * frame before it that reads (the frame before the first corrupt one since
 * its keyframe). -ERANGE when no frame up to *n reads or *n is past the end.
 */
int record_read_prev(struct record_reader *r, uint64_t *n, struct frame *f, uint64_t *skipped,
		     struct record_error *e);

/*
 * What recording the frame before the one last read cost the recorder: its
 * CPU time encoding, compressing, writing and (at a keyframe) syncing it,
 * in us, as the recorder wrote it into this frame's head. 0 unknown: the
 * first frame a recorder wrote, or a file of format version 1 or 2.
 */
uint32_t record_read_cost_us(const struct record_reader *r);
/* The bytes the frame last read takes in the file (its head and compressed data). */
uint64_t record_read_bytes(const struct record_reader *r);

/*
 * The last frame recorded at or before t (CLOCK_REALTIME ns), by the
 * keyframes' times and then at most RECORD_KEY_EVERY frame heads; 0 when t is
 * before the first. A damaged head on the way ends the walk at the frame
 * before it (none after it reads before the next keyframe); a keyframe that
 * cannot be read gives its own number. Returns 0 (e is for a failure to come).
 */
int record_find_time(struct record_reader *r, int64_t t, uint64_t *n, struct record_error *e);
/* The time of frame n (CLOCK_REALTIME ns), from its head. 0 or -errno with e. */
int record_frame_time(struct record_reader *r, uint64_t n, int64_t *t, struct record_error *e);

/*
 * The recorder (ptop --record): frames into a file, or into a directory with
 * one file per day (ptop-YYYY-MM-DD.rec, local date) of which those older
 * than keep_days are removed (0: none are).
 */
struct recorder;
/* 0, or -errno with e saying why (the writer's errors; a directory that cannot be read). */
int recorder_open(const char *path, unsigned keep_days, struct recorder **out,
		  struct record_error *e);
/* Append f (to the file of f's day in directory mode). 0, or -errno with e. */
int recorder_frame(struct recorder *r, const struct frame *f, struct record_error *e);
/* Sync and close; 0 or -errno with e. NULL is ignored. */
int recorder_close(struct recorder *r, struct record_error *e);

/*
 * A time as users type it, into CLOCK_REALTIME ns: "HH:MM[:SS]" on the local
 * day of ref_ns, or "YYYY-MM-DD[ HH:MM[:SS]]" (a T may stand for the space),
 * local time. 0, -EINVAL not such a time, or -ERANGE a time a recording
 * cannot hold (int64 ns: before 1677-09-21 or after 2262-04-11).
 */
int record_parse_time(const char *s, int64_t ref_ns, int64_t *out);

/*
 * The frame codec, public for the tests and the fuzz target: f as the
 * file's uncompressed frame (appended to b), and back. record_decode()
 * checks every length against the bytes there; it returns 0 or -EINVAL. The
 * decoded frame points into store (names, reasons) and bps, both owned by
 * the caller and reused. record_encode() writes the data of the given format
 * version (a recording appended to keeps its own): what a later version
 * added is left out.
 */
void record_encode(struct sbuf *b, const struct frame *f, unsigned version);
struct record_store {
	struct sbuf names;
	struct frame_bp *bps;
	size_t bps_cap;
};
int record_decode(const void *p, size_t n, unsigned version, struct frame *f,
		  struct record_store *store);
void record_store_free(struct record_store *s);

#endif
