/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fixture.h: what the parser tests share: a fixture file (under FIXTURES,
 * set by the build) loaded into a heap buffer of exactly its size, so that
 * ASan catches a parser reading one byte past the end; and a file written
 * into a fake tree (a proc root, a cgroup hierarchy). Include after cmocka.h.
 */
#ifndef PTOP_TESTS_FIXTURE_H
#define PTOP_TESTS_FIXTURE_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* FIXTURES/rel in a heap buffer of exactly the file's size (never NULL). */
static inline char *fixture_load(const char *rel, size_t *len)
{
	char path[512];
	struct stat sb;
	char *b;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", FIXTURES, rel);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		fail_msg("%s: %s", path, strerror(errno));
	assert_int_equal(fstat(fd, &sb), 0);
	*len = (size_t)sb.st_size;
	b = malloc(*len ? *len : 1);
	assert_non_null(b);
	assert_int_equal(read(fd, b, *len), (ssize_t)*len);
	close(fd);
	return b;
}

/* Write text to top/rel, making the directories on the way. */
static inline void fixture_put(const char *top, const char *rel, const char *text)
{
	char path[1024];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", top, rel);
	for (char *s = strchr(path + strlen(top) + 1, '/'); s; s = strchr(s + 1, '/')) {
		*s = '\0';
		mkdir(path, 0755);
		*s = '/';
	}
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

#endif
