// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * floor: the least a /proc poller of today's design does per frame, to
 * measure ptop against. Each frame rewinds /proc and lists it with
 * getdents64(2); for each PID it preads the process's stat and statm (stat
 * alone with -s) through descriptors opened at first sight and held, into
 * one buffer, and parses nothing but the directory name. A process that is
 * gone (the read fails) is closed; its PID is opened afresh when listed again.
 * With -e, the files prometheus-process-exporter reads of each process as
 * well (status, io, limits, smaps_rollup, wchan, held the same way; the size
 * of its fd directory; for a process of several threads, each thread's stat,
 * status, io and wchan, opened and read each frame), parsing only status's
 * Threads: line: the least an exporter of its families reads.
 *
 * Usage: floor [-s|-e] [-n FRAMES] [-d SECONDS]. It prints nothing but, with
 * -v, the processes and bytes of the last frame, so that `bench/frame-cost`
 * and `bench/metrics-cost` can time it as they time ptop, top and
 * process-exporter.
 */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* The files held per process: stat and statm, or with -e all of them. */
static const char *const files[] = {"stat",   "statm",	      "status", "io",
				    "limits", "smaps_rollup", "wchan"};
#define NFILES (sizeof(files) / sizeof(files[0]))
#define STATUS 2

struct held {
	int pid; /* 0: empty */
	int fd[NFILES];
	unsigned seen; /* the frame that last listed it */
};

static struct held *tab;
static size_t cap = 1u << 12, used;

static size_t slot_of(int pid)
{
	size_t i = ((uint32_t)pid * 2654435769u) & (cap - 1);

	while (tab[i].pid && tab[i].pid != pid)
		i = (i + 1) & (cap - 1);
	return i;
}

/* Rehash into a table twice the size; only the live entries move. */
static void grow(void)
{
	struct held *old = tab;
	size_t ocap = cap;

	cap *= 2;
	tab = calloc(cap, sizeof(*tab));
	if (!tab) {
		perror("floor");
		exit(1);
	}
	used = 0;
	for (size_t i = 0; i < ocap; i++) {
		if (old[i].pid) {
			tab[slot_of(old[i].pid)] = old[i];
			used++;
		}
	}
	free(old);
}

static void forget(struct held *h)
{
	for (size_t f = 0; f < NFILES; f++) {
		if (h->fd[f] >= 0)
			close(h->fd[f]);
		h->fd[f] = -1; /* keeps its place: opened again if the PID is listed */
	}
}

/* Status's Threads: count in buf (n bytes), or 1. */
static long threads_of(const char *buf, ssize_t n)
{
	for (ssize_t i = 0; i + 9 < n; i++)
		if ((i == 0 || buf[i - 1] == '\n') && !memcmp(buf + i, "Threads:\t", 9))
			return strtol(buf + i + 9, NULL, 10);
	return 1;
}

/* -e: each thread's stat, status, io and wchan, opened and read; the bytes read. */
static unsigned long read_threads(int root, int pid, char *buf, size_t size)
{
	static const char *const tfiles[] = {"stat", "status", "io", "wchan"};
	unsigned long bytes = 0;
	char path[300];
	struct dirent *de;
	DIR *dir;
	int dfd;

	snprintf(path, sizeof(path), "%d/task", pid);
	dfd = openat(root, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0 || !(dir = fdopendir(dfd))) {
		if (dfd >= 0)
			close(dfd);
		return 0;
	}
	while ((de = readdir(dir))) {
		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		for (size_t f = 0; f < sizeof(tfiles) / sizeof(tfiles[0]); f++) {
			ssize_t r;
			int fd;

			snprintf(path, sizeof(path), "%s/%s", de->d_name, tfiles[f]);
			fd = openat(dirfd(dir), path, O_RDONLY | O_CLOEXEC);
			if (fd < 0)
				continue;
			r = read(fd, buf, size);
			close(fd);
			if (r > 0)
				bytes += (unsigned long)r;
		}
	}
	closedir(dir);
	return bytes;
}

int main(int argc, char **argv)
{
	static char dents[32768], buf[4096];
	unsigned long frames = 1, procs = 0, bytes = 0;
	double delay = 0;
	int nfiles = 2, verbose = 0, c, root;
	bool exporter = false;
	struct rlimit rl;

	while ((c = getopt(argc, argv, "sen:d:v")) != -1) {
		char *end;

		switch (c) {
		case 's':
			nfiles = 1;
			break;
		case 'e':
			nfiles = (int)NFILES;
			exporter = true;
			break;
		case 'n':
			frames = strtoul(optarg, &end, 10);
			if (*end || !frames) {
				fprintf(stderr, "floor: -n wants a positive number\n");
				return 2;
			}
			break;
		case 'd':
			delay = strtod(optarg, &end);
			if (*end || delay < 0) {
				fprintf(stderr, "floor: -d wants seconds\n");
				return 2;
			}
			break;
		case 'v':
			verbose = 1;
			break;
		default:
			fprintf(stderr, "usage: floor [-s|-e] [-n FRAMES] [-d SECONDS] [-v]\n");
			return 2;
		}
	}
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	tab = calloc(cap, sizeof(*tab));
	root = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (!tab || root < 0) {
		perror("floor: /proc");
		return 1;
	}
	for (unsigned long fr = 1; fr <= frames; fr++) {
		procs = bytes = 0;
		if (lseek(root, 0, SEEK_SET) < 0) {
			perror("floor: lseek");
			return 1;
		}
		for (;;) {
			long n = syscall(SYS_getdents64, root, dents, sizeof(dents));

			if (n < 0) {
				perror("floor: getdents64");
				return 1;
			}
			if (n == 0)
				break;
			for (long off = 0; off < n;) {
				const char *name = dents + off + 19; /* d_name of linux_dirent64 */
				unsigned short reclen;
				struct held *h;
				int pid = 0;

				memcpy(&reclen, dents + off + 16, sizeof(reclen));
				off += reclen;
				for (const char *p = name; *p >= '0' && *p <= '9'; p++)
					pid = pid * 10 + (*p - '0');
				if (pid <= 0)
					continue;
				if ((used + 1) * 2 > cap)
					grow();
				h = &tab[slot_of(pid)];
				/* new, or forgotten and its PID now someone else's */
				if (!h->pid || h->fd[0] < 0) {
					char path[32];

					used += !h->pid;
					h->pid = pid;
					for (int f = 0; f < (int)NFILES; f++) {
						snprintf(path, sizeof(path), "%d/%s", pid,
							 files[f]);
						h->fd[f] = f < nfiles ? openat(root, path,
									       O_RDONLY | O_CLOEXEC)
								      : -1;
					}
				}
				h->seen = (unsigned)fr;
				for (int f = 0; f < nfiles; f++) {
					ssize_t r;

					if (h->fd[f] < 0)
						continue;
					r = pread(h->fd[f], buf, sizeof(buf), 0);
					if (r < 0 && f == 0) {
						forget(h);
						break;
					}
					if (r <= 0)
						continue; /* another user's io, a kernel thread's rollup */
					bytes += (unsigned long)r;
					if (exporter && f == STATUS && threads_of(buf, r) > 1)
						bytes += read_threads(root, pid, buf, sizeof(buf));
				}
				if (exporter && h->fd[0] >= 0) {
					char path[32];
					struct stat st;

					snprintf(path, sizeof(path), "%d/fd", pid);
					fstatat(root, path, &st, 0);
				}
				procs++;
			}
		}
		if (delay > 0 && fr < frames) {
			struct timespec ts = {(time_t)delay,
					      (long)((delay - (double)(time_t)delay) * 1e9)};

			while (nanosleep(&ts, &ts) && errno == EINTR)
				;
		}
	}
	if (verbose)
		printf("%lu processes, %lu bytes in the last frame\n", procs, bytes);
	return 0;
}
