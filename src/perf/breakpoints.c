// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * breakpoints.c: hardware breakpoints and watchpoints a user arms on a
 * process: PERF_TYPE_BREAKPOINT events, one per thread of the process (and
 * inherited by threads it creates later), counting hits. An address is given
 * in hex, as a region of /proc/PID/maps and an offset ("[heap]+0x40"), as a
 * mapped binary and one of its addresses ("prog+0x4010"), or as a variable's
 * name ("counter", "libc.so.6:stdout") found in the symbol tables of the files
 * the process maps (elfsym.c), placed where /proc/PID/maps shows them loaded.
 * A pidfd taken at arming tells when the process exits. x86 has four debug registers per task, so a
 * fifth breakpoint fails with ENOSPC, which gets a message of its own.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/hw_breakpoint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ptop/perf.h"
#include "ptop/proc.h"

static int parse_hex(const char *s, const char *end, uint64_t *out)
{
	uint64_t v = 0;

	if (end - s > 2 && s[0] == '0' && (s[1] | 0x20) == 'x')
		s += 2;
	if (s == end)
		return -EINVAL;
	for (; s < end; s++) {
		int d;

		if (*s >= '0' && *s <= '9')
			d = *s - '0';
		else if ((*s | 0x20) >= 'a' && (*s | 0x20) <= 'f')
			d = (*s | 0x20) - 'a' + 10;
		else
			return -EINVAL;
		if (v >> 60)
			return -EINVAL;
		v = v << 4 | (unsigned)d;
	}
	*out = v;
	return 0;
}

const char *perf_bp_type_name(enum perf_bp_type t)
{
	switch (t) {
	case PERF_BP_R:
		return "r";
	case PERF_BP_W:
		return "w";
	case PERF_BP_RW:
		return "rw";
	case PERF_BP_X:
		return "x";
	}
	return "?";
}

static bool is_name(const char *s, size_t n)
{
	if (!n || (*s >= '0' && *s <= '9'))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && !strchr("_.$@", s[i]))
			return false;
	return true;
}

static int copy_field(char *dst, size_t cap, const char *s, size_t n)
{
	if (!n || n >= cap || memchr(s, ' ', n))
		return -EINVAL;
	memcpy(dst, s, n);
	dst[n] = '\0';
	return 0;
}

/* The ADDR part; *pp is left at the ':' or NUL after it. */
static int parse_where(const char **pp, struct perf_bp_spec *out)
{
	const char *p = *pp, *colon = strchr(p, ':'), *plus = NULL, *next;

	if (!colon)
		colon = p + strlen(p);
	if (!parse_hex(p, colon, &out->addr)) {
		*pp = colon;
		return 0;
	}
	copy_field(out->label, sizeof(out->label), p, (size_t)(colon - p));
	/* the last '+': library names have their own ("libstdc++.so.6") */
	for (const char *q = p; q < colon; q++)
		if (*q == '+')
			plus = q;
	if (plus && plus > p && !parse_hex(plus + 1, colon, &out->offset)) {
		*pp = colon;
		return copy_field(out->region, sizeof(out->region), p, (size_t)(plus - p));
	}
	/* LIB:NAME: a second field that is not a length names the variable */
	if (*colon && !(colon[1] && strchr("1248", colon[1]) && (!colon[2] || colon[2] == ':'))) {
		next = strchr(colon + 1, ':');
		if (!next)
			next = colon + strlen(colon);
		if (copy_field(out->region, sizeof(out->region), p, (size_t)(colon - p)) ||
		    !is_name(colon + 1, (size_t)(next - colon - 1)))
			return -EINVAL;
		copy_field(out->symbol, sizeof(out->symbol), colon + 1, (size_t)(next - colon - 1));
		copy_field(out->label, sizeof(out->label), p, (size_t)(next - p));
		*pp = next;
		return 0;
	}
	if (!is_name(p, (size_t)(colon - p)))
		return -EINVAL;
	*pp = colon;
	return copy_field(out->symbol, sizeof(out->symbol), p, (size_t)(colon - p));
}

int perf_bp_parse(const char *arg, struct perf_bp_spec *out)
{
	const char *p = arg, *colon;
	char *end;
	long v;

	memset(out, 0, sizeof(*out));
	out->len = -1;
	out->type = PERF_BP_W;

	/* strtol would take leading blanks and a sign */
	if (*p < '0' || *p > '9')
		return -EINVAL;
	errno = 0;
	v = strtol(p, &end, 10);
	if (end == p || *end != ':' || errno || v <= 0 || v > INT32_MAX)
		return -EINVAL;
	out->pid = (int)v;
	p = end + 1;
	if (parse_where(&p, out))
		return -EINVAL;
	colon = p;
	p = *colon ? colon + 1 : colon;

	if (*colon) {
		colon = strchr(p, ':');
		if (!colon)
			colon = p + strlen(p);
		if (colon - p != 1 || !strchr("1248", *p))
			return -EINVAL;
		out->len = *p - '0';
		out->len_set = true;
		p = *colon ? colon + 1 : colon;
		if (*colon) {
			if (!strcmp(p, "r"))
				out->type = PERF_BP_R;
			else if (!strcmp(p, "w"))
				out->type = PERF_BP_W;
			else if (!strcmp(p, "rw"))
				out->type = PERF_BP_RW;
			else if (!strcmp(p, "x"))
				out->type = PERF_BP_X;
			else
				return -EINVAL;
		}
	}
	/* perf_event_open wants sizeof(long) for execute breakpoints */
	if (out->len < 0)
		out->len = out->type == PERF_BP_X ? (int)sizeof(long) : 4;
	return 0;
}

/* A process's maps, read whole: the entries point into buf. */
struct bp_maps {
	char *buf;
	struct proc_maps_entry *e;
	size_t n;
};

static int maps_read(const char *root, int pid, struct bp_maps *m)
{
	char path[4096];
	size_t have = 0, cap = 65536, pos = 0, ecap = 64;
	int fd;

	memset(m, 0, sizeof(*m));
	snprintf(path, sizeof(path), "%s/%d/maps", root ? root : "/proc", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? -ESRCH : -errno;
	m->buf = xmalloc(cap);
	for (;;) {
		ssize_t n = read(fd, m->buf + have, cap - have);

		if (n < 0) {
			int err = errno == ENOENT ? -ESRCH : -errno;

			close(fd);
			free(m->buf);
			return err;
		}
		if (n == 0)
			break;
		have += (size_t)n;
		if (have == cap) {
			cap *= 2;
			m->buf = xreallocarray(m->buf, cap, 1);
		}
	}
	close(fd);
	m->e = xreallocarray(NULL, ecap, sizeof(*m->e));
	while (pos < have) {
		size_t used;

		if (m->n == ecap) {
			ecap *= 2;
			m->e = xreallocarray(m->e, ecap, sizeof(*m->e));
		}
		if (proc_parse_maps_line(m->buf + pos, have - pos, &m->e[m->n], &used))
			break;
		pos += used;
		m->n++;
	}
	return 0;
}

static void maps_free(struct bp_maps *m)
{
	free(m->buf);
	free(m->e);
}

static const char *base_name(const struct ptop_view *v, size_t *n)
{
	const char *s = v->p + v->n;

	while (s > v->p && s[-1] != '/')
		s--;
	*n = (size_t)(v->p + v->n - s);
	return s;
}

static bool is_file(const struct proc_maps_entry *e)
{
	return e->path.n && e->path.p[0] == '/';
}

/* Does REGION name this mapping: its whole path, or its file's name
 * ("libc.so.6"), or that name's start up to a '.' ("libc", "libc.so")? */
static bool region_is(const struct proc_maps_entry *e, const char *region)
{
	size_t rn = strlen(region), bn;
	const char *b;

	if (e->path.n == rn && !memcmp(e->path.p, region, rn))
		return true;
	if (!is_file(e))
		return false;
	b = base_name(&e->path, &bn);
	return rn <= bn && !memcmp(b, region, rn) && (rn == bn || b[rn] == '.');
}

static bool same_path(const struct proc_maps_entry *a, const struct proc_maps_entry *b)
{
	return a->path.n == b->path.n && !memcmp(a->path.p, b->path.p, a->path.n);
}

/* The file behind a mapping, through the process's root where it is reachable. */
static void file_path(const char *root, int pid, const struct proc_maps_entry *e, char *out,
		      size_t cap)
{
	snprintf(out, cap, "%s/%d/root%.*s", root ? root : "/proc", pid, (int)e->path.n, e->path.p);
	if (access(out, R_OK))
		snprintf(out, cap, "%.*s", (int)e->path.n, e->path.p);
}

#define BP_MAX_LOADS 16

/* A mapped ELF file: its segments and where the process loaded them. */
struct bp_object {
	const struct proc_maps_entry *first;
	char path[4096];
	struct perf_elf_load load[BP_MAX_LOADS];
	size_t nload;
	uint64_t bias; /* runtime address minus the binary's address */
};

static int object_open(const char *root, int pid, const struct bp_maps *m, size_t i,
		       struct bp_object *o)
{
	int err;

	o->first = &m->e[i];
	file_path(root, pid, o->first, o->path, sizeof(o->path));
	err = perf_elf_loads(o->path, o->load, BP_MAX_LOADS, &o->nload);
	if (err)
		return err;
	/* file offset x is at start + x - offset in a mapping, and at vaddr +
	 * x - p_offset in its segment: any mapping inside a segment gives the bias */
	for (size_t k = i; k < m->n; k++) {
		const struct proc_maps_entry *e = &m->e[k];

		if (!same_path(e, o->first))
			continue;
		for (size_t j = 0; j < o->nload; j++) {
			const struct perf_elf_load *l = &o->load[j];

			if (e->offset >= l->offset && e->offset < l->offset + l->filesz) {
				o->bias = e->start - e->offset - l->vaddr + l->offset;
				return 0;
			}
		}
	}
	return -ENOEXEC;
}

static bool mapped(const struct bp_maps *m, uint64_t addr)
{
	for (size_t i = 0; i < m->n; i++)
		if (addr >= m->e[i].start && addr < m->e[i].end)
			return true;
	return false;
}

/* REGION+OFFSET in a mapped ELF file: an address of the binary, else a file offset. */
static int resolve_in_file(struct perf_bp_spec *bp, const struct bp_maps *m,
			   const struct bp_object *o)
{
	for (size_t j = 0; j < o->nload; j++) {
		const struct perf_elf_load *l = &o->load[j];

		if (bp->offset >= l->vaddr && bp->offset < l->vaddr + l->memsz) {
			bp->addr = o->bias + bp->offset;
			return mapped(m, bp->addr) ? 0 : -EFAULT;
		}
	}
	for (size_t j = 0; j < o->nload; j++) {
		const struct perf_elf_load *l = &o->load[j];

		if (bp->offset >= l->offset && bp->offset < l->offset + l->filesz) {
			bp->addr = o->bias + l->vaddr + (bp->offset - l->offset);
			return mapped(m, bp->addr) ? 0 : -EFAULT;
		}
	}
	return -EFAULT;
}

static void set_object(struct perf_bp_spec *bp, const struct proc_maps_entry *e)
{
	size_t n;
	const char *b = base_name(&e->path, &n);

	snprintf(bp->object, sizeof(bp->object), "%.*s", (int)n, b);
}

/* A non-ELF file: an offset into it, through all its mappings. */
static int resolve_file_offset(struct perf_bp_spec *bp, const struct bp_maps *m, size_t i)
{
	for (size_t k = i; k < m->n; k++) {
		const struct proc_maps_entry *f = &m->e[k];

		if (same_path(f, &m->e[i]) && bp->offset >= f->offset &&
		    bp->offset < f->offset + (f->end - f->start)) {
			bp->addr = f->start + bp->offset - f->offset;
			return 0;
		}
	}
	return -EFAULT;
}

static int resolve_region(struct perf_bp_spec *bp, const struct bp_maps *m, const char *root)
{
	for (size_t i = 0; i < m->n; i++) {
		const struct proc_maps_entry *e = &m->e[i];
		struct bp_object *o;
		int err;

		if (!region_is(e, bp->region))
			continue;
		set_object(bp, e);
		if (!is_file(e)) {
			if (bp->offset >= e->end - e->start)
				return -EFAULT;
			bp->addr = e->start + bp->offset;
			return 0;
		}
		o = xmalloc(sizeof(*o));
		err = object_open(root, bp->pid, m, i, o);
		if (!err)
			err = resolve_in_file(bp, m, o);
		free(o);
		return err == -ENOEXEC ? resolve_file_offset(bp, m, i) : err;
	}
	return -ENOENT;
}

#define BP_MAX_FOUND 8

/* A symbol search over the mapped files. */
struct bp_search {
	const struct perf_bp_spec *bp;
	const struct proc_maps_entry *obj; /* the file being read */
	uint64_t bias;
	size_t nfound;
	uint64_t addr[BP_MAX_FOUND], size[BP_MAX_FOUND];
	const struct proc_maps_entry *where[BP_MAX_FOUND];
	char cand[256]; /* "file:name" of the found, else of names containing the one asked */
	size_t nsimilar;
};

static void add_cand(struct bp_search *s, const struct proc_maps_entry *e, const char *name,
		     size_t len)
{
	size_t have = strlen(s->cand), bn;
	const char *b = base_name(&e->path, &bn);

	snprintf(s->cand + have, sizeof(s->cand) - have, "%s%.*s:%.*s", have ? " " : "", (int)bn, b,
		 (int)len, name);
}

/* Symbol tables write versioned names as "stdout@GLIBC_2.2.5" or "@@...". */
static size_t unversioned(const char *name)
{
	const char *at = strchr(name, '@');

	return at ? (size_t)(at - name) : strlen(name);
}

static int on_symbol(void *ctx, const struct perf_elf_sym *sym)
{
	struct bp_search *s = ctx;
	size_t n = unversioned(sym->name);
	uint64_t addr = s->bias + sym->value;
	bool want = sym->object || (sym->func && s->bp->type == PERF_BP_X);

	if (!want)
		return 0;
	if (n != strlen(s->bp->symbol) || memcmp(sym->name, s->bp->symbol, n)) {
		if (s->nfound == 0 && s->nsimilar < 6 && n < 64 &&
		    strstr(sym->name, s->bp->symbol)) {
			/* the same name is often in both .symtab and .dynsym */
			char one[160];
			size_t bn;
			const char *b = base_name(&s->obj->path, &bn);

			snprintf(one, sizeof(one), "%.*s:%.*s", (int)bn, b, (int)n, sym->name);
			if (!strstr(s->cand, one)) {
				add_cand(s, s->obj, sym->name, n);
				s->nsimilar++;
			}
		}
		return 0;
	}
	for (size_t i = 0; i < s->nfound; i++)
		if (s->addr[i] == addr)
			return 0;
	if (s->nfound == 0)
		s->cand[0] = '\0'; /* found: the similar names are no longer wanted */
	if (s->nfound < BP_MAX_FOUND) {
		s->addr[s->nfound] = addr;
		s->size[s->nfound] = sym->size;
		s->where[s->nfound] = s->obj;
		add_cand(s, s->obj, sym->name, n);
	}
	s->nfound++;
	return 0;
}

static int resolve_symbol(struct perf_bp_spec *bp, const struct bp_maps *m, const char *root)
{
	struct bp_search *s = xcalloc(1, sizeof(*s));
	struct bp_object *o = xmalloc(sizeof(*o));
	bool region_seen = false;
	int err = 0;

	s->bp = bp;
	for (size_t i = 0; i < m->n; i++) {
		const struct proc_maps_entry *e = &m->e[i];
		bool seen = false;

		if (!is_file(e) || (bp->region[0] && !region_is(e, bp->region)))
			continue;
		for (size_t k = 0; k < i && !seen; k++)
			seen = same_path(&m->e[k], e);
		if (seen)
			continue;
		region_seen = true;
		if (object_open(root, bp->pid, m, i, o))
			continue; /* not ELF, or unreadable: it holds no symbol to find */
		s->obj = e;
		s->bias = o->bias;
		perf_elf_symbols(o->path, on_symbol, s);
	}
	snprintf(bp->cand, sizeof(bp->cand), "%s", s->cand);
	if (bp->region[0] && !region_seen)
		err = -ENOENT;
	else if (s->nfound == 0)
		err = -ENODATA;
	else if (s->nfound > 1)
		err = -ENOTUNIQ;
	if (!err) {
		bp->addr = s->addr[0];
		bp->size = s->size[0];
		set_object(bp, s->where[0]);
		bp->cand[0] = '\0';
		err = mapped(m, bp->addr) ? 0 : -EFAULT;
	}
	free(o);
	free(s);
	return err;
}

/* The symbol's size as the length, where it fits the address's alignment. */
static void default_len(struct perf_bp_spec *bp)
{
	static const int lens[] = {8, 4, 2, 1};

	if (bp->len_set || bp->type == PERF_BP_X || !bp->size)
		return;
	for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		if ((uint64_t)lens[i] <= bp->size && bp->addr % (uint64_t)lens[i] == 0) {
			bp->len = lens[i];
			return;
		}
	}
}

int perf_bp_resolve(struct perf_bp_spec *bp, const char *root)
{
	struct bp_maps m;
	int err;

	if (!bp->region[0] && !bp->symbol[0])
		return 0;
	err = maps_read(root, bp->pid, &m);
	if (err)
		return err;
	err = bp->symbol[0] ? resolve_symbol(bp, &m, root) : resolve_region(bp, &m, root);
	maps_free(&m);
	if (!err)
		default_len(bp);
	return err;
}

static void read_comm(const char *root, int pid, char *out, size_t cap)
{
	char path[4096];
	ssize_t n;
	int fd;

	out[0] = '\0';
	snprintf(path, sizeof(path), "%s/%d/comm", root ? root : "/proc", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	n = read(fd, out, cap - 1);
	close(fd);
	if (n <= 0)
		n = 0;
	out[n] = '\0';
	out[strcspn(out, "\n")] = '\0';
}

/* The program a process runs, as the device and inode of its exe; 0 unknown. */
static void read_exe(const char *root, int pid, uint64_t *dev, uint64_t *ino)
{
	char path[4096];
	struct stat st;

	*dev = *ino = 0;
	snprintf(path, sizeof(path), "%s/%d/exe", root ? root : "/proc", pid);
	if (stat(path, &st) == 0) {
		*dev = (uint64_t)st.st_dev;
		*ino = (uint64_t)st.st_ino;
	}
}

/* Cleared when the kernel refuses remove_on_exec (before Linux 5.13). */
static bool remove_on_exec = true;

static int bp_open(const struct perf_bp_spec *s, int tid)
{
	struct perf_event_attr attr;
	long fd;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_BREAKPOINT;
	attr.bp_type = (unsigned)s->type;
	attr.bp_addr = s->addr;
	attr.bp_len = (uint64_t)s->len;
	attr.inherit = 1;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	/* after an execve the address is another program's: stop counting there */
	attr.remove_on_exec = remove_on_exec;
	fd = syscall(SYS_perf_event_open, &attr, tid, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0 && errno == EINVAL && remove_on_exec) {
		remove_on_exec = false;
		return bp_open(s, tid);
	}
	return fd < 0 ? -errno : (int)fd;
}

struct bp_arming {
	struct perf_bp *bp;
	size_t cap;
};

/* One breakpoint event on thread tid; 0 or the -errno that ends the arming. */
static int arm_thread(void *ctx, int tid)
{
	struct bp_arming *a = ctx;
	struct perf_bp *bp = a->bp;
	int fd = bp_open(&bp->spec, tid);

	if (fd == -ESRCH)
		return 0; /* that thread ended meanwhile */
	if (fd < 0)
		return fd;
	if ((size_t)bp->nfds == a->cap) {
		a->cap *= 2;
		bp->fds = xreallocarray(bp->fds, a->cap, sizeof(int));
	}
	bp->fds[bp->nfds++] = fd;
	return 0;
}

int perf_bp_arm(struct perf_bp *bp, const struct perf_bp_spec *spec, const char *root)
{
	struct bp_arming a = {.bp = bp, .cap = 8};
	int err;

	memset(bp, 0, sizeof(*bp));
	bp->pidfd = -1;
	bp->spec = *spec;
	err = perf_bp_resolve(&bp->spec, root);
	if (err)
		return err;
	bp->fds = xreallocarray(NULL, a.cap, sizeof(int));
	err = proc_tasks(root, spec->pid, arm_thread, &a);
	if (!err && bp->nfds == 0)
		err = -ESRCH;
	if (err) {
		perf_bp_disarm(bp);
		return err;
	}
	/* Without a pidfd (an old kernel, a proc root of fixtures) exits go unseen. */
	bp->pidfd = (int)syscall(SYS_pidfd_open, spec->pid, 0);
	bp->root = root;
	read_comm(root, spec->pid, bp->comm, sizeof(bp->comm));
	read_exe(root, spec->pid, &bp->exe_dev, &bp->exe_ino);
	return 0;
}

static bool has_exited(int pidfd)
{
	struct pollfd p = {.fd = pidfd, .events = POLLIN};

	return pidfd >= 0 && poll(&p, 1, 0) == 1;
}

int perf_bp_read(struct perf_bp *bp, double interval)
{
	uint64_t total = 0, dev, ino;
	char comm[sizeof(bp->comm)];
	int live = 0;

	if (bp->exited) {
		bp->prev_hits = bp->hits;
		bp->hits_per_s = 0;
		return 0;
	}
	/* Read by PID before the pidfd is asked: if the process is still there
	 * after, they were its own, not those of a process that took its PID. */
	read_comm(bp->root, bp->spec.pid, comm, sizeof(comm));
	read_exe(bp->root, bp->spec.pid, &dev, &ino);
	/* seen before the counts are read, so that the last read takes every hit */
	bp->exited = has_exited(bp->pidfd);
	if (!bp->exited && bp->pidfd >= 0) {
		if (comm[0])
			memcpy(bp->comm, comm, sizeof(comm));
		bp->execd = bp->exe_ino && ino && (dev != bp->exe_dev || ino != bp->exe_ino);
		bp->exited = bp->execd;
	}
	for (int i = 0; i < bp->nfds; i++) {
		uint64_t v;

		/* An ended thread's count stays readable; only an error is skipped. */
		if (read(bp->fds[i], &v, sizeof(v)) == (ssize_t)sizeof(v)) {
			total += v;
			live++;
		}
	}
	if (!live && bp->nfds) {
		bp->exited = true;
		return -ESRCH;
	}
	bp->prev_hits = bp->hits;
	bp->hits = total;
	bp->hits_per_s = interval > 0 ? (double)(bp->hits - bp->prev_hits) / interval : 0;
	return 0;
}

void perf_bp_disarm(struct perf_bp *bp)
{
	for (int i = 0; i < bp->nfds; i++)
		close(bp->fds[i]);
	free(bp->fds);
	bp->fds = NULL;
	bp->nfds = 0;
	if (bp->pidfd >= 0)
		close(bp->pidfd);
	bp->pidfd = -1;
}

const char *perf_bp_strerror(int err)
{
	switch (err) {
	case -ENOSPC:
		return N_("no free debug register (x86 has four per task)");
	case -EINVAL:
		return N_("bad address alignment, length or type");
	case -ESRCH:
		return N_("no such process");
	case -EACCES:
	case -EPERM:
		return N_("not permitted (perf_event_paranoid, or another user's process)");
	case -ENOENT:
		return N_("no such region or library in the process's maps");
	case -EFAULT:
		return N_("that address is not mapped in the process");
	case -ENODATA:
		return N_("no such variable in the process's executable or libraries");
	case -ENOTUNIQ:
		return N_("more than one variable has that name: write it as LIB:NAME");
	case -ENOEXEC:
		return N_("the file is not an ELF binary");
	case -EEXIST:
		return N_("already watched with that address, length and type");
	case -ENODEV:
	case -EOPNOTSUPP:
		return N_("hardware breakpoints are not supported here");
	case -EMFILE:
		return N_("out of file descriptors");
	}
	return N_("cannot arm the breakpoint");
}

int perf_bp_selftest(void)
{
	static volatile uint64_t probe;
	struct perf_bp_spec spec = {
	    .addr = (uintptr_t)&probe, .len = sizeof(probe), .type = PERF_BP_W};
	uint64_t hits = 0;
	int fd = bp_open(&spec, 0);

	if (fd < 0)
		return fd;
	for (int i = 0; i < 10; i++)
		probe++;
	if (read(fd, &hits, sizeof(hits)) != (ssize_t)sizeof(hits))
		hits = 0;
	close(fd);
	/* Some hypervisors accept the event but never raise the debug exception. */
	return hits == 10 ? 0 : -EOPNOTSUPP;
}

/* This thread's CPU time (s): a trap's cost is charged to it, and time it waits for a CPU is not. */
static double thread_cpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* n writes to *v: the CPU time they took, not the wall time, which a loaded machine stretches. */
static double time_writes(volatile uint64_t *v, int n)
{
	double t0 = thread_cpu();

	for (int i = 0; i < n; i++)
		(*v)++;
	return thread_cpu() - t0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

#define BP_COST_ROUNDS 7
#define BP_COST_WRITES 2000

int perf_bp_hit_cost(double *ns)
{
	static volatile uint64_t probe;
	struct perf_bp_spec spec = {
	    .addr = (uintptr_t)&probe, .len = sizeof(probe), .type = PERF_BP_W};
	double with[BP_COST_ROUNDS], without[BP_COST_ROUNDS];
	uint64_t hits = 0;
	int fd = bp_open(&spec, 0);

	if (fd < 0)
		return fd;
	/* rounds alternate, so that a burst of load falls on both sides */
	for (int r = 0; r < BP_COST_ROUNDS; r++) {
		ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
		with[r] = time_writes(&probe, BP_COST_WRITES);
		ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
		without[r] = time_writes(&probe, BP_COST_WRITES);
	}
	if (read(fd, &hits, sizeof(hits)) != (ssize_t)sizeof(hits))
		hits = 0;
	close(fd);
	if (hits != (uint64_t)BP_COST_ROUNDS * BP_COST_WRITES)
		return -EOPNOTSUPP;
	qsort(with, BP_COST_ROUNDS, sizeof(double), cmp_double);
	qsort(without, BP_COST_ROUNDS, sizeof(double), cmp_double);
	*ns = (with[BP_COST_ROUNDS / 2] - without[BP_COST_ROUNDS / 2]) * 1e9 / BP_COST_WRITES;
	if (*ns < 0)
		*ns = 0;
	return 0;
}
