// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_classify.c: processes into a process-exporter configuration's groups
 * (src/frame/classify.c), over frames built by hand and a proc root made in
 * a temporary directory for their command lines. A rule names a process by
 * its command line or comm; an unmatched child takes its parent's group,
 * even when listed before the parent, and a grandchild its grandparent's; a
 * process in no group has none; a process keeps its group when its command
 * line changes (no -recheck); a PID reused by another process is matched
 * afresh; a thread's row is in its process's group; a process that ended
 * unseen is matched by comm or takes its parent's group.
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

#include "../src/frame/classify.h"

#define MAXP 16

static const char config[] = "process_names:\n"
			     "  - name: \"w-{{.Matches.n}}\"\n"
			     "    cmdline:\n"
			     "    - 'worker (?P<n>[a-z]+)'\n"
			     "  - name: \"{{.Comm}}\"\n"
			     "    comm:\n"
			     "    - db\n";

static char root[64];
static struct frame f;
static struct frame_proc procs[MAXP], gone[MAXP];
static const struct frame_proc *rows[MAXP], *exited[MAXP];
static size_t nexited;

/* PID's command line in the proc root: words separated by NULs. */
static void cmdline(int pid, const char *words)
{
	char path[128];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%d", root, pid);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/%d/cmdline", root, pid);
	fp = fopen(path, "w");
	assert_non_null(fp);
	for (const char *w = words; *w; w++)
		fputc(*w == ' ' ? '\0' : *w, fp);
	fputc('\0', fp);
	fclose(fp);
}

static struct frame_proc *add(int pid, int ppid, const char *comm, uint64_t start)
{
	struct frame_proc *p = &procs[f.nprocs];

	memset(p, 0, sizeof(*p));
	p->pid = p->tgid = pid;
	p->ppid = ppid;
	p->comm_len = (uint8_t)strlen(comm);
	memcpy(p->comm, comm, p->comm_len);
	p->start_ticks = start;
	p->user = "root";
	rows[f.nprocs++] = p;
	return p;
}

static void add_exited(int pid, int ppid, const char *comm)
{
	struct frame_proc *p = &gone[nexited];

	memset(p, 0, sizeof(*p));
	p->pid = p->tgid = pid;
	p->ppid = ppid;
	p->comm_len = (uint8_t)strlen(comm);
	memcpy(p->comm, comm, p->comm_len);
	p->start_ticks = 1;
	p->exited = true;
	exited[nexited++] = p;
}

/* The group of row i as a string ("" for none). */
static const char *group(struct classifier *c, const struct frame_proc *p)
{
	static char out[80];
	size_t len;
	const char *g = classifier_group(c, p, &len);

	snprintf(out, sizeof(out), "%.*s", g ? (int)len : 0, g ? g : "");
	return out;
}

static void take(struct classifier *c)
{
	classifier_frame(c, root, true, &f, rows, f.nprocs, exited, nexited);
}

static void test_groups(void **state)
{
	struct sbuf why = {0};
	struct pecfg *cfg;
	struct classifier *c;

	(void)state;
	assert_int_equal(pecfg_parse(config, sizeof(config) - 1, "test", &cfg, &why, NULL), 0);
	c = classifier_new(cfg);
	f = (struct frame){.procs = procs, .cap = MAXP, .hz = 100};

	/* a grandchild and a child listed before their parent */
	cmdline(21, "sleep 5");
	add(21, 20, "sleep", 3);
	cmdline(20, "sh -c x");
	add(20, 10, "sh", 2);
	cmdline(10, "worker alpha");
	add(10, 1, "python3", 1);
	cmdline(12, "postgres -D x");
	add(12, 1, "db", 1);
	cmdline(14, "lone");
	add(14, 1, "lone", 1);
	/* a thread of 10 */
	cmdline(11, "worker alpha");
	add(11, 1, "python3", 1)->tgid = 10;
	take(c);
	assert_string_equal(group(c, rows[2]), "w-alpha");
	assert_string_equal(group(c, rows[1]), "w-alpha");
	assert_string_equal(group(c, rows[0]), "w-alpha");
	assert_string_equal(group(c, rows[3]), "db");
	assert_string_equal(group(c, rows[4]), "");
	assert_string_equal(group(c, rows[5]), "w-alpha");

	/* 10 rewrites its command line: it keeps its group; 14's PID is another process now */
	cmdline(10, "something else");
	cmdline(14, "worker beta");
	f.nprocs = 0;
	add(10, 1, "python3", 1);
	add(14, 1, "lone", 9);
	/* two that ended unseen: one by comm, one under 10 */
	add_exited(30, 1, "db");
	add_exited(31, 10, "cc1");
	add_exited(32, 1, "cc1");
	take(c);
	assert_string_equal(group(c, rows[0]), "w-alpha");
	assert_string_equal(group(c, rows[1]), "w-beta");
	assert_string_equal(group(c, exited[0]), "db");
	assert_string_equal(group(c, exited[1]), "w-alpha");
	assert_string_equal(group(c, exited[2]), "");
	/* what a frame had no longer has a group after a frame without it */
	nexited = 0;
	f.nprocs = 0;
	add(10, 1, "python3", 1);
	take(c);
	assert_string_equal(group(c, &procs[0]), "w-alpha");
	assert_string_equal(group(c, &gone[0]), "");
	classifier_free(c);
	sbuf_free(&why);
}

static int setup(void **state)
{
	(void)state;
	snprintf(root, sizeof(root), "/tmp/ptop-classify.XXXXXX");
	return mkdtemp(root) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_groups),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
