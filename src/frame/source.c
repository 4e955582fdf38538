// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * source.c: the one place a frame source is chosen (source.h): a recording
 * when one is given, else BPF or /proc as --source asks and the machine
 * allows, with the reason when it is not the one asked for. The sources
 * themselves live in src/proc/, src/bpf/ and src/record/.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../bpf/bpfsrc.h"
#include "ptop/source.h"

int frame_source_parse(const char *str, enum frame_source *out)
{
	if (!strcmp(str, "auto"))
		*out = FRAME_SOURCE_AUTO;
	else if (!strcmp(str, "procfs") || !strcmp(str, "proc"))
		*out = FRAME_SOURCE_PROCFS;
	else if (!strcmp(str, "bpf"))
		*out = FRAME_SOURCE_BPF;
	else if (!strcmp(str, "bpf-delta"))
		*out = FRAME_SOURCE_BPF_DELTA;
	else
		return -EINVAL;
	return 0;
}

const char *frame_source_name(enum frame_source src)
{
	switch (src) {
	case FRAME_SOURCE_BPF:
		return "bpf";
	case FRAME_SOURCE_BPF_DELTA:
		return "bpf-delta";
	case FRAME_SOURCE_PROCFS:
		return "procfs";
	default:
		return "auto";
	}
}

/*
 * Why BPF did not load, as a person can act on it: what limits the memory a
 * load takes (the kernel's BTF parsed in the loading child, the maps, and
 * where memory is counted by RLIMIT_MEMLOCK, the locked memory) rather than
 * strerror's bare "Cannot allocate memory".
 */
static const char *bpf_strerror(int err)
{
	if (err == -ENOMEM)
		return _("out of memory (a memory limit, locked memory or the map size)");
	return strerror(-err);
}

/* What the note says when BPF was wanted and /proc is read instead. */
static void bpf_note(struct source *src, enum frame_source want, int err)
{
	if (err == -ENOSYS)
		src->note = want == FRAME_SOURCE_BPF || want == FRAME_SOURCE_BPF_DELTA
				? _("bpf: this ptop was built without BPF; using /proc")
				: NULL;
	else if (err == -EPERM || err == -EACCES)
		src->note = _("bpf: needs CAP_BPF and CAP_PERFMON; using /proc");
	else if (err == -EBADMSG)
		src->note = _("bpf: cannot read the time namespace's offsets "
			      "(/proc/self/timens_offsets); using /proc");
	else
		src->note = src->note_buf;
	if (src->note == src->note_buf)
		snprintf(src->note_buf, sizeof(src->note_buf),
			 _("bpf: cannot load the task iterator: %s; using /proc"),
			 bpf_strerror(err));
}

/* The note when bpf-delta loaded without its delta pass: every frame walks every task. */
static void delta_note(struct source *src, enum frame_source want)
{
	int err;

	if (want != FRAME_SOURCE_BPF_DELTA)
		return;
	err = bpf_source_delta_error(src->s);
	if (!err || err == -ENOENT)
		return;
	snprintf(src->note_buf, sizeof(src->note_buf),
		 _("bpf: the delta pass did not load (%s); walking every task each frame"),
		 bpf_strerror(err));
	src->note = src->note_buf;
}

/*
 * BPF when asked for or, by default (the delta), on the real /proc: a proc root given
 * (a test's fixtures) is what the frames must show. Not under a proc root of
 * another pid namespace: rows would pair BPF's PIDs with the files of the
 * processes that have those numbers there.
 */
static int open_live(enum frame_source want, const struct frame_source_opts *o, struct source *src,
		     char *why, size_t cap)
{
	const char *root = o->root ? o->root : "/proc";
	const struct frame_source_ops *ops;
	const char *var;
	int err;

	if (want == FRAME_SOURCE_PROCFS || (want == FRAME_SOURCE_AUTO && strcmp(root, "/proc")))
		goto procfs;
	if (bpfsrc_built() && !proc_own_pid_ns(root)) {
		if (want == FRAME_SOURCE_BPF || want == FRAME_SOURCE_BPF_DELTA) {
			snprintf(why, cap,
				 _("ptop: source bpf: %s is not the proc of ptop's pid namespace, "
				   "so BPF's PIDs would name other processes there; mount one "
				   "(unshare --mount-proc) or use the procfs source"),
				 root);
			return -EXDEV;
		}
		src->note = _("bpf: /proc is not this pid namespace's (mount one, as unshare "
			      "--mount-proc does); using /proc");
		goto procfs;
	}
	err = bpfsrc_test_env(&var);
	if (err) {
		snprintf(why, cap, _("ptop: %s=%s is not a value it takes (ptop(1), ENVIRONMENT)"),
			 var, getenv(var));
		return err;
	}
	/* auto takes the delta: its frames cost what changed, and where its pass
	 * does not load, or rows are threads, it walks as bpf does */
	ops = want == FRAME_SOURCE_BPF ? &source_bpf : &source_bpf_delta;
	err = ops->open(o, &src->s, why, cap);
	if (!err) {
		src->ops = ops;
		delta_note(src, want);
		return 0;
	}
	bpf_note(src, want, err);
procfs:
	src->ops = &source_procfs;
	return source_procfs.open(o, &src->s, why, cap);
}

int source_open(enum frame_source want, const struct frame_source_opts *o, struct source *src,
		char *why, size_t cap)
{
	int err;

	memset(src, 0, sizeof(*src));
	why[0] = '\0';
	if (o->replay) {
		src->ops = &source_replay;
		err = source_replay.open(o, &src->s, why, cap);
	} else {
		err = open_live(want, o, src, why, cap);
	}
	if (err)
		src->ops = NULL;
	return err;
}

void source_close(struct source *src)
{
	if (src->ops)
		src->ops->close(src->s);
	memset(src, 0, sizeof(*src));
}
