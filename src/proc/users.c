// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * users.c: uid -> user name, looked up once through getpwuid_r (which may
 * reach NSS, slow and allocating) and then served from a small hash; and
 * gid -> group name the same way, through getgrgid_r.
 */
#include <errno.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptop/frame.h"
#include "ptop/util.h"

struct user_entry {
	uid_t uid;
	char *name;
	struct user_entry *next;
};

#define USERS_BUCKETS 64

struct users {
	struct user_entry *bucket[USERS_BUCKETS];
	bool groups; /* gids to group names */
};

struct users *users_new(void)
{
	return xcalloc(1, sizeof(struct users));
}

struct users *groups_new(void)
{
	struct users *g = users_new();

	g->groups = true;
	return g;
}

const char *groups_name(struct users *g, gid_t gid)
{
	return users_name(g, (uid_t)gid);
}

/* The name of id (a uid, or a gid in a groups table), or NULL when it has none. */
static char *name_of(const struct users *u, unsigned id)
{
	/* a group's members come with it: room for a large one */
	char buf[16384];

	if (u->groups) {
		struct group gr, *res = NULL;

		if (getgrgid_r((gid_t)id, &gr, buf, sizeof(buf), &res) == 0 && res)
			return xstrdup(res->gr_name);
	} else {
		struct passwd pw, *res = NULL;

		if (getpwuid_r((uid_t)id, &pw, buf, sizeof(buf), &res) == 0 && res)
			return xstrdup(res->pw_name);
	}
	return NULL;
}

void users_free(struct users *u)
{
	if (!u)
		return;
	for (int i = 0; i < USERS_BUCKETS; i++) {
		struct user_entry *e = u->bucket[i], *next;

		for (; e; e = next) {
			next = e->next;
			free(e->name);
			free(e);
		}
	}
	free(u);
}

const char *users_name(struct users *u, uid_t uid)
{
	struct user_entry **head = &u->bucket[uid % USERS_BUCKETS], *e;

	for (e = *head; e; e = e->next)
		if (e->uid == uid)
			return e->name;
	e = xmalloc(sizeof(*e));
	e->uid = uid;
	e->name = name_of(u, uid);
	if (!e->name) {
		char num[16];

		snprintf(num, sizeof(num), "%u", (unsigned)uid);
		e->name = xstrdup(num);
	}
	e->next = *head;
	*head = e;
	return e->name;
}

int users_parse(const char *s, uid_t *uid)
{
	struct passwd *pw = getpwnam(s);
	char *end;
	unsigned long v;

	if (pw) {
		*uid = pw->pw_uid;
		return 0;
	}
	errno = 0;
	v = strtoul(s, &end, 10);
	/* (uid_t)-1 means "no user" to the kernel: not a uid to filter on */
	if (!*s || *end || errno || v > UINT_MAX - 1 || s[0] == '-')
		return -ENOENT;
	*uid = (uid_t)v;
	return 0;
}
