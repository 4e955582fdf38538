// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_breakpoints.c: unit tests for src/perf/breakpoints.c. perf_bp_parse()
 * on good and malformed PID:ADDR[:LEN[:TYPE]] specs; perf_bp_resolve() of
 * maps regions against a live child's /proc/PID/maps, a captured fixture and
 * a generated maps file longer than the resolver's read block; arming on a
 * child (four debug registers, then ENOSPC; bad alignment EINVAL; a gone
 * process ESRCH) through PERF_TYPE_BREAKPOINT events; and exact hit counts
 * for write, read/write and execute breakpoints on a forked child. Hit
 * counts need a machine that delivers debug exceptions: perf_bp_selftest()
 * says so, and where it does not those cases skip() with that reason.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "child.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ptop/perf.h"

#define N_HITS 1000

/* Watched in a forked child: the same addresses there as here. */
static volatile uint64_t watched;
static volatile uint64_t slots[8];

__attribute__((noinline)) static void target(void)
{
	__asm__ __volatile__("" ::: "memory");
}

static void (*volatile call_target)(void) = target;

/* ---- parsing ---- */

static void parses(const char *arg, int pid, uint64_t addr, const char *region, uint64_t offset,
		   int len, enum perf_bp_type type)
{
	struct perf_bp_spec s;

	if (perf_bp_parse(arg, &s))
		fail_msg("'%s' did not parse", arg);
	assert_int_equal(s.pid, pid);
	assert_int_equal(s.addr, addr);
	assert_string_equal(s.region, region);
	assert_int_equal(s.offset, offset);
	assert_int_equal(s.len, len);
	assert_int_equal(s.type, type);
}

static void test_parse_good(void **state)
{
	parses("42:0x7ffd1234", 42, 0x7ffd1234, "", 0, 4, PERF_BP_W);
	parses("42:7ffd1234", 42, 0x7ffd1234, "", 0, 4, PERF_BP_W);
	parses("42:0X7FFD1234", 42, 0x7ffd1234, "", 0, 4, PERF_BP_W);
	parses("1:0x10:1", 1, 0x10, "", 0, 1, PERF_BP_W);
	parses("1:0x10:2", 1, 0x10, "", 0, 2, PERF_BP_W);
	parses("1:0x10:4", 1, 0x10, "", 0, 4, PERF_BP_W);
	parses("1:0x10:8", 1, 0x10, "", 0, 8, PERF_BP_W);
	parses("1:0x10:4:r", 1, 0x10, "", 0, 4, PERF_BP_R);
	parses("1:0x10:4:w", 1, 0x10, "", 0, 4, PERF_BP_W);
	parses("1:0x10:8:rw", 1, 0x10, "", 0, 8, PERF_BP_RW);
	parses("1:0x10:8:x", 1, 0x10, "", 0, 8, PERF_BP_X);
	parses("99999:[heap]+0x40", 99999, 0, "[heap]", 0x40, 4, PERF_BP_W);
	parses("7:[stack]+10:8:rw", 7, 0, "[stack]", 0x10, 8, PERF_BP_RW);
	parses("7:[heap]+0", 7, 0, "[heap]", 0, 4, PERF_BP_W);
	parses("7:0xffffffffffffffff", 7, UINT64_MAX, "", 0, 4, PERF_BP_W);
	assert_string_equal(perf_bp_type_name(PERF_BP_R), "r");
	assert_string_equal(perf_bp_type_name(PERF_BP_W), "w");
	assert_string_equal(perf_bp_type_name(PERF_BP_RW), "rw");
	assert_string_equal(perf_bp_type_name(PERF_BP_X), "x");
}

/* A variable's name, alone or after its library's, as the user typed it. */
static void names(const char *arg, const char *region, const char *symbol, const char *label,
		  int len, bool len_set, enum perf_bp_type type)
{
	struct perf_bp_spec s;

	if (perf_bp_parse(arg, &s))
		fail_msg("'%s' did not parse", arg);
	assert_int_equal(s.pid, 42);
	assert_string_equal(s.region, region);
	assert_string_equal(s.symbol, symbol);
	assert_string_equal(s.label, label);
	assert_int_equal(s.len, len);
	assert_int_equal(s.len_set, len_set);
	assert_int_equal(s.type, type);
}

static void test_parse_names(void **state)
{
	names("42:zz", "", "zz", "zz", 4, false, PERF_BP_W);
	names("42:counter:8:rw", "", "counter", "counter", 8, true, PERF_BP_RW);
	names("42:libc.so.6:stdout", "libc.so.6", "stdout", "libc.so.6:stdout", 4, false,
	      PERF_BP_W);
	names("42:libc:stdout:2:r", "libc", "stdout", "libc:stdout", 2, true, PERF_BP_R);
	/* a library's own '+' is not an offset */
	names("42:libstdc++.so.6:x", "libstdc++.so.6", "x", "libstdc++.so.6:x", 4, false,
	      PERF_BP_W);
	names("42:_ZN3foo3barE", "", "_ZN3foo3barE", "_ZN3foo3barE", 4, false, PERF_BP_W);
	names("42:prog+0x4010", "prog", "", "prog+0x4010", 4, false, PERF_BP_W);
	names("42:[heap]+0x40", "[heap]", "", "[heap]+0x40", 4, false, PERF_BP_W);
	names("42:0x10", "", "", "", 4, false, PERF_BP_W);
}

static void test_parse_bad(void **state)
{
	static const char *const bad[] = {
	    "",
	    "42",
	    "0:0x10",
	    "-1:0x10",
	    "x:0x10",
	    "42:",
	    "42:0x",
	    "42:lib:",
	    "42:lib:9zz",
	    "42:a b",
	    "42:count-er",
	    "42:0x10zz",
	    "42:0x10 ",
	    "42:0x10:3",
	    "42:0x10:16",
	    "42:0x10:",
	    "42:0x10::w",
	    "42:0x10:4:q",
	    "42:0x10:4:",
	    "42:0x10:4:wx",
	    "42:0x10:4:w:x",
	    "42:+0x40",
	    "42:[heap]+",
	    "42:[heap]+zz",
	    "42:0x10000000000000000",
	    "4294967296:0x10",
	    " 42:0x10",
	    "+42:0x10",
	};
	struct perf_bp_spec s;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (perf_bp_parse(bad[i], &s) != -EINVAL)
			fail_msg("'%s' parsed", bad[i]);
}

/* ---- resolving regions ---- */

/* The start and end of region in /proc/pid/maps, read independently of ptop. */
static void region_of(int pid, const char *region, uint64_t *start, uint64_t *end)
{
	char path[64], line[512];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	f = fopen(path, "r");
	assert_non_null(f);
	*start = *end = 0;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long s, e;
		char name[256] = "";

		if (sscanf(line, "%llx-%llx %*s %*s %*s %*s %255s", &s, &e, name) >= 2 &&
		    !strcmp(name, region)) {
			*start = s;
			*end = e;
			break;
		}
	}
	fclose(f);
	if (!*start)
		fail_msg("no %s in %s", region, path);
}

/* A child with a [heap] (it grows its break), says so on a pipe, and waits to be killed. */
static pid_t spawn_idle(void)
{
	int p[2];
	char c;
	pid_t pid;

	assert_int_equal(pipe(p), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		/* Grow the break itself: a sanitizer's malloc maps its memory elsewhere,
		 * and only brk makes [heap]. */
		char *volatile mem = sbrk(4096);

		alarm(20);
		if (mem == (void *)-1)
			_exit(1);
		mem[0] = 1;
		close(p[0]);
		if (write(p[1], "r", 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	close(p[1]);
	assert_int_equal(read(p[0], &c, 1), 1);
	close(p[0]);
	return pid;
}

static void test_resolve_live(void **state)
{
	pid_t child = spawn_idle();
	struct perf_bp_spec s;
	uint64_t start, end;
	char arg[64];

	region_of(child, "[heap]", &start, &end);
	snprintf(arg, sizeof(arg), "%d:[heap]+0x40", (int)child);
	assert_int_equal(perf_bp_parse(arg, &s), 0);
	assert_int_equal(perf_bp_resolve(&s, NULL), 0);
	assert_int_equal(s.addr, start + 0x40);

	region_of(child, "[stack]", &start, &end);
	snprintf(arg, sizeof(arg), "%d:[stack]+0x0:8", (int)child);
	assert_int_equal(perf_bp_parse(arg, &s), 0);
	assert_int_equal(perf_bp_resolve(&s, NULL), 0);
	assert_int_equal(s.addr, start);

	/* the last byte of the region is in it; one past is not */
	snprintf(arg, sizeof(arg), "%d:[stack]+%llx", (int)child,
		 (unsigned long long)(end - start - 1));
	assert_int_equal(perf_bp_parse(arg, &s), 0);
	assert_int_equal(perf_bp_resolve(&s, NULL), 0);
	assert_int_equal(s.addr, end - 1);
	snprintf(arg, sizeof(arg), "%d:[stack]+%llx", (int)child,
		 (unsigned long long)(end - start));
	assert_int_equal(perf_bp_parse(arg, &s), 0);
	assert_int_equal(perf_bp_resolve(&s, NULL), -EFAULT);

	snprintf(arg, sizeof(arg), "%d:[nosuch]+0x10", (int)child);
	assert_int_equal(perf_bp_parse(arg, &s), 0);
	assert_int_equal(perf_bp_resolve(&s, NULL), -ENOENT);

	/* a plain address needs no resolving */
	snprintf(arg, sizeof(arg), "%d:0x1234", (int)child);
	assert_int_equal(perf_bp_parse(arg, &s), 0);
	assert_int_equal(perf_bp_resolve(&s, NULL), 0);
	assert_int_equal(s.addr, 0x1234);

	reap(child);
	snprintf(arg, sizeof(arg), "%d:[heap]+0x40", (int)child);
	assert_int_equal(perf_bp_parse(arg, &s), 0);
	assert_int_equal(perf_bp_resolve(&s, NULL), -ESRCH);
}

static void test_resolve_fixture(void **state)
{
	struct perf_bp_spec s;

	assert_int_equal(perf_bp_parse("9791:[stack]+0x10", &s), 0);
	assert_int_equal(perf_bp_resolve(&s, FIXTURES "/shell/proc"), 0);
	assert_int_equal(s.addr, 0x7fffbda0a010);
	assert_int_equal(perf_bp_parse("9791:[heap]+0x40", &s), 0);
	assert_int_equal(perf_bp_resolve(&s, FIXTURES "/shell/proc"), 0);
	assert_int_equal(s.addr, 0x555fcf371040);
	assert_int_equal(perf_bp_parse("9791:[vdso]+0", &s), 0);
	assert_int_equal(perf_bp_resolve(&s, FIXTURES "/shell/proc"), 0);
	assert_int_equal(s.addr, 0x7f7031fde000);
	assert_int_equal(perf_bp_parse("4242:[heap]+0x40", &s), 0);
	assert_int_equal(perf_bp_resolve(&s, FIXTURES "/shell/proc"), -ESRCH);
}

/* A maps file far longer than one read block, the region last, lines of every width. */
static void test_resolve_long_maps(void **state)
{
	const char *tmpdir = getenv("TMPDIR");
	char root[512], dir[600], path[640];
	struct perf_bp_spec s;
	FILE *f;

	snprintf(root, sizeof(root), "%s/ptop-bp-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
	assert_non_null(mkdtemp(root));
	snprintf(dir, sizeof(dir), "%s/4242", root);
	assert_int_equal(mkdir(dir, 0700), 0);
	snprintf(path, sizeof(path), "%s/maps", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	for (int i = 0; i < 600; i++)
		fprintf(f,
			"7f%010x-7f%010x r-xp 00001000 08:01 %d                      "
			"/usr/lib/libpad%0*d.so%s\n",
			i * 0x1000, i * 0x1000 + 0x1000, 1000 + i, i % 37 + 1, i,
			i % 5 ? "" : " (deleted)");
	fprintf(f, "7ffff7fc1000-7ffff7fc3000 r-xp 00000000 00:00 0                          "
		   "[vdso]\n");
	/* the last line has no newline, as a file cut at the end may not */
	fprintf(f, "7ffffffde000-7ffffffff000 rw-p 00000000 00:00 0                          "
		   "[stack]");
	assert_int_equal(fclose(f), 0);

	assert_int_equal(perf_bp_parse("4242:[stack]+0x20", &s), 0);
	assert_int_equal(perf_bp_resolve(&s, root), 0);
	assert_int_equal(s.addr, 0x7ffffffde020);
	assert_int_equal(perf_bp_parse("4242:[vdso]+0x8", &s), 0);
	assert_int_equal(perf_bp_resolve(&s, root), 0);
	assert_int_equal(s.addr, 0x7ffff7fc1008);
	assert_int_equal(perf_bp_parse("4242:[heap]+0x8", &s), 0);
	assert_int_equal(perf_bp_resolve(&s, root), -ENOENT);

	unlink(path);
	rmdir(dir);
	rmdir(root);
}

/* ---- arming ---- */

static struct perf_bp_spec spec_at(int pid, const volatile void *addr, int len,
				   enum perf_bp_type type)
{
	struct perf_bp_spec s = {.pid = pid, .addr = (uintptr_t)addr, .len = len, .type = type};

	return s;
}

static int arm_or_skip(struct perf_bp *bp, const struct perf_bp_spec *s)
{
	int err = perf_bp_arm(bp, s, NULL);

	if (err == -ENODEV || err == -EOPNOTSUPP)
		SKIP("hardware breakpoints are not supported here (%s)", strerror(-err));
	if (err == -EACCES || err == -EPERM)
		SKIP("breakpoints refused (perf_event_paranoid): %s", strerror(-err));
	return err;
}

static void test_arm_four_then_enospc(void **state)
{
	pid_t child = spawn_idle();
	struct perf_bp bp[5];
	struct perf_bp_spec s;
	const char *msg;

	for (int i = 0; i < 4; i++) {
		s = spec_at(child, &slots[i], 8, PERF_BP_W);
		assert_int_equal(arm_or_skip(&bp[i], &s), 0);
		assert_int_equal(bp[i].nfds, 1);
		assert_int_equal(bp[i].spec.addr, (uintptr_t)&slots[i]);
		assert_int_equal(perf_bp_read(&bp[i], 1.0), 0);
		assert_int_equal(bp[i].hits, 0); /* the child sleeps */
	}
	s = spec_at(child, &slots[4], 8, PERF_BP_W);
	assert_int_equal(perf_bp_arm(&bp[4], &s, NULL), -ENOSPC);
	assert_int_equal(bp[4].nfds, 0);
	assert_null(bp[4].fds);
	msg = perf_bp_strerror(-ENOSPC);
	assert_non_null(strstr(msg, "four"));

	/* freeing one register makes room again */
	perf_bp_disarm(&bp[0]);
	assert_int_equal(perf_bp_arm(&bp[4], &s, NULL), 0);
	for (int i = 1; i < 5; i++)
		perf_bp_disarm(&bp[i]);
	reap(child);
}

static void test_arm_errors(void **state)
{
	pid_t child = spawn_idle();
	struct perf_bp bp;
	struct perf_bp_spec s;

	/* an odd address cannot hold an 8-byte watchpoint */
	s = spec_at(child, (const volatile char *)&slots[0] + 1, 8, PERF_BP_W);
	assert_int_equal(arm_or_skip(&bp, &s), -EINVAL);
	assert_int_equal(bp.nfds, 0);
	/* a region the process does not have */
	assert_int_equal(perf_bp_parse("1:[nosuch]+0", &s), 0);
	s.pid = child;
	assert_int_equal(perf_bp_arm(&bp, &s, NULL), -ENOENT);
#if defined(__x86_64__) || defined(__i386__)
	/* x86 debug registers have no read-only condition: the kernel says EINVAL */
	s = spec_at(child, &slots[0], 8, PERF_BP_R);
	assert_int_equal(perf_bp_arm(&bp, &s, NULL), -EINVAL);
	/* an execute breakpoint is sizeof(long) long on x86 */
	s = spec_at(child, (const volatile void *)(uintptr_t)target, 4, PERF_BP_X);
	assert_int_equal(perf_bp_arm(&bp, &s, NULL), -EINVAL);
#endif
	reap(child);

	s = spec_at(gone_pid(), &slots[0], 8, PERF_BP_W);
	assert_int_equal(perf_bp_arm(&bp, &s, NULL), -ESRCH);
	assert_int_equal(bp.nfds, 0);

	/* every error a user can meet has its own sentence */
	{
		static const int errs[] = {-ENOSPC, -EINVAL, -ESRCH, -EACCES, -ENOENT, -ENODEV};
		const size_t n = sizeof(errs) / sizeof(errs[0]);

		for (size_t i = 0; i < n; i++)
			for (size_t j = i + 1; j < n; j++)
				assert_string_not_equal(perf_bp_strerror(errs[i]),
							perf_bp_strerror(errs[j]));
		assert_non_null(strstr(perf_bp_strerror(-EINVAL), "alignment"));
		assert_string_equal(perf_bp_strerror(-EPERM), perf_bp_strerror(-EACCES));
	}
}

static void test_selftest_answers(void **state)
{
	int err = perf_bp_selftest();

	/* 0 (hits delivered), -EOPNOTSUPP (armed, never hit) or why it could not arm */
	assert_true(err <= 0);
	if (err && err != -EOPNOTSUPP)
		SKIP("breakpoints cannot be armed here: %s", strerror(-err));
	assert_int_equal(perf_bp_selftest(), err); /* the machine does not change its mind */
}

/* ---- hits ---- */

static void need_hits(void)
{
	int err = perf_bp_selftest();

	if (err == -EOPNOTSUPP)
		SKIP("this machine delivers no breakpoint hits (hypervisor)");
	if (err)
		SKIP("breakpoints cannot be armed here: %s", strerror(-err));
}

enum work { WORK_WRITE, WORK_READ_WRITE, WORK_CALL };

/*
 * Fork a child that waits for "go" on a pipe, does its work N_HITS times,
 * says "done", and waits to be killed; arm spec on it in between.
 */
static uint64_t hits_for(enum work work, const volatile void *addr, int len, enum perf_bp_type type)
{
	int go[2], done[2];
	struct perf_bp bp;
	struct perf_bp_spec s;
	uint64_t hits;
	pid_t pid;
	char c;

	assert_int_equal(pipe(go), 0);
	assert_int_equal(pipe(done), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		volatile uint64_t sink = 0;

		alarm(20);
		if (read(go[0], &c, 1) != 1)
			_exit(1);
		for (int i = 0; i < N_HITS; i++) {
			switch (work) {
			case WORK_WRITE:
				watched = (uint64_t)i;
				break;
			case WORK_READ_WRITE:
				watched = (uint64_t)i; /* one write */
				sink = watched;	       /* one read */
				break;
			case WORK_CALL:
				call_target();
				break;
			}
		}
		(void)sink;
		if (write(done[1], "d", 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	s = spec_at(pid, addr, len, type);
	assert_int_equal(perf_bp_arm(&bp, &s, NULL), 0);
	assert_int_equal(write(go[1], "g", 1), 1);
	assert_int_equal(read(done[0], &c, 1), 1);
	assert_int_equal(perf_bp_read(&bp, 1.0), 0);
	hits = bp.hits;
	assert_float_equal(bp.hits_per_s, (double)hits, 0);
	perf_bp_disarm(&bp);
	reap(pid);
	close(go[0]);
	close(go[1]);
	close(done[0]);
	close(done[1]);
	return hits;
}

static void test_hits_write(void **state)
{
	need_hits();
	assert_int_equal(hits_for(WORK_WRITE, &watched, 8, PERF_BP_W), N_HITS);
}

static void test_hits_read_write(void **state)
{
	need_hits();
	assert_int_equal(hits_for(WORK_READ_WRITE, &watched, 8, PERF_BP_RW), 2 * N_HITS);
	/* a write-only watchpoint does not see the reads */
	assert_int_equal(hits_for(WORK_READ_WRITE, &watched, 8, PERF_BP_W), N_HITS);
}

static void test_hits_exec(void **state)
{
	need_hits();
	assert_int_equal(hits_for(WORK_CALL, (const volatile void *)(uintptr_t)target,
				  (int)sizeof(long), PERF_BP_X),
			 N_HITS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_parse_good),
	    cmocka_unit_test(test_parse_names),
	    cmocka_unit_test(test_parse_bad),
	    cmocka_unit_test(test_resolve_live),
	    cmocka_unit_test(test_resolve_fixture),
	    cmocka_unit_test(test_resolve_long_maps),
	    cmocka_unit_test(test_arm_four_then_enospc),
	    cmocka_unit_test(test_arm_errors),
	    cmocka_unit_test(test_selftest_answers),
	    cmocka_unit_test(test_hits_write),
	    cmocka_unit_test(test_hits_read_write),
	    cmocka_unit_test(test_hits_exec),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
