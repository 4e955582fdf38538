// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * source.c: BPF as a frame source (source.h): the rows from the task walk
 * (bpfsrc.c), the rest of the frame from a /proc sampler (system totals,
 * PID 1 when the walk cannot reach it, cgroup paths on a hybrid machine,
 * command lines). It calls into src/proc/ and nothing there calls back.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bpfsrc.h"
#include "ptop/source.h"

struct bpf_source {
	struct bpfsrc *bpf;
	/*
	 * PTOP_HOOK_COST=1: what the exit hook costs, from the kernel's BPF statistics.
	 * Asked for only: while they are on, the kernel times every BPF program on the
	 * machine, not ptop's alone (a clock read before and after each run).
	 */
	bool hook_cost;
	bool delta;		 /* bpf-delta: process rows from the delta pass where it loads */
	struct sampler *sampler; /* on /proc: BPF's PIDs are those of ptop's namespace */
	uint64_t switches;	 /* the machine's context switches at the last frame; 0 before */
	long hz;
	uint64_t page_kb;
};

static void bpf_close(void *v)
{
	struct bpf_source *b = v;

	if (!b)
		return;
	bpfsrc_free(b->bpf);
	sampler_free(b->sampler);
	free(b);
}

static int open_bpf(const struct frame_source_opts *o, void **out, char *why, size_t cap,
		    bool delta)
{
	struct sampler_opts so = {.root = o->root};
	struct bpf_source *b = xcalloc(1, sizeof(*b));
	long page = sysconf(_SC_PAGESIZE);
	int err;

	b->hz = sysconf(_SC_CLK_TCK);
	if (b->hz <= 0)
		b->hz = 100;
	b->page_kb = page > 0 ? (uint64_t)page / 1024 : 4;
	b->hook_cost = getenv("PTOP_HOOK_COST") && !strcmp(getenv("PTOP_HOOK_COST"), "1");
	b->delta = delta;
	err = bpfsrc_open(&b->bpf, delta);
	if (!err) {
		err = sampler_new(&so, &b->sampler);
		if (err)
			snprintf(why, cap, _("ptop: cannot read %s: %s"),
				 o->root ? o->root : "/proc", strerror(-err));
	}
	if (err) {
		bpf_close(b);
		return err;
	}
	*out = b;
	return 0;
}

/*
 * What the delta's switch hook cost the machine since the frame before: it
 * runs once per context switch, which the kernel counts (/proc/stat's ctxt),
 * so its runs need no counter of their own on the scheduler's path; times
 * what a run costs, as calibrated (none until it is).
 */
static void switch_cost(struct bpf_source *b, struct frame *f)
{
	double run_ns;
	uint64_t prev = b->switches;

	b->switches = f->ctx_switches;
	if (!b->delta || !prev || f->ctx_switches < prev || bpfsrc_switch_cost(b->bpf, &run_ns))
		return;
	f->cost.switch_known = true;
	f->cost.switch_runs = f->ctx_switches - prev;
	f->cost.switch_run_ns = run_ns;
	f->cost.switch_s = (double)f->cost.switch_runs * run_ns / 1e9;
}

static int bpf_frame(void *v, const struct sampler_opts *want, struct frame *f)
{
	struct bpf_source *b = v;
	unsigned needs = want->needs | want->needs_all | want->needs_lazy;
	bool cgroups = needs & PROC_NEED(PROC_FILE_CGROUP);
	struct bpfsrc_ctx c = {.hz = b->hz,
			       .page_kb = b->page_kb,
			       .threads = want->threads,
			       .user_threads = want->user_threads && !want->threads,
			       .io = needs & PROC_NEED(PROC_FILE_IO),
			       .job = needs & ROW_NEED_JOB,
			       .fds = needs & FRAME_NEED_FDS,
			       .side = needs & FRAME_NEED_SIDE};
	double interval;
	int ret;

	sampler_configure(b->sampler, want);
	sampler_begin(b->sampler, f);
	interval = f->interval_s;
	c.users = sampler_users(b->sampler);
	c.interval = interval;
	if (cgroups && bpfsrc_has_cgroups(b->bpf))
		c.cgroups = sampler_cgroup_names(b->sampler);
	ret = bpfsrc_frame(b->bpf, f, &c);
	if (ret)
		return ret;
	if (cgroups && !c.cgroups)
		sampler_read_cgroups(b->sampler, f);
	sampler_read_side(b->sampler, f);
	f->interval_s = interval;
	/* what made the rows: a delta source walks for thread rows, or without its pass */
	f->cost.source = bpfsrc_last(b->bpf)->delta ? "bpf-delta" : "bpf";
	f->cost.read_bpf = (unsigned)f->nprocs;
	sampler_add_init(b->sampler, f);
	f->cost.read_full = (unsigned)f->nprocs - f->cost.read_bpf;
	/* the processes that ended since the last frame, whatever the rows need */
	c.cgroups = cgroups && bpfsrc_has_cgroups(b->bpf) ? sampler_cgroup_names(b->sampler) : NULL;
	ret = bpfsrc_exits(b->bpf, f, &c);
	if (ret)
		return ret;
	switch_cost(b, f);
	if (b->hook_cost) {
		uint64_t ns, runs;

		f->cost.hook_known = !bpfsrc_hook_cost(b->bpf, &ns, &runs);
		f->cost.hook_s = (double)ns / 1e9;
		f->cost.hook_runs = runs;
	}
	/* what PID 1's reads hold when it came from /proc */
	sampler_end(b->sampler, f);
	return 0;
}

static unsigned bpf_provides(const void *v)
{
	const struct bpf_source *b = v;

	return SOURCE_LIVE | (bpfsrc_has_exits(b->bpf) ? SOURCE_EXITS : 0);
}

static int bpf_complete(void *v, struct frame *f, struct frame_proc *p)
{
	return sampler_complete(((struct bpf_source *)v)->sampler, f, p);
}

static int bpf_cmdline(void *v, struct frame *f, struct frame_proc *p)
{
	return sampler_cmdline(((struct bpf_source *)v)->sampler, f, p);
}

static unsigned bpf_facts(void *v, const struct frame_proc *p, unsigned what,
			  struct proc_facts *out, struct proc_facts_bufs *b)
{
	return bpfsrc_facts(((struct bpf_source *)v)->bpf, p, what, out, b);
}

static int bpf_open(const struct frame_source_opts *o, void **out, char *why, size_t cap)
{
	return open_bpf(o, out, why, cap, false);
}

static int bpf_delta_open(const struct frame_source_opts *o, void **out, char *why, size_t cap)
{
	return open_bpf(o, out, why, cap, true);
}

int bpf_source_delta_error(const void *v)
{
	return bpfsrc_delta_error(((const struct bpf_source *)v)->bpf);
}

const struct frame_source_ops source_bpf_delta = {
    .name = "bpf-delta",
    .open = bpf_delta_open,
    .frame = bpf_frame,
    .provides = bpf_provides,
    .complete = bpf_complete,
    .cmdline = bpf_cmdline,
    .facts = bpf_facts,
    .close = bpf_close,
};

const struct frame_source_ops source_bpf = {
    .name = "bpf",
    .open = bpf_open,
    .frame = bpf_frame,
    .provides = bpf_provides,
    .complete = bpf_complete,
    .cmdline = bpf_cmdline,
    .facts = bpf_facts,
    .close = bpf_close,
};
