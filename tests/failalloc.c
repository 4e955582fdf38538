// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * failalloc.c: an LD_PRELOAD shim for tests/test_tui_exit.sh. Once the file
 * named by FAILALLOC_FILE exists, every malloc, calloc, realloc and
 * reallocarray fails with ENOMEM, so a test can make ptop run out of memory
 * at a moment it chooses (after the viewer is up). Built by the test itself.
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

void *__libc_malloc(size_t n);
void *__libc_calloc(size_t nmemb, size_t size);
void *__libc_realloc(void *p, size_t n);

static int failing(void)
{
	const char *f = getenv("FAILALLOC_FILE");

	if (f && access(f, F_OK) == 0) {
		errno = ENOMEM;
		return 1;
	}
	return 0;
}

void *malloc(size_t n)
{
	return failing() ? NULL : __libc_malloc(n);
}

void *calloc(size_t nmemb, size_t size)
{
	return failing() ? NULL : __libc_calloc(nmemb, size);
}

void *realloc(void *p, size_t n)
{
	return failing() ? NULL : __libc_realloc(p, n);
}

void *reallocarray(void *p, size_t nmemb, size_t size)
{
	if (size && nmemb > (size_t)-1 / size) {
		errno = ENOMEM;
		return NULL;
	}
	return failing() ? NULL : __libc_realloc(p, nmemb * size);
}
