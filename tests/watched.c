// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * watched.c: a program for the watch tests to watch by name. It writes the
 * addresses of its variables (as it sees them) to a file, then waits:
 *
 *   watched FILE        each SIGUSR1 writes `counter` 1000 times, then
 *                       FILE.rounds says how many rounds are done;
 *                       SIGTERM ends it
 *   watched FILE spin N waits for FILE.go, then does N rounds of one write
 *                       to `counter` and some arithmetic, and writes the
 *                       rounds' wall and CPU time in seconds to FILE.took
 */
#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

volatile long counter; /* the variable watched by name */
/* a variable named as one of libc's: `daylight` alone is ambiguous */
int daylight;
/* a .bss variable past the pages the file maps: watched as watched+ADDR */
struct {
	char pad[1 << 20];
	volatile long deep;
} big;

static volatile sig_atomic_t rounds_asked;

static void on_usr1(int sig)
{
	(void)sig;
	rounds_asked++;
}

static void put(const char *file, const char *suffix, const char *text)
{
	char path[4096], tmp[4200];
	FILE *f;

	snprintf(path, sizeof(path), "%s%s", file, suffix);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f || fputs(text, f) < 0 || fclose(f) || rename(tmp, path)) {
		perror(path);
		exit(1);
	}
}

static double now(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int spin(const char *file, long n)
{
	char path[4096], text[64];
	volatile double x = 1.0;
	double t0, c0;

	snprintf(path, sizeof(path), "%s.go", file);
	while (access(path, F_OK))
		usleep(10000);
	t0 = now(CLOCK_MONOTONIC);
	c0 = now(CLOCK_PROCESS_CPUTIME_ID);
	for (long i = 0; i < n; i++) {
		counter++;
		for (int k = 0; k < 200; k++)
			x = x * 1.0000001 + 1e-9;
	}
	snprintf(text, sizeof(text), "%.6f %.6f\n", now(CLOCK_MONOTONIC) - t0,
		 now(CLOCK_PROCESS_CPUTIME_ID) - c0);
	put(file, ".took", text);
	return 0;
}

int main(int argc, char **argv)
{
	char text[512];
	sigset_t usr1, none;
	int done = 0;

	if (argc < 2)
		return 2;
	snprintf(text, sizeof(text), "counter %p\ndeep %p\nlibc_daylight %p\ndaylight %p\n",
		 (void *)&counter, (void *)&big.deep, dlsym(RTLD_NEXT, "daylight"),
		 (void *)&daylight);
	put(argv[1], "", text);
	if (argc > 3 && !strcmp(argv[2], "spin"))
		return spin(argv[1], atol(argv[3]));
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	sigprocmask(SIG_BLOCK, &usr1, &none);
	signal(SIGUSR1, on_usr1);
	for (;;) {
		while (done == rounds_asked)
			sigsuspend(&none);
		for (int i = 0; i < 1000; i++)
			counter++;
		done++;
		snprintf(text, sizeof(text), "%d\n", done);
		put(argv[1], ".rounds", text);
	}
}
