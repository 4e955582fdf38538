// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_parse_maps.c: unit tests for proc_parse_maps_line() and proc_maps_lib()
 * (src/proc/parse_maps.c). Whole /proc/PID/maps captures in tests/fixtures
 * are walked line by line with *used as a reader would (a shell, a threaded
 * process with [vdso] and thread stacks, a binary run from a directory with a
 * space, a deleted binary, the empty maps of kernel threads and zombies), and
 * chosen lines are checked field by field. Hand-made lines cover paths with
 * spaces, " (deleted)" in and at the end of paths, anonymous maps with and
 * without the kernel's trailing space, a last line without its newline and the
 * limits of each field; malformed lines must fail with the exact error code.
 * Every prefix of real lines is parsed from a buffer of exactly its length.
 * proc_maps_lib(), htop's LIB, sums a capture and hand-made files: a file
 * mapped apart, files never executed, anonymous and anon_inode mappings.
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

#define MAPS_MAX 64

/* A whole maps file, parsed as a reader would; the entries point into buf. */
struct maps_file {
	char *buf;
	size_t len;
	size_t n;
	struct proc_maps_entry e[MAPS_MAX];
};

static void parse_file(const char *rel, struct maps_file *m)
{
	size_t off = 0;

	m->buf = fixture_load(rel, &m->len);
	m->n = 0;
	while (off < m->len) {
		size_t used = 0;
		int err;

		assert_true(m->n < MAPS_MAX);
		err = proc_parse_maps_line(m->buf + off, m->len - off, &m->e[m->n], &used);
		if (err)
			fail_msg("%s line %zu: %d", rel, m->n + 1, err);
		assert_true(used > 0 && used <= m->len - off);
		/* a line ends at its newline, or at the end of the buffer */
		assert_true(m->buf[off + used - 1] == '\n' || off + used == m->len);
		off += used;
		m->n++;
	}
	assert_int_equal(off, m->len);
}

static void assert_path(struct ptop_view v, const char *want)
{
	size_t n = strlen(want);

	assert_int_equal(v.n, n);
	if (n)
		assert_memory_equal(v.p, want, n);
}

static void assert_entry(const struct proc_maps_entry *e, uint64_t start, uint64_t end,
			 const char *perms, uint64_t offset, uint32_t major, uint32_t minor,
			 uint64_t inode, const char *path, bool deleted)
{
	assert_true(e->start == start);
	assert_true(e->end == end);
	assert_memory_equal(e->perms, perms, 4);
	assert_true(e->offset == offset);
	assert_int_equal(e->dev_major, major);
	assert_int_equal(e->dev_minor, minor);
	assert_true(e->inode == inode);
	assert_path(e->path, path);
	assert_int_equal(e->deleted, deleted);
}

/* Parse one line from an exactly-sized copy; only numbers and flags are valid after. */
static int parse_mem(const char *s, size_t len, struct proc_maps_entry *e, size_t *used)
{
	char *b = malloc(len);
	int err;

	assert_non_null(b);
	memcpy(b, s, len);
	err = proc_parse_maps_line(b, len, e, used);
	free(b);
	return err;
}

/* ---- real captures ---- */

static void test_shell(void **state)
{
	struct maps_file m;

	parse_file("shell/proc/9791/maps", &m);
	assert_int_equal(m.n, 43);
	assert_entry(&m.e[0], 0x555fc2195000, 0x555fc21c4000, "r--p", 0, 0xfe, 0, 247101,
		     "/usr/bin/bash", false);
	assert_entry(&m.e[1], 0x555fc21c4000, 0x555fc2285000, "r-xp", 0x2f000, 0xfe, 0, 247101,
		     "/usr/bin/bash", false);
	assert_entry(&m.e[4], 0x555fc22c1000, 0x555fc22ca000, "rw-p", 0x12c000, 0xfe, 0, 247101,
		     "/usr/bin/bash", false);
	/* anonymous: the kernel ends the line with a space after the inode */
	assert_entry(&m.e[5], 0x555fc22ca000, 0x555fc22d5000, "rw-p", 0, 0, 0, 0, "", false);
	assert_entry(&m.e[6], 0x555fcf371000, 0x555fcf392000, "rw-p", 0, 0, 0, 0, "[heap]", false);
	assert_entry(&m.e[12], 0x7f7031db0000, 0x7f7031db1000, "r--p", 0, 0xfe, 0, 320479,
		     "/usr/lib/locale/C.utf8/LC_MESSAGES/SYS_LC_MESSAGES", false);
	assert_entry(&m.e[41], 0x7fffbda0a000, 0x7fffbda2b000, "rw-p", 0, 0, 0, 0, "[stack]",
		     false);
	assert_entry(&m.e[42], 0xffffffffff600000, 0xffffffffff601000, "--xp", 0, 0, 0, 0,
		     "[vsyscall]", false);
	free(m.buf);
}

static void test_threaded(void **state)
{
	struct maps_file m;

	parse_file("threaded/proc/9789/maps", &m);
	assert_int_equal(m.n, 30);
	assert_entry(&m.e[0], 0x55d29808d000, 0x55d29808e000, "r--p", 0, 0xfe, 0, 10953184,
		     "/tmp/cap/ptop-mt", false);
	assert_entry(&m.e[5], 0x55d29f7d1000, 0x55d29f7f2000, "rw-p", 0, 0, 0, 0, "[heap]", false);
	/* a thread stack and its guard page */
	assert_entry(&m.e[6], 0x7f617eb46000, 0x7f617eb47000, "---p", 0, 0, 0, 0, "", false);
	assert_entry(&m.e[7], 0x7f617eb47000, 0x7f617f347000, "rw-p", 0, 0, 0, 0, "", false);
	assert_entry(&m.e[14], 0x7f6180372000, 0x7f61804c8000, "r-xp", 0x26000, 0xfe, 0, 332835,
		     "/usr/lib/x86_64-linux-gnu/libc.so.6", false);
	assert_entry(&m.e[20], 0x7f618053b000, 0x7f618053f000, "r--p", 0, 0, 0, 0, "[vvar]", false);
	assert_entry(&m.e[21], 0x7f618053f000, 0x7f6180541000, "r--p", 0, 0, 0, 0, "[vvar_vclock]",
		     false);
	assert_entry(&m.e[22], 0x7f6180541000, 0x7f6180543000, "r-xp", 0, 0, 0, 0, "[vdso]", false);
	free(m.buf);
}

static void test_path_with_space(void **state)
{
	struct maps_file m;

	parse_file("paths/proc/10029/maps", &m);
	assert_int_equal(m.n, 30);
	for (size_t i = 0; i < 5; i++) {
		assert_int_equal(m.e[i].inode, 10953121);
		assert_path(m.e[i].path, "/tmp/cap/dir with space/ptop mt");
		assert_false(m.e[i].deleted);
	}
	assert_entry(&m.e[1], 0x560a062b5000, 0x560a062b6000, "r-xp", 0x1000, 0xfe, 0, 10953121,
		     "/tmp/cap/dir with space/ptop mt", false);
	free(m.buf);
}

static void test_deleted_binary(void **state)
{
	struct maps_file m;

	parse_file("paths/proc/10030/maps", &m);
	assert_int_equal(m.n, 30);
	for (size_t i = 0; i < 5; i++) {
		assert_path(m.e[i].path, "/tmp/cap/ptop-gone");
		assert_true(m.e[i].deleted);
	}
	assert_entry(&m.e[4], 0x5594e37b6000, 0x5594e37b7000, "rw-p", 0x3000, 0xfe, 0, 10953249,
		     "/tmp/cap/ptop-gone", true);
	/* the libraries after it are still there */
	for (size_t i = 5; i < m.n; i++)
		assert_false(m.e[i].deleted);
	free(m.buf);
}

static void test_empty_maps(void **state)
{
	/* Kernel threads and zombies have no mm: an empty file holds no line. */
	static const char *const rels[] = {"kthread/proc/2/maps", "kthread/proc/23/maps",
					   "zombie/proc/9796/maps", "malformed/proc/200/maps"};

	for (size_t i = 0; i < sizeof(rels) / sizeof(rels[0]); i++) {
		struct maps_file m;

		parse_file(rels[i], &m);
		assert_int_equal(m.len, 0);
		assert_int_equal(m.n, 0);
		free(m.buf);
	}
	/* and asked to parse a line anyway, there is none */
	{
		struct proc_maps_entry e;
		size_t used;
		char *b = malloc(1);

		assert_non_null(b);
		assert_int_equal(proc_parse_maps_line(b, 0, &e, &used), -EINVAL);
		free(b);
	}
}

/* ---- hostile ---- */

static void test_hostile_paths(void **state)
{
	struct maps_file m;

	parse_file("hostile/proc/100/maps", &m);
	assert_int_equal(m.n, 11);
	assert_entry(&m.e[0], 0x55d29f7d1000, 0x55d29f7f2000, "rw-p", 0, 0, 0, 0, "[heap]", false);
	assert_entry(&m.e[1], 0x7f617eb46000, 0x7f617eb47000, "---p", 0, 0, 0, 0, "", false);
	/* anonymous without the trailing space */
	assert_entry(&m.e[2], 0x7f617eb47000, 0x7f617f347000, "rw-p", 0, 0, 0, 0, "", false);
	assert_entry(&m.e[3], 0x7f6180541000, 0x7f6180543000, "r-xp", 0, 0, 0, 0, "[vdso]", false);
	assert_entry(&m.e[4], 0x7f6180543000, 0x7f6180544000, "r--p", 0, 0xfe, 0, 332383,
		     "/tmp/a b/lib c.so", false);
	assert_entry(&m.e[5], 0x7f6180544000, 0x7f618056a000, "r-xp", 0x1000, 0xfe, 0, 332384,
		     "/tmp/gone", true);
	assert_entry(&m.e[6], 0x7f618056a000, 0x7f6180574000, "rw-s", 0, 0, 1, 1025, "/memfd:x y",
		     true);
	/* " (deleted)" inside a path is part of its name */
	assert_entry(&m.e[7], 0x7f6180574000, 0x7f6180576000, "r--p", 0x31000, 0xfe, 0, 332385,
		     "/tmp/(deleted) not", false);
	/* the kernel escapes a newline in a path as \012: the line goes on */
	assert_entry(&m.e[8], 0x7f6180576000, 0x7f6180578000, "r--p", 0, 0xfe, 0, 332386,
		     "/tmp/new\\012line", false);
	assert_entry(&m.e[9], 0x7fffab8ba000, 0x7fffab8db000, "rw-p", 0, 0, 0, 0, "[stack]", false);
	/* the last line has no newline: it ends at the end of the buffer */
	assert_entry(&m.e[10], 0xffffffffff600000, 0xffffffffff601000, "--xp", 0, 0, 0, 0,
		     "[vsyscall]", false);
	assert_int_equal(m.buf[m.len - 1], ']');
	free(m.buf);
}

static void test_hostile_limits(void **state)
{
	struct maps_file m;

	parse_file("hostile/proc/105/maps", &m);
	assert_int_equal(m.n, 2);
	assert_entry(&m.e[0], 0, UINT64_MAX, "rwxs", UINT64_MAX, UINT32_MAX, UINT32_MAX, UINT64_MAX,
		     "/x", false);
	/* leading zeros beyond 16 digits still fit */
	assert_entry(&m.e[1], 1, 2, "r--p", 0, 0, 0, 0, "", false);
	free(m.buf);
}

static void test_used_walks_lines(void **state)
{
	static const char two[] = "1000-2000 r--p 00000000 08:01 7 /a\n"
				  "2000-3000 rw-p 00000000 00:00 0\n";
	struct proc_maps_entry e;
	size_t used;
	char *b = malloc(sizeof(two) - 1);

	assert_non_null(b);
	memcpy(b, two, sizeof(two) - 1);
	assert_int_equal(proc_parse_maps_line(b, sizeof(two) - 1, &e, &used), 0);
	assert_int_equal(used, 35);
	assert_entry(&e, 0x1000, 0x2000, "r--p", 0, 8, 1, 7, "/a", false);
	assert_int_equal(proc_parse_maps_line(b + used, sizeof(two) - 1 - used, &e, &used), 0);
	assert_int_equal(used, 32);
	assert_entry(&e, 0x2000, 0x3000, "rw-p", 0, 0, 0, 0, "", false);
	free(b);
}

/* ---- malformed ---- */

static void test_malformed_fixtures(void **state)
{
	/* Two good lines, then a bad third one. */
	static const struct {
		const char *rel;
		int err;
	} cases[] = {
	    {"malformed/proc/201/maps", -EINVAL}, /* cut after perms */
	    {"malformed/proc/202/maps", -EINVAL}, /* cut inside the end address */
	    {"malformed/proc/203/maps", -ERANGE}, /* 17 hex digits */
	    {"malformed/proc/204/maps", -ERANGE}, /* a 33-bit device major */
	    {"malformed/proc/205/maps", -EINVAL}, /* negative inode */
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct proc_maps_entry e;
		size_t len, off = 0, used;
		char *b = fixture_load(cases[i].rel, &len);

		for (int line = 0; line < 2; line++) {
			assert_int_equal(proc_parse_maps_line(b + off, len - off, &e, &used), 0);
			off += used;
		}
		assert_int_equal(proc_parse_maps_line(b + off, len - off, &e, &used), cases[i].err);
		free(b);
	}
}

static void test_malformed_lines(void **state)
{
	static const struct {
		const char *line;
		int err;
	} cases[] = {
	    /* the well-formed line every case below breaks */
	    {"7f7031d55000-7f7031dac000 r--p 00000000 fe:00 320475     /usr/lib/x\n", 0},
	    {"\n", -EINVAL},
	    {" \n", -EINVAL},
	    {"7f7031d55000 7f7031dac000 r--p 00000000 fe:00 320475 /x\n", -EINVAL},
	    {"7f7031d55000-\n", -EINVAL},
	    {"-7f7031dac000 r--p 00000000 fe:00 320475 /x\n", -EINVAL},
	    {"7f7031d55000--7f7031dac000 r--p 00000000 fe:00 320475 /x\n", -EINVAL},
	    {"7f7031d55000-7f7031dac000\n", -EINVAL},
	    {"7f7031d55000-7f7031dac000 \n", -EINVAL},
	    {"7f7031d55000-7f7031dac000  r--p 00000000 fe:00 320475 /x\n", -EINVAL},
	    {"7f7031d55000-7f7031dac000 r-p 00000000 fe:00 320475 /x\n", -EINVAL},
	    {"7f7031d55000-7f7031dac000 r--pp 00000000 fe:00 320475 /x\n", -EINVAL},
	    {"7f7031d55000-7f7031dac000 r--p\n", -EINVAL},
	    {"7f7031d55000-7f7031dac000 r--p \n", -EINVAL},
	    /* perms are r or -, w or -, x or -, then p or s */
	    {"7f7031d55000-7f7031dac000 abcd 00000000 fe:00 320475 /x\n", -EINVAL},
	    {"7f7031d55000-7f7031dac000 r--x 00000000 fe:00 320475 /x\n", -EINVAL},
	    {"7f7031d55000-7f7031dac000 w--p 00000000 fe:00 320475 /x\n", -EINVAL},
	    {"7f7031d55000-7f7031dac000 R--p 00000000 fe:00 320475 /x\n", -EINVAL},
	    {"7f7031d55000-7f7031dac000 r\n-p 00000000 fe:00 320475 /x\n", -EINVAL},
	    {"7f7031d55000-7f7031dac000 r--p 0000000g fe:00 320475 /x\n", -EINVAL},
	    {"7f7031d55000-7f7031dac000 r--p 00000000 fe00 320475 /x\n", -EINVAL},
	    {"7f7031d55000-7f7031dac000 r--p 00000000 fe: 320475 /x\n", -EINVAL},
	    {"7f7031d55000-7f7031dac000 r--p 00000000 :00 320475 /x\n", -EINVAL},
	    {"7f7031d55000-7f7031dac000 r--p 00000000 fe:00:00 320475 /x\n", -EINVAL},
	    {"7f7031d55000-7f7031dac000 r--p 00000000 fe:00\n", -EINVAL},
	    {"7f7031d55000-7f7031dac000 r--p 00000000 fe:00 \n", -EINVAL},
	    {"7f7031d55000-7f7031dac000 r--p 00000000 fe:00 /x\n", -EINVAL},
	    {"7f7031d55000-7f7031dac000 r--p 00000000 fe:00 abc /x\n", -EINVAL},
	    {"7f7031d55000-7f7031dac000 r--p 00000000 fe:00 -1 /x\n", -EINVAL},
	    /* digits then junk: the inode must not end where the path begins */
	    {"7f7031d55000-7f7031dac000 r--p 00000000 fe:00 12x /x\n", -EINVAL},
	    {"7f7031d55000-7f7031dac000 r--p 00000000 fe:00 0abc\n", -EINVAL},
	    {"7f7031d55000-7f7031dac000 r--p 00000000 fe:00 1\t/x\n", -EINVAL},
	    {"7f7031d55000\t7f7031dac000 r--p 00000000 fe:00 320475 /x\n", -EINVAL},
	    /* end before start */
	    {"7f7031dac000-7f7031d55000 r--p 00000000 fe:00 320475 /x\n", -EINVAL},
	    /* out of range */
	    {"10000000000000000-10000000000000001 r--p 00000000 fe:00 1 /x\n", -ERANGE},
	    {"0-10000000000000000 r--p 00000000 fe:00 1 /x\n", -ERANGE},
	    {"0-1 r--p 10000000000000000 fe:00 1 /x\n", -ERANGE},
	    {"0-1 r--p 0 100000000:00 1 /x\n", -ERANGE},
	    {"0-1 r--p 0 00:100000000 1 /x\n", -ERANGE},
	    {"0-1 r--p 0 00:00 18446744073709551616 /x\n", -ERANGE},
	    {"0-1 r--p 0 00:00 18446744073709551615 /x\n", 0},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct proc_maps_entry e;
		size_t used;
		int err = parse_mem(cases[i].line, strlen(cases[i].line), &e, &used);

		if (err != cases[i].err)
			fail_msg("\"%s\" gave %d, want %d", cases[i].line, err, cases[i].err);
	}
}

/*
 * Every prefix of a real line: too short to reach the inode is cut short;
 * from the inode's first digit on, it is a complete last line whose inode and
 * path are what the prefix holds.
 */
static void check_prefixes(const char *line)
{
	size_t len = strlen(line), ino, path_at;
	struct proc_maps_entry full, e;
	size_t used;
	char *b = malloc(len);

	assert_non_null(b);
	memcpy(b, line, len);
	assert_int_equal(proc_parse_maps_line(b, len, &full, &used), 0);
	assert_int_equal(used, len);
	/* the inode is the fifth field; the path starts after the blanks that follow */
	ino = 0;
	for (int sp = 0; sp < 4; sp++)
		ino = (size_t)(strchr(line + ino, ' ') - line) + 1;
	path_at = ino + strspn(line + ino, "0123456789");
	path_at += strspn(line + path_at, " ");

	for (size_t n = 0; n <= len; n++) {
		int err = parse_mem(line, n, &e, &used);
		size_t path_end = n == len ? len - 1 : n, path_n;
		bool deleted = false;
		char digits[25];

		if (n <= ino) {
			if (err != -EINVAL)
				fail_msg("prefix %zu of %s gave %d", n, line, err);
			continue;
		}
		assert_int_equal(err, 0);
		assert_int_equal(used, n);
		assert_true(e.start == full.start && e.end == full.end);
		assert_memory_equal(e.perms, full.perms, 4);
		assert_true(e.offset == full.offset);
		assert_int_equal(e.dev_major, full.dev_major);
		assert_int_equal(e.dev_minor, full.dev_minor);
		memcpy(digits, line + ino, n - ino < 24 ? n - ino : 24);
		digits[n - ino < 24 ? n - ino : 24] = '\0';
		assert_true(e.inode == strtoull(digits, NULL, 10));
		path_n = path_end > path_at ? path_end - path_at : 0;
		if (path_n >= 10 && !memcmp(line + path_at + path_n - 10, " (deleted)", 10)) {
			path_n -= 10;
			deleted = true;
		}
		assert_int_equal(e.path.n, path_n);
		assert_int_equal(e.deleted, deleted);
	}
	free(b);
}

static void test_every_prefix(void **state)
{
	check_prefixes("555fc2195000-555fc21c4000 r--p 00000000 fe:00 247101                     "
		       "/usr/bin/bash\n");
	check_prefixes("555fc22ca000-555fc22d5000 rw-p 00000000 00:00 0 \n");
	check_prefixes("5594e37b2000-5594e37b3000 r--p 00000000 fe:00 10953249                   "
		       "/tmp/cap/ptop-gone (deleted)\n");
	check_prefixes("ffffffffff600000-ffffffffff601000 --xp 00000000 00:00 0                  "
		       "[vsyscall]\n");
}

/* ---- htop's LIB: proc_maps_lib() ---- */

static int lib_of(const char *text, size_t cap, size_t *need, uint64_t *bytes)
{
	struct proc_maps_file files[32];
	char *b = malloc(strlen(text) + 1);
	int err;

	assert_non_null(b);
	assert_true(cap <= 32);
	memcpy(b, text, strlen(text));
	err = proc_maps_lib(b, strlen(text), files, cap, need, bytes);
	free(b);
	return err;
}

static void test_lib(void **state)
{
	struct proc_maps_file files[32];
	struct maps_file m;
	uint64_t bytes;
	size_t need;

	(void)state;
	/* bash and its libraries, each file's every mapping where one executes (htop's sum) */
	m.buf = fixture_load("shell/proc/9791/maps", &m.len);
	assert_int_equal(proc_maps_lib(m.buf, m.len, files, 32, &need, &bytes), 0);
	assert_true(bytes == 3612672);
	/* 17 files: 16 places are too few, and it says how many would do */
	assert_int_equal(proc_maps_lib(m.buf, m.len, files, 16, &need, &bytes), -ENOSPC);
	assert_true(need >= 17);
	free(m.buf);
	/* a file mapped apart, executed once: all of it; a file never executed, anonymous
	 * memory and an anon_inode mapping (an inode, no path): none of them */
	assert_int_equal(lib_of("1000-3000 r-xp 00000000 fe:00 7 /lib/a.so\n"
				"3000-4000 rw-p 00000000 00:00 0 \n"
				"4000-5000 r--p 00000000 fe:01 7 /data/other-dev-same-inode\n"
				"5000-6000 r--p 00002000 fe:00 7 /lib/a.so\n"
				"6000-9000 r--p 00000000 fe:00 8 /usr/share/x.dat\n"
				"9000-a000 r-xp 00000000 00:0e 9 anon_inode:[perf_event]\n",
				32, &need, &bytes),
			 0);
	assert_true(bytes == 0x2000 + 0x1000);
	/* a kernel thread: nothing to sum, unknown rather than 0 */
	assert_int_equal(lib_of("", 32, &need, &bytes), -ENODATA);
	assert_int_equal(lib_of("1000-3000 r-xq 0 fe:00 7 /lib/a.so\n", 32, &need, &bytes),
			 -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_shell),
	    cmocka_unit_test(test_threaded),
	    cmocka_unit_test(test_path_with_space),
	    cmocka_unit_test(test_deleted_binary),
	    cmocka_unit_test(test_empty_maps),
	    cmocka_unit_test(test_hostile_paths),
	    cmocka_unit_test(test_hostile_limits),
	    cmocka_unit_test(test_used_walks_lines),
	    cmocka_unit_test(test_malformed_fixtures),
	    cmocka_unit_test(test_malformed_lines),
	    cmocka_unit_test(test_every_prefix),
	    cmocka_unit_test(test_lib),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
