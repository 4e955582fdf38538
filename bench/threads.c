// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * threads: one process of N idle threads, for bench/scale to fill a machine
 * with tasks the way a JVM or a database server does. Every thread but the
 * main one waits on a futex that is never woken; the main thread writes
 * "ready" on standard output once all of them have started (so the caller
 * counts tasks that exist, not tasks still being made), then reads standard
 * input and exits at its end. It also dies with its parent (PR_SET_PDEATHSIG),
 * so a benchmark killed with SIGKILL leaves no threads behind. Stacks are
 * small (-s, default 16 KiB, at least the C library's minimum) so that
 * 100,000 threads cost little more than their kernel memory.
 *
 * Usage: threads [-n THREADS] [-s STACK_KIB]. THREADS counts the main
 * thread too (default 1000). On failure it writes "error: ..." on standard
 * output (what the caller reads) and exits 1.
 */
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

static atomic_uint started;
static atomic_uint never;

static long futex(atomic_uint *addr, int op, unsigned val)
{
	return syscall(SYS_futex, addr, op, val, NULL, NULL, 0);
}

static void *idle(void *arg)
{
	(void)arg;
	atomic_fetch_add(&started, 1);
	futex(&started, FUTEX_WAKE_PRIVATE, 1);
	/* A wake-up may be spurious (a signal): wait again. */
	for (;;)
		futex(&never, FUTEX_WAIT_PRIVATE, 0);
	return NULL;
}

static void fail(const char *what, int err)
{
	printf("error: %s: %s\n", what, strerror(err));
	fflush(stdout);
	exit(1);
}

int main(int argc, char **argv)
{
	unsigned long n = 1000, stack_kib = 16;
	pid_t parent = getppid();
	pthread_attr_t attr;
	size_t stack, min;
	char buf[256];
	long lmin;
	int opt, err;

	while ((opt = getopt(argc, argv, "n:s:")) != -1) {
		switch (opt) {
		case 'n':
			n = strtoul(optarg, NULL, 10);
			break;
		case 's':
			stack_kib = strtoul(optarg, NULL, 10);
			break;
		default:
			fprintf(stderr, "usage: threads [-n THREADS] [-s STACK_KIB]\n");
			return 2;
		}
	}
	if (n < 1 || n > UINT_MAX || stack_kib < 1 || stack_kib > 1024 * 1024) {
		fprintf(stderr, "threads: -n must be at least 1, -s between 1 and 1048576\n");
		return 2;
	}
	/* The parent may have died before the prctl: then it would never fire. */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent)
		return 1;

	lmin = sysconf(_SC_THREAD_STACK_MIN);
	min = lmin > 0 ? (size_t)lmin : 16384;
	stack = stack_kib * 1024 < min ? min : stack_kib * 1024;
	err = pthread_attr_init(&attr);
	if (!err)
		err = pthread_attr_setstacksize(&attr, stack);
	if (!err)
		err = pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	if (err)
		fail("pthread_attr", err);
	for (unsigned long i = 1; i < n; i++) {
		pthread_t t;

		err = pthread_create(&t, &attr, idle, NULL);
		if (err) {
			snprintf(buf, sizeof(buf), "thread %lu of %lu", i + 1, n);
			fail(buf, err);
		}
	}
	for (;;) {
		unsigned now = atomic_load(&started);

		if (now == n - 1)
			break;
		futex(&started, FUTEX_WAIT_PRIVATE, now);
	}
	printf("ready\n");
	fflush(stdout);
	for (;;) {
		ssize_t got = read(STDIN_FILENO, buf, sizeof(buf));

		if (got == 0 || (got < 0 && errno != EINTR))
			return 0;
	}
}
