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
#include "ptop/util.h"

#define FRAME_MAX_EVENTS 8
#define FRAME_EVENT_NAME 64
/* frame_counters.paranoid when the level could not be read */
#define PERF_PARANOID_UNKNOWN (-100)

/* Who fills a row member (row.def's sources). */
enum row_source {
	ROW_SRC_PROC = 1 << 0,	   /* the /proc sampler (src/proc/sample.c) */
	ROW_SRC_BPF = 1 << 1,	   /* the BPF task iterator's reader (src/bpf/bpfsrc.c) */
	ROW_SRC_EXIT = 1 << 2,	   /* an exit hook's record (frame.exited, src/bpf/bpfsrc.c) */
	ROW_SRC_OBSERVER = 1 << 3, /* the observer (src/perf/observe.c) */
	ROW_SRC_ACCOUNT = 1 << 4,  /* the accounting (src/frame/account.c) */
	ROW_SRC_CMDLINE = 1 << 5,  /* sampler_cmdline(), for the rows a presenter shows */
	ROW_SRC_DERIVE = 1 << 6,   /* field_derive_rows(), after any source (a replay too) */
	ROW_SRC_DELTA = 1 << 7,	   /* the deltas between live frames (src/frame/delta.c) */
};

/* A row member's needs (row.def) as PROC_NEED() bits: stat is always read. */
#define ROW_NEED_STAT 0u
#define ROW_NEED_NONE 0u
#define ROW_NEED_STATM PROC_NEED(PROC_FILE_STATM)
#define ROW_NEED_STATUS PROC_NEED(PROC_FILE_STATUS)
#define ROW_NEED_IO PROC_NEED(PROC_FILE_IO)
#define ROW_NEED_CGROUP PROC_NEED(PROC_FILE_CGROUP)
#define ROW_NEED_OOM_SCORE PROC_NEED(PROC_FILE_OOM_SCORE)
#define ROW_NEED_OOM_ADJ PROC_NEED(PROC_FILE_OOM_ADJ)
#define ROW_NEED_WCHAN PROC_NEED(PROC_FILE_WCHAN)
#define ROW_NEED_AUTOGROUP PROC_NEED(PROC_FILE_AUTOGROUP)
#define ROW_NEED_SECATTR PROC_NEED(PROC_FILE_SECATTR)
#define ROW_NEED_ROLLUP PROC_NEED(PROC_FILE_ROLLUP)
/* Not a file: the job control and scheduling members, which stat gives /proc at no
 * cost and the BPF source's walk reads only when asked (pointers to chase per process) */
#define ROW_NEED_JOB (1u << 31)
/* Not a row member's: each process's open descriptors and their limit, which a presenter
 * will ask the source for beyond the rows (pipeline_facts()): the BPF walk reads them only
 * when asked (a bitmap to count per process); the other sources ignore it */
#define FRAME_NEED_FDS (1u << 30)
/* Not a file: the cgroup's pressure (its *.pressure files), read once a frame per cgroup */
#define SAMPLER_NEED_CGROUP_PSI (1u << 29)
#define ROW_NEED_CGROUP_PSI (PROC_NEED(PROC_FILE_CGROUP) | SAMPLER_NEED_CGROUP_PSI)
/* frame_proc.cgroup_v1: cgroup is the unified line's path (or was not read); the systemd
 * line's, as the unified line says "/" (a hybrid machine); a v1 line's, as none is unified */
#define FRAME_CGROUP_UNIFIED 0
#define FRAME_CGROUP_UNIFIED_ROOT 1
#define FRAME_CGROUP_NO_UNIFIED 2
/* Not files either: the symbolic links exe and cwd, read with readlink (EXE, CWD) */
#define ROW_NEED_EXE (1u << 28)
#define ROW_NEED_CWD (1u << 27)
/* Nor this: a system call, ioprio_get (IO) */
#define ROW_NEED_IOPRIO (1u << 26)
/* status's Groups line (SUPGIDS, SUPGRPS): the /proc source reads status for it; the bit
 * beside says BPF's rows read status by PID for this line alone (sampler_read_side) */
#define ROW_NEED_GROUPS_BIT (1u << 25)
#define ROW_NEED_GROUPS (PROC_NEED(PROC_FILE_STATUS) | ROW_NEED_GROUPS_BIT)
/* the uid it logged in as (LOGID) and its environment (ENVIRON): files of their own */
#define ROW_NEED_LOGINUID PROC_NEED(PROC_FILE_LOGINUID)
#define ROW_NEED_ENVIRON PROC_NEED(PROC_FILE_ENVIRON)
/* Not a file: the NUMA node of the CPU it last ran on (NU), from the nodes' CPU lists, which
 * the sampler reads once, when first asked */
#define ROW_NEED_NUMA (1u << 24)
/* schedstat's run delay (CPUD%) */
#define ROW_NEED_SCHEDSTAT PROC_NEED(PROC_FILE_SCHEDSTAT)
/* the ns links (nsIPC ...), read together, with readlink */
#define ROW_NEED_NS (1u << 20)
/* stat's block I/O delay (IOD%): the /proc source reads stat anyway; BPF's rows read stat by
 * PID for it alone (sampler_read_side), and either reads kernel.task_delayacct once a frame */
#define ROW_NEED_BLKIO (1u << 23)
/* cgroup's every line (CGROUPS, CGNAME, LXC): the /proc source reads cgroup; the bit beside
 * says BPF's rows, whose cgroup path comes from its id, read cgroup by PID for them */
#define ROW_NEED_CGLINES_BIT (1u << 22)
#define ROW_NEED_CGLINES (PROC_NEED(PROC_FILE_CGROUP) | ROW_NEED_CGLINES_BIT)
/* the cgroup path condensed as htop's CCGROUP: made from the path at the frame's end */
#define ROW_NEED_CCGROUP_BIT (1u << 21)
#define ROW_NEED_CCGROUP (PROC_NEED(PROC_FILE_CGROUP) | ROW_NEED_CCGROUP_BIT)
/* maps, read whole (its size has no bound) by path, not through a held descriptor (LIB) */
#define ROW_NEED_MAPS (1u << 19)
/* Not a file: taskstats' swap-in delay (SWPD%), one netlink request per row (either source),
 * which the kernel answers only with CAP_NET_ADMIN */
#define ROW_NEED_TASKSTATS (1u << 17)
/* Not a file: the rows' side (frame_proc.side), which every ROW_SIDE member's column needs */
#define FRAME_NEED_SIDE (1u << 18)

/* An I/O priority as ioprio_get(2) gives it: its class (FRAME_IOPRIO_*) and level (0-7). */
#define FRAME_IOPRIO_CLASS(v) (((unsigned)(v) >> 13) & 7u)
#define FRAME_IOPRIO_LEVEL(v) ((unsigned)(v)&7u)
enum frame_ioprio_class {
	FRAME_IOPRIO_NONE, /* none set: best effort at the level its nice gives */
	FRAME_IOPRIO_RT,
	FRAME_IOPRIO_BE,
	FRAME_IOPRIO_IDLE,
};

/*
 * The class and level an I/O priority has in effect, as class * 8 + level
 * (lower is served first): with none set, the kernel's best effort at
 * (nice + 20) / 5, as htop shows it.
 */
static inline int frame_ioprio_effective(int ioprio, int64_t nice)
{
	unsigned cls = FRAME_IOPRIO_CLASS(ioprio);

	if (cls == FRAME_IOPRIO_NONE)
		return FRAME_IOPRIO_BE * 8 + (int)((nice + 20) / 5);
	return (int)(cls * 8 + FRAME_IOPRIO_LEVEL(ioprio));
}

/* A row's rarely shown members (row.def's ROW_SIDE): see frame_proc.side. */
struct frame_proc_side {
#define ROW(type, name, dim, kind, since, when, needs, sources)
#define ROW_LOCAL(type, name, dim, needs, sources)
#define ROW_SIDE(type, name, dim, kind, since, when, needs, sources) type name dim;
#define ROW_SIDE_LOCAL(type, name, dim, needs, sources) type name dim;
#include "ptop/row.def"
#undef ROW
#undef ROW_LOCAL
#undef ROW_SIDE
#undef ROW_SIDE_LOCAL
};

/* A process (or thread) row: its members and what each means are in row.def. */
struct frame_proc {
#define ROW(type, name, dim, kind, since, when, needs, sources) type name dim;
#define ROW_LOCAL(type, name, dim, needs, sources) type name dim;
#define ROW_SIDE(type, name, dim, kind, since, when, needs, sources)
#define ROW_SIDE_LOCAL(type, name, dim, needs, sources)
#include "ptop/row.def"
#undef ROW
#undef ROW_LOCAL
#undef ROW_SIDE
#undef ROW_SIDE_LOCAL
	/*
	 * The side members, in memory of the frame's (frame_side_add()), when
	 * the frame's needs had FRAME_NEED_SIDE: then every row has one. NULL
	 * otherwise: read them through frame_side(), write them through this
	 * only where the frame has sides. A row copied out of its frame takes its
	 * side's values, not this pointer (frame_side_keep()).
	 */
	struct frame_proc_side *side;
};

/* Stops the sanitizer build where a side member is read in a frame without sides. */
__attribute__((noreturn)) void frame_side_missing(const struct frame_proc *p);

/*
 * 1 + each kept member's offset in its struct: the row's, or with FRAME_AT_SIDE
 * set its side's. row.def's WHEN(flag) is ROW_AT_flag to its includers, so a
 * flag is found where it is, and columns.def's side members are ROW_SIDE_AT().
 */
#define FRAME_AT_SIDE 0x100000u
#define ROW_SIDE_AT(member) (FRAME_AT_SIDE + offsetof(struct frame_proc_side, member))
enum row_member_at {
#define ROW(type, name, dim, kind, since, when, needs, sources)                                    \
	ROW_AT_##name = 1 + offsetof(struct frame_proc, name),
#define ROW_LOCAL(type, name, dim, needs, sources)
#define ROW_SIDE(type, name, dim, kind, since, when, needs, sources)                               \
	ROW_AT_##name = 1 + ROW_SIDE_AT(name),
#define ROW_SIDE_LOCAL(type, name, dim, needs, sources)
#include "ptop/row.def"
#undef ROW
#undef ROW_LOCAL
#undef ROW_SIDE
#undef ROW_SIDE_LOCAL
};

/* Where a source writes a row's side members in a frame without sides: nothing reads it. */
extern _Thread_local struct frame_proc_side frame_side_scratch;

/* Where a source writes p's side members: its side, or the scratch in a frame without sides. */
static inline struct frame_proc_side *frame_side_w(struct frame_proc *p)
{
	return p->side ? p->side : &frame_side_scratch;
}

/* The side a row without one reads: all zero (every flag false), in read-only memory. */
extern const struct frame_proc_side frame_side_none;

/*
 * p's side members to read. Reading one where the frame has no sides is a
 * needs bit missed (FRAME_NEED_SIDE): the sanitizer build stops there, the
 * others read zeros and false flags (unknown, where a flag says).
 */
static inline const struct frame_proc_side *frame_side(const struct frame_proc *p)
{
#ifdef PTOP_CHECK_SIDE /* the sanitizer build's (configure --enable-sanitizers) */
	if (!p->side)
		frame_side_missing(p);
#endif
	return p->side ? p->side : &frame_side_none;
}

/*
 * Every file a member a recording keeps needs. A recording reads some of them
 * whatever is shown (RECORD_NEEDS, RECORD_NEEDS_LAZY in record.h), the others
 * only when a column asks.
 */
#define ROW(type, name, dim, kind, since, when, needs, sources) | ROW_NEED_##needs
#define ROW_LOCAL(type, name, dim, needs, sources)
#define ROW_SIDE(type, name, dim, kind, since, when, needs, sources)                               \
	| ROW_NEED_##needs | FRAME_NEED_SIDE
#define ROW_SIDE_LOCAL(type, name, dim, needs, sources)
static const unsigned row_recorded_needs = 0u
#include "ptop/row.def"
    ;
#undef ROW
#undef ROW_LOCAL
#undef ROW_SIDE
#undef ROW_SIDE_LOCAL

/*
 * What both frame sources (the /proc sampler and the BPF reader) compute the
 * same way from two looks at a task.
 *
 * %CPU of one CPU: ticks (utime + stime, at hz a second) since *prev over the
 * interval (s). With no earlier look (prev NULL), a task born during the
 * interval is charged all its ticks; one older than that (the first frame,
 * or the first with a row per thread) has no baseline, so the average over
 * its life up to uptime (s) is shown, as ps does, rather than its whole life
 * charged to one interval.
 */
static inline double frame_cpu_share(uint64_t ticks, const uint64_t *prev, double interval,
				     double uptime, uint64_t start_ticks, long hz)
{
	double secs = interval, start = (double)start_ticks / (double)hz;

	if (prev)
		ticks = ticks >= *prev ? ticks - *prev : 0;
	else if (interval <= 0 || start < uptime - interval)
		secs = uptime - start;
	return secs > 0 ? (double)ticks / (double)hz / secs * 100.0 : 0;
}

/*
 * A rate in bytes per second: (now - prev) over secs, rounded; 0 when secs is
 * not positive or the count went back (a reused PID). The I/O columns: since
 * the last look, or with prev 0 over the process's life at the first.
 */
static inline uint64_t frame_io_rate(uint64_t now, uint64_t prev, double secs)
{
	return secs > 0 && now >= prev ? (uint64_t)((double)(now - prev) / secs + 0.5) : 0;
}

/*
 * Whether p is the row of a thread other than its process's main one: with
 * -H every row is a thread, and with sampler_opts.user_threads (htop's view)
 * such rows follow their process's row.
 */
static inline bool frame_proc_is_thread(const struct frame_proc *p)
{
	return p->tgid > 0 && p->pid != p->tgid;
}

/* Whether p is a kernel thread: kthreadd or one of its children, as htop tells them
 * without the task flags. */
static inline bool frame_proc_is_kthread(const struct frame_proc *p)
{
	return p->pid == 2 || p->ppid == 2;
}

/* What the counters are and how they are doing (filled by the observer). */
struct frame_counters {
	bool on;
	int nevents;
	char names[FRAME_MAX_EVENTS][FRAME_EVENT_NAME];
	bool hardware;		  /* false: software events */
	const char *why_software; /* translatable reason, or NULL */
	unsigned attached, not_attached;
	unsigned budget;       /* processes with counters at most (--counter-budget) */
	unsigned partial;      /* attached, with threads that are not counted (over the limits) */
	int last_error;	       /* -errno of the last refusal, or 0 */
	unsigned refused;      /* of not_attached: refused by the kernel in this frame */
	int refused_error;     /* -EACCES or -EPERM when refused */
	int paranoid;	       /* perf_event_paranoid when refused; PERF_PARANOID_UNKNOWN unread */
	bool children_counted; /* the kernel lacks inherit_thread: forked children count twice */
	uint8_t na;	       /* events n/a for some row (frame_proc.ctr_na) */
	uint8_t software;      /* bit e: names[e] is a software event */
	int nsplit;	       /* most kernel groups a process's events took (1: one) */
	int npmus;	       /* a hybrid CPU's core PMUs, each hardware event opened on each */
	char pmus[8][32];
	/* events asked for that could not be opened, each with its reason (translatable) */
	int nfailed;
	char failed[FRAME_MAX_EVENTS][FRAME_EVENT_NAME];
	const char *failed_why[FRAME_MAX_EVENTS];
	/* ptop's own thread, read with rdpmc where the kernel allows, else read() */
	bool self_rdpmc;
	double self_ctr[FRAME_MAX_EVENTS]; /* during the last frame's build */
};

/* An armed breakpoint and its hits. */
struct frame_bp {
	int pid;
	uint64_t addr;
	int len;
	char type[3]; /* "r", "w", "rw", "x" */
	uint64_t hits;
	double hits_per_s;
	int threads;	/* threads it was armed on */
	bool gone;	/* the process ended, or ran another program; hits are final */
	bool execd;	/* it ran another program (not recorded: replays show gone) */
	char label[96]; /* what was asked for ("counter", "[heap]+0x40"), "" for a plain address */
	char comm[16];	/* the process's name now (at its exit, when gone) */
	double cpu_pct; /* its estimated cost to the process: % of one CPU; < 0 unknown */
};

struct frame_cpu {
	/* percent of all CPUs' time over the interval; they sum to about 100 */
	double user, nice, system, idle, iowait, irq, softirq, steal;
};

struct frame_tasks {
	unsigned total, running, sleeping, stopped, zombie;
};

/* Count one task in state (stat's letter) into t, as top counts them: R running,
 * T and t stopped, Z zombie, any other (S, D, I) sleeping. */
static inline void frame_tasks_count(struct frame_tasks *t, char state)
{
	t->total++;
	t->running += state == 'R';
	t->stopped += state == 'T' || state == 't';
	t->zombie += state == 'Z';
	t->sleeping += state != 'R' && state != 'T' && state != 't' && state != 'Z';
}

struct frame_cost {
	double cpu_s;	     /* CPU time ptop spent building this frame, seconds */
	double wall_s;	     /* wall time spent building it, seconds */
	unsigned fds_held;   /* /proc descriptors held open */
	unsigned fd_budget;  /* descriptors the reader may hold */
	unsigned vanished;   /* processes that went away mid-read */
	unsigned unreadable; /* processes left out: a file refused or malformed */
	unsigned fallback;   /* reads that had to open/read/close (over budget) */
	const char *source;  /* where the rows came from: "procfs" or "bpf" */
	unsigned read_full;  /* rows read in full */
	unsigned read_kept;  /* rows kept from an earlier frame: did not run since (read-less) */
	unsigned read_bpf;   /* rows from a BPF task iterator */
	/* what the exit hook's programs cost the machine over the interval (the kernel's
	 * BPF statistics; hook_known false: no hook, or no CAP_SYS_ADMIN to see them) */
	bool hook_known;
	double hook_s;	    /* their run time, seconds */
	uint64_t hook_runs; /* threads that ended (the exit program's runs) */
	/*
	 * What a hook on every context switch (bpf-delta's) cost the machine over
	 * the interval: its runs (the kernel's context switches: it runs on each)
	 * times what one run costs, calibrated once (switch_known false: no such
	 * hook, or not calibrated yet)
	 */
	bool switch_known;
	double switch_s;      /* seconds */
	uint64_t switch_runs; /* context switches over the interval */
	double switch_run_ns; /* what one run costs, as calibrated */
};

/*
 * Where the busy CPU of an interval went (src/frame/account.c), in CPU-seconds.
 * Busy is user + nice + system of the cpu summary; irq and softirq belong to no
 * process. With an exit hook (exits) the processes that ended are counted
 * from their exit records (exited_s, lost_s); without one, from their
 * parents' growing children's time (children_s).
 */
struct frame_account {
	bool exits;	   /* frame.exited comes from an exit hook (the BPF source) */
	double busy_s;	   /* user + nice + system over the interval */
	double irq_s;	   /* irq + softirq */
	double rows_s;	   /* the live rows' CPU */
	double exited_s;   /* the exited processes' CPU in the interval */
	double lost_s;	   /* CPU of exits the buffer could not hold (counted in the kernel) */
	double children_s; /* the parents' children's share (frame_proc.child_ticks) */
	uint64_t lost;	   /* exits not recorded: the buffer was full */
};

/* The share of busy CPU the frame's rows explain, percent; < 0 when nothing was busy. */
static inline double frame_accounted_pct(const struct frame_account *a)
{
	double got = a->rows_s + (a->exits ? a->exited_s + a->lost_s : a->children_s);

	return a->busy_s > 0 ? got / a->busy_s * 100.0 : -1;
}

/* The machine's storage and network throughput (sysio.c), when asked for (sampler_opts.sysio). */
struct frame_sysio {
	bool asked;		    /* read in this frame */
	int disk_error, net_error;  /* 0, or -errno: -ENODEV no /proc/diskstats or net/dev */
	bool disk_rates, net_rates; /* the rates cover an interval (not the first read) */
	uint64_t disk_read_bytes, disk_write_bytes; /* since boot, whole disks (no dm, md, loop) */
	uint64_t net_rx_bytes, net_tx_bytes;	    /* since boot, every interface but lo */
	double disk_read_bps, disk_write_bps;	    /* bytes per second over the interval */
	double net_rx_bps, net_tx_bps;		    /* bytes per second over the interval */
};

/* The pressure files, in frame_psi.res[]. */
enum psi_resource { PSI_CPU, PSI_MEMORY, PSI_IO, PSI_RESOURCES };

/* The machine's pressure stall information (psi.c), when asked for (sampler_opts.psi). */
struct frame_psi {
	bool asked; /* read in this frame */
	/* 0, or -errno: -ENOENT a kernel without PSI, -EOPNOTSUPP PSI off (psi=0) */
	int error[PSI_RESOURCES];
	struct proc_pressure res[PSI_RESOURCES];
};

struct frame {
	struct timespec time; /* wall clock (CLOCK_REALTIME) at the sample */
	double interval_s;    /* since the previous frame; 0 for the first */
	double uptime_s;
	double load[3];
	unsigned nusers;       /* login sessions (utmp), as top's "N users" */
	unsigned pid_max;      /* /proc/sys/kernel/pid_max: sets the width of PID columns */
	uint64_t ctx_switches; /* since boot (/proc/stat's ctxt): a switch hook's runs */
	uint64_t boot_time;    /* /proc/stat's btime, seconds since the epoch; 0 not read */
	struct frame_tasks tasks;
	struct frame_cpu cpu;
	struct {
		uint64_t total, free, used, buff_cache, avail; /* KiB */
	} mem;
	struct {
		uint64_t total, free, used; /* KiB */
	} swap;
	unsigned ncpu;
	struct frame_cpu *cpus; /* one per CPU when asked for (per_cpu), else NULL */
	unsigned ncpus;		/* entries in cpus */
	long hz;		/* clock ticks per second */
	struct frame_cost cost;
	struct frame_sysio sysio;
	struct frame_psi psi;
	size_t nprocs;
	size_t cap; /* procs allocated; kept across frames */
	struct frame_proc *procs;
	/* processes that ended in the interval, from an exit hook (frame_account.exits);
	 * merged into their row instead when that row is still here (a zombie) */
	struct frame_proc *exited;
	size_t nexited, exited_cap;
	/* the rows' sides (frame_proc.side; exited rows' too) when has_sides: chunks that never
	 * move, kept across frames (frame_sides_begin()) */
	struct frame_side_chunk *sides, *side_at;
	bool has_sides;
	struct frame_account acct;
	struct frame_counters counters;
	struct frame_bp *bps; /* owned by the observer; valid until its next update */
	size_t nbps;
	bool bp_no_hits; /* this machine counts no breakpoint hits (perf_bp_selftest) */
	double
	    bp_hit_ns; /* what one hit costs the process taking it (perf_bp_hit_cost); 0 unknown */
	struct sbuf strings; /* command lines; reset each frame, capacity kept */
	bool threads; /* rows are threads (top -H): pid is a thread id, tasks count threads */
	/* IOD% or SWPD% was asked for and kernel.task_delayacct is 0: no block I/O or swap-in
	 * delay is counted (live frames only) */
	bool delayacct_off;
	/* SWPD% was asked for and taskstats cannot be had: -EPERM (no CAP_NET_ADMIN),
	 * -ENOENT or -EOPNOTSUPP (no such family), another -errno; 0 otherwise */
	int taskstats_err;
};

/*
 * When p started, in seconds since the epoch, as ps and process-exporter
 * give it: the boot time /proc/stat says plus its start; without that (a
 * recording), the frame's time less its uptime.
 */
static inline double frame_proc_start_time(const struct frame *f, const struct frame_proc *p)
{
	double boot = f->boot_time
			  ? (double)f->boot_time
			  : (double)f->time.tv_sec + (double)f->time.tv_nsec / 1e9 - f->uptime_s;

	return boot + (double)p->start_ticks / (double)(f->hz > 0 ? f->hz : 100);
}

struct sampler;

struct sampler_opts {
	const char *root; /* proc root; NULL means "/proc" */
	unsigned needs;	  /* PROC_NEED() bits beyond stat, which is always read */
	bool threads;	  /* one row per thread (top's H) instead of per process */
	/* without threads: after each process's row, a row for each of its other
	 * threads (htop's user threads), its own figures from task/TID (memory
	 * the process's); tasks count the processes only */
	bool user_threads;
	bool per_cpu; /* fill frame.cpus */
	bool sysio;   /* fill frame.sysio */
	bool psi;     /* fill frame.psi */
	/* where the cgroup pressure columns find the unified hierarchy (its "unified"
	 * directory on a hybrid machine); NULL: /sys/fs/cgroup, or none under a proc root
	 * other than /proc (not this machine's cgroups). Taken by sampler_new() only */
	const char *cgroup_root;
	/* where NU finds the NUMA nodes (each node's cpulist); NULL: /sys/devices/system/node,
	 * or none under a proc root other than /proc. Taken by sampler_new() only */
	const char *node_root;
	/*
	 * Read less: only the rows in view get `needs`; the others get
	 * `needs_all` (what sorting and filtering use), and a process out of
	 * view whose run time (its process CPU clock; the leader's schedstat
	 * under a proc root of another namespace, for one thread only) did not
	 * move keeps its row from the last frame (frame_proc.kept), re-read in
	 * full at least every SAMPLER_FULL_SECONDS. Ignored with threads; with
	 * user_threads, processes of several threads are read in full.
	 */
	bool read_less;
	unsigned needs_all;
	const int *view; /* PIDs of the rows in view, ascending; not kept past sampler_frame() */
	size_t nview;
	/*
	 * Read where they may have changed (a recording's: RECORD_NEEDS beyond
	 * `needs`): of status, io and cgroup, a process's members are read when it
	 * is new, ran since their last read (its run time moved), its memory moved
	 * (stat's or statm's resident figure), its turn came (every
	 * SAMPLER_LAZY_EVERY frames) or its run time cannot be told; else they are
	 * its last read's, and its I/O rates 0 (no run, no system call). Processes
	 * only: thread rows read them every frame.
	 */
	unsigned needs_lazy;
};

/*
 * With needs_lazy, what changes without the process running and without its
 * memory moving (its cgroup, moved by another process; its uids, by none) shows
 * within this many frames. A power of two.
 */
#define SAMPLER_LAZY_EVERY 16

/*
 * With read_less, every process is read in full at least once in this many
 * seconds: what changes without the process running (nice set by another,
 * RSS reclaimed, swap) lags by no more than that. The reads are spread over
 * the PIDs, one in every N frames where N is the largest power of two (at
 * most SAMPLER_FULL_EVERY_MAX) whose frames at the last interval fit in that
 * time: at a delay of more than half of it, every frame reads everything
 * (and no run time is read). Powers of two, so that an interval that wavers between
 * two of them never stretches a process's wait past the longer one.
 */
#define SAMPLER_FULL_SECONDS 4.0
#define SAMPLER_FULL_EVERY_MAX 64

/*
 * Create a sampler. Returns 0, or -errno: -ENOENT/-EACCES when the proc root
 * cannot be opened, -ENODEV when libproc2 cannot read the system totals.
 */
int sampler_new(const struct sampler_opts *o, struct sampler **out);
void sampler_free(struct sampler *s);
/* Change what later frames read (needs, threads, per_cpu; root is kept). */
void sampler_configure(struct sampler *s, const struct sampler_opts *o);

/*
 * Read p's command line into f->strings (arguments joined by spaces; a kernel
 * thread's empty one becomes "[comm]", as top shows it). Called by a presenter
 * for the rows it shows. Returns 0, or -ESRCH when the process is gone (or
 * another -errno when it cannot be read): its name is then stored instead.
 */
int sampler_cmdline(struct sampler *s, struct frame *f, struct frame_proc *p);

/*
 * Read p in full now if it was kept from an earlier frame (read-less): a
 * presenter calls this for each row it shows, so rows in view are exact.
 * Returns 0, or -ESRCH when the process is gone (p unchanged), or -errno.
 */
int sampler_complete(struct sampler *s, struct frame *f, struct frame_proc *p);

/*
 * A process's uid is looked at again (the owner of /proc/PID; in a copy of
 * /proc, status) when what stat shows of it changed (it ran a tick, exec'd,
 * changed size or threads), when status is read anyway (it gives the uid
 * then), and otherwise every SAMPLER_UID_RECHECK frames: a
 * setresuid() that left no trace in stat shows within that many frames.
 * Read-less, that last look is skipped for a process whose run time shows
 * it did not run since its uid was read: credentials change only by running.
 * One that did run is not kept from an earlier frame on its turn.
 */
#define SAMPLER_UID_RECHECK 32

/*
 * Fill f with a new sample, reusing f->procs. Processes that vanish while
 * being read are left out and counted in f->cost.vanished; a PID reused by a
 * new process starts afresh. The first frame's %CPU is each process's
 * average over its lifetime (as ps shows), later ones cover the interval.
 * Returns 0, or -errno when the PID enumeration itself failed.
 */
int sampler_frame(struct sampler *s, struct frame *f);
void frame_free(struct frame *f);

/* A new fill of f begins: its rows get sides (frame_side_add()) when want. */
void frame_sides_begin(struct frame *f, bool want);
/* A zeroed side for p when f has sides (p->side, also returned); else p->side is NULL. */
struct frame_proc_side *frame_side_add(struct frame *f, struct frame_proc *p);
/* to, a row of a frame, as from (a row kept outside any frame, or another row), to's own side
 * (if it has one) taking from_side's values: zeros when from_side is NULL */
void frame_row_assign(struct frame_proc *to, const struct frame_proc *from,
		      const struct frame_proc_side *from_side);
/* f's sides' memory (frame_free() calls it) */
void frame_sides_free(struct frame *f);

/*
 * The parts of sampler_frame() for a source that takes its rows elsewhere
 * (BPF) and the rest from /proc: sampler_begin() starts f (time, interval,
 * system totals, what sampler_configure() asked for of them; no rows),
 * sampler_add_init() adds PID 1 (and, with threads, its threads) from /proc
 * when the rows lack it, sampler_read_cgroups() gives rows without a cgroup
 * /proc's, sampler_end() ends f (its cost since sampler_begin()).
 */
void sampler_begin(struct sampler *s, struct frame *f);
void sampler_add_init(struct sampler *s, struct frame *f);
void sampler_read_cgroups(struct sampler *s, struct frame *f);
/* The members BPF's rows lack that /proc gives from files of their own (row.def's
 * WCHAN ...), read by PID for the rows of f when sampler_configure() asked for them. */
void sampler_read_side(struct sampler *s, struct frame *f);
void sampler_end(struct sampler *s, struct frame *f);
/* The sampler's uid names and cgroup paths, for rows filled elsewhere; live as long. */
struct users *sampler_users(struct sampler *s);
struct cgroup_names *sampler_cgroup_names(struct sampler *s);
/* What the last sampler_configure() asked to be read (needs | needs_all). */
unsigned sampler_needs(const struct sampler *s);

/* Cached uid -> user name ("1234" when the uid has no name). Never NULL. */
struct users;
struct users *users_new(void);
void users_free(struct users *u);
const char *users_name(struct users *u, uid_t uid);
/* The same for gid -> group name: a table made by groups_new(), freed by users_free(). */
struct users *groups_new(void);
const char *groups_name(struct users *g, gid_t gid);
/*
 * Disk and network throughput (sysio.c), over the proc root (NULL: /proc;
 * disks always from /proc/diskstats, through libproc2). Never NULL: what
 * cannot be opened is reported in each sample's *_error.
 */
/*
 * Pressure stall information (psi.c): /proc/pressure/{cpu,memory,io} under
 * the proc root (NULL: /proc), held open and re-read with pread each frame.
 */
struct psi;
struct psi *psi_new(const char *root);
void psi_free(struct psi *p);
void psi_sample(struct psi *p, struct frame_psi *out);

/*
 * The pressure of rows' cgroups (cgpsi.c), for the members that need
 * CGROUP_PSI: cgpsi_new() over a proc root (NULL: /proc; the machine's
 * pressure for the root cgroup where it has no files) and a cgroup root (see
 * sampler_opts.cgroup_root); cgpsi_begin() at each frame forgets what the
 * last one read (the rows' cgroup strings may be freed between frames);
 * cgpsi_row() fills p's cgroup pressure members and flags from its cgroup
 * (cgroup and cgroup_v1), reading that cgroup's files at its first row of
 * the frame. A file that cannot be read (no unified hierarchy, PSI absent or
 * off, the cgroup gone) leaves its flag false.
 */
struct cgpsi;
struct cgpsi *cgpsi_new(const char *proc_root, const char *cgroup_root);
void cgpsi_free(struct cgpsi *c);
void cgpsi_begin(struct cgpsi *c);
void cgpsi_row(struct cgpsi *c, struct frame_proc *p);

struct sysio;
struct sysio *sysio_new(const char *root);
void sysio_free(struct sysio *s);
/* Read both now (now: CLOCK_MONOTONIC seconds); rates against the previous call. */
void sysio_sample(struct sysio *s, double now, struct frame_sysio *out);

/* Cgroup paths and the container or unit of each, kept once per distinct path (cgroups.c). */
struct cgroup_names;
struct cgroup_names *cgroup_names_new(void);
void cgroup_names_free(struct cgroup_names *c);
/* Forget every path: strings handed out before are freed. */
void cgroup_names_clear(struct cgroup_names *c);
size_t cgroup_names_count(const struct cgroup_names *c);
/*
 * The kept copy of path (n bytes), NUL-terminated, added on first sight;
 * *unit is its container or unit (proc_cgroup_unit), "" for none. Never NULL;
 * both live until cgroup_names_clear() or _free().
 */
const char *cgroup_names_get(struct cgroup_names *c, const char *path, size_t n, const char **unit);
/*
 * htop's condensed form of path (proc_cgroup_compress), made on first asking for each kept
 * path; NULL for NULL. Lives as cgroup_names_get()'s strings do.
 */
const char *cgroup_names_compressed(struct cgroup_names *c, const char *path);

/*
 * Strings of rows read on request (wchan, exe, cwd, groups, the security label:
 * strings.c), kept once
 * per distinct value. row_strings_get() returns the kept copy of s (n bytes,
 * NUL-terminated), added on first sight; never NULL. It lives until
 * row_strings_clear() or _free(). A string with a NUL inside is kept up to it.
 */
struct row_strings;
struct row_strings *row_strings_new(void);
void row_strings_free(struct row_strings *t);
void row_strings_clear(struct row_strings *t);
size_t row_strings_count(const struct row_strings *t);
const char *row_strings_get(struct row_strings *t, const char *s, size_t n);
/* The same, and *aux: where the caller keeps one more pointer with that string (NULL at first
 * sight; a string derived from it, as the group names from the ids), living as long. */
const char *row_strings_get_aux(struct row_strings *t, const char *s, size_t n, const char ***aux);

/* A user given by name or number (as -u and the viewer's u take it): 0, or -ENOENT. */
int users_parse(const char *s, uid_t *uid);

#endif
