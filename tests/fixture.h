/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fixture.h: what the parser tests share: a fixture file (under FIXTURES,
 * set by the build) loaded into a heap buffer of exactly its size, so that
 * ASan catches a parser reading one byte past the end. Include after cmocka.h.
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

#endif
