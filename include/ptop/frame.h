/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * frame.h: a frame is plain data: one sample of the system and its
 * processes. The sampler (src/proc/sample.c) fills frames from /proc and
 * libproc2; presenters (batch output, the TUI) only read them.
 */
#ifndef PTOP_FRAME_H
#define PTOP_FRAME_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "ptop/proc.h"

struct frame_proc {
	int pid, ppid;
	char state;		  /* R S D Z T t I X ... as the kernel prints it */
	uint8_t comm_len;	  /* bytes in comm */
	char comm[PROC_COMM_MAX]; /* the kernel's bytes, unescaped, not NUL-terminated */
	uid_t uid;		  /* effective uid */
	const char *user;	  /* name for uid; owned by the sampler, lives as long */
	int64_t priority, nice;
	int64_t threads;
	uint64_t vsize_kb, rss_kb; /* KiB */
	uint64_t shared_kb;	   /* KiB; 0 unless statm was read */
	double cpu_pct;		   /* percent of one CPU over the last interval (top's Irix mode) */
	double mem_pct;		   /* rss of total memory, percent */
	uint64_t utime, stime;	   /* clock ticks */
	uint64_t start_ticks;	   /* clock ticks after boot */
	int processor;		   /* CPU last run on */
	/* from status, read only when PROC_NEED(PROC_FILE_STATUS) was asked for */
	uint64_t swap_kb, rss_anon_kb, rss_file_kb; /* KiB */
	uint64_t vctxsw, nvctxsw;		    /* voluntary, involuntary context switches */
};

struct frame_cpu {
	/* percent of all CPUs' time over the interval; they sum to about 100 */
	double user, nice, system, idle, iowait, irq, softirq, steal;
};

struct frame_tasks {
	unsigned total, running, sleeping, stopped, zombie;
};

struct frame_cost {
	double cpu_s;	     /* CPU time ptop spent building this frame, seconds */
	double wall_s;	     /* wall time spent building it, seconds */
	unsigned fds_held;   /* /proc descriptors held open */
	unsigned fd_budget;  /* descriptors the reader may hold */
	unsigned vanished;   /* processes that went away mid-read */
	unsigned unreadable; /* processes left out: a file refused or malformed */
	unsigned fallback;   /* reads that had to open/read/close (over budget) */
};

struct frame {
	struct timespec time; /* wall clock (CLOCK_REALTIME) at the sample */
	double interval_s;    /* since the previous frame; 0 for the first */
	double uptime_s;
	double load[3];
	unsigned nusers;  /* login sessions (utmp), as top's "N users" */
	unsigned pid_max; /* /proc/sys/kernel/pid_max: sets the width of PID columns */
	struct frame_tasks tasks;
	struct frame_cpu cpu;
	struct {
		uint64_t total, free, used, buff_cache, avail; /* KiB */
	} mem;
	struct {
		uint64_t total, free, used; /* KiB */
	} swap;
	unsigned ncpu;
	long hz; /* clock ticks per second */
	struct frame_cost cost;
	size_t nprocs;
	size_t cap; /* procs allocated; kept across frames */
	struct frame_proc *procs;
};

struct sampler;

struct sampler_opts {
	const char *root; /* proc root; NULL means "/proc" */
	unsigned needs;	  /* PROC_NEED() bits beyond stat, which is always read */
};

/*
 * Create a sampler. Returns 0, or -errno: -ENOENT/-EACCES when the proc root
 * cannot be opened, -ENODEV when libproc2 cannot read the system totals.
 */
int sampler_new(const struct sampler_opts *o, struct sampler **out);
void sampler_free(struct sampler *s);

/*
 * Fill f with a new sample, reusing f->procs. Processes that vanish while
 * being read are left out and counted in f->cost.vanished; a PID reused by a
 * new process starts afresh. The first frame's %CPU is each process's
 * average over its lifetime (as ps shows), later ones cover the interval.
 * Returns 0, or -errno when the PID enumeration itself failed.
 */
int sampler_frame(struct sampler *s, struct frame *f);
void frame_free(struct frame *f);

/* Cached uid -> user name ("1234" when the uid has no name). Never NULL. */
struct users;
struct users *users_new(void);
void users_free(struct users *u);
const char *users_name(struct users *u, uid_t uid);

#endif
