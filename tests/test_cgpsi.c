// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_cgpsi.c: src/proc/cgpsi.c, the pressure of rows' cgroups, on trees
 * made here: a proc root with the machine's /proc/pressure files, and a
 * cgroup root laid out as a hybrid machine's (cgroup2 under "unified"),
 * whose root cgroup has no pressure files (an older kernel's). A cgroup's
 * files are read once a frame whatever the rows sharing it; the root cgroup,
 * and a hybrid row whose unified line is "/", show the machine's; a missing,
 * cut or malformed file (memory without its full line, more than a pressure
 * file holds), a cgroup gone, no unified line, no unified hierarchy, and a
 * proc root that is not this machine's leave the flags false.
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

static char top[256], proc[300], sys[300];

/* Write text to top/rel, making the directories on the way. */
static void put(const char *rel, const char *text)
{
	fixture_put(top, rel, text);
}

/* Real text (a loaded machine's), and the cgroup's. */
static const char machine_cpu[] = "some avg10=87.03 avg60=33.80 avg300=23.78 total=10162109882\n"
				  "full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n";
static const char machine_mem[] = "some avg10=0.10 avg60=0.20 avg300=0.00 total=4\n"
				  "full avg10=0.05 avg60=0.15 avg300=0.00 total=2\n";
static const char machine_io[] = "some avg10=0.22 avg60=0.43 avg300=0.31 total=99\n"
				 "full avg10=0.11 avg60=0.12 avg300=0.10 total=50\n";
static const char cg_cpu[] = "some avg10=1.25 avg60=0.50 avg300=0.10 total=3214000\n"
			     "full avg10=0.75 avg60=0.25 avg300=0.05 total=1000\n";
static const char cg_mem[] = "some avg10=2.00 avg60=3.00 avg300=0.00 total=5\n"
			     "full avg10=4.00 avg60=5.00 avg300=0.00 total=6\n";
static const char cg_io[] = "some avg10=6.00 avg60=7.00 avg300=0.00 total=7\n"
			    "full avg10=8.00 avg60=9.99 avg300=0.00 total=8\n";

static int setup(void **state)
{
	(void)state;
	snprintf(top, sizeof(top), "%s/ptop-cgpsi-XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(top))
		return -1;
	snprintf(proc, sizeof(proc), "%s/proc", top);
	snprintf(sys, sizeof(sys), "%s/cg", top);
	put("proc/pressure/cpu", machine_cpu);
	put("proc/pressure/memory", machine_mem);
	put("proc/pressure/io", machine_io);
	put("cg/unified/cgroup.controllers", "\n");
	put("cg/unified/a.slice/cgroup.controllers", "\n");
	put("cg/unified/a.slice/cpu.pressure", cg_cpu);
	put("cg/unified/a.slice/memory.pressure", cg_mem);
	put("cg/unified/a.slice/io.pressure", cg_io);
	return 0;
}

static int teardown(void **state)
{
	char cmd[512];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	return system(cmd);
}

/* A row of cgroup path (as the sampler keeps it) and its hierarchy. */
/* the rows' sides: each row() takes one of its own */
static struct frame_proc_side sides[256];
static size_t nsides;

static struct frame_proc row(const char *path, uint8_t v1)
{
	struct frame_proc p;

	memset(&p, 0, sizeof(p));
	p.side = &sides[nsides++ % (sizeof(sides) / sizeof(sides[0]))];
	memset(p.side, 0, sizeof(*p.side));
	p.cgroup = path;
	p.cgroup_v1 = v1;
	/* what a row kept from an earlier frame may hold: cgpsi_row() sets every flag */
	p.side->has_cgpsi_cpu = p.side->has_cgpsi_mem = p.side->has_cgpsi_io = true;
	return p;
}

static void none_known(const struct frame_proc *p)
{
	assert_false(p->side->has_cgpsi_cpu);
	assert_false(p->side->has_cgpsi_mem);
	assert_false(p->side->has_cgpsi_io);
}

static void test_cgroup_read_once(void **state)
{
	static char a[] = "/a.slice"; /* one string for every row of the cgroup, as the names */
	struct cgpsi *c = cgpsi_new(proc, sys);
	struct frame_proc p = row(a, FRAME_CGROUP_UNIFIED), q = row(a, FRAME_CGROUP_UNIFIED);

	(void)state;
	cgpsi_begin(c);
	cgpsi_row(c, &p);
	assert_true(p.side->has_cgpsi_cpu && p.side->has_cgpsi_mem && p.side->has_cgpsi_io);
	assert_true(p.side->cgpsi_cpu_some10 == 1.25 && p.side->cgpsi_cpu_some60 == 0.5);
	assert_true(p.side->cgpsi_mem_some10 == 2 && p.side->cgpsi_mem_some60 == 3);
	assert_true(p.side->cgpsi_mem_full10 == 4 && p.side->cgpsi_mem_full60 == 5);
	assert_true(p.side->cgpsi_io_some10 == 6 && p.side->cgpsi_io_some60 == 7);
	assert_true(p.side->cgpsi_io_full10 == 8 && p.side->cgpsi_io_full60 == 9.99);
	/* the same cgroup's next row this frame: not read again */
	put("cg/unified/a.slice/cpu.pressure", "some avg10=50.00 avg60=0.50 avg300=0.10 total=9\n");
	cgpsi_row(c, &q);
	assert_true(q.side->has_cgpsi_cpu && q.side->cgpsi_cpu_some10 == 1.25);
	/* the next frame reads it */
	cgpsi_begin(c);
	cgpsi_row(c, &q);
	assert_true(q.side->has_cgpsi_cpu && q.side->cgpsi_cpu_some10 == 50);
	put("cg/unified/a.slice/cpu.pressure", cg_cpu);
	cgpsi_free(c);
}

static void test_root_is_the_machine(void **state)
{
	static char root[] = "/", systemd[] = "/system.slice/cron.service";
	struct cgpsi *c = cgpsi_new(proc, sys);
	struct frame_proc p = row(root, FRAME_CGROUP_UNIFIED);
	/* hybrid: the unified line said "/", the row shows the systemd line's path */
	struct frame_proc q = row(systemd, FRAME_CGROUP_UNIFIED_ROOT);

	(void)state;
	cgpsi_begin(c);
	cgpsi_row(c, &p);
	cgpsi_row(c, &q);
	for (int i = 0; i < 2; i++) {
		const struct frame_proc *r = i ? &q : &p;

		assert_true(r->side->has_cgpsi_cpu && r->side->has_cgpsi_mem &&
			    r->side->has_cgpsi_io);
		assert_true(r->side->cgpsi_cpu_some10 == 87.03 &&
			    r->side->cgpsi_cpu_some60 == 33.8);
		assert_true(r->side->cgpsi_mem_full10 == 0.05 && r->side->cgpsi_mem_full60 == 0.15);
		assert_true(r->side->cgpsi_io_some60 == 0.43 && r->side->cgpsi_io_full10 == 0.11);
	}
	/* a root cgroup with files of its own (a newer kernel): those */
	put("cg/unified/cpu.pressure", cg_cpu);
	cgpsi_begin(c);
	cgpsi_row(c, &p);
	assert_true(p.side->has_cgpsi_cpu && p.side->cgpsi_cpu_some10 == 1.25);
	assert_true(p.side->has_cgpsi_mem && p.side->cgpsi_mem_some10 == 0.1);
	cgpsi_free(c);
}

static void test_unknown(void **state)
{
	static char gone[] = "/gone.scope", bad[] = "/bad.slice", a[] = "/a.slice";
	struct cgpsi *c = cgpsi_new(proc, sys);
	struct frame_proc p;
	char big[1024];

	(void)state;
	cgpsi_begin(c);
	p = row(NULL, FRAME_CGROUP_UNIFIED); /* the cgroup file was not read */
	cgpsi_row(c, &p);
	none_known(&p);
	p = row(gone, FRAME_CGROUP_UNIFIED);
	cgpsi_row(c, &p);
	none_known(&p);
	p = row(a, FRAME_CGROUP_NO_UNIFIED); /* a v1 path: no unified line */
	cgpsi_row(c, &p);
	none_known(&p);
	p = row(a, FRAME_CGROUP_UNIFIED);
	p.exited = true;
	cgpsi_row(c, &p);
	none_known(&p);

	/* hostile text: each resource on its own */
	memset(big, ' ', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	put("cg/unified/bad.slice/cpu.pressure", big);
	put("cg/unified/bad.slice/memory.pressure",
	    "some avg10=2.00 avg60=3.00 avg300=0.00 total=5\n");
	put("cg/unified/bad.slice/io.pressure", "some avg10=6.00 avg60=7.00 avg300=0.00 total=7\n"
						"full avg10=8.00 avg60=9.99 avg300=0.00 tot");
	p = row(bad, FRAME_CGROUP_UNIFIED);
	cgpsi_row(c, &p);
	none_known(&p);
	put("cg/unified/bad.slice/cpu.pressure", "some avg10=1.5 avg60=0.50 avg300=0.10 total=1\n");
	put("cg/unified/bad.slice/io.pressure", cg_io);
	cgpsi_begin(c);
	p = row(bad, FRAME_CGROUP_UNIFIED);
	cgpsi_row(c, &p);
	assert_false(p.side->has_cgpsi_cpu); /* one decimal: not the kernel's */
	assert_false(p.side->has_cgpsi_mem); /* memory without its full line */
	assert_true(p.side->has_cgpsi_io && p.side->cgpsi_io_full60 == 9.99);
	cgpsi_free(c);
}

static void test_no_unified(void **state)
{
	static char a[] = "/a.slice";
	char other[300];
	struct cgpsi *c;
	struct frame_proc p = row(a, FRAME_CGROUP_UNIFIED);

	(void)state;
	/* a cgroup root that is neither a cgroup2 mount nor has one under "unified" */
	snprintf(other, sizeof(other), "%s/proc", top);
	c = cgpsi_new(proc, other);
	cgpsi_begin(c);
	cgpsi_row(c, &p);
	none_known(&p);
	cgpsi_free(c);
	/* a proc root of another machine, without a cgroup root: not this machine's cgroups */
	c = cgpsi_new(proc, NULL);
	p = row(a, FRAME_CGROUP_UNIFIED);
	cgpsi_begin(c);
	cgpsi_row(c, &p);
	none_known(&p);
	cgpsi_free(c);
}

/* Many cgroups in one frame: the table grows, and each row finds its own. */
static void test_many(void **state)
{
	static char paths[300][16];
	struct cgpsi *c = cgpsi_new(proc, sys);

	(void)state;
	for (int i = 0; i < 300; i++) {
		char rel[64], text[128];

		snprintf(paths[i], sizeof(paths[i]), "/m%d", i);
		snprintf(rel, sizeof(rel), "cg/unified/m%d/cpu.pressure", i);
		snprintf(text, sizeof(text), "some avg10=%d.00 avg60=0.00 avg300=0.00 total=1\n",
			 i);
		put(rel, text);
	}
	cgpsi_begin(c);
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < 300; i++) {
			struct frame_proc p = row(paths[i], FRAME_CGROUP_UNIFIED);

			cgpsi_row(c, &p);
			assert_true(p.side->has_cgpsi_cpu);
			assert_true(p.side->cgpsi_cpu_some10 == i);
			assert_false(p.side->has_cgpsi_mem);
		}
	cgpsi_free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_cgroup_read_once),
	    cmocka_unit_test(test_root_is_the_machine),
	    cmocka_unit_test(test_unknown),
	    cmocka_unit_test(test_no_unified),
	    cmocka_unit_test(test_many),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
