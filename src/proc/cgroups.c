// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cgroups.c: cgroup paths and the container or unit each names, kept once
 * per distinct path. Most processes share a few dozen cgroups, so a frame's
 * rows point at these strings (as they do at users.c's names) instead of
 * copying them per row, and sorting, filtering and the machine formats read
 * them like any name. Derived with proc_cgroup_unit() on first sight only,
 * and the condensed form (CCGROUP) on first asking.
 */
#include <stdlib.h>
#include <string.h>

#include "ptop/frame.h"
#include "ptop/util.h"

struct cgroup_entry {
	char *path;
	char *unit;	  /* "" when the path names no container or unit */
	char *compressed; /* proc_cgroup_compress()'s, NULL until asked for */
	uint64_t hash;
	struct cgroup_entry *next;
};

#define CGROUP_BUCKETS 256

struct cgroup_names {
	struct cgroup_entry *bucket[CGROUP_BUCKETS];
	size_t n;
};

struct cgroup_names *cgroup_names_new(void)
{
	return xcalloc(1, sizeof(struct cgroup_names));
}

void cgroup_names_clear(struct cgroup_names *c)
{
	for (int i = 0; i < CGROUP_BUCKETS; i++) {
		struct cgroup_entry *e = c->bucket[i], *next;

		for (; e; e = next) {
			next = e->next;
			free(e->path);
			free(e->unit);
			free(e->compressed);
			free(e);
		}
		c->bucket[i] = NULL;
	}
	c->n = 0;
}

size_t cgroup_names_count(const struct cgroup_names *c)
{
	return c->n;
}

void cgroup_names_free(struct cgroup_names *c)
{
	if (!c)
		return;
	cgroup_names_clear(c);
	free(c);
}

static uint64_t hash(const char *s, size_t n)
{
	uint64_t h = 14695981039346656037ull; /* FNV-1a */

	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
	return h;
}

const char *cgroup_names_get(struct cgroup_names *c, const char *path, size_t n, const char **unit)
{
	uint64_t h = hash(path, n);
	struct cgroup_entry **head = &c->bucket[h % CGROUP_BUCKETS], *e;
	char name[256];
	size_t un;

	for (e = *head; e; e = e->next) {
		if (e->hash == h && !strncmp(e->path, path, n) && e->path[n] == '\0') {
			*unit = e->unit;
			return e->path;
		}
	}
	e = xmalloc(sizeof(*e));
	e->path = xmalloc(n + 1);
	memcpy(e->path, path, n);
	e->path[n] = '\0';
	un = proc_cgroup_unit(path, n, name, sizeof(name));
	e->unit = xmalloc(un + 1);
	memcpy(e->unit, name, un + 1);
	e->compressed = NULL;
	e->hash = h;
	e->next = *head;
	*head = e;
	c->n++;
	*unit = e->unit;
	return e->path;
}

const char *cgroup_names_compressed(struct cgroup_names *c, const char *path)
{
	struct cgroup_entry *e;
	struct sbuf b = {0};
	size_t n;
	uint64_t h;

	if (!path)
		return NULL;
	n = strlen(path);
	h = hash(path, n);
	for (e = c->bucket[h % CGROUP_BUCKETS]; e; e = e->next)
		if (e->hash == h && !strcmp(e->path, path))
			break;
	if (!e)
		return NULL;
	if (!e->compressed) {
		proc_cgroup_compress(path, n, &b);
		sbuf_addc(&b, '\0');
		e->compressed = b.p;
	}
	return e->compressed;
}
