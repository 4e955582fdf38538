// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bpfsrc.c: the BPF frame source. Loads tasks.bpf.c (embedded as a libbpf
 * skeleton) and keeps only descriptors: the task iterator's link and, where
 * the kernel has the open-coded task iterator, the walk program and its
 * records map, mapped read-only; the exit hook's links and maps, its ring
 * buffer drained by bpfsrc_exits(). Each frame runs the walk (BPF_PROG_TEST_RUN)
 * and reads the records in place, or reads one pass of the same records
 * from an iterator made from the link; then does what /proc does to the raw
 * fields: group CPU times summed and scaled, state letters, uids through
 * /proc/self/uid_map, start times offset as in ptop's time namespace. Touches
 * bpf(2) through libbpf, and /proc/self/uid_map and /proc/self/timens_offsets once.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bpfsrc.h"
#include "cgroupid.h"
#include "../proc/num.h"

static const char *skip_blank(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

int bpfsrc_parse_boottime(const char *buf, size_t len, int64_t *ns)
{
	const char *p = buf, *end = buf + len;

	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		const char *q;
		int64_t sec;
		uint64_t nsec;
		int err;

		if (!eol)
			eol = end;
		q = skip_blank(p, eol);
		p = eol + 1;
		/* "boottime   1000000         0": the clock, seconds (signed), nanoseconds */
		if (eol - q < 8 || memcmp(q, "boottime", 8) ||
		    (eol - q > 8 && q[8] != ' ' && q[8] != '\t'))
			continue;
		q = skip_blank(q + 8, eol);
		err = num_s64(&q, eol, &sec);
		if (err)
			return err;
		q = skip_blank(q, eol);
		if (num_u64(&q, eol, &nsec) || nsec >= 1000000000u || skip_blank(q, eol) != eol)
			return -EINVAL;
		if (sec > INT64_MAX / 1000000000 - 1 || sec < -(INT64_MAX / 1000000000 - 1))
			return -ERANGE;
		*ns = sec * 1000000000 + (int64_t)nsec;
		return 0;
	}
	return -ENOENT;
}

#if HAVE_BPF
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "tasks.h"
#include "tasks.skel.h"

#define UID_EXTENTS 340 /* the kernel's limit on uid_map lines */

struct uid_extent {
	uint32_t first, lower, count;
};

/* A row's run time and I/O at the previous frame, in ascending pid order. */
struct tick {
	int pid;
	uint64_t start;
	uint64_t ns;		    /* its run time: what %CPU is taken from */
	uint64_t io_read, io_write; /* bytes from and to storage */
};

/* A process's CPU (ns) and I/O summed over its live threads. */
struct group {
	uint64_t ut, st, rt;
	uint64_t min_flt, maj_flt;
	struct ptop_io io;
	uint32_t first; /* its first thread's index in recs, 1-based; 0: none */
};

/*
 * What the loader hands over: the iterator's link, the walk's program and
 * maps, the exit hook's two links, ring buffer, lost counts and kept exits; each
 * -1 when absent.
 */
enum {
	FD_LINK,
	FD_WALK,
	FD_RECORDS,
	FD_RECORDS_X,
	FD_NAMES,
	FD_DELTA, /* the delta pass, its slots, their names and the switch hook's link */
	FD_PROCS,
	FD_PNAMES,
	FD_SWITCH,
	FD_EXIT,
	FD_FREE,
	FD_RING,
	FD_LOST,
	FD_STASH,
	NFDS
};

/*
 * Passes in which the delta reads every process in full at least once, a
 * slice of them each pass: what no hook marks (a change another process
 * makes to a process's priority by sched_setattr(), say) shows within that
 * many frames.
 */
#define DELTA_CHECK_EVERY 64

/*
 * The exit hook's ring buffer: 512 KiB, 3,276 records of 160 bytes (struct
 * ptop_exit and the ring's 8-byte header), as many exits a frame: 1,092 a
 * second at the default 3 s. A storm past it loses records, not accounting
 * (the kernel counts their CPU). Its pages are in the reader's RSS from the
 * mapping on, twice (libbpf maps the data twice, for records that wrap):
 * 1 MiB, which is why it is no bigger and mapped only at the first drain.
 */
#define EXIT_RING (1u << 19)

/*
 * A kept exit whose leader was not freed this long after (ns) is taken from
 * the hash as it stood at the exit: a zombie its parent has not reaped (its
 * row is still there), or one of the frees this kernel holds back for minutes.
 */
#define EXIT_LATE 5000000000ull

/* A mapped part of one of the walk's maps. */
struct mapped {
	const void *at; /* NULL: not mapped */
	size_t len;
};

/*
 * The switch hook's calibration: round trips of a byte between ptop and a
 * child through two pipes (two context switches or more each, on the hook's
 * hot path, as on a machine that switches a lot, where its cost matters).
 */
#define SWITCH_CAL_TRIPS 1000

/* What one run of the delta's switch hook costs (bpfsrc_switch_cost()). */
struct switch_cal {
	int err;       /* 0, or why there is no figure */
	double run_ns; /* the figure, once err is 0 */
};

struct bpfsrc {
	int fd[NFDS];
	size_t map_cap;		       /* records the walk's maps hold; 0: no walk */
	struct mapped map, names;      /* the first records and kernel threads' names */
	struct mapped xmap;	       /* the rest of the first records, when asked (want) */
	bool walked;		       /* this frame's records are the walk's */
	bool want_delta;	       /* the delta pass asked for (bpfsrc_open()) */
	size_t delta_cap;	       /* processes the delta's slots hold; 0: no delta */
	struct mapped slots, pnames;   /* the delta's slots in use and their names */
	bool delta_frame;	       /* this frame's records are the delta's */
	int delta_err;		       /* why there is no delta pass: 0, or -errno */
	struct bpfsrc_stats stats;     /* what the last frame did */
	const struct ptop_task **recs; /* this frame's records: ascending pid with threads shown */
	uint32_t *next; /* per record: its process's next thread's, 1-based; 0 none */
	size_t nrecs, rcap;
	long hz;	   /* the last frame's clock ticks per second */
	bool io;	   /* the last frame's records have their I/O */
	bool side;	   /* ... their faults and statm's segments (PTOP_WANT_SIDE) */
	bool thread_facts; /* ... are of every task: threads' states and counts in groups */
	struct uid_extent uids[UID_EXTENTS];
	unsigned nuids;
	uint32_t overflow_uid;
	uint64_t boottime_ns; /* ptop's time namespace's boot time offset, as two's complement */
	char *buf;	      /* one pass of records; capacity kept */
	size_t cap;
	const struct ptop_task **leaders; /* thread-group leaders, ascending tgid */
	struct group *groups;		  /* per leader */
	size_t nleaders, lcap;
	struct frame_proc *procs; /* -H: the process rows threads take their shared fields from */
	size_t pcap;
	struct tick *prev, *cur;
	size_t nprev, ncur, tcap;
	size_t at;		       /* where in prev the last row was looked up */
	bool threads;		       /* the rows of prev are threads */
	bool user_threads;	       /* ... or processes, then their other threads */
	bool io_prev;		       /* the rows of prev have their I/O read */
	struct cgroup_ids *cgroup_ids; /* NULL: not a cgroup v2 only system */
	struct ring_buffer *ring;      /* the exit hook's records, once drained; NULL before */
	int exits_err;		       /* why there is no hook: -errno, 0 with one */
	struct ptop_exit *xs;	       /* one drain's records; capacity kept */
	size_t nxs, xcap;
	struct ptop_exit_key *keys; /* the kept exits' keys, for taking the late ones */
	size_t kcap;
	struct ptop_exit_lost lost; /* the lost counts at the last drain */
	/* what the exit hook's programs cost (bpfsrc_hook_cost): the BPF_ENABLE_STATS
	 * descriptor (-1 before the first look, -2 refused), the programs, the last totals */
	int stats_fd;
	int prog_fd[2];
	uint64_t hook_ns, hook_runs;
	struct switch_cal cal; /* what one run of the delta's switch hook costs */
	uint32_t spin;	       /* PTOP_TEST_SWITCH_SPIN's loop turns in the switch hook */
};

/* What the loader needs to know: room in the walk's maps, the exit hook's ring and pid ns. */
struct load_opts {
	size_t cap;	   /* records the walk's maps hold; 0: no walk */
	size_t dcap;	   /* processes the delta's slots hold; 0: no delta */
	uint32_t pid_max;  /* the delta's bitmap: one bit per pid below it */
	uint32_t ring;	   /* the exit hook's ring buffer, bytes; 0: no hook */
	uint32_t ns_level; /* the reader's pid namespace: its depth */
	uint32_t ns_inum;  /* ... and inode number */
	uint32_t spin;	   /* the switch hook made heavier (PTOP_TEST_SWITCH_SPIN): loop turns */
};

/* Why parts did not load: 0 where they did, -errno (-ENOENT: not asked for). */
struct load_errs {
	int exits, delta;
};

/* What the loading child sends back before the descriptors. */
struct load_reply {
	int err;       /* 0, or why nothing loaded */
	int exits_err; /* 0, or why the exit hook is not there */
	int delta_err; /* 0, or why the delta pass is not there */
	unsigned mask; /* which of fd[] follow, in index order */
};

static int quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	return 0; /* nothing in the sampler prints: the failure comes back as -errno */
}

static uint32_t read_u32_file(const char *path, uint32_t dflt)
{
	char buf[32];
	const char *p = buf;
	uint64_t v;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return dflt;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n <= 0 || num_u64(&p, buf + n, &v) || v > UINT32_MAX)
		return dflt;
	return (uint32_t)v;
}

/* from_kuid()'s map: "first lower count" lines of the reader's user namespace. */
static void read_uid_map(struct bpfsrc *b)
{
	char buf[16384];
	const char *p = buf, *end;
	ssize_t n;
	int fd = open("/proc/self/uid_map", O_RDONLY | O_CLOEXEC);

	b->overflow_uid = read_u32_file("/proc/sys/kernel/overflowuid", 65534);
	b->nuids = 0;
	if (fd < 0)
		goto identity;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n <= 0)
		goto identity;
	end = buf + n;
	while (p < end && b->nuids < UID_EXTENTS) {
		uint64_t v[3];
		int i;

		for (i = 0; i < 3; i++) {
			p = skip_blank(p, end);
			if (num_u64(&p, end, &v[i]) || v[i] > UINT32_MAX)
				break;
		}
		if (i == 3)
			b->uids[b->nuids++] =
			    (struct uid_extent){(uint32_t)v[0], (uint32_t)v[1], (uint32_t)v[2]};
		while (p < end && *p++ != '\n')
			;
	}
	if (b->nuids)
		return;
identity:
	b->uids[0] = (struct uid_extent){0, 0, UINT32_MAX};
	b->nuids = 1;
}

/*
 * The boot time offset of ptop's time namespace: /proc/PID/stat adds it to
 * start times (timens_add_boottime_ns() of the reader's namespace), BPF
 * reads the task's raw start_boottime. The file shows the namespace ptop's
 * children get, which is ptop's own since its exec. No file (a kernel
 * without CONFIG_TIME_NS): no offset. 0, or -EBADMSG when it cannot be read.
 */
static int read_boottime(struct bpfsrc *b)
{
	char buf[256];
	int64_t ns;
	ssize_t n;
	int fd = open("/proc/self/timens_offsets", O_RDONLY | O_CLOEXEC);

	b->boottime_ns = 0;
	if (fd < 0)
		return errno == ENOENT ? 0 : -EBADMSG;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n < 0 || bpfsrc_parse_boottime(buf, (size_t)n, &ns))
		return -EBADMSG;
	b->boottime_ns = (uint64_t)ns;
	return 0;
}

static uid_t map_uid(const struct bpfsrc *b, uint32_t kuid)
{
	for (unsigned i = 0; i < b->nuids; i++)
		if (kuid >= b->uids[i].lower && kuid - b->uids[i].lower < b->uids[i].count)
			return b->uids[i].first + (kuid - b->uids[i].lower);
	return b->overflow_uid;
}

/* Room for tasks in the walk's maps: twice as many, rounded up to 1024, at least 4096. */
static size_t room_for(size_t tasks)
{
	return tasks * 2 > 4096 ? (tasks * 2 + 1023) / 1024 * 1024 : 4096;
}

/* The records a walk's map holds at load: room for the tasks there are now. */
static size_t walk_capacity(void)
{
	char buf[128], *slash;
	unsigned long tasks = 0;
	int fd = open("/proc/loadavg", O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);

	if (fd >= 0)
		close(fd);
	/* "0.00 0.01 0.05 1/2087 4242": the fourth field's total is every task */
	if (n > 0) {
		buf[n] = 0;
		slash = strchr(buf, '/');
		if (slash)
			tasks = strtoul(slash + 1, NULL, 10);
	}
	return room_for(tasks);
}

/* The delta's slots at load: room for the processes there are now (/proc's numbered entries). */
static size_t delta_capacity(void)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	size_t n = 0;

	if (!d)
		return room_for(0);
	while ((e = readdir(d)))
		n += e->d_name[0] >= '1' && e->d_name[0] <= '9';
	closedir(d);
	return room_for(n);
}

/*
 * The slots b's delta is loaded with: those it has, or room for the
 * processes there are now; none when it is not wanted (no /proc listing
 * at the start of bpf's walk alone).
 */
static size_t delta_room(const struct bpfsrc *b)
{
	if (!b->want_delta)
		return 0;
	return b->delta_cap ? b->delta_cap : delta_capacity();
}

/*
 * The skeleton, opened and loaded: with the walk and a map of cap records,
 * or without (cap 0); with the delta pass and dcap slots, or without (dcap
 * 0); with the exit hook and a ring of ring bytes, or without (ring 0).
 */
static int open_load(struct ptop_tasks **out, size_t cap, size_t dcap, const struct load_opts *o,
		     uint32_t ring)
{
	struct ptop_tasks *skel = ptop_tasks__open();
	/* a map needs one entry even where its part is left out */
	uint32_t slots = dcap ? (uint32_t)dcap : 1;
	int n, err;

	*out = NULL;
	if (!skel)
		return errno ? -errno : -EINVAL;
	n = libbpf_num_possible_cpus();
	skel->rodata->nr_cpus = n > 0 ? (uint32_t)n : 1;
	skel->rodata->exit_level = o->ns_level;
	skel->rodata->page_mask = ~((uint64_t)sysconf(_SC_PAGESIZE) - 1);
	skel->rodata->exit_ns_inum = o->ns_inum;
	if (!cap)
		bpf_program__set_autoload(skel->progs.ptop_walk, false);
	err = bpf_map__set_max_entries(skel->maps.records, cap ? (uint32_t)cap : 1);
	if (!err)
		err = bpf_map__set_max_entries(skel->maps.records_x, cap ? (uint32_t)cap : 1);
	if (!err)
		err = bpf_map__set_max_entries(skel->maps.names, cap ? (uint32_t)cap : 1);
	skel->rodata->delta_cap = slots;
	skel->rodata->switch_spin = o->spin;
	if (!dcap) {
		bpf_program__set_autoload(skel->progs.ptop_delta, false);
		bpf_program__set_autoload(skel->progs.ptop_mark_switch, false);
	}
	if (!err)
		err = bpf_map__set_max_entries(skel->maps.procs, slots);
	if (!err)
		err = bpf_map__set_max_entries(skel->maps.pnames, slots);
	if (!err)
		err = bpf_map__set_max_entries(skel->maps.pslot, slots);
	if (!err)
		err = bpf_map__set_max_entries(skel->maps.free_slots, slots);
	if (!err)
		err = bpf_map__set_max_entries(skel->maps.dirty, dcap ? (o->pid_max + 63) / 64 : 1);
	if (!err && ring) {
		err = bpf_map__set_max_entries(skel->maps.exits, ring);
	} else if (!err) {
		bpf_program__set_autoload(skel->progs.ptop_exit, false);
		bpf_program__set_autoload(skel->progs.ptop_exit_free, false);
		bpf_map__set_autocreate(skel->maps.exits, false);
		bpf_map__set_autocreate(skel->maps.exit_stash, false);
		bpf_map__set_autocreate(skel->maps.exit_record, false);
		bpf_map__set_autocreate(skel->maps.exit_lost, false);
	}
	if (!err)
		err = ptop_tasks__load(skel);
	if (err) {
		ptop_tasks__destroy(skel);
		return err < 0 ? err : -err;
	}
	*out = skel;
	return 0;
}

/*
 * What made a load fail. libbpf (1.1) turns every failure to read the
 * kernel's BTF into -ESRCH ("failed to find valid kernel BTF"), out of
 * memory included, which strerror() calls "No such process": read the BTF
 * once more, here in the loading child, to have the real error. -ESRCH
 * stays when the BTF reads (then something was missing from it).
 */
static int load_cause(int err)
{
	struct btf *btf;

	if (err != -ESRCH)
		return err;
	errno = 0;
	btf = btf__parse("/sys/kernel/btf/vmlinux", NULL);
	if (!btf)
		return errno ? -errno : err;
	btf__free(btf);
	return err;
}

static int dup_fd(int fd)
{
	return fd < 0 ? -1 : fcntl(fd, F_DUPFD_CLOEXEC, 3);
}

/* Whether fd[from] to fd[to - 1] are all open: a part's descriptors go all or none. */
static bool all_open(const int fd[NFDS], int from, int to)
{
	for (int i = from; i < to; i++)
		if (fd[i] < 0)
			return false;
	return true;
}

static void close_fds(int fd[NFDS], int from, int to)
{
	for (int i = from; i < to; i++) {
		if (fd[i] >= 0)
			close(fd[i]);
		fd[i] = -1;
	}
}

/*
 * The exit hook attached (at the exit, then at the free), and copies of its
 * links, ring buffer, lost counts and kept exits into fd[FD_EXIT] on: all
 * five, or none and the reason. The free's first: an exit kept with no free to write its
 * record would stay on its leader, unseen.
 */
static int attach_exit(struct ptop_tasks *skel, int fd[NFDS])
{
	int err = 0;

	skel->links.ptop_exit_free = bpf_program__attach(skel->progs.ptop_exit_free);
	if (!skel->links.ptop_exit_free)
		return errno ? -errno : -EINVAL;
	skel->links.ptop_exit = bpf_program__attach(skel->progs.ptop_exit);
	if (!skel->links.ptop_exit)
		return errno ? -errno : -EINVAL;
	fd[FD_EXIT] = dup_fd(bpf_link__fd(skel->links.ptop_exit));
	fd[FD_FREE] = dup_fd(bpf_link__fd(skel->links.ptop_exit_free));
	fd[FD_RING] = dup_fd(bpf_map__fd(skel->maps.exits));
	fd[FD_LOST] = dup_fd(bpf_map__fd(skel->maps.exit_lost));
	fd[FD_STASH] = dup_fd(bpf_map__fd(skel->maps.exit_stash));
	if (!all_open(fd, FD_EXIT, NFDS)) {
		err = -errno;
		close_fds(fd, FD_EXIT, NFDS);
	}
	return err;
}

/*
 * The delta's switch hook attached (its pass is nothing without it), and
 * copies of its program, maps and link in fd[FD_DELTA] to fd[FD_SWITCH].
 * 0, or -errno with none of them.
 */
static int attach_delta(struct ptop_tasks *skel, int fd[NFDS])
{
	if (bpf_program__fd(skel->progs.ptop_delta) < 0)
		return -ENOENT;
	skel->links.ptop_mark_switch = bpf_program__attach(skel->progs.ptop_mark_switch);
	if (!skel->links.ptop_mark_switch)
		return errno ? -errno : -EINVAL;
	fd[FD_DELTA] = dup_fd(bpf_program__fd(skel->progs.ptop_delta));
	fd[FD_PROCS] = dup_fd(bpf_map__fd(skel->maps.procs));
	fd[FD_PNAMES] = dup_fd(bpf_map__fd(skel->maps.pnames));
	fd[FD_SWITCH] = dup_fd(bpf_link__fd(skel->links.ptop_mark_switch));
	if (!all_open(fd, FD_DELTA, FD_EXIT)) {
		int err = -errno;

		close_fds(fd, FD_DELTA, FD_EXIT);
		return err;
	}
	return 0;
}

/*
 * Load, attach, keep copies of the descriptors (the walk's, fd[FD_WALK] on,
 * are -1 where it did not load: a kernel before 6.7; the exit hook's,
 * fd[FD_EXIT] on, where it did not load or attach: *exits_err says why),
 * free the rest. Each part that fails to load is tried without: the walk
 * with the hook first, as a kernel with the walk (6.7) has what the hook needs.
 */
static int load(int fd[NFDS], const struct load_opts *o, struct load_errs *e)
{
	static const struct {
		bool walk, delta, exits;
	} tries[] = {{true, true, true},   {true, true, false},	 {true, false, true},
		     {true, false, false}, {false, false, true}, {false, false, false}};
	struct ptop_tasks *skel = NULL;
	struct bpf_link *link;
	int err = -EINVAL;
	bool exits = false, delta = false;

	libbpf_set_print(quiet);
	for (int i = 0; i < NFDS; i++)
		fd[i] = -1;
	e->exits = o->ring ? 0 : -ENOENT;
	e->delta = o->dcap ? 0 : -ENOENT;
	for (size_t i = 0; i < sizeof(tries) / sizeof(tries[0]); i++) {
		if ((tries[i].walk && !o->cap) || (tries[i].exits && !o->ring) ||
		    (tries[i].delta && !o->dcap))
			continue;
		err = open_load(&skel, tries[i].walk ? o->cap : 0, tries[i].delta ? o->dcap : 0, o,
				tries[i].exits ? o->ring : 0);
		if (!err) {
			exits = tries[i].exits;
			delta = tries[i].delta;
			break;
		}
		if (tries[i].exits && !tries[i].delta)
			e->exits = load_cause(err);
		if (tries[i].delta)
			e->delta = load_cause(err);
	}
	if (err)
		return load_cause(err);
	if (exits)
		e->exits = attach_exit(skel, fd);
	if (delta)
		e->delta = attach_delta(skel, fd);
	else if (o->dcap && !e->delta)
		e->delta = -ENOENT;
	link = bpf_program__attach_iter(skel->progs.ptop_tasks, NULL);
	if (!link) {
		err = errno ? -errno : -EINVAL;
		close_fds(fd, 0, NFDS);
		goto out;
	}
	skel->links.ptop_tasks = link;
	/* the link, program and map live while a descriptor of each is open: the object can go */
	fd[FD_LINK] = dup_fd(bpf_link__fd(link));
	if (fd[FD_LINK] < 0) {
		err = -errno; /* before the destroy below, which may set errno again */
		close_fds(fd, 0, NFDS);
		goto out;
	}
	if (bpf_program__fd(skel->progs.ptop_walk) >= 0) {
		fd[FD_WALK] = dup_fd(bpf_program__fd(skel->progs.ptop_walk));
		fd[FD_RECORDS] = dup_fd(bpf_map__fd(skel->maps.records));
		fd[FD_RECORDS_X] = dup_fd(bpf_map__fd(skel->maps.records_x));
		fd[FD_NAMES] = dup_fd(bpf_map__fd(skel->maps.names));
	}
	/* the walk whole or not at all: the parent takes the link alone or all four;
	 * the delta only with the walk, whose records show threads */
	if (!all_open(fd, FD_WALK, FD_DELTA)) {
		if (fd[FD_DELTA] >= 0)
			e->delta = -ENOENT;
		close_fds(fd, FD_WALK, FD_EXIT);
	}
out:
	ptop_tasks__destroy(skel);
	return err;
}

/* What the loading child sends back: its result, and the descriptors on success. */
static int send_fds(int sock, int err, const struct load_errs *e, const int fd[NFDS])
{
	char ctl[CMSG_SPACE(NFDS * sizeof(int))] = {0};
	struct load_reply r = {.err = err, .exits_err = e->exits, .delta_err = e->delta};
	struct iovec iov = {.iov_base = &r, .iov_len = sizeof(r)};
	struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1};
	struct cmsghdr *c;
	int n = 0, send[NFDS];

	for (int i = 0; !err && i < NFDS; i++) {
		if (fd[i] >= 0) {
			send[n++] = fd[i];
			r.mask |= 1u << i;
		}
	}
	if (n) {
		msg.msg_control = ctl;
		msg.msg_controllen = CMSG_SPACE((size_t)n * sizeof(int));
		c = CMSG_FIRSTHDR(&msg);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN((size_t)n * sizeof(int));
		memcpy(CMSG_DATA(c), send, (size_t)n * sizeof(int));
	}
	return sendmsg(sock, &msg, MSG_NOSIGNAL) < 0 ? -errno : 0;
}

/*
 * The descriptors where the reply's mask puts them (the link always, the
 * walk's three, the delta's four and the exit hook's five each all or
 * none); why the exit hook and the delta are not there into *e.
 */
static int recv_fds(int sock, int fd[NFDS], struct load_errs *e)
{
	char ctl[CMSG_SPACE(NFDS * sizeof(int))];
	struct load_reply r = {.err = -EIO};
	struct iovec iov = {.iov_base = &r, .iov_len = sizeof(r)};
	struct msghdr msg = {
	    .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl, .msg_controllen = sizeof(ctl)};
	const unsigned walk = 7u << FD_WALK, exits = 31u << FD_EXIT, delta = 15u << FD_DELTA;
	struct cmsghdr *c;
	int n, got_fds[NFDS];
	ssize_t got;

	for (int i = 0; i < NFDS; i++)
		fd[i] = -1;
	do
		got = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC);
	while (got < 0 && errno == EINTR);
	if (got != (ssize_t)sizeof(r))
		return -EIO; /* the child died before it could say */
	c = CMSG_FIRSTHDR(&msg);
	if (r.err)
		return r.err;
	if (!c || c->cmsg_type != SCM_RIGHTS)
		return -EIO;
	n = (int)((c->cmsg_len - CMSG_LEN(0)) / sizeof(int));
	if (n > NFDS)
		n = NFDS;
	memcpy(got_fds, CMSG_DATA(c), (size_t)n * sizeof(int));
	if (n != __builtin_popcount(r.mask) || !(r.mask & 1) ||
	    (r.mask & walk && (r.mask & walk) != walk) ||
	    (r.mask & exits && (r.mask & exits) != exits) ||
	    (r.mask & delta && (r.mask & delta) != delta) || (r.mask & delta && !(r.mask & walk)) ||
	    r.mask >> NFDS) {
		for (int i = 0; i < n; i++)
			close(got_fds[i]);
		return -EIO;
	}
	for (int i = 0, k = 0; i < NFDS; i++)
		if (r.mask & (1u << i))
			fd[i] = got_fds[k++];
	e->exits = fd[FD_EXIT] >= 0 ? 0 : r.exits_err ? r.exits_err : -EIO;
	e->delta = fd[FD_DELTA] >= 0 ? 0 : r.delta_err ? r.delta_err : -EIO;
	return 0;
}

/*
 * Load in a child that sends the descriptors back and exits: libbpf's parse
 * of the kernel's BTF (some 10 MB at its peak) and the pages of the libraries
 * that do it never become ptop's, whose peak and steady RSS stay those of /proc.
 */
static int load_in_child(int fd[NFDS], const struct load_opts *o, struct load_errs *e)
{
	int sv[2], err;
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv))
		return -errno;
	pid = fork();
	if (pid < 0) {
		err = -errno;
		close(sv[0]);
		close(sv[1]);
		return err;
	}
	if (pid == 0) {
		int mine[NFDS];
		struct load_errs mine_e;

		close(sv[0]);
		err = load(mine, o, &mine_e);
		_exit(send_fds(sv[1], err, &mine_e, mine) ? 1 : 0);
	}
	close(sv[1]);
	err = recv_fds(sv[0], fd, e);
	close(sv[0]);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
	return err;
}

static void unmap(struct mapped *m)
{
	if (m->at)
		munmap((void *)m->at, m->len);
	m->at = NULL;
	m->len = 0;
}

/* The delta closed, the walk kept: the frames are the walk's from now on. */
static void drop_delta(struct bpfsrc *b, int err)
{
	unmap(&b->slots);
	unmap(&b->pnames);
	b->delta_cap = 0;
	b->delta_err = err;
	close_fds(b->fd, FD_DELTA, FD_EXIT);
}

/* The walk and the delta (which needs the walk for thread rows) closed. */
static void drop_walk(struct bpfsrc *b)
{
	drop_delta(b, -ENOENT);
	unmap(&b->map);
	unmap(&b->xmap);
	unmap(&b->names);
	b->map_cap = 0;
	close_fds(b->fd, FD_WALK, FD_DELTA);
}

/* The reader's pid namespace for the exit hook: its depth (NSpid's numbers less one), inode. */
static void read_pid_ns(struct load_opts *o)
{
	char buf[4096], *p;
	struct stat st;
	ssize_t n;
	int fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC);

	o->ns_level = 0;
	o->ns_inum = 0;
	if (!stat("/proc/self/ns/pid", &st))
		o->ns_inum = (uint32_t)st.st_ino;
	if (fd < 0)
		return;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return;
	buf[n] = 0;
	p = strstr(buf, "\nNSpid:");
	if (!p)
		return;
	for (p += 7; *p && *p != '\n'; p++)
		if (*p == '\t' && p[1] >= '0' && p[1] <= '9')
			o->ns_level++;
	if (o->ns_level)
		o->ns_level--;
}

/*
 * Load (again), with a walk whose map holds cap records, the delta with
 * dcap slots when b wants it, and the exit hook with a ring of ring bytes
 * (0: none, or the one loaded before stays); b keeps what loaded.
 */
static int bpfsrc_load(struct bpfsrc *b, size_t cap, size_t dcap, uint32_t ring)
{
	struct load_opts o = {.cap = cap, .dcap = b->want_delta && cap ? dcap : 0, .ring = ring};
	struct load_errs e = {-EIO, -EIO};
	int fd[NFDS], err;

	read_pid_ns(&o);
	o.spin = b->spin;
	o.pid_max = read_u32_file("/proc/sys/kernel/pid_max", 4194304);
	err = load_in_child(fd, &o, &e);
	if (err)
		return err;
	drop_walk(b);
	if (b->fd[FD_LINK] >= 0)
		close(b->fd[FD_LINK]);
	memcpy(b->fd, fd, FD_EXIT * sizeof(fd[0]));
	if (ring) {
		memcpy(b->fd + FD_EXIT, fd + FD_EXIT, (NFDS - FD_EXIT) * sizeof(fd[0]));
		b->exits_err = e.exits;
	} else {
		close_fds(fd, FD_EXIT, NFDS);
	}
	if (b->fd[FD_WALK] >= 0)
		b->map_cap = cap;
	b->delta_err = b->want_delta ? e.delta : -ENOENT;
	if (b->fd[FD_DELTA] >= 0)
		b->delta_cap = o.dcap;
	return 0;
}

/*
 * The first want bytes of the walk's map fd (all bytes long) into m: what
 * the tasks fill and a little more (a sixty-fourth, and a page), since every
 * page of a map's mapping is in RSS from mmap() on. Mapped again when the
 * tasks outgrow it or shrink to half of it (not each frame: mapping costs a
 * quarter of a frame). 0, or -errno.
 */
static int map_part(struct mapped *m, int fd, size_t want, size_t all)
{
	size_t len = want + want / 64 + 4096;
	void *at;

	if (m->at && want <= m->len && want * 2 >= m->len)
		return 0;
	if (len > all)
		len = all;
	unmap(m);
	at = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
	if (at == MAP_FAILED)
		return -errno;
	m->at = at;
	m->len = len;
	return 0;
}

/*
 * The exit hook's ring buffer, bytes: EXIT_RING, or PTOP_TEST_EXIT_RING's
 * (for tests only, which fill a small one: a power of two, at least a page).
 * 0, or -EINVAL when that variable is not such a size.
 */
static int exit_ring_size(uint32_t *out)
{
	const char *s = getenv("PTOP_TEST_EXIT_RING"), *p = s;
	long page = sysconf(_SC_PAGESIZE);
	uint64_t v;

	*out = EXIT_RING;
	if (!s)
		return 0;
	if (num_u64(&p, s + strlen(s), &v) || *p || v < (uint64_t)page || v > (1u << 30) ||
	    (v & (v - 1)))
		return -EINVAL;
	*out = (uint32_t)v;
	return 0;
}

/*
 * PTOP_TEST_SWITCH_SPIN: turns of an empty loop added to every run of the
 * delta's switch hook, for tests and bench/hook-cost only (a hook made
 * heavier on purpose, where the slowdown it causes is measurable). 0, or
 * -EINVAL when the variable is not a number up to 100,000.
 */
static int switch_spin(uint32_t *out)
{
	const char *s = getenv("PTOP_TEST_SWITCH_SPIN"), *p = s;
	uint64_t v;

	*out = 0;
	if (!s)
		return 0;
	if (num_u64(&p, s + strlen(s), &v) || *p || v > 100000)
		return -EINVAL;
	*out = (uint32_t)v;
	return 0;
}

/* A link's program: its id and run totals (with the statistics on). 0, or -errno. */
static int link_runs(int link, uint32_t *id, uint64_t *ns, uint64_t *runs)
{
	struct bpf_link_info li = {0};
	struct bpf_prog_info pi = {0};
	__u32 len = sizeof(li);
	int fd, err = 0;

	if (bpf_obj_get_info_by_fd(link, &li, &len))
		return -errno;
	fd = bpf_prog_get_fd_by_id(li.prog_id);
	if (fd < 0)
		return -errno;
	len = sizeof(pi);
	if (bpf_obj_get_info_by_fd(fd, &pi, &len))
		err = -errno;
	close(fd);
	*id = li.prog_id;
	*ns = pi.run_time_ns;
	*runs = pi.run_cnt;
	return err;
}

/* Round trips of a byte with a child through two pipes; 0, or -errno. */
static int ping_pong(unsigned trips)
{
	int to[2], from[2], err = 0, st;
	char c = 0;
	pid_t pid;

	if (pipe2(to, O_CLOEXEC))
		return -errno;
	if (pipe2(from, O_CLOEXEC)) {
		err = -errno;
		close(to[0]);
		close(to[1]);
		return err;
	}
	pid = fork();
	if (pid == 0) {
		close(to[1]);
		close(from[0]);
		while (read(to[0], &c, 1) == 1 && write(from[1], &c, 1) == 1)
			;
		_exit(0);
	}
	close(to[0]);
	close(from[1]);
	if (pid < 0)
		err = -errno;
	for (unsigned i = 0; !err && i < trips; i++)
		if (write(to[1], &c, 1) != 1 || read(from[0], &c, 1) != 1)
			err = errno ? -errno : -EPIPE;
	close(to[1]); /* the child's read sees the end */
	close(from[0]);
	if (pid > 0)
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
	return err;
}

/*
 * What one run of the switch hook costs: the kernel's BPF statistics on
 * (they time every BPF program on the machine while on, so only for this)
 * over SWITCH_CAL_TRIPS round trips of ping_pong(), the hook's run time
 * over its runs. Once, at the open: a run's cost does not change after.
 */
static void calibrate(struct bpfsrc *b)
{
	struct switch_cal *c = &b->cal;
	uint64_t ns0, runs0, ns, runs;
	uint32_t id0, id;
	int fd;

	c->err = -ENOENT;
	if (b->fd[FD_SWITCH] < 0)
		return;
	fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
	if (fd < 0) {
		c->err = -errno;
		return;
	}
	c->err = link_runs(b->fd[FD_SWITCH], &id0, &ns0, &runs0);
	if (!c->err)
		c->err = ping_pong(SWITCH_CAL_TRIPS);
	if (!c->err)
		c->err = link_runs(b->fd[FD_SWITCH], &id, &ns, &runs);
	close(fd);
	if (!c->err && (id != id0 || runs - runs0 < SWITCH_CAL_TRIPS))
		c->err = -EIO; /* not the hook's runs: it would be no figure */
	if (!c->err)
		c->run_ns = (double)(ns - ns0) / (double)(runs - runs0);
}

/* ring_buffer__consume()'s callback: one record into b->xs. */
static int take_exit(void *ctx, void *data, size_t len)
{
	struct bpfsrc *b = ctx;

	if (len < sizeof(struct ptop_exit))
		return 0;
	if (b->nxs == b->xcap) {
		b->xcap = b->xcap ? b->xcap * 2 : 256;
		b->xs = xreallocarray(b->xs, b->xcap, sizeof(*b->xs));
	}
	memcpy(&b->xs[b->nxs++], data, sizeof(struct ptop_exit));
	return 0;
}

int bpfsrc_open(struct bpfsrc **out, bool delta)
{
	struct bpfsrc *b = xcalloc(1, sizeof(*b));
	const char *walk_off;
	uint32_t ring;
	int err;

	*out = NULL;
	for (int i = 0; i < NFDS; i++)
		b->fd[i] = -1;
	b->stats_fd = -1;
	b->prog_fd[0] = b->prog_fd[1] = -1;
	err = read_boottime(b);
	if (err) {
		free(b);
		return err;
	}
	err = exit_ring_size(&ring);
	if (!err)
		err = switch_spin(&b->spin);
	if (err) {
		free(b);
		return err;
	}
	/* PTOP_BPF_WALK=0: the task iterator even where the walk loads (ptop(1), ENVIRONMENT) */
	walk_off = getenv("PTOP_BPF_WALK");
	b->want_delta = delta;
	b->delta_err = delta ? -EIO : -ENOENT;
	err = bpfsrc_load(b, walk_off && !strcmp(walk_off, "0") ? 0 : walk_capacity(),
			  delta_room(b), ring);
	if (err) {
		free(b);
		return err;
	}
	read_uid_map(b);
	calibrate(b);
	{
		char root[4096];

		if (!cgroup_ids_v2_root("/proc", root, sizeof(root)))
			b->cgroup_ids = cgroup_ids_new(root);
	}
	*out = b;
	return 0;
}

void bpfsrc_free(struct bpfsrc *b)
{
	if (!b)
		return;
	for (int i = 0; i < 2; i++)
		if (b->prog_fd[i] >= 0)
			close(b->prog_fd[i]);
	if (b->stats_fd >= 0)
		close(b->stats_fd);
	drop_walk(b);
	ring_buffer__free(b->ring);
	close_fds(b->fd, FD_EXIT, NFDS);
	close(b->fd[FD_LINK]);
	cgroup_ids_free(b->cgroup_ids);
	free(b->xs);
	free(b->keys);
	free(b->buf);
	free(b->recs);
	free(b->next);
	free(b->leaders);
	free(b->groups);
	free(b->procs);
	free(b->prev);
	free(b->cur);
	free(b);
}

/* One pass of the iterator into b->buf; the byte count, or -errno. */
static ssize_t read_pass(struct bpfsrc *b)
{
	size_t len = 0;
	ssize_t n;
	int fd = bpf_iter_create(b->fd[FD_LINK]);

	if (fd < 0)
		return -errno;
	for (;;) {
		if (b->cap - len < 65536) {
			b->cap = b->cap ? b->cap * 2 : 262144;
			b->buf = xreallocarray(b->buf, b->cap, 1);
		}
		n = read(fd, b->buf + len, b->cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	if (n < 0)
		n = -errno;
	close(fd);
	return n < 0 ? n : (ssize_t)len;
}

/* task_state_index() and its letters (fs/proc/array.c's task_state_array). */
static char state_letter(uint32_t state, uint32_t exit_state)
{
	enum {
		TASK_REPORT = 0x7f,
		TASK_UNINTERRUPTIBLE = 0x2,
		TASK_NOLOAD = 0x400,
		TASK_RTLOCK_WAIT = 0x1000,
		TASK_FROZEN = 0x8000,
		TASK_REPORT_IDLE = 0x80,
	};
	static const char letters[] = "RSDTtXZPI";
	uint32_t s = (state | exit_state) & TASK_REPORT;
	int i = 0;

	if ((state & (TASK_UNINTERRUPTIBLE | TASK_NOLOAD)) == (TASK_UNINTERRUPTIBLE | TASK_NOLOAD))
		s = TASK_REPORT_IDLE;
	if (state & (TASK_RTLOCK_WAIT | TASK_FROZEN))
		s = TASK_UNINTERRUPTIBLE;
	while (s) { /* fls() */
		i++;
		s >>= 1;
	}
	return letters[i];
}

/*
 * cputime_adjust(): the tick-sampled utime and stime scaled to the precise
 * run time, never below what was last reported (prev, which /proc updates
 * when it reads and this does not). Results in clock ticks.
 */
static void cputime_adjust(uint64_t ut, uint64_t st, uint64_t rt, uint64_t pu, uint64_t ps, long hz,
			   uint64_t *out_u, uint64_t *out_s)
{
	uint64_t ns_per_tick = 1000000000ull / (uint64_t)hz;

	if (pu + ps >= rt)
		goto out;
	if (st == 0) {
		st = 0;
	} else if (ut == 0) {
		st = rt;
	} else {
		st = (uint64_t)((unsigned __int128)st * rt / ((unsigned __int128)st + ut));
		if (st > rt)
			st = rt;
	}
	if (st < ps)
		st = ps;
	ut = rt - st;
	if (ut < pu) {
		ut = pu;
		st = rt - ut;
	}
	pu = ut;
	ps = st;
out:
	*out_u = pu / ns_per_tick;
	*out_s = ps / ns_per_tick;
}

static int tick_cmp(const void *a, const void *b)
{
	int x = ((const struct tick *)a)->pid, y = ((const struct tick *)b)->pid;

	return (x > y) - (x < y);
}

/*
 * The previous frame's row of pid, or NULL. Rows come in ascending pid order
 * (the iterator's), as prev is sorted: a cursor that walks forward instead of
 * a search per row; a pid below the cursor (user threads, which come after
 * every process) starts it again from where pid would be.
 */
static struct tick *prev_of(struct bpfsrc *b, int pid)
{
	if (b->at > 0 && b->prev[b->at - 1].pid >= pid) {
		size_t lo = 0, hi = b->at;

		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (b->prev[mid].pid < pid)
				lo = mid + 1;
			else
				hi = mid;
		}
		b->at = lo;
	}
	while (b->at < b->nprev && b->prev[b->at].pid < pid)
		b->at++;
	return b->at < b->nprev && b->prev[b->at].pid == pid ? &b->prev[b->at] : NULL;
}

/*
 * p's %CPU and I/O rates since the previous frame, as the /proc sampler
 * computes them (frame.h's frame_cpu_share and frame_io_rate).
 */
static void rates(struct bpfsrc *b, const struct bpfsrc_ctx *c, const struct frame *f,
		  struct frame_proc *p)
{
	struct tick *prev;
	double secs;

	/* grown first: prev points into b->prev, which growing moves */
	if (b->ncur == b->tcap) {
		b->tcap = b->tcap ? b->tcap * 2 : 1024;
		b->cur = xreallocarray(b->cur, b->tcap, sizeof(*b->cur));
		b->prev = xreallocarray(b->prev, b->tcap, sizeof(*b->prev));
	}
	prev = prev_of(b, p->pid);
	if (prev && prev->start != p->start_ticks)
		prev = NULL;
	b->cur[b->ncur++] = (struct tick){.pid = p->pid,
					  .start = p->start_ticks,
					  .ns = p->run_ns,
					  .io_read = p->io_read_bytes,
					  .io_write = p->io_write_bytes};
	/*
	 * From the run time, not the ticks /proc shows (which this rounds down): a
	 * process that ran under a tick, as a sleep that started, shows none in
	 * ticks while it lives, and its CPU would be missing from the rows, or
	 * its exit record's share (its total less what rows showed) would count
	 * what it ran before the frame that first showed it.
	 */
	p->cpu_pct =
	    frame_cpu_share(p->run_ns, prev ? &prev->ns : NULL, c->interval, f->uptime_s,
			    p->start_ticks * (1000000000ull / (uint64_t)c->hz), 1000000000L);
	/* I/O unread in the previous frame (no column needed it) is no base for a rate */
	if (!b->io_prev)
		prev = NULL;
	secs = prev ? c->interval : f->uptime_s - (double)p->start_ticks / (double)c->hz;
	p->io_read_rate = frame_io_rate(p->io_read_bytes, prev ? prev->io_read : 0, secs);
	p->io_write_rate = frame_io_rate(p->io_write_bytes, prev ? prev->io_write : 0, secs);
	frame_side_w(p)->io_rate = p->io_read_rate + p->io_write_rate;
}

static uint64_t pages_kb(int64_t pages, uint64_t page_kb)
{
	return pages > 0 ? (uint64_t)pages * page_kb : 0;
}

/* Memory of a task that has an mm (statm's and status's figures). */
static void fill_mem(const struct ptop_task *r, const struct ptop_task_x *rx,
		     const struct bpfsrc_ctx *c, const struct frame *f, struct frame_proc *p)
{
	struct frame_proc_side *ps = frame_side_w(p);
	int64_t shared = r->rss[PTOP_MM_FILE] + r->rss[PTOP_MM_SHMEM];

	p->vsize_kb = r->total_vm * c->page_kb;
	p->shared_kb = pages_kb(shared, c->page_kb);
	p->rss_kb = pages_kb(shared + r->rss[PTOP_MM_ANON], c->page_kb);
	p->swap_kb = pages_kb(r->rss[PTOP_MM_SWAP], c->page_kb);
	p->rss_anon_kb = pages_kb(r->rss[PTOP_MM_ANON], c->page_kb);
	p->rss_file_kb = pages_kb(r->rss[PTOP_MM_FILE], c->page_kb);
	ps->rss_shmem_kb = pages_kb(r->rss[PTOP_MM_SHMEM], c->page_kb);
	ps->has_rsssh = true;
	ps->code_kb = (uint64_t)rx->text_pages * c->page_kb;
	ps->data_kb = (uint64_t)rx->data_pages * c->page_kb;
	p->mem_pct = f->mem.total ? (double)p->rss_kb * 100.0 / (double)f->mem.total : 0;
}

/*
 * r's kernel thread name parts: after it in the iterator's stream, in the
 * names map for the walk (NULL when it has none, or they were not mapped).
 */
static const struct ptop_names *ext_of(const struct bpfsrc *b, const struct ptop_task *r)
{
	if (b->delta_frame) {
		if (!r->ext_at || r->ext_at > b->pnames.len / sizeof(struct ptop_names))
			return NULL;
		return (const struct ptop_names *)b->pnames.at + (r->ext_at - 1);
	}
	if (!b->walked)
		return &((const struct ptop_iter_record *)(const void *)r)->ext;
	if (!r->ext_at || r->ext_at > b->names.len / sizeof(struct ptop_names))
		return NULL;
	return (const struct ptop_names *)b->names.at + (r->ext_at - 1);
}

/*
 * The rest of r's record (what a frame reads only when asked): beside it in
 * the iterator's stream and in the delta's slot, at its index in the walk's
 * records_x map; zeros where that was not mapped (a frame that asked for none).
 */
static const struct ptop_task_x *x_of(const struct bpfsrc *b, const struct ptop_task *r)
{
	static const struct ptop_task_x none;
	size_t i;

	if (b->delta_frame)
		return &((const struct ptop_proc *)(const void *)r)->tx;
	if (!b->walked)
		return &((const struct ptop_iter_record *)(const void *)r)->x;
	i = (size_t)(r - (const struct ptop_task *)(const void *)b->map.at);
	if (!b->xmap.at || (i + 1) * sizeof(struct ptop_task_x) > b->xmap.len)
		return &none;
	return (const struct ptop_task_x *)(const void *)b->xmap.at + i;
}

/* The name /proc/PID/stat shows (proc_task_name()), at most PROC_COMM_MAX - 1 bytes. */
static void fill_comm(const struct ptop_task *r, const struct ptop_names *x, struct frame_proc *p)
{
	static const struct ptop_names none;
	char name[PROC_COMM_MAX];
	int n;

	if (!x)
		x = &none;

	switch (r->ext_kind) {
	case PTOP_EXT_FULL_NAME:
		n = snprintf(name, sizeof(name), "%.*s", (int)sizeof(x->ext), x->ext);
		break;
	case PTOP_EXT_RESCUER:
		n = snprintf(name, sizeof(name), "kworker/R-%.*s", (int)sizeof(x->ext), x->ext);
		break;
	case PTOP_EXT_WORKER:
		/* format_worker_id(): the comm set at creation may have been cut short */
		if (!(r->worker_flags & PTOP_WORKER_POOL))
			n = snprintf(name, sizeof(name), "kworker/dying");
		else if (r->worker_cpu >= 0)
			n = snprintf(name, sizeof(name), "kworker/%d:%d%s", r->worker_cpu,
				     r->worker_id,
				     r->worker_flags & PTOP_WORKER_HIGHPRI ? "H" : "");
		else
			n = snprintf(name, sizeof(name), "kworker/u%d:%d", r->worker_pool,
				     r->worker_id);
		break;
	default:
		n = snprintf(name, sizeof(name), "%.*s", (int)sizeof(r->comm), r->comm);
		break;
	}
	if (n >= (int)sizeof(name))
		n = (int)sizeof(name) - 1;
	if (r->ext_kind >= PTOP_EXT_WORKER && (r->worker_flags & PTOP_WORKER_POOL) && x->desc[0]) {
		int m = snprintf(name + n, sizeof(name) - (size_t)n, "%c%.*s",
				 r->worker_flags & PTOP_WORKER_BUSY ? '+' : '-',
				 (int)sizeof(x->desc), x->desc);

		n = m >= (int)sizeof(name) - n ? (int)sizeof(name) - 1 : n + m;
	}
	memcpy(p->comm, name, (size_t)n);
	p->comm_len = (uint8_t)n;
}

/* A task's own fields, as its /proc/PID/task/TID/stat shows them (times in ticks). */
static void fill_task(const struct bpfsrc *b, const struct ptop_task *r, const struct bpfsrc_ctx *c,
		      struct frame_proc *p)
{
	struct frame_proc_side *ps = frame_side_w(p);

	p->pid = r->pid;
	p->tgid = r->tgid;
	p->state = state_letter(r->state, (uint32_t)r->exit_state);
	fill_comm(r, ext_of(b, r), p);
	p->priority = r->prio - 100;	/* MAX_RT_PRIO */
	p->nice = r->static_prio - 120; /* DEFAULT_PRIO */
	/* as stat shows it: the offset added in ns, wrapping as the kernel's u64 does */
	p->start_ticks = (r->start_boottime + b->boottime_ns) / (1000000000ull / (uint64_t)c->hz);
	p->processor = (int)r->cpu;
	ps->task_flags = r->flags;
	ps->has_tflags = true;
	p->vctxsw = r->nvcsw;
	p->nvctxsw = r->nivcsw;
	p->has_ctxsw = true;
}

/* A process row from its leader's record and its threads' sums. */
static void fill_proc(struct bpfsrc *b, const struct ptop_task *r, const struct group *g,
		      const struct bpfsrc_ctx *c, struct frame *f, struct frame_proc *p)
{
	const struct ptop_task_x *rx = x_of(b, r);
	struct frame_proc_side *ps;

	memset(p, 0, sizeof(*p));
	frame_side_add(f, p);
	ps = frame_side_w(p);
	fill_task(b, r, c, p);
	p->ppid = r->ppid;
	p->uid = map_uid(b, r->euid);
	p->ruid = map_uid(b, r->ruid);
	p->suid = map_uid(b, r->suid);
	p->fsuid = map_uid(b, r->fsuid);
	p->user = users_name(c->users, p->uid);
	ps->ruser = users_name(c->users, p->ruid);
	ps->suser = users_name(c->users, p->suid);
	p->cutime = r->cutime / (1000000000ull / (uint64_t)c->hz);
	p->cstime = r->cstime / (1000000000ull / (uint64_t)c->hz);
	p->threads = r->nr_threads;
	p->perf_fds = -1;
	/* statm's figures; without an mm (a kernel thread, an exited leader) 0, as statm's */
	ps->has_seg = b->side;
	/* statm's dirty count: the constant 0 statm prints */
	ps->has_dirty = true;
	ps->dirty_pages = 0;
	/* as stat sums them: every live thread's, the leader's included, and the dead ones' */
	ps->has_flt = b->side;
	ps->minflt = g->min_flt + rx->sig_min_flt;
	ps->majflt = g->maj_flt + rx->sig_maj_flt;
	ps->cminflt = rx->cmin_flt;
	ps->cmajflt = rx->cmaj_flt;
	ps->has_job = c->job || b->delta_frame;
	ps->pgrp = rx->pgrp;
	ps->session = rx->session;
	ps->tty_nr = rx->tty_nr;
	ps->tpgid = rx->tpgid;
	ps->policy = rx->policy;
	ps->rt_priority = rx->rt_priority;
	/* the leader's mm: none once it exited, as /proc/PID/stat shows then */
	if (r->has_mm)
		fill_mem(r, rx, c, f, p);
	if (c->cgroups && b->cgroup_ids) {
		const char *path = cgroup_ids_path(b->cgroup_ids, rx->cgroup_id);

		if (path)
			p->cgroup = cgroup_names_get(c->cgroups, path, strlen(path), &p->container);
	}
	/* /proc/PID/io: the dead threads' and every live one's, the leader's included;
	 * not in the records unless asked for (struct ptop_task_x) */
	p->has_io = ps->has_io_ops = c->io;
	if (c->io) {
		p->io_rchar = g->io.rchar + rx->sig_io.rchar;
		p->io_wchar = g->io.wchar + rx->sig_io.wchar;
		p->io_read_bytes = g->io.read_bytes + rx->sig_io.read_bytes;
		p->io_write_bytes = g->io.write_bytes + rx->sig_io.write_bytes;
		ps->io_syscr = g->io.syscr + rx->sig_io.syscr;
		ps->io_syscw = g->io.syscw + rx->sig_io.syscw;
		ps->io_cancelled = g->io.cancelled_write_bytes + rx->sig_io.cancelled_write_bytes;
	}
	cputime_adjust(g->ut + r->sig_utime, g->st + r->sig_stime, g->rt + r->sig_runtime,
		       r->sig_prev_utime, r->sig_prev_stime, c->hz, &p->utime, &p->stime);
	p->run_ns = g->rt + r->sig_runtime;
}

static int rec_cmp(const void *a, const void *b)
{
	int x = (*(const struct ptop_task *const *)a)->pid;
	int y = (*(const struct ptop_task *const *)b)->pid;

	return (x > y) - (x < y);
}

/*
 * v (n tasks) into ascending pid order. The task list is in order of
 * creation, which is nearly that of PIDs (two forks at once may take their
 * PIDs in one order and join the list in the other): a few steps back each
 * by insertion, where a full sort compared every record about eleven times
 * a frame. Past 8 moves a task on average it is no such list (PIDs that
 * wrapped; with thread rows, threads started long after their process):
 * qsort, from wherever insertion stopped.
 */
static void sort_tasks(const struct ptop_task **v, size_t n)
{
	size_t budget = 8 * n;

	for (size_t i = 1; i < n; i++) {
		const struct ptop_task *t = v[i];
		size_t j = i;

		for (; j > 0 && v[j - 1]->pid > t->pid; j--) {
			if (!budget--) {
				v[j] = t; /* the hole its moves left: v is whole again */
				qsort(v, n, sizeof(*v), rec_cmp);
				return;
			}
			v[j] = v[j - 1];
		}
		v[j] = t;
	}
}

/*
 * The n records at base, each stride bytes apart, into b->recs, in
 * ascending pid order when c shows threads (rows of threads; process rows
 * sort their leaders alone: group_tasks()); the highest ext_at into *names
 * (the walk's kernel threads).
 */
static void index_records(struct bpfsrc *b, const struct bpfsrc_ctx *c, const char *base, size_t n,
			  size_t stride, size_t *names)
{
	size_t descents = 0;

	*names = 0;
	if (n > b->rcap) {
		b->rcap = n + n / 2;
		b->recs = xreallocarray(b->recs, b->rcap, sizeof(*b->recs));
		b->next = xreallocarray(b->next, b->rcap, sizeof(*b->next));
	}
	for (size_t i = 0; i < n; i++) {
		b->recs[i] = (const struct ptop_task *)(const void *)(base + i * stride);
		descents += i > 0 && b->recs[i - 1]->pid > b->recs[i]->pid;
		if (b->recs[i]->ext_at > *names)
			*names = b->recs[i]->ext_at;
	}
	/* each process's threads follow it: one started after a later process is out of order */
	if (descents && (c->threads || c->user_threads))
		sort_tasks(b->recs, n);
	b->nrecs = n;
}

/*
 * A walk, where there is one: the records it wrote into the map, or 0 and
 * nothing when it did not give them all (the map full: loaded again with
 * room for twice the tasks found, or without the walk if that fails).
 */
static size_t walk(struct bpfsrc *b, const struct bpfsrc_ctx *c)
{
	struct ptop_walk_args args = {
	    .want = (c->io ? PTOP_WANT_IO : 0) | (c->cgroups ? PTOP_WANT_CGROUP : 0) |
		    (c->job ? PTOP_WANT_JOB : 0) | (c->fds ? PTOP_WANT_FDS : 0) |
		    (c->side ? PTOP_WANT_SIDE : 0)};
	LIBBPF_OPTS(bpf_test_run_opts, o, .ctx_in = &args, .ctx_size_in = sizeof(args));
	size_t found;

	if (!b->map_cap)
		return 0;
	if (bpf_prog_test_run_opts(b->fd[FD_WALK], &o) != 0) {
		drop_walk(b);
		return 0;
	}
	found = o.retval;
	if (found <= b->map_cap) {
		/* the rest of each record only when asked: else its pages stay out of ptop's memory */
		if (!args.want)
			unmap(&b->xmap);
		if (!map_part(&b->map, b->fd[FD_RECORDS], found * sizeof(struct ptop_task),
			      b->map_cap * sizeof(struct ptop_task)) &&
		    (!args.want ||
		     !map_part(&b->xmap, b->fd[FD_RECORDS_X], found * sizeof(struct ptop_task_x),
			       b->map_cap * sizeof(struct ptop_task_x))))
			return found;
		drop_walk(b); /* the iterator alone, then */
		return 0;
	}
	if (bpfsrc_load(b, room_for(found), delta_room(b), 0))
		drop_walk(b);
	return 0;
}

static void grow_leaders(struct bpfsrc *b)
{
	if (b->nleaders == b->lcap) {
		b->lcap = b->lcap ? b->lcap * 2 : 1024;
		b->leaders = xreallocarray(b->leaders, b->lcap, sizeof(*b->leaders));
		b->groups = xreallocarray(b->groups, b->lcap, sizeof(*b->groups));
	}
}

/*
 * The delta pass, where there is one and the rows are processes: the
 * processes' records, read in place from its slots, into b->leaders in
 * ascending pid order, their live threads' sums into b->groups. true when it
 * gave them; false leaves the frame to the walk (no delta; its slots full:
 * loaded again with room for twice the processes it found).
 */
static bool delta(struct bpfsrc *b, const struct bpfsrc_ctx *c)
{
	/* job always: a slot is read again only when it ran, so a column shown later
	 * would find the others' unread, and the pass reads few processes */
	struct ptop_delta_args args = {
	    .want = (c->io ? PTOP_WANT_IO : 0) | (c->cgroups ? PTOP_WANT_CGROUP : 0) |
		    (c->fds ? PTOP_WANT_FDS : 0) | PTOP_WANT_JOB | PTOP_WANT_SIDE,
	    .check_every = DELTA_CHECK_EVERY};
	/* a syscall program's context is copied back: the pass's counts */
	LIBBPF_OPTS(bpf_test_run_opts, o, .ctx_in = &args, .ctx_size_in = sizeof(args));
	const struct ptop_proc *slots;
	size_t found, names = 0;
	int err;

	if (!b->delta_cap || c->threads || c->user_threads)
		return false;
	if (bpf_prog_test_run_opts(b->fd[FD_DELTA], &o) != 0) {
		drop_delta(b, -errno);
		return false;
	}
	found = o.retval;
	if (found > b->delta_cap || args.slots > b->delta_cap) {
		err = bpfsrc_load(b, b->map_cap ? b->map_cap : walk_capacity(), room_for(found), 0);
		if (err)
			drop_walk(b);
		return false;
	}
	err = map_part(&b->slots, b->fd[FD_PROCS], args.slots * sizeof(struct ptop_proc),
		       b->delta_cap * sizeof(struct ptop_proc));
	if (err) {
		drop_delta(b, err);
		return false;
	}
	slots = b->slots.at;
	b->nleaders = 0;
	for (size_t i = 0; i < args.slots; i++) {
		if (!slots[i].t.pid)
			continue;
		grow_leaders(b);
		b->leaders[b->nleaders++] = &slots[i].t;
		if (slots[i].t.ext_at > names)
			names = slots[i].t.ext_at;
	}
	/* slots come in the order processes were first seen, freed ones taken again */
	sort_tasks(b->leaders, b->nleaders);
	for (size_t i = 0; i < b->nleaders; i++) {
		const struct ptop_proc *p = (const struct ptop_proc *)(const void *)b->leaders[i];

		b->groups[i] = (struct group){.ut = p->ut,
					      .st = p->st,
					      .rt = p->rt,
					      .min_flt = p->min_flt,
					      .maj_flt = p->maj_flt,
					      .io = p->io};
	}
	if (names) {
		err = map_part(&b->pnames, b->fd[FD_PNAMES], names * sizeof(struct ptop_names),
			       b->delta_cap * sizeof(struct ptop_names));
		if (err) {
			drop_delta(b, err);
			return false;
		}
	}
	b->stats = (struct bpfsrc_stats){.delta = true,
					 .processes = (unsigned)b->nleaders,
					 .refreshed = args.refreshed,
					 .threads = args.threads};
	return true;
}

/* This frame's records into b->recs, ascending pid: the walk's, or the iterator's. 0 or -errno. */
static int gather(struct bpfsrc *b, const struct bpfsrc_ctx *c)
{
	size_t n = walk(b, c), names;
	ssize_t len;

	b->walked = n > 0;
	if (n) {
		index_records(b, c, b->map.at, n, sizeof(struct ptop_task), &names);
		/* a kernel thread without its names would show its comm: no walk then */
		if (!names ||
		    !map_part(&b->names, b->fd[FD_NAMES], names * sizeof(struct ptop_names),
			      b->map_cap * sizeof(struct ptop_names)))
			return 0;
		drop_walk(b);
		b->walked = false;
	}
	len = read_pass(b);
	if (len < 0)
		return (int)len;
	index_records(b, c, b->buf, (size_t)len / sizeof(struct ptop_iter_record),
		      sizeof(struct ptop_iter_record), &names);
	return 0;
}

static int leader_cmp(const void *key, const void *elt)
{
	int x = *(const int *)key, y = (*(const struct ptop_task *const *)elt)->tgid;

	return (x > y) - (x < y);
}

/* Leaders in ascending pid order, each with its live threads' CPU summed. */
static void group_tasks(struct bpfsrc *b)
{
	size_t descents = 0;

	b->nleaders = 0;
	for (size_t i = 0; i < b->nrecs; i++) {
		const struct ptop_task *r = b->recs[i];

		if (r->pid != r->tgid)
			continue;
		grow_leaders(b);
		descents += b->nleaders && b->leaders[b->nleaders - 1]->pid > r->pid;
		b->leaders[b->nleaders] = r;
		b->groups[b->nleaders++] = (struct group){0};
	}
	if (descents)
		sort_tasks(b->leaders, b->nleaders);
	for (size_t i = 0, next = 0; i < b->nrecs; i++) {
		const struct ptop_task *r = b->recs[i], **l;
		const struct ptop_task_x *x;
		struct group *g;

		/* a leader is the next of the list just made (when it needed no sort);
		 * other threads search */
		if (r->pid == r->tgid && !descents)
			l = &b->leaders[next++];
		else
			l = bsearch(&r->tgid, b->leaders, b->nleaders, sizeof(*b->leaders),
				    leader_cmp);
		b->next[i] = 0;
		if (!l)
			continue; /* its leader was reaped between the two: nothing to add to */
		g = &b->groups[l - b->leaders];
		b->next[i] = g->first;
		g->first = (uint32_t)i + 1;
		g->ut += r->utime;
		g->st += r->stime;
		g->rt += r->runtime;
		/* what a frame did not ask for is not in the records: see struct ptop_task_x */
		if (!b->side && !b->io)
			continue;
		x = x_of(b, r);
		g->min_flt += x->min_flt;
		g->maj_flt += x->maj_flt;
		g->io.rchar += x->io.rchar;
		g->io.wchar += x->io.wchar;
		g->io.read_bytes += x->io.read_bytes;
		g->io.write_bytes += x->io.write_bytes;
		g->io.syscr += x->io.syscr;
		g->io.syscw += x->io.syscw;
		g->io.cancelled_write_bytes += x->io.cancelled_write_bytes;
	}
}

static struct frame_proc *grow(struct frame_proc **procs, size_t *cap, size_t n)
{
	if (n >= *cap) {
		*cap = *cap ? *cap * 2 : 1024;
		while (*cap <= n)
			*cap *= 2;
		*procs = xreallocarray(*procs, *cap, sizeof(**procs));
	}
	return &(*procs)[n];
}

/*
 * -H: a row per task, the process's shared fields from its process row (in
 * b->procs). User threads: a row per task but the main ones, after the
 * process rows, which start at f->procs[procs].
 */
static void thread_rows(struct bpfsrc *b, struct frame *f, const struct bpfsrc_ctx *c, size_t procs)
{
	for (size_t i = 0; i < b->nrecs; i++) {
		const struct ptop_task *r = b->recs[i], **l;
		const struct ptop_task_x *x;
		const struct frame_proc *from;
		struct frame_proc_side *ts;
		struct frame_proc *t;

		if (c->user_threads && r->pid == r->tgid)
			continue;
		l = bsearch(&r->tgid, b->leaders, b->nleaders, sizeof(*b->leaders), leader_cmp);
		if (!l)
			continue;
		t = grow(&f->procs, &f->cap, f->nprocs);
		from = c->user_threads ? &f->procs[procs + (size_t)(l - b->leaders)]
				       : &b->procs[l - b->leaders];
		/* its own side, with its process's values to start from */
		frame_side_add(f, t);
		frame_row_assign(t, from, from->side);
		fill_task(b, r, c, t);
		/* its own faults and I/O, as task/TID/ shows them, not the process's sums
		 * (its children's faults are the process's) */
		ts = frame_side_w(t);
		x = x_of(b, r);
		ts->minflt = x->min_flt;
		ts->majflt = x->maj_flt;
		t->io_rchar = x->io.rchar;
		t->io_wchar = x->io.wchar;
		t->io_read_bytes = x->io.read_bytes;
		t->io_write_bytes = x->io.write_bytes;
		ts->io_syscr = x->io.syscr;
		ts->io_syscw = x->io.syscw;
		ts->io_cancelled = x->io.cancelled_write_bytes;
		cputime_adjust(r->utime, r->stime, r->runtime, r->prev_utime, r->prev_stime, c->hz,
			       &t->utime, &t->stime);
		t->run_ns = r->runtime;
		/* the leader has no mm once its thread exited: a live thread shows the process's */
		if (r->has_mm && t->state != 'Z')
			fill_mem(r, x, c, f, t);
		rates(b, c, f, t);
		if (!c->user_threads)
			frame_tasks_count(&f->tasks, t->state);
		f->nprocs++;
	}
}

int bpfsrc_frame(struct bpfsrc *b, struct frame *f, const struct bpfsrc_ctx *c)
{
	size_t procs = f->nprocs;
	struct tick *t;

	b->delta_frame = delta(b, c);
	if (!b->delta_frame) {
		int err = gather(b, c);

		if (err)
			return err;
	}
	if (b->threads != c->threads || b->user_threads != c->user_threads)
		b->nprev = 0;
	b->threads = c->threads;
	b->user_threads = c->user_threads;
	b->ncur = 0;
	b->at = 0;
	if (b->cgroup_ids)
		cgroup_ids_frame(b->cgroup_ids);
	b->hz = c->hz;
	b->io = c->io;
	b->side = c->side || b->delta_frame;
	b->thread_facts = !b->delta_frame;
	if (!b->delta_frame) {
		group_tasks(b);
		b->stats = (struct bpfsrc_stats){.processes = (unsigned)b->nleaders,
						 .refreshed = (unsigned)b->nleaders,
						 .threads = (unsigned)b->nrecs};
	}
	for (size_t i = 0; i < b->nleaders; i++) {
		struct frame_proc *p =
		    c->threads ? grow(&b->procs, &b->pcap, i) : grow(&f->procs, &f->cap, f->nprocs);

		fill_proc(b, b->leaders[i], &b->groups[i], c, f, p);
		if (c->threads)
			continue;
		rates(b, c, f, p);
		frame_tasks_count(&f->tasks, p->state);
		f->nprocs++;
	}
	if (c->threads || c->user_threads)
		thread_rows(b, f, c, procs);
	/* rows came in ascending pid order: cur is sorted already, but for user
	 * threads, which came after every process */
	if (c->user_threads && b->ncur > 1)
		qsort(b->cur, b->ncur, sizeof(*b->cur), tick_cmp);
	b->io_prev = c->io;
	t = b->prev;
	b->prev = b->cur;
	b->nprev = b->ncur;
	b->cur = t;
	return 0;
}

/* One thread's counts from its record, as its task/TID/stat, status and io show them. */
static void thread_of(const struct bpfsrc *b, const struct ptop_task *r, struct proc_thread *t)
{
	const struct ptop_task_x *x = x_of(b, r);
	size_t n = strnlen(r->comm, sizeof(r->comm));

	memset(t, 0, sizeof(*t));
	t->tid = r->pid;
	t->comm_len = (uint8_t)(n < PROC_COMM_MAX ? n : PROC_COMM_MAX);
	memcpy(t->comm, r->comm, t->comm_len);
	t->start = (r->start_boottime + b->boottime_ns) / (1000000000ull / (uint64_t)b->hz);
	cputime_adjust(r->utime, r->stime, r->runtime, r->prev_utime, r->prev_stime, b->hz,
		       &t->utime, &t->stime);
	t->minflt = x->min_flt;
	t->majflt = x->maj_flt;
	t->vctx = r->nvcsw;
	t->nvctx = r->nivcsw;
	t->has_io = b->io;
	t->read_bytes = x->io.read_bytes;
	t->write_bytes = x->io.write_bytes;
}

/* Its threads' counts appended to bf->thr, as proc_facts_read() appends them. */
static void thread_counts(const struct bpfsrc *b, const struct group *g, struct proc_facts *out,
			  struct proc_facts_bufs *bf)
{
	out->thr_off = bf->nthr;
	for (uint32_t i = g->first; i; i = b->next[i - 1]) {
		if (bf->nthr == bf->thr_cap) {
			bf->thr_cap = bf->thr_cap ? 2 * bf->thr_cap : 64;
			bf->thr = xreallocarray(bf->thr, bf->thr_cap, sizeof(*bf->thr));
		}
		thread_of(b, b->recs[i - 1], &bf->thr[bf->nthr++]);
		out->nthr++;
	}
}

unsigned bpfsrc_facts(const struct bpfsrc *b, const struct frame_proc *p, unsigned what,
		      struct proc_facts *out, struct proc_facts_bufs *bf)
{
	const struct ptop_task **l;
	const struct ptop_task *r;
	const struct group *g;
	unsigned got = 0;

	l = bsearch(&p->pid, b->leaders, b->nleaders, sizeof(*b->leaders), leader_cmp);
	if (!l || p->pid != p->tgid)
		return 0; /* PID 1 from /proc, or a thread's row */
	r = *l;
	g = &b->groups[l - b->leaders];
	if ((what & PROC_FACT_FDS) && r->has_fds) {
		out->has_fds = out->has_limit = true;
		out->fds = x_of(b, r)->nr_fds;
		out->fd_limit =
		    x_of(b, r)->nofile; /* RLIM_INFINITY is UINT64_MAX, as the parser's unlimited */
		got |= PROC_FACT_FDS;
	}
	if (!b->thread_facts)
		return got;
	if (what & PROC_FACT_THREADS) {
		/* counted here, for the few processes asked about, not for every task each frame */
		memset(out->states, 0, sizeof(out->states));
		for (uint32_t i = g->first; i; i = b->next[i - 1]) {
			r = b->recs[i - 1];
			out->states[proc_tstate_of(
			    state_letter(r->state, (uint32_t)r->exit_state))]++;
		}
		out->has_states = true;
		got |= PROC_FACT_THREADS;
	}
	/* counts only of a process of several threads, as proc_facts_read() */
	if ((what & PROC_FACT_THREAD_COUNTS) && p->threads > 1)
		thread_counts(b, g, out, bf);
	got |= what & PROC_FACT_THREAD_COUNTS;
	return got;
}

bool bpfsrc_has_cgroups(const struct bpfsrc *b)
{
	return b->cgroup_ids;
}

const struct bpfsrc_stats *bpfsrc_last(const struct bpfsrc *b)
{
	return &b->stats;
}

int bpfsrc_delta_error(const struct bpfsrc *b)
{
	return b->fd[FD_DELTA] >= 0 ? 0 : b->delta_err;
}

/* An exited row from its record: what a row of it showed, and how it ended. */
static void fill_exit(const struct bpfsrc *b, const struct ptop_exit *e, const struct bpfsrc_ctx *c,
		      struct frame *f, struct frame_proc *p)
{
	struct frame_proc_side *ps;
	uint64_t ns_per_tick = 1000000000ull / (uint64_t)c->hz;
	size_t n = strnlen(e->comm, sizeof(e->comm));

	memset(p, 0, sizeof(*p));
	frame_side_add(f, p);
	ps = frame_side_w(p);
	p->exited = true;
	p->pid = e->tgid;
	p->tgid = e->tgid;
	p->ppid = e->ppid;
	p->state = 'X';
	memcpy(p->comm, e->comm, n);
	p->comm_len = (uint8_t)n;
	/* only the effective uid is kept: the others as it, rather than root's 0 */
	p->uid = map_uid(b, e->euid);
	p->ruid = p->suid = p->fsuid = p->uid;
	p->user = ps->ruser = ps->suser = users_name(c->users, p->uid);
	p->perf_fds = -1;
	/* as rows: the offset added in ns, wrapping as the kernel's u64 does */
	p->start_ticks = (e->start_boottime + b->boottime_ns) / ns_per_tick;
	p->end_ticks = (e->end_boottime + b->boottime_ns) / ns_per_tick;
	/* the run time is the CPU; ticks are samples (a 1 ms process has none): the split only */
	cputime_adjust(e->utime, e->stime, e->runtime, 0, 0, c->hz, &p->utime, &p->stime);
	p->run_ns = e->runtime;
	p->maxrss_kb = e->maxrss * c->page_kb;
	ps->has_flt = true;
	ps->minflt = e->min_flt;
	ps->majflt = e->maj_flt;
	ps->cminflt = e->cmin_flt;
	ps->cmajflt = e->cmaj_flt;
	p->exit_status = e->exit_code;
	p->has_io = true;
	p->io_rchar = e->io.rchar;
	p->io_wchar = e->io.wchar;
	p->io_read_bytes = e->io.read_bytes;
	p->io_write_bytes = e->io.write_bytes;
	ps->has_io_ops = true;
	ps->io_syscr = e->io.syscr;
	ps->io_syscw = e->io.syscw;
	ps->io_cancelled = e->io.cancelled_write_bytes;
	if (c->cgroups && b->cgroup_ids) {
		const char *path = cgroup_ids_path(b->cgroup_ids, e->cgroup_id);

		if (path)
			p->cgroup = cgroup_names_get(c->cgroups, path, strlen(path), &p->container);
	}
}

/*
 * The kept exits EXIT_LATE old, as they stood at the exit, into b->xs. Taken
 * (looked up and deleted at once) by the reader or written at the free by
 * the kernel, whichever deletes first: never both. Keys are gathered first,
 * as deleting would restart the walk of the hash.
 */
static void take_late(struct bpfsrc *b)
{
	struct ptop_exit_key *prev = NULL;
	struct ptop_exit x;
	struct timespec now;
	uint64_t raw;
	size_t n = 0;

	if (clock_gettime(CLOCK_BOOTTIME, &now))
		return;
	/* the kernel's clock: ptop's time namespace adds its offset */
	raw = (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec - b->boottime_ns;
	for (;;) {
		if (n == b->kcap) {
			b->kcap = b->kcap ? b->kcap * 2 : 64;
			b->keys = xreallocarray(b->keys, b->kcap, sizeof(*b->keys));
			prev = n ? &b->keys[n - 1] : NULL;
		}
		if (bpf_map_get_next_key(b->fd[FD_STASH], prev, &b->keys[n]))
			break;
		prev = &b->keys[n++];
	}
	for (size_t i = 0; i < n; i++) {
		if (bpf_map_lookup_elem(b->fd[FD_STASH], &b->keys[i], &x) ||
		    raw - x.end_boottime < EXIT_LATE ||
		    bpf_map_lookup_and_delete_elem(b->fd[FD_STASH], &b->keys[i], &x))
			continue;
		take_exit(b, &x, sizeof(x));
	}
}

int bpfsrc_exits(struct bpfsrc *b, struct frame *f, const struct bpfsrc_ctx *c)
{
	struct ptop_exit_lost now;
	uint32_t zero = 0;
	int got;

	f->nexited = 0;
	f->acct.lost = 0;
	f->acct.lost_s = 0;
	if (!b->ring && b->fd[FD_RING] >= 0) {
		b->ring = ring_buffer__new(b->fd[FD_RING], take_exit, b, NULL);
		if (!b->ring) {
			/* no hook then: its records would only fill the ring */
			b->exits_err = errno ? -errno : -ENOMEM;
			close_fds(b->fd, FD_EXIT, NFDS);
		}
	}
	f->acct.exits = b->ring;
	if (!b->ring)
		return 0;
	b->nxs = 0;
	got = ring_buffer__consume(b->ring);
	if (got < 0)
		return got;
	take_late(b);
	/* read after the drain: a record lost meanwhile is counted now, not missed */
	if (!bpf_map_lookup_elem(b->fd[FD_LOST], &zero, &now)) {
		f->acct.lost = now.records - b->lost.records;
		f->acct.lost_s = (double)(now.runtime - b->lost.runtime) / 1e9;
		b->lost = now;
	}
	if (b->nxs > f->exited_cap) {
		f->exited_cap = b->nxs + b->nxs / 2;
		f->exited = xreallocarray(f->exited, f->exited_cap, sizeof(*f->exited));
	}
	for (size_t i = 0; i < b->nxs; i++)
		fill_exit(b, &b->xs[i], c, f, &f->exited[i]);
	f->nexited = b->nxs;
	return 0;
}

bool bpfsrc_has_exits(const struct bpfsrc *b)
{
	return b->fd[FD_RING] >= 0;
}

int bpfsrc_exits_error(const struct bpfsrc *b)
{
	return b->fd[FD_RING] >= 0 ? 0 : b->exits_err;
}

/* The program a link runs, as a descriptor of its own: -errno when it cannot be had. */
static int link_prog(int link)
{
	struct bpf_link_info li = {0};
	__u32 len = sizeof(li);

	int fd;

	if (bpf_obj_get_info_by_fd(link, &li, &len))
		return -errno;
	fd = bpf_prog_get_fd_by_id(li.prog_id);
	return fd < 0 ? -errno : fd;
}

/*
 * The kernel counts a program's run time only while someone holds a
 * BPF_ENABLE_STATS descriptor (released when ptop ends), which needs
 * CAP_SYS_ADMIN: taken at the first look, never the global sysctl.
 */
static int hook_stats_open(struct bpfsrc *b)
{
	int fd = bpf_enable_stats(BPF_STATS_RUN_TIME);

	if (fd < 0) {
		b->stats_fd = -2;
		return -errno;
	}
	b->stats_fd = fd;
	for (int i = 0; i < 2; i++) {
		b->prog_fd[i] = link_prog(b->fd[i ? FD_FREE : FD_EXIT]);
		if (b->prog_fd[i] < 0) {
			int err = b->prog_fd[i];

			b->stats_fd = -2;
			close(fd);
			return err;
		}
	}
	return 0;
}

int bpfsrc_hook_cost(struct bpfsrc *b, uint64_t *run_ns, uint64_t *runs)
{
	uint64_t ns = 0, n = 0;
	int err;

	*run_ns = *runs = 0;
	if (b->fd[FD_RING] < 0)
		return -ENOENT;
	if (b->stats_fd == -2)
		return -EPERM;
	if (b->stats_fd == -1) {
		err = hook_stats_open(b);
		if (err)
			return err;
	}
	for (int i = 0; i < 2; i++) {
		struct bpf_prog_info pi = {0};
		__u32 len = sizeof(pi);

		if (bpf_obj_get_info_by_fd(b->prog_fd[i], &pi, &len))
			return -errno;
		ns += pi.run_time_ns;
		if (!i)
			n = pi.run_cnt; /* each thread's exit: the free hook runs once per task too */
	}
	*run_ns = ns - b->hook_ns;
	*runs = n - b->hook_runs;
	b->hook_ns = ns;
	b->hook_runs = n;
	return 0;
}

int bpfsrc_switch_cost(struct bpfsrc *b, double *run_ns)
{
	if (b->fd[FD_SWITCH] < 0) {
		*run_ns = 0;
		return -ENOENT; /* the delta was dropped since, its hook with it */
	}
	*run_ns = b->cal.run_ns;
	return b->cal.err;
}

int bpfsrc_test_env(const char **var)
{
	uint32_t v;

	*var = NULL;
	if (exit_ring_size(&v))
		*var = "PTOP_TEST_EXIT_RING";
	else if (switch_spin(&v))
		*var = "PTOP_TEST_SWITCH_SPIN";
	return *var ? -EINVAL : 0;
}

bool bpfsrc_built(void)
{
	return true;
}

#else /* !HAVE_BPF */

int bpfsrc_open(struct bpfsrc **out, bool delta)
{
	*out = NULL;
	return -ENOSYS;
}

void bpfsrc_free(struct bpfsrc *b)
{
}

int bpfsrc_frame(struct bpfsrc *b, struct frame *f, const struct bpfsrc_ctx *c)
{
	return -ENOSYS;
}

unsigned bpfsrc_facts(const struct bpfsrc *b, const struct frame_proc *p, unsigned what,
		      struct proc_facts *out, struct proc_facts_bufs *bf)
{
	return 0;
}

bool bpfsrc_has_cgroups(const struct bpfsrc *b)
{
	return false;
}

const struct bpfsrc_stats *bpfsrc_last(const struct bpfsrc *b)
{
	static const struct bpfsrc_stats none;

	return &none;
}

int bpfsrc_delta_error(const struct bpfsrc *b)
{
	return -ENOSYS;
}

int bpfsrc_exits(struct bpfsrc *b, struct frame *f, const struct bpfsrc_ctx *c)
{
	return -ENOSYS;
}

bool bpfsrc_has_exits(const struct bpfsrc *b)
{
	return false;
}

int bpfsrc_exits_error(const struct bpfsrc *b)
{
	return -ENOSYS;
}

int bpfsrc_hook_cost(struct bpfsrc *b, uint64_t *run_ns, uint64_t *runs)
{
	*run_ns = *runs = 0;
	return -ENOSYS;
}

int bpfsrc_switch_cost(struct bpfsrc *b, double *run_ns)
{
	(void)b;
	*run_ns = 0;
	return -ENOSYS;
}

int bpfsrc_test_env(const char **var)
{
	*var = NULL;
	return 0;
}

bool bpfsrc_built(void)
{
	return false;
}

#endif
