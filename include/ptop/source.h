/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * source.h: where frames come from. The /proc sampler (src/proc/source.c),
 * the BPF task walk (src/bpf/source.c) and a recording (src/record/source.c)
 * are peers behind one table of operations; source_open()
 * (src/frame/source.c) is the one place that chooses among them, and the
 * pipeline holds what it chose. Presenters never see a source: they take
 * frames from the pipeline, whichever made them. Nothing here prints: what
 * fails or falls back comes back as a translated sentence.
 */
#ifndef PTOP_SOURCE_H
#define PTOP_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ptop/frame.h"

/* The source a person asks for (--source, ptoprc's source). */
enum frame_source {
	FRAME_SOURCE_AUTO,	/* BPF when it loads (root, or CAP_BPF + CAP_PERFMON), else /proc */
	FRAME_SOURCE_PROCFS,	/* /proc only */
	FRAME_SOURCE_BPF,	/* BPF; when it cannot load, /proc with a note saying why */
	FRAME_SOURCE_BPF_DELTA, /* BPF, process rows from its delta pass (a context switch hook) */
};

/* "auto", "procfs" (or "proc"), "bpf" or "bpf-delta": 0 and *out, or -EINVAL. */
int frame_source_parse(const char *s, enum frame_source *out);
/* "auto", "procfs", "bpf" or "bpf-delta". */
const char *frame_source_name(enum frame_source s);

/* What a source's frames are (frame_source_ops.provides). */
enum {
	SOURCE_LIVE = 1 << 0,  /* the running system: rows can be observed, completed, acted on */
	SOURCE_SEEK = 1 << 1,  /* any frame, in any order (a recording) */
	SOURCE_EXITS = 1 << 2, /* frame.exited lists every process that ended (an exit hook) */
};

/* How seek() moves: to frame n exactly, or to the nearest that reads, one way first. */
enum source_seek {
	SOURCE_SEEK_EXACT,
	SOURCE_SEEK_NEAREST_BACK,    /* n, else the nearest before it, else after */
	SOURCE_SEEK_NEAREST_FORWARD, /* n, else the nearest after it, else before */
};

struct frame_source_opts {
	const char *root;   /* proc root; NULL: /proc */
	const char *replay; /* the recording, for the replay source */
};

struct frame_source_ops {
	const char *name; /* "procfs", "bpf", "replay" */
	/*
	 * Open one: 0 and *out, or -errno with why (translated, "ptop: ..." or, for a
	 * source the chooser can fall back from, the reason alone) in cap bytes.
	 */
	int (*open)(const struct frame_source_opts *o, void **out, char *why, size_t cap);
	/*
	 * The next frame into f (its memory reused) as want asks of the rows (a
	 * recording ignores it). 0; -ENODATA past a recording's last frame; -errno.
	 */
	int (*frame)(void *s, const struct sampler_opts *want, struct frame *f);
	unsigned (*provides)(const void *s); /* SOURCE_* */
	/* The rest may be NULL: the source has no such thing. */
	void (*seek)(void *s, uint64_t n, enum source_seek how); /* the next frame() gives n */
	/* p (a row of f kept from an earlier frame) read in full now: 0 or -errno */
	int (*complete)(void *s, struct frame *f, struct frame_proc *p);
	/* p's command line into f->strings (sampler_cmdline()): 0 or -errno */
	int (*cmdline)(void *s, struct frame *f, struct frame_proc *p);
	/*
	 * What the source read of row p of its last frame beyond the row
	 * (PROC_FACT_* in what, as proc_facts_read() fills them) into *out
	 * (zeroed by the caller; threads' counts appended to b): the bits it
	 * filled. The caller reads the rest from /proc.
	 */
	unsigned (*facts)(void *s, const struct frame_proc *p, unsigned what,
			  struct proc_facts *out, struct proc_facts_bufs *b);
	void (*close)(void *s);
};

extern const struct frame_source_ops source_procfs;    /* src/proc/source.c */
extern const struct frame_source_ops source_bpf;       /* src/bpf/source.c */
extern const struct frame_source_ops source_bpf_delta; /* src/bpf/source.c: with the delta */
extern const struct frame_source_ops source_replay;    /* src/record/source.c */

/* An open source. */
struct source {
	const struct frame_source_ops *ops;
	void *s;
	const char *note; /* why it is not the one asked for (translated), or NULL */
	char note_buf[192];
};

/*
 * Open the source o and want name: a recording when o->replay is set, else
 * BPF or /proc as frame_source's comments say. A BPF source that cannot load
 * leaves /proc with out->note saying why. Returns 0, or -errno with why
 * (translated, "ptop: ...") in cap bytes: -EXDEV when BPF is asked for by
 * name under a proc root of another pid namespace (its PIDs would name other
 * processes there), or what opening the chosen source said.
 */
int source_open(enum frame_source want, const struct frame_source_opts *o, struct source *out,
		char *why, size_t cap);
void source_close(struct source *src);

/* Why a BPF source has no delta pass: 0, -ENOENT for bpf, or the -errno of its load. */
int bpf_source_delta_error(const void *s);

/* A recording's frames as its source gives them (src/record/source.c), for the pipeline. */
struct record_reader;
struct record_error;
struct record_reader *replay_source_reader(void *s);
uint64_t replay_source_position(const void *s); /* the frame frame() gave last */
uint64_t replay_source_skipped(const void *s);	/* corrupt frames skipped so far */
const char *replay_source_error(const void *s); /* the last failure, or first skipped */
const struct record_error *replay_source_damage(const void *s); /* the last frame's, or NULL */

#endif
