// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fdcache.c: held descriptors per PID. A process's stat, statm and (when a
 * shown field needs it) status stay open and are re-read with pread at offset
 * 0, which costs the kernel's text generation and little else. The number
 * held is bounded by RLIMIT_NOFILE less a reserve; past it, files are opened,
 * read and closed each time. A held descriptor is tied to its process, not to
 * the PID: once the process is gone it fails with ESRCH even if the PID is reused.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <string.h>
#include <unistd.h>

#include "reader.h"

static const char *const file_names[PROC_NFILES] = {
    [PROC_FILE_STAT] = "stat",
    [PROC_FILE_STATM] = "statm",
    [PROC_FILE_STATUS] = "status",
    [PROC_FILE_SCHEDSTAT] = "schedstat",
    [PROC_FILE_IO] = "io",
    [PROC_FILE_CGROUP] = "cgroup",
    [PROC_FILE_OOM_SCORE] = "oom_score",
    [PROC_FILE_OOM_ADJ] = "oom_score_adj",
    [PROC_FILE_WCHAN] = "wchan",
    [PROC_FILE_AUTOGROUP] = "autogroup",
    [PROC_FILE_SECATTR] = "attr/current",
    [PROC_FILE_LOGINUID] = "loginuid",
    [PROC_FILE_ENVIRON] = "environ",
    [PROC_FILE_ROLLUP] = "smaps_rollup",
};

void fdcache_init(struct proc_reader *r)
{
	struct rlimit rl;

	r->fd_budget = 0;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
	    rl.rlim_cur > PROC_FD_RESERVE)
		r->fd_budget = (unsigned)(rl.rlim_cur - PROC_FD_RESERVE);
	else if (rl.rlim_cur == RLIM_INFINITY)
		r->fd_budget = 1u << 20;
}

void fdcache_close_slot(struct proc_reader *r, struct proc_slot *s)
{
	for (int f = 0; f < PROC_NFILES; f++) {
		if (s->fd[f] >= 0) {
			close(s->fd[f]);
			s->fd[f] = -1;
			r->fds_held--;
		}
	}
}

static char *put_uint(char *p, unsigned v)
{
	char digits[10];
	int n = 0;

	do {
		digits[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		*p++ = digits[--n];
	return p;
}

/* Without snprintf: this runs once per new process and file, and in synthesize's loops. */
void proc_path(char out[PROC_PATH_MAX], unsigned pid, unsigned tid, const char *name)
{
	char *p = put_uint(out, pid);

	*p++ = '/';
	if (tid) {
		memcpy(p, "task/", 5);
		p = put_uint(p + 5, tid);
		*p++ = '/';
	}
	strcpy(p, name);
}

static ssize_t gone_or(int err)
{
	return err == ENOENT || err == ESRCH ? -ESRCH : -err;
}

static ssize_t read_result(ssize_t n, int err, size_t cap)
{
	if (n < 0)
		return gone_or(err);
	return (size_t)n == cap ? -EFBIG : n;
}

ssize_t proc_reader_read(struct proc_reader *r, struct proc_slot *s, enum proc_file f, char *buf,
			 size_t cap)
{
	char path[PROC_PATH_MAX];
	ssize_t n;
	int fd, err;

	if (s->fd[f] >= 0) {
		n = pread(s->fd[f], buf, cap, 0);
		err = errno;
		if (n >= 0 || (err != ESRCH && err != ENOENT))
			return read_result(n, err, cap);
		/* The process behind the descriptors is gone; the PID may not be. */
		fdcache_close_slot(r, s);
		s->reopened = true;
	}
	if (s->tgid)
		proc_path(path, (unsigned)s->tgid, (unsigned)s->pid, file_names[f]);
	else
		proc_path(path, (unsigned)s->pid, 0, file_names[f]);
	fd = openat(r->root_fd, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return gone_or(errno);
	if (r->fds_held < r->fd_budget) {
		s->fd[f] = fd;
		r->fds_held++;
		n = pread(fd, buf, cap, 0);
		return read_result(n, errno, cap);
	}
	n = read(fd, buf, cap);
	err = errno;
	close(fd);
	r->fallback++;
	return read_result(n, err, cap);
}

int proc_reader_runtime(struct proc_reader *r, struct proc_slot *s, uint64_t *ns)
{
	struct timespec ts;
	int err;

	if (!r->own_ns || s->tgid)
		return -EOPNOTSUPP;
	if (!s->has_clock) {
		err = clock_getcpuclockid(s->pid, &s->clock);
		if (err)
			return err == ESRCH ? -ESRCH : -err;
		s->has_clock = true;
	}
	/* a PID without a process is an invalid clock */
	if (clock_gettime(s->clock, &ts) != 0)
		return errno == EINVAL ? -ESRCH : -errno;
	*ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	return 0;
}

ssize_t proc_reader_read_file(struct proc_reader *r, int pid, int tid, const char *name, char *buf,
			      size_t cap)
{
	char path[PROC_PATH_MAX];
	ssize_t n;
	int fd, err;

	proc_path(path, (unsigned)pid, tid > 0 ? (unsigned)tid : 0, name);
	fd = openat(r->root_fd, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return gone_or(errno);
	n = read(fd, buf, cap);
	err = errno;
	close(fd);
	return read_result(n, err, cap);
}

ssize_t proc_reader_readlink(struct proc_reader *r, int pid, int tid, const char *name, char *buf,
			     size_t cap)
{
	char path[PROC_PATH_MAX];
	ssize_t n;

	proc_path(path, (unsigned)pid, tid > 0 ? (unsigned)tid : 0, name);
	n = readlinkat(r->root_fd, path, buf, cap);
	if (n < 0)
		return -errno;
	return (size_t)n == cap ? -EFBIG : n;
}

/* ioprio_get(2)'s "which" for one task (include/uapi/linux/ioprio.h) */
#define IOPRIO_WHO_PROCESS 1

int proc_reader_ioprio(struct proc_reader *r, int tid, int *prio)
{
	long v;

	if (!r->own_ns)
		return -EOPNOTSUPP;
	/* no glibc wrapper */
	v = syscall(SYS_ioprio_get, IOPRIO_WHO_PROCESS, tid);
	if (v < 0)
		return -errno;
	*prio = (int)v;
	return 0;
}
