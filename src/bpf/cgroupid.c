// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cgroupid.c: cgroup v2 paths from cgroup ids. The task iterator gives each
 * task's cgroup as the id of its kernfs node, which is the inode number of
 * the cgroup's directory in the cgroup2 file system; walking that directory
 * tree gives every id its path, as /proc/PID/cgroup writes it ("/" for the
 * root). The tree is walked again when an id is not known (a new cgroup), at
 * most once per frame; an id still unknown after a walk is remembered as
 * such. Touches the directories under the root it is given, nothing else.
 */
#include <errno.h>
#include <fts.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cgroupid.h"
#include "ptop/util.h"

struct cgroup_id {
	uint64_t id;
	char *path; /* NULL: not found in the last walk */
};

struct cgroup_ids {
	char *root;
	struct cgroup_id *v; /* ascending id */
	size_t n, cap;
	unsigned walk_frame; /* the frame of the last walk */
	unsigned frame;
};

static int id_cmp(const void *a, const void *b)
{
	uint64_t x = ((const struct cgroup_id *)a)->id, y = ((const struct cgroup_id *)b)->id;

	return (x > y) - (x < y);
}

static void add(struct cgroup_ids *c, uint64_t id, char *path)
{
	if (c->n == c->cap) {
		c->cap = c->cap ? c->cap * 2 : 256;
		c->v = xreallocarray(c->v, c->cap, sizeof(*c->v));
	}
	c->v[c->n++] = (struct cgroup_id){.id = id, .path = path};
}

static void clear(struct cgroup_ids *c)
{
	for (size_t i = 0; i < c->n; i++)
		free(c->v[i].path);
	c->n = 0;
}

/* Every directory under the root, by inode; 0 or -errno when the root cannot be walked. */
static int walk(struct cgroup_ids *c)
{
	char *const roots[] = {c->root, NULL};
	size_t rootlen = strlen(c->root);
	FTSENT *e;
	FTS *fts = fts_open(roots, FTS_PHYSICAL | FTS_NOCHDIR | FTS_XDEV, NULL);

	if (!fts)
		return -errno;
	clear(c);
	while ((e = fts_read(fts))) {
		const char *rel;

		if (e->fts_info != FTS_D)
			continue;
		rel = e->fts_path + rootlen;
		add(c, (uint64_t)e->fts_statp->st_ino, xstrdup(*rel ? rel : "/"));
	}
	fts_close(fts);
	if (c->n)
		qsort(c->v, c->n, sizeof(*c->v), id_cmp);
	return 0;
}

struct cgroup_ids *cgroup_ids_new(const char *root)
{
	struct cgroup_ids *c = xcalloc(1, sizeof(*c));
	size_t n = strlen(root);

	/* "/sys/fs/cgroup/" and "/sys/fs/cgroup" give the same paths */
	while (n > 1 && root[n - 1] == '/')
		n--;
	c->root = xstrdup(root);
	c->root[n] = '\0';
	c->walk_frame = (unsigned)-1;
	return c;
}

void cgroup_ids_free(struct cgroup_ids *c)
{
	if (!c)
		return;
	clear(c);
	free(c->v);
	free(c->root);
	free(c);
}

void cgroup_ids_frame(struct cgroup_ids *c)
{
	c->frame++;
}

const char *cgroup_ids_path(struct cgroup_ids *c, uint64_t id)
{
	struct cgroup_id key = {.id = id}, *hit;

	hit = c->n ? bsearch(&key, c->v, c->n, sizeof(key), id_cmp) : NULL;
	if (hit)
		return hit->path;
	if (c->walk_frame == c->frame)
		return NULL;
	c->walk_frame = c->frame;
	if (walk(c))
		return NULL;
	hit = c->n ? bsearch(&key, c->v, c->n, sizeof(key), id_cmp) : NULL;
	if (hit)
		return hit->path;
	/* not under this root (another cgroup namespace's): not looked for again */
	add(c, id, NULL);
	qsort(c->v, c->n, sizeof(*c->v), id_cmp);
	return NULL;
}

/*
 * Whether the unified hierarchy alone is mounted, as /proc/self/cgroup's
 * single "0::" line says, and where (mountinfo's cgroup2 mount).
 */
int cgroup_ids_v2_root(const char *proc, char *buf, size_t len)
{
	char path[256], line[4096];
	bool only_v2 = false, other = false;
	FILE *fp;

	snprintf(path, sizeof(path), "%s/self/cgroup", proc);
	fp = fopen(path, "re");
	if (!fp)
		return -errno;
	while (fgets(line, sizeof(line), fp)) {
		if (!strncmp(line, "0::", 3))
			only_v2 = true;
		else
			other = true;
	}
	fclose(fp);
	if (!only_v2 || other)
		return -ENOENT;
	snprintf(path, sizeof(path), "%s/self/mountinfo", proc);
	fp = fopen(path, "re");
	if (!fp)
		return -errno;
	while (fgets(line, sizeof(line), fp)) {
		char mnt[4096], *dash = strstr(line, " - ");

		/* ID PARENT MAJ:MIN ROOT MOUNTPOINT ... - FSTYPE SOURCE OPTIONS */
		if (!dash || strncmp(dash, " - cgroup2 ", 11) ||
		    sscanf(line, "%*s %*s %*s %*s %4095s", mnt) != 1 || strchr(mnt, '\\'))
			continue;
		fclose(fp);
		if (strlen(mnt) >= len)
			return -ENAMETOOLONG;
		strcpy(buf, mnt);
		return 0;
	}
	fclose(fp);
	return -ENOENT;
}
