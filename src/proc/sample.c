// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sample.c: builds a frame. Per process it reads stat (always), statm and
 * status (when asked) through the reader and computes %CPU from the ticks
 * since the previous frame; system totals (uptime, load, CPU split, memory,
 * swap) come from libproc2, which keeps /proc/stat and /proc/meminfo open.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <grp.h>
#include <unistd.h>
#include <utmpx.h>

#include <libproc2/meminfo.h>
#include <libproc2/misc.h>
#include <libproc2/stat.h>

#include "ptop/frame.h"
#include "ptop/util.h"

#define STAT_BUF 2048
#define STATM_BUF 512
#define STATUS_BUF 16384
#define IO_BUF 512
#define CGROUP_BUF 8192
/* distinct cgroup paths kept before the table starts afresh (transient scopes come and go) */
#define CGROUP_NAMES_MAX 4096
/* likewise the other strings read on request (row_strings: wchan, exe, cwd) */
#define ROW_STRINGS_MAX 8192
/* a path the kernel gives for a link (PATH_MAX), or a wchan */
#define SIDE_BUF 4096
/* an environment shown (ENVIRON): what fits, the rest cut */
#define ENV_BUF 65536
/* CPUs the NUMA map covers (NU): a CPU past them has no node */
#define NUMA_CPUS 4096
_Static_assert(SIDE_BUF >= PROC_WCHAN_MAX, "a wchan fits");

/* A process's row as last read in full, for read-less frames; indexed by slot id. */
struct kept_row {
	struct frame_proc p; /* its side (p.side NULL) in side, when has_side */
	/* allocated the first time a row with a side is kept, then reused: a viewer
	 * whose frames have no sides keeps 488 bytes a process, not 1,200 */
	struct frame_proc_side *side;
	bool has_side;
	uint64_t run_ns; /* its run time (see ran_since), read just before p's stat */
	bool valid;	 /* p is a full read of the slot's current process */
	bool sched;	 /* run_ns is valid */
	bool statm;	 /* p's rss_kb and shared_kb are statm's */
};

/*
 * A process's members read where they may have changed (sampler_opts.needs_lazy),
 * as last read, and what tells whether they may have moved since; by slot id.
 */
struct lazy_row {
	uint64_t start_ticks; /* whose: a PID reused starts afresh */
	uint64_t run_ns;      /* its run time just before that read; 0: none told */
	int64_t rss;	      /* stat's resident pages then */
	unsigned cgroups_gen; /* the generation of the cgroup names cgroup points into */
	bool valid;
	struct frame_proc p;	     /* the row then: its members of the lazy files (lazy_copy) */
	struct frame_proc_side side; /* and its side's (p.side is NULL) */
	bool has_side;		     /* side holds them: that frame had sides */
};

/* A row read elsewhere: its cgroup, and what tells whether it may have moved since. */
struct lazy_cgroup {
	int pid;
	unsigned cgroups_gen;
	uint64_t start_ticks, ticks, ctxsw;
	const char *cgroup, *container;
	uint8_t cgroup_v1;
};

/* What needs_lazy may hold. */
#define SAMPLER_LAZY_FILES                                                                         \
	(PROC_NEED(PROC_FILE_STATUS) | PROC_NEED(PROC_FILE_IO) | PROC_NEED(PROC_FILE_CGROUP))

struct sampler {
	struct proc_reader *reader;
	struct users *users;
	struct cgroup_names *cgroups;
	struct row_strings *strings; /* wchan, exe, cwd of rows (strings.c) */
	struct users *gids;	     /* gid names */
	/* NU: each CPU's NUMA node (-1: none), read once when first asked for; NULL: not yet,
	 * or none to be had (no_numa) */
	int16_t *cpu_node;
	bool no_numa;
	const char *node_root;
	char *env_buf;	     /* ENVIRON's, ENV_BUF bytes, made when first asked for */
	struct sysio *sysio; /* made when first asked for */
	struct psi *psi;     /* likewise */
	struct cgpsi *cgpsi; /* likewise */
	const char *root;
	const char *cgroup_root;
	struct stat_info *stat;
	struct meminfo_info *meminfo;
	unsigned needs, needs_all;
	bool read_less;
	unsigned full_every; /* read-less: a full read in this many frames, a power of two */
	bool less;	     /* read-less this frame: read_less, and full_every > 1 */
	const int *view;
	size_t nview;
	struct kept_row *kept;
	size_t nkept;
	unsigned needs_lazy;
	struct lazy_row *lazy;
	size_t nlazy;
	unsigned cgroups_gen; /* cgroup_names_clear()s of cgroups so far */
	/* rows read elsewhere (sampler_read_cgroups): their lazy cgroups, by pid, last frame's and
	 * this one's */
	struct lazy_cgroup *lazy_cg, *lazy_cg_next;
	size_t nlazy_cg, lazy_cg_cap, lazy_cg_next_cap;
	unsigned lazy_frames;
	long hz;
	uint64_t page_kb;
	unsigned pid_max;
	bool threads, user_threads, per_cpu, want_sysio, want_psi;
	bool delayacct; /* kernel.task_delayacct is on, as read this frame (when asked) */
	/* taskstats (SWPD%), opened when first asked; why it cannot be had, once it cannot: then
	 * no row asks again */
	struct proc_taskstats_conn *taskstats;
	int taskstats_err;
	double last_mono; /* CLOCK_MONOTONIC of the previous frame, 0 before the first */
	double now_mono;  /* CLOCK_MONOTONIC of the frame being built */
	char sched_buf[64];
	double cpu0;	       /* ptop's CPU time when the frame being built began */
	struct proc_slot init; /* PID 1 when the rows came from elsewhere (sampler_add_init) */
	bool init_seen;
	char stat_buf[STAT_BUF], statm_buf[STATM_BUF], status_buf[STATUS_BUF];
	char io_buf[IO_BUF], cgroup_buf[CGROUP_BUF];
	char side_buf[SIDE_BUF];
	struct sbuf groups;	      /* a list of supplementary groups being made */
	struct sbuf maps;	      /* a process's maps, for LIB */
	struct proc_maps_file *files; /* its files, summed (proc_maps_lib) */
	size_t nfiles;
};

static enum stat_item cpu_items[] = {
    STAT_TIC_USER,	   STAT_TIC_NICE,	STAT_TIC_SYSTEM,	STAT_TIC_IDLE,
    STAT_TIC_IOWAIT,	   STAT_TIC_IRQ,	STAT_TIC_SOFTIRQ,	STAT_TIC_STOLEN,
    STAT_TIC_DELTA_USER,   STAT_TIC_DELTA_NICE, STAT_TIC_DELTA_SYSTEM,	STAT_TIC_DELTA_IDLE,
    STAT_TIC_DELTA_IOWAIT, STAT_TIC_DELTA_IRQ,	STAT_TIC_DELTA_SOFTIRQ, STAT_TIC_DELTA_STOLEN,
};
#define CPU_NFIELDS 8

enum mem_idx {
	MI_TOTAL,
	MI_FREE,
	MI_USED,
	MI_BUFFERS,
	MI_CACHED,
	MI_AVAIL,
	MI_STOTAL,
	MI_SFREE,
	MI_SUSED,
	MI_N
};
static enum meminfo_item mem_items[MI_N] = {
    [MI_TOTAL] = MEMINFO_MEM_TOTAL,	  [MI_FREE] = MEMINFO_MEM_FREE,
    [MI_USED] = MEMINFO_MEM_USED,	  [MI_BUFFERS] = MEMINFO_MEM_BUFFERS,
    [MI_CACHED] = MEMINFO_MEM_CACHED_ALL, [MI_AVAIL] = MEMINFO_MEM_AVAILABLE,
    [MI_STOTAL] = MEMINFO_SWAP_TOTAL,	  [MI_SFREE] = MEMINFO_SWAP_FREE,
    [MI_SUSED] = MEMINFO_SWAP_USED,
};

/* pid_max under the proc root, or 0 when it cannot be read. */
static unsigned read_pid_max(const char *root)
{
	char path[4096], buf[32];
	unsigned v = 0;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/sys/kernel/pid_max", root ? root : "/proc");
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	for (ssize_t i = 0; i < n && buf[i] >= '0' && buf[i] <= '9' && v < 100000000; i++)
		v = v * 10 + (unsigned)(buf[i] - '0');
	return v;
}

/*
 * Whether the kernel counts block I/O delays: kernel.task_delayacct under the proc root
 * (off by default since Linux 5.14); a kernel without the switch counts them unless booted
 * with nodelayacct, and says nothing of it: taken as on.
 */
static bool delayacct_on(const char *root)
{
	char path[4096], c = '1';
	int fd;

	snprintf(path, sizeof(path), "%s/sys/kernel/task_delayacct", root ? root : "/proc");
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT;
	if (read(fd, &c, 1) != 1)
		c = '0';
	close(fd);
	return c != '0';
}

/* Login sessions, as top and uptime count them. */
static unsigned count_users(void)
{
	struct utmpx *u;
	unsigned n = 0;

	setutxent();
	while ((u = getutxent()))
		n += u->ut_type == USER_PROCESS;
	endutxent();
	return n;
}

/*
 * Its self is ptop's PID, and self's NSpid has one PID (it lists one per
 * level from the proc's namespace down to ptop's: more under an ancestor's
 * proc, as after unshare -p -f without --mount-proc, where a PID can also be
 * ptop's in both). A kernel before 4.1 has no NSpid: the first test alone then.
 */
bool proc_own_pid_ns(const char *root)
{
	char path[4096], buf[4096], want[16];
	const char *p, *end;
	ssize_t n;
	int fd, pids = 0;

	snprintf(path, sizeof(path), "%s/self", root);
	n = readlink(path, buf, sizeof(buf) - 1);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	snprintf(want, sizeof(want), "%d", (int)getpid());
	if (strcmp(buf, want))
		return false;
	snprintf(path, sizeof(path), "%s/self/status", root);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	p = strstr(buf, "\nNSpid:");
	if (!p)
		return true;
	end = strchr(p + 1, '\n');
	if (!end)
		end = buf + n;
	for (p += 7; p < end; p++)
		pids += (*p >= '0' && *p <= '9') && (p[-1] == ' ' || p[-1] == '\t');
	return pids == 1;
}

int sampler_new(const struct sampler_opts *o, struct sampler **out)
{
	struct sampler *s = xcalloc(1, sizeof(*s));
	long page;
	int err;

	err = proc_reader_new(o->root, &s->reader);
	if (err)
		goto out_free;
	if (procps_stat_new(&s->stat) < 0 || procps_meminfo_new(&s->meminfo) < 0) {
		err = -ENODEV;
		goto out_free;
	}
	s->users = users_new();
	s->cgroups = cgroup_names_new();
	s->strings = row_strings_new();
	s->root = o->root;
	s->cgroup_root = o->cgroup_root;
	s->gids = groups_new();
	/* another machine's proc root says nothing of this one's nodes */
	s->node_root = o->node_root			       ? o->node_root
		       : !o->root || !strcmp(o->root, "/proc") ? "/sys/devices/system/node"
							       : NULL;
	sampler_configure(s, o);
	s->hz = sysconf(_SC_CLK_TCK);
	if (s->hz <= 0)
		s->hz = 100;
	page = sysconf(_SC_PAGESIZE);
	s->page_kb = page > 0 ? (uint64_t)page / 1024 : 4;
	s->pid_max = read_pid_max(o->root);
	s->init = (struct proc_slot){.pid = 1};
	for (int i = 0; i < PROC_NFILES; i++)
		s->init.fd[i] = -1;
	*out = s;
	return 0;

out_free:
	sampler_free(s);
	return err;
}

void sampler_configure(struct sampler *s, const struct sampler_opts *o)
{
	s->needs = o->needs;
	s->needs_all = o->needs_all;
	s->needs_lazy = o->needs_lazy & SAMPLER_LAZY_FILES;
	s->read_less = o->read_less && !o->threads;
	s->view = o->view;
	s->nview = o->view ? o->nview : 0;
	s->per_cpu = o->per_cpu;
	s->want_sysio = o->sysio;
	s->want_psi = o->psi;
	s->threads = o->threads;
	s->user_threads = o->user_threads && !o->threads;
}

void sampler_free(struct sampler *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nkept; i++)
		free(s->kept[i].side);
	free(s->kept);
	free(s->lazy);
	free(s->lazy_cg);
	free(s->lazy_cg_next);
	for (int i = 0; i < PROC_NFILES; i++)
		if (s->init.fd[i] >= 0)
			close(s->init.fd[i]);
	if (s->stat)
		procps_stat_unref(&s->stat);
	if (s->meminfo)
		procps_meminfo_unref(&s->meminfo);
	users_free(s->users);
	cgroup_names_free(s->cgroups);
	row_strings_free(s->strings);
	users_free(s->gids);
	free(s->cpu_node);
	free(s->env_buf);
	sbuf_free(&s->groups);
	sbuf_free(&s->maps);
	free(s->files);
	sysio_free(s->sysio);
	psi_free(s->psi);
	cgpsi_free(s->cgpsi);
	proc_taskstats_close(s->taskstats);
	proc_reader_free(s->reader);
	free(s);
}

void frame_free(struct frame *f)
{
	free(f->procs);
	free(f->exited);
	free(f->cpus);
	frame_sides_free(f);
	sbuf_free(&f->strings);
	memset(f, 0, sizeof(*f));
}

/* Percentages from one CPU's (or the summary's) tick counts. */
static void cpu_split(const struct stat_stack *st, bool first, struct frame_cpu *out)
{
	double v[CPU_NFIELDS], sum = 0;

	for (int i = 0; i < CPU_NFIELDS; i++) {
		v[i] = first ? (double)st->head[i].result.ull_int
			     : (double)st->head[CPU_NFIELDS + i].result.sl_int;
		if (v[i] < 0)
			v[i] = 0;
		sum += v[i];
	}
	if (sum <= 0) {
		*out = (struct frame_cpu){.idle = 100};
		return;
	}
	for (int i = 0; i < CPU_NFIELDS; i++)
		v[i] = v[i] * 100.0 / sum;
	*out = (struct frame_cpu){.user = v[0],
				  .nice = v[1],
				  .system = v[2],
				  .idle = v[3],
				  .iowait = v[4],
				  .irq = v[5],
				  .softirq = v[6],
				  .steal = v[7]};
}

static void sample_system(struct sampler *s, struct frame *f, bool first)
{
	struct stat_stack *st;
	struct meminfo_stack *mi;
	double up = 0, idle = 0;

	if (procps_uptime(&up, &idle) >= 0)
		f->uptime_s = up;
	if (procps_loadavg(&f->load[0], &f->load[1], &f->load[2]) < 0)
		f->load[0] = f->load[1] = f->load[2] = 0;
	f->ncpu = (unsigned)procps_cpu_count();
	f->hz = s->hz;
	f->pid_max = s->pid_max;
	f->nusers = count_users();

	/* The first frame shows the split since boot; later ones the interval's. */
	f->ncpus = 0;
	if (s->per_cpu) {
		struct stat_reaped *rp = procps_stat_reap(s->stat, STAT_REAP_CPUS_ONLY, cpu_items,
							  sizeof(cpu_items) / sizeof(cpu_items[0]));

		st = rp ? rp->summary : NULL;
		if (rp && rp->cpus && rp->cpus->total > 0) {
			f->cpus = xreallocarray(f->cpus, (size_t)rp->cpus->total, sizeof(*f->cpus));
			for (int i = 0; i < rp->cpus->total; i++)
				cpu_split(rp->cpus->stacks[i], first, &f->cpus[i]);
			f->ncpus = (unsigned)rp->cpus->total;
		}
	} else {
		st = procps_stat_select(s->stat, cpu_items,
					sizeof(cpu_items) / sizeof(cpu_items[0]));
	}
	if (st) {
		struct stat_result *r;

		cpu_split(st, first, &f->cpu);
		/* read by the select or reap just now (libproc2 reads again a second later) */
		r = procps_stat_get(s->stat, STAT_SYS_CTX_SWITCHES);
		f->ctx_switches = r ? (uint64_t)r->result.ul_int : 0;
		r = procps_stat_get(s->stat, STAT_SYS_TIME_OF_BOOT);
		f->boot_time = r ? (uint64_t)r->result.ul_int : 0;
	}
	mi = procps_meminfo_select(s->meminfo, mem_items, MI_N);
	if (mi) {
#define MV(i) ((uint64_t)mi->head[i].result.ul_int)
		f->mem.total = MV(MI_TOTAL);
		f->mem.free = MV(MI_FREE);
		f->mem.used = MV(MI_USED);
		f->mem.buff_cache = MV(MI_BUFFERS) + MV(MI_CACHED);
		f->mem.avail = MV(MI_AVAIL);
		f->swap.total = MV(MI_STOTAL);
		f->swap.free = MV(MI_SFREE);
		f->swap.used = MV(MI_SUSED);
#undef MV
	}
}

/* The kernel's flag for its own threads (include/linux/sched.h): their uid never changes. */
#define PF_KTHREAD 0x00200000u

/*
 * What in stat moves when a process works or execs. A change prompts a new
 * look at its uid: a process must run to change its credentials, and an
 * exec (of a setuid binary, say) changes its name and size. Fields that move
 * on every wake-up (state, CPU, faults) would send most processes to status
 * on every frame of a busy machine.
 */
static uint64_t stat_sig(const struct proc_stat *st)
{
	const uint64_t v[] = {st->utime, st->stime, st->vsize, (uint64_t)st->num_threads};
	uint64_t h = 14695981039346656037ull; /* FNV-1a */

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		h = (h ^ v[i]) * 1099511628211ull;
	for (size_t i = 0; i < st->comm.n; i++)
		h = (h ^ (unsigned char)st->comm.p[i]) * 1099511628211ull;
	return h;
}

/*
 * The effective uid again. On a proc file system the owner of /proc/PID, as
 * the listing takes it (proc_reader_owner_is_euid()): a stat of the
 * directory is a quarter of an open, read and close of status. In a copy
 * (test fixtures) the owner is whoever made it: status tells.
 * Returns 0, -ESRCH when the process is gone, or another -errno.
 */
static int uid_look(struct sampler *s, struct proc_slot *slot)
{
	struct proc_status ss;
	ssize_t n;
	int err;

	if (proc_reader_owner_is_euid(s->reader))
		return proc_reader_restat(s->reader, slot);
	n = proc_reader_read_file(s->reader, slot->pid, 0, "status", s->status_buf,
				  sizeof(s->status_buf));
	if (n < 0)
		return (int)n;
	err = proc_parse_status(s->status_buf, (size_t)n, &ss);
	if (err)
		return err;
	slot->uid = ss.uid[1];
	return 0;
}

/* This frame is slot's turn for the periodic look at its uid (SAMPLER_UID_RECHECK). */
static bool uid_turn(const struct proc_slot *slot)
{
	return (slot->gen + (unsigned)slot->pid) % SAMPLER_UID_RECHECK == 0;
}

/*
 * I/O accounting, when asked for. A process whose io cannot be read (another
 * user's, without privilege) keeps its row with the figures unknown.
 */
static void sample_io(struct sampler *s, struct proc_slot *slot, struct frame_proc *p,
		      unsigned needs, double uptime)
{
	struct frame_proc_side *ps = frame_side_w(p);
	struct proc_io io;
	double secs;
	bool first;
	ssize_t n;

	p->has_io = ps->has_io_ops = false;
	p->io_rchar = p->io_wchar = p->io_read_bytes = p->io_write_bytes = 0;
	p->io_read_rate = p->io_write_rate = ps->io_rate = 0;
	ps->io_syscr = ps->io_syscw = ps->io_cancelled = 0;
	if (!(needs & PROC_NEED(PROC_FILE_IO)))
		return;
	/*
	 * An unprivileged ptop is refused most processes' io: not a failed
	 * open per process and frame, but a new try as often as the uid is
	 * looked at again (its owner may change, or the process exec).
	 */
	if (slot->io_refused && !uid_turn(slot))
		return;
	n = proc_reader_read(s->reader, slot, PROC_FILE_IO, s->io_buf, sizeof(s->io_buf));
	slot->io_refused = n == -EACCES || n == -EPERM;
	if (n < 0 || proc_parse_io(s->io_buf, (size_t)n, &io))
		return;
	p->has_io = true;
	p->io_rchar = io.rchar;
	p->io_wchar = io.wchar;
	p->io_read_bytes = io.read_bytes;
	p->io_write_bytes = io.write_bytes;
	ps->has_io_ops = true;
	ps->io_syscr = io.syscr;
	ps->io_syscw = io.syscw;
	ps->io_cancelled = io.cancelled_write_bytes;
	first = slot->io_at <= 0;
	secs = first ? uptime - (double)p->start_ticks / (double)s->hz : s->now_mono - slot->io_at;
	p->io_read_rate = frame_io_rate(io.read_bytes, first ? 0 : slot->io_prev_read, secs);
	p->io_write_rate = frame_io_rate(io.write_bytes, first ? 0 : slot->io_prev_write, secs);
	ps->io_rate = p->io_read_rate + p->io_write_rate;
	slot->io_prev_read = io.read_bytes;
	slot->io_prev_write = io.write_bytes;
	slot->io_at = s->now_mono;
}

/*
 * The LXC container's name in the n bytes of cgroup at buf, as top finds it: the first line
 * with the delimiter of LXC 4 and later, else of 3.1, else of 3.0, and in it what follows the
 * last one (nested containers) up to a '/'. Its end, with *name its start; NULL for none.
 */
static const char *lxc_name(const char *buf, size_t n, const char **name)
{
	static const char *const delims[] = {"lxc.payload.", "lxc.payload/", "lxc/"};
	const char *end = buf + n;

	for (size_t d = 0; d < sizeof(delims) / sizeof(delims[0]); d++) {
		size_t dl = strlen(delims[d]);
		const char *at = memmem(buf, n, delims[d], dl), *next, *line_end, *t;

		if (!at)
			continue;
		line_end = memchr(at, '\n', (size_t)(end - at));
		if (!line_end)
			line_end = end;
		while ((next = memmem(at + dl, (size_t)(line_end - at) - dl, delims[d], dl)))
			at = next;
		*name = at + dl;
		t = memchr(*name, '/', (size_t)(line_end - *name));
		return t ? t : line_end;
	}
	return NULL;
}

/*
 * Top's views of the n bytes of cgroup in s->cgroup_buf into p: CGROUPS (every line but a root
 * cgroup's, joined by ','s, a control byte as '?'), CGNAME (what follows its ":name=", else
 * all of it) and LXC (lxc_name()).
 */
static void cgroup_top_names(struct sampler *s, ssize_t n, struct frame_proc *p)
{
	struct frame_proc_side *ps = frame_side_w(p);
	const char *q = s->cgroup_buf, *end = q + n, *lxc = NULL;
	const char *lxc_end = lxc_name(q, (size_t)n, &lxc);
	const char *name;
	size_t at = 0;

	sbuf_reset(&s->groups);
	while (q < end) {
		const char *nl = memchr(q, '\n', (size_t)(end - q));
		const char *e = nl ? nl : end;

		if (e > q && e[-1] != '/') {
			if (s->groups.len)
				sbuf_addc(&s->groups, ',');
			for (const char *c = q; c < e; c++)
				sbuf_addc(&s->groups,
					  (unsigned char)*c < 0x20 || *c == 0x7f ? '?' : *c);
		}
		q = e + 1;
	}
	ps->cgroups = row_strings_get(s->strings, s->groups.p ? s->groups.p : "", s->groups.len);
	name = strstr(ps->cgroups, ":name=");
	at = name && name[6] ? (size_t)(name + 6 - ps->cgroups) : 0;
	ps->cgname = ps->cgroups + at;
	ps->lxc = lxc_end ? row_strings_get(s->strings, lxc, (size_t)(lxc_end - lxc))
			  : row_strings_get(s->strings, "", 0);
}

/* p's cgroup and container from the n bytes of cgroup in s->cgroup_buf (n < 0: unread). */
static void cgroup_from_buf(struct sampler *s, ssize_t n, struct frame_proc *p, unsigned needs)
{
	const struct ptop_view *path;
	struct proc_cgroup cg;

	if (n < 0 || proc_parse_cgroup(s->cgroup_buf, (size_t)n, &cg))
		return;
	path = proc_cgroup_path(&cg);
	if (!path)
		return;
	p->cgroup = cgroup_names_get(s->cgroups, path->p, path->n, &p->container);
	if (needs & ROW_NEED_CGLINES_BIT)
		cgroup_top_names(s, n, p);
	/* the pressure is the unified hierarchy's: its "/" when the path shown is systemd's */
	if (!(cg.have & PROC_CGROUP_V2))
		p->cgroup_v1 = FRAME_CGROUP_NO_UNIFIED;
	else if (path != &cg.v2)
		p->cgroup_v1 = FRAME_CGROUP_UNIFIED_ROOT;
}

/* The cgroup path and its container or unit, when asked for; NULL when unreadable. */
static void sample_cgroup(struct sampler *s, struct proc_slot *slot, struct frame_proc *p,
			  unsigned needs)
{
	struct frame_proc_side *ps = frame_side_w(p);
	ssize_t n;

	p->cgroup = p->container = NULL;
	ps->cgroups = ps->cgname = ps->lxc = ps->ccgroup = NULL;
	p->cgroup_v1 = FRAME_CGROUP_UNIFIED;
	if (!(needs & PROC_NEED(PROC_FILE_CGROUP)))
		return;
	n = proc_reader_read(s->reader, slot, PROC_FILE_CGROUP, s->cgroup_buf,
			     sizeof(s->cgroup_buf));
	cgroup_from_buf(s, n, p, needs);
}

/* One number of an OOM file f into *v when needs asks for it; whether it holds. */
static bool oom_read(struct sampler *s, struct proc_slot *slot, enum proc_file f, unsigned needs,
		     int *v)
{
	char buf[32];
	ssize_t n;

	*v = 0;
	if (!(needs & PROC_NEED(f)))
		return false;
	n = proc_reader_read(s->reader, slot, f, buf, sizeof(buf));
	return n >= 0 && proc_parse_oom(buf, (size_t)n, v) == 0;
}

/* The OOM score and adjustment, each when asked for; unknown (not 0) when unreadable. */
static void sample_oom(struct sampler *s, struct proc_slot *slot, struct frame_proc *p,
		       unsigned needs)
{
	struct frame_proc_side *ps = frame_side_w(p);

	ps->has_oom = oom_read(s, slot, PROC_FILE_OOM_SCORE, needs, &ps->oom_score);
	ps->has_oom_adj = oom_read(s, slot, PROC_FILE_OOM_ADJ, needs, &ps->oom_adj);
}

/*
 * File f (name) of p's process, or of its thread for a thread's row, into
 * buf: through slot's held descriptor, or opened by PID for a row read
 * elsewhere (slot NULL: BPF's). Its length, or -errno.
 */
static ssize_t side_read(struct sampler *s, struct proc_slot *slot, const struct frame_proc *p,
			 enum proc_file f, const char *name, char *buf, size_t cap)
{
	if (slot)
		return proc_reader_read(s->reader, slot, f, buf, cap);
	return proc_reader_read_file(s->reader, p->tgid ? p->tgid : p->pid,
				     p->tgid && p->pid != p->tgid ? p->pid : 0, name, buf, cap);
}

/* What it waits in, when asked for: NULL (unknown) while it runs, or when unreadable. */
static void sample_wchan(struct sampler *s, struct proc_slot *slot, struct frame_proc *p,
			 unsigned needs)
{
	struct frame_proc_side *ps = frame_side_w(p);
	const char *name;
	size_t n;
	ssize_t len;

	ps->wchan = NULL;
	if (!(needs & ROW_NEED_WCHAN))
		return;
	len = side_read(s, slot, p, PROC_FILE_WCHAN, "wchan", s->side_buf, sizeof(s->side_buf));
	if (len > 0 && !proc_parse_wchan(s->side_buf, (size_t)len, &name, &n) && n)
		ps->wchan = row_strings_get(s->strings, name, n);
}

/* Its security label, when asked for: NULL where no module gives one, or unreadable. */
static void sample_secattr(struct sampler *s, struct proc_slot *slot, struct frame_proc *p,
			   unsigned needs)
{
	struct frame_proc_side *ps = frame_side_w(p);
	const char *label;
	size_t n;
	ssize_t len;

	ps->secattr = NULL;
	if (!(needs & ROW_NEED_SECATTR))
		return;
	len = side_read(s, slot, p, PROC_FILE_SECATTR, "attr/current", s->side_buf,
			sizeof(s->side_buf));
	if (len > 0 && !proc_parse_secattr(s->side_buf, (size_t)len, &label, &n))
		ps->secattr = row_strings_get(s->strings, label, n);
}

/* The process (*pid) and thread (*tid, 0 for a process's row) whose files p's are. */
static void whose(const struct proc_slot *slot, const struct frame_proc *p, int *pid, int *tid)
{
	/* a slot knows whose it is; a row read elsewhere says so itself */
	if (slot) {
		*pid = slot->tgid ? slot->tgid : slot->pid;
		*tid = slot->tgid ? slot->pid : 0;
	} else {
		*pid = p->tgid ? p->tgid : p->pid;
		*tid = p->tgid && p->pid != p->tgid ? p->pid : 0;
	}
}

/*
 * Its smaps_rollup, when asked for: the kernel walks its page tables for it, which is why only
 * a column asks. Unknown where refused (the kernel's ptrace check), for a kernel thread (empty)
 * and where the file is malformed. A thread's row has its process's (one memory).
 */
static void sample_rollup(struct sampler *s, struct proc_slot *slot, struct frame_proc *p,
			  unsigned needs)
{
	struct frame_proc_side *ps = frame_side_w(p);
	struct proc_rollup r;
	ssize_t len;

	ps->has_rollup = ps->has_pss_split = false;
	ps->pss_kb = ps->pss_anon_kb = ps->pss_file_kb = ps->pss_shmem_kb = 0;
	ps->uss_kb = ps->swap_pss_kb = ps->rollup_rss_kb = 0;
	if (!(needs & ROW_NEED_ROLLUP))
		return;
	len = side_read(s, slot, p, PROC_FILE_ROLLUP, "smaps_rollup", s->side_buf,
			sizeof(s->side_buf));
	if (len <= 0 || proc_parse_rollup(s->side_buf, (size_t)len, &r))
		return;
	ps->has_rollup = true;
	ps->pss_kb = r.pss_kb;
	/* top's USS: Private_Clean + Private_Dirty, which a kernel with the rollup has */
	ps->uss_kb = r.private_clean_kb + r.private_dirty_kb;
	ps->swap_pss_kb = r.swap_pss_kb;
	ps->rollup_rss_kb = r.rss_kb;
	if (r.have & PROC_ROLLUP_SPLIT) {
		ps->has_pss_split = true;
		ps->pss_anon_kb = r.pss_anon_kb;
		ps->pss_file_kb = r.pss_file_kb;
		ps->pss_shmem_kb = r.pss_shmem_kb;
	}
}

/*
 * htop's LIB from its maps, when asked for: a file without bound, read whole by path into a
 * buffer that keeps its size. A thread's row has its process's (one memory). Unknown where
 * refused (the kernel's ptrace check), for a kernel thread (empty) and where malformed.
 */
static void sample_lib(struct sampler *s, const struct proc_slot *slot, struct frame_proc *p,
		       unsigned needs)
{
	struct frame_proc_side *ps = frame_side_w(p);
	int pid = slot ? (slot->tgid ? slot->tgid : slot->pid) : (p->tgid ? p->tgid : p->pid);
	uint64_t bytes;
	size_t need;
	int err;

	ps->has_lib = false;
	ps->lib_kb = 0;
	if (!(needs & ROW_NEED_MAPS))
		return;
	sbuf_reset(&s->maps);
	if (proc_read_all(s->root, pid, 0, "maps", &s->maps))
		return;
	err = proc_maps_lib(s->maps.p, s->maps.len, s->files, s->nfiles, &need, &bytes);
	if (err == -ENOSPC) {
		s->nfiles = need + need / 2;
		s->files = xreallocarray(s->files, s->nfiles, sizeof(*s->files));
		err = proc_maps_lib(s->maps.p, s->maps.len, s->files, s->nfiles, &need, &bytes);
	}
	if (err)
		return;
	ps->has_lib = true;
	ps->lib_kb = bytes / 1024;
}

/*
 * The path a link of p's process (its thread's, for a thread's row) gives,
 * when need is asked for; NULL when it cannot be read (refused, none).
 */
static const char *side_link(struct sampler *s, const struct proc_slot *slot,
			     const struct frame_proc *p, unsigned needs, unsigned need,
			     const char *name)
{
	int pid, tid;
	ssize_t n;

	if (!(needs & need))
		return NULL;
	whose(slot, p, &pid, &tid);
	n = proc_reader_readlink(s->reader, pid, tid, name, s->side_buf, sizeof(s->side_buf));
	return n > 0 ? row_strings_get(s->strings, s->side_buf, (size_t)n) : NULL;
}

/* ns link names, in the order of the ns_* members (row.def) */
static const char *const ns_links[] = {"ns/cgroup", "ns/ipc",  "ns/mnt", "ns/net",
				       "ns/pid",    "ns/user", "ns/uts", "ns/time"};

/* Its namespaces' inodes, when asked for: 0 where a link cannot be read (refused, none). */
static void sample_ns(struct sampler *s, const struct proc_slot *slot, struct frame_proc *p,
		      unsigned needs)
{
	struct frame_proc_side *ps = frame_side_w(p);
	uint64_t *ns[] = {&ps->ns_cgroup, &ps->ns_ipc,	&ps->ns_mnt, &ps->ns_net,
			  &ps->ns_pid,	  &ps->ns_user, &ps->ns_uts, &ps->ns_time};
	int pid, tid;

	_Static_assert(sizeof(ns) / sizeof(ns[0]) == sizeof(ns_links) / sizeof(ns_links[0]),
		       "a link per member");
	for (size_t i = 0; i < sizeof(ns) / sizeof(ns[0]); i++)
		*ns[i] = 0;
	if (!(needs & ROW_NEED_NS))
		return;
	whose(slot, p, &pid, &tid);
	for (size_t i = 0; i < sizeof(ns) / sizeof(ns[0]); i++) {
		ssize_t n = proc_reader_readlink(s->reader, pid, tid, ns_links[i], s->side_buf,
						 sizeof(s->side_buf) - 1);

		if (n > 0) {
			s->side_buf[n] = '\0';
			proc_parse_ns_link(s->side_buf, (size_t)n, ns[i]);
		} else if (n == -ESRCH) {
			return;
		}
	}
}

/* Its run delay (schedstat), when asked for: a task's own. */
static void sample_run_delay(struct sampler *s, struct proc_slot *slot, struct frame_proc *p,
			     unsigned needs)
{
	struct frame_proc_side *ps = frame_side_w(p);
	struct proc_schedstat ss;
	char buf[96];
	ssize_t n;

	ps->has_run_delay = false;
	ps->run_delay_ns = 0;
	if (!(needs & ROW_NEED_SCHEDSTAT))
		return;
	n = side_read(s, slot, p, PROC_FILE_SCHEDSTAT, "schedstat", buf, sizeof(buf));
	if (n >= 0 && !proc_parse_schedstat(buf, (size_t)n, &ss)) {
		ps->has_run_delay = true;
		ps->run_delay_ns = ss.wait_ns;
	}
}

/*
 * Its swap-in delay from taskstats, when asked for and the kernel counts it: a task's own (a
 * slot's pid is its TID). A refusal (no CAP_NET_ADMIN) is every row's: none asks again.
 */
static void sample_swapin(struct sampler *s, struct proc_slot *slot, struct frame_proc *p,
			  unsigned needs)
{
	struct frame_proc_side *ps = frame_side_w(p);
	struct proc_taskstats ts;
	int err;

	ps->has_swapin = false;
	ps->swapin_delay_ns = 0;
	if (!(needs & ROW_NEED_TASKSTATS) || !s->taskstats || s->taskstats_err || !s->delayacct)
		return;
	err = proc_taskstats_get(s->taskstats, slot ? slot->pid : p->pid, &ts);
	if (err == -EPERM || err == -EACCES) {
		s->taskstats_err = err;
		return;
	}
	if (!err) {
		ps->has_swapin = true;
		ps->swapin_delay_ns = ts.swapin_delay_ns;
	}
}

/*
 * Opens taskstats when a frame first asks for it: only under the live /proc, whose PIDs are
 * the ones the kernel's netlink knows (another root's are not).
 */
static void taskstats_begin(struct sampler *s, struct frame *f)
{
	bool asked = (s->needs | s->needs_all) & ROW_NEED_TASKSTATS;

	if (asked && !s->taskstats && !s->taskstats_err) {
		if (s->root && strcmp(s->root, "/proc"))
			s->taskstats_err = -EOPNOTSUPP;
		else
			s->taskstats_err = proc_taskstats_open(&s->taskstats);
		/* its own row tells whether it may ask at all (CAP_NET_ADMIN), whether or not
		 * the kernel counts delays */
		if (s->taskstats) {
			struct proc_taskstats ts;
			int err = proc_taskstats_get(s->taskstats, getpid(), &ts);

			if (err == -EPERM || err == -EACCES)
				s->taskstats_err = err;
		}
	}
	f->taskstats_err = asked ? s->taskstats_err : 0;
}

/*
 * The members read from files of their own only when a column asks (its
 * autogroup, what it waits in, its I/O priority, its security label, its
 * exe and cwd), which
 * BPF's rows take from /proc too: slot NULL for those.
 */
/* Its session's autogroup, when asked for: a process's file, which a thread's row copies. */
static void sample_agrp(struct sampler *s, struct proc_slot *slot, struct frame_proc *p,
			unsigned needs)
{
	struct frame_proc_side *ps = frame_side_w(p);
	char buf[64];
	ssize_t n;

	ps->has_agrp = false;
	ps->autogroup_id = 0;
	ps->autogroup_nice = 0;
	if (!(needs & ROW_NEED_AUTOGROUP))
		return;
	if (slot)
		n = proc_reader_read(s->reader, slot, PROC_FILE_AUTOGROUP, buf, sizeof(buf));
	else
		n = proc_reader_read_file(s->reader, p->tgid ? p->tgid : p->pid, 0, "autogroup",
					  buf, sizeof(buf));
	ps->has_agrp =
	    n >= 0 && !proc_parse_autogroup(buf, (size_t)n, &ps->autogroup_id, &ps->autogroup_nice);
}

/* The uid it logged in as, when asked for: none where the kernel has no such file. */
static void sample_loginuid(struct sampler *s, struct proc_slot *slot, struct frame_proc *p,
			    unsigned needs)
{
	struct frame_proc_side *ps = frame_side_w(p);
	ssize_t n;

	ps->has_loginuid = false;
	ps->loginuid = 0;
	if (!(needs & ROW_NEED_LOGINUID))
		return;
	n = side_read(s, slot, p, PROC_FILE_LOGINUID, "loginuid", s->side_buf, sizeof(s->side_buf));
	ps->has_loginuid = n > 0 && !proc_parse_loginuid(s->side_buf, (size_t)n, &ps->loginuid);
}

/*
 * Its environment, when asked for, its NULs as spaces (top's ENVIRON): NULL where the
 * kernel's ptrace check refuses the reader. One longer than ENV_BUF is cut there.
 */
static void sample_environ(struct sampler *s, struct proc_slot *slot, struct frame_proc *p,
			   unsigned needs)
{
	struct frame_proc_side *ps = frame_side_w(p);
	ssize_t n;

	ps->environ = NULL;
	if (!(needs & ROW_NEED_ENVIRON))
		return;
	if (!s->env_buf)
		s->env_buf = xmalloc(ENV_BUF);
	n = side_read(s, slot, p, PROC_FILE_ENVIRON, "environ", s->env_buf, ENV_BUF);
	if (n == -EFBIG)
		n = ENV_BUF;
	if (n < 0)
		return;
	/* the last string's NUL ends it, no separator */
	while (n > 0 && !s->env_buf[n - 1])
		n--;
	for (ssize_t i = 0; i < n; i++)
		if (!s->env_buf[i])
			s->env_buf[i] = ' ';
	ps->environ = row_strings_get(s->strings, s->env_buf, (size_t)n);
}

/* Each CPU's NUMA node, from the nodes' CPU lists (nodeN/cpulist), once; false: none to be had. */
static bool numa_map(struct sampler *s)
{
	uint8_t set[NUMA_CPUS / 8];
	char path[PATH_MAX], buf[4096];
	bool any = false;
	DIR *d;
	struct dirent *e;

	if (s->cpu_node || s->no_numa)
		return s->cpu_node;
	s->no_numa = true;
	d = s->node_root ? opendir(s->node_root) : NULL;
	if (!d)
		return false;
	s->cpu_node = xmalloc(NUMA_CPUS * sizeof(*s->cpu_node));
	for (int c = 0; c < NUMA_CPUS; c++)
		s->cpu_node[c] = -1;
	while ((e = readdir(d))) {
		char *end;
		long node;
		ssize_t n;
		int fd;

		if (strncmp(e->d_name, "node", 4) || !isdigit((unsigned char)e->d_name[4]))
			continue;
		node = strtol(e->d_name + 4, &end, 10);
		if (*end || node > INT16_MAX)
			continue;
		snprintf(path, sizeof(path), "%s/%s/cpulist", s->node_root, e->d_name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		n = fd < 0 ? -1 : read(fd, buf, sizeof(buf));
		if (fd >= 0)
			close(fd);
		memset(set, 0, sizeof(set));
		if (n <= 0 || proc_parse_cpulist(buf, (size_t)n, set, NUMA_CPUS))
			continue;
		for (int c = 0; c < NUMA_CPUS; c++)
			if (set[c / 8] >> (c % 8) & 1)
				s->cpu_node[c] = (int16_t)node;
		any = true;
	}
	closedir(d);
	if (!any) {
		free(s->cpu_node);
		s->cpu_node = NULL;
		return false;
	}
	s->no_numa = false;
	return true;
}

/* The NUMA node of the CPU it last ran on, when asked for and the machine says. */
static void sample_numa(struct sampler *s, struct frame_proc *p, unsigned needs)
{
	struct frame_proc_side *ps = frame_side_w(p);

	ps->has_numa = false;
	ps->numa_node = 0;
	if (!(needs & ROW_NEED_NUMA) || !numa_map(s) || p->processor < 0 ||
	    p->processor >= NUMA_CPUS || s->cpu_node[p->processor] < 0)
		return;
	ps->numa_node = s->cpu_node[p->processor];
	ps->has_numa = true;
}

static void sample_side(struct sampler *s, struct proc_slot *slot, struct frame_proc *p,
			unsigned needs)
{
	struct frame_proc_side *ps = frame_side_w(p);

	/* a thread has no autogroup file of its own (task/TID has none): its row keeps the
	 * process's, or one read elsewhere reads the process's by its tgid */
	if (!slot || !slot->tgid)
		sample_agrp(s, slot, p, needs);
	sample_wchan(s, slot, p, needs);
	/* a thread's own: a slot's pid is its TID */
	ps->has_ioprio = needs & ROW_NEED_IOPRIO &&
			 !proc_reader_ioprio(s->reader, slot ? slot->pid : p->pid, &ps->ioprio);
	if (!ps->has_ioprio)
		ps->ioprio = 0;
	sample_secattr(s, slot, p, needs);
	sample_rollup(s, slot, p, needs);
	sample_lib(s, slot, p, needs);
	ps->exe = side_link(s, slot, p, needs, ROW_NEED_EXE, "exe");
	ps->cwd = side_link(s, slot, p, needs, ROW_NEED_CWD, "cwd");
	sample_loginuid(s, slot, p, needs);
	sample_environ(s, slot, p, needs);
	sample_numa(s, p, needs);
	sample_ns(s, slot, p, needs);
	sample_run_delay(s, slot, p, needs);
	sample_swapin(s, slot, p, needs);
}

/*
 * Whether slot's uid must be looked at again after stat st was read, and the
 * bookkeeping of its identity (start time, signature) that decides it.
 */
static bool uid_due(struct sampler *s, struct proc_slot *slot, bool is_new,
		    const struct proc_stat *st)
{
	uint64_t sig = stat_sig(st);
	bool check;

	if (is_new) {
		slot->start_ticks = st->starttime;
		/* the listing just took its uid: a copy's root owner says nothing */
		check = !proc_reader_owner_is_euid(s->reader) && slot->uid == 0;
	} else if (st->starttime != slot->start_ticks) {
		/* Same PID, another process: nothing of the old one carries over. */
		slot->start_ticks = st->starttime;
		slot->have_prev = false;
		slot->io_at = 0;
		slot->io_refused = false;
		/* its uid anew: on proc that stat is the look (a failed one looks again) */
		check =
		    proc_reader_restat(s->reader, slot) || !proc_reader_owner_is_euid(s->reader);
	} else {
		/*
		 * Credentials change without a trace in stat when the process ran
		 * less than a tick (setresuid): look again every
		 * SAMPLER_UID_RECHECK frames, spread over the PIDs.
		 */
		check = sig != slot->stat_sig || (!(s->less && slot->quiet) && uid_turn(slot));
	}
	slot->stat_sig = sig;
	return check && !(st->flags & PF_KTHREAD);
}

/* The fields of p that stat gives. */
static void fill_stat(const struct sampler *s, const struct proc_stat *st, struct frame_proc *p)
{
	struct frame_proc_side *ps = frame_side_w(p);

	p->ppid = (int)st->ppid;
	p->state = st->state;
	p->comm_len = (uint8_t)(st->comm.n < PROC_COMM_MAX ? st->comm.n : PROC_COMM_MAX);
	memcpy(p->comm, st->comm.p, p->comm_len);
	p->priority = st->priority;
	p->nice = st->nice;
	p->threads = st->num_threads;
	p->vsize_kb = st->vsize / 1024;
	p->rss_kb = st->rss > 0 ? (uint64_t)st->rss * s->page_kb : 0;
	p->utime = st->utime;
	p->stime = st->stime;
	p->cutime = st->cutime > 0 ? (uint64_t)st->cutime : 0;
	p->cstime = st->cstime > 0 ? (uint64_t)st->cstime : 0;
	ps->minflt = st->minflt;
	ps->majflt = st->majflt;
	ps->cminflt = st->cminflt;
	ps->cmajflt = st->cmajflt;
	ps->has_flt = true;
	ps->pgrp = (int)st->pgrp;
	ps->session = (int)st->session;
	ps->tty_nr = (int)st->tty_nr;
	ps->tpgid = (int)st->tpgid;
	ps->policy = (uint32_t)st->policy;
	ps->rt_priority = (uint32_t)st->rt_priority;
	ps->has_job = true;
	/* 0 while kernel.task_delayacct is off: no figure then */
	ps->has_blkio = s->delayacct;
	ps->blkio_ticks = s->delayacct ? st->delayacct_blkio_ticks : 0;
	p->start_ticks = st->starttime;
	p->processor = (int)st->processor;
	ps->task_flags = (uint32_t)st->flags;
	ps->has_tflags = true;
}

/* RES and SHR from statm. 0, or -errno when it cannot be read. */
static int read_statm(struct sampler *s, struct proc_slot *slot, struct frame_proc *p)
{
	struct frame_proc_side *ps = frame_side_w(p);
	struct proc_statm sm;
	ssize_t n =
	    proc_reader_read(s->reader, slot, PROC_FILE_STATM, s->statm_buf, sizeof(s->statm_buf));

	if (n < 0)
		return (int)n;
	/*
	 * statm sums the per-CPU RSS counters; stat's rss reads them
	 * unsummed (an estimate, pages behind), so SHR could exceed it.
	 */
	if (proc_parse_statm(s->statm_buf, (size_t)n, &sm) == 0) {
		p->rss_kb = sm.resident * s->page_kb;
		p->shared_kb = sm.shared * s->page_kb;
		ps->code_kb = sm.text * s->page_kb;
		ps->data_kb = sm.data * s->page_kb;
		ps->has_seg = true;
		ps->dirty_pages = sm.dt;
		ps->has_dirty = true;
	}
	return 0;
}

/* The names of the groups in ids ("4,24,27"), joined as they are: a group without one by its id. */
static const char *group_names(struct sampler *s, const char *ids)
{
	char buf[1024];

	sbuf_reset(&s->groups);
	while (*ids) {
		char *end;
		unsigned long gid = strtoul(ids, &end, 10);
		struct group gr, *res = NULL;

		if (s->groups.len)
			sbuf_addc(&s->groups, ',');
		if (getgrgid_r((gid_t)gid, &gr, buf, sizeof(buf), &res) == 0 && res)
			sbuf_adds(&s->groups, res->gr_name);
		else
			sbuf_add(&s->groups, ids, (size_t)(end - ids));
		ids = *end ? end + 1 : end;
	}
	return row_strings_get(s->strings, s->groups.p ? s->groups.p : "", s->groups.len);
}

/*
 * p's supplementary groups from status's Groups line (checked by the parser): the ids
 * joined by ','s, and their names, looked up once per distinct list.
 */
static void sample_groups(struct sampler *s, const struct proc_status *ss, struct frame_proc *p)
{
	struct frame_proc_side *ps = frame_side_w(p);
	const char *q, *end;
	const char **names;

	ps->supgids = ps->supgrps = NULL;
	/* without the line, groups.p is NULL: no pointer is made from it */
	if (!(ss->have & PROC_STATUS_GROUPS) || !ss->groups.p)
		return;
	q = ss->groups.p;
	end = q + ss->groups.n;
	sbuf_reset(&s->groups);
	while (q < end) {
		const char *t = q;

		while (t < end && *t != ' ' && *t != '\t')
			t++;
		if (t > q) {
			if (s->groups.len)
				sbuf_addc(&s->groups, ',');
			sbuf_add(&s->groups, q, (size_t)(t - q));
		}
		q = t + 1;
	}
	ps->supgids =
	    row_strings_get_aux(s->strings, s->groups.p ? s->groups.p : "", s->groups.len, &names);
	if (!*names)
		*names = group_names(s, ps->supgids);
	ps->supgrps = *names;
}

/* p's effective gid, its group's name, its locked memory and whether it runs in a container's
 * pid namespace, from status ss. */
static void status_ids(struct sampler *s, const struct proc_status *ss, struct frame_proc *p)
{
	struct frame_proc_side *ps = frame_side_w(p);

	ps->gid = ss->gid[1];
	ps->group = groups_name(s->gids, (gid_t)ps->gid);
	ps->rss_lock_kb = ss->vm_lck;
	ps->has_gid = true;
	ps->has_nspid = ss->have & PROC_STATUS_NSPID;
	ps->in_container = ss->nspids > 1;
}

/* The uid and the status columns. 0, or -errno when it cannot be read. */
static int read_status(struct sampler *s, struct proc_slot *slot, struct frame_proc *p)
{
	struct frame_proc_side *ps = frame_side_w(p);
	struct proc_status ss;
	ssize_t n = proc_reader_read(s->reader, slot, PROC_FILE_STATUS, s->status_buf,
				     sizeof(s->status_buf));

	if (n < 0)
		return (int)n;
	if (proc_parse_status(s->status_buf, (size_t)n, &ss) == 0) {
		slot->quiet = s->less;
		slot->uid = ss.uid[1];
		p->ruid = ss.uid[0];
		p->suid = ss.uid[2];
		p->fsuid = ss.uid[3];
		p->swap_kb = ss.vm_swap;
		p->rss_anon_kb = ss.rss_anon;
		p->rss_file_kb = ss.rss_file;
		p->vctxsw = ss.voluntary_ctxt;
		p->nvctxsw = ss.nonvoluntary_ctxt;
		ps->has_rsssh = ss.have & PROC_STATUS_RSSSHMEM;
		ps->rss_shmem_kb = ss.rss_shmem;
		status_ids(s, &ss, p);
		p->has_ctxsw = true;
		sample_groups(s, &ss, p);
	}
	return 0;
}

/* The lazy row of slot, made room for. */
static struct lazy_row *lazy_of(struct sampler *s, struct proc_slot *slot)
{
	if (slot->id >= s->nlazy) {
		size_t n = s->nlazy ? s->nlazy : 1024;

		while (n <= slot->id)
			n *= 2;
		s->lazy = xreallocarray(s->lazy, n, sizeof(*s->lazy));
		memset(s->lazy + s->nlazy, 0, (n - s->nlazy) * sizeof(*s->lazy));
		s->nlazy = n;
	}
	return &s->lazy[slot->id];
}

/*
 * Whether the members of l, slot's process's last lazy read, may have moved
 * (see sampler_opts.needs_lazy); its run time now becomes l's reference, read
 * before the files so that a run in between shows next time. -ESRCH: gone.
 */
static int lazy_due(struct sampler *s, struct proc_slot *slot, const struct proc_stat *st,
		    struct lazy_row *l, bool *due)
{
	uint64_t ns = 0;
	int err = proc_reader_runtime(s->reader, slot, &ns);

	if (err == -ESRCH)
		return err;
	if (err)
		ns = 0;
	/* a run time of 0 is a process not run yet, or none told: read */
	*due = !l->valid || ns == 0 || ns != l->run_ns || l->start_ticks != st->starttime ||
	       l->rss != st->rss ||
	       ((slot->gen + (unsigned)slot->pid) & (SAMPLER_LAZY_EVERY - 1)) == 0 ||
	       ((s->needs_lazy & PROC_NEED(PROC_FILE_CGROUP)) && l->cgroups_gen != s->cgroups_gen);
	l->run_ns = ns;
	l->start_ticks = st->starttime;
	l->rss = st->rss;
	return 0;
}

/* The lazy file (SAMPLER_LAZY_FILES) a row member needs read, or 0. */
#define LAZY_FILE(needs)                                                                           \
	((needs) == ROW_NEED_STATUS || (needs) == ROW_NEED_IO || (needs) == ROW_NEED_CGROUP        \
	     ? (needs)                                                                             \
	     : 0u)

/*
 * Every member of row.def read from one of files (lazy bits), from into to;
 * the side's from from_side into to_side, when both are there.
 */
static void lazy_copy(struct frame_proc *to, struct frame_proc_side *to_side,
		      const struct frame_proc *from, const struct frame_proc_side *from_side,
		      unsigned files)
{
#define ROW(type, name, dim, kind, since, when, needs, sources)                                    \
	if (LAZY_FILE(ROW_NEED_##needs) & files)                                                   \
		memcpy(&to->name, &from->name, sizeof(to->name));
#define ROW_LOCAL(type, name, dim, needs, sources) ROW(type, name, dim, , , , needs, sources)
#define ROW_SIDE(type, name, dim, kind, since, when, needs, sources)                               \
	if ((LAZY_FILE(ROW_NEED_##needs) & files) && to_side && from_side)                         \
		memcpy(&to_side->name, &from_side->name, sizeof(to_side->name));
#define ROW_SIDE_LOCAL(type, name, dim, needs, sources)                                            \
	ROW_SIDE(type, name, dim, , , , needs, sources)
#include "ptop/row.def"
#undef ROW
#undef ROW_LOCAL
#undef ROW_SIDE
#undef ROW_SIDE_LOCAL
}

/* p's members of the lazy files in files, just read, into l. */
static void lazy_store(struct sampler *s, struct lazy_row *l, unsigned files,
		       const struct frame_proc *p)
{
	lazy_copy(&l->p, &l->side, p, p->side, files);
	l->p.side = NULL;
	l->has_side = p->side != NULL;
	l->cgroups_gen = s->cgroups_gen;
	l->valid = true;
}

/* p's members of the files in lazy from l: they did not move since l was read. */
static void lazy_restore(struct sampler *s, struct proc_slot *slot, const struct lazy_row *l,
			 unsigned lazy, struct frame_proc *p)
{
	lazy_copy(p, p->side, &l->p, &l->side, lazy);
	if (lazy & PROC_NEED(PROC_FILE_IO)) {
		/* no run, no I/O: its rates are 0, and the next read's cover the frame before it */
		p->io_read_rate = p->io_write_rate = frame_side_w(p)->io_rate = 0;
		if (p->has_io)
			slot->io_at = s->now_mono;
	}
}

/*
 * Read one process into p: stat, then the files in needs. Returns 0, -ESRCH
 * when it vanished, or another -errno (unreadable or malformed: skipped like
 * a vanished one).
 */
static int sample_proc(struct sampler *s, struct proc_slot *slot, bool is_new, struct frame_proc *p,
		       unsigned needs, double interval, double uptime)
{
	struct frame_proc_side *ps = frame_side_w(p);
	unsigned lazy = s->needs_lazy & ~needs;
	struct lazy_row *l = NULL;
	struct proc_stat st;
	bool due = true;
	ssize_t n;
	int err;

	n = proc_reader_read(s->reader, slot, PROC_FILE_STAT, s->stat_buf, sizeof(s->stat_buf));
	if (n < 0)
		return (int)n;
	err = proc_parse_stat(s->stat_buf, (size_t)n, &st);
	if (err)
		return err;
	/* a process's lazy files when they may have moved; a thread's every frame */
	if (lazy && !slot->tgid) {
		l = lazy_of(s, slot);
		err = lazy_due(s, slot, &st, l, &due);
		if (err)
			return err;
		due = due || (p->side && !l->has_side);
	}
	if (due)
		needs |= lazy;
	/* status gives the uid anyway when it is read for its other fields */
	if (uid_due(s, slot, is_new, &st) && !(needs & PROC_NEED(PROC_FILE_STATUS))) {
		err = uid_look(s, slot);
		if (err == -ESRCH)
			return err;
		slot->quiet = !err && s->less;
	}

	p->pid = slot->pid;
	fill_stat(s, &st, p);
	p->shared_kb = 0;
	ps->has_seg = ps->has_dirty = false;
	p->has_ctr = p->ctr_partial = p->ctr_not_counted = p->ctr_counting = false;
	/* filled for the whole frame at its end (sampler_end), when asked for */
	ps->has_cgpsi_cpu = ps->has_cgpsi_mem = ps->has_cgpsi_io = false;
	p->perf_fds = -1;
	p->kept = false;
	/* the deltas' (src/frame/delta.c), made after the frame */
	ps->has_dflt = ps->has_dctx = ps->has_cpud = ps->has_iod = ps->has_swapd = false;

	p->cpu_pct =
	    frame_cpu_share(st.utime + st.stime, slot->have_prev ? &slot->prev_ticks : NULL,
			    interval, uptime, st.starttime, s->hz);
	slot->prev_ticks = st.utime + st.stime;
	slot->have_prev = true;

	if (needs & PROC_NEED(PROC_FILE_STATM)) {
		err = read_statm(s, slot, p);
		if (err)
			return err;
	}
	p->swap_kb = p->rss_anon_kb = p->rss_file_kb = p->vctxsw = p->nvctxsw = 0;
	p->has_ctxsw = false;
	p->ruid = p->suid = p->fsuid = slot->uid;
	ps->supgids = ps->supgrps = NULL;
	ps->has_gid = ps->has_rsssh = false;
	ps->gid = 0;
	ps->group = NULL;
	ps->rss_lock_kb = ps->rss_shmem_kb = 0;
	if (needs & PROC_NEED(PROC_FILE_STATUS)) {
		err = read_status(s, slot, p);
		if (err)
			return err;
	}
	p->uid = slot->uid;
	p->user = users_name(s->users, slot->uid);
	/* most run with one uid: no lookup for those */
	ps->ruser = p->ruid == p->uid ? p->user : users_name(s->users, p->ruid);
	ps->suser = p->suid == p->uid ? p->user : users_name(s->users, p->suid);
	sample_io(s, slot, p, needs, uptime);
	sample_cgroup(s, slot, p, needs);
	sample_oom(s, slot, p, needs);
	sample_side(s, slot, p, needs);
	if (l && !due)
		lazy_restore(s, slot, l, lazy, p);
	/* what was read of them now is the reference, whichever were lazy */
	if (l)
		lazy_store(s, l, needs & SAMPLER_LAZY_FILES, p);
	return 0;
}

/* k keeps p as read in full, its side's values with it. */
static void kept_store(struct kept_row *k, const struct frame_proc *p)
{
	k->p = *p;
	k->p.side = NULL;
	k->has_side = p->side != NULL;
	if (p->side) {
		if (!k->side)
			k->side = xmalloc(sizeof(*k->side));
		*k->side = *p->side;
	}
	k->valid = true;
}

/* The kept row of slot, made room for. */
static struct kept_row *kept_of(struct sampler *s, struct proc_slot *slot)
{
	if (slot->id >= s->nkept) {
		size_t n = s->nkept ? s->nkept : 1024;

		while (n <= slot->id)
			n *= 2;
		s->kept = xreallocarray(s->kept, n, sizeof(*s->kept));
		memset(s->kept + s->nkept, 0, (n - s->nkept) * sizeof(*s->kept));
		s->nkept = n;
	}
	return &s->kept[slot->id];
}

static bool in_view(const struct sampler *s, int pid)
{
	size_t lo = 0, hi = s->nview;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->view[mid] == pid)
			return true;
		if (s->view[mid] < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

/* A descriptor of slot outlived its process: the PID may be reused, k is the old one's. */
static void forget_if_reopened(struct proc_slot *slot, struct kept_row *k)
{
	if (slot->reopened) {
		slot->reopened = false;
		k->valid = false;
	}
}

/*
 * Whether k's process ran since its row was read: its run time moved, or
 * cannot be told. The run time is its process CPU clock (all its threads')
 * where the reader has one, else its leader's schedstat, which tells only
 * for a process of one thread. Read before stat, so that a run in between
 * shows next time, and kept as the new reference. -ESRCH: gone.
 */
static int ran_since(struct sampler *s, struct proc_slot *slot, struct kept_row *k, bool *ran)
{
	struct proc_schedstat ss;
	uint64_t ns;
	ssize_t n;
	int err;

	*ran = true;
	err = proc_reader_runtime(s->reader, slot, &ns);
	if (err == -ESRCH)
		return err;
	forget_if_reopened(slot, k);
	if (err == 0) {
		/* 0 is a child not run yet: one that reused the PID of a process
		 * last seen at 0 would not show */
		*ran = !k->sched || ns != k->run_ns || ns == 0;
		k->run_ns = ns;
		k->sched = true;
		return 0;
	}
	if (k->valid && k->p.threads > 1) {
		/* other threads' runs do not show in the leader's schedstat */
		k->sched = false;
		return 0;
	}
	n = proc_reader_read(s->reader, slot, PROC_FILE_SCHEDSTAT, s->sched_buf,
			     sizeof(s->sched_buf));
	if (n == -ESRCH)
		return -ESRCH;
	forget_if_reopened(slot, k);
	if (n < 0 || proc_parse_schedstat(s->sched_buf, (size_t)n, &ss)) {
		k->sched = false; /* no schedstat (a kernel without it): read in full */
		return 0;
	}
	*ran = !k->sched || ss.run_ns != k->run_ns;
	k->run_ns = ss.run_ns;
	k->sched = true;
	return 0;
}

/* p from its kept row k: it did not run, so what stat shows did not change. */
static int keep_row(struct sampler *s, struct proc_slot *slot, const struct kept_row *k,
		    struct frame_proc *p, double uptime)
{
	struct frame_proc_side *ps = frame_side_w(p);
	int err = 0;

	frame_row_assign(p, &k->p, k->has_side ? k->side : NULL);
	p->cpu_pct = 0;
	p->has_ctr = p->ctr_partial = p->ctr_not_counted = p->ctr_counting = false;
	ps->has_cgpsi_cpu = ps->has_cgpsi_mem = ps->has_cgpsi_io = false;
	p->perf_fds = -1;
	p->kept = true;
	/* what the order or the filter reads is read for every row */
	if (s->needs_all & PROC_NEED(PROC_FILE_STATM))
		err = read_statm(s, slot, p);
	/* the group strings of the frame it came from may be gone */
	ps->supgids = ps->supgrps = NULL;
	if (!err && s->needs_all & PROC_NEED(PROC_FILE_STATUS))
		err = read_status(s, slot, p);
	/* io's rates are since its last look, and the cgroup names of the frame it
	 * came from may be gone: read them again, or leave them unread */
	sample_io(s, slot, p, s->needs_all, uptime);
	sample_cgroup(s, slot, p, s->needs_all);
	/* the score moves with memory, which changes without the process running */
	sample_oom(s, slot, p, s->needs_all);
	/* the strings of the frame it came from may be gone, and what it waits in moves */
	sample_side(s, slot, p, s->needs_all);
	return err;
}

/* Read-less: how many frames of interval make SAMPLER_FULL_SECONDS, a power of two. */
static unsigned full_every(double interval)
{
	unsigned n = 1;

	/* the first frame (interval 0) reads every process anyway: they are new */
	while (n < SAMPLER_FULL_EVERY_MAX && 2 * n * interval <= SAMPLER_FULL_SECONDS)
		n *= 2;
	return n;
}

/*
 * One process of a frame, read as the sampler is configured: in full, or
 * read-less (see sampler_opts). Returns 0, -ESRCH when it vanished, or
 * another -errno.
 */
static int sample_slot(struct sampler *s, struct frame *f, struct proc_slot *slot, bool is_new,
		       struct frame_proc *p, double interval)
{
	struct kept_row *k;
	bool shown, full, ran = true;
	int err;

	if (!s->less) {
		/* read-less again later starts from the run time afresh */
		if (s->read_less)
			kept_of(s, slot)->valid = false;
		err = sample_proc(s, slot, is_new, p, s->needs, interval, f->uptime_s);
		f->cost.read_full += !err;
		return err;
	}
	k = kept_of(s, slot);
	if (is_new)
		k->valid = k->sched = false;
	shown = in_view(s, slot->pid);
	full = shown || ((slot->gen + (unsigned)slot->pid) & (s->full_every - 1)) == 0;
	/* a kept row brings no thread rows: with user threads shown, a process
	 * of several is read in full */
	if (k->valid && k->p.threads > 1 && s->user_threads) {
		k->sched = false;
	} else if (!full || (!shown && slot->quiet && k->sched && uid_turn(slot))) {
		/*
		 * Out of view on its turn, a process quiet since its uid was read
		 * has its uid looked at only if it ran since: the run time is
		 * cheaper than that look (a stat of /proc/PID), and the turns of
		 * the two coincide at -d 0.1 (both every 32 frames).
		 */
		err = ran_since(s, slot, k, &ran);
		if (err)
			return err;
	}
	/*
	 * A row read in full anyway (in view, or its turn) needs no run time
	 * otherwise: the one read before stays the reference, older than the
	 * row, so a run since it only sends the next read-less frame to a full
	 * read too.
	 */
	/* credentials change only in a process that runs; one that ran since
	 * its uid was read is not kept on its turn to have the uid looked at */
	if (ran)
		slot->quiet = false;
	/* a row kept from a frame without sides has no side members to give one with them */
	if (!ran && k->valid && !full && (slot->quiet || !uid_turn(slot)) &&
	    (k->has_side || !p->side)) {
		err = keep_row(s, slot, k, p, f->uptime_s);
		f->cost.read_kept += !err;
		return err;
	}
	err =
	    sample_proc(s, slot, is_new, p, full ? s->needs : s->needs_all, interval, f->uptime_s);
	if (err)
		return err;
	f->cost.read_full++;
	/* out of view, memory not read: statm's last figures rather than stat's estimate */
	if (!full && !(s->needs_all & PROC_NEED(PROC_FILE_STATM)) && k->valid && k->statm) {
		p->rss_kb = k->p.rss_kb;
		p->shared_kb = k->p.shared_kb;
	} else {
		k->statm = (full ? s->needs : s->needs_all) & PROC_NEED(PROC_FILE_STATM);
	}
	kept_store(k, p);
	return 0;
}

int sampler_complete(struct sampler *s, struct frame *f, struct frame_proc *p)
{
	struct proc_slot *slot;
	struct frame_proc q;
	struct kept_row *k;
	int err;

	if (!p->kept)
		return 0;
	slot = proc_reader_find(s->reader, p->pid);
	if (!slot)
		return -ESRCH;
	q = *p;
	err = sample_proc(s, slot, false, &q, s->needs, f->interval_s, f->uptime_s);
	if (err)
		return err;
	q.mem_pct = f->mem.total ? (double)q.rss_kb * 100.0 / (double)f->mem.total : 0;
	/* what the presenter put in the row stays: its command line, counters */
	q.tgid = p->tgid;
	q.has_cmd = p->has_cmd;
	q.cmd_off = p->cmd_off;
	q.cmd_len = p->cmd_len;
	q.has_ctr = p->has_ctr;
	q.perf_fds = p->perf_fds;
	if (s->needs & ROW_NEED_CCGROUP_BIT)
		frame_side_w(&q)->ccgroup = cgroup_names_compressed(s->cgroups, q.cgroup);
	/* the cgroup's pressure as the frame read it (cgpsi_begin() came with sampler_end()) */
	if (s->cgpsi && (s->needs | s->needs_all) & SAMPLER_NEED_CGROUP_PSI)
		cgpsi_row(s->cgpsi, &q);
	*p = q;
	k = kept_of(s, slot);
	kept_store(k, &q);
	k->statm = s->needs & PROC_NEED(PROC_FILE_STATM);
	f->cost.read_full++;
	f->cost.read_kept--;
	return 0;
}

/*
 * A kept row's parent may have gone while it slept, and it reparented
 * without running: read such rows again, so PPID (and the tree) are exact.
 */
static void reparented(struct sampler *s, struct frame *f)
{
	for (size_t i = 0; i < f->nprocs; i++) {
		struct frame_proc *p = &f->procs[i];

		if (p->kept && p->ppid > 0 && !proc_reader_find(s->reader, p->ppid))
			sampler_complete(s, f, p);
	}
}

static struct frame_proc *frame_grow(struct frame *f)
{
	struct frame_proc *p;

	if (f->nprocs == f->cap) {
		f->cap = f->cap ? f->cap * 2 : 1024;
		f->procs = xreallocarray(f->procs, f->cap, sizeof(*f->procs));
	}
	p = &f->procs[f->nprocs];
	/* what no /proc file gives: the accounting's, and a live process has not ended */
	p->child_ticks = 0;
	p->child_pct = 0;
	p->exited = false;
	p->exit_status = 0;
	p->end_ticks = 0;
	p->maxrss_kb = 0;
	p->run_ns = 0;
	frame_side_add(f, p);
	return p;
}

struct thread_walk {
	struct sampler *s;
	struct frame *f;
	struct frame_proc proc; /* the process row the threads replace, or follow */
	double interval;
	bool leader_gone; /* the main thread is a zombie: the process row shows no memory */
	bool follow;	  /* user threads: the process row stays, its main thread has none */
};

/*
 * Memory of a process whose main thread exited, from its live thread tid:
 * the thread's stat (VIRT, and RES unless statm is read) and statm.
 */
static int thread_mem(struct sampler *s, struct thread_walk *w, int tid, const struct proc_stat *st,
		      struct frame_proc *t)
{
	t->vsize_kb = st->vsize / 1024;
	t->rss_kb = st->rss > 0 ? (uint64_t)st->rss * s->page_kb : 0;
	if (s->needs & PROC_NEED(PROC_FILE_STATM)) {
		struct proc_statm sm;
		ssize_t n = proc_reader_read_file(s->reader, w->proc.pid, tid, "statm",
						  s->statm_buf, sizeof(s->statm_buf));

		if (n < 0)
			return (int)n;
		if (proc_parse_statm(s->statm_buf, (size_t)n, &sm) == 0) {
			t->rss_kb = sm.resident * s->page_kb;
			t->shared_kb = sm.shared * s->page_kb;
		}
	}
	t->mem_pct = w->f->mem.total ? (double)t->rss_kb * 100.0 / (double)w->f->mem.total : 0;
	return 0;
}

/* A thread's row from its own task/TID/stat, read through a held descriptor. */
static int add_thread(void *ctx, int tid)
{
	struct thread_walk *w = ctx;
	struct sampler *s = w->s;
	struct proc_slot *slot;
	struct frame_proc *t;
	struct proc_stat st;
	bool is_new;
	ssize_t n;

	if (w->follow && tid == w->proc.pid)
		return 0;
	proc_reader_task(s->reader, w->proc.pid, tid, &slot, &is_new);
	n = proc_reader_read(s->reader, slot, PROC_FILE_STAT, s->stat_buf, sizeof(s->stat_buf));
	if (n < 0 || proc_parse_stat(s->stat_buf, (size_t)n, &st)) {
		proc_reader_drop(s->reader, slot);
		return 0; /* that thread ended: not an error */
	}
	/* a TID reused by a new thread of the same process starts afresh */
	if (is_new || st.starttime != slot->start_ticks) {
		slot->have_prev = false;
		slot->io_at = 0;
		slot->io_refused = false;
	}
	slot->start_ticks = st.starttime;

	t = frame_grow(w->f);
	frame_row_assign(t, &w->proc, w->proc.side);
	t->pid = tid;
	fill_stat(s, &st, t);
	/* a thread row shows its process's memory and thread count */
	t->threads = w->proc.threads;
	t->vsize_kb = w->proc.vsize_kb;
	t->rss_kb = w->proc.rss_kb;
	t->cpu_pct =
	    frame_cpu_share(st.utime + st.stime, slot->have_prev ? &slot->prev_ticks : NULL,
			    w->interval, w->f->uptime_s, st.starttime, s->hz);
	slot->prev_ticks = st.utime + st.stime;
	slot->have_prev = true;
	/* its own I/O (task/TID/io), not the process's sum; read-less reads a
	 * user thread out of view as it reads a process out of view */
	sample_io(s, slot, t, !s->less || in_view(s, tid) ? s->needs : s->needs_all,
		  w->f->uptime_s);
	/* and what it waits in is the thread's own */
	sample_side(s, slot, t, !s->less || in_view(s, tid) ? s->needs : s->needs_all);
	/* the leader has no mm once its thread exited: a live thread shows the process's */
	if (w->leader_gone && st.state != 'Z' && thread_mem(s, w, tid, &st, t) == -ESRCH)
		return 0;
	w->f->nprocs++;
	return 0;
}

/* Threads mode: replace the process row just added with one row per thread. */
static void sample_threads(struct sampler *s, struct frame *f, double interval)
{
	struct thread_walk w = {.s = s, .f = f, .interval = interval};
	size_t at = f->nprocs - 1;

	w.proc = f->procs[at];
	w.leader_gone = w.proc.state == 'Z' && w.proc.threads > 1;
	f->nprocs = at;
	if (proc_reader_tasks(s->reader, w.proc.pid, add_thread, &w) < 0 || f->nprocs == at)
		f->procs[f->nprocs++] = w.proc; /* gone meanwhile: keep what was read */
}

/* htop's user threads: after the process row just added, a row for each of its other threads. */
static void sample_user_threads(struct sampler *s, struct frame *f, double interval)
{
	struct thread_walk w = {.s = s, .f = f, .interval = interval, .follow = true};

	w.proc = f->procs[f->nprocs - 1];
	/* a kept row's process did not run: its threads wait for its next full read */
	if (w.proc.threads < 2 || w.proc.kept)
		return;
	w.leader_gone = w.proc.state == 'Z';
	proc_reader_tasks(s->reader, w.proc.pid, add_thread, &w);
}

int sampler_cmdline(struct sampler *s, struct frame *f, struct frame_proc *p)
{
	char buf[4096];
	ssize_t n;

	if (p->has_cmd)
		return 0;
	n = proc_reader_read_file(s->reader, p->tgid ? p->tgid : p->pid, 0, "cmdline", buf,
				  sizeof(buf));
	if (n == -EFBIG)
		n = sizeof(buf); /* a long command line: its first 4 KiB will do */
	if (n < 0) {
		/* gone or refused since it was sampled: its name stands in */
		p->cmd_off = (uint32_t)f->strings.len;
		sbuf_add(&f->strings, p->comm, p->comm_len);
		p->cmd_len = p->comm_len;
		p->has_cmd = true;
		return (int)n;
	}
	while (n > 0 && buf[n - 1] == '\0')
		n--;
	p->cmd_off = (uint32_t)f->strings.len;
	if (n == 0) {
		sbuf_addc(&f->strings, '[');
		sbuf_add(&f->strings, p->comm, p->comm_len);
		sbuf_addc(&f->strings, ']');
	} else {
		for (ssize_t i = 0; i < n; i++)
			sbuf_addc(&f->strings, buf[i] ? buf[i] : ' ');
	}
	p->cmd_len = (uint32_t)(f->strings.len - p->cmd_off);
	p->has_cmd = true;
	return 0;
}

/*
 * The process just added at first: its threads' rows (-H: instead of it,
 * user threads: after it), and the frame's task counts.
 */
static void sample_tasks(struct sampler *s, struct frame *f, size_t first, double interval)
{
	/*
	 * With -H, every process, one thread or many: each row is then its
	 * thread's own, whatever the thread count did between frames.
	 */
	if (s->threads)
		sample_threads(s, f, interval);
	/* the process, or with -H its threads, as top counts them */
	for (size_t i = first; i < f->nprocs; i++)
		frame_tasks_count(&f->tasks, f->procs[i].state);
	if (s->user_threads)
		sample_user_threads(s, f, interval);
}

/*
 * PID 1 when the rows came from elsewhere and lack it: a kernel may keep it
 * from task iterators (as some VMs do, alongside refusing ptrace of it),
 * and a frame without it would differ from what top shows.
 */
void sampler_add_init(struct sampler *s, struct frame *f)
{
	size_t first = f->nprocs;
	struct frame_proc *p;

	for (size_t i = 0; i < f->nprocs; i++)
		if (f->procs[i].tgid == 1)
			return;
	p = frame_grow(f);
	/* no listing took its uid */
	if (!s->init_seen && proc_reader_restat(s->reader, &s->init))
		return;
	if (sample_proc(s, &s->init, !s->init_seen, p, s->needs, f->interval_s, f->uptime_s))
		return;
	s->init_seen = true;
	p->mem_pct = f->mem.total ? (double)p->rss_kb * 100.0 / (double)f->mem.total : 0;
	p->tgid = p->pid;
	p->has_cmd = false;
	f->nprocs++;
	sample_tasks(s, f, first, f->interval_s);
}

void sampler_end(struct sampler *s, struct frame *f)
{
	struct proc_reader_stats rs;

	if ((s->needs | s->needs_all) & ROW_NEED_CCGROUP_BIT)
		for (size_t i = 0; i < f->nprocs; i++)
			frame_side_w(&f->procs[i])->ccgroup =
			    cgroup_names_compressed(s->cgroups, f->procs[i].cgroup);
	/* after the rows of either source have their cgroups, once a frame per cgroup */
	if ((s->needs | s->needs_all) & SAMPLER_NEED_CGROUP_PSI) {
		if (!s->cgpsi)
			s->cgpsi = cgpsi_new(s->root, s->cgroup_root);
		cgpsi_begin(s->cgpsi);
		for (size_t i = 0; i < f->nprocs; i++)
			cgpsi_row(s->cgpsi, &f->procs[i]);
	}

	/* a refusal the rows met (the first of them) */
	if ((s->needs | s->needs_all) & ROW_NEED_TASKSTATS)
		f->taskstats_err = s->taskstats_err;
	proc_reader_stats(s->reader, &rs);
	f->cost.fds_held = rs.fds_held;
	f->cost.fd_budget = rs.fd_budget;
	f->cost.fallback = rs.fallback;
	f->cost.cpu_s = clock_cpu() - s->cpu0;
	f->cost.wall_s = clock_mono() - s->now_mono;
	s->last_mono = s->now_mono;
}

static int lazy_cg_cmp(const void *a, const void *b)
{
	int x = ((const struct lazy_cgroup *)a)->pid, y = ((const struct lazy_cgroup *)b)->pid;

	return (x > y) - (x < y);
}

/*
 * Row p's cgroup from the last frame's lazy read when it cannot have moved since
 * (see sampler_opts.needs_lazy: it did not run, its turn did not come); whether
 * it was.
 */
static bool lazy_cgroup_kept(struct sampler *s, struct frame_proc *p)
{
	struct lazy_cgroup key = {.pid = p->pid}, *c;

	/* none before the first lazy frame (and bsearch() takes no NULL) */
	c = s->nlazy_cg ? bsearch(&key, s->lazy_cg, s->nlazy_cg, sizeof(*c), lazy_cg_cmp) : NULL;
	if (!c || c->start_ticks != p->start_ticks || c->ticks != p->utime + p->stime ||
	    c->ctxsw != p->vctxsw + p->nvctxsw || c->cgroups_gen != s->cgroups_gen ||
	    ((s->lazy_frames + (unsigned)p->pid) & (SAMPLER_LAZY_EVERY - 1)) == 0)
		return false;
	p->cgroup = c->cgroup;
	p->container = c->container;
	p->cgroup_v1 = c->cgroup_v1;
	return true;
}

/* Row p's cgroup into this frame's lazy reads. */
static void lazy_cgroup_put(struct sampler *s, size_t *n, const struct frame_proc *p)
{
	if (*n == s->lazy_cg_next_cap) {
		s->lazy_cg_next_cap = s->lazy_cg_next_cap ? 2 * s->lazy_cg_next_cap : 1024;
		s->lazy_cg_next =
		    xreallocarray(s->lazy_cg_next, s->lazy_cg_next_cap, sizeof(*s->lazy_cg_next));
	}
	s->lazy_cg_next[(*n)++] = (struct lazy_cgroup){.pid = p->pid,
						       .cgroups_gen = s->cgroups_gen,
						       .start_ticks = p->start_ticks,
						       .ticks = p->utime + p->stime,
						       .ctxsw = p->vctxsw + p->nvctxsw,
						       .cgroup = p->cgroup,
						       .container = p->container,
						       .cgroup_v1 = p->cgroup_v1};
}

void sampler_read_cgroups(struct sampler *s, struct frame *f)
{
	const struct frame_proc *last = NULL;
	/* a recording's alone (no column shows them): read where they may have moved */
	bool lazy = (s->needs_lazy & PROC_NEED(PROC_FILE_CGROUP)) &&
		    !((s->needs | s->needs_all) & PROC_NEED(PROC_FILE_CGROUP));
	size_t nnext = 0;
	struct lazy_cgroup *t;

	for (size_t i = 0; i < f->nprocs; i++) {
		struct frame_proc *p = &f->procs[i];
		ssize_t n;

		if (p->cgroup || p->tgid == 1)
			continue; /* PID 1 came from /proc with its cgroup */
		if (last && last->tgid == p->tgid) {
			p->cgroup = last->cgroup;
			p->container = last->container;
			p->cgroup_v1 = last->cgroup_v1;
			continue;
		}
		last = p;
		if (!lazy || p->pid != p->tgid || !lazy_cgroup_kept(s, p)) {
			n = proc_reader_read_file(s->reader, p->tgid, 0, "cgroup", s->cgroup_buf,
						  sizeof(s->cgroup_buf));
			cgroup_from_buf(s, n, p, s->needs | s->needs_all);
		}
		if (lazy && p->pid == p->tgid)
			lazy_cgroup_put(s, &nnext, p);
	}
	if (!lazy)
		return;
	if (nnext)
		qsort(s->lazy_cg_next, nnext, sizeof(*s->lazy_cg_next), lazy_cg_cmp);
	t = s->lazy_cg;
	s->lazy_cg = s->lazy_cg_next;
	s->lazy_cg_next = t;
	s->nlazy_cg = nnext;
	nnext = s->lazy_cg_cap;
	s->lazy_cg_cap = s->lazy_cg_next_cap;
	s->lazy_cg_next_cap = nnext;
	s->lazy_frames++;
}

/* A row read elsewhere: its supplementary groups, gid, locked memory and pid namespaces from its
 * status, read for them alone. */
static void side_groups(struct sampler *s, struct frame_proc *p)
{
	struct proc_status ss;
	ssize_t n;

	n = proc_reader_read_file(s->reader, p->tgid ? p->tgid : p->pid,
				  p->tgid && p->pid != p->tgid ? p->pid : 0, "status",
				  s->status_buf, sizeof(s->status_buf));
	if (n >= 0 && !proc_parse_status(s->status_buf, (size_t)n, &ss)) {
		sample_groups(s, &ss, p);
		status_ids(s, &ss, p);
	}
}

/* A row read elsewhere: its block I/O delay from its stat, read for it alone. */
static void side_blkio(struct sampler *s, struct frame_proc *p)
{
	struct frame_proc_side *ps = frame_side_w(p);
	struct proc_stat st;
	ssize_t n;

	ps->has_blkio = false;
	ps->blkio_ticks = 0;
	if (!s->delayacct)
		return;
	n = proc_reader_read_file(s->reader, p->tgid ? p->tgid : p->pid,
				  p->tgid && p->pid != p->tgid ? p->pid : 0, "stat", s->stat_buf,
				  sizeof(s->stat_buf));
	if (n >= 0 && !proc_parse_stat(s->stat_buf, (size_t)n, &st)) {
		ps->has_blkio = true;
		ps->blkio_ticks = st.delayacct_blkio_ticks;
	}
}

/* A row read elsewhere: top's names of its cgroup lines, from its cgroup read for them alone. */
static void side_cglines(struct sampler *s, struct frame_proc *p)
{
	struct frame_proc_side *ps = frame_side_w(p);
	ssize_t n = proc_reader_read_file(s->reader, p->tgid ? p->tgid : p->pid, 0, "cgroup",
					  s->cgroup_buf, sizeof(s->cgroup_buf));

	ps->cgroups = ps->cgname = ps->lxc = NULL;
	if (n >= 0)
		cgroup_top_names(s, n, p);
}

/* What sampler_read_side() reads, when asked: the side members' needs. */
#define SIDE_NEEDS                                                                                 \
	(ROW_NEED_WCHAN | ROW_NEED_AUTOGROUP | ROW_NEED_SECATTR | ROW_NEED_EXE | ROW_NEED_CWD |    \
	 ROW_NEED_IOPRIO | ROW_NEED_GROUPS_BIT | ROW_NEED_LOGINUID | ROW_NEED_ENVIRON |            \
	 ROW_NEED_NUMA | ROW_NEED_NS | ROW_NEED_SCHEDSTAT | ROW_NEED_BLKIO |                       \
	 ROW_NEED_CGLINES_BIT | ROW_NEED_ROLLUP | ROW_NEED_MAPS | ROW_NEED_TASKSTATS)

void sampler_read_side(struct sampler *s, struct frame *f)
{
	/* BPF's rows come zeroed (the members NULL, their flags false): a frame that asks for
	 * none of them costs no pass over its rows */
	if (!((s->needs | s->needs_all) & SIDE_NEEDS))
		return;
	for (size_t i = 0; i < f->nprocs; i++) {
		struct frame_proc *p = &f->procs[i];
		/* read-less, a row out of view gets what sorting and filtering need only */
		bool hidden = s->read_less && s->nview && !in_view(s, p->pid);
		unsigned needs = hidden ? s->needs_all : s->needs | s->needs_all;

		sample_side(s, NULL, p, needs);
		frame_side_w(p)->supgids = frame_side_w(p)->supgrps = NULL;
		if (needs & ROW_NEED_GROUPS_BIT)
			side_groups(s, p);
		if (needs & ROW_NEED_BLKIO)
			side_blkio(s, p);
		if (needs & ROW_NEED_CGLINES_BIT)
			side_cglines(s, p);
	}
}

struct users *sampler_users(struct sampler *s)
{
	return s->users;
}

struct cgroup_names *sampler_cgroup_names(struct sampler *s)
{
	return s->cgroups;
}

unsigned sampler_needs(const struct sampler *s)
{
	return s->needs | s->needs_all;
}

void sampler_begin(struct sampler *s, struct frame *f)
{
	double mono = clock_mono();
	double interval = s->last_mono > 0 ? mono - s->last_mono : 0;

	s->cpu0 = clock_cpu();
	clock_gettime(CLOCK_REALTIME, &f->time);
	s->now_mono = mono;
	/* the frame before, whose rows pointed at these names, is being overwritten */
	if (cgroup_names_count(s->cgroups) > CGROUP_NAMES_MAX) {
		cgroup_names_clear(s->cgroups);
		s->cgroups_gen++;
	}
	if (row_strings_count(s->strings) > ROW_STRINGS_MAX)
		row_strings_clear(s->strings);
	f->interval_s = interval;
	f->nprocs = 0;
	f->nexited = 0;
	frame_sides_begin(f, (s->needs | s->needs_all) & FRAME_NEED_SIDE);
	f->threads = s->threads;
	sbuf_reset(&f->strings);
	memset(&f->tasks, 0, sizeof(f->tasks));
	memset(&f->cost, 0, sizeof(f->cost));
	memset(&f->acct, 0, sizeof(f->acct));
	f->cost.source = "procfs";
	sample_system(s, f, interval == 0);
	memset(&f->sysio, 0, sizeof(f->sysio));
	if (s->want_sysio) {
		if (!s->sysio)
			s->sysio = sysio_new(s->root);
		sysio_sample(s->sysio, mono, &f->sysio);
		f->sysio.asked = true;
	}
	memset(&f->psi, 0, sizeof(f->psi));
	if (s->want_psi) {
		if (!s->psi)
			s->psi = psi_new(s->root);
		psi_sample(s->psi, &f->psi);
	}
	s->delayacct = (s->needs | s->needs_all) & (ROW_NEED_BLKIO | ROW_NEED_TASKSTATS) &&
		       delayacct_on(s->root);
	f->delayacct_off =
	    (s->needs | s->needs_all) & (ROW_NEED_BLKIO | ROW_NEED_TASKSTATS) && !s->delayacct;
	taskstats_begin(s, f);
}

int sampler_frame(struct sampler *s, struct frame *f)
{
	struct proc_slot *slot;
	double interval;
	bool is_new;
	size_t first;
	int ret;

	sampler_begin(s, f);
	interval = f->interval_s;

	s->full_every = full_every(interval);
	s->less = s->read_less && s->full_every > 1;
	ret = proc_reader_begin(s->reader);
	if (ret)
		return ret;
	while ((ret = proc_reader_next(s->reader, &slot, &is_new)) == 1) {
		struct frame_proc *p = frame_grow(f);
		int err;

		err = sample_slot(s, f, slot, is_new, p, interval);
		if (err == -ESRCH) {
			proc_reader_drop(s->reader, slot);
			f->cost.vanished++;
			continue;
		}
		if (err) {
			f->cost.unreadable++; /* malformed or refused: not in this frame */
			continue;
		}
		p->mem_pct = f->mem.total ? (double)p->rss_kb * 100.0 / (double)f->mem.total : 0;
		p->tgid = p->pid;
		p->has_cmd = false;
		first = f->nprocs++;
		sample_tasks(s, f, first, interval);
	}
	if (ret < 0)
		return ret;
	proc_reader_end(s->reader);
	if (s->less)
		reparented(s, f);

	sampler_end(s, f);
	return 0;
}
