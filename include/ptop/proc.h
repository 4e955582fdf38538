/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * proc.h: the /proc hot path. Pure parsers for /proc/PID/{stat,statm,status,maps,
 * io,cgroup} and /proc/net/dev, and the reader that enumerates PIDs and keeps
 * their descriptors open.
 *
 * The parsers allocate nothing and copy nothing: text fields are views into
 * the caller's buffer, valid as long as that buffer is. Numbers are read by
 * hand with overflow detection. Every parser returns 0, -EINVAL for input that
 * is malformed or cut short (a stat or statm line without its final newline
 * counts as cut short), or -ERANGE for a number that does not fit; on error
 * *out holds no meaning. None reads past buf + len.
 */
#ifndef PTOP_PROC_H
#define PTOP_PROC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "ptop/util.h"

struct ptop_view {
	const char *p; /* not NUL-terminated */
	size_t n;
};

/* The kernel prints at most 64 bytes of comm in stat (workqueue names included). */
#define PROC_COMM_MAX 64

/* /proc/PID/stat: every field proc(5) lists, in its order (field numbers in comments). */
struct proc_stat {
	int64_t pid;			/* 1 */
	struct ptop_view comm;		/* 2, without the parentheses, raw bytes */
	char state;			/* 3 */
	int64_t ppid, pgrp, session;	/* 4-6 */
	int64_t tty_nr, tpgid;		/* 7-8 */
	uint64_t flags;			/* 9 */
	uint64_t minflt, cminflt;	/* 10-11 */
	uint64_t majflt, cmajflt;	/* 12-13 */
	uint64_t utime, stime;		/* 14-15, clock ticks */
	int64_t cutime, cstime;		/* 16-17, clock ticks */
	int64_t priority, nice;		/* 18-19 */
	int64_t num_threads;		/* 20 */
	int64_t itrealvalue;		/* 21 */
	uint64_t starttime;		/* 22, clock ticks after boot */
	uint64_t vsize;			/* 23, bytes */
	int64_t rss;			/* 24, pages */
	uint64_t rsslim;		/* 25, bytes */
	uint64_t startcode, endcode;	/* 26-27 */
	uint64_t startstack;		/* 28 */
	uint64_t kstkesp, kstkeip;	/* 29-30 */
	uint64_t signal, blocked;	/* 31-32 */
	uint64_t sigignore, sigcatch;	/* 33-34 */
	uint64_t wchan;			/* 35 */
	uint64_t nswap, cnswap;		/* 36-37 */
	int64_t exit_signal;		/* 38 */
	int64_t processor;		/* 39 */
	uint64_t rt_priority, policy;	/* 40-41 */
	uint64_t delayacct_blkio_ticks; /* 42 */
	uint64_t guest_time;		/* 43, clock ticks */
	int64_t cguest_time;		/* 44, clock ticks */
	uint64_t start_data, end_data;	/* 45-46 */
	uint64_t start_brk;		/* 47 */
	uint64_t arg_start, arg_end;	/* 48-49 */
	uint64_t env_start, env_end;	/* 50-51 */
	int64_t exit_code;		/* 52 */
	unsigned nfields; /* fields the line held: >= 24, past 52 from a newer kernel */
};

/* Fields an older kernel may not print are left 0; at least 24 (up to rss) are required. */
#define PROC_STAT_MIN_FIELDS 24
#define PROC_STAT_MAX_FIELDS 52

int proc_parse_stat(const char *buf, size_t len, struct proc_stat *out);

/* /proc/PID/statm, all in pages. */
struct proc_statm {
	uint64_t size, resident, shared, text, lib, data, dt;
};

int proc_parse_statm(const char *buf, size_t len, struct proc_statm *out);

/*
 * /proc/PID/schedstat: the thread-group leader's time on a CPU (ns), time
 * waiting on a run queue (ns) and timeslices run. The run time moves
 * whenever the leader ran, so an unchanged one says its stat did not change.
 */
struct proc_schedstat {
	uint64_t run_ns, wait_ns, slices;
};

int proc_parse_schedstat(const char *buf, size_t len, struct proc_schedstat *out);

/*
 * The kernel's taskstats (generic netlink, family "TASKSTATS"): one task's
 * delay totals, each in ns since it started. cpu_delay_ns is the run-queue
 * wait schedstat's second figure gives too; blkio and swapin are counted only
 * while kernel.task_delayacct is 1.
 */
struct proc_taskstats {
	uint32_t pid;	  /* the task the reply is about */
	uint16_t version; /* struct taskstats' version (TASKSTATS_VERSION) */
	uint64_t cpu_delay_ns, blkio_delay_ns, swapin_delay_ns;
};

/*
 * A reply to CTRL_CMD_GETFAMILY, len bytes of buf: the family's id in *id.
 * 0; -errno where the reply is the kernel's error (-ENOENT: no such family);
 * -EINVAL where it is malformed or has no id. Pure: reads buf only.
 */
int proc_taskstats_parse_family(const void *buf, size_t len, uint16_t *id);

/*
 * A reply to TASKSTATS_CMD_GET, len bytes of buf from family id family: the
 * first message's delays in *out. 0; -errno where it is the kernel's error
 * (-EPERM without CAP_NET_ADMIN, -ESRCH for a task that is gone); -EINVAL
 * where it is malformed, of another family, or its stats are too short to
 * hold the swap-in total. Pure: reads buf only.
 */
int proc_taskstats_parse_reply(const void *buf, size_t len, uint16_t family,
			       struct proc_taskstats *out);

/* A netlink socket to taskstats, kept open across frames (caller-owned). */
struct proc_taskstats_conn;

/*
 * Opens the socket and resolves the family once. 0 with *out set; -EOPNOTSUPP
 * where the kernel has no generic netlink, -ENOENT where it has no taskstats,
 * else the socket's -errno. *out is NULL on failure.
 */
int proc_taskstats_open(struct proc_taskstats_conn **out);

/*
 * One request and its reply: task pid's (a TID: a thread's own, a
 * process's main thread's) delays. 0; -EPERM (or -EACCES) without
 * CAP_NET_ADMIN, -ESRCH where it is gone, -EINVAL for a reply not
 * understood, else the socket's -errno.
 */
int proc_taskstats_get(struct proc_taskstats_conn *c, int pid, struct proc_taskstats *out);

/* Closes c's socket and frees it; NULL is nothing. */
void proc_taskstats_close(struct proc_taskstats_conn *c);

/* Which optional /proc/PID/status lines were present (kernel threads have no Vm*). */
enum proc_status_have {
	PROC_STATUS_VMSIZE = 1u << 0,
	PROC_STATUS_VMRSS = 1u << 1,
	PROC_STATUS_RSSANON = 1u << 2,
	PROC_STATUS_RSSFILE = 1u << 3,
	PROC_STATUS_RSSSHMEM = 1u << 4,
	PROC_STATUS_VMSWAP = 1u << 5,
	PROC_STATUS_CTXT = 1u << 6,
	PROC_STATUS_GROUPS = 1u << 7,
	PROC_STATUS_VMLCK = 1u << 8,
	PROC_STATUS_NSPID = 1u << 9,
};

/* /proc/PID/status: the lines ptop uses. Name, State, Tgid, Pid, PPid, Uid, Gid
 * and Threads are required; the rest are flagged in `have`. */
struct proc_status {
	struct ptop_view name; /* as printed: the kernel escapes '\n' and '\\' here */
	char state;
	int64_t tgid, pid, ppid;
	uint32_t uid[4], gid[4]; /* real, effective, saved, filesystem */
	uint64_t threads;
	uint64_t vm_size, vm_rss;		/* KiB */
	uint64_t rss_anon, rss_file, rss_shmem; /* KiB */
	uint64_t vm_swap;			/* KiB */
	uint64_t vm_lck;			/* KiB: locked (mlock) */
	uint64_t voluntary_ctxt, nonvoluntary_ctxt;
	/* Groups: the supplementary group ids, as the line has them: decimal ids, each below
	 * 2^32, between blanks (checked); ngroups of them */
	struct ptop_view groups;
	unsigned ngroups;
	/* NSpid: its pid in each pid namespace from /proc's down to its own; more than one is a
	 * process below the reader's namespace (a container's) */
	unsigned nspids;
	unsigned have; /* enum proc_status_have bits */
};

int proc_parse_status(const char *buf, size_t len, struct proc_status *out);

/* One line of /proc/PID/maps. */
struct proc_maps_entry {
	uint64_t start, end; /* addresses, [start, end) */
	char perms[4];	     /* "rwxp" or with '-' and 's' */
	uint64_t offset;     /* bytes into the file */
	uint32_t dev_major, dev_minor;
	uint64_t inode;
	struct ptop_view path; /* may be empty; " (deleted)" stripped, see `deleted` */
	bool deleted;
};

/*
 * Parse the line at buf (len bytes available). On success *used is the
 * line's length including its '\n'; the last line may lack the '\n' only if
 * it ends exactly at buf + len.
 */
int proc_parse_maps_line(const char *buf, size_t len, struct proc_maps_entry *out, size_t *used);

/* A file /proc/PID/maps maps, as proc_maps_lib() sums it. */
struct proc_maps_file {
	uint64_t dev; /* major << 32 | minor */
	uint64_t inode;
	uint64_t bytes; /* of all its mappings */
	bool exec;	/* one of them is executable */
};

/*
 * htop's LIB (M_LRS) from the whole of /proc/PID/maps (len bytes at buf): the
 * mapped size of every file (by device and inode; anonymous and special
 * mappings have none) of which some mapping is executable, its other
 * mappings included. files (cap entries, the caller's) is where the files
 * are summed. 0 with *bytes set; -ENODATA for an empty file (a kernel thread
 * has no memory); -ENOSPC when it maps more than cap files (*need says how
 * many to give); -EINVAL a line malformed; -ERANGE a number that does not fit.
 */
int proc_maps_lib(const char *buf, size_t len, struct proc_maps_file *files, size_t cap,
		  size_t *need, uint64_t *bytes);

/* /proc/PID/io (proc(5)): I/O accounting, all in bytes but the syscall counts. */
struct proc_io {
	uint64_t rchar, wchar;		  /* bytes passed to read()/write() and the like */
	uint64_t syscr, syscw;		  /* read and write system calls */
	uint64_t read_bytes, write_bytes; /* bytes fetched from and sent to storage */
	uint64_t cancelled_write_bytes;	  /* written to page cache, then truncated away */
};

/* All seven lines are required once each; a line of an unknown name is skipped. */
int proc_parse_io(const char *buf, size_t len, struct proc_io *out);

enum proc_cgroup_have {
	PROC_CGROUP_V2 = 1u << 0,      /* the "0::path" line of the unified hierarchy */
	PROC_CGROUP_SYSTEMD = 1u << 1, /* a v1 "N:name=systemd:path" line */
};

/* /proc/PID/cgroup: the paths ptop shows, views into the caller's buffer. */
struct proc_cgroup {
	struct ptop_view v2, systemd;
	unsigned have; /* enum proc_cgroup_have bits */
};

/*
 * Every line must be "ID:controllers:/path\n"; -EINVAL for anything else
 * (an empty file included), -ERANGE for an ID that does not fit.
 */
int proc_parse_cgroup(const char *buf, size_t len, struct proc_cgroup *out);
/*
 * The path a process's cgroup is known by: the unified hierarchy's, or on a
 * hybrid system where that is "/", the systemd line's. NULL when it has neither.
 */
const struct ptop_view *proc_cgroup_path(const struct proc_cgroup *cg);
/*
 * The container or systemd unit a cgroup path (n bytes) belongs to, written
 * NUL-terminated into out (cap bytes, cut to fit): "docker:<12 hex>",
 * "podman:...", "containerd:...", "cri-o:...", "container:..." (a 64-hex id
 * under another parent), an "lxc.payload.NAME", else the innermost "*.service"
 * or "*.scope", else a Kubernetes pod's slice. Returns the length; 0 and ""
 * when the path names none (the root cgroup, a bare slice).
 */
size_t proc_cgroup_unit(const char *path, size_t n, char *out, size_t cap);
/*
 * A cgroup path (n bytes) condensed as htop's CCGROUP condenses it, appended to out:
 * each component on its own, system.slice as "[S]" (with a "system-*.slice" under it
 * dropped), machine.slice "[M]", user.slice "[U]" ("[U:UID]" with its "user-UID.slice"),
 * another "NAME.slice" "[NAME]", "lxc.payload.NAME" "[lxc:NAME]", "lxc.monitor.NAME"
 * "[LXC:NAME]", "NAME.service" "NAME" (a user manager's "user@UID.service" dropped), an
 * nspawn machine's "machine-NAME.scope" "[snc:NAME]" ("[SNC:NAME]" for its supervisor),
 * another "NAME.scope" "!NAME", anything else as it is; runs of '/' as one.
 */
struct sbuf;
void proc_cgroup_compress(const char *path, size_t n, struct sbuf *out);

/*
 * One line of a pressure file (/proc/pressure/{cpu,memory,io}, a cgroup's
 * *.pressure): the share of time some (or all) tasks stalled, over the last
 * 10, 60 and 300 seconds, in hundredths of a percent as the kernel prints
 * them ("avg10=1.25": 125), and the total stall time in microseconds.
 */
struct proc_pressure_line {
	uint32_t avg_x100[3];
	uint64_t total_us;
};
struct proc_pressure {
	bool has_full; /* the "full" line: memory and io, and cpu on kernels from 5.13 */
	struct proc_pressure_line some, full;
};

/*
 * A pressure file: a "some" line, then an optional "full" line, each
 * "KIND avg10=I.FF avg60=I.FF avg300=I.FF total=N" with its newline. 0,
 * -EINVAL malformed or cut, -ERANGE a number that does not fit.
 */
int proc_parse_pressure(const char *buf, size_t len, struct proc_pressure *out);

/* One interface of /proc/net/dev. */
#define PROC_NETDEV_NAME 15 /* IFNAMSIZ - 1 */
struct proc_netdev_entry {
	char name[PROC_NETDEV_NAME + 1];
	uint64_t rx_bytes, rx_packets, tx_bytes, tx_packets;
};

/*
 * /proc/net/dev: two heading lines, then the interfaces, into out (room for
 * cap); *n is how many. 0, -EINVAL malformed or cut, -ERANGE a number that
 * does not fit, -ENOSPC more than cap interfaces (*n of them are in out).
 */
int proc_parse_netdev(const char *buf, size_t len, struct proc_netdev_entry *out, size_t cap,
		      size_t *n);

/*
 * /proc/PID/limits: the soft limit of open files, from its "Max open files"
 * line, into *soft (UINT64_MAX for "unlimited"). 0; -EINVAL when the line is
 * missing, twice, cut or malformed; -ERANGE a number that does not fit.
 */
int proc_parse_limits_nofile(const char *buf, size_t len, uint64_t *soft);

/* /proc/PID/smaps_rollup's sizes (KiB): the sum of its mappings' lines of the same names. */
struct proc_rollup {
	uint64_t pss_kb;      /* resident, each page divided among the processes that map it */
	uint64_t pss_anon_kb; /* the same, of anonymous, file and shmem pages (Pss_Anon, */
	uint64_t pss_file_kb; /* Pss_File, Pss_Shmem; Linux 5.9 on: PROC_ROLLUP_SPLIT) */
	uint64_t pss_shmem_kb;
	uint64_t private_clean_kb; /* resident and mapped by it alone (PROC_ROLLUP_PRIVATE) */
	uint64_t private_dirty_kb;
	uint64_t swap_pss_kb; /* swapped, divided as Pss (Linux 4.3 on: PROC_ROLLUP_SWAPPSS) */
	uint64_t rss_kb;      /* resident, whole (PROC_ROLLUP_RSS) */
	unsigned have;	      /* PROC_ROLLUP_*: which lines besides Pss were there */
};
#define PROC_ROLLUP_SPLIT 0x1u	 /* Pss_Anon, Pss_File and Pss_Shmem, all three */
#define PROC_ROLLUP_PRIVATE 0x2u /* Private_Clean and Private_Dirty, both */
#define PROC_ROLLUP_SWAPPSS 0x4u /* SwapPss */
#define PROC_ROLLUP_RSS 0x8u	 /* Rss */

/*
 * /proc/PID/smaps_rollup: its heading line, then "Name:  N kB" lines; Pss is
 * required, the other members taken when present (a member whose line is
 * missing is 0, and have says which are there), the other lines skipped. 0;
 * -ENODATA for an empty file (a kernel thread has no memory to roll up);
 * -EINVAL when malformed, cut, without Pss or with a line twice; -ERANGE a
 * number that does not fit.
 */
int proc_parse_rollup(const char *buf, size_t len, struct proc_rollup *out);

/*
 * /proc/PID/oom_score or oom_score_adj: one decimal number, a '-' before it
 * allowed, and a newline. 0 with *out set; -EINVAL when empty, cut or
 * anything else; -ERANGE a number beyond an int.
 */
int proc_parse_oom(const char *buf, size_t len, int *out);

/* The longest kernel symbol name /proc/PID/wchan may hold (the kernel's KSYM_NAME_LEN). */
#define PROC_WCHAN_MAX 512

/*
 * /proc/PID/wchan: the kernel function a sleeping task waits in, with no
 * newline, or "0" when it runs, has no symbol or the reader may not look
 * (the kernel's ptrace check). 0 with *name and *n set to the symbol; *n 0
 * for "0". -EINVAL when empty, or a byte outside what a symbol name has
 * (letters, digits, '_', '.', '$'); -ERANGE longer than PROC_WCHAN_MAX - 1.
 */
int proc_parse_wchan(const char *buf, size_t len, const char **name, size_t *n);

/*
 * /proc/PID/autogroup: "/autogroup-ID nice N\n", the scheduler's autogroup
 * of the process's session and that group's nice value. 0 with *id and
 * *nice set; -ENODATA when empty (the process is in no autogroup: the root
 * task group's, or autogroups are off); -EINVAL anything else than that one
 * line; -ERANGE an id below 0 or beyond int64_t, a nice beyond -20..19.
 */
int proc_parse_autogroup(const char *buf, size_t len, int64_t *id, int *nice);

/*
 * /proc/PID/attr/current: the security module's label of the task, as the
 * module prints it ("unconfined\n", "system_u:system_r:init_t:s0\0"): 0 with
 * *label and *n the label without the newline or NULs that end it;
 * -ENODATA when nothing is left; -EINVAL a newline or NUL inside it.
 */
int proc_parse_secattr(const char *buf, size_t len, const char **label, size_t *n);

/*
 * /proc/PID/loginuid: the uid the audit subsystem took at login, in decimal
 * with no newline (4294967295: none set). 0 with *uid set; -EINVAL when
 * empty or anything but digits; -ERANGE beyond 32 bits.
 */
int proc_parse_loginuid(const char *buf, size_t len, uint32_t *uid);

/*
 * A CPU list as sysfs prints it ("0-3,8,10-11\n"; "\n" for none), as a node's
 * cpulist gives its CPUs: each CPU below max set in the bitmap set (max / 8
 * bytes, rounded up, zeroed by the caller). 0; -EINVAL when it is not such a
 * list (the newline missing or inside it, a range backwards); -ERANGE a CPU
 * of max or more.
 */
int proc_parse_cpulist(const char *buf, size_t len, uint8_t *set, unsigned max);

/*
 * The target of a /proc/PID/ns/NAME link as readlink gives it ("net:[4026531840]"): 0 with
 * *ino the inode number; -EINVAL anything else (no "[", no digits, bytes after the "]");
 * -ERANGE a number beyond uint64_t, or 0 (never an inode).
 */
int proc_parse_ns_link(const char *buf, size_t len, uint64_t *ino);

/* ---- The reader: PID enumeration and held descriptors ---- */

enum proc_file {
	PROC_FILE_STAT,
	PROC_FILE_STATM,
	PROC_FILE_STATUS,
	PROC_FILE_IO,	  /* mode 0400: another user's is refused without privilege */
	PROC_FILE_CGROUP, /* read for the CGROUP and CONTAINER columns */
	PROC_FILE_SCHEDSTAT,
	PROC_FILE_OOM_SCORE, /* the OOM killer's badness (oom_score): the OOMs column */
	PROC_FILE_OOM_ADJ,   /* its adjustment (oom_score_adj): the OOMa column */
	PROC_FILE_WCHAN,     /* what it waits in (wchan): the WCHAN column */
	PROC_FILE_AUTOGROUP, /* its session's autogroup (autogroup): AGID, AGNI */
	PROC_FILE_SECATTR,   /* its security label (attr/current): SECATTR */
	PROC_FILE_LOGINUID,  /* the uid it logged in as (loginuid): LOGID */
	PROC_FILE_ENVIRON,   /* its environment (environ): ENVIRON */
	PROC_FILE_ROLLUP,    /* smaps_rollup, a walk of its page tables: PSS ... PSSWP */
	PROC_NFILES
};

/* What a frame needs read, as bits of (1 << enum proc_file). */
#define PROC_NEED(f) (1u << (f))

/* A live PID's persistent state; owned by the reader's slot table. */
struct proc_slot {
	int pid;	      /* 0: free; a TID for a thread's slot */
	int tgid;	      /* a thread's process; 0 for a process's slot */
	int fd[PROC_NFILES];  /* held descriptor, or -1 */
	uint64_t start_ticks; /* identifies this process among users of the pid */
	uint64_t prev_ticks;  /* utime + stime at the previous frame */
	uid_t uid;	      /* effective uid: owner of /proc/PID when first seen,
				      * then from status (see sampler_frame) */
	uint64_t stat_sig;    /* hash of the stat fields that move when it runs */
	unsigned gen;	      /* the scan that last saw it */
	unsigned id;	      /* dense, below proc_reader_stats().ids; kept while recycled */
	bool have_prev;	      /* prev_ticks is from an earlier frame of this process */
	bool quiet;	      /* did not run since its uid was last read from status
			       * (known from its run time; see SAMPLER_UID_RECHECK) */
	bool reopened;	      /* a held descriptor outlived its process and was opened
				      * again (the PID may be reused); the caller clears it */
	bool has_clock;	      /* clock is the PID's process CPU clock */
	clockid_t clock;      /* see proc_reader_runtime() */
	uint64_t io_prev_read, io_prev_write; /* io's read_bytes, write_bytes at io_at */
	double io_at;	 /* CLOCK_MONOTONIC seconds io was last read; 0: never, for this process */
	bool io_refused; /* io was refused (another user's): tried again only now and then */
	struct proc_slot *next_free; /* the reader's free list; not for callers */
};

struct proc_reader;

/*
 * Descriptors a reader leaves to the rest of ptop: 512 for perf events (a
 * counter set's PERF_FDS_MAX) and 256 for the terminal, pipes and libraries.
 */
#define PROC_FD_RESERVE 768

/*
 * Open a reader over root (NULL: "/proc"). It raises RLIMIT_NOFILE's soft
 * limit to the hard one and keeps descriptors within what is left of it
 * after PROC_FD_RESERVE.
 * Returns 0, or -errno when root cannot be opened.
 */
int proc_reader_new(const char *root, struct proc_reader **out);
void proc_reader_free(struct proc_reader *r);

/*
 * Begin a scan: rewind the PID enumeration. Then call proc_reader_next()
 * until it returns 0 (end) or a negative errno (enumeration failed).
 * A return of 1 gives a slot (created if the PID is new; then *is_new).
 * When the root is the proc of ptop's pid namespace, the scan reads of the
 * root only what may have changed since the last listing: PIDs are
 * allocated upwards from the namespace's last PID (ns_last_pid), so when it
 * did not go back (wrap), the scan walks the last listing up to the last PID
 * that had settled (PROC_LIST_SETTLE_S) and lists the root only from there
 * to the last PID now (a seek to that PID's position, which the kernel's own
 * positions tell), or walks the listing alone when no PID was allocated
 * since. The same slots in the same order (ascending PIDs) as a listing from
 * the start, which is made at least every PROC_RELIST_S seconds.
 * A process gone since is then found gone by the caller's first read of it
 * (-ESRCH, and proc_reader_drop()) rather than left out of the listing.
 */
int proc_reader_begin(struct proc_reader *r);
/*
 * A listing stands in for later scans at most this many seconds: a PID given
 * without moving ns_last_pid (clone3() with set_tid, as CRIU restores a
 * process) shows within that. Time, not scans: 16 scans were 48 s at -d 3.
 */
#define PROC_RELIST_S 4.0
/* Seconds after the last PID was allocated before its process surely shows in /proc. */
#define PROC_LIST_SETTLE_S 0.25
int proc_reader_next(struct proc_reader *r, struct proc_slot **slot, bool *is_new);
/* Drop every slot (process or thread) the current scan did not see; returns processes dropped. */
unsigned proc_reader_end(struct proc_reader *r);

/*
 * Read file f of slot's process into buf (cap bytes), through a held
 * descriptor where the budget allows (pread at offset 0), else open/read/close.
 * A held descriptor whose process is gone is closed, with the slot's others,
 * and the file opened afresh once: the PID may have a new process behind it,
 * which the caller tells by its start time.
 * Returns the length read, -ESRCH when the process is gone (ENOENT and ESRCH
 * both mean that), -EFBIG when the file did not fit in cap, or -errno.
 */
ssize_t proc_reader_read(struct proc_reader *r, struct proc_slot *slot, enum proc_file f, char *buf,
			 size_t cap);
/*
 * The CPU time (ns) all of slot's process's threads have run, dead threads
 * included: its process CPU clock (clock_getcpuclockid(), looked up once per
 * slot), read without a descriptor or any text. It moves whenever one of
 * the threads runs. The clock is found by PID in ptop's pid namespace, so
 * only a reader whose root is that namespace's proc has it: -EOPNOTSUPP
 * otherwise. -ESRCH when no process has the PID. It follows the PID, not the
 * process: a reused PID gives the new process's time.
 */
int proc_reader_runtime(struct proc_reader *r, struct proc_slot *slot, uint64_t *ns);
/*
 * Read file `name` ("stat", "cmdline", ...) of pid, or of its thread tid when
 * tid > 0, with open/read/close. Returns the length, -ESRCH when gone, -EFBIG
 * when it did not fit, or -errno.
 */
ssize_t proc_reader_read_file(struct proc_reader *r, int pid, int tid, const char *name, char *buf,
			      size_t cap);
/*
 * The target of the symbolic link `name` ("exe", "cwd") of pid, or of its
 * thread tid when tid > 0, into buf (cap bytes, no NUL added), as the kernel
 * gives it (a deleted file's path ends in " (deleted)"). Returns the length,
 * -EACCES or -EPERM when the kernel's ptrace check refuses (another user's
 * process, without privilege), -ENOENT when there is none (a kernel thread's
 * exe) or the process is gone, -EFBIG when it did not fit, or -errno.
 */
ssize_t proc_reader_readlink(struct proc_reader *r, int pid, int tid, const char *name, char *buf,
			     size_t cap);
/*
 * The I/O priority of task tid (a process's: its main thread's) as
 * ioprio_get(IOPRIO_WHO_PROCESS) gives it (see FRAME_IOPRIO_CLASS). 0 with
 * *prio set; -EOPNOTSUPP when the proc root is not of ptop's own pid
 * namespace (the call takes ptop's PIDs), -ESRCH when it is gone, or -errno.
 */
int proc_reader_ioprio(struct proc_reader *r, int tid, int *prio);

/*
 * Call fn for every thread id of pid (from /proc/PID/task), until fn returns
 * non-zero (which is returned). Returns 0, or -ESRCH when the process is gone.
 */
int proc_reader_tasks(struct proc_reader *r, int pid, int (*fn)(void *ctx, int tid), void *ctx);
/* The same without a reader, for a proc root (NULL: /proc); -errno when root cannot be opened. */
int proc_tasks(const char *root, int pid, int (*fn)(void *ctx, int tid), void *ctx);

/*
 * Call fn for every all-digits entry (a PID or TID) of the directory dirfd (a
 * proc root or a task directory) from where its offset is, reading it with
 * getdents64 into buf (cap bytes, the caller's so threads can share none),
 * until fn returns non-zero (which is returned). *calls (may be NULL) counts
 * the getdents64 calls. Returns 0 at the end, or -errno.
 */
int proc_dir_ids(int dirfd, char *buf, size_t cap, int (*fn)(void *ctx, int id), void *ctx,
		 uint64_t *calls);

/*
 * Whether the proc mounted at root is the one of ptop's own pid namespace,
 * where the PIDs it shows are the numbers the kernel's calls (kill,
 * setpriority, perf_event_open) and BPF's pid_nr_ns() take for the same
 * processes. False when it cannot be told.
 */
bool proc_own_pid_ns(const char *root);

/* Room for any path proc_path() makes. */
#define PROC_PATH_MAX 48

/*
 * "PID/name", or "PID/task/TID/name" when tid is not 0, NUL-terminated,
 * relative to a proc root (for openat). name is a /proc file name ("stat").
 */
void proc_path(char out[PROC_PATH_MAX], unsigned pid, unsigned tid, const char *name);

/* Refresh slot->uid from the owner of /proc/PID. 0, -ESRCH when gone, or -errno. */
int proc_reader_restat(struct proc_reader *r, struct proc_slot *slot);
/*
 * Whether the owner of /proc/PID is the process's effective uid: on a proc
 * file system the kernel gives that directory the effective uid at each stat,
 * even for a process that is not dumpable (whose files are root's). Not in a
 * copy (test fixtures), where status tells.
 */
bool proc_reader_owner_is_euid(const struct proc_reader *r);
/*
 * The slot of thread tid of process tgid, for reading its task/TID files with
 * held descriptors (tgid's slot is not touched). Created when new (then
 * *is_new); kept while scans see it, like a process's. Returns 0.
 */
int proc_reader_task(struct proc_reader *r, int tgid, int tid, struct proc_slot **slot,
		     bool *is_new);
/*
 * The slot of pid seen by the current (or last) scan, or NULL when that scan
 * did not list it.
 */
struct proc_slot *proc_reader_find(struct proc_reader *r, int pid);
/* Forget slot (its process is gone): close its descriptors, free it. */
void proc_reader_drop(struct proc_reader *r, struct proc_slot *slot);

struct proc_reader_stats {
	unsigned slots;	    /* live PIDs */
	unsigned fds_held;  /* descriptors held open */
	unsigned fd_budget; /* descriptors the reader may hold */
	unsigned fallback;  /* reads done with open/read/close in the last scan */
	unsigned ids;	    /* every slot's id is below this */
	unsigned relisted;  /* scans that read the root's PID directories from the start */
	unsigned reused;    /* scans that walked the last listing: no PID allocated since */
	unsigned tails;	    /* scans that listed the root past the last listing's settled PIDs */
};
void proc_reader_stats(const struct proc_reader *r, struct proc_reader_stats *st);

/* ---- one process on request (src/proc/inspect.c) ---- */

struct sbuf;

/*
 * Append the environment of process pid, as the kernel keeps it ("NAME=value"
 * strings each ended by a NUL), to *out; root is a proc root (NULL: /proc).
 * Returns 0 (nothing appended for a kernel thread), -ESRCH when the process is
 * gone, -EACCES when it is another user's and ptop lacks the privilege, or -errno.
 */
int proc_environ(const char *root, int pid, struct sbuf *out);

/*
 * Append the whole of file name ("cmdline", "smaps_rollup", ...) of process
 * pid, or of its thread tid when tid > 0, to *out; root as above. Returns 0,
 * -ESRCH when gone, -EACCES when refused, or -errno. For files read on
 * request or once in a process's life, not on the held-descriptor path.
 */
int proc_read_all(const char *root, int pid, int tid, const char *name, struct sbuf *out);

/* ---- what the process-exporter families need beyond a row (src/proc/facts.c) ---- */

/* Thread states as process-exporter counts them. */
enum proc_tstate {
	PROC_TS_RUNNING,
	PROC_TS_SLEEPING,
	PROC_TS_WAITING,
	PROC_TS_ZOMBIE,
	PROC_TS_OTHER,
	PROC_TS_COUNT
};

/* What to read (bits). */
#define PROC_FACT_FDS 0x1u     /* open descriptors and their soft limit */
#define PROC_FACT_ROLLUP 0x2u  /* smaps_rollup: costs a walk of the page tables */
#define PROC_FACT_THREADS 0x4u /* each thread's state (one stat read per thread) */
#define PROC_FACT_WCHAN 0x8u   /* with THREADS: each thread's wchan (one more read per thread) */
/* with THREADS: a process of several threads, each thread's counts (its status and io too) */
#define PROC_FACT_THREAD_COUNTS 0x10u

/* One thread's counts, as its stat, status and io say (PROC_FACT_THREAD_COUNTS). */
struct proc_thread {
	int tid;
	uint8_t comm_len;
	char comm[PROC_COMM_MAX];
	uint64_t start;		 /* clock ticks after boot */
	uint64_t utime, stime;	 /* clock ticks */
	uint64_t minflt, majflt; /* its own */
	uint64_t vctx, nvctx;	 /* context switches, voluntary and not */
	bool has_io;		 /* io was readable */
	uint64_t read_bytes, write_bytes;
};

/* What proc_facts_read() fills beyond *out, kept by the caller across calls. */
struct proc_facts_bufs {
	struct sbuf scratch; /* a file's text */
	struct sbuf names;   /* the threads' wchans, NUL-terminated */
	struct proc_thread *thr;
	size_t nthr, thr_cap;
};

struct proc_facts {
	bool has_fds, has_limit, has_rollup, has_states, has_wchan; /* what was read */
	unsigned fds;
	uint64_t fd_limit; /* UINT64_MAX: unlimited */
	struct proc_rollup rollup;
	unsigned states[PROC_TS_COUNT];
	/* the threads' wchans: nwchan NUL-terminated names at wchan_off of the names given */
	size_t wchan_off;
	unsigned nwchan;
	const char *wchans; /* set by the caller once the names are all read: the first name */
	/* its threads' counts: nthr at thr_off of the bufs' thr (a process of several threads) */
	size_t thr_off, nthr;
	const struct proc_thread *thr; /* set by the caller as wchans */
	unsigned failed;	       /* parts asked for that could not be read */
};

/* Which of process-exporter's states a kernel state letter is. */
enum proc_tstate proc_tstate_of(char state);

/*
 * Read what `what` asks of process pid under root (NULL: /proc) into *out,
 * whose other members are left as they are (zeroed by the caller, or filled
 * by a source: pipeline_facts()): the threads' states when it has more than
 * one thread (else its state, given, counts once), with PROC_FACT_WCHAN the
 * function each thread waits in (appended to b->names), with
 * PROC_FACT_THREAD_COUNTS each thread's counts (appended to b->thr); each
 * of the three parts without the others reads only what it needs. Each part
 * that cannot be read (gone, refused) is left without its has_ flag, and the
 * call goes on; returns how many parts failed, added to out->failed. b is
 * the caller's, reset by it for each frame.
 */
int proc_facts_read(const char *root, int pid, int64_t threads, char state, unsigned what,
		    struct proc_facts *out, struct proc_facts_bufs *b);

/* One open file of a process. */
struct proc_fd {
	int fd;
	char type[8];	/* REG, DIR, CHR, BLK, FIFO, SOCK, LINK, a_inode, or ? */
	bool has_info;	/* pos and flags were read from fdinfo */
	uint64_t pos;	/* bytes */
	unsigned flags; /* the O_* flags fdinfo shows */
	char *path;	/* the link's target ("socket:[1234]" for a socket); malloc'd */
};

/*
 * The open files of process pid, by descriptor number, into a malloc'd *out
 * of *n entries (free with proc_fds_free()). A descriptor closed while being
 * read is left out. Returns 0, -ESRCH when the process is gone, -EACCES when
 * ptop may not look (another user's process), or -errno; *out is NULL then.
 */
int proc_fds(const char *root, int pid, struct proc_fd **out, size_t *n);
/* Free what proc_fds() returned. */
void proc_fds_free(struct proc_fd *fds, size_t n);

/* A cgroup's pressure, as proc_cgroup_pressure() found it. */
#define PROC_CGROUP_PSI 3 /* cpu, memory, io: enum psi_resource's order */
struct proc_cgroup_psi {
	char path[1024]; /* the cgroup, as the unified line of /proc/PID/cgroup names it */
	char dir[1280];	 /* where its *.pressure files were looked for */
	bool hybrid;	 /* the unified hierarchy is the "unified" directory of a v1 tree */
	bool off;	 /* its cgroup.pressure says 0: PSI off here, the files hidden */
	/* each file's: 0, or -errno: -ENOENT no such file (a kernel without PSI, or
	 * off), -EOPNOTSUPP PSI off for the whole kernel (booted with psi=0) */
	int error[PROC_CGROUP_PSI];
	struct proc_pressure res[PROC_CGROUP_PSI];
};

/*
 * The pressure of process pid's cgroup (atop shows it per cgroup): the
 * cgroup from root's (NULL: /proc) PID/cgroup unified line, its cpu.pressure,
 * memory.pressure and io.pressure under the unified hierarchy, which is
 * cgroup_root (NULL: /sys/fs/cgroup) when that is a cgroup2 mount, else its
 * "unified" directory (a hybrid machine), and whether its cgroup.pressure
 * turned PSI off there (Linux 6.5 on). Returns 0 (each file's own error in
 * out->error), -ESRCH when the process is gone, -ENOENT when it has no unified
 * line (cgroup v1 only), -ENODEV when there is no unified hierarchy under
 * cgroup_root, -EINVAL for a cgroup file the parser refuses, or -errno.
 */
int proc_cgroup_pressure(const char *root, const char *cgroup_root, int pid,
			 struct proc_cgroup_psi *out);

/*
 * Where the unified hierarchy is under cgroup_root (NULL: /sys/fs/cgroup):
 * cgroup_root itself when it is a cgroup2 mount, else its "unified"
 * directory (a hybrid machine, *hybrid set), written into out (cap bytes).
 * 0, -ENODEV when neither is a cgroup2 mount, -ENAMETOOLONG.
 */
int proc_cgroup_mount(const char *cgroup_root, char *out, size_t cap, bool *hybrid);
/*
 * The cpu.pressure, memory.pressure and io.pressure files of the cgroup
 * directory dir into res[], each with its error[] as proc_cgroup_psi's
 * (0; -ENOENT, -EOPNOTSUPP, -EFBIG, or the parser's -EINVAL and -ERANGE);
 * res[r] is zero where error[r] is not.
 */
void proc_cgroup_dir_pressure(const char *dir, int error[PROC_CGROUP_PSI],
			      struct proc_pressure res[PROC_CGROUP_PSI]);

#endif
