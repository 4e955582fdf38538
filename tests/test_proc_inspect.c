// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_proc_inspect.c: src/proc/inspect.c's cgroup pressure, on trees made
 * here: a proc root with one process's cgroup file and a cgroup root laid
 * out as a unified (cgroup2) mount, as a hybrid one (cgroup2 under
 * "unified"), or as neither. The pressure files are read and parsed, a
 * missing or malformed one is that resource's error, cgroup.pressure 0 says
 * PSI is off there, and a process gone, one without a unified line, and a
 * machine without cgroup2 are the call's errors.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "fixture.h"

#include "ptop/frame.h"
#include "ptop/proc.h"

static char top[256];

/* Write text to top/rel, making the directories on the way. */
static void put(const char *rel, const char *text)
{
	fixture_put(top, rel, text);
}

static int setup(void **state)
{
	(void)state;
	snprintf(top, sizeof(top), "%s/ptop-cgpsi-XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	return mkdtemp(top) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[512];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	return system(cmd);
}

static const char cpu_psi[] = "some avg10=1.25 avg60=0.50 avg300=0.10 total=3214000\n"
			      "full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n";
static const char mem_psi[] = "some avg10=0.00 avg60=0.00 avg300=0.00 total=0\n"
			      "full avg10=0.00 avg60=0.00 avg300=0.00 total=12\n";

static void test_unified(void **state)
{
	struct proc_cgroup_psi cg;
	char proc[300], sys[300], want[600];

	(void)state;
	put("u/proc/42/cgroup", "0::/a.slice/b.service\n");
	put("u/cg/cgroup.controllers", "cpu io memory\n");
	put("u/cg/a.slice/b.service/cpu.pressure", cpu_psi);
	put("u/cg/a.slice/b.service/memory.pressure", mem_psi);
	/* io.pressure cut mid-line: malformed */
	put("u/cg/a.slice/b.service/io.pressure", "some avg10=0.00 avg6");
	snprintf(proc, sizeof(proc), "%s/u/proc", top);
	snprintf(sys, sizeof(sys), "%s/u/cg", top);
	assert_int_equal(proc_cgroup_pressure(proc, sys, 42, &cg), 0);
	assert_string_equal(cg.path, "/a.slice/b.service");
	snprintf(want, sizeof(want), "%s/a.slice/b.service", sys);
	assert_string_equal(cg.dir, want);
	assert_false(cg.hybrid);
	assert_false(cg.off);
	assert_int_equal(cg.error[PSI_CPU], 0);
	assert_int_equal(cg.res[PSI_CPU].some.avg_x100[0], 125);
	assert_int_equal(cg.res[PSI_CPU].some.avg_x100[2], 10);
	assert_int_equal(cg.res[PSI_CPU].some.total_us, 3214000);
	assert_true(cg.res[PSI_CPU].has_full);
	assert_int_equal(cg.error[PSI_MEMORY], 0);
	assert_int_equal(cg.res[PSI_MEMORY].full.total_us, 12);
	assert_int_equal(cg.error[PSI_IO], -EINVAL);

	/* PSI off for the cgroup: the kernel hides the files */
	put("u/cg/a.slice/b.service/cgroup.pressure", "0\n");
	for (int r = 0; r < 3; r++) {
		static const char *const f[] = {"cpu", "memory", "io"};
		char file[700];

		snprintf(file, sizeof(file), "%s/%s.pressure", want, f[r]);
		assert_int_equal(unlink(file), 0);
	}
	assert_int_equal(proc_cgroup_pressure(proc, sys, 42, &cg), 0);
	assert_true(cg.off);
	assert_int_equal(cg.error[PSI_CPU], -ENOENT);

	/* the root cgroup: the mount itself */
	put("u/proc/43/cgroup", "0::/\n");
	assert_int_equal(proc_cgroup_pressure(proc, sys, 43, &cg), 0);
	assert_string_equal(cg.dir, sys);
	assert_int_equal(cg.error[PSI_CPU], -ENOENT);
}

static void test_hybrid(void **state)
{
	struct proc_cgroup_psi cg;
	char proc[300], sys[300], want[600];

	(void)state;
	/* v1 lines first, the unified one last, as a hybrid machine writes them */
	put("h/proc/7/cgroup", "4:memory:/x\n1:name=systemd:/user.slice\n0::/user.slice\n");
	put("h/cg/memory/tasks", "");
	put("h/cg/unified/cgroup.controllers", "");
	put("h/cg/unified/user.slice/cpu.pressure", cpu_psi);
	snprintf(proc, sizeof(proc), "%s/h/proc", top);
	snprintf(sys, sizeof(sys), "%s/h/cg", top);
	assert_int_equal(proc_cgroup_pressure(proc, sys, 7, &cg), 0);
	assert_true(cg.hybrid);
	snprintf(want, sizeof(want), "%s/unified/user.slice", sys);
	assert_string_equal(cg.dir, want);
	assert_int_equal(cg.error[PSI_CPU], 0);
	assert_int_equal(cg.error[PSI_MEMORY], -ENOENT);
}

static void test_errors(void **state)
{
	struct proc_cgroup_psi cg;
	char proc[300], sys[300];

	(void)state;
	put("e/proc/5/cgroup", "4:memory:/x\n1:name=systemd:/user.slice\n");
	put("e/proc/6/cgroup", "0::/user.slice\n");
	put("e/proc/8/cgroup", "garbage\n");
	put("e/cg/memory/tasks", "");
	snprintf(proc, sizeof(proc), "%s/e/proc", top);
	snprintf(sys, sizeof(sys), "%s/e/cg", top);
	/* gone; cgroup v1 only; no cgroup2 mounted; a cgroup file the parser refuses */
	assert_int_equal(proc_cgroup_pressure(proc, sys, 99, &cg), -ESRCH);
	assert_int_equal(proc_cgroup_pressure(proc, sys, 5, &cg), -ENOENT);
	assert_int_equal(proc_cgroup_pressure(proc, sys, 6, &cg), -ENODEV);
	assert_int_equal(proc_cgroup_pressure(proc, sys, 8, &cg), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_unified),
	    cmocka_unit_test(test_hybrid),
	    cmocka_unit_test(test_errors),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
