/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bpfsrc.h: the BPF frame source, inside the sampler: a walk of the task
 * list once per frame (or, before Linux 6.7, a task iterator the kernel runs
 * over every task in one read() loop), filling the same frame_proc rows the
 * /proc reader fills, and an exit hook recording each process that ends.
 * Built only when configure
 * found libbpf, bpftool and clang; otherwise every call says -ENOSYS.
 */
#ifndef PTOP_BPF_BPFSRC_H
#define PTOP_BPF_BPFSRC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ptop/frame.h"

struct bpfsrc;

/* What a frame from BPF needs of its sampler. */
struct bpfsrc_ctx {
	struct users *users; /* uid -> name, the sampler's */
	long hz;	     /* clock ticks per second, as /proc counts times */
	uint64_t page_kb;    /* KiB per page */
	bool threads;	     /* a row per thread */
	bool user_threads;   /* without threads: each process's other threads after all processes */
	double interval;     /* s since the previous frame, 0 for the first */
	/* each row's cgroup and container through these names (bpfsrc_has_cgroups()), or NULL */
	struct cgroup_names *cgroups;
	bool io;   /* a column or the order needs I/O: without, the rows' I/O is left unread */
	bool job;  /* the job control and scheduling members (ROW_NEED_JOB): else unread */
	bool fds;  /* each process's open descriptors and their limit (bpfsrc_facts()) */
	bool side; /* the rows' side members (FRAME_NEED_SIDE): faults and statm's segments */
};

/*
 * Load the walk, the task iterator, the exit hook and, with delta, the
 * delta pass and its hooks (one on every context switch: the walk alone
 * costs the machine nothing between frames), then free everything
 * libbpf kept for loading (the object, the kernel's BTF) so that only their
 * descriptors stay. The source works without the hook (bpfsrc_has_exits())
 * and without the delta (bpfsrc_delta_error()).
 * Returns 0, -ENOSYS when ptop was built without BPF, -EPERM when the kernel
 * refused (no CAP_BPF + CAP_PERFMON), -EBADMSG when /proc/self/timens_offsets
 * cannot be read (start times would not be /proc's), or another -errno from
 * loading.
 */
int bpfsrc_open(struct bpfsrc **out, bool delta);
void bpfsrc_free(struct bpfsrc *b);

/* What the last frame read (bpfsrc_last()). */
struct bpfsrc_stats {
	bool delta;	    /* the rows came from the delta pass (else the walk or iterator) */
	unsigned processes; /* process records read */
	unsigned refreshed; /* ... of them read in full (the delta's changed ones; all otherwise) */
	unsigned threads;   /* tasks whose record or sums were read */
};

/*
 * Fill f's rows (f->procs, f->nprocs, f->tasks) from the delta pass (rows
 * of processes, where it loaded), one walk or one pass of the iterator: state letters as task_state_index() maps them, CPU times as
 * /proc scales them (cputime_adjust over the live threads and the dead
 * ones' share), RSS as statm sums it, uids in the reader's user namespace.
 * f->uptime_s and f->mem.total must be set. Returns 0 or -errno when the
 * iterator cannot be read.
 */
int bpfsrc_frame(struct bpfsrc *b, struct frame *f, const struct bpfsrc_ctx *c);

/*
 * The processes that ended since the last call (since the open for the
 * first), from the exit hook's ring buffer, into f->exited (grown into
 * f->exited_cap, kept across frames; f->nexited set): one frame_proc per
 * process with exited set, pid and tgid its tgid, state 'X', start_ticks as
 * rows count them and end_ticks on the same clock, run_ns the CPU of all
 * its threads over its life (sum_exec_runtime) and utime/stime that split in
 * ticks, maxrss_kb, exit_status as wait() gives it, its I/O (has_io), its
 * cgroup and container through c->cgroups when set; cpu_pct is left 0.
 * A process comes once, after its parent reaped it (and an RCU grace
 * period): its CPU is final then; a zombie is a row until reaped. Sets
 * f->acct.exits (whether there is a hook), f->acct.lost and f->acct.lost_s
 * (exits the full ring buffer could not hold since the last call, and their
 * CPU in seconds); leaves the other acct fields. Without a hook: no rows, 0.
 * Returns 0, or -errno when the ring buffer cannot be read.
 */
int bpfsrc_exits(struct bpfsrc *b, struct frame *f, const struct bpfsrc_ctx *c);

/*
 * What the last bpfsrc_frame() read of row p's facts beyond it (PROC_FACT_*
 * in what, as proc_facts_read() fills them): its open descriptors and their
 * soft limit when the frame was asked for them (bpfsrc_ctx.fds) and read
 * them whole, its threads' states and, for a process of several threads,
 * their counts (appended to bf->thr, at out->thr_off) when the frame's
 * records were every task's (the walk or the iterator, not the delta pass).
 * out is the caller's, zeroed. Returns the PROC_FACT_* bits filled: 0 for a
 * row the frame did not read from BPF (PID 1 from /proc, a thread's row).
 */
unsigned bpfsrc_facts(const struct bpfsrc *b, const struct frame_proc *p, unsigned what,
		      struct proc_facts *out, struct proc_facts_bufs *bf);

/* What the last bpfsrc_frame() read. */
const struct bpfsrc_stats *bpfsrc_last(const struct bpfsrc *b);

/*
 * Why there is no delta pass: 0 when there is one, -ENOENT when it was not
 * asked for, else the -errno of its load, attach or last run.
 */
int bpfsrc_delta_error(const struct bpfsrc *b);

/* Whether the exit hook is attached (bpfsrc_exits() gives rows). */
bool bpfsrc_has_exits(const struct bpfsrc *b);

/*
 * Why there is no exit hook: 0 when there is one, else the -errno of its
 * load or attach (-ENOSYS: built without BPF).
 */
int bpfsrc_exits_error(const struct bpfsrc *b);

/*
 * What the exit hook's programs cost the machine since the last call (the
 * first: since they were attached, from the first call on counted): their
 * run time in ns and the runs of the exit program (one per thread that
 * ended), from the kernel's BPF statistics. 0; -ENOENT without a hook;
 * -EPERM (or another -errno) when the statistics cannot be had: they need
 * CAP_SYS_ADMIN, and the first refusal is the answer from then on.
 */
int bpfsrc_hook_cost(struct bpfsrc *b, uint64_t *run_ns, uint64_t *runs);

/*
 * What one run of the delta's switch hook costs, ns, into *run_ns: timed
 * once at the open by the kernel's BPF statistics over a thousand round
 * trips of a byte between ptop and a child (the statistics are on only
 * then: while on, they time every BPF program on the machine). 0 with the
 * figure, -ENOENT without the hook, -EPERM (or another -errno) when the
 * statistics cannot be had.
 */
int bpfsrc_switch_cost(struct bpfsrc *b, double *run_ns);

/*
 * Whether rows can have their cgroup path from BPF: the unified hierarchy
 * alone is mounted (else /proc/PID/cgroup's paths come from other lines).
 */
bool bpfsrc_has_cgroups(const struct bpfsrc *b);

/*
 * The boottime line of a /proc/PID/timens_offsets text (len bytes at buf,
 * not NUL-terminated) into *ns: seconds and nanoseconds as one signed count
 * of ns. 0, -ENOENT when no line is boottime's, -EINVAL when that line is
 * malformed, -ERANGE when it does not fit in 64 bits of ns. Built with or
 * without BPF.
 */
int bpfsrc_parse_boottime(const char *buf, size_t len, int64_t *ns);

/*
 * The variables tests set to change the BPF source (PTOP_TEST_EXIT_RING: a
 * power of two from a page to 1 GiB; PTOP_TEST_SWITCH_SPIN: a whole number
 * up to 100,000): 0 when unset or valid, else -EINVAL with *var the first
 * one that is not.
 */
int bpfsrc_test_env(const char **var);

/* Whether this ptop was built with the BPF source. */
bool bpfsrc_built(void);

#endif
