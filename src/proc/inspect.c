// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * inspect.c: what the viewer shows of one process on request (htop's e and l):
 * its environment from /proc/PID/environ, and its open files from the links in
 * /proc/PID/fd with the position and flags of /proc/PID/fdinfo, as lsof would
 * list them without lsof; and its cgroup's pressure (atop's per cgroup): the
 * unified line of /proc/PID/cgroup, then that cgroup's *.pressure files under
 * /sys/fs/cgroup (or /sys/fs/cgroup/unified on a hybrid machine). Read once
 * per request, not per frame.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ptop/proc.h"
#include "ptop/util.h"

/* /proc's answer for a process that is gone is ENOENT or ESRCH: one name for both. */
static int gone_or(int err)
{
	return err == -ENOENT ? -ESRCH : err;
}

static int pid_path(char *out, size_t n, const char *root, int pid, const char *name)
{
	if ((size_t)snprintf(out, n, "%s/%d/%s", root ? root : "/proc", pid, name) >= n)
		return -ENAMETOOLONG;
	return 0;
}

int proc_read_all(const char *root, int pid, int tid, const char *name, struct sbuf *out)
{
	char path[4096], sub[64];
	int fd, err;

	if (tid > 0)
		snprintf(sub, sizeof(sub), "task/%d/%s", tid, name);
	err = pid_path(path, sizeof(path), root, pid, tid > 0 ? sub : name);
	if (err)
		return err;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return gone_or(-errno);
	for (;;) {
		char *p = sbuf_reserve(out, 4096);
		ssize_t n = read(fd, p, 4096);

		if (n < 0) {
			err = gone_or(-errno);
			break;
		}
		if (n == 0)
			break;
		out->len += (size_t)n;
	}
	close(fd);
	return err;
}

int proc_environ(const char *root, int pid, struct sbuf *out)
{
	return proc_read_all(root, pid, 0, "environ", out);
}

static int fd_compare(const void *a, const void *b)
{
	const struct proc_fd *x = a, *y = b;

	return (x->fd > y->fd) - (x->fd < y->fd);
}

/* What kind of file a link's target is: the kernel's pseudo names first, then its mode. */
static void fd_type(struct proc_fd *f, int dirfd, const char *name)
{
	static const struct {
		mode_t mode;
		const char *type;
	} modes[] = {{S_IFREG, "REG"},	{S_IFDIR, "DIR"},   {S_IFCHR, "CHR"}, {S_IFBLK, "BLK"},
		     {S_IFIFO, "FIFO"}, {S_IFSOCK, "SOCK"}, {S_IFLNK, "LINK"}};
	struct stat st;

	snprintf(f->type, sizeof(f->type), "?");
	if (!strncmp(f->path, "anon_inode:", 11)) {
		snprintf(f->type, sizeof(f->type), "a_inode");
		return;
	}
	if (fstatat(dirfd, name, &st, 0) < 0)
		return;
	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		if ((st.st_mode & S_IFMT) == modes[i].mode)
			snprintf(f->type, sizeof(f->type), "%s", modes[i].type);
}

/* pos: and flags: of fdinfo/N; a descriptor closed meanwhile keeps has_info false. */
static void fd_info(struct proc_fd *f, int infofd, const char *name)
{
	char buf[512];
	int fd = openat(infofd, name, O_RDONLY | O_CLOEXEC);
	ssize_t n;
	const char *pos, *flags;

	if (fd < 0)
		return;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return;
	buf[n] = '\0';
	pos = strstr(buf, "pos:");
	flags = strstr(buf, "flags:");
	if (!pos || !flags)
		return;
	f->pos = strtoull(pos + 4, NULL, 10);
	f->flags = (unsigned)strtoul(flags + 6, NULL, 8);
	f->has_info = true;
}

/* One descriptor's entry; false when it was closed since the directory was read. */
static bool fd_read(struct proc_fd *f, int dirfd, int infofd, const char *name)
{
	char target[4096];
	ssize_t n = readlinkat(dirfd, name, target, sizeof(target) - 1);

	if (n < 0)
		return false;
	target[n] = '\0';
	memset(f, 0, sizeof(*f));
	f->fd = atoi(name);
	f->path = xstrdup(target);
	fd_type(f, dirfd, name);
	if (infofd >= 0)
		fd_info(f, infofd, name);
	return true;
}

int proc_fds(const char *root, int pid, struct proc_fd **out, size_t *nout)
{
	char path[4096];
	struct proc_fd *fds = NULL;
	size_t n = 0, cap = 0;
	struct dirent *de;
	DIR *dir;
	int infofd, err = pid_path(path, sizeof(path), root, pid, "fd");

	*out = NULL;
	*nout = 0;
	if (err)
		return err;
	dir = opendir(path);
	if (!dir)
		return gone_or(-errno);
	if (pid_path(path, sizeof(path), root, pid, "fdinfo"))
		infofd = -1;
	else
		infofd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	errno = 0;
	while ((de = readdir(dir))) {
		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 32;
			fds = xreallocarray(fds, cap, sizeof(*fds));
		}
		if (fd_read(&fds[n], dirfd(dir), infofd, de->d_name))
			n++;
	}
	err = errno ? gone_or(-errno) : 0;
	if (infofd >= 0)
		close(infofd);
	closedir(dir);
	if (err) {
		proc_fds_free(fds, n);
		return err;
	}
	if (n > 1) /* a kernel thread has none: fds is NULL */
		qsort(fds, n, sizeof(*fds), fd_compare);
	*out = fds;
	*nout = n;
	return 0;
}

/* A small file whole into buf (cap bytes): its length in *n; -EFBIG when it fills buf. */
static int read_small(const char *path, char *buf, size_t cap, size_t *n)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), err = 0;
	ssize_t got;

	if (fd < 0)
		return -errno;
	got = read(fd, buf, cap);
	if (got < 0)
		err = -errno;
	else if ((size_t)got == cap)
		err = -EFBIG;
	else
		*n = (size_t)got;
	close(fd);
	return err;
}

static bool is_file(const char *dir, const char *name)
{
	char path[4096];
	struct stat st;

	return (size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) < sizeof(path) &&
	       !stat(path, &st);
}

int proc_cgroup_mount(const char *cgroup_root, char *out, size_t cap, bool *hybrid)
{
	const char *base = cgroup_root ? cgroup_root : "/sys/fs/cgroup";

	*hybrid = false;
	/* cgroup.controllers is in every cgroup2 directory, and in no v1 one */
	if (is_file(base, "cgroup.controllers")) {
		if ((size_t)snprintf(out, cap, "%s", base) >= cap)
			return -ENAMETOOLONG;
		return 0;
	}
	if ((size_t)snprintf(out, cap, "%s/unified", base) >= cap)
		return -ENAMETOOLONG;
	if (!is_file(out, "cgroup.controllers"))
		return -ENODEV;
	*hybrid = true;
	return 0;
}

void proc_cgroup_dir_pressure(const char *dir, int error[PROC_CGROUP_PSI],
			      struct proc_pressure res[PROC_CGROUP_PSI])
{
	static const char *const files[PROC_CGROUP_PSI] = {"cpu.pressure", "memory.pressure",
							   "io.pressure"};
	char path[4096], buf[512];
	size_t n = 0;

	for (int r = 0; r < PROC_CGROUP_PSI; r++) {
		int err;

		memset(&res[r], 0, sizeof(res[r]));
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, files[r]) >= sizeof(path)) {
			error[r] = -ENAMETOOLONG;
			continue;
		}
		err = read_small(path, buf, sizeof(buf), &n);
		error[r] = err ? err : proc_parse_pressure(buf, n, &res[r]);
	}
}

int proc_cgroup_pressure(const char *root, const char *cgroup_root, int pid,
			 struct proc_cgroup_psi *out)
{
	char path[4096], buf[4096], mount[4096];
	struct proc_cgroup cg;
	size_t n = 0;
	int err;

	memset(out, 0, sizeof(*out));
	err = pid_path(path, sizeof(path), root, pid, "cgroup");
	if (!err)
		err = read_small(path, buf, sizeof(buf), &n);
	if (err)
		return gone_or(err);
	err = proc_parse_cgroup(buf, n, &cg);
	if (err)
		return err;
	if (!(cg.have & PROC_CGROUP_V2))
		return -ENOENT;
	if (cg.v2.n >= sizeof(out->path))
		return -ENAMETOOLONG;
	memcpy(out->path, cg.v2.p, cg.v2.n);
	out->path[cg.v2.n] = '\0';
	err = proc_cgroup_mount(cgroup_root, mount, sizeof(mount), &out->hybrid);
	if (err)
		return err;
	if ((size_t)snprintf(out->dir, sizeof(out->dir), "%s%s", mount,
			     strcmp(out->path, "/") ? out->path : "") >= sizeof(out->dir))
		return -ENAMETOOLONG;
	/* "0" there hides the *.pressure files: say it was that, not a kernel without PSI */
	if ((size_t)snprintf(path, sizeof(path), "%s/cgroup.pressure", out->dir) < sizeof(path) &&
	    !read_small(path, buf, sizeof(buf), &n))
		out->off = n >= 1 && buf[0] == '0';
	proc_cgroup_dir_pressure(out->dir, out->error, out->res);
	return 0;
}

void proc_fds_free(struct proc_fd *fds, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(fds[i].path);
	free(fds);
}
