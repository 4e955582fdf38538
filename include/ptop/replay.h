/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * replay.h: what ptop says of a recording without replaying it frame by
 * frame (ptop -r FILE --summary). Replaying itself is the pipeline's
 * (pipeline_opts.replay), in batch mode and in the viewer.
 */
#ifndef PTOP_REPLAY_H
#define PTOP_REPLAY_H

#include <stdint.h>

struct record_reader;

/* Number of processes --summary lists. */
#define REPLAY_TOP 20

/*
 * The frames --begin and --end pick in r, as typed (NULL: that end is
 * open), times as record_parse_time() reads them on the day of the first
 * frame: *from the first frame at or after begin, *end_ns the time no frame
 * after it is replayed (INT64_MAX when open). Returns -1 to go on, else the
 * exit status after saying why on stderr: 2 for a time that is none or
 * that no recording can hold, 1 when the recording cannot be read or no
 * frame lies between begin and end ("no frame between ... and ...; the
 * recording spans ... to ...").
 */
int replay_range(struct record_reader *r, const char *begin, const char *end, uint64_t *from,
		 int64_t *end_ns);

/* The line that says r has a torn tail (record_reader_tail()), on stderr; none without. */
void replay_say_tail(const struct record_reader *r);

/*
 * The line that ends a replay that skipped n corrupt frames (and the frames
 * after them up to a keyframe), on stderr: first is the first one's message.
 */
void replay_say_skipped(const char *first, uint64_t n);

/*
 * Write the summary of the recording at path, over the frames begin and end
 * pick (as replay_range() takes them), to fd: its machine, the range's time
 * span and frames, the processes seen, what recording cost (CPU per frame,
 * bytes per frame), and a table of the REPLAY_TOP processes that used the
 * most CPU time from the range's first frame to its last (CPU seconds,
 * average and peak %CPU, peak RES, first and last seen, whether it ended).
 * Memory is bounded by the rows of two frames, not by the range's length. Returns the exit status: 0, 1 after saying why on stderr (also
 * when the range holds no frame), or 2 for a time that is none.
 */
int replay_summary(const char *path, const char *begin, const char *end, int fd);

#endif
