// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_parse_stat.c: unit tests for proc_parse_stat() (src/proc/parse_stat.c).
 * Real /proc/PID/stat lines captured into tests/fixtures (a kernel thread, a
 * kworker whose name is longer than 15 bytes, a threaded process, a zombie, a
 * shell, a name with a space) are checked field by field; hand-made hostile
 * lines (names with ')', ") (", a newline, bytes that are not UTF-8, the
 * limits of every field, a 44-field line of an old kernel) must parse; and
 * malformed ones must fail with the exact error code. Every buffer is a heap
 * block of exactly the input's length, and every prefix of real lines is
 * tried, so an ASan build catches any read past len.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "fixture.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ptop/proc.h"

static char *exact(const char *s, size_t len)
{
	char *b = malloc(len);

	assert_non_null(b);
	memcpy(b, s, len);
	return b;
}

/* Parse s[0..len) from an exactly-sized copy; the copy is freed, so no views survive. */
static int parse_mem(const char *s, size_t len, struct proc_stat *st)
{
	char *b = exact(s, len);
	int err = proc_parse_stat(b, len, st);

	free(b);
	return err;
}

static int parse_str(const char *s, struct proc_stat *st)
{
	return parse_mem(s, strlen(s), st);
}

static void assert_view(struct ptop_view v, const char *want, size_t n)
{
	assert_int_equal(v.n, n);
	if (n)
		assert_memory_equal(v.p, want, n);
}

/* ---- real captures ---- */

static void test_shell_every_field(void **state)
{
	struct proc_stat st;
	size_t len;
	char *b = fixture_load("shell/proc/9791/stat", &len);

	assert_int_equal(proc_parse_stat(b, len, &st), 0);
	assert_int_equal(st.nfields, 52);
	assert_int_equal(st.pid, 9791);
	assert_view(st.comm, "bash", 4);
	assert_int_equal(st.state, 'S');
	assert_int_equal(st.ppid, 9787);
	assert_int_equal(st.pgrp, 9787);
	assert_int_equal(st.session, 8236);
	assert_int_equal(st.tty_nr, 0);
	assert_int_equal(st.tpgid, -1);
	assert_int_equal(st.flags, 4194304);
	assert_int_equal(st.minflt, 210);
	assert_int_equal(st.cminflt, 0);
	assert_int_equal(st.majflt, 1);
	assert_int_equal(st.cmajflt, 0);
	assert_int_equal(st.utime, 0);
	assert_int_equal(st.stime, 1);
	assert_int_equal(st.cutime, 0);
	assert_int_equal(st.cstime, 0);
	assert_int_equal(st.priority, 20);
	assert_int_equal(st.nice, 0);
	assert_int_equal(st.num_threads, 1);
	assert_int_equal(st.itrealvalue, 0);
	assert_int_equal(st.starttime, 203046);
	assert_int_equal(st.vsize, 4464640);
	assert_int_equal(st.rss, 785);
	assert_true(st.rsslim == UINT64_MAX);
	assert_true(st.startcode == 93869766885376ull);
	assert_true(st.endcode == 93869767674781ull);
	assert_true(st.startstack == 140736374935376ull);
	assert_int_equal(st.kstkesp, 0);
	assert_int_equal(st.kstkeip, 0);
	assert_int_equal(st.signal, 0);
	assert_int_equal(st.blocked, 65536);
	assert_int_equal(st.sigignore, 6);
	assert_int_equal(st.sigcatch, 65536);
	assert_int_equal(st.wchan, 1);
	assert_int_equal(st.nswap, 0);
	assert_int_equal(st.cnswap, 0);
	assert_int_equal(st.exit_signal, 17);
	assert_int_equal(st.processor, 0);
	assert_int_equal(st.rt_priority, 0);
	assert_int_equal(st.policy, 0);
	assert_int_equal(st.delayacct_blkio_ticks, 0);
	assert_int_equal(st.guest_time, 0);
	assert_int_equal(st.cguest_time, 0);
	assert_true(st.start_data == 93869767908080ull);
	assert_true(st.end_data == 93869767956324ull);
	assert_true(st.start_brk == 93869986746368ull);
	assert_true(st.arg_start == 140736374942142ull);
	assert_true(st.arg_end == 140736374942162ull);
	assert_true(st.env_start == 140736374942162ull);
	assert_true(st.env_end == 140736374943722ull);
	assert_int_equal(st.exit_code, 0);
	/* the view points into the caller's buffer, right after the '(' */
	assert_ptr_equal(st.comm.p, b + 6);
	free(b);
}

static void test_kthreadd(void **state)
{
	struct proc_stat st;
	size_t len;
	char *b = fixture_load("kthread/proc/2/stat", &len);

	assert_int_equal(proc_parse_stat(b, len, &st), 0);
	assert_int_equal(st.nfields, 52);
	assert_int_equal(st.pid, 2);
	assert_view(st.comm, "kthreadd", 8);
	assert_int_equal(st.state, 'S');
	assert_int_equal(st.ppid, 0);
	assert_int_equal(st.pgrp, 0);
	assert_int_equal(st.tpgid, -1);
	assert_int_equal(st.flags, 2129984);
	assert_int_equal(st.priority, 20);
	assert_int_equal(st.num_threads, 1);
	assert_int_equal(st.starttime, 20);
	assert_int_equal(st.vsize, 0);
	assert_int_equal(st.rss, 0);
	assert_true(st.rsslim == UINT64_MAX);
	assert_int_equal(st.sigignore, 2147483647);
	assert_int_equal(st.wchan, 1);
	assert_int_equal(st.exit_signal, 0);
	assert_int_equal(st.processor, 1);
	assert_int_equal(st.arg_start, 0);
	assert_int_equal(st.exit_code, 0);
	free(b);
}

static void test_kworker_long_name(void **state)
{
	struct proc_stat st;
	size_t len;
	char *b = fixture_load("kthread/proc/23/stat", &len);

	assert_int_equal(proc_parse_stat(b, len, &st), 0);
	assert_int_equal(st.pid, 23);
	/* workqueue names make comm longer than TASK_COMM_LEN - 1 */
	assert_view(st.comm, "kworker/1:0-events", 18);
	assert_int_equal(st.state, 'I');
	assert_int_equal(st.ppid, 2);
	assert_int_equal(st.flags, 69238880);
	assert_int_equal(st.utime, 0);
	assert_int_equal(st.stime, 45);
	assert_int_equal(st.sigignore, 2147483647);
	assert_int_equal(st.exit_signal, 17);
	assert_int_equal(st.processor, 1);
	assert_int_equal(st.nfields, 52);
	free(b);
}

static void test_threaded(void **state)
{
	struct proc_stat st;
	size_t len;
	char *b = fixture_load("threaded/proc/9789/stat", &len);

	assert_int_equal(proc_parse_stat(b, len, &st), 0);
	assert_int_equal(st.pid, 9789);
	assert_view(st.comm, "ptop-mt", 7);
	assert_int_equal(st.state, 'S');
	assert_int_equal(st.ppid, 9787);
	assert_int_equal(st.minflt, 117);
	assert_int_equal(st.num_threads, 4);
	assert_int_equal(st.starttime, 203045);
	assert_int_equal(st.vsize, 27713536);
	assert_int_equal(st.rss, 280);
	assert_int_equal(st.sigignore, 6);
	assert_int_equal(st.exit_signal, 17);
	assert_true(st.env_end == 140736071577582ull);
	free(b);
}

static void test_zombie(void **state)
{
	struct proc_stat st;
	size_t len;
	char *b = fixture_load("zombie/proc/9796/stat", &len);

	assert_int_equal(proc_parse_stat(b, len, &st), 0);
	assert_int_equal(st.pid, 9796);
	assert_view(st.comm, "sleep", 5);
	assert_int_equal(st.state, 'Z');
	assert_int_equal(st.ppid, 9790);
	assert_int_equal(st.pgrp, 9787);
	assert_int_equal(st.session, 8236);
	assert_int_equal(st.flags, 4227084);
	assert_int_equal(st.minflt, 95);
	assert_int_equal(st.majflt, 1);
	assert_int_equal(st.starttime, 203047);
	/* an exited task has no mm: no size, no addresses */
	assert_int_equal(st.vsize, 0);
	assert_int_equal(st.rss, 0);
	assert_int_equal(st.startcode, 0);
	assert_int_equal(st.env_end, 0);
	assert_int_equal(st.exit_signal, 17);
	free(b);

	/* its parent, which never reaps it */
	b = fixture_load("zombie/proc/9790/stat", &len);
	assert_int_equal(proc_parse_stat(b, len, &st), 0);
	assert_int_equal(st.pid, 9790);
	assert_view(st.comm, "sleep", 5);
	assert_int_equal(st.state, 'S');
	assert_int_equal(st.utime, 1);
	assert_int_equal(st.vsize, 2990080);
	assert_int_equal(st.rss, 425);
	free(b);
}

static void test_name_with_space(void **state)
{
	struct proc_stat st;
	size_t len;
	char *b = fixture_load("paths/proc/10029/stat", &len);

	assert_int_equal(proc_parse_stat(b, len, &st), 0);
	assert_int_equal(st.pid, 10029);
	assert_view(st.comm, "ptop mt", 7);
	assert_int_equal(st.state, 'S');
	assert_int_equal(st.ppid, 10024);
	assert_int_equal(st.num_threads, 4);
	assert_int_equal(st.rss, 280);
	free(b);
}

/* ---- hostile: hand-made, must parse ---- */

/* The fields after comm that make-hostile.sh writes for 100..104 and 106. */
static void assert_hostile_tail(const struct proc_stat *st)
{
	assert_int_equal(st->state, 'S');
	assert_int_equal(st->ppid, 1);
	assert_int_equal(st->pgrp, 100);
	assert_int_equal(st->tpgid, -1);
	assert_int_equal(st->utime, 7);
	assert_int_equal(st->stime, 3);
	assert_int_equal(st->vsize, 4464640);
	assert_int_equal(st->rss, 785);
	assert_int_equal(st->exit_signal, 17);
	assert_true(st->env_end == 140736374943722ull);
	assert_int_equal(st->nfields, 52);
}

static void test_hostile_names(void **state)
{
	static const struct {
		const char *rel;
		int64_t pid;
		const char *comm;
		size_t n;
	} cases[] = {
	    {"hostile/proc/100/stat", 100, "a b c", 5},
	    {"hostile/proc/101/stat", 101, "x) (y", 5},
	    {"hostile/proc/102/stat", 102, "a\nb", 3},
	    {"hostile/proc/103/stat", 103, "123456789012345", 15},
	    {"hostile/proc/104/stat", 104,
	     "\xff\xfe\x80"
	     "ab",
	     5},
	    {"hostile/proc/106/stat", 106, "", 0},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct proc_stat st;
		size_t len;
		char *b = fixture_load(cases[i].rel, &len);

		assert_int_equal(proc_parse_stat(b, len, &st), 0);
		assert_int_equal(st.pid, cases[i].pid);
		assert_view(st.comm, cases[i].comm, cases[i].n);
		assert_hostile_tail(&st);
		free(b);
	}
}

static void test_hostile_limits(void **state)
{
	struct proc_stat st;
	size_t len;
	char *b = fixture_load("hostile/proc/105/stat", &len);

	assert_int_equal(proc_parse_stat(b, len, &st), 0);
	assert_int_equal(st.pid, 105);
	assert_view(st.comm, ")", 1);
	assert_int_equal(st.state, 'R');
	assert_true(st.ppid == INT64_MIN);
	assert_true(st.pgrp == INT64_MAX);
	assert_int_equal(st.session, 0);
	assert_int_equal(st.tty_nr, -1);
	assert_int_equal(st.tpgid, -1);
	assert_true(st.flags == UINT64_MAX);
	assert_true(st.minflt == UINT64_MAX);
	assert_true(st.utime == UINT64_MAX);
	assert_true(st.stime == UINT64_MAX - 1);
	assert_true(st.cutime == INT64_MIN);
	assert_int_equal(st.cstime, -1);
	assert_int_equal(st.priority, -100);
	assert_int_equal(st.nice, -20);
	assert_true(st.num_threads == INT64_MAX);
	assert_true(st.starttime == UINT64_MAX);
	assert_true(st.vsize == UINT64_MAX);
	assert_true(st.rss == INT64_MAX);
	assert_true(st.rsslim == UINT64_MAX);
	assert_int_equal(st.exit_signal, -1);
	assert_int_equal(st.processor, INT32_MIN);
	assert_int_equal(st.rt_priority, 99);
	assert_int_equal(st.policy, 1);
	assert_true(st.cguest_time == INT64_MIN);
	assert_true(st.exit_code == -INT64_MAX);
	assert_int_equal(st.nfields, 52);
	free(b);
}

static void test_old_kernel_44_fields(void **state)
{
	struct proc_stat st;
	size_t len;
	char *b = fixture_load("hostile/proc/107/stat", &len);

	assert_int_equal(proc_parse_stat(b, len, &st), 0);
	assert_int_equal(st.nfields, 44);
	assert_view(st.comm, "old", 3);
	assert_int_equal(st.vsize, 12345);
	assert_int_equal(st.rss, 67);
	assert_int_equal(st.kstkeip, 5);
	assert_int_equal(st.exit_signal, 17);
	assert_int_equal(st.delayacct_blkio_ticks, 9);
	assert_int_equal(st.guest_time, 10);
	assert_int_equal(st.cguest_time, 11);
	/* fields the line did not hold read as 0 */
	assert_int_equal(st.start_data, 0);
	assert_int_equal(st.env_end, 0);
	assert_int_equal(st.exit_code, 0);
	free(b);
}

static void test_comm_raw_bytes(void **state)
{
	/* comm is a view of raw bytes: a NUL and a tab are kept as they are. */
	static const char line[] = "7 (a\0b\tc) S 1 1 1 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 5 6 7\n";
	struct proc_stat st;
	char *b = exact(line, sizeof(line) - 1);

	assert_int_equal(proc_parse_stat(b, sizeof(line) - 1, &st), 0);
	assert_view(st.comm, "a\0b\tc", 5);
	assert_int_equal(st.nfields, 24);
	assert_int_equal(st.rss, 7);
	free(b);
}

/* ---- malformed fixtures ---- */

static void test_malformed_fixtures(void **state)
{
	static const struct {
		const char *rel;
		int err;
	} cases[] = {
	    {"malformed/proc/200/stat", -EINVAL}, /* empty */
	    {"malformed/proc/201/stat", -EINVAL}, /* cut between fields */
	    {"malformed/proc/202/stat", -EINVAL}, /* cut inside a number */
	    {"malformed/proc/203/stat", -ERANGE}, /* vsize 2^64 */
	    {"malformed/proc/204/stat", -ERANGE}, /* ppid below INT64_MIN */
	    {"malformed/proc/205/stat", -EINVAL}, /* minflt negative */
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct proc_stat st;
		size_t len;
		char *b = fixture_load(cases[i].rel, &len);

		assert_int_equal(proc_parse_stat(b, len, &st), cases[i].err);
		free(b);
	}
}

/* ---- malformed lines built field by field ---- */

/* Fields 4..52 of the shell capture. */
static const char shell_fields[] =
    "9787 9787 8236 0 -1 4194304 210 0 1 0 0 1 0 0 20 0 1 0 203046 4464640 785 "
    "18446744073709551615 93869766885376 93869767674781 140736374935376 0 0 0 65536 6 "
    "65536 1 0 0 17 0 0 0 0 0 0 93869767908080 93869767956324 93869986746368 "
    "140736374942142 140736374942162 140736374942162 140736374943722 0";

/*
 * "head" then fields 4..last from shell_fields, with field `which` (4..52, or
 * 0 for none) replaced by val, and a newline. Returns the length.
 */
static size_t build(char *out, size_t cap, const char *head, unsigned last, unsigned which,
		    const char *val)
{
	char fields[sizeof(shell_fields)], *save = NULL, *tok;
	size_t n = (size_t)snprintf(out, cap, "%s", head);
	unsigned f = 4;

	memcpy(fields, shell_fields, sizeof(fields));
	for (tok = strtok_r(fields, " ", &save); tok && f <= last;
	     tok = strtok_r(NULL, " ", &save), f++)
		n += (size_t)snprintf(out + n, cap - n, " %s", f == which ? val : tok);
	assert_int_equal(f, last + 1);
	n += (size_t)snprintf(out + n, cap - n, "\n");
	assert_true(n < cap);
	return n;
}

/* Where field f (4..52) lands in struct proc_stat, and whether it is signed. */
static const struct {
	size_t off;
	bool is_signed;
} field_at[53] = {
#define S_(n, m) [n] = {offsetof(struct proc_stat, m), true}
#define U_(n, m) [n] = {offsetof(struct proc_stat, m), false}
    S_(4, ppid),	 S_(5, pgrp),	      S_(6, session),
    S_(7, tty_nr),	 S_(8, tpgid),	      U_(9, flags),
    U_(10, minflt),	 U_(11, cminflt),     U_(12, majflt),
    U_(13, cmajflt),	 U_(14, utime),	      U_(15, stime),
    S_(16, cutime),	 S_(17, cstime),      S_(18, priority),
    S_(19, nice),	 S_(20, num_threads), S_(21, itrealvalue),
    U_(22, starttime),	 U_(23, vsize),	      S_(24, rss),
    U_(25, rsslim),	 U_(26, startcode),   U_(27, endcode),
    U_(28, startstack),	 U_(29, kstkesp),     U_(30, kstkeip),
    U_(31, signal),	 U_(32, blocked),     U_(33, sigignore),
    U_(34, sigcatch),	 U_(35, wchan),	      U_(36, nswap),
    U_(37, cnswap),	 S_(38, exit_signal), S_(39, processor),
    U_(40, rt_priority), U_(41, policy),      U_(42, delayacct_blkio_ticks),
    U_(43, guest_time),	 S_(44, cguest_time), U_(45, start_data),
    U_(46, end_data),	 U_(47, start_brk),   U_(48, arg_start),
    U_(49, arg_end),	 U_(50, env_start),   U_(51, env_end),
    S_(52, exit_code),
#undef S_
#undef U_
};

static void test_every_field_limits(void **state)
{
	for (unsigned f = 4; f <= PROC_STAT_MAX_FIELDS; f++) {
		char line[1024];
		struct proc_stat st;
		size_t n;

		if (field_at[f].is_signed) {
			int64_t v;

			n = build(line, sizeof(line), "1 (x) S", 52, f, "-9223372036854775808");
			assert_int_equal(parse_mem(line, n, &st), 0);
			memcpy(&v, (char *)&st + field_at[f].off, sizeof(v));
			assert_true(v == INT64_MIN);
			n = build(line, sizeof(line), "1 (x) S", 52, f, "9223372036854775807");
			assert_int_equal(parse_mem(line, n, &st), 0);
			memcpy(&v, (char *)&st + field_at[f].off, sizeof(v));
			assert_true(v == INT64_MAX);
			n = build(line, sizeof(line), "1 (x) S", 52, f, "9223372036854775808");
			assert_int_equal(parse_mem(line, n, &st), -ERANGE);
			n = build(line, sizeof(line), "1 (x) S", 52, f, "-9223372036854775809");
			assert_int_equal(parse_mem(line, n, &st), -ERANGE);
		} else {
			uint64_t v;

			n = build(line, sizeof(line), "1 (x) S", 52, f, "18446744073709551615");
			assert_int_equal(parse_mem(line, n, &st), 0);
			memcpy(&v, (char *)&st + field_at[f].off, sizeof(v));
			assert_true(v == UINT64_MAX);
			n = build(line, sizeof(line), "1 (x) S", 52, f, "18446744073709551616");
			assert_int_equal(parse_mem(line, n, &st), -ERANGE);
			n = build(line, sizeof(line), "1 (x) S", 52, f, "-1");
			assert_int_equal(parse_mem(line, n, &st), -EINVAL);
		}
		/* not a number, in any field */
		n = build(line, sizeof(line), "1 (x) S", 52, f, "12a");
		assert_int_equal(parse_mem(line, n, &st), -EINVAL);
		n = build(line, sizeof(line), "1 (x) S", 52, f, "+1");
		assert_int_equal(parse_mem(line, n, &st), -EINVAL);
		n = build(line, sizeof(line), "1 (x) S", 52, f, "");
		assert_int_equal(parse_mem(line, n, &st), -EINVAL);
	}
}

static void test_field_count(void **state)
{
	char line[1024];
	struct proc_stat st;
	size_t n;

	/* at least 24 fields (through rss); each count from there to 52 parses */
	for (unsigned last = 3; last < PROC_STAT_MIN_FIELDS; last++) {
		n = build(line, sizeof(line), "1 (x) S", last, 0, NULL);
		assert_int_equal(parse_mem(line, n, &st), -EINVAL);
	}
	for (unsigned last = PROC_STAT_MIN_FIELDS; last <= PROC_STAT_MAX_FIELDS; last++) {
		n = build(line, sizeof(line), "1 (x) S", last, 0, NULL);
		assert_int_equal(parse_mem(line, n, &st), 0);
		assert_int_equal(st.nfields, last);
		assert_int_equal(st.rss, 785);
	}
}

static void test_malformed_lines(void **state)
{
	char line[1024];
	struct proc_stat st;
	size_t n;

	assert_int_equal(parse_str("", &st), -EINVAL);
	assert_int_equal(parse_str("\n", &st), -EINVAL);
	assert_int_equal(parse_str("1\n", &st), -EINVAL);
	assert_int_equal(parse_str("1 (x)\n", &st), -EINVAL);
	assert_int_equal(parse_str("1 (x) \n", &st), -EINVAL);
	assert_int_equal(parse_str("1 (x) S\n", &st), -EINVAL);
	assert_int_equal(parse_str("1 (x) S 1\n", &st), -EINVAL);

	/* the whole line without its newline: cut short */
	n = build(line, sizeof(line), "1 (x) S", 52, 0, NULL);
	assert_int_equal(parse_mem(line, n - 1, &st), -EINVAL);
	/* a well-formed line must parse, or the cases below prove nothing */
	assert_int_equal(parse_mem(line, n, &st), 0);

	n = build(line, sizeof(line), "(x) S", 52, 0, NULL); /* no pid */
	assert_int_equal(parse_mem(line, n, &st), -EINVAL);
	n = build(line, sizeof(line), "x (x) S", 52, 0, NULL);
	assert_int_equal(parse_mem(line, n, &st), -EINVAL);
	n = build(line, sizeof(line), "18446744073709551616 (x) S", 52, 0, NULL);
	assert_int_equal(parse_mem(line, n, &st), -ERANGE);
	n = build(line, sizeof(line), "1 x) S", 52, 0, NULL); /* no '(' */
	assert_int_equal(parse_mem(line, n, &st), -EINVAL);
	n = build(line, sizeof(line), "1 (x S", 52, 0, NULL); /* no ')' */
	assert_int_equal(parse_mem(line, n, &st), -EINVAL);
	n = build(line, sizeof(line), "1  (x) S", 52, 0, NULL);
	assert_int_equal(parse_mem(line, n, &st), -EINVAL);
	n = build(line, sizeof(line), "1(x) S", 52, 0, NULL);
	assert_int_equal(parse_mem(line, n, &st), -EINVAL);
	n = build(line, sizeof(line), "1 (x)S", 52, 0, NULL);
	assert_int_equal(parse_mem(line, n, &st), -EINVAL);
	n = build(line, sizeof(line), "1 (x) S ", 52, 0, NULL); /* two spaces */
	assert_int_equal(parse_mem(line, n, &st), -EINVAL);
	n = build(line, sizeof(line), "1 (x) SS", 52, 0, NULL);
	assert_int_equal(parse_mem(line, n, &st), -EINVAL);
	/*
	 * No state at all: when field 4 is one digit it must not be taken for
	 * the state, shifting every later field left by one.
	 */
	n = build(line, sizeof(line), "1 (x)", 52, 4, "0");
	assert_int_equal(parse_mem(line, n, &st), -EINVAL);
	n = build(line, sizeof(line), "1 (x)", 52, 0, NULL);
	assert_int_equal(parse_mem(line, n, &st), -EINVAL);
	n = build(line, sizeof(line), "1 (x)  ", 52, 0, NULL);
	assert_int_equal(parse_mem(line, n, &st), -EINVAL);

	/* a trailing space, a tab separator, a second line */
	n = build(line, sizeof(line), "1 (x) S", 52, 0, NULL);
	memcpy(line + n - 1, " \n", 3);
	assert_int_equal(parse_mem(line, n + 1, &st), -EINVAL);
	n = build(line, sizeof(line), "1 (x) S", 52, 0, NULL);
	*strchr(line + 8, ' ') = '\t';
	assert_int_equal(parse_mem(line, n, &st), -EINVAL);
	n = build(line, sizeof(line), "1 (x) S", 52, 0, NULL);
	memcpy(line + n, "1\n", 3);
	assert_int_equal(parse_mem(line, n + 2, &st), -EINVAL);
	/* a stray ')' after comm moves comm's end past real fields */
	n = build(line, sizeof(line), "1 (x) S", 52, 40, "9)");
	assert_int_equal(parse_mem(line, n, &st), -EINVAL);
}

/* Every prefix of a real line is cut short: -EINVAL, never a crash or an over-read. */
static void check_prefixes(const char *rel)
{
	struct proc_stat st;
	size_t len;
	char *full = fixture_load(rel, &len);

	for (size_t n = 0; n < len; n++)
		assert_int_equal(parse_mem(full, n, &st), -EINVAL);
	assert_int_equal(parse_mem(full, len, &st), 0);
	free(full);
}

static void test_every_prefix(void **state)
{
	check_prefixes("shell/proc/9791/stat");
	check_prefixes("kthread/proc/23/stat");
	check_prefixes("zombie/proc/9796/stat");
	check_prefixes("hostile/proc/101/stat");
	check_prefixes("hostile/proc/102/stat"); /* its first newline is inside comm */
	check_prefixes("hostile/proc/105/stat");
}

/* A kernel that prints fields past 52 must not make every process unreadable. */
static void test_newer_kernel_fields(void **state)
{
	char line[512];
	struct proc_stat st;
	int n;

	(void)state;
	n = snprintf(line, sizeof(line), "77 (new) R 1");
	for (int f = 5; f <= 52; f++)
		n += snprintf(line + n, sizeof(line) - (size_t)n, " %d", f == 52 ? 9 : 0);
	snprintf(line + n, sizeof(line) - (size_t)n, " 123 -4\n");
	assert_int_equal(parse_str(line, &st), 0);
	assert_int_equal(st.pid, 77);
	assert_int_equal(st.exit_code, 9);
	assert_int_equal(st.nfields, 54);
	/* ...but they are still numbers */
	snprintf(line + n, sizeof(line) - (size_t)n, " 123 x\n");
	assert_int_equal(parse_str(line, &st), -EINVAL);
	snprintf(line + n, sizeof(line) - (size_t)n, " 18446744073709551616\n");
	assert_int_equal(parse_str(line, &st), -ERANGE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_shell_every_field),
	    cmocka_unit_test(test_kthreadd),
	    cmocka_unit_test(test_kworker_long_name),
	    cmocka_unit_test(test_threaded),
	    cmocka_unit_test(test_zombie),
	    cmocka_unit_test(test_name_with_space),
	    cmocka_unit_test(test_hostile_names),
	    cmocka_unit_test(test_hostile_limits),
	    cmocka_unit_test(test_old_kernel_44_fields),
	    cmocka_unit_test(test_comm_raw_bytes),
	    cmocka_unit_test(test_malformed_fixtures),
	    cmocka_unit_test(test_every_field_limits),
	    cmocka_unit_test(test_field_count),
	    cmocka_unit_test(test_malformed_lines),
	    cmocka_unit_test(test_every_prefix),
	    cmocka_unit_test(test_newer_kernel_fields),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
