// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * scan.c: PID enumeration and the per-PID slot table. PIDs come from
 * getdents64 on the proc root, rewound with lseek for each scan, so one
 * descriptor and one buffer serve every frame. Slots are kept in a hash keyed
 * by PID and recycled through a free list: a steady-state scan allocates
 * nothing. A slot not seen by a scan belongs to a process that is gone.
 *
 * A scan reads of the root only the PIDs allocated since the last listing:
 * PIDs are allocated upwards from the pid namespace's last PID
 * (ns_last_pid), so the last listing stands for the rest, and those that
 * went are found gone by their first read. See proc_reader_begin().
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/magic.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ptop/util.h"
#include "reader.h"

struct linux_dirent64 {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

static size_t pid_hash(int pid, size_t cap)
{
	/* Fibonacci hashing: PIDs are dense, so spread them. */
	return (size_t)(((uint32_t)pid * 2654435769u) >> 8) & (cap - 1);
}

static void tab_put(struct proc_slot **tab, size_t cap, struct proc_slot *s)
{
	size_t i = pid_hash(s->pid, cap);

	while (tab[i])
		i = (i + 1) & (cap - 1);
	tab[i] = s;
}

static void tab_grow(struct slot_tab *t)
{
	size_t cap = t->cap ? t->cap * 2 : 1024;
	struct proc_slot **tab = xcalloc(cap, sizeof(*tab));

	for (size_t i = 0; i < t->cap; i++)
		if (t->tab[i])
			tab_put(tab, cap, t->tab[i]);
	free(t->tab);
	t->tab = tab;
	t->cap = cap;
}

static size_t tab_find(const struct slot_tab *t, int pid)
{
	size_t i = pid_hash(pid, t->cap);

	while (t->tab[i] && t->tab[i]->pid != pid)
		i = (i + 1) & (t->cap - 1);
	return i;
}

/* Backward-shift deletion keeps every probe chain unbroken without tombstones. */
static void tab_remove_at(struct slot_tab *t, size_t hole)
{
	size_t mask = t->cap - 1, j = hole;

	t->tab[hole] = NULL;
	for (;;) {
		size_t home;

		j = (j + 1) & mask;
		if (!t->tab[j])
			break;
		home = pid_hash(t->tab[j]->pid, t->cap);
		/* Move j into the hole unless its home lies cyclically in (hole, j]. */
		if (((j - home) & mask) >= ((j - hole) & mask)) {
			t->tab[hole] = t->tab[j];
			t->tab[j] = NULL;
			hole = j;
		}
	}
	t->n--;
}

static void slot_release(struct proc_reader *r, struct proc_slot *s)
{
	fdcache_close_slot(r, s);
	s->pid = 0;
	s->next_free = r->free_slots;
	r->free_slots = s;
}

static struct proc_slot *slot_new(struct proc_reader *r, int pid)
{
	struct proc_slot *s = r->free_slots;
	unsigned id;

	if (s) {
		r->free_slots = s->next_free;
		id = s->id;
	} else {
		s = xmalloc(sizeof(*s));
		id = r->nids++;
	}
	memset(s, 0, sizeof(*s));
	s->pid = pid;
	s->id = id;
	for (int f = 0; f < PROC_NFILES; f++)
		s->fd[f] = -1;
	return s;
}

/* Add a slot for pid at t's free index i (from tab_find), growing t when due. */
static struct proc_slot *tab_add(struct proc_reader *r, struct slot_tab *t, size_t i, int pid)
{
	struct proc_slot *s;

	if ((t->n + 1) * 2 > t->cap) {
		tab_grow(t);
		i = tab_find(t, pid);
	}
	s = slot_new(r, pid);
	s->gen = r->gen;
	t->tab[i] = s;
	t->n++;
	return s;
}

static void raise_nofile(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

/*
 * Whether the root is the proc of ptop's own pid namespace: /proc/self there
 * is ptop's PID. Not so for a fixture tree, or another namespace's proc.
 */
static bool own_namespace(int root_fd)
{
	char self[16], want[16];
	ssize_t n = readlinkat(root_fd, "self", self, sizeof(self) - 1);

	if (n <= 0)
		return false;
	self[n] = 0;
	snprintf(want, sizeof(want), "%d", (int)getpid());
	return strcmp(self, want) == 0;
}

int proc_reader_new(const char *root, struct proc_reader **out)
{
	struct proc_reader *r;
	struct statfs sfs;
	int fd;

	fd = open(root ? root : "/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	raise_nofile();
	r = xcalloc(1, sizeof(*r));
	r->root_fd = fd;
	r->procfs = fstatfs(fd, &sfs) == 0 && sfs.f_type == PROC_SUPER_MAGIC;
	r->own_ns = own_namespace(fd);
	/* the namespace's last PID, which only ptop's own namespace's proc gives ptop */
	r->cursor_fd = r->own_ns ? openat(fd, "sys/kernel/ns_last_pid", O_RDONLY | O_CLOEXEC) : -1;
	r->upto = -1;
	r->dir_base = -1;
	r->dents = xmalloc(READER_DENTS_BUF);
	tab_grow(&r->procs);
	tab_grow(&r->tasks);
	fdcache_init(r);
	*out = r;
	return 0;
}

void proc_reader_free(struct proc_reader *r)
{
	struct proc_slot *s, *next;

	if (!r)
		return;
	for (size_t i = 0; i < r->procs.cap; i++)
		if (r->procs.tab[i])
			slot_release(r, r->procs.tab[i]);
	for (size_t i = 0; i < r->tasks.cap; i++)
		if (r->tasks.tab[i])
			slot_release(r, r->tasks.tab[i]);
	for (s = r->free_slots; s; s = next) {
		next = s->next_free;
		free(s);
	}
	free(r->procs.tab);
	free(r->tasks.tab);
	free(r->dents);
	free(r->listed);
	free(r->building);
	if (r->cursor_fd >= 0)
		close(r->cursor_fd);
	close(r->root_fd);
	free(r);
}

/* The last PID allocated in the namespace, or -1 when it cannot be read. */
static long read_cursor(const struct proc_reader *r)
{
	char buf[24];
	ssize_t n = pread(r->cursor_fd, buf, sizeof(buf) - 1, 0);
	char *end;
	long v;

	if (n <= 0)
		return -1;
	buf[n] = 0;
	v = strtol(buf, &end, 10);
	return end != buf && v >= 0 ? v : -1;
}

/*
 * Note the last PID c, read at now, in the history. Returns false when it
 * went back: the PIDs wrapped past pid_max (or someone wrote ns_last_pid),
 * so new processes may have any PID and nothing listed can be trusted.
 */
static bool cursor_note(struct proc_reader *r, long c, double now)
{
	struct cursor_seen *last = r->nhist ? &r->hist[r->nhist - 1] : NULL;

	if (last && last->pid == c)
		return true;
	if (last && c < last->pid) {
		r->hist[0] = (struct cursor_seen){.pid = c, .when = now};
		r->nhist = 1;
		return false;
	}
	/* full (frames faster than PROC_LIST_SETTLE_S / 16): c is noted when read
	 * again, later than it was first seen, which only trusts less */
	if (r->nhist < READER_CURSOR_HIST)
		r->hist[r->nhist++] = (struct cursor_seen){.pid = c, .when = now};
	return true;
}

/*
 * The newest last PID first read PROC_LIST_SETTLE_S or more before now, or -1:
 * every PID up to it was allocated that long ago, so its process, when it
 * lives, shows in /proc (a PID is allocated before its process appears).
 * Older values are dropped from the history: this one stands for them.
 */
static long cursor_settled(struct proc_reader *r, double now)
{
	unsigned i = r->nhist;

	while (i > 0 && now - r->hist[i - 1].when < PROC_LIST_SETTLE_S)
		i--;
	if (i == 0)
		return -1;
	memmove(r->hist, r->hist + i - 1, (r->nhist - i + 1) * sizeof(*r->hist));
	r->nhist -= i - 1;
	return r->hist[0].pid;
}

/*
 * How this scan goes. From the start of the root when there is no listing to
 * trust, the PIDs wrapped, the listing is PROC_RELIST_S old, or the root's
 * directory positions are not known; else the last listing alone when no PID
 * was allocated since every PID it holds had settled; else the last listing
 * up to what had settled, and the root read from there to the last PID only:
 * PIDs are allocated upwards, so a new process can be nowhere else.
 */
static int scan_mode(struct proc_reader *r, double now, long *settled)
{
	long c;
	bool same;

	*settled = -1;
	if (r->cursor_fd < 0 || (c = read_cursor(r)) < 0)
		return SCAN_LIST;
	same = cursor_note(r, c, now);
	*settled = cursor_settled(r, now);
	if (!same || r->upto < 0 || now - r->list_at >= PROC_RELIST_S)
		return SCAN_LIST;
	if (r->upto >= c)
		return SCAN_REPLAY;
	if (r->dir_base < 0)
		return SCAN_LIST;
	r->tail_from = r->upto + 1;
	r->tail_to = c;
	return SCAN_TAIL;
}

int proc_reader_begin(struct proc_reader *r)
{
	double now = clock_mono();
	long settled;

	r->fallback = 0;
	r->gen++;
	r->mode = scan_mode(r, now, &settled);
	r->replay_pos = 0;
	r->nbuilding = 0;
	r->phase = 0;
	r->dents_len = r->dents_pos = 0;
	r->dents_eof = false;
	r->last_dent = 0;
	if (r->mode == SCAN_REPLAY) {
		r->reused++;
		return 0;
	}
	/* what this listing may be trusted up to once complete */
	r->upto_next = settled;
	if (r->mode == SCAN_TAIL) {
		r->tails++;
		/* a position computed from the positions the kernel gave */
		if (lseek(r->root_fd, r->tail_from + r->dir_base, SEEK_SET) < 0)
			return -errno;
		return 0;
	}
	r->upto = -1;
	r->list_at = now;
	r->relisted++;
	if (lseek(r->root_fd, 0, SEEK_SET) < 0)
		return -errno;
	return 0;
}

/* Note pid in the listing being made. */
static void list_pid(struct proc_reader *r, int pid)
{
	if (r->nbuilding == r->capbuilding) {
		r->capbuilding = r->capbuilding ? r->capbuilding * 2 : 1024;
		r->building = xreallocarray(r->building, r->capbuilding, sizeof(*r->building));
	}
	r->building[r->nbuilding++] = pid;
}

/* The listing being made is complete: it is the last listing now. */
static void listing_done(struct proc_reader *r)
{
	int *t = r->listed;
	size_t cap = r->caplisted;

	r->listed = r->building;
	r->caplisted = r->capbuilding;
	r->nlisted = r->nbuilding;
	r->building = t;
	r->capbuilding = cap;
	r->nbuilding = 0;
	r->upto = r->upto_next;
}

/*
 * The next PID of the last listing that a scan walks: in SCAN_REPLAY all of
 * them; in SCAN_TAIL those up to upto (phase 0), then those past tail_to
 * (phase 2). 0 at the end of what the phase walks.
 */
static int listed_next(struct proc_reader *r, struct proc_slot **slot)
{
	while (r->replay_pos < r->nlisted) {
		int pid = r->listed[r->replay_pos];
		struct proc_slot *s;

		if (r->mode == SCAN_TAIL) {
			if (r->phase == 0 && pid > r->upto)
				return 0;
			if (r->phase == 2 && pid <= r->tail_to) {
				r->replay_pos++; /* read again from the root */
				continue;
			}
		}
		r->replay_pos++;
		s = r->procs.tab[tab_find(&r->procs, pid)];
		/* a slot dropped as gone since the listing is not in the table */
		if (!s || s->gen == r->gen)
			continue;
		s->gen = r->gen;
		*slot = s;
		return pid;
	}
	return 0;
}

/* A directory entry's PID, or 0 when the name is not all digits. */
static int name_pid(const char *name)
{
	unsigned v = 0;

	if (!*name)
		return 0;
	for (; *name; name++) {
		if ((unsigned char)(*name - '0') > 9 || v > 400000000u)
			return 0;
		v = v * 10 + (unsigned)(*name - '0');
	}
	return v <= INT32_MAX ? (int)v : 0;
}

/*
 * Learn where a proc keeps PID directories: the position (d_off) given with
 * an entry is where the next one starts, the next PID plus a constant. Every
 * pair of neighbours must agree, or positions are not computed at all.
 */
static void learn_dir_base(struct proc_reader *r, int pid)
{
	long base;

	if (r->last_dent && r->procfs && !r->dir_base_bad) {
		base = (long)r->last_dent_off - pid;
		if (r->dir_base < 0 && base >= 0)
			r->dir_base = base;
		else if (base != r->dir_base)
			r->dir_base_bad = true;
		if (r->dir_base_bad)
			r->dir_base = -1;
	}
}

/* The next PID directory from the root (listed as it comes), 0 at its end, or -errno. */
static int dent_next(struct proc_reader *r)
{
	size_t buf = r->mode == SCAN_TAIL ? READER_TAIL_BUF : READER_DENTS_BUF;

	for (;;) {
		struct linux_dirent64 *d;
		int pid;

		if (r->dents_pos >= r->dents_len) {
			long n;

			if (r->dents_eof)
				return 0;
			n = syscall(SYS_getdents64, r->root_fd, r->dents, buf);
			if (n < 0)
				return -errno;
			/* a pair across two reads tells nothing: the first's d_off is where
			 * the second read began */
			r->last_dent = 0;
			if (n == 0) {
				r->dents_eof = true;
				return 0;
			}
			r->dents_len = (size_t)n;
			r->dents_pos = 0;
		}
		d = (struct linux_dirent64 *)(r->dents + r->dents_pos);
		r->dents_pos += d->d_reclen;
		if (d->d_type != DT_DIR && d->d_type != DT_UNKNOWN)
			continue;
		pid = name_pid(d->d_name);
		if (!pid) {
			r->last_dent = 0;
			continue;
		}
		learn_dir_base(r, pid);
		r->last_dent = pid;
		r->last_dent_off = d->d_off;
		return pid;
	}
}

/* The slot of pid, listed from the root: 1, or 0 when it is to be passed over. */
static int take_listed(struct proc_reader *r, int pid, struct proc_slot **slot, bool *is_new)
{
	size_t i = tab_find(&r->procs, pid);
	struct proc_slot *s = r->procs.tab[i];
	struct stat st;
	char name[16];

	if (s) {
		if (s->gen == r->gen)
			return 0; /* a directory listed twice while /proc changed */
		s->gen = r->gen;
		list_pid(r, pid);
		*slot = s;
		*is_new = false;
		return 1;
	}
	/* The owner of /proc/PID is the process's effective uid. */
	snprintf(name, sizeof(name), "%d", pid);
	if (fstatat(r->root_fd, name, &st, 0) < 0)
		return 0; /* gone already */
	s = tab_add(r, &r->procs, i, pid);
	s->uid = st.st_uid;
	list_pid(r, pid);
	*slot = s;
	*is_new = true;
	return 1;
}

/* SCAN_TAIL: the listing up to upto, the root from there to tail_to, the listing past it. */
static int tail_next(struct proc_reader *r, struct proc_slot **slot, bool *is_new)
{
	int pid;

	*is_new = false;
	if (r->phase == 0) {
		if ((pid = listed_next(r, slot))) {
			list_pid(r, pid);
			return 1;
		}
		r->phase = 1;
	}
	while (r->phase == 1) {
		pid = dent_next(r);
		if (pid < 0)
			return pid;
		if (pid == 0 || pid > r->tail_to) {
			/* what is past the last PID was there at the last listing */
			r->phase = 2;
			break;
		}
		if (pid < r->tail_from)
			r->dir_base_bad = true; /* the position was not where it was computed */
		if (take_listed(r, pid, slot, is_new))
			return 1;
	}
	if ((pid = listed_next(r, slot))) {
		list_pid(r, pid);
		return 1;
	}
	listing_done(r);
	return 0;
}

int proc_reader_next(struct proc_reader *r, struct proc_slot **slot, bool *is_new)
{
	int pid;

	if (r->mode == SCAN_REPLAY) {
		*is_new = false;
		return listed_next(r, slot) ? 1 : 0;
	}
	if (r->mode == SCAN_TAIL)
		return tail_next(r, slot, is_new);
	for (;;) {
		pid = dent_next(r);
		if (pid < 0)
			return pid;
		if (pid == 0) {
			listing_done(r);
			return 0;
		}
		if (take_listed(r, pid, slot, is_new))
			return 1;
	}
}

bool proc_reader_owner_is_euid(const struct proc_reader *r)
{
	return r->procfs;
}

int proc_reader_restat(struct proc_reader *r, struct proc_slot *s)
{
	char name[16];
	struct stat st;

	snprintf(name, sizeof(name), "%d", s->pid);
	if (fstatat(r->root_fd, name, &st, 0) < 0)
		return errno == ENOENT ? -ESRCH : -errno;
	s->uid = st.st_uid;
	return 0;
}

int proc_reader_task(struct proc_reader *r, int tgid, int tid, struct proc_slot **slot,
		     bool *is_new)
{
	size_t i = tab_find(&r->tasks, tid);
	struct proc_slot *s = r->tasks.tab[i];

	if (s && s->tgid != tgid) {
		/* the TID now belongs to another process's thread */
		tab_remove_at(&r->tasks, i);
		slot_release(r, s);
		i = tab_find(&r->tasks, tid);
		s = NULL;
	}
	*is_new = !s;
	if (!s) {
		s = tab_add(r, &r->tasks, i, tid);
		s->tgid = tgid;
	}
	s->gen = r->gen;
	*slot = s;
	return 0;
}

struct proc_slot *proc_reader_find(struct proc_reader *r, int pid)
{
	struct proc_slot *s = r->procs.tab[tab_find(&r->procs, pid)];

	return s && s->gen == r->gen ? s : NULL;
}

void proc_reader_drop(struct proc_reader *r, struct proc_slot *s)
{
	struct slot_tab *t = s->tgid ? &r->tasks : &r->procs;
	size_t i = tab_find(t, s->pid);

	if (t->tab[i] == s)
		tab_remove_at(t, i);
	slot_release(r, s);
}

static unsigned sweep(struct proc_reader *r, struct slot_tab *t)
{
	unsigned dropped = 0;
	size_t i = 0;

	while (i < t->cap) {
		struct proc_slot *s = t->tab[i];

		if (s && s->gen != r->gen) {
			tab_remove_at(t, i);
			slot_release(r, s);
			dropped++;
			continue; /* the shift may have moved another slot into i */
		}
		i++;
	}
	return dropped;
}

unsigned proc_reader_end(struct proc_reader *r)
{
	sweep(r, &r->tasks);
	return sweep(r, &r->procs);
}

void proc_reader_stats(const struct proc_reader *r, struct proc_reader_stats *st)
{
	st->slots = (unsigned)r->procs.n;
	st->ids = r->nids;
	st->fds_held = r->fds_held;
	st->fd_budget = r->fd_budget;
	st->fallback = r->fallback;
	st->relisted = r->relisted;
	st->reused = r->reused;
	st->tails = r->tails;
}

int proc_dir_ids(int dirfd, char *buf, size_t cap, int (*fn)(void *ctx, int id), void *ctx,
		 uint64_t *calls)
{
	for (;;) {
		long n = syscall(SYS_getdents64, dirfd, buf, cap);

		if (calls)
			(*calls)++;
		if (n <= 0)
			return n < 0 ? -errno : 0;
		for (long off = 0; off < n;) {
			struct linux_dirent64 d;
			int id, ret;

			/* buf is the caller's: copy the fixed part rather than assume alignment */
			memcpy(&d, buf + off, sizeof(d));
			id = name_pid(buf + off + offsetof(struct linux_dirent64, d_name));
			off += d.d_reclen;
			if (id && (ret = fn(ctx, id)))
				return ret;
		}
	}
}

/* fn for each thread id in the task directory of pid under the root dirfd. */
static int walk_tasks(int dirfd, int pid, int (*fn)(void *ctx, int tid), void *ctx)
{
	char path[PROC_PATH_MAX];
	struct dirent *d;
	DIR *dir;
	int fd, ret = 0;

	proc_path(path, (unsigned)pid, 0, "task");
	fd = openat(dirfd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT || errno == ESRCH ? -ESRCH : -errno;
	dir = fdopendir(fd);
	if (!dir) {
		ret = -errno;
		close(fd);
		return ret;
	}
	while (!ret && (d = readdir(dir))) {
		int tid = name_pid(d->d_name);

		if (tid)
			ret = fn(ctx, tid);
	}
	closedir(dir);
	return ret;
}

int proc_reader_tasks(struct proc_reader *r, int pid, int (*fn)(void *ctx, int tid), void *ctx)
{
	return walk_tasks(r->root_fd, pid, fn, ctx);
}

int proc_tasks(const char *root, int pid, int (*fn)(void *ctx, int tid), void *ctx)
{
	int dirfd = open(root ? root : "/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC), ret;

	if (dirfd < 0)
		return -errno;
	ret = walk_tasks(dirfd, pid, fn, ctx);
	close(dirfd);
	return ret;
}
