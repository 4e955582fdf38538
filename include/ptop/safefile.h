/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * safefile.h: opening a file that another user may have put in the way
 * (safefile.c). ptop's own files (ptoprc, recordings) may sit where someone
 * else can plant a FIFO, a device or a symbolic link, and opening some
 * devices acts (a watchdog arms, a tape rewinds) or blocks (a FIFO waits for
 * a writer). So a path is looked at before it is opened, opened without
 * blocking, and looked at again through the descriptor.
 */
#ifndef PTOP_SAFEFILE_H
#define PTOP_SAFEFILE_H

#include <stdbool.h>
#include <sys/stat.h>

/* What safefile_open() takes besides a regular file, and which links it follows. */
enum {
	SAFEFILE_DIR = 1 << 0,	    /* a directory too (opened O_RDONLY | O_DIRECTORY) */
	SAFEFILE_ANY_LINK = 1 << 1, /* follow every symbolic link, not only the user's own */
	SAFEFILE_OWN_FILE = 1 << 2, /* refuse a regular file another user owns (-EACCES) */
};

/*
 * Open path with flags (O_RDONLY or O_RDWR; O_CLOEXEC is added) if it is a
 * regular file, or a directory with SAFEFILE_DIR. It is looked at (lstat)
 * before it is opened: anything else (a FIFO, a socket, a device) is never
 * opened. A symbolic link is followed only when the effective user owns it
 * (or with SAFEFILE_ANY_LINK): its target, resolved, is then looked at the
 * same way. The open is O_NOFOLLOW | O_NONBLOCK | O_NOCTTY, and fstat must
 * then show the file looked at (device and inode): one swapped in between is
 * refused. O_NONBLOCK is cleared again for a regular file.
 *
 * Returns the descriptor, or -errno: -ENOENT none, -EISDIR a directory
 * without SAFEFILE_DIR, -EINVAL not a regular file nor a directory, -EPERM a
 * symbolic link another user made, -EACCES (SAFEFILE_OWN_FILE) a file
 * another user owns, -ESTALE swapped while it was opened, or open's error.
 * *st gets what was opened, or what was refused (its st_mode and st_uid
 * say what it is; all zero when nothing was found).
 */
int safefile_open(const char *path, int flags, unsigned how, struct stat *st);

/*
 * What st is, for a message, translated: "a FIFO", "a socket", "a character
 * device", "a block device", "a directory", "a symbolic link", "a regular
 * file" or "not a regular file".
 */
const char *safefile_kind(const struct stat *st);

/* Whether err from safefile_open(.., how, st) is its own refusal, not the system's. */
bool safefile_refused(int err, const struct stat *st, unsigned how);

/*
 * One translated phrase for err from safefile_open(.., how, st), e.g. "a
 * block device, not a regular file", or strerror's for the system's errors;
 * for "PATH: PHRASE" messages. Valid until the next call.
 */
const char *safefile_why(int err, const struct stat *st, unsigned how);

#endif
