// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_parse_status.c: unit tests for proc_parse_status()
 * (src/proc/parse_status.c). Real /proc/PID/status captures in tests/fixtures
 * are checked line by line: a shell and a threaded process with every Vm and
 * Rss line, kernel threads and a zombie that have none (so `have` must say
 * so), a name with a space. Hand-made ones cover names as the kernel escapes
 * them, bytes that are not UTF-8, the limits of each type and an old kernel
 * without Rss lines. Malformed input (a missing required line, a bad unit, too
 * few ids, overflow, a cut) must fail with the exact error code, and every
 * prefix of a real file is parsed from a buffer of exactly its length.
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

#define HAVE_ALL                                                                                   \
	(PROC_STATUS_VMSIZE | PROC_STATUS_VMRSS | PROC_STATUS_RSSANON | PROC_STATUS_RSSFILE |      \
	 PROC_STATUS_RSSSHMEM | PROC_STATUS_VMSWAP | PROC_STATUS_CTXT | PROC_STATUS_GROUPS |       \
	 PROC_STATUS_VMLCK | PROC_STATUS_NSPID)

/* Parse from an exactly-sized copy that is freed: only numbers may be checked after. */
static int parse_mem(const char *s, size_t len, struct proc_status *ps)
{
	char *b = malloc(len);
	int err;

	assert_non_null(b);
	memcpy(b, s, len);
	err = proc_parse_status(b, len, ps);
	free(b);
	return err;
}

static int parse_str(const char *s, struct proc_status *ps)
{
	return parse_mem(s, strlen(s), ps);
}

static void assert_view(struct ptop_view v, const char *want, size_t n)
{
	assert_int_equal(v.n, n);
	if (n)
		assert_memory_equal(v.p, want, n);
}

static void assert_ids(const uint32_t *ids, uint32_t a, uint32_t b, uint32_t c, uint32_t d)
{
	assert_int_equal(ids[0], a);
	assert_int_equal(ids[1], b);
	assert_int_equal(ids[2], c);
	assert_int_equal(ids[3], d);
}

/* ---- real captures ---- */

static void test_shell(void **state)
{
	struct proc_status ps;
	size_t len;
	char *b = fixture_load("shell/proc/9791/status", &len);

	assert_int_equal(proc_parse_status(b, len, &ps), 0);
	assert_view(ps.name, "bash", 4);
	assert_ptr_equal(ps.name.p, b + 6);
	assert_int_equal(ps.state, 'S');
	assert_int_equal(ps.tgid, 9791);
	assert_int_equal(ps.pid, 9791);
	assert_int_equal(ps.ppid, 9787);
	assert_ids(ps.uid, 0, 0, 0, 0);
	assert_ids(ps.gid, 0, 0, 0, 0);
	assert_int_equal(ps.threads, 1);
	assert_int_equal(ps.have, HAVE_ALL);
	assert_int_equal(ps.vm_size, 4360);
	assert_int_equal(ps.vm_rss, 3160);
	assert_int_equal(ps.rss_anon, 276);
	assert_int_equal(ps.rss_file, 2884);
	assert_int_equal(ps.rss_shmem, 0);
	assert_int_equal(ps.vm_swap, 0);
	assert_int_equal(ps.voluntary_ctxt, 2);
	assert_int_equal(ps.nonvoluntary_ctxt, 4);
	free(b);
}

static void test_threaded(void **state)
{
	struct proc_status ps;
	size_t len;
	char *b = fixture_load("threaded/proc/9789/status", &len);

	assert_int_equal(proc_parse_status(b, len, &ps), 0);
	assert_view(ps.name, "ptop-mt", 7);
	assert_int_equal(ps.state, 'S');
	assert_int_equal(ps.tgid, 9789);
	assert_int_equal(ps.pid, 9789);
	assert_int_equal(ps.ppid, 9787);
	assert_int_equal(ps.threads, 4);
	assert_int_equal(ps.have, HAVE_ALL);
	assert_int_equal(ps.vm_size, 27064);
	assert_int_equal(ps.vm_rss, 1240);
	assert_int_equal(ps.rss_anon, 120);
	assert_int_equal(ps.rss_file, 1120);
	assert_int_equal(ps.rss_shmem, 0);
	assert_int_equal(ps.vm_swap, 0);
	assert_int_equal(ps.voluntary_ctxt, 1);
	assert_int_equal(ps.nonvoluntary_ctxt, 3);
	free(b);
}

static void test_kernel_threads(void **state)
{
	struct proc_status ps;
	size_t len;
	char *b = fixture_load("kthread/proc/2/status", &len);

	assert_int_equal(proc_parse_status(b, len, &ps), 0);
	assert_view(ps.name, "kthreadd", 8);
	assert_int_equal(ps.state, 'S');
	assert_int_equal(ps.tgid, 2);
	assert_int_equal(ps.pid, 2);
	assert_int_equal(ps.ppid, 0);
	assert_int_equal(ps.threads, 1);
	/* no mm: no Vm or Rss lines, and the flags must say so */
	assert_int_equal(ps.have, PROC_STATUS_CTXT | PROC_STATUS_GROUPS | PROC_STATUS_NSPID);
	assert_int_equal(ps.vm_size, 0);
	assert_int_equal(ps.vm_rss, 0);
	assert_int_equal(ps.voluntary_ctxt, 58);
	assert_int_equal(ps.nonvoluntary_ctxt, 0);
	free(b);

	b = fixture_load("kthread/proc/23/status", &len);
	assert_int_equal(proc_parse_status(b, len, &ps), 0);
	assert_view(ps.name, "kworker/1:0-events", 18);
	assert_int_equal(ps.state, 'I');
	assert_int_equal(ps.pid, 23);
	assert_int_equal(ps.ppid, 2);
	assert_int_equal(ps.have, PROC_STATUS_CTXT | PROC_STATUS_GROUPS | PROC_STATUS_NSPID);
	assert_int_equal(ps.voluntary_ctxt, 6451);
	assert_int_equal(ps.nonvoluntary_ctxt, 485);
	free(b);
}

static void test_zombie(void **state)
{
	struct proc_status ps;
	size_t len;
	char *b = fixture_load("zombie/proc/9796/status", &len);

	assert_int_equal(proc_parse_status(b, len, &ps), 0);
	assert_view(ps.name, "sleep", 5);
	assert_int_equal(ps.state, 'Z');
	assert_int_equal(ps.tgid, 9796);
	assert_int_equal(ps.pid, 9796);
	assert_int_equal(ps.ppid, 9790);
	assert_int_equal(ps.threads, 1);
	assert_int_equal(ps.have, PROC_STATUS_CTXT | PROC_STATUS_GROUPS | PROC_STATUS_NSPID);
	assert_int_equal(ps.voluntary_ctxt, 3);
	assert_int_equal(ps.nonvoluntary_ctxt, 2);
	free(b);

	b = fixture_load("zombie/proc/9790/status", &len);
	assert_int_equal(proc_parse_status(b, len, &ps), 0);
	assert_int_equal(ps.state, 'S');
	assert_int_equal(ps.pid, 9790);
	assert_int_equal(ps.have, HAVE_ALL);
	assert_int_equal(ps.vm_size, 2920);
	assert_int_equal(ps.vm_rss, 1812);
	assert_int_equal(ps.rss_anon, 112);
	assert_int_equal(ps.rss_file, 1700);
	free(b);
}

static void test_name_with_space(void **state)
{
	struct proc_status ps;
	size_t len;
	char *b = fixture_load("paths/proc/10029/status", &len);

	assert_int_equal(proc_parse_status(b, len, &ps), 0);
	assert_view(ps.name, "ptop mt", 7);
	assert_int_equal(ps.pid, 10029);
	assert_int_equal(ps.ppid, 10024);
	assert_int_equal(ps.threads, 4);
	assert_int_equal(ps.vm_rss, 1244);
	assert_int_equal(ps.rss_anon, 124);
	free(b);
}

/* ---- hostile ---- */

static void test_hostile_names(void **state)
{
	static const struct {
		const char *rel;
		int64_t pid;
		const char *name;
		size_t n;
	} cases[] = {
	    {"hostile/proc/100/status", 100, "a b c", 5},
	    {"hostile/proc/101/status", 101, "x) (y", 5},
	    /* the kernel escapes the newline: a backslash and an 'n' */
	    {"hostile/proc/102/status", 102, "a\\nb", 4},
	    {"hostile/proc/103/status", 103, "123456789012345", 15},
	    {"hostile/proc/104/status", 104,
	     "\xff\xfe\x80"
	     "ab",
	     5},
	    {"hostile/proc/106/status", 106, "", 0},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct proc_status ps;
		size_t len;
		char *b = fixture_load(cases[i].rel, &len);

		assert_int_equal(proc_parse_status(b, len, &ps), 0);
		assert_view(ps.name, cases[i].name, cases[i].n);
		assert_int_equal(ps.tgid, cases[i].pid);
		assert_int_equal(ps.pid, cases[i].pid);
		assert_int_equal(ps.ppid, 1);
		assert_ids(ps.uid, 1000, 1000, 1000, 1000);
		assert_ids(ps.gid, 1000, 1000, 1000, 1000);
		assert_int_equal(ps.threads, 1);
		/* written without a VmLck or an NSpid line */
		assert_int_equal(ps.have, HAVE_ALL & ~(PROC_STATUS_VMLCK | PROC_STATUS_NSPID));
		assert_int_equal(ps.vm_rss, 3160);
		assert_int_equal(ps.nonvoluntary_ctxt, 4);
		free(b);
	}
}

static void test_hostile_limits(void **state)
{
	struct proc_status ps;
	size_t len;
	char *b = fixture_load("hostile/proc/105/status", &len);

	assert_int_equal(proc_parse_status(b, len, &ps), 0);
	assert_view(ps.name, ")", 1);
	assert_int_equal(ps.state, 'R');
	assert_int_equal(ps.tgid, -1);
	assert_true(ps.pid == INT64_MAX);
	assert_true(ps.ppid == INT64_MIN);
	assert_ids(ps.uid, UINT32_MAX, 0, UINT32_MAX, 0);
	assert_ids(ps.gid, 0, UINT32_MAX, 0, UINT32_MAX);
	assert_true(ps.vm_size == UINT64_MAX);
	assert_int_equal(ps.vm_rss, 0);
	assert_true(ps.threads == UINT64_MAX);
	assert_true(ps.voluntary_ctxt == UINT64_MAX);
	assert_int_equal(ps.nonvoluntary_ctxt, 0);
	assert_int_equal(ps.have, PROC_STATUS_VMSIZE | PROC_STATUS_VMRSS | PROC_STATUS_CTXT);
	free(b);
}

static void test_old_kernel(void **state)
{
	struct proc_status ps;
	size_t len;
	char *b = fixture_load("hostile/proc/107/status", &len);

	assert_int_equal(proc_parse_status(b, len, &ps), 0);
	assert_view(ps.name, "old", 3);
	assert_int_equal(ps.have, PROC_STATUS_VMSIZE | PROC_STATUS_VMRSS);
	assert_int_equal(ps.vm_size, 12060);
	assert_int_equal(ps.vm_rss, 268);
	assert_int_equal(ps.rss_anon, 0);
	assert_int_equal(ps.voluntary_ctxt, 0);
	free(b);
}

/* ---- hand-written lines ---- */

/* rel's status parsed into ps, as the parser returns; its bytes, which ps's views point into,
 * in *b for the caller to free. */
static int parse_fixture(const char *rel, struct proc_status *ps, char **b)
{
	size_t len;

	*b = fixture_load(rel, &len);
	return proc_parse_status(*b, len, ps);
}

/* Exactly the required lines. */
static const char minimal[] = "Name:\tsh\n"
			      "State:\tD (disk sleep)\n"
			      "Tgid:\t42\n"
			      "Pid:\t43\n"
			      "PPid:\t1\n"
			      "Uid:\t1000\t1001\t1002\t1003\n"
			      "Gid:\t100\t101\t102\t103\n"
			      "Threads:\t3\n";

static void test_minimal(void **state)
{
	struct proc_status ps;

	assert_int_equal(parse_str(minimal, &ps), 0);
	assert_int_equal(ps.state, 'D');
	assert_int_equal(ps.tgid, 42);
	assert_int_equal(ps.pid, 43);
	assert_int_equal(ps.ppid, 1);
	assert_ids(ps.uid, 1000, 1001, 1002, 1003);
	assert_ids(ps.gid, 100, 101, 102, 103);
	assert_int_equal(ps.threads, 3);
	assert_int_equal(ps.have, 0);
}

static void test_each_required_line(void **state)
{
	/* Drop each required line in turn: the rest is not enough. */
	for (unsigned skip = 0; skip < 8; skip++) {
		char buf[sizeof(minimal)];
		const char *line = minimal;
		size_t n = 0;
		struct proc_status ps;

		for (unsigned i = 0; i < 8; i++) {
			const char *nl = strchr(line, '\n') + 1;

			if (i != skip) {
				memcpy(buf + n, line, (size_t)(nl - line));
				n += (size_t)(nl - line);
			}
			line = nl;
		}
		assert_int_equal(parse_mem(buf, n, &ps), -EINVAL);
	}
}

static void test_keys_are_exact(void **state)
{
	/* Keys that merely start or end like a wanted one must be stepped over. */
	static const char in[] = "Name:\tsh\n"
				 "State:\tS (sleeping)\n"
				 "Tgid:\t42\n"
				 "Ngid:\t7\n"
				 "Pid:\t42\n"
				 "PPid:\t1\n"
				 "TracerPid:\t99\n"
				 "Uid:\t0\t0\t0\t0\n"
				 "Gid:\t0\t0\t0\t0\n"
				 "NStgid:\t5\n"
				 "NSpid:\t6\n"
				 "Threads:\t2\n"
				 "VmRSSx:\t12 kB\n"
				 "vmrss:\t13 kB\n"
				 "VmRS:\t14 kB\n"
				 "Names:\tother\n"
				 "HugetlbPages:\t       0 kB\n"
				 "untag_mask:\t0xffffffffffffffff\n"
				 "Groups:\t \n"
				 ":\tempty key\n"
				 "Speculation_Store_Bypass:\tthread: vulnerable\n";
	struct proc_status ps;

	assert_int_equal(parse_str(in, &ps), 0);
	assert_int_equal(ps.tgid, 42);
	assert_int_equal(ps.pid, 42);
	assert_int_equal(ps.ppid, 1);
	assert_int_equal(ps.threads, 2);
	/* Groups and NSpid are the keys here that are exactly wanted ones: no group in it */
	assert_int_equal(ps.have, PROC_STATUS_GROUPS | PROC_STATUS_NSPID);
	assert_int_equal(ps.ngroups, 0);
	assert_int_equal(ps.nspids, 1);
	assert_int_equal(ps.vm_rss, 0);
}

static void test_name_forms(void **state)
{
	static const struct {
		const char *line;
		const char *name;
	} cases[] = {
	    {"Name:\ta:b\n", "a:b"},	   /* only the first ':' ends the key */
	    {"Name:\t\tx\n", "\tx"},	   /* only one tab belongs to the format */
	    {"Name:x\n", "x"},		   /* no tab at all */
	    {"Name:\n", ""},		   /* empty */
	    {"Name:\ta\\\\b\n", "a\\\\b"}, /* an escaped backslash stays escaped */
	    {"Name:\t x \n", " x "},	   /* spaces are the name's own */
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char in[512];
		struct proc_status ps;
		size_t n = (size_t)snprintf(in, sizeof(in), "%s%s", minimal, cases[i].line);
		char *b = malloc(n);

		assert_non_null(b);
		memcpy(b, in, n);
		assert_int_equal(proc_parse_status(b, n, &ps), 0);
		assert_view(ps.name, cases[i].name, strlen(cases[i].name));
		free(b);
	}
}

static void test_spacing_tolerated(void **state)
{
	/* The kernel pads with spaces after the tab; any run of blanks is one separator. */
	static const char extra[] = "Uid:\t0 1  2\t \t3\n"
				    "VmRSS:\t12kB\n"
				    "VmSwap:\t  \t 7 \t kB\n"
				    "VmLck:\t     64 kB\n"
				    "Tgid:  -5\n";
	char in[512];
	struct proc_status ps;

	snprintf(in, sizeof(in), "%s%s", minimal, extra);
	assert_int_equal(parse_str(in, &ps), 0);
	assert_ids(ps.uid, 0, 1, 2, 3);
	assert_int_equal(ps.vm_rss, 12);
	assert_int_equal(ps.vm_swap, 7);
	assert_int_equal(ps.vm_lck, 64);
	assert_int_equal(ps.tgid, -5);
	assert_int_equal(ps.have, PROC_STATUS_VMRSS | PROC_STATUS_VMSWAP | PROC_STATUS_VMLCK);
}

static void test_malformed_lines(void **state)
{
	/* Each is appended to a valid file, so it alone decides the result. */
	static const struct {
		const char *line;
		int err;
	} cases[] = {
	    {"no colon here\n", -EINVAL},
	    {"State:\t\n", -EINVAL},
	    {"State:\n", -EINVAL},
	    {"Tgid:\t\n", -EINVAL},
	    {"Tgid:\t12x\n", -EINVAL},
	    {"Tgid:\t1 2\n", -EINVAL},
	    {"Tgid:\t+1\n", -EINVAL},
	    {"Tgid:\t9223372036854775808\n", -ERANGE},
	    {"Tgid:\t-9223372036854775809\n", -ERANGE},
	    {"Pid:\t-\n", -EINVAL},
	    {"PPid:\t0x10\n", -EINVAL},
	    {"Uid:\t0\t0\t0\n", -EINVAL},
	    {"Uid:\t0\t0\t0\t0\t0\n", -EINVAL},
	    {"Uid:\t0\t0\t0\t\n", -EINVAL},
	    {"Uid:\t-1\t0\t0\t0\n", -EINVAL},
	    {"Uid:\t4294967296\t0\t0\t0\n", -ERANGE},
	    {"Gid:\t0\t0\t0\t18446744073709551616\n", -ERANGE},
	    {"Threads:\t\n", -EINVAL},
	    {"Threads:\t-1\n", -EINVAL},
	    {"Threads:\t18446744073709551616\n", -ERANGE},
	    {"VmSize:\t 12\n", -EINVAL},
	    {"VmSize:\t 12 MB\n", -EINVAL},
	    {"VmSize:\t 12 kb\n", -EINVAL},
	    {"VmSize:\t 12 kB \n", -EINVAL},
	    {"VmRSS:\t 12 kBx\n", -EINVAL},
	    {"VmRSS:\t kB\n", -EINVAL},
	    {"RssAnon:\t-1 kB\n", -EINVAL},
	    {"RssFile:\t18446744073709551616 kB\n", -ERANGE},
	    {"RssShmem:\t1 k\n", -EINVAL},
	    {"VmSwap:\t\n", -EINVAL},
	    {"VmLck:\t12 MB\n", -EINVAL},
	    {"voluntary_ctxt_switches:\tx\n", -EINVAL},
	    {"nonvoluntary_ctxt_switches:\t18446744073709551616\n", -ERANGE},
	    {"Foo:\tbar", -EINVAL}, /* the last line lacks its newline */
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char in[512];
		struct proc_status ps;
		int err;

		snprintf(in, sizeof(in), "%s%s", minimal, cases[i].line);
		err = parse_str(in, &ps);
		if (err != cases[i].err)
			fail_msg("\"%s\" gave %d, want %d", cases[i].line, err, cases[i].err);
	}
	/* and the file must end with a newline even when everything is there */
	{
		struct proc_status ps;

		assert_int_equal(parse_mem(minimal, sizeof(minimal) - 2, &ps), -EINVAL);
		assert_int_equal(parse_mem(minimal, 0, &ps), -EINVAL);
		assert_int_equal(parse_str("\n", &ps), -EINVAL);
	}
}

static void test_malformed_fixtures(void **state)
{
	static const struct {
		const char *rel;
		int err;
	} cases[] = {
	    {"malformed/proc/200/status", -EINVAL}, /* empty */
	    {"malformed/proc/201/status", -EINVAL}, /* cut between Uid values */
	    {"malformed/proc/202/status", -EINVAL}, /* cut inside VmRSS */
	    {"malformed/proc/203/status", -ERANGE}, /* VmRSS 2^64 kB */
	    {"malformed/proc/204/status", -ERANGE}, /* a uid of 2^32 */
	    {"malformed/proc/205/status", -EINVAL}, /* Threads -1 */
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct proc_status ps;
		char *b;

		assert_int_equal(parse_fixture(cases[i].rel, &ps, &b), cases[i].err);
		free(b);
	}
}

/* A fixture and what parsing it gives: its error, and when accepted a line's count and text. */
struct line_case {
	const char *rel;
	int err;
	unsigned n;
	const char *text; /* Groups: what the view holds */
};

/* Each case parses as it says; an accepted one has bit (Groups or NSpid) with its count. */
static void check_lines(const struct line_case *cases, size_t ncases, unsigned bit)
{
	for (size_t i = 0; i < ncases; i++) {
		struct proc_status ps;
		char *b;

		assert_int_equal(parse_fixture(cases[i].rel, &ps, &b), cases[i].err);
		if (!cases[i].err) {
			assert_true(ps.have & bit);
			assert_int_equal(bit == PROC_STATUS_GROUPS ? ps.ngroups : ps.nspids,
					 cases[i].n);
			if (cases[i].text)
				assert_view(ps.groups, cases[i].text, strlen(cases[i].text));
		}
		free(b);
	}
}

/* The Groups line: ids between blanks, as new and old kernels print them, or none. */
static void test_groups(void **state)
{
	static const struct line_case cases[] = {
	    {"groups/proc/300/status", 0, 4, "4 24 27 1000"},
	    {"groups/proc/301/status", 0, 3, "4 24 27 "}, /* a space after each, as before 4.x */
	    {"groups/proc/302/status", 0, 0, ""},
	    {"groups/proc/307/status", 0, 2, "4294967295 0"},
	    {"groups/proc/303/status", -EINVAL, 0, NULL}, /* a word among the ids */
	    {"groups/proc/304/status", -ERANGE, 0, NULL}, /* 2^32 */
	    {"groups/proc/305/status", -EINVAL, 0, NULL}, /* commas */
	    {"groups/proc/306/status", -EINVAL, 0, NULL}, /* a sign */
	};

	(void)state;
	check_lines(cases, sizeof(cases) / sizeof(cases[0]), PROC_STATUS_GROUPS);
}

/* NSpid: a pid per pid namespace level, from /proc's down; more than one is a container's. */
static void test_nspid(void **state)
{
	static const struct line_case cases[] = {
	    {"nspid/proc/400/status", 0, 2, NULL},	 /* under unshare --pid --fork: 1 inside */
	    {"nspid/proc/401/status", 0, 3, NULL},	 /* two levels down */
	    {"nspid/proc/405/status", 0, 1, NULL},	 /* in /proc's own namespace */
	    {"shell/proc/9791/status", 0, 1, NULL},	 /* a shell's, in /proc's namespace */
	    {"kthread/proc/2/status", 0, 1, NULL},	 /* a kernel thread's */
	    {"nspid/proc/402/status", -EINVAL, 0, NULL}, /* a word among the pids */
	    {"nspid/proc/403/status", -EINVAL, 0, NULL}, /* none */
	    {"nspid/proc/404/status", -ERANGE, 0, NULL}, /* pid 0 */
	};

	(void)state;
	check_lines(cases, sizeof(cases) / sizeof(cases[0]), PROC_STATUS_NSPID);
}

/*
 * Every prefix of a real file: one that ends inside a line is cut short, and
 * one that ends at a line boundary is complete once the last required line
 * (Threads) is in.
 */
static void check_prefixes(const char *rel, uint64_t threads)
{
	struct proc_status ps;
	size_t len, need;
	char *b = fixture_load(rel, &len);
	const char *t = memmem(b, len, "\nThreads:", 9);

	assert_non_null(t);
	need = (size_t)((const char *)memchr(t + 1, '\n', len - (size_t)(t + 1 - b)) + 1 - b);
	for (size_t n = 0; n <= len; n++) {
		int want = n && b[n - 1] == '\n' && n >= need ? 0 : -EINVAL;

		assert_int_equal(parse_mem(b, n, &ps), want);
		if (!want)
			assert_int_equal(ps.threads, threads);
	}
	free(b);
}

static void test_every_prefix(void **state)
{
	check_prefixes("shell/proc/9791/status", 1);
	check_prefixes("threaded/proc/9789/status", 4);
	check_prefixes("kthread/proc/2/status", 1);
	check_prefixes("hostile/proc/104/status", 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_shell),
	    cmocka_unit_test(test_threaded),
	    cmocka_unit_test(test_kernel_threads),
	    cmocka_unit_test(test_zombie),
	    cmocka_unit_test(test_name_with_space),
	    cmocka_unit_test(test_hostile_names),
	    cmocka_unit_test(test_hostile_limits),
	    cmocka_unit_test(test_old_kernel),
	    cmocka_unit_test(test_minimal),
	    cmocka_unit_test(test_each_required_line),
	    cmocka_unit_test(test_keys_are_exact),
	    cmocka_unit_test(test_name_forms),
	    cmocka_unit_test(test_spacing_tolerated),
	    cmocka_unit_test(test_malformed_lines),
	    cmocka_unit_test(test_malformed_fixtures),
	    cmocka_unit_test(test_groups),
	    cmocka_unit_test(test_nspid),
	    cmocka_unit_test(test_every_prefix),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
