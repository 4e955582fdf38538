/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tasks.h: the record the task iterator (tasks.bpf.c) writes for each task,
 * and the one its exit hook writes for each process that ends, shared by the
 * BPF programs and their reader (bpfsrc.c). Fixed size, native byte order:
 * the reader and the kernel are the same machine.
 */
#ifndef PTOP_BPF_TASKS_H
#define PTOP_BPF_TASKS_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

#define PTOP_TASK_EXT 64

/* What ext holds: how /proc names a kernel thread instead of its comm (proc_task_name()). */
enum ptop_task_ext {
	PTOP_EXT_NONE,
	PTOP_EXT_FULL_NAME, /* a kernel thread's name longer than comm */
	PTOP_EXT_WORKER,    /* a workqueue worker: named from its pool, see worker_* */
	PTOP_EXT_RESCUER,   /* a rescuer: ext is its workqueue's name */
};

/* Memory counters in the order of the kernel's enum (MM_FILEPAGES ...). */
enum ptop_task_mm { PTOP_MM_FILE, PTOP_MM_ANON, PTOP_MM_SWAP, PTOP_MM_SHMEM, PTOP_MM_N };

/* I/O accounting (struct task_io_accounting), as /proc/PID/io shows it. */
struct ptop_io {
	__u64 rchar, wchar;	       /* bytes through read() and write() */
	__u64 read_bytes, write_bytes; /* bytes from and to storage */
	__u64 syscr, syscw;	       /* read and write system calls */
	__u64 cancelled_write_bytes;   /* written to the page cache, then truncated away */
};

struct ptop_task {
	__s32 pid, tgid, ppid;		/* in the reader's pid namespace */
	__u32 euid;			/* in the initial user namespace */
	__u32 ruid, suid, fsuid;	/* real, saved, filesystem: as euid */
	__u32 state, exit_state, flags; /* __state, exit_state, PF_* */
	__s32 prio, static_prio;
	__s32 nr_threads; /* signal->nr_threads */
	__u32 cpu;	  /* CPU last run on */
	__u32 ext_kind;	  /* enum ptop_task_ext */
	/* a worker's pool (format_worker_id()): CPU or -1 when unbound, pool id, its id */
	__s32 worker_cpu, worker_pool, worker_id;
	__u32 worker_flags;			 /* PTOP_WORKER_* */
	__u64 utime, stime, runtime;		 /* ns: this task's samples, sum_exec_runtime */
	__u64 prev_utime, prev_stime;		 /* ns: this task's prev_cputime */
	__u64 sig_utime, sig_stime, sig_runtime; /* ns: the group's dead threads */
	__u64 sig_prev_utime, sig_prev_stime;	 /* ns: the group's prev_cputime */
	__u64 start_boottime;			 /* ns after boot */
	__u64 cutime, cstime;			 /* ns: the group's waited-for dead children */
	__u64 nvcsw, nivcsw;
	__u64 total_vm;	      /* pages; 0 without an mm */
	__s64 rss[PTOP_MM_N]; /* pages, the per-CPU parts summed when rss_exact */
	__u32 has_mm, rss_exact;
	__u32 ext_at;  /* the walk's: 1 + its names' index in the names map, 0: none */
	__u32 has_fds; /* nr_fds and nofile hold (PTOP_WANT_FDS, a leader's) */
	char comm[16];
};

/*
 * What a frame reads of a task only when asked (PTOP_WANT_*), in a record of
 * its own beside the task's (the walk: the records_x map, at the same index),
 * zeroed and written only then: a default frame writes and maps 272 bytes a
 * task, not 488, and loads none of the lines of the signal and mm structures
 * these sit in. Each cache line a task writes or loads costs the walk (144
 * bytes more a record made it 1.2x slower, and so did the faults and
 * segments read every frame), and each page of records mapped is the
 * reader's memory.
 */
struct ptop_task_x {
	__u64 min_flt, maj_flt;		/* page faults: this task's (PTOP_WANT_SIDE) */
	__u64 sig_min_flt, sig_maj_flt; /* the group's dead threads' */
	__u64 cmin_flt, cmaj_flt;	/* the group's waited-for dead children's */
	__u32 text_pages, data_pages;	/* as statm counts them (with an mm; PTOP_WANT_SIDE) */
	struct ptop_io io, sig_io;	/* this task's; the group's dead threads' (PTOP_WANT_IO) */
	__u64 cgroup_id; /* its unified-hierarchy cgroup's kernfs id (PTOP_WANT_CGROUP) */
	/* a leader's only, as stat shows them (threads take their process's): process group,
	 * session, controlling terminal (stat's tty_nr), its foreground group (-1: no terminal) */
	__s32 pgrp, session, tty_nr, tpgid;
	__u32 policy, rt_priority; /* a leader's scheduling policy and real-time priority */
	__u32 nr_fds;		   /* a leader's open descriptors, when has_fds */
	__u64 nofile;		   /* a leader's soft RLIMIT_NOFILE (~0: unlimited), when has_fds */
};

/*
 * A kernel thread's name parts (ext_kind says which). The iterator writes
 * them after every record (struct ptop_iter_record); the walk only for
 * kernel threads, into a map of their own (ptop_task.ext_at), which keeps
 * the records it maps (RSS) a fifth smaller.
 */
struct ptop_names {
	char ext[PTOP_TASK_EXT];
	char desc[32]; /* a worker's last work, shown after '+' (running it) or '-' */
};

struct ptop_iter_record {
	struct ptop_task task;
	struct ptop_task_x x;
	struct ptop_names ext;
};

#define PTOP_WORKER_POOL 1    /* attached to a pool (else "kworker/dying") */
#define PTOP_WORKER_HIGHPRI 2 /* its pool's nice is below 0: "H" */
#define PTOP_WORKER_BUSY 4    /* running a work: '+' before desc */

/* What the walk is asked to fill beyond what every frame needs (its context). */
#define PTOP_WANT_IO 1	   /* io and sig_io */
#define PTOP_WANT_CGROUP 2 /* cgroup_id */
#define PTOP_WANT_JOB 4	   /* a leader's pgrp, session, tty_nr, tpgid, policy, rt_priority */
#define PTOP_WANT_FDS 8	   /* a leader's nr_fds and nofile */
#define PTOP_WANT_SIDE 16  /* page faults, text_pages and data_pages: the rows' side members */

struct ptop_walk_args {
	__u32 want; /* PTOP_WANT_* */
};

/*
 * The delta pass's record of one process, in a slot it keeps while the
 * process lives: its leader's record, read again in full only when one of
 * its threads ran or something changed it, and its live threads' sums.
 */
struct ptop_proc {
	struct ptop_task t;	/* the leader's; t.pid 0: a free slot, or not in the reader's ns */
	struct ptop_task_x tx;	/* the rest of the leader's */
	__u64 ut, st, rt;	/* ns: its live threads' utime, stime, sum_exec_runtime */
	__u64 min_flt, maj_flt; /* its live threads' page faults */
	struct ptop_io io;	/* its live threads' (PTOP_WANT_IO) */
	__u64 gen;		/* the pass that last saw it; 0: free */
	__s32 gtgid;		/* its tgid in the initial namespace: the slot's key */
	__u32 pad;
};

/* The delta pass's context: what to fill, and what it did (written back). */
struct ptop_delta_args {
	__u32 want;	   /* PTOP_WANT_* */
	__u32 check_every; /* a slot is read in full every this many passes, whatever changed */
	__u32 slots;	   /* out: slots to read (the highest in use, plus one) */
	__u32 refreshed;   /* out: processes read in full this pass */
	__u32 threads;	   /* out: threads visited for their sums */
	__u32 pad;
};

/*
 * A process (thread group) that ended, written by the exit hook into its ring
 * buffer when its leader is freed (after its parent reaped it). CPU and I/O
 * are of all its threads over its life, as signal sums them at release (or,
 * taken late from the hash by the reader, as they stood at the exit).
 */
struct ptop_exit {
	__s32 tgid, ppid;	  /* in the reader's pid namespace */
	__u32 euid;		  /* in the initial user namespace */
	__s32 exit_code;	  /* as wait() gives it: code << 8, or the signal (| 0x80: core) */
	__u64 start_boottime;	  /* ns after boot, as ptop_task's */
	__u64 end_boottime;	  /* ns after boot (CLOCK_BOOTTIME) at its exit */
	__u64 runtime;		  /* ns: sum_exec_runtime of all its threads (final) */
	__u64 utime, stime;	  /* ns: tick samples, for the user/system split only */
	__u64 maxrss;		  /* pages: its peak RSS (signal->maxrss) */
	__u64 min_flt, maj_flt;	  /* page faults of all its threads */
	__u64 cmin_flt, cmaj_flt; /* its waited-for dead children's */
	struct ptop_io io;	  /* all its threads' */
	__u64 cgroup_id;	  /* as ptop_task's */
	char comm[16];		  /* its leader's */
};

/* A process that ended and whose leader is not yet freed: its global tgid and start. */
struct ptop_exit_key {
	__s32 tgid;
	__u32 pad;
	__u64 start_boottime; /* ns after boot */
};

/* What the exit hook could not record (the ring buffer full), since it was loaded. */
struct ptop_exit_lost {
	__u64 records; /* processes whose record was lost */
	__u64 runtime; /* ns: their CPU */
};

#endif
