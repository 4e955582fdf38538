// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_synthesize.c: unit tests for src/bench/synthesize.c, the `synthesize`
 * benchmark, run with tiny parameters through bench_run(). The -s case: its
 * figures are positive, the events are one COMM and one MMAP2 per executable
 * line of /proc/self/maps, and the --output stream, read back with
 * bench_synth_decode(), holds exactly those records. The -t case: a FORK and
 * a COMM per thread /proc had at the time (within a tolerance for threads
 * that come and go), MMAP2 records, four figures per thread count. The
 * decoder's refusals of malformed streams, and bad thread ranges. -s holds
 * comm and maps open between runs (the stream of test_self comes from the
 * third read of the same descriptors) and closes them at the end; --reopen
 * gives the same records.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <grp.h>
#include <pthread.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ptop/bench.h"
#include "child.h"

static void *params(const char *first, ...)
{
	void *p = bench_params_new(&bench_synthesize);
	va_list ap;

	va_start(ap, first);
	for (const char *kv = first; kv; kv = va_arg(ap, const char *)) {
		char name[64];
		const char *eq = strchr(kv, '=');
		size_t n = eq ? (size_t)(eq - kv) : strlen(kv);

		assert_true(n < sizeof(name));
		memcpy(name, kv, n);
		name[n] = '\0';
		assert_int_equal(bench_params_set(&bench_synthesize, p, name, eq ? eq + 1 : NULL),
				 0);
	}
	va_end(ap);
	return p;
}

/* A temporary file's name (the file exists, empty). */
static void tmp_name(char *buf, size_t n)
{
	const char *dir = getenv("TMPDIR");
	int fd;

	snprintf(buf, n, "%s/ptop-synth.XXXXXX", dir && *dir ? dir : "/tmp");
	fd = mkstemp(buf);
	assert_true(fd >= 0);
	close(fd);
}

static unsigned char *slurp(const char *path, size_t *len)
{
	struct stat st;
	unsigned char *buf;
	int fd = open(path, O_RDONLY);

	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &st), 0);
	buf = malloc((size_t)st.st_size + 1);
	assert_non_null(buf);
	assert_int_equal(read(fd, buf, (size_t)st.st_size), st.st_size);
	close(fd);
	*len = (size_t)st.st_size;
	return buf;
}

/* Executable lines of /proc/self/maps: what perf writes an MMAP2 for. */
static unsigned exec_maps(void)
{
	char line[8192];
	unsigned n = 0;
	FILE *f = fopen("/proc/self/maps", "r");

	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		const char *sp = strchr(line, ' ');

		if (sp && sp[3] == 'x')
			n++;
	}
	fclose(f);
	return n;
}

/*
 * Threads of every process in /proc now, as perf synthesizes them: a process
 * whose maps cannot be opened counts its main thread only.
 */
static unsigned count_tasks(void)
{
	DIR *proc = opendir("/proc");
	struct dirent *d;
	unsigned n = 0;

	assert_non_null(proc);
	while ((d = readdir(proc))) {
		char path[300];
		DIR *task;
		struct dirent *t;
		int fd;

		if (d->d_name[0] < '0' || d->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/maps", d->d_name);
		fd = open(path, O_RDONLY);
		if (fd < 0 && errno == EACCES) {
			n++;
			continue;
		}
		if (fd >= 0)
			close(fd);
		snprintf(path, sizeof(path), "/proc/%s/task", d->d_name);
		task = opendir(path);
		if (!task)
			continue;
		while ((t = readdir(task)))
			n += t->d_name[0] >= '0' && t->d_name[0] <= '9';
		closedir(task);
	}
	closedir(proc);
	return n;
}

static void test_self(void **state)
{
	char path[256];
	struct bench_result res;
	struct bench_ctx ctx = {.repeat = 1};
	struct bench_synth_counts c;
	unsigned char *buf;
	size_t len;
	void *p;
	unsigned execs;

	tmp_name(path, sizeof(path));
	p = params("st", "iterations=3", NULL);
	assert_int_equal(bench_params_set(&bench_synthesize, p, "output", path), 0);
	assert_int_equal(bench_run(&bench_synthesize, p, &ctx, &res), 0);
	execs = exec_maps();
	assert_true(execs > 0);

	assert_true(bench_value_of(&res, "st_pid")->value == getpid());
	assert_true(bench_value_of(&res, "st_usec")->value > 0);
	assert_true(bench_value_of(&res, "st_usec_per_event")->value > 0);
	assert_true(bench_value_of(&res, "st_events")->value == 1 + execs);
	assert_true(bench_value_of(&res, "st_data_usec")->value > 0);
	assert_true(bench_value_of(&res, "st_data_events")->value >
		    bench_value_of(&res, "st_events")->value);
	assert_string_equal(bench_value_of(&res, "st_usec_per_event")->unit, "usec/event");
	assert_non_null(strstr(bench_value_of(&res, "st_usec")->label, "Average synthesis took: "));
	assert_non_null(
	    strstr(bench_value_of(&res, "st_data_usec")->label, "Average data synthesis took"));
	assert_non_null(strstr(bench_value_of(&res, "st_events")->label, "Average num. events: "));
	assert_non_null(
	    strstr(bench_value_of(&res, "st_usec_per_event")->label, "Average time per event "));
	for (size_t i = 0; i < res.nvalues; i++)
		assert_null(strstr(res.values[i].key, "mt_"));

	/* The stream: perf record's view of the process, no data maps, no FORK. */
	buf = slurp(path, &len);
	assert_int_equal(bench_synth_decode(buf, len, getpid(), &c), 0);
	assert_int_equal(c.attr, 1);
	assert_int_equal(c.comm, 1);
	assert_int_equal(c.pid_comm, 1);
	assert_int_equal(c.mmap2, execs);
	assert_int_equal(c.pid_mmap2, execs);
	assert_int_equal(c.fork, 0);
	assert_int_equal(c.other, 0);
	assert_int_equal(c.records, 2 + execs);
	/* Cut anywhere inside a record, the stream is refused, never overread. */
	for (size_t cut = 17; cut < len; cut += 8) {
		unsigned char *copy = malloc(cut);

		assert_non_null(copy);
		memcpy(copy, buf, cut);
		assert_int_equal(bench_synth_decode(copy, cut, 0, &c), -EINVAL);
		free(copy);
	}
	free(buf);
	unlink(path);
	bench_result_free(&res);
	free(p);
}

/* The note of res that contains what, or NULL. */
static const char *note_with(const struct bench_result *res, const char *what)
{
	for (size_t i = 0; i < res->nnotes; i++)
		if (strstr(res->notes[i], what))
			return res->notes[i];
	return NULL;
}

/*
 * The three ways of -s give the same records; each says how it read them:
 * held open (and what that skips of perf's work), reopened, or perf's file
 * work (status, the namespace check's /proc/self/status, maps: 3 opens).
 */
static void test_self_reopen(void **state)
{
	static const char *const says[] = {
	    "held open and re-read with pread",
	    "--reopen: comm and maps opened and closed every run",
	    "--like-perf: perf's file work, 3.0 opens per run",
	};
	unsigned execs = exec_maps();
	int fds = count_fds();

	for (int mode = 0; mode < 3; mode++) {
		struct bench_result res;
		struct bench_ctx ctx = {.repeat = 1};
		void *p = mode == 1   ? params("st", "iterations=3", "reopen", NULL)
			  : mode == 2 ? params("st", "iterations=3", "like-perf", NULL)
				      : params("st", "iterations=3", NULL);

		assert_int_equal(bench_run(&bench_synthesize, p, &ctx, &res), 0);
		assert_non_null(note_with(&res, says[mode]));
		assert_true(bench_value_of(&res, "st_usec")->samples == 3);
		assert_true(bench_value_of(&res, "st_events")->value == 1 + execs);
		assert_true(bench_value_of(&res, "st_data_events")->value > 1 + execs);
		assert_true(bench_value_of(&res, "st_data_usec_per_event")->value > 0);
		/* Every run read the same maps: no spread in the events. */
		assert_non_null(strstr(bench_value_of(&res, "st_events")->label, "(+- 0.000)"));
		/* The held descriptors are closed when the benchmark ends. */
		assert_int_equal(count_fds(), fds);
		bench_result_free(&res);
		free(p);
	}
}

static void test_machine(void **state)
{
	char path[256];
	struct bench_result res;
	struct bench_ctx ctx = {.repeat = 1};
	struct bench_synth_counts c;
	unsigned char *buf;
	size_t len;
	unsigned before, after, lo, hi, slack;
	void *p;

	tmp_name(path, sizeof(path));
	p = params("mt", "min-threads=1", "max-threads=2", "multi-iterations=1", NULL);
	assert_int_equal(bench_params_set(&bench_synthesize, p, "output", path), 0);
	before = count_tasks();
	assert_int_equal(bench_run(&bench_synthesize, p, &ctx, &res), 0);
	after = count_tasks();

	assert_true(bench_value_of(&res, "mt_processes")->value > 0);
	for (unsigned t = 1; t <= 2; t++) {
		char key[64];

		snprintf(key, sizeof(key), "mt_%u_threads", t);
		assert_true(bench_value_of(&res, key)->value == t);
		snprintf(key, sizeof(key), "mt_%u_usec", t);
		assert_true(bench_value_of(&res, key)->value > 0);
		snprintf(key, sizeof(key), "mt_%u_events", t);
		assert_true(bench_value_of(&res, key)->value > 0);
		snprintf(key, sizeof(key), "mt_%u_usec_per_event", t);
		assert_true(bench_value_of(&res, key)->value > 0);
	}
	for (size_t i = 0; i < res.nvalues; i++)
		assert_null(strstr(res.values[i].key, "st_"));

	buf = slurp(path, &len);
	assert_int_equal(bench_synth_decode(buf, len, getpid(), &c), 0);
	lo = before < after ? before : after;
	hi = before < after ? after : before;
	slack = 5 + hi / 20; /* threads that came and went around the run */
	print_message("tasks in /proc %u..%u, COMM records %llu\n", lo, hi,
		      (unsigned long long)c.comm);
	assert_in_range(c.comm, lo > slack ? lo - slack : 0, hi + slack);
	assert_int_equal(c.fork, c.comm);
	assert_true(c.mmap2 > 0);
	/* This very process was running: its main thread and maps are there. */
	assert_true(c.pid_comm >= 1);
	assert_true(c.pid_mmap2 >= 1);
	assert_int_equal(c.attr, 1);
	assert_int_equal(c.records, 1 + c.comm + c.fork + c.mmap2 + c.other);
	free(buf);
	unlink(path);
	bench_result_free(&res);
	free(p);
}

/*
 * A process whose maps the synthesizing user may not read: perf writes the
 * FORK and COMM of its main thread and nothing of its other threads (its
 * loop over task/ stops at the failed maps read). The process is a child
 * made non-dumpable, with three more threads; the benchmark runs in another
 * child, as nobody when the test runs as root (root may read any maps).
 */
static void test_unreadable_maps(void **state)
{
	struct bench_synth_counts c;
	char path[256], byte;
	unsigned char *buf;
	int sync[2], status;
	pid_t target, runner;
	size_t len;

	assert_int_equal(pipe(sync), 0);
	target = fork();
	assert_true(target >= 0);
	if (target == 0) {
		pthread_t t;

		prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
		for (int i = 0; i < 3; i++)
			if (pthread_create(&t, NULL, sleep_forever, NULL))
				_exit(1);
		if (write(sync[1], "x", 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	close(sync[1]);
	assert_int_equal(read(sync[0], &byte, 1), 1);
	close(sync[0]);
	tmp_name(path, sizeof(path));
	assert_int_equal(chmod(path, 0666), 0);

	runner = fork();
	assert_true(runner >= 0);
	if (runner == 0) {
		struct bench_result res;
		struct bench_ctx ctx = {.repeat = 1};
		char maps[64];
		void *p;
		int fd;

		if (geteuid() == 0 && (setgroups(0, NULL) || setgid(65534) || setuid(65534)))
			_exit(77);
		snprintf(maps, sizeof(maps), "/proc/%d/maps", (int)target);
		fd = open(maps, O_RDONLY);
		if (fd >= 0 || errno != EACCES)
			_exit(78);
		fd = open(path, O_WRONLY);
		if (fd < 0)
			_exit(79);
		close(fd);
		p = params("mt", "min-threads=1", "max-threads=1", "multi-iterations=1", NULL);
		if (bench_params_set(&bench_synthesize, p, "output", path))
			_exit(1);
		_exit(bench_run(&bench_synthesize, p, &ctx, &res) ? 1 : 0);
	}
	assert_int_equal(waitpid(runner, &status, 0), runner);
	reap(target);
	if (WIFEXITED(status) && WEXITSTATUS(status) >= 77) {
		unlink(path);
		if (WEXITSTATUS(status) == 77)
			SKIP("cannot become user nobody to run the benchmark");
		if (WEXITSTATUS(status) == 79)
			SKIP("user nobody cannot write the stream to %s", path);
		SKIP("the maps of a non-dumpable process are readable to this user");
	}
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	buf = slurp(path, &len);
	assert_int_equal(bench_synth_decode(buf, len, target, &c), 0);
	assert_int_equal(c.pid_fork, 1);
	assert_int_equal(c.pid_comm, 1);
	assert_int_equal(c.pid_mmap2, 0);
	free(buf);
	unlink(path);
}

static void put_rec(unsigned char *b, uint32_t type, uint16_t size)
{
	uint16_t misc = 0;

	memcpy(b, &type, 4);
	memcpy(b + 4, &misc, 2);
	memcpy(b + 6, &size, 2);
}

static void test_decode_malformed(void **state)
{
	unsigned char b[128];
	struct bench_synth_counts c;
	uint64_t sixteen = 16, eight = 8;

	memset(b, 0, sizeof(b));
	memcpy(b, "PERFILE2", 8);
	memcpy(b + 8, &sixteen, 8);
	assert_int_equal(bench_synth_decode(b, 16, 0, &c), 0);
	assert_int_equal(c.records, 0);
	assert_int_equal(bench_synth_decode(b, 15, 0, &c), -EINVAL);
	memcpy(b, "PERFILE1", 8);
	assert_int_equal(bench_synth_decode(b, 16, 0, &c), -EINVAL);
	memcpy(b, "PERFILE2", 8);
	memcpy(b + 8, &eight, 8);
	assert_int_equal(bench_synth_decode(b, 16, 0, &c), -EINVAL);
	memcpy(b + 8, &sixteen, 8);

	/* A record header cut short, a size of 0, a size past the end. */
	assert_int_equal(bench_synth_decode(b, 20, 0, &c), -EINVAL);
	put_rec(b + 16, 3 /* COMM */, 0);
	assert_int_equal(bench_synth_decode(b, 24, 0, &c), -EINVAL);
	put_rec(b + 16, 3, 40);
	assert_int_equal(bench_synth_decode(b, 48, 0, &c), -EINVAL);

	/* A COMM whose name runs to the end of the record without a NUL. */
	memset(b + 24, 'x', 24);
	put_rec(b + 16, 3, 32);
	assert_int_equal(bench_synth_decode(b, 48, 0, &c), -EINVAL);
	b[40] = '\0';
	assert_int_equal(bench_synth_decode(b, 48, 0, &c), 0);
	assert_int_equal(c.comm, 1);

	/* MMAP2 shorter than its fixed part, a FORK cut short. */
	put_rec(b + 16, 10 /* MMAP2 */, 32);
	assert_int_equal(bench_synth_decode(b, 48, 0, &c), -EINVAL);
	put_rec(b + 16, 7 /* FORK */, 24);
	assert_int_equal(bench_synth_decode(b, 40, 0, &c), -EINVAL);
	put_rec(b + 16, 7, 32);
	assert_int_equal(bench_synth_decode(b, 48, 0, &c), 0);
	assert_int_equal(c.fork, 1);

	/* An attr record smaller than the first attr layout. */
	put_rec(b + 16, 64 /* HEADER_ATTR */, 32);
	assert_int_equal(bench_synth_decode(b, 48, 0, &c), -EINVAL);
	/* Types it does not know are counted, not refused. */
	put_rec(b + 16, 82, 8);
	assert_int_equal(bench_synth_decode(b, 24, 0, &c), 0);
	assert_int_equal(c.other, 1);
}

static void test_bad_threads(void **state)
{
	struct bench_result res;
	struct bench_ctx ctx = {.repeat = 1};
	void *p = params("mt", "min-threads=3", "max-threads=2", NULL);

	assert_int_equal(bench_run(&bench_synthesize, p, &ctx, &res), -EINVAL);
	assert_non_null(strstr(res.message, "min-threads"));
	bench_result_free(&res);
	free(p);
	p = params("mt", "min-threads=1", "max-threads=1000", NULL);
	assert_int_equal(bench_run(&bench_synthesize, p, &ctx, &res), -E2BIG);
	bench_result_free(&res);
	free(p);
	p = bench_params_new(&bench_synthesize);
	assert_int_equal(bench_params_set(&bench_synthesize, p, "min-threads", "0"), -ERANGE);
	assert_int_equal(bench_params_set(&bench_synthesize, p, "iterations", "0"), -ERANGE);
	assert_int_equal(bench_params_set(&bench_synthesize, p, "output", ""), -EINVAL);
	free(p);
}

static void test_output_unwritable(void **state)
{
	struct bench_result res;
	struct bench_ctx ctx = {.repeat = 1};
	void *p = params("st", "iterations=1", "output=/proc/no-such-dir/x", NULL);

	assert_int_equal(bench_run(&bench_synthesize, p, &ctx, &res), -ENOENT);
	assert_non_null(strstr(res.message, "no-such-dir"));
	bench_result_free(&res);
	free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_self),
	    cmocka_unit_test(test_self_reopen),
	    cmocka_unit_test(test_machine),
	    cmocka_unit_test(test_decode_malformed),
	    cmocka_unit_test(test_bad_threads),
	    cmocka_unit_test(test_output_unwritable),
	    cmocka_unit_test(test_unreadable_maps),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
