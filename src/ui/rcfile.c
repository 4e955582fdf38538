// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rcfile.c: ptoprc as a file. It may sit in a directory another user
 * controls (root with a user's XDG_CONFIG_HOME), so reading takes only a
 * bounded regular file and never blocks (safefile_open(): stat before open,
 * O_NONBLOCK, fstat again), and writing creates its temporary file afresh (O_EXCL|O_NOFOLLOW)
 * in the directory it opened, follows only the user's own links to the
 * user's own files, fsyncs it and renames it over the old file.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ptop/safefile.h"
#include "rcfile.h"

_Static_assert(CONFIG_MAX_SIZE == 1 << 20, "the message below says 1 MiB");

static int not_regular(const char *path, const struct stat *st, struct sbuf *errors)
{
	sbuf_printf(errors, _("%s: not a regular file, not read\n"), path);
	return S_ISDIR(st->st_mode) ? -EISDIR : -EINVAL;
}

int rcfile_read(const char *path, struct sbuf *text, struct sbuf *errors)
{
	struct stat st;
	int fd, err = 0;

	/* a link to another user's file may be read: what matters is never to block or act */
	fd = safefile_open(path, O_RDONLY, SAFEFILE_ANY_LINK, &st);
	if (fd == -EINVAL || fd == -EISDIR || fd == -ESTALE)
		return not_regular(path, &st, errors);
	if (fd < 0)
		return fd;
	/* one byte past the limit, so that a file still growing is caught too */
	while (st.st_size <= CONFIG_MAX_SIZE && text->len <= CONFIG_MAX_SIZE) {
		size_t want = CONFIG_MAX_SIZE + 1 - text->len;
		ssize_t n;

		if (want > 65536)
			want = 65536;
		n = read(fd, sbuf_reserve(text, want), want);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = -errno;
			goto out;
		}
		if (n == 0)
			break;
		text->len += (size_t)n;
	}
	if (st.st_size > CONFIG_MAX_SIZE || text->len > CONFIG_MAX_SIZE) {
		sbuf_printf(errors, _("%s: larger than 1 MiB, not read\n"), path);
		err = -EFBIG;
	}
out:
	close(fd);
	return err;
}

static int mkdir_parents(const char *path)
{
	char *dir = xstrdup(path);
	int err = 0;

	for (char *p = dir + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(dir, 0755) < 0 && errno != EEXIST) {
			err = -errno;
			break;
		}
		*p = '/';
	}
	free(dir);
	return err;
}

/*
 * Where a write goes: the directory (open, so that every later step names the
 * same one however its path changes) and the name in it. A link is followed
 * only when it and its target are the user's own, and the target is a regular
 * file: root running with another user's XDG_CONFIG_HOME must not be led to
 * replace its own files. The target's permissions are kept; a new file gets
 * 0644 less the umask.
 */
struct dest {
	int dirfd;
	char *dir, *name; /* malloc'd */
	bool exists;
	mode_t mode; /* of the existing file */
	uid_t uid;
};

static int dest_open(struct dest *d, const char *path, struct sbuf *why)
{
	char *slash = strrchr(path, '/');
	struct stat st;

	if (slash) {
		d->dir = slash == path ? xstrdup("/") : xstrdup(path);
		if (slash != path)
			d->dir[slash - path] = '\0';
		d->name = xstrdup(slash + 1);
	} else {
		d->dir = xstrdup(".");
		d->name = xstrdup(path);
	}
	d->dirfd = open(d->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (d->dirfd < 0)
		return -errno;
	if (fstatat(d->dirfd, d->name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return errno == ENOENT ? 0 : -errno;
	d->exists = true;
	/* not set-ID bits: a file another user planted must not pass them to root's */
	d->mode = st.st_mode & 0777;
	d->uid = st.st_uid;
	if (S_ISREG(st.st_mode))
		return 0;
	if (S_ISDIR(st.st_mode))
		return -EISDIR;
	if (!S_ISLNK(st.st_mode)) {
		sbuf_printf(why, _("%s is not a regular file: not written"), path);
		return -EINVAL;
	}
	if (st.st_uid != geteuid()) {
		sbuf_printf(why, _("%s is a symbolic link made by another user: not followed"),
			    path);
		return -EPERM;
	}
	return 1;
}

static void dest_close(struct dest *d)
{
	if (d->dirfd >= 0)
		close(d->dirfd);
	free(d->dir);
	free(d->name);
	*d = (struct dest){.dirfd = -1};
}

/* path is the user's own link: aim d at its target, if that is the user's own file. */
static int dest_follow(struct dest *d, const char *path, struct sbuf *why)
{
	char *real = realpath(path, NULL);
	int err;

	if (!real) {
		err = -errno;
		if (err == -ENOENT)
			sbuf_printf(why, _("%s is a symbolic link to nothing: not written"), path);
		return err;
	}
	dest_close(d);
	err = dest_open(d, real, why);
	/* a link again, or gone: the path changed since realpath() looked */
	if (err > 0 || (!err && !d->exists) || err == -EISDIR) {
		sbuf_printf(
		    why, _("%s is a symbolic link to %s, which is not a regular file: not written"),
		    path, real);
		err = err > 0 ? -ELOOP : err ? err : -ENOENT;
	} else if (!err && d->uid != geteuid()) {
		sbuf_printf(why,
			    _("%s is a symbolic link to %s, which is another user's: not written"),
			    path, real);
		err = -EPERM;
	}
	free(real);
	return err;
}

/* A new file in d's directory, created, never opened through a link; its name into *tmp. */
static int dest_create_tmp(struct dest *d, struct sbuf *tmp)
{
	for (int tries = 0; tries < 100; tries++) {
		unsigned long r;
		int fd;

		if (getrandom(&r, sizeof(r), GRND_NONBLOCK) != sizeof(r))
			r = (unsigned long)getpid() * 2654435761u ^
			    (unsigned long)(clock_mono() * 1e9);
		sbuf_reset(tmp);
		sbuf_printf(tmp, "%s.%08lx.tmp", d->name, r & 0xffffffffu);
		/* 0600 until the final mode is set: the old file may have been private */
		fd = openat(d->dirfd, sbuf_cstr(tmp),
			    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			    d->exists ? 0600 : 0644);
		if (fd >= 0 || errno != EEXIST)
			return fd >= 0 ? fd : -errno;
	}
	return -EEXIST;
}

int rcfile_replace(const char *path, const char *data, size_t len, struct sbuf *why)
{
	struct sbuf tmp = {0};
	struct dest d = {.dirfd = -1};
	size_t said = why->len;
	int fd, err;

	err = mkdir_parents(path);
	if (!err)
		err = dest_open(&d, path, why);
	if (err > 0)
		err = dest_follow(&d, path, why);
	if (err)
		goto out;
	/* Written whole beside it, then renamed over it: a crash never leaves half a file. */
	fd = dest_create_tmp(&d, &tmp);
	if (fd < 0) {
		err = fd;
		goto out;
	}
	if (d.exists && fchmod(fd, d.mode) < 0)
		err = -errno;
	if (!err)
		err = write_all(fd, data, len);
	if (!err && fsync(fd) < 0)
		err = -errno;
	if (close(fd) < 0 && !err)
		err = -errno;
	if (!err && renameat(d.dirfd, tmp.p, d.dirfd, d.name) < 0)
		err = -errno;
	if (err) {
		unlinkat(d.dirfd, tmp.p, 0);
		goto out;
	}
	/* the rename itself is on disk only once the directory is; some file systems cannot */
	if (fsync(d.dirfd) < 0 && errno != EINVAL)
		err = -errno;
out:
	if (err && why->len == said)
		sbuf_printf(why, _("Cannot write %s: %s"), path, strerror(-err));
	dest_close(&d);
	sbuf_free(&tmp);
	return err;
}
