// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * classify.c: processes into a process-exporter configuration's groups (see
 * classify.h). What each process got is kept in an array sorted by PID and
 * start time, made again at every frame from the last one, so a process is
 * matched once in its life and its command line read once. Reads
 * /proc/PID/cmdline (and cwd when a name uses it) of new processes only.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ptop/proc.h"
#include "classify.h"

#define NAME_MAX_BYTES 64
/* How far up the parents -children looks for a group. */
#define ANCESTORS_MAX 64

enum how { HOW_NEW, HOW_NONE, HOW_MATCHED, HOW_CHILD };

struct centry {
	int pid, ppid;
	uint64_t start;
	uint8_t how, len;
	bool exited;
	const struct frame_proc *row; /* this frame's */
	char name[NAME_MAX_BYTES];
};

struct classifier {
	struct pecfg *cfg;
	unsigned needs;
	struct centry *prev, *cur;
	size_t nprev, ncur, cap;
	struct sbuf raw, name;
	const char **argv;
	size_t argv_cap;
};

struct classifier *classifier_new(struct pecfg *cfg)
{
	struct classifier *c = xcalloc(1, sizeof(*c));

	c->cfg = cfg;
	c->needs = pecfg_needs(cfg);
	return c;
}

void classifier_free(struct classifier *c)
{
	if (!c)
		return;
	pecfg_free(c->cfg);
	free(c->prev);
	free(c->cur);
	free(c->argv);
	sbuf_free(&c->raw);
	sbuf_free(&c->name);
	free(c);
}

unsigned classifier_needs(const struct classifier *c)
{
	return c->needs & PECFG_NEEDS_CGROUPS ? PROC_NEED(PROC_FILE_CGROUP) : 0;
}

static int by_pid_start(const void *a, const void *b)
{
	const struct centry *x = a, *y = b;

	if (x->pid != y->pid)
		return (x->pid > y->pid) - (x->pid < y->pid);
	return (x->start > y->start) - (x->start < y->start);
}

/* The entry of (pid, start) in e[0..n), or of pid with any start when any; NULL when none. */
static const struct centry *find(const struct centry *e, size_t n, int pid, uint64_t start,
				 bool any)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (e[mid].pid < pid || (e[mid].pid == pid && !any && e[mid].start < start))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < n && e[lo].pid == pid && (any || e[lo].start == start))
		return &e[lo];
	return NULL;
}

static void add(struct classifier *c, const struct frame_proc *p, bool exited)
{
	struct centry *e;

	/* a thread's row is in its process's group */
	if (frame_proc_is_thread(p))
		return;
	e = &c->cur[c->ncur++];
	*e = (struct centry){
	    .pid = p->pid, .ppid = p->ppid, .start = p->start_ticks, .exited = exited, .row = p};
}

/* The words of p's command line into c->argv (0 for a kernel thread, or when unread). */
static size_t read_argv(struct classifier *c, const char *root, bool live, int pid)
{
	size_t n = 0, len;

	sbuf_reset(&c->raw);
	if (!live || proc_read_all(root, pid, 0, "cmdline", &c->raw))
		return 0;
	len = c->raw.len;
	/* as Go's procfs: the trailing NULs dropped, then split at each NUL */
	while (len && c->raw.p[len - 1] == '\0')
		len--;
	if (!len)
		return 0;
	c->raw.len = len;
	sbuf_cstr(&c->raw);
	for (size_t i = 0; i <= len; i++) {
		if (i < len && c->raw.p[i])
			continue;
		if (n + 1 >= c->argv_cap) {
			c->argv_cap = c->argv_cap ? 2 * c->argv_cap : 16;
			c->argv = xreallocarray(c->argv, c->argv_cap, sizeof(*c->argv));
		}
		n++;
	}
	for (size_t i = 0, k = 0; k < n; k++) {
		c->argv[k] = c->raw.p + i;
		i += strlen(c->raw.p + i) + 1;
	}
	return n;
}

static void match(struct classifier *c, struct centry *e, const char *root, bool live,
		  const struct frame *f)
{
	const struct frame_proc *p = e->row;
	char comm[PROC_COMM_MAX + 1], uid[16], cwd[4096] = "";
	const char *cg = p->cgroup;
	struct pecfg_proc pp = {.comm = comm,
				.user = p->user,
				.pid = p->pid,
				.cgroups = &cg,
				.ncgroups = cg ? 1 : 0,
				.cwd = NULL};
	memcpy(comm, p->comm, p->comm_len);
	comm[p->comm_len] = '\0';
	if (!pp.user) {
		snprintf(uid, sizeof(uid), "%u", (unsigned)p->uid);
		pp.user = uid;
	}
	pp.start_time = frame_proc_start_time(f, p);
	if (!e->exited && (c->needs & PECFG_NEEDS_ARGV))
		pp.argc = read_argv(c, root, live, p->pid);
	pp.argv = c->argv;
	if (!e->exited && live && (c->needs & PECFG_NEEDS_CWD)) {
		char path[64];
		ssize_t k;

		snprintf(path, sizeof(path), "%s/%d/cwd", root ? root : "/proc", p->pid);
		k = readlink(path, cwd, sizeof(cwd) - 1);
		if (k >= 0) {
			cwd[k] = '\0';
			pp.cwd = cwd;
		}
	}
	sbuf_reset(&c->name);
	if (!pecfg_name(c->cfg, &pp, &c->name)) {
		e->how = HOW_NONE;
		return;
	}
	e->how = HOW_MATCHED;
	e->len = (uint8_t)(c->name.len < NAME_MAX_BYTES ? c->name.len : NAME_MAX_BYTES);
	memcpy(e->name, c->name.p, e->len);
}

/* -children: an entry no rule matched takes the group of its nearest ancestor with one. */
static void inherit(struct classifier *c, struct centry *e)
{
	int pid = e->ppid;

	for (int depth = 0; depth < ANCESTORS_MAX && pid > 0; depth++) {
		const struct centry *a = find(c->cur, c->ncur, pid, 0, true);

		if (!a)
			return;
		if (a->how == HOW_MATCHED || a->how == HOW_CHILD) {
			e->how = HOW_CHILD;
			e->len = a->len;
			memcpy(e->name, a->name, a->len);
			return;
		}
		pid = a->ppid;
	}
}

void classifier_frame(struct classifier *c, const char *root, bool live, const struct frame *f,
		      const struct frame_proc *const *rows, size_t n,
		      const struct frame_proc *const *exited, size_t nexited)
{
	struct centry *t;
	bool fresh = false;

	if (c->cap < n + nexited) {
		c->cap = n + nexited + (n + nexited) / 4 + 16;
		c->cur = xreallocarray(c->cur, c->cap, sizeof(*c->cur));
		c->prev = xreallocarray(c->prev, c->cap, sizeof(*c->prev));
	}
	c->ncur = 0;
	for (size_t i = 0; i < n; i++)
		add(c, rows[i], false);
	for (size_t i = 0; i < nexited; i++)
		add(c, exited[i], true);
	if (c->ncur > 1) /* qsort takes no NULL, even for none */
		qsort(c->cur, c->ncur, sizeof(*c->cur), by_pid_start);
	for (size_t i = 0; i < c->ncur; i++) {
		struct centry *e = &c->cur[i];
		const struct centry *was = find(c->prev, c->nprev, e->pid, e->start, false);

		if (was) {
			e->how = was->how;
			e->len = was->len;
			memcpy(e->name, was->name, was->len);
		} else {
			match(c, e, root, live, f);
			fresh |= e->how == HOW_NONE;
			if (e->how == HOW_NONE)
				e->how = HOW_NEW; /* marks it for inherit() below */
		}
	}
	/* after every new process was matched, so that a parent listed later counts */
	for (size_t i = 0; fresh && i < c->ncur; i++) {
		if (c->cur[i].how != HOW_NEW)
			continue;
		c->cur[i].how = HOW_NONE;
		inherit(c, &c->cur[i]);
	}
	t = c->prev;
	c->prev = c->cur;
	c->cur = t;
	c->nprev = c->ncur;
}

const char *classifier_group(const struct classifier *c, const struct frame_proc *p, size_t *len)
{
	const struct centry *e;

	if (frame_proc_is_thread(p))
		e = find(c->prev, c->nprev, p->tgid, 0, true);
	else
		e = find(c->prev, c->nprev, p->pid, p->start_ticks, false);
	*len = 0;
	if (!e || (e->how != HOW_MATCHED && e->how != HOW_CHILD))
		return NULL;
	*len = e->len;
	return e->name;
}
