// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_cgroupid.c: unit tests for cgroup paths from cgroup ids
 * (src/bpf/cgroupid.c), on a scratch directory tree standing for the cgroup2
 * mount (ids are its directories' inode numbers, as kernfs gives them), and
 * for finding that mount from a fake proc root's self/cgroup and
 * self/mountinfo: a v2-only machine, a hybrid one, a v1 one.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../src/bpf/cgroupid.h"

static char dir[400];

static void mkdir_at(const char *rel)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	assert_int_equal(mkdir(path, 0755), 0);
}

static uint64_t ino_of(const char *rel)
{
	char path[512];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	assert_int_equal(stat(path, &st), 0);
	return (uint64_t)st.st_ino;
}

static void write_at(const char *rel, const char *text)
{
	char path[512];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(text, fp);
	assert_int_equal(fclose(fp), 0);
}

static int setup(void **state)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(dir, sizeof(dir), "%s/ptop-cgroupid.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir))
		return -1;
	return 0;
}

static int teardown(void **state)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

/* Paths as /proc/PID/cgroup's "0::" line has them; a new cgroup is found in the next frame. */
static void test_paths(void **state)
{
	char root[512];
	struct cgroup_ids *c;
	const char *p;

	mkdir_at("cg");
	mkdir_at("cg/system.slice");
	mkdir_at("cg/system.slice/ssh.service");
	mkdir_at("cg/user.slice");
	snprintf(root, sizeof(root), "%s/cg/", dir);
	c = cgroup_ids_new(root);
	p = cgroup_ids_path(c, ino_of("cg"));
	assert_non_null(p);
	assert_string_equal(p, "/");
	p = cgroup_ids_path(c, ino_of("cg/system.slice/ssh.service"));
	assert_non_null(p);
	assert_string_equal(p, "/system.slice/ssh.service");
	p = cgroup_ids_path(c, ino_of("cg/user.slice"));
	assert_non_null(p);
	assert_string_equal(p, "/user.slice");

	/* made after the walk: not seen again in this frame, found in the next */
	mkdir_at("cg/user.slice/late.scope");
	mkdir_at("cg/other.slice");
	cgroup_ids_frame(c);
	p = cgroup_ids_path(c, ino_of("cg/user.slice/late.scope"));
	assert_non_null(p);
	assert_string_equal(p, "/user.slice/late.scope");
	/* not under the root: unknown, and no walk finds it later */
	assert_null(cgroup_ids_path(c, ino_of(".")));
	cgroup_ids_frame(c);
	assert_null(cgroup_ids_path(c, ino_of(".")));
	p = cgroup_ids_path(c, ino_of("cg/other.slice"));
	assert_non_null(p);
	assert_string_equal(p, "/other.slice");
	cgroup_ids_free(c);

	/* a root that does not exist: nothing found, no crash */
	c = cgroup_ids_new("/nonexistent/cgroup");
	assert_null(cgroup_ids_path(c, 1));
	cgroup_ids_free(c);
}

/* The cgroup2 mount of a v2-only machine; none on hybrid and v1 machines. */
static void test_v2_root(void **state)
{
	char proc[512], buf[256];

	mkdir_at("proc");
	mkdir_at("proc/self");
	snprintf(proc, sizeof(proc), "%s/proc", dir);
	write_at("proc/self/cgroup", "0::/user.slice/user-1000.slice/session-2.scope\n");
	write_at("proc/self/mountinfo",
		 "22 1 259:2 / / rw,relatime shared:1 - ext4 /dev/root rw\n"
		 "35 22 0:30 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:9 - "
		 "cgroup2 cgroup2 rw,nsdelegate,memory_recursiveprot\n");
	assert_int_equal(cgroup_ids_v2_root(proc, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/sys/fs/cgroup");
	assert_int_equal(cgroup_ids_v2_root(proc, buf, 5), -ENAMETOOLONG);

	/* hybrid: the unified hierarchy beside v1 controllers */
	write_at("proc/self/cgroup", "12:pids:/\n1:name=systemd:/init.scope\n0::/init.scope\n");
	assert_int_equal(cgroup_ids_v2_root(proc, buf, sizeof(buf)), -ENOENT);
	/* v1 only */
	write_at("proc/self/cgroup", "4:memory:/\n1:name=systemd:/\n");
	assert_int_equal(cgroup_ids_v2_root(proc, buf, sizeof(buf)), -ENOENT);
	/* v2 only, but no cgroup2 mount to be seen */
	write_at("proc/self/cgroup", "0::/\n");
	write_at("proc/self/mountinfo", "22 1 259:2 / / rw - ext4 /dev/root rw\n- cgroup2\n");
	assert_int_equal(cgroup_ids_v2_root(proc, buf, sizeof(buf)), -ENOENT);
	/* no proc at all */
	assert_int_equal(cgroup_ids_v2_root("/nonexistent", buf, sizeof(buf)), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_paths),
	    cmocka_unit_test(test_v2_root),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
