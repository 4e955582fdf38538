// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * parse-bench.c: how much faster the zero-copy /proc/PID/stat parser
 * (proc_parse_stat) is than the sscanf parser most tools start from. It reads
 * the stat text of up to 64 live processes from /proc once, keeps it in
 * memory, then runs each parser over the same buffers in interleaved rounds
 * and prints the median nanoseconds per parse and their ratio. Before timing
 * it checks that both parsers agree on every buffer, and fails if they do not.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ptop/proc.h"

#define BENCH_MAX_BUFS 64
#define BENCH_BUF_SIZE 2048
#define BENCH_ROUNDS 5
#define BENCH_TARGET 3.0 /* the speedup the zero-copy parser was written for */

/*
 * Fields 4..52 of stat with their scanf conversions, in the kernel's order.
 * One list drives the sscanf format, its arguments and the comparison.
 */
#define SCAN_S " %" SCNd64
#define SCAN_U " %" SCNu64
/* clang-format off */
#define STAT_FIELDS(X)                                                                     \
	X(ppid, SCAN_S) X(pgrp, SCAN_S) X(session, SCAN_S) X(tty_nr, SCAN_S)               \
	X(tpgid, SCAN_S) X(flags, SCAN_U) X(minflt, SCAN_U) X(cminflt, SCAN_U)             \
	X(majflt, SCAN_U) X(cmajflt, SCAN_U) X(utime, SCAN_U) X(stime, SCAN_U)             \
	X(cutime, SCAN_S) X(cstime, SCAN_S) X(priority, SCAN_S) X(nice, SCAN_S)            \
	X(num_threads, SCAN_S) X(itrealvalue, SCAN_S) X(starttime, SCAN_U)                 \
	X(vsize, SCAN_U) X(rss, SCAN_S) X(rsslim, SCAN_U) X(startcode, SCAN_U)             \
	X(endcode, SCAN_U) X(startstack, SCAN_U) X(kstkesp, SCAN_U) X(kstkeip, SCAN_U)     \
	X(signal, SCAN_U) X(blocked, SCAN_U) X(sigignore, SCAN_U) X(sigcatch, SCAN_U)      \
	X(wchan, SCAN_U) X(nswap, SCAN_U) X(cnswap, SCAN_U) X(exit_signal, SCAN_S)         \
	X(processor, SCAN_S) X(rt_priority, SCAN_U) X(policy, SCAN_U)                      \
	X(delayacct_blkio_ticks, SCAN_U) X(guest_time, SCAN_U) X(cguest_time, SCAN_S)      \
	X(start_data, SCAN_U) X(end_data, SCAN_U) X(start_brk, SCAN_U)                     \
	X(arg_start, SCAN_U) X(arg_end, SCAN_U) X(env_start, SCAN_U) X(env_end, SCAN_U)    \
	X(exit_code, SCAN_S)
/* clang-format on */
#define FIELD_FMT(name, conv) conv
#define FIELD_ARG(name, conv) , &out->name

struct stat_text {
	char buf[BENCH_BUF_SIZE]; /* NUL-terminated for sscanf; the NUL is not in len */
	size_t len;
};

/*
 * The reference: the same fields through sscanf, comm from the first '(' to
 * the last ')'. buf must be NUL-terminated at buf[len]. 0 or -EINVAL.
 */
static int sscanf_parse_stat(const char *buf, size_t len, struct proc_stat *out)
{
	const char *open, *close;
	int n;

	if (len < 2 || buf[len - 1] != '\n')
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	if (sscanf(buf, "%" SCNd64, &out->pid) != 1)
		return -EINVAL;
	open = memchr(buf, '(', len);
	close = memrchr(buf, ')', len);
	if (!open || !close || close < open || close[1] != ' ')
		return -EINVAL;
	out->comm.p = open + 1;
	out->comm.n = (size_t)(close - open - 1);
	n = sscanf(close + 2, "%c" STAT_FIELDS(FIELD_FMT), &out->state STAT_FIELDS(FIELD_ARG));
	if (n < PROC_STAT_MIN_FIELDS - 2)
		return -EINVAL;
	out->nfields = (unsigned)n + 2;
	return 0;
}

#define FIELD_CMP(name, conv)                                                                      \
	if (a->name != b->name)                                                                    \
		return #name;

/* The first field where a and b differ, or NULL when they agree. */
static const char *stat_differs(const struct proc_stat *a, const struct proc_stat *b)
{
	if (a->pid != b->pid)
		return "pid";
	if (a->comm.p != b->comm.p || a->comm.n != b->comm.n)
		return "comm";
	if (a->state != b->state)
		return "state";
	if (a->nfields != b->nfields)
		return "nfields";
	STAT_FIELDS(FIELD_CMP)
	return NULL;
}

/* Read up to max stat files of live processes into texts. Returns how many. */
static size_t load_stats(struct stat_text *texts, size_t max)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	size_t n = 0;

	if (!d)
		return 0;
	while (n < max && (de = readdir(d))) {
		char path[sizeof(de->d_name) + 16];
		ssize_t got;
		int fd;

		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", de->d_name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue; /* gone since readdir */
		got = read(fd, texts[n].buf, sizeof(texts[n].buf) - 1);
		close(fd);
		if (got <= 0)
			continue;
		texts[n].buf[got] = '\0';
		texts[n].len = (size_t)got;
		n++;
	}
	closedir(d);
	return n;
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

typedef int (*stat_parser)(const char *buf, size_t len, struct proc_stat *out);

static volatile uint64_t sink; /* keeps the parses from being optimised away */

/* Run parse over every text `passes` times; returns ns per parse, or -1 on a parse error. */
static double time_parser(stat_parser parse, const struct stat_text *texts, size_t ntexts,
			  long passes)
{
	struct proc_stat st;
	uint64_t acc = 0;
	double t0 = now_ns();

	for (long i = 0; i < passes; i++) {
		for (size_t j = 0; j < ntexts; j++) {
			if (parse(texts[j].buf, texts[j].len, &st))
				return -1;
			acc += st.utime + st.comm.n + (uint64_t)st.state;
		}
	}
	sink += acc;
	return (now_ns() - t0) / ((double)passes * (double)ntexts);
}

/* Passes over the texts that take about `seconds`, from a short trial run. */
static long calibrate(stat_parser parse, const struct stat_text *texts, size_t ntexts,
		      double seconds)
{
	long passes = 16;
	double ns;

	for (;;) {
		ns = time_parser(parse, texts, ntexts, passes);
		if (ns < 0)
			return -1;
		if (ns * (double)passes * (double)ntexts > 0.05e9 || passes > (1L << 30))
			break;
		passes *= 4;
	}
	passes = (long)(seconds * 1e9 / (ns * (double)ntexts));
	return passes > 0 ? passes : 1;
}

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

static double median(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int main(int argc, char **argv)
{
	static struct stat_text texts[BENCH_MAX_BUFS];
	double zc[BENCH_ROUNDS], sc[BENCH_ROUNDS], zc_med, sc_med, seconds = 0.5;
	long zc_passes, sc_passes;
	size_t n;

	if (argc == 2)
		seconds = strtod(argv[1], NULL);
	if (argc > 2 || !(seconds > 0 && seconds <= 60)) {
		fprintf(stderr, "usage: %s [SECONDS per run, default 0.5]\n", argv[0]);
		return 2;
	}
	n = load_stats(texts, BENCH_MAX_BUFS);
	if (!n) {
		fprintf(stderr, "parse-bench: no /proc/PID/stat could be read\n");
		return 1;
	}

	for (size_t i = 0; i < n; i++) {
		struct proc_stat a, b;
		int ea = proc_parse_stat(texts[i].buf, texts[i].len, &a);
		int eb = sscanf_parse_stat(texts[i].buf, texts[i].len, &b);
		const char *field = NULL;

		if (ea || eb || (field = stat_differs(&a, &b))) {
			fprintf(stderr,
				"parse-bench: the parsers disagree (zero-copy %d, sscanf %d%s%s) "
				"on: %.*s",
				ea, eb, field ? ", field " : "", field ? field : "",
				(int)texts[i].len, texts[i].buf);
			return 1;
		}
	}

	zc_passes = calibrate(proc_parse_stat, texts, n, seconds);
	sc_passes = calibrate(sscanf_parse_stat, texts, n, seconds);
	if (zc_passes < 0 || sc_passes < 0) {
		fprintf(stderr, "parse-bench: a parser failed during calibration\n");
		return 1;
	}
	for (int r = 0; r < BENCH_ROUNDS; r++) {
		zc[r] = time_parser(proc_parse_stat, texts, n, zc_passes);
		sc[r] = time_parser(sscanf_parse_stat, texts, n, sc_passes);
		if (zc[r] < 0 || sc[r] < 0) {
			fprintf(stderr, "parse-bench: a parser failed while timed\n");
			return 1;
		}
	}
	zc_med = median(zc, BENCH_ROUNDS);
	sc_med = median(sc, BENCH_ROUNDS);

	printf("# /proc/PID/stat parsers: %zu buffers of live processes, %d interleaved rounds\n",
	       n, BENCH_ROUNDS);
	printf("%-22s %12s %14s\n", "parser", "ns/parse", "parses/round");
	printf("%-22s %12.1f %14ld\n", "zero-copy (ptop)", zc_med, zc_passes * (long)n);
	printf("%-22s %12.1f %14ld\n", "sscanf", sc_med, sc_passes * (long)n);
	printf("ratio sscanf/zero-copy: %.2fx (target >= %.1fx: %s)\n", sc_med / zc_med,
	       BENCH_TARGET, sc_med / zc_med >= BENCH_TARGET ? "met" : "NOT met");
	return 0;
}
