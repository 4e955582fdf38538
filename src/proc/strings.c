// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * strings.c: the row members that are strings read on request (wchan, the
 * paths of exe and cwd, the supplementary groups), kept once per distinct
 * value, as cgroups.c keeps
 * cgroup paths: most processes share a few dozen of each, so a frame's rows
 * point at these copies and a steady frame allocates nothing. No I/O.
 */
#include <stdlib.h>
#include <string.h>

#include "ptop/frame.h"
#include "ptop/util.h"

struct row_string {
	uint64_t hash;
	struct row_string *next;
	const char *aux; /* the caller's, kept with it (row_strings_get_aux) */
	char s[];	 /* NUL-terminated */
};

#define ROW_STRINGS_BUCKETS 512

struct row_strings {
	struct row_string *bucket[ROW_STRINGS_BUCKETS];
	size_t n;
};

struct row_strings *row_strings_new(void)
{
	return xcalloc(1, sizeof(struct row_strings));
}

void row_strings_clear(struct row_strings *t)
{
	for (int i = 0; i < ROW_STRINGS_BUCKETS; i++) {
		struct row_string *e = t->bucket[i], *next;

		for (; e; e = next) {
			next = e->next;
			free(e);
		}
		t->bucket[i] = NULL;
	}
	t->n = 0;
}

size_t row_strings_count(const struct row_strings *t)
{
	return t->n;
}

void row_strings_free(struct row_strings *t)
{
	if (!t)
		return;
	row_strings_clear(t);
	free(t);
}

static uint64_t hash(const char *s, size_t n)
{
	uint64_t h = 14695981039346656037ull; /* FNV-1a */

	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
	return h;
}

static struct row_string *entry(struct row_strings *t, const char *s, size_t n)
{
	uint64_t h = hash(s, n);
	struct row_string **head = &t->bucket[h % ROW_STRINGS_BUCKETS], *e;

	for (e = *head; e; e = e->next)
		if (e->hash == h && !strncmp(e->s, s, n) && e->s[n] == '\0')
			return e;
	e = xmalloc(sizeof(*e) + n + 1);
	memcpy(e->s, s, n);
	e->s[n] = '\0';
	e->hash = h;
	e->aux = NULL;
	e->next = *head;
	*head = e;
	t->n++;
	return e;
}

const char *row_strings_get(struct row_strings *t, const char *s, size_t n)
{
	return entry(t, s, n)->s;
}

const char *row_strings_get_aux(struct row_strings *t, const char *s, size_t n, const char ***aux)
{
	struct row_string *e = entry(t, s, n);

	*aux = &e->aux;
	return e->s;
}
