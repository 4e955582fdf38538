// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * counters.c: per-process counter groups through perf_event_open(2). Events
 * are named through libpfm4; each process gets one group (leader plus
 * members) read with a single read() of PERF_FORMAT_GROUP with the enabled
 * and running times, so multiplexed counts can be scaled. Where a hardware
 * event cannot be opened (no PMU, as on most VMs, or refused) the set falls
 * back to software events and says why. Only the processes a presenter asks
 * for are attached, up to a budget: every group costs descriptors.
 *
 * A process gets a group per thread it has when attached, each inherited by
 * the threads that thread creates, and their counts are summed: an event
 * with `inherit` on the main thread alone would miss every thread that was
 * already running. The threads are listed before any group opens, so a
 * thread created by an attached one is counted by inheritance only; one
 * created in between, by a thread not yet attached, is missed.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <perfmon/pfmlib_perf_event.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ptop/perf.h"
#include "ptop/proc.h"
#include "ptop/util.h"

#ifndef PERF_PMU_TYPE_SHIFT /* libpfm4's copy of the uapi header predates it */
#define PERF_PMU_TYPE_SHIFT 32
#endif

const char *const perf_software_events[4] = {"task-clock", "context-switches", "cpu-migrations",
					     "page-faults"};
const char *const perf_hardware_events[4] = {"cycles", "instructions", "cache-misses",
					     "branch-misses"};

/*
 * libpfm4 is loaded when counters are first asked for, not linked: its event
 * tables cost over 2 MiB of resident memory at start-up (relocations), which
 * ptop would otherwise pay in every run, counters or not.
 */
static struct {
	int state; /* 0 not tried, 1 loaded, -1 not available */
	pfm_err_t (*initialize)(void);
	pfm_err_t (*encode)(const char *str, int dfl_plm, pfm_os_t os, void *arg);
} pfm;

int perf_init(void)
{
	if (!pfm.state) {
		const struct dl_sym syms[] = {
		    {"pfm_initialize", (void **)&pfm.initialize},
		    {"pfm_get_os_event_encoding", (void **)&pfm.encode},
		};

		pfm.state = -1;
		if (!util_dlsyms("libpfm.so.4", 0, syms, sizeof(syms) / sizeof(syms[0])) &&
		    pfm.initialize() == PFM_SUCCESS)
			pfm.state = 1;
	}
	return pfm.state > 0 ? 0 : -ENODEV;
}

/* The generic events, for when libpfm4 cannot be loaded. */
static const struct {
	const char *name;
	uint32_t type;
	uint64_t config;
} generic_events[] = {
    {"cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES},
    {"instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS},
    {"cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES},
    {"branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES},
    {"task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK},
    {"context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES},
    {"cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS},
    {"page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS},
};

static int resolve_generic(const char *name, struct perf_event_attr *attr)
{
	for (size_t i = 0; i < sizeof(generic_events) / sizeof(generic_events[0]); i++) {
		if (strcmp(name, generic_events[i].name))
			continue;
		attr->type = generic_events[i].type;
		attr->config = generic_events[i].config;
		attr->exclude_kernel = attr->exclude_hv = 1; /* as libpfm4's user level */
		return 0;
	}
	return -ENOENT;
}

int perf_event_resolve(const char *name, struct perf_event_spec *out)
{
	pfm_perf_encode_arg_t arg;
	int ret;

	if (strlen(name) >= sizeof(out->name))
		return -ENOENT;
	memset(out, 0, sizeof(*out));
	memset(&arg, 0, sizeof(arg));
	out->attr.size = sizeof(out->attr);
	arg.attr = &out->attr;
	arg.size = sizeof(arg);
	if (perf_init()) {
		ret = resolve_generic(name, &out->attr);
		if (ret)
			return ret;
	} else {
		/* user level only: what an unprivileged user may count under paranoid 2 */
		ret = pfm.encode(name, PFM_PLM3, PFM_OS_PERF_EVENT, &arg);
		if (ret != PFM_SUCCESS)
			return ret == PFM_ERR_NOTFOUND ? -ENOENT : -EINVAL;
	}
	strcpy(out->name, name);
	out->hardware = out->attr.type != PERF_TYPE_SOFTWARE;
	/* The kernel counts context switches and migrations in kernel context: user level
	 * only would read 0. Opening retries user level where that is refused. */
	if (!out->hardware)
		out->attr.exclude_kernel = out->attr.exclude_hv = 0;
	return 0;
}

static long real_open(struct perf_event_attr *attr, int pid, int cpu, int group,
		      unsigned long flags)
{
	return syscall(SYS_perf_event_open, attr, pid, cpu, group, flags);
}

static perf_open_fn *open_fn = real_open;
/* The kernel refused inherit_thread (before Linux 5.13): children count in their parents. */
static bool no_inherit_thread;

void perf_set_open_fn(perf_open_fn *fn)
{
	open_fn = fn ? fn : real_open;
	no_inherit_thread = false;
}

bool perf_children_counted(void)
{
	return no_inherit_thread;
}

int perf_event_open_fd(struct perf_event_attr *attr, int pid, int cpu, int group,
		       unsigned long flags)
{
	long fd = open_fn(attr, pid, cpu, group, flags);

	/*
	 * perf_event_paranoid 2 refuses kernel counting to users: count user
	 * level, as perf does; but not an event for the kernel alone (cycles:k),
	 * which would then count at no level at all.
	 */
	if (fd < 0 && (errno == EACCES || errno == EPERM) && !attr->exclude_kernel &&
	    !attr->exclude_user) {
		attr->exclude_kernel = attr->exclude_hv = 1;
		fd = open_fn(attr, pid, cpu, group, flags);
	}
	return fd < 0 ? -errno : (int)fd;
}

bool perf_counts_in_kernel(const struct perf_event_attr *a)
{
	return a->type == PERF_TYPE_SOFTWARE && (a->config == PERF_COUNT_SW_CONTEXT_SWITCHES ||
						 a->config == PERF_COUNT_SW_CPU_MIGRATIONS ||
						 a->config == PERF_COUNT_SW_CGROUP_SWITCHES);
}

int perf_group_open_task(struct perf_group *g, int pid, const struct perf_event_spec *ev, int n,
			 bool inherit)
{
	memset(g, 0, sizeof(*g));
	g->pid = pid;
	if (n < 1 || n > PERF_GROUP_MAX)
		return -EINVAL;
	g->nsplit = 1;
	for (int i = 0; i < n; i++) {
		struct perf_event_attr attr = ev[i].attr;
		int leader = g->fd[g->start[g->nsplit - 1]];
		int fd;

		attr.size = sizeof(attr);
		attr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
				   PERF_FORMAT_TOTAL_TIME_RUNNING;
		attr.disabled = 0;
		attr.inherit = inherit; /* the threads this one creates from now on count too */
		/* threads only: a child it forks has a row of its own */
		attr.inherit_thread = inherit && !no_inherit_thread;
		/* a hybrid CPU's core types count apart: their events cannot share a group */
		if (i && ev[i].leads && i != g->start[g->nsplit - 1])
			g->start[g->nsplit++] = i;
		if (i == g->start[g->nsplit - 1])
			leader = -1;
		fd = perf_event_open_fd(&attr, pid, -1, leader, PERF_FLAG_FD_CLOEXEC);
		if (fd == -EINVAL && attr.inherit_thread) {
			/* before Linux 5.13: the bit is unknown; children are counted then */
			attr.inherit_thread = 0;
			fd = perf_event_open_fd(&attr, pid, -1, leader, PERF_FLAG_FD_CLOEXEC);
			if (fd >= 0)
				no_inherit_thread = true;
		}
		if (fd == -EINVAL && leader >= 0) {
			/* more events than counters: this one leads a group of its own */
			fd = perf_event_open_fd(&attr, pid, -1, -1, PERF_FLAG_FD_CLOEXEC);
			if (fd >= 0) {
				g->start[g->nsplit++] = i;
				g->nrefused++;
			}
		}
		/* the paranoid retry went user level: such an event has nothing to count */
		if (fd >= 0 && attr.exclude_kernel && !ev[i].attr.exclude_kernel &&
		    perf_counts_in_kernel(&attr))
			g->na |= (uint8_t)(1u << i);
		if (fd < 0) {
			g->n = i;
			perf_group_close(g);
			return fd;
		}
		if (ev[i].per_pmu)
			g->per_pmu |= (uint8_t)(1u << (g->nsplit - 1));
		g->fd[i] = fd;
	}
	g->n = n;
	g->start[g->nsplit] = n;
	return 0;
}

int perf_group_open(struct perf_group *g, int pid, const struct perf_event_spec *ev, int n)
{
	return perf_group_open_task(g, pid, ev, n, true);
}

bool perf_count_scale(const struct perf_count *prev, const struct perf_count *now, double *delta,
		      double *scale)
{
	uint64_t de = now->enabled - prev->enabled, dr = now->running - prev->running;

	*delta = perf_scale(now->value - prev->value, de, dr);
	*scale = de ? (double)dr / (double)de : 1.0;
	return dr || !de;
}

double perf_scale(uint64_t count, uint64_t enabled, uint64_t running)
{
	if (!running)
		return 0;
	if (running >= enabled)
		return (double)count;
	return (double)count * (double)enabled / (double)running;
}

int perf_group_read(struct perf_group *g)
{
	/* nr, time_enabled, time_running, then one value per event */
	uint64_t buf[3 + PERF_GROUP_MAX], en[PERF_GROUP_MAX], run[PERF_GROUP_MAX];
	bool pmu_enabled = false, pmu_ran = false;
	ssize_t n;

	if (g->n < 1)
		return -EBADF;
	/* every kernel group first: a failed read leaves the previous counts whole */
	for (int s = 0; s < g->nsplit; s++) {
		int first = g->start[s], nr = g->start[s + 1] - first;

		n = read(g->fd[first], buf, sizeof(buf));
		if (n < 0)
			return -errno;
		if ((size_t)n < sizeof(uint64_t) * 3 || buf[0] != (uint64_t)nr ||
		    (size_t)n < sizeof(uint64_t) * (3 + (size_t)nr))
			return -EIO;
		en[s] = buf[1];
		run[s] = buf[2];
		memcpy(&g->raw[first], &buf[3], sizeof(uint64_t) * (size_t)nr);
	}
	g->scale = 1.0;
	g->not_counted = false;
	/* each kernel group is scaled by its own times: they are multiplexed apart */
	for (int s = 0; s < g->nsplit; s++) {
		uint64_t de = en[s], dr = run[s];
		double scale;

		if (g->have_prev) {
			de -= g->split_enabled[s];
			dr -= g->split_running[s];
		}
		for (int i = g->start[s]; i < g->start[s + 1]; i++)
			g->delta[i] =
			    perf_scale(g->raw[i] - (g->have_prev ? g->prev_raw[i] : 0), de, dr);
		scale = de ? (double)dr / (double)de : 1.0;
		/*
		 * A hybrid CPU's core type that the task was not on the whole interval
		 * counted nothing there, which is no multiplexing: the sum over the
		 * types is the count, and only none of them running is no count.
		 */
		if (g->per_pmu & (1u << s)) {
			pmu_enabled |= de > 0;
			pmu_ran |= dr > 0;
			if (!dr)
				scale = 1.0;
		} else {
			g->not_counted |= de && !dr;
		}
		if (scale < g->scale)
			g->scale = scale;
		g->split_enabled[s] = en[s];
		g->split_running[s] = run[s];
	}
	g->not_counted |= pmu_enabled && !pmu_ran;
	g->enabled = en[0];
	g->running = run[0];
	memcpy(g->prev_raw, g->raw, sizeof(g->raw));
	g->prev_enabled = g->enabled;
	g->prev_running = g->running;
	g->have_prev = true;
	return 0;
}

void perf_group_close(struct perf_group *g)
{
	/* members first, then the leader */
	for (int i = g->n - 1; i >= 0; i--) {
		if (g->fd[i] >= 0)
			close(g->fd[i]);
		g->fd[i] = -1;
	}
	g->n = 0;
}

struct perf_counters {
	struct perf_event_spec ev[PERF_GROUP_MAX]; /* as asked for: the columns */
	int nev;
	struct perf_event_spec open[PERF_GROUP_MAX]; /* as opened: on a hybrid CPU, per core PMU */
	int nopen;
	struct perf_pmu pmus[PERF_PMUS_MAX];
	int npmus;
	bool hardware;
	const char *why_software;
	unsigned budget;
	struct perf_proc *procs; /* attached, sorted by pid */
	size_t nprocs;
	struct perf_proc *spare; /* the next frame's table, swapped in: no malloc per frame */
	size_t cap;
	int tids[PERF_THREADS_MAX]; /* scratch for one process's thread list */
	bool per_thread;	    /* the pids are threads: one group each, no listing */
	unsigned char *plan;	    /* perf_counters_update's decision per wanted pid */
	struct perf_proc **old;	    /* and the attached process it keeps, per wanted pid */
	unsigned not_attached;
	int nfailed; /* events asked for that did not open, and why */
	const char *failed[PERF_GROUP_MAX];
	const char *failed_why[PERF_GROUP_MAX];
	char failed_names[PERF_GROUP_MAX][PERF_NAME_MAX];
	unsigned refused; /* of not_attached, in the last update */
	int refused_error;
	int last_error;
};

static int resolve_all(struct perf_counters *c, const char *const *names, int n, const char **bad)
{
	c->nev = 0;
	c->hardware = false;
	for (int i = 0; i < n && i < PERF_GROUP_MAX; i++) {
		int err = perf_event_resolve(names[i], &c->ev[c->nev]);

		if (err) {
			if (bad)
				*bad = names[i];
			return err;
		}
		c->hardware |= c->ev[c->nev].hardware;
		c->nev++;
	}
	return 0;
}

static const char *sysfs_root = "/sys";

void perf_set_sysfs_root(const char *root)
{
	sysfs_root = root ? root : "/sys";
}

/* A CPU's own PMU by its sysfs name: not software, tracepoint, msr, uncore ... */
static bool core_pmu_name(const char *n)
{
	return !strcmp(n, "cpu") || !strncmp(n, "cpu_", 4) || !strncmp(n, "armv", 4);
}

static int pmu_cmp(const void *a, const void *b)
{
	return strcmp(((const struct perf_pmu *)a)->name, ((const struct perf_pmu *)b)->name);
}

int perf_core_pmus(struct perf_pmu *out, int max)
{
	char path[512];
	struct dirent *e;
	DIR *d;
	int n = 0;

	snprintf(path, sizeof(path), "%s/bus/event_source/devices", sysfs_root);
	d = opendir(path);
	if (!d)
		return -errno;
	while ((e = readdir(d)) && n < max) {
		char buf[24];
		unsigned long v;
		char *end;
		ssize_t len;
		int fd;

		if (!core_pmu_name(e->d_name) || strlen(e->d_name) >= sizeof(out->name))
			continue;
		snprintf(path, sizeof(path), "%s/bus/event_source/devices/%s/type", sysfs_root,
			 e->d_name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		len = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (len <= 0)
			continue;
		buf[len] = '\0';
		errno = 0;
		v = strtoul(buf, &end, 10);
		if (errno || end == buf || (*end && *end != '\n') || v > UINT32_MAX)
			continue;
		strcpy(out[n].name, e->d_name);
		out[n].type = (uint32_t)v;
		n++;
	}
	closedir(d);
	qsort(out, (size_t)n, sizeof(*out), pmu_cmp);
	return n;
}

const char *perf_open_strerror(int err, bool pmu)
{
	switch (-err) {
	case ENOENT:
		return pmu ? N_("not an event this PMU has") : N_("no hardware PMU");
	case ENODEV:
	case EOPNOTSUPP:
		/* the PMU exists: it cannot count per task, or cannot exclude a mode */
		return pmu ? N_("not supported by the PMU here (per task or mode exclusion)")
			   : N_("no hardware PMU");
	case EACCES:
		return N_("refused (perf_event_paranoid)");
	case EPERM:
		/* the paranoid checks say EACCES: EPERM is a seccomp filter or a security module */
		return N_("not permitted (seccomp or a security policy)");
	case EINVAL:
		return N_("rejected by the kernel (invalid attributes)");
	case EMFILE:
	case ENFILE:
		return N_("out of descriptors");
	default:
		return N_("unavailable");
	}
}

/* A generic hardware event, which names no PMU: a hybrid CPU opens it once per core type. */
static bool generic_hardware(const struct perf_event_attr *a)
{
	return (a->type == PERF_TYPE_HARDWARE || a->type == PERF_TYPE_HW_CACHE) &&
	       !(a->config >> PERF_PMU_TYPE_SHIFT);
}

/*
 * What to open for the events asked for. One core PMU: those. A hybrid
 * CPU's (cpu_core and cpu_atom, as sysfs lists them): a generic hardware
 * event lands on one core type only, so each is opened once per core type
 * with its PMU type in config's high bits (as perf does), each type's in a
 * kernel group of its own, the other events in one of theirs; a column is
 * the sum of its copies.
 */
static void plan_opens(struct perf_counters *c)
{
	int nhw = 0, n = 0;

	for (int i = 0; i < c->nev; i++) {
		c->ev[i].column = i;
		nhw += generic_hardware(&c->ev[i].attr);
	}
	if (c->npmus < 2 || !nhw || c->nev - nhw + nhw * c->npmus > PERF_GROUP_MAX) {
		memcpy(c->open, c->ev, sizeof(c->ev));
		c->nopen = c->nev;
		return;
	}
	for (int i = 0; i < c->nev; i++) {
		if (generic_hardware(&c->ev[i].attr))
			continue;
		c->open[n] = c->ev[i];
		c->open[n].leads = n == 0;
		n++;
	}
	for (int k = 0; k < c->npmus; k++) {
		bool first = true;

		for (int i = 0; i < c->nev; i++) {
			if (!generic_hardware(&c->ev[i].attr))
				continue;
			c->open[n] = c->ev[i];
			c->open[n].attr.config |= (uint64_t)c->pmus[k].type << PERF_PMU_TYPE_SHIFT;
			c->open[n].leads = first;
			c->open[n].per_pmu = true;
			first = false;
			n++;
		}
	}
	c->nopen = n;
}

static void use_software(struct perf_counters *c, const char *why)
{
	resolve_all(c, perf_software_events, 4, NULL);
	c->why_software = why;
	plan_opens(c);
}

/*
 * The group did not open: open each hardware event alone to give each its
 * own reason (one may be refused, another unknown to the PMU).
 */
static void probe_each(struct perf_counters *c, bool pmu)
{
	c->nfailed = 0;
	for (int i = 0; i < c->nev; i++) {
		struct perf_group g;
		int err;

		if (!c->ev[i].hardware)
			continue;
		err = perf_group_open(&g, 0, &c->ev[i], 1);
		if (!err) {
			perf_group_close(&g);
			continue;
		}
		strcpy(c->failed_names[c->nfailed], c->ev[i].name);
		c->failed[c->nfailed] = c->failed_names[c->nfailed];
		c->failed_why[c->nfailed] = perf_open_strerror(err, pmu);
		c->nfailed++;
	}
}

/* Whether the set has an event that excludes user level (name:k). */
static bool kernel_only(const struct perf_counters *c)
{
	for (int i = 0; i < c->nev; i++)
		if (c->ev[i].attr.exclude_user)
			return true;
	return false;
}

int perf_counters_new(const char *const *events, int n, unsigned budget, struct perf_counters **out,
		      const char **bad)
{
	struct perf_counters *c = xcalloc(1, sizeof(*c));
	int err;

	if (!events || n <= 0) {
		events = perf_hardware_events;
		n = 4;
	}
	err = resolve_all(c, events, n, bad);
	if (err) {
		free(c);
		return err;
	}
	c->budget = budget;
	c->npmus = perf_core_pmus(c->pmus, PERF_PMUS_MAX);
	if (c->npmus < 0)
		c->npmus = 0;
	plan_opens(c);
	if (c->hardware) {
		/* Try the set on ourselves once: no PMU shows here, not per process. */
		bool pmu = c->npmus > 0;
		struct perf_group g;

		err = perf_group_open(&g, 0, c->open, c->nopen);
		if (err == 0) {
			perf_group_close(&g);
		} else {
			probe_each(c, pmu);
			if ((err == -ENOENT || err == -ENODEV || err == -EOPNOTSUPP) && !pmu)
				use_software(c, N_("no hardware PMU"));
			else if (err == -EACCES && kernel_only(c))
				use_software(
				    c, N_("kernel-only events (:k) refused (perf_event_paranoid)"));
			else if (err == -EACCES)
				use_software(c,
					     N_("hardware events refused (perf_event_paranoid)"));
			else
				use_software(c, perf_open_strerror(err, pmu));
		}
	}
	*out = c;
	return 0;
}

static void proc_close(struct perf_proc *p)
{
	for (int i = 0; i < p->nthreads; i++)
		perf_group_close(&p->thread[i]);
	free(p->thread);
	p->thread = NULL;
	p->nthreads = 0;
}

void perf_counters_free(struct perf_counters *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->nprocs; i++)
		proc_close(&c->procs[i]);
	free(c->procs);
	free(c->spare);
	free(c->plan);
	free(c->old);
	free(c);
}

/*
 * The threads of pid but its main one, at most max of them, into tids; the
 * number found. *more is set when there were more than max.
 */
struct thread_list {
	int pid, *tids, max, n;
	bool more;
};

static int add_thread(void *ctx, int tid)
{
	struct thread_list *l = ctx;

	if (tid == l->pid)
		return 0;
	if (l->n == l->max) {
		l->more = true;
		return 1;
	}
	l->tids[l->n++] = tid;
	return 0;
}

static int list_threads(int pid, int *tids, int max, bool *more)
{
	struct thread_list l = {.pid = pid, .tids = tids, .max = max};

	/* the kernel's threads, whatever proc root the frames come from: these
	 * are the tasks perf_event_open attaches to. Gone: opening the main
	 * thread's group says so. */
	proc_tasks(NULL, pid, add_thread, &l);
	*more = l.more;
	return l.n;
}

/*
 * Open p's groups: the main thread's (which must open), then one per other
 * thread, while room (groups) lasts. 0 or -errno of the main thread's.
 */
static int proc_open(struct perf_counters *c, struct perf_proc *p, int pid, int room)
{
	bool more;
	int ntids, err;

	memset(p, 0, sizeof(*p));
	p->pid = pid;
	p->n = c->nev;
	if (room > PERF_THREADS_MAX)
		room = PERF_THREADS_MAX;
	/* listed before any group opens: see the top of this file */
	more = false;
	ntids = c->per_thread ? 0 : list_threads(pid, c->tids, room - 1, &more);
	p->thread = xcalloc((size_t)ntids + 1, sizeof(*p->thread));
	/* a thread row counts itself alone: the threads it creates have rows of their own */
	err = perf_group_open_task(&p->thread[0], pid, c->open, c->nopen, !c->per_thread);
	/*
	 * A main thread that has exited (pthread_exit) while others run is a
	 * zombie: ESRCH, and nothing of it is left to count. Its threads still
	 * run and count; the first one opened takes its place.
	 */
	if (err == -ESRCH && ntids > 0) {
		err = 0;
	} else if (err) {
		free(p->thread);
		p->thread = NULL;
		return err;
	} else {
		p->nthreads = 1;
	}
	for (int i = 0; i < ntids; i++) {
		err = perf_group_open(&p->thread[p->nthreads], c->tids[i], c->open, c->nopen);
		if (!err)
			p->nthreads++;
		else if (err != -ESRCH) /* a thread that ended since is no loss */
			more = true;
	}
	p->partial = more;
	if (!p->nthreads) {
		free(p->thread);
		p->thread = NULL;
		return -ESRCH; /* every thread ended meanwhile */
	}
	return 0;
}

/* Read every group of p and sum them. 0, or -errno when the main thread's cannot be read. */
static int proc_read(const struct perf_counters *c, struct perf_proc *p)
{
	double de = 0, dr = 0;
	bool had = p->thread[0].have_prev, split_uncounted = false;

	memset(p->delta, 0, sizeof(p->delta));
	p->na = 0;
	p->nsplit = 1;
	for (int t = 0; t < p->nthreads; t++) {
		struct perf_group *g = &p->thread[t];
		uint64_t e0 = g->have_prev ? g->enabled : 0, r0 = g->have_prev ? g->running : 0;
		int err = perf_group_read(g);

		/*
		 * A thread that ended keeps its final counts readable. A group that
		 * cannot be read is closed (kept, its next read would put two
		 * intervals into one frame) and its thread no longer counts.
		 */
		if (err) {
			if (t == 0)
				return err;
			perf_group_close(g);
			p->thread[t--] = p->thread[--p->nthreads];
			p->partial = true;
			continue;
		}
		/* a column is the sum of its event's copies (one per core type, hybrid) */
		for (int i = 0; i < g->n && i < c->nopen; i++) {
			int col = c->open[i].column;

			p->delta[col] += g->delta[i];
			if (g->na & (1u << i))
				p->na |= (uint8_t)(1u << col);
		}
		if (1 + g->nrefused > p->nsplit)
			p->nsplit = 1 + g->nrefused;
		split_uncounted |= g->nsplit > 1 && g->not_counted;
		de += (double)(g->enabled - e0);
		dr += (double)(g->running - r0);
	}
	p->scale = de > 0 ? dr / de : 1.0;
	/* a split group's later kernel groups run apart from its first: the least of them */
	for (int t = 0; t < p->nthreads; t++)
		if (p->thread[t].nsplit > 1 && p->thread[t].scale < p->scale)
			p->scale = p->thread[t].scale;
	/* multiplexed out for the whole interval: a 0 would be a guess, not a count */
	p->not_counted = (de > 0 && dr == 0) || split_uncounted;
	p->have_prev = had;
	return 0;
}

static int proc_cmp(const void *a, const void *b)
{
	int x = ((const struct perf_proc *)a)->pid, y = ((const struct perf_proc *)b)->pid;

	return (x > y) - (x < y);
}

const struct perf_proc *perf_counters_get(const struct perf_counters *c, int pid)
{
	struct perf_proc key = {.pid = pid};

	return c->nprocs ? bsearch(&key, c->procs, c->nprocs, sizeof(key), proc_cmp) : NULL;
}

void perf_counters_per_thread(struct perf_counters *c, bool on)
{
	if (c->per_thread == on)
		return;
	/* what is attached counts the other way: start again */
	for (size_t i = 0; i < c->nprocs; i++)
		proc_close(&c->procs[i]);
	c->nprocs = 0;
	c->per_thread = on;
}

/* What perf_counters_update does with each wanted pid, decided in priority order. */
enum plan { PLAN_REFUSE, PLAN_KEEP, PLAN_OPEN, PLAN_SKIP };

/* Room for want processes in every per-update array. */
static void counters_grow(struct perf_counters *c, size_t want)
{
	if (c->cap >= want)
		return;
	c->cap = want;
	c->spare = xreallocarray(c->spare, c->cap, sizeof(*c->spare));
	/* procs may have fewer slots than want: grow it too before the swap */
	c->procs = xreallocarray(c->procs, c->cap, sizeof(*c->procs));
	c->plan = xreallocarray(c->plan, c->cap, sizeof(*c->plan));
	c->old = xreallocarray(c->old, c->cap, sizeof(*c->old));
}

/*
 * In priority order: a process attached already keeps its groups if they fit
 * what is left under the cap, a new one (or one that no longer fits) is
 * promised its main thread's group. Returns the groups left in the pool.
 */
static int counters_plan(struct perf_counters *c, const int *pids, size_t want, int pool)
{
	for (size_t i = 0; i < want; i++) {
		struct perf_proc *old = (struct perf_proc *)perf_counters_get(c, pids[i]);

		c->old[i] = NULL;
		if (old && old->wanted) {
			c->plan[i] = PLAN_SKIP; /* a pid listed twice */
		} else if (old && old->nthreads <= pool) {
			old->wanted = true;
			c->old[i] = old;
			pool -= old->nthreads;
			c->plan[i] = PLAN_KEEP;
		} else if (pool >= 1) {
			pool--;
			c->plan[i] = PLAN_OPEN;
		} else {
			c->plan[i] = PLAN_REFUSE;
		}
	}
	return pool;
}

/*
 * Keep, open or refuse each planned process into next; a new process may take
 * what the pool has left. Returns how many next holds.
 */
static size_t counters_carry_out(struct perf_counters *c, const int *pids, size_t want, int pool,
				 struct perf_proc *next)
{
	size_t kept = 0;

	for (size_t i = 0; i < want; i++) {
		int err;

		switch (c->plan[i]) {
		case PLAN_SKIP:
			continue;
		case PLAN_REFUSE:
			c->last_error = -EMFILE; /* the set's descriptor cap */
			c->not_attached++;
			continue;
		case PLAN_KEEP:
			next[kept] = *c->old[i];
			c->old[i]->nthreads = 0; /* moved: not closed below */
			c->old[i]->thread = NULL;
			break;
		case PLAN_OPEN:
			err = proc_open(c, &next[kept], pids[i], 1 + pool);
			if (err) {
				pool++; /* its promised group */
				if (err != -ESRCH) {
					c->last_error = err;
					c->not_attached++;
				}
				if (err == -EACCES || err == -EPERM) {
					c->refused++;
					c->refused_error = err;
				}
				continue;
			}
			pool -= next[kept].nthreads - 1;
			break;
		}
		if (proc_read(c, &next[kept]) == 0) {
			kept++;
		} else {
			pool += next[kept].nthreads;
			proc_close(&next[kept]); /* gone since */
		}
	}
	return kept;
}

void perf_counters_update(struct perf_counters *c, const int *pids, size_t n)
{
	size_t want = n < c->budget ? n : c->budget, kept;
	/* groups the descriptor cap allows beyond one for each process to be opened */
	int pool = c->nopen ? PERF_FDS_MAX / c->nopen : 0;
	struct perf_proc *next;

	counters_grow(c, want);
	next = c->spare;
	c->not_attached = n > want ? (unsigned)(n - want) : 0;
	c->refused = 0;
	c->refused_error = 0;
	pool = counters_plan(c, pids, want, pool);
	/* Those not kept are closed first, so the descriptors held never pass the cap. */
	for (size_t i = 0; i < c->nprocs; i++) {
		if (!c->procs[i].wanted)
			proc_close(&c->procs[i]);
		c->procs[i].wanted = false;
	}
	kept = counters_carry_out(c, pids, want, pool, next);
	for (size_t i = 0; i < c->nprocs; i++)
		proc_close(&c->procs[i]); /* each was moved or closed: this frees only slots */
	/* next is NULL when nothing was ever wanted */
	if (kept)
		qsort(next, kept, sizeof(*next), proc_cmp);
	c->spare = c->procs;
	c->procs = next;
	c->nprocs = kept;
}

void perf_counters_info(const struct perf_counters *c, struct perf_counters_info *info)
{
	memset(info, 0, sizeof(*info));
	info->nevents = c->nev;
	for (int i = 0; i < c->nev; i++)
		info->names[i] = c->ev[i].name;
	info->hardware = c->hardware && !c->why_software;
	info->why_software = c->why_software;
	info->attached = (unsigned)c->nprocs;
	info->not_attached = c->not_attached;
	for (size_t i = 0; i < c->nprocs; i++) {
		info->partial += c->procs[i].partial;
		info->na |= c->procs[i].na;
		if (c->procs[i].nsplit > info->nsplit)
			info->nsplit = c->procs[i].nsplit;
	}
	info->last_error = c->last_error;
	info->children_counted = no_inherit_thread && !c->per_thread;
	for (int i = 0; i < c->nev; i++)
		if (!c->ev[i].hardware)
			info->software |= (uint8_t)(1u << i);
	info->nfailed = c->nfailed;
	/* the core PMUs each hardware event is opened on, when there is more than one */
	if (c->nopen > c->nev)
		for (int k = 0; k < c->npmus; k++)
			info->pmus[info->npmus++] = c->pmus[k].name;
	for (int i = 0; i < c->nfailed; i++) {
		info->failed[i] = c->failed[i];
		info->failed_why[i] = c->failed_why[i];
	}
	info->refused = c->refused;
	info->refused_error = c->refused_error;
}

int perf_paranoid(const char *root, int *level)
{
	char path[512], buf[16];
	ssize_t n;
	int fd, v = 0, sign = 1;
	size_t i = 0;

	snprintf(path, sizeof(path), "%s/sys/kernel/perf_event_paranoid", root ? root : "/proc");
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -EINVAL;
	buf[n] = '\0';
	if (buf[0] == '-') {
		sign = -1;
		i++;
	}
	if (buf[i] < '0' || buf[i] > '9')
		return -EINVAL;
	for (; buf[i] >= '0' && buf[i] <= '9'; i++) {
		if (v > 1000)
			return -ERANGE;
		v = v * 10 + buf[i] - '0';
	}
	*level = sign * v;
	return 0;
}
