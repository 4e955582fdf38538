// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * perffd.c: who else is observing. Counts the anon_inode:[perf_event]
 * descriptors a process holds, from the links in /proc/PID/fd: one readlink
 * per descriptor, so presenters ask only for the rows they show.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ptop/perf.h"

int perf_fd_count(const char *root, int pid)
{
	static const char want[] = "anon_inode:[perf_event]";
	char path[4096], link[64];
	struct dirent *d;
	DIR *dir;
	int n = 0, dfd;

	snprintf(path, sizeof(path), "%s/%d/fd", root ? root : "/proc", pid);
	dir = opendir(path);
	if (!dir)
		return errno == ENOENT ? -ESRCH : -errno;
	dfd = dirfd(dir);
	while ((d = readdir(dir))) {
		ssize_t len;

		if (d->d_name[0] == '.')
			continue;
		len = readlinkat(dfd, d->d_name, link, sizeof(link));
		if (len == (ssize_t)sizeof(want) - 1 && !memcmp(link, want, sizeof(want) - 1))
			n++;
	}
	closedir(dir);
	return n;
}
