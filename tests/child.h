/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * child.h: what the perf, bench, reader and sampler tests share: about
 * processes, ending a child, a PID that existed a moment ago and has been
 * reaped, a task's state and run time, CPU burnt, a process's tasks all
 * asleep, the count of this process's
 * open descriptors (to see that nothing was left open), thread bodies that
 * spin or sleep for good, skipping a test with its reason, and a benchmark
 * result's value by key. Include after cmocka.h.
 */
#ifndef PTOP_TESTS_CHILD_H
#define PTOP_TESTS_CHILD_H

#include <dirent.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ptop/bench.h"

#define SKIP(...)                                                                                  \
	do {                                                                                       \
		print_message("skipped: " __VA_ARGS__);                                            \
		print_message("\n");                                                               \
		skip();                                                                            \
	} while (0)

/* Thread bodies (pthread_create) that spin, or sleep, until the process ends. */
static inline void *spin_forever(void *arg)
{
	for (volatile unsigned long i = 0;; i++)
		;
	return arg;
}

static inline void *sleep_forever(void *arg)
{
	for (;;)
		pause();
	return arg;
}

static inline void reap(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/* A pid that existed a moment ago and has been reaped. */
static inline pid_t gone_pid(void)
{
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0)
		_exit(0);
	assert_int_equal(waitpid(pid, NULL, 0), pid);
	return pid;
}

/* The time pid (or a thread id) has run on a CPU (ns), from its schedstat; -1 without it. */
static inline int64_t schedstat_ns(pid_t pid)
{
	char path[64];
	long long ns = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/schedstat", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%lld", &ns) != 1)
		ns = -1;
	fclose(f);
	return ns;
}

/* The state letter of pid (or a thread id), from its stat; '?' without it. */
static inline char state_of(pid_t pid)
{
	char path[64], buf[512], *rp;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return '?';
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	rp = strrchr(buf, ')');
	return rp && rp[1] == ' ' ? rp[2] : '?';
}

/* This process's or this thread's CPU clock (clk), in ns. */
static inline int64_t cpu_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Run on a CPU until clk (this process's or this thread's CPU clock) passes ns. */
static inline void burn(clockid_t clk, int64_t ns)
{
	while (cpu_ns(clk) < ns)
		for (volatile int i = 0; i < 10000; i++)
			;
}

/* Until every task of pid sleeps (S or T), within 10 s: none will change until told. */
static inline void settle(pid_t pid)
{
	char dir[64];

	snprintf(dir, sizeof(dir), "/proc/%d/task", (int)pid);
	for (int i = 0; i < 1000; i++) {
		DIR *d = opendir(dir);
		struct dirent *e;
		bool busy = false;

		if (!d)
			return; /* gone */
		while ((e = readdir(d))) {
			char s;

			if (e->d_name[0] == '.')
				continue;
			s = state_of(atoi(e->d_name));
			busy |= s != '?' && s != 'S' && s != 'T' && s != 'Z';
		}
		closedir(d);
		if (!busy)
			return;
		usleep(10000);
	}
	fail_msg("pid %d never settled", (int)pid);
}

/* Descriptors this process has open now. */
static inline int count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			n++;
	closedir(d);
	return n - 1; /* the directory's own descriptor */
}

/* The value key of a benchmark result; the test fails without it. */
static inline const struct bench_value *bench_value_of(const struct bench_result *res,
						       const char *key)
{
	for (size_t i = 0; i < res->nvalues; i++)
		if (!strcmp(res->values[i].key, key))
			return &res->values[i];
	fail_msg("no value '%s' in the result", key);
	return NULL;
}

#endif
