/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * perf.h: what ptop reads through perf_event_open(2): per-process counter
 * groups (events named through libpfm4, falling back to software events
 * where the machine has no PMU), ptop's own counters read with rdpmc through
 * the perf_event_mmap_page, hardware breakpoints armed on a process, and who
 * else holds perf_event descriptors. Nothing here prints; every function
 * returns 0 or -errno: -ENOENT unknown event name, -ENODEV/-EOPNOTSUPP no such
 * hardware, -EACCES refused (perf_event_paranoid), -ESRCH process gone,
 * -EMFILE out of descriptors, -ENOSPC out of debug registers, -EINVAL bad
 * address, length or type.
 */
#ifndef PTOP_PERF_H
#define PTOP_PERF_H

/* libpfm4 carries its own copy of the kernel's perf_event.h; the two cannot be mixed */
#include <perfmon/pfmlib_perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ptop/util.h"

#define PERF_NAME_MAX 64
#define PERF_GROUP_MAX 8

/* One event, resolved from its name. */
struct perf_event_spec {
	char name[PERF_NAME_MAX];
	struct perf_event_attr attr;
	bool hardware; /* needs a PMU (not PERF_TYPE_SOFTWARE) */
	/* set by a counter set that opens a hybrid CPU's events once per core PMU */
	int column;   /* the event asked for that this one counts for (its sum) */
	bool leads;   /* starts a kernel group of its own */
	bool per_pmu; /* one core type's copy: it runs only while the task is on that type */
};

/*
 * Where sysfs is (NULL: /sys): the PMUs are read from
 * ROOT/bus/event_source/devices. Tests point it at a fake tree.
 */
void perf_set_sysfs_root(const char *root);

#define PERF_PMUS_MAX 8

/* A CPU's PMU as sysfs lists it: "cpu", or one core type of a hybrid CPU. */
struct perf_pmu {
	char name[32];
	uint32_t type; /* perf_event_attr.type, and for generic events config >> 32 */
};

/*
 * The CPU PMUs under the sysfs root: "cpu", or the core types of a hybrid
 * CPU (cpu_core, cpu_atom; Arm's armv*), at most max, sorted by name.
 * Returns how many (0: no hardware PMU), or -errno when the directory
 * cannot be read.
 */
int perf_core_pmus(struct perf_pmu *out, int max);

/*
 * Why an event could not be opened, for err (-errno from perf_event_open)
 * and whether this machine has a CPU PMU: a translatable sentence (N_()).
 */
const char *perf_open_strerror(int err, bool pmu);

/* Initialise libpfm4 once. 0, or -ENODEV when it cannot start. */
int perf_init(void);

/* Resolve an event name ("cycles", "task-clock", any name libpfm4 knows). */
int perf_event_resolve(const char *name, struct perf_event_spec *out);

/* An event a person may choose (perf_event_list). */
struct perf_event_desc {
	const char *name; /* as --counters takes it; valid during the callback only */
	const char *desc; /* one line: translatable (N_()) for the kernel's, libpfm4's English */
	bool hardware;	  /* needs a PMU */
};
/* Called for each event listed; a non-zero return stops the listing. */
typedef int (*perf_event_list_fn)(void *ctx, const struct perf_event_desc *d);
/*
 * The events this machine can count, each a name perf_event_resolve() takes:
 * the kernel's software events always; when the sysfs root lists a CPU PMU
 * (*pmu set true), perf's generic hardware events, then libpfm4's events for
 * the core PMUs it detected, as PMU::EVENT. Returns 0, or a callback's
 * non-zero return.
 */
int perf_event_list(perf_event_list_fn fn, void *ctx, bool *pmu);

/* The software events ptop falls back to. */
extern const char *const perf_software_events[4];
/* The default hardware events. */
extern const char *const perf_hardware_events[4];

/* A group of counters on one task, read with one read() per frame. */
struct perf_group {
	int pid;
	int n;			/* events in the group */
	int fd[PERF_GROUP_MAX]; /* fd[0] is the leader */
	/*
	 * The kernel groups the events were split into, where the PMU has fewer
	 * counters than events (it refuses such a group): kernel group s is
	 * events start[s] .. start[s + 1] - 1, led by fd[start[s]]. 1: one group.
	 */
	int nsplit;
	int start[PERF_GROUP_MAX + 1];
	uint8_t per_pmu; /* bit s: kernel group s is one core type's of a hybrid CPU */
	int nrefused;	 /* of those, started because the PMU refused a larger one */
	uint64_t split_enabled[PERF_GROUP_MAX], split_running[PERF_GROUP_MAX]; /* ns, per group */
	uint64_t raw[PERF_GROUP_MAX]; /* counts as last read */
	uint64_t enabled, running;    /* ns, as last read (the first kernel group's) */
	uint64_t prev_raw[PERF_GROUP_MAX];
	uint64_t prev_enabled, prev_running;
	bool have_prev;
	double delta[PERF_GROUP_MAX]; /* since the previous read, scaled to enabled time */
	double scale;	  /* running / enabled over that interval: 1 = not multiplexed */
	bool not_counted; /* enabled but never running in that interval: delta is no count */
	uint8_t na;	  /* bit i: event i was opened user level only, where it counts nothing */
};

/*
 * Open ev[0..n) as one group on the task pid, a thread id (all CPUs;
 * `inherit` with inherit_thread, so the threads it creates from now on
 * count too, the children it forks not). A member the kernel refuses with
 * EINVAL (the group does not fit the PMU's counters: validate_group) leads
 * a new kernel group instead (nsplit). Returns 0 or -errno of the first
 * event that failed.
 */
int perf_group_open(struct perf_group *g, int pid, const struct perf_event_spec *ev, int n);
/* The same, inherited by the threads pid creates or not. */
int perf_group_open_task(struct perf_group *g, int pid, const struct perf_event_spec *ev, int n,
			 bool inherit);
/*
 * Whether a process's counters also count the children it forks after
 * attaching: inherited groups set inherit_thread so that only new threads
 * count, and where the kernel rejects that bit (before Linux 5.13) they
 * are opened without it and this turns true.
 */
bool perf_children_counted(void);

/* perf_event_open(2) as src/perf calls it: the fd, or -1 with errno set. */
typedef long perf_open_fn(struct perf_event_attr *attr, int pid, int cpu, int group,
			  unsigned long flags);
/*
 * Replace the system call (tests inject a kernel's errors this way); NULL
 * restores it. What was learned about the kernel (perf_children_counted) is
 * forgotten.
 */
void perf_set_open_fn(perf_open_fn *fn);

/*
 * perf_event_open through that function, retrying user level only where
 * kernel counting is refused (perf_event_paranoid 2), which sets
 * attr->exclude_kernel and exclude_hv; an event that excludes user level
 * (name:k) is not retried: it would count nothing. The descriptor, or -errno.
 */
int perf_event_open_fd(struct perf_event_attr *attr, int pid, int cpu, int group,
		       unsigned long flags);

/*
 * Whether the kernel counts attr's event in its own context (context
 * switches, migrations): opened user level only, it reads 0 whatever happens.
 */
bool perf_counts_in_kernel(const struct perf_event_attr *attr);

/* Read the whole group (one read()) and compute delta/scale. 0 or -errno. */
int perf_group_read(struct perf_group *g);
void perf_group_close(struct perf_group *g);

/* Scale a count by enabled/running, as perf does when events were multiplexed. */
double perf_scale(uint64_t count, uint64_t enabled, uint64_t running);

/* ---- counters for the processes a presenter shows ---- */

/* Thread groups one process may take; its other threads are then not counted. */
#define PERF_THREADS_MAX 64
/* Descriptors a counter set may hold: the reader leaves them (PROC_FD_RESERVE). */
#define PERF_FDS_MAX 512

/*
 * A process's counters: one group per thread it had when attached, each
 * `inherit`ed by the threads that thread creates later, so every thread is
 * counted once. delta is the sum over the groups, each scaled by its own
 * enabled/running times.
 */
struct perf_proc {
	int pid;
	int n;			      /* events */
	double delta[PERF_GROUP_MAX]; /* since the previous read (the first: since attach) */
	double scale;		      /* running / enabled over all groups: 1 = not multiplexed */
	bool have_prev;		      /* delta covers an interval between two reads */
	bool partial;		      /* threads that ran before attaching are not all counted */
	bool not_counted;	      /* no group ran while enabled in the interval: no counts */
	uint8_t na;   /* bit i: event i counts only in the kernel, which was refused: no count */
	int nsplit;   /* kernel groups its events were split into: 1 when they fit one */
	int nthreads; /* groups in thread; [0] is the main thread's */
	struct perf_group *thread;
	bool wanted; /* perf_counters_update's mark while it sorts the wanted from the rest */
};

struct perf_counters;

struct perf_counters_info {
	int nevents;
	const char *names[PERF_GROUP_MAX];
	bool hardware;		  /* false: software events (fallback, or asked for) */
	const char *why_software; /* translatable reason, or NULL */
	unsigned attached;	  /* processes with an open group */
	unsigned not_attached;	  /* wanted but over the budget or refused */
	unsigned partial;	  /* attached, but with threads not counted (over the limits) */
	int last_error;		  /* -errno of the last refusal, 0 if none */
	unsigned refused;	  /* of not_attached: refused by the kernel (EACCES, EPERM) */
	int refused_error;	  /* -EACCES or -EPERM when refused, else 0 */
	bool children_counted;	  /* the kernel lacks inherit_thread: see perf_children_counted */
	uint8_t na;		  /* events that are n/a (perf_proc.na) for some attached process */
	uint8_t software;	  /* bit i: names[i] is a software event (the ~ marker) */
	int nsplit;		  /* most kernel groups the events took (1: one group, as asked) */
	int npmus;		  /* core PMUs each hardware event is opened on (2+: hybrid) */
	const char *pmus[PERF_PMUS_MAX]; /* their sysfs names */
	/* the events asked for that could not be opened, each with its reason (N_()) */
	int nfailed;
	const char *failed[PERF_GROUP_MAX];
	const char *failed_why[PERF_GROUP_MAX];
};

/*
 * Create a counter set for events (names; NULL or n == 0: the hardware defaults).
 * When a hardware event cannot be opened (no PMU, refused), the whole set
 * switches to the software events and says why. budget caps attached processes.
 * Returns 0, or -ENOENT (with *bad set to the unknown name).
 */
int perf_counters_new(const char *const *events, int n, unsigned budget, struct perf_counters **out,
		      const char **bad);
void perf_counters_free(struct perf_counters *c);

/*
 * Attach to pids (in priority order: the first `budget` get counters), detach
 * from every other, and read each attached process once (one read() per
 * thread group). Processes that are gone are dropped quietly. A process gets
 * a group per thread listed in /proc/PID/task, up to PERF_THREADS_MAX and
 * what is left of the set's PERF_FDS_MAX; its other threads are then not
 * counted and it is marked partial. Once the cap is reached, the processes
 * left are not attached (last_error -EMFILE).
 */
void perf_counters_update(struct perf_counters *c, const int *pids, size_t n);
/*
 * Whether the pids given to perf_counters_update are threads (a row per
 * thread, top's H): then each gets one group of its own and no thread
 * listing. Changing it detaches everything.
 */
void perf_counters_per_thread(struct perf_counters *c, bool on);
/* The counters of pid, or NULL when it has none. */
const struct perf_proc *perf_counters_get(const struct perf_counters *c, int pid);
void perf_counters_info(const struct perf_counters *c, struct perf_counters_info *info);

/*
 * The kernel's perf_event_paranoid level (what refuses counters on other
 * users' processes), read from root/sys/kernel/perf_event_paranoid (root
 * NULL: /proc) into *level (-1 to 4 on today's kernels). Returns 0, or
 * -errno: -ENOENT without the file, -EINVAL when it holds no number, -ERANGE.
 */
int perf_paranoid(const char *root, int *level);

/* ---- rdpmc: ptop's own counters (src/perf/rdpmc.c) ---- */

struct perf_self {
	int fd;
	struct perf_event_mmap_page *page; /* NULL when it could not be mapped */
	size_t page_size;
	bool rdpmc;	 /* cap_user_rdpmc was set at open: reads try the page first */
	bool last_rdpmc; /* the last read took rdpmc (the page's index was set), not read() */
	bool na;	 /* opened user level only, and it counts in the kernel: no count */
	/* the rdpmc and rdtsc instructions; tests put stubs here */
	uint64_t (*pmc)(unsigned idx, void *arg);
	uint64_t (*tsc)(void *arg);
};

/* A count and the times its event was enabled and running (ns), as of one read. */
struct perf_count {
	uint64_t value;
	uint64_t enabled, running; /* ns */
};

/*
 * Open ev on the calling thread (not inherited; read() gives the count with
 * its enabled and running times), map and pre-fault its page.
 */
int perf_self_open(struct perf_self *s, const struct perf_event_spec *ev);
/* Read the count: rdpmc through the page when the kernel allows, else read(). */
int perf_self_read(struct perf_self *s, uint64_t *count);
/*
 * The same with the times: from the page (extrapolated by the TSC, see
 * perf_mmap_read) when rdpmc can be used, else from read(). 0 or -errno
 * (-EIO on a short read).
 */
int perf_self_read_count(struct perf_self *s, struct perf_count *out);
void perf_self_close(struct perf_self *s);

/*
 * Scale the interval from prev to now as perf does: *delta is the count's
 * increase times Δenabled / Δrunning, *scale is Δrunning / Δenabled (1 when
 * no time passed). Returns false when the event never ran in the interval
 * (Δrunning 0 while enabled): then nothing was counted, *delta is 0.
 */
bool perf_count_scale(const struct perf_count *prev, const struct perf_count *now, double *delta,
		      double *scale);

/*
 * Decode a count from a perf_event_mmap_page snapshot: the seqlock loop
 * (lock, index, offset, pmc_width) with pmc() reading the hardware counter
 * (rdpmc(index - 1) in real use; a stub in tests). Returns 0, or -EAGAIN when
 * the page says rdpmc cannot be used (index 0 or cap_user_rdpmc clear).
 */
int perf_mmap_decode(const volatile struct perf_event_mmap_page *pg,
		     uint64_t (*pmc)(unsigned idx, void *arg), void *arg, uint64_t *count);

/*
 * The count and its times from a page snapshot, as the comment above struct
 * perf_event_mmap_page in the kernel's uapi header says: under the seqlock,
 * the count as perf_mmap_decode reads it, and time_enabled / time_running
 * advanced by the time since the kernel last wrote them, from tsc() (rdtsc
 * in real use, a stub in tests) through time_offset, time_mult and
 * time_shift (and time_cycles / time_mask with cap_user_time_short).
 * Returns 0, or -EAGAIN when the page does not allow it (index 0,
 * cap_user_rdpmc or cap_user_time clear).
 */
int perf_mmap_read(const volatile struct perf_event_mmap_page *pg,
		   uint64_t (*pmc)(unsigned idx, void *arg), uint64_t (*tsc)(void *arg), void *arg,
		   struct perf_count *out);

/* ---- breakpoints (src/perf/breakpoints.c) ---- */

enum perf_bp_type {
	PERF_BP_R = 1,	/* HW_BREAKPOINT_R */
	PERF_BP_W = 2,	/* HW_BREAKPOINT_W */
	PERF_BP_RW = 3, /* HW_BREAKPOINT_RW */
	PERF_BP_X = 4,	/* HW_BREAKPOINT_X */
};

struct perf_bp_spec {
	int pid;
	uint64_t addr;	  /* resolved address */
	char region[256]; /* a maps path or a file's name ("[heap]", "libc.so.6"), else "" */
	char symbol[128]; /* a variable's name, else "" */
	uint64_t offset;  /* after REGION+: bytes into a region, or the binary's address */
	int len;	  /* 1, 2, 4 or 8 */
	bool len_set;	  /* LEN was given, not taken from the symbol's size */
	enum perf_bp_type type;
	char label[96]; /* the ADDR as written when it was not a plain address */
	/* set by perf_bp_resolve() */
	char object[64]; /* the file's name holding the symbol or address */
	uint64_t size;	 /* the symbol's size in bytes (0: unknown) */
	char cand[256];	 /* on -ENOTUNIQ / -ENODATA: candidates, "file:name" blank-separated */
};

/*
 * Parse "PID:ADDR[:LEN[:TYPE]]". ADDR is hex (0x optional), REGION+OFFSET
 * where REGION is a maps path such as [heap] or [stack] or a mapped file's
 * name (its OFFSET is then an address of that binary, as nm shows it, or
 * failing that a file offset), a variable's NAME, or LIB:NAME (all resolved
 * later). LEN defaults to the variable's size, else 4 (sizeof(long) for x,
 * as perf uses); TYPE to w. Returns 0 or -EINVAL.
 */
int perf_bp_parse(const char *arg, struct perf_bp_spec *out);
/*
 * Resolve a region+offset or a name against /proc/PID/maps under root and the
 * ELF files it maps. 0 or -ESRCH (no process), -ENOENT (no such region or
 * library), -EFAULT (the address is not mapped), -ENODATA (no such variable;
 * bp->cand lists names containing it), -ENOTUNIQ (several; bp->cand lists
 * them), -ENOEXEC (the file is not ELF).
 */
int perf_bp_resolve(struct perf_bp_spec *bp, const char *root);
const char *perf_bp_type_name(enum perf_bp_type t);

struct perf_bp {
	struct perf_bp_spec spec;
	int nfds;
	int *fds;		   /* one per thread of the process at arming */
	int pidfd;		   /* the process, to see it exit whatever reuses its PID; -1 */
	bool exited;		   /* it did, or ran another program (execd): hits are final */
	bool execd;		   /* it ran another program: the kernel removed the events */
	char comm[16];		   /* its name now, kept past its exit */
	uint64_t exe_dev, exe_ino; /* its program at arming, to see an exec; 0 unknown */
	const char *root;	   /* the proc root it was armed under (NULL: /proc) */
	uint64_t hits;		   /* total over all threads */
	uint64_t prev_hits;
	double hits_per_s;
};

/*
 * Arm spec on every thread of its process (with inherit, so later threads
 * count too). Returns 0 or -errno; -ENOSPC when the task has no free debug
 * register.
 */
int perf_bp_arm(struct perf_bp *bp, const struct perf_bp_spec *spec, const char *root);
/* Sum the hits of every thread; interval (s) gives hits_per_s. 0 or -errno.
 * Once the process has exited or run another program (execve: the address
 * means nothing there, and the kernel removed the events), bp->exited is set
 * (and bp->execd for an exec) and hits stay final. bp->comm follows the
 * process's name until then. */
int perf_bp_read(struct perf_bp *bp, double interval);
void perf_bp_disarm(struct perf_bp *bp);
/*
 * Does this machine deliver breakpoint hits? Arms a write watchpoint on a
 * variable of ptop's own, writes it ten times and reads the count. Returns 0
 * when all ten were counted, -EOPNOTSUPP when the event opened but counted
 * nothing (seen on VMs whose hypervisor drops debug exceptions), or -errno
 * from perf_event_open.
 */
int perf_bp_selftest(void);
/*
 * What one hit costs the process that takes it, in ns: a write watchpoint on
 * a variable of ptop's own, timed over rounds of writes against the same
 * writes unwatched (the median round). 0, -EOPNOTSUPP when no hits are
 * delivered, or -errno from perf_event_open.
 */
int perf_bp_hit_cost(double *ns);
/* A translatable sentence for an arming error. */
const char *perf_bp_strerror(int err);

/* ---- ELF symbols of mapped files (src/perf/elfsym.c, libelf) ---- */

struct perf_elf_sym {
	const char *name; /* valid during the callback only */
	uint64_t value;	  /* the binary's virtual address */
	uint64_t size;	  /* bytes; 0 when the table does not say */
	bool func, object;
};
/* Called for each defined symbol; a non-zero return stops the walk. */
typedef int (*perf_elf_sym_fn)(void *ctx, const struct perf_elf_sym *s);
/* Walk path's .symtab and .dynsym (thread-local symbols left out). 0, a
 * callback's negative return, -ENOEXEC (not ELF) or -errno from open. */
int perf_elf_symbols(const char *path, perf_elf_sym_fn fn, void *ctx);

struct perf_elf_load {
	uint64_t vaddr, memsz;	 /* the segment in the binary's addresses */
	uint64_t offset, filesz; /* its part in the file */
};
/* path's PT_LOAD segments, at most max into out, *n of them. 0, -ENOEXEC or -errno. */
int perf_elf_loads(const char *path, struct perf_elf_load *out, size_t max, size_t *n);

/* ---- who observes (src/perf/perffd.c) ---- */

/* How many anon_inode:[perf_event] descriptors pid holds; -errno when unreadable. */
int perf_fd_count(const char *root, int pid);

/* ---- the observer: counters and breakpoints into frames (src/perf/observe.c) ---- */

struct frame;
struct observer;

struct observer_opts {
	const char *root;	   /* proc root, NULL for /proc */
	bool counters;		   /* attach counters to the processes shown */
	const char *const *events; /* names; NULL: the hardware defaults */
	int nevents;
	unsigned budget; /* processes with counters at most */
	bool perf_fds;	 /* count other processes' perf_event descriptors */
};

/* Returns 0, or -ENOENT with *bad naming an event libpfm4 does not know. */
int observer_new(const struct observer_opts *o, struct observer **out, const char **bad);
void observer_free(struct observer *ob);

/*
 * Create the counter set now, for an observer made without counters (the viewer
 * does this when its Counters pane is first shown). 0, or perf_counters_new()'s error.
 */
int observer_counters_start(struct observer *ob, const char **bad);

/*
 * Count events[0..n) from now on instead (n 0: the hardware defaults), the
 * names copied: the counter set and ptop's own counters are made anew, so
 * every process starts "counting" again. The new set is made before the old
 * one is closed: on failure the old one counts on. 0, -EINVAL for more than
 * PERF_GROUP_MAX events, or perf_counters_new()'s error (-ENOENT with *bad).
 */
int observer_counters_set(struct observer *ob, const char *const *events, int n, const char **bad);

/* Turn attaching counters and counting perf descriptors on or off for later updates.
 * Counters need the observer to have been created with counters on. */
void observer_set(struct observer *ob, bool counters, bool perf_fds);

/*
 * Arm a breakpoint; 0 or -errno (see perf_bp_strerror), -EEXIST when the
 * process has one with the same address, length and type. spec is resolved
 * in place (addr, len, object, size; cand on a name not found or not unique).
 * The first arming finds whether hits are delivered and what one costs.
 */
int observer_watch(struct observer *ob, struct perf_bp_spec *spec);
/* Disarm breakpoint i (in the order frames list them). */
void observer_unwatch(struct observer *ob, size_t i);
/* How many breakpoints are armed (a new one is armed last). */
size_t observer_nwatches(const struct observer *ob);

struct frame_proc;

/* Mark the start of a frame's build: ptop's own counters are read here and at update. */
void observer_begin(struct observer *ob);

/*
 * Fill f's counter, perf-descriptor and breakpoint fields. f is fresh from
 * sampler_frame() (no record has counters yet); rows point into f->procs: the
 * processes shown, most wanted first (the budget takes the first).
 */
void observer_update(struct observer *ob, struct frame *f, const struct frame_proc *const *rows,
		     size_t n);

#endif
