/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * replay.h: what ptop says of a recording without replaying it frame by
 * frame (ptop -r FILE --summary). Replaying itself is the pipeline's
 * (pipeline_opts.replay), in batch mode and in the viewer.
 */
#ifndef PTOP_REPLAY_H
#define PTOP_REPLAY_H

/* Number of consumers --summary lists. */
#define REPLAY_TOP 10

/*
 * Write the summary of the recording at path to fd: its machine, its time
 * span and frames, the processes seen, the REPLAY_TOP processes that used
 * the most CPU time, and what recording cost (CPU per frame, bytes per
 * frame). Returns the exit status: 0, or 1 after saying why on stderr.
 */
int replay_summary(const char *path, int fd);

#endif
