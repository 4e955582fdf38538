// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * safefile.c: opening a regular file (or a directory) that another user may
 * have swapped for something else, for ptoprc and recordings: lstat before
 * open, so that a FIFO, a socket or a device is never opened; symbolic links
 * followed only when the user made them; O_NOFOLLOW | O_NONBLOCK |
 * O_NOCTTY; fstat after, the same device and inode as looked at. Touches
 * only the path it is given.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ptop/safefile.h"
#include "ptop/util.h"

/* Whether st may be opened as how says: 0, or the error that refuses it. */
static int allowed(const struct stat *st, unsigned how)
{
	if (S_ISREG(st->st_mode))
		return (how & SAFEFILE_OWN_FILE) && st->st_uid != geteuid() ? -EACCES : 0;
	if (S_ISDIR(st->st_mode))
		return how & SAFEFILE_DIR ? 0 : -EISDIR;
	return -EINVAL;
}

int safefile_open(const char *path, int flags, unsigned how, struct stat *st)
{
	struct stat seen, got;
	char *real = NULL;
	const char *at = path;
	int fd, err;

	memset(st, 0, sizeof(*st));
	if ((how & SAFEFILE_ANY_LINK ? stat(path, &seen) : lstat(path, &seen)) < 0)
		return -errno;
	if (S_ISLNK(seen.st_mode)) {
		/* another user's link may lead root to its own files */
		if (seen.st_uid != geteuid()) {
			*st = seen;
			return -EPERM;
		}
		real = realpath(path, NULL);
		if (!real)
			return -errno;
		at = real;
		if (lstat(at, &seen) < 0) {
			err = -errno;
			goto out;
		}
	}
	*st = seen;
	err = allowed(&seen, how);
	if (err)
		goto out;
	if (S_ISDIR(seen.st_mode))
		flags = O_RDONLY | O_DIRECTORY;
	/* O_NONBLOCK all the same: it may have been swapped for a FIFO since */
	fd = open(at, flags | O_NONBLOCK | O_NOCTTY | O_CLOEXEC |
			  (how & SAFEFILE_ANY_LINK ? 0 : O_NOFOLLOW));
	if (fd < 0) {
		/* O_NOFOLLOW meets a link put there since lstat looked */
		err = errno == ELOOP && !(how & SAFEFILE_ANY_LINK) ? -ESTALE : -errno;
		goto out;
	}
	if (fstat(fd, &got) < 0) {
		err = -errno;
	} else if (got.st_dev != seen.st_dev || got.st_ino != seen.st_ino) {
		*st = got;
		err = -ESTALE;
	} else {
		*st = got;
		err = allowed(&got, how);
	}
	if (!err && S_ISREG(got.st_mode) && fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK))
		err = -errno;
	if (err) {
		close(fd);
		goto out;
	}
	free(real);
	return fd;
out:
	free(real);
	return err;
}

const char *safefile_kind(const struct stat *st)
{
	switch (st->st_mode & S_IFMT) {
	case S_IFIFO:
		return _("a FIFO");
	case S_IFSOCK:
		return _("a socket");
	case S_IFCHR:
		return _("a character device");
	case S_IFBLK:
		return _("a block device");
	case S_IFDIR:
		return _("a directory");
	case S_IFLNK:
		return _("a symbolic link");
	case S_IFREG:
		return _("a regular file");
	}
	return _("not a regular file");
}

bool safefile_refused(int err, const struct stat *st, unsigned how)
{
	switch (err) {
	case -EINVAL:
	case -EISDIR:
	case -EPERM:
	case -ESTALE:
		return true;
	case -EACCES:
		/* open()'s own EACCES is the system's: a file the user may not write */
		return (how & SAFEFILE_OWN_FILE) && S_ISREG(st->st_mode) && st->st_uid != geteuid();
	}
	return false;
}

const char *safefile_why(int err, const struct stat *st, unsigned how)
{
	static char buf[160];

	if (!safefile_refused(err, st, how))
		return strerror(-err);
	switch (err) {
	case -EINVAL:
	case -EISDIR:
		snprintf(buf, sizeof(buf), _("%s, not a regular file"), safefile_kind(st));
		return buf;
	case -EPERM:
		return _("a symbolic link another user made, not followed");
	case -EACCES:
		snprintf(buf, sizeof(buf), _("owned by another user (uid %u)"),
			 (unsigned)st->st_uid);
		return buf;
	}
	return _("replaced by another file while it was opened");
}
