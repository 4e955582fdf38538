// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * source.c: /proc as a frame source (source.h): the sampler behind the
 * table of operations every source has. Rows, system totals and command
 * lines all come from the proc root.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "ptop/source.h"

static int procfs_open(const struct frame_source_opts *o, void **out, char *why, size_t cap)
{
	struct sampler_opts so = {.root = o->root};
	struct sampler *s;
	int err;

	err = sampler_new(&so, &s);
	if (err) {
		snprintf(why, cap, _("ptop: cannot read %s: %s"), o->root ? o->root : "/proc",
			 strerror(-err));
		return err;
	}
	*out = s;
	return 0;
}

static int procfs_frame(void *s, const struct sampler_opts *want, struct frame *f)
{
	sampler_configure(s, want);
	return sampler_frame(s, f);
}

static unsigned procfs_provides(const void *s)
{
	(void)s;
	return SOURCE_LIVE;
}

static int procfs_complete(void *s, struct frame *f, struct frame_proc *p)
{
	return sampler_complete(s, f, p);
}

static int procfs_cmdline(void *s, struct frame *f, struct frame_proc *p)
{
	return sampler_cmdline(s, f, p);
}

static void procfs_close(void *s)
{
	sampler_free(s);
}

const struct frame_source_ops source_procfs = {
    .name = "procfs",
    .open = procfs_open,
    .frame = procfs_frame,
    .provides = procfs_provides,
    .complete = procfs_complete,
    .cmdline = procfs_cmdline,
    .close = procfs_close,
};
