// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cgpsi.c: the pressure of each row's cgroup, for the cgroup pressure
 * columns: cpu.pressure, memory.pressure and io.pressure of the cgroup under
 * the unified hierarchy (/sys/fs/cgroup, or its "unified" directory on a
 * hybrid machine), parsed by proc_parse_pressure(). Many processes share a
 * cgroup, so each cgroup's files are read once a frame, kept by the row's
 * cgroup string, which the sampler's names hold once per path (one pointer
 * a path). The root cgroup's pressure is the machine's: its files where the
 * kernel gives the root some, else /proc/pressure.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ptop/frame.h"
#include "ptop/util.h"

struct cgpsi_entry {
	const char *path; /* a row's cgroup string, or cgpsi_root; NULL: a free entry */
	int error[PROC_CGROUP_PSI];
	struct proc_pressure res[PROC_CGROUP_PSI];
};

struct cgpsi {
	const char *proc_root;	 /* NULL: /proc */
	const char *cgroup_root; /* NULL: /sys/fs/cgroup */
	bool foreign;		 /* a proc root without a cgroup root: not this machine's cgroups */
	char mount[4096];	 /* the unified hierarchy, as found for this frame */
	int mount_err;
	struct cgpsi_entry *tab; /* open addressing by the path's pointer, cleared every frame */
	size_t cap, n;
};

/* The key of a hybrid machine's processes at the unified root, whose row shows systemd's path. */
static const char cgpsi_root[] = "/";

struct cgpsi *cgpsi_new(const char *proc_root, const char *cgroup_root)
{
	struct cgpsi *c = xcalloc(1, sizeof(*c));

	c->proc_root = proc_root;
	c->cgroup_root = cgroup_root;
	c->foreign = !cgroup_root && proc_root && strcmp(proc_root, "/proc");
	return c;
}

void cgpsi_free(struct cgpsi *c)
{
	if (!c)
		return;
	free(c->tab);
	free(c);
}

void cgpsi_begin(struct cgpsi *c)
{
	bool hybrid;

	if (c->tab)
		memset(c->tab, 0, c->cap * sizeof(*c->tab));
	c->n = 0;
	c->mount_err = c->foreign
			   ? -ENODEV
			   : proc_cgroup_mount(c->cgroup_root, c->mount, sizeof(c->mount), &hybrid);
}

static size_t slot_of(const struct cgpsi *c, const char *path)
{
	size_t i = (size_t)(((uintptr_t)path >> 4) * 11400714819323198485ull) & (c->cap - 1);

	while (c->tab[i].path && c->tab[i].path != path)
		i = (i + 1) & (c->cap - 1);
	return i;
}

/* Room for one more entry, at most half full. */
static void grow(struct cgpsi *c)
{
	struct cgpsi_entry *old = c->tab;
	size_t ocap = c->cap;

	if (c->tab && 2 * (c->n + 1) <= c->cap)
		return;
	c->cap = c->cap ? 2 * c->cap : 64;
	c->tab = xcalloc(c->cap, sizeof(*c->tab));
	for (size_t i = 0; i < ocap; i++)
		if (old[i].path)
			c->tab[slot_of(c, old[i].path)] = old[i];
	free(old);
}

/* The machine's pressure for a resource the root cgroup has no file of (an older kernel). */
static void machine_pressure(const struct cgpsi *c, int r, struct cgpsi_entry *e)
{
	static const char *const names[PROC_CGROUP_PSI] = {"cpu", "memory", "io"};
	char path[4096], buf[512];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/pressure/%s", c->proc_root ? c->proc_root : "/proc",
		 names[r]);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		e->error[r] = -errno;
		return;
	}
	n = read(fd, buf, sizeof(buf));
	e->error[r] = n < 0 ? -errno : (size_t)n == sizeof(buf) ? -EFBIG : 0;
	close(fd);
	if (!e->error[r])
		e->error[r] = proc_parse_pressure(buf, (size_t)n, &e->res[r]);
}

/* The entry of path, its files read at its first row this frame. */
static const struct cgpsi_entry *lookup(struct cgpsi *c, const char *path)
{
	char dir[4096 + 1024];
	struct cgpsi_entry *e;
	bool root = !strcmp(path, "/");

	grow(c);
	e = &c->tab[slot_of(c, path)];
	if (e->path)
		return e;
	e->path = path;
	c->n++;
	if ((size_t)snprintf(dir, sizeof(dir), "%s%s", c->mount, root ? "" : path) >= sizeof(dir)) {
		for (int r = 0; r < PROC_CGROUP_PSI; r++)
			e->error[r] = -ENAMETOOLONG;
		return e;
	}
	proc_cgroup_dir_pressure(dir, e->error, e->res);
	for (int r = 0; root && r < PROC_CGROUP_PSI; r++)
		if (e->error[r] == -ENOENT)
			machine_pressure(c, r, e);
	return e;
}

static double pct(uint32_t x100)
{
	return (double)x100 / 100.0;
}

void cgpsi_row(struct cgpsi *c, struct frame_proc *p)
{
	const struct cgpsi_entry *e;
	struct frame_proc_side *ps = p->side;
	const char *key = p->cgroup;

	/* asked for, the frame has sides: a row without one is not the frame's (an exit's) */
	if (!ps)
		return;
	ps->has_cgpsi_cpu = ps->has_cgpsi_mem = ps->has_cgpsi_io = false;
	if (!key || c->mount_err || p->exited || p->cgroup_v1 == FRAME_CGROUP_NO_UNIFIED)
		return;
	if (p->cgroup_v1 == FRAME_CGROUP_UNIFIED_ROOT)
		key = cgpsi_root;
	e = lookup(c, key);
	if (!e->error[PSI_CPU]) {
		ps->has_cgpsi_cpu = true;
		ps->cgpsi_cpu_some10 = pct(e->res[PSI_CPU].some.avg_x100[0]);
		ps->cgpsi_cpu_some60 = pct(e->res[PSI_CPU].some.avg_x100[1]);
	}
	if (!e->error[PSI_MEMORY] && e->res[PSI_MEMORY].has_full) {
		ps->has_cgpsi_mem = true;
		ps->cgpsi_mem_some10 = pct(e->res[PSI_MEMORY].some.avg_x100[0]);
		ps->cgpsi_mem_some60 = pct(e->res[PSI_MEMORY].some.avg_x100[1]);
		ps->cgpsi_mem_full10 = pct(e->res[PSI_MEMORY].full.avg_x100[0]);
		ps->cgpsi_mem_full60 = pct(e->res[PSI_MEMORY].full.avg_x100[1]);
	}
	if (!e->error[PSI_IO] && e->res[PSI_IO].has_full) {
		ps->has_cgpsi_io = true;
		ps->cgpsi_io_some10 = pct(e->res[PSI_IO].some.avg_x100[0]);
		ps->cgpsi_io_some60 = pct(e->res[PSI_IO].some.avg_x100[1]);
		ps->cgpsi_io_full10 = pct(e->res[PSI_IO].full.avg_x100[0]);
		ps->cgpsi_io_full60 = pct(e->res[PSI_IO].full.avg_x100[1]);
	}
}
