// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_pecfg.c: process-exporter's configuration (src/output/pecfg.c), over
 * the fixtures in tests/fixtures/pe-config. The README's examples name
 * processes as process-exporter does: comm in a list, exe by name or full
 * path against the first word, cmdline expressions with named groups, the
 * first matching rule wins, {{.ExeBase}} without a name. Every field of the
 * template is filled (StartTime as Go prints a time, Cgroups as a Go slice,
 * a missing match as "<no value>"); unknown keys are skipped with a warning.
 * Bad files end with a message naming the file, the line and the fault: a
 * template field process-exporter lacks, an unclosed {{, a bad expression,
 * a rule without matchers, wrong types, a key given twice, a list holding a
 * list, a root that is not a mapping, YAML that does not parse. An empty list matches nothing; an expression that
 * would backtrack for ever is cut off by the match limit and matches nothing.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ptop/pecfg.h"

static struct pecfg *load(const char *name, struct sbuf *warn)
{
	char path[512];
	struct sbuf why = {0};
	struct pecfg *c;

	snprintf(path, sizeof(path), "%s/pe-config/%s", FIXTURES, name);
	if (pecfg_read(path, &c, &why, warn))
		fail_msg("%s: %s", name, sbuf_cstr(&why));
	sbuf_free(&why);
	return c;
}

/* The name c gives a process of comm and the command line words (NULL-ended); NULL: none. */
static char *name_of(const struct pecfg *c, const char *comm, const char *user, long pid, ...)
{
	const char *argv[16];
	struct pecfg_proc p = {.comm = comm, .argv = argv, .user = user, .pid = pid};
	struct sbuf name = {0};
	va_list ap;

	va_start(ap, pid);
	for (const char *a; (a = va_arg(ap, const char *));)
		argv[p.argc++] = a;
	va_end(ap);
	if (!pecfg_name(c, &p, &name)) {
		sbuf_free(&name);
		return NULL;
	}
	return (char *)sbuf_cstr(&name);
}

static void assert_named(char *got, const char *want)
{
	if (!want) {
		assert_null(got);
		return;
	}
	assert_non_null(got);
	assert_string_equal(got, want);
	free(got);
}

static void test_readme(void **state)
{
	struct pecfg *c = load("readme.yaml", NULL);

	(void)state;
	assert_int_equal(pecfg_rules(c), 5);
	assert_named(name_of(c, "bash", "root", 1, "-bash", NULL), "bash");
	assert_named(name_of(c, "sleep", "root", 2, "/usr/bin/sleep", "60", NULL), "sleep");
	/* exe by name: any path; by full path: only that path */
	assert_named(name_of(c, "postgres", "pg", 3, "/usr/lib/postgresql/15/bin/postgres",
			     "-config.file", "/etc/pg.conf", NULL),
		     "/usr/lib/postgresql/15/bin/postgres:/etc/pg.conf");
	assert_named(name_of(c, "prometheus", "prom", 4, "/usr/local/bin/prometheus",
			     "-config.file", "/etc/prom.yml", NULL),
		     "/usr/local/bin/prometheus:/etc/prom.yml");
	/* the same name elsewhere is not that path: the last rule (cmdline .+) takes it */
	assert_named(name_of(c, "prometheus", "prom", 5, "/opt/prometheus", "-config.file",
			     "/etc/prom.yml", NULL),
		     "prom/prometheus/5");
	/* exe matches but the expression does not: not this rule */
	assert_named(name_of(c, "postgres", "pg", 6, "postgres", NULL), "pg/postgres/6");
	assert_named(name_of(c, "python3", "me", 7, "/usr/bin/python3", "/srv/app/run.py", NULL),
		     "python3");
	/* no name: {{.ExeBase}} */
	assert_named(name_of(c, "cron", "root", 8, "/usr/sbin/cron", "-f", NULL), "cron");
	/* a kernel thread has no command line: only comm rules can match it */
	assert_named(name_of(c, "kworker/0:1", "root", 9, NULL), NULL);
	assert_named(name_of(c, "cron", "root", 10, NULL), "cron");
	pecfg_free(c);
}

static void test_all_fields(void **state)
{
	struct sbuf warn = {0};
	struct pecfg *c = load("all-fields.yaml", &warn);
	const char *argv[] = {"/usr/bin/worker", "--flag"};
	const char *cgroups[] = {"0::/system.slice/w.service", "1:name=x:/"};
	struct pecfg_proc p = {
	    .comm = "worker",
	    .argv = argv,
	    .argc = 2,
	    .user = "alice",
	    .pid = 4242,
	    .start_time = 1700000000.25,
	    .cgroups = cgroups,
	    .ncgroups = 2,
	    .cwd = "/srv",
	};
	struct sbuf name = {0};

	(void)state;
	setenv("TZ", "UTC", 1);
	assert_non_null(strstr(sbuf_cstr(&warn), "extra_key is not a key process-exporter reads"));
	assert_true(pecfg_name(c, &p, &name));
	/* Word: the option's name after its dashes */
	assert_string_equal(sbuf_cstr(&name),
			    "c=worker b=worker f=/usr/bin/worker u=alice p=4242 "
			    "t=2023-11-14 22:13:20.25 +0000 UTC "
			    "g=[0::/system.slice/w.service 1:name=x:/] d=/srv m=flag x=<no value>");
	sbuf_free(&name);
	sbuf_free(&warn);
	pecfg_free(c);
}

/* name, and a phrase the message must hold, with the line it names */
static void assert_refused(const char *name, const char *phrase)
{
	char path[512];
	struct sbuf why = {0};
	struct pecfg *c = (struct pecfg *)1;

	snprintf(path, sizeof(path), "%s/pe-config/%s", FIXTURES, name);
	assert_int_equal(pecfg_read(path, &c, &why, NULL), -EINVAL);
	assert_null(c);
	sbuf_cstr(&why);
	if (!strstr(why.p, phrase) || !strstr(why.p, name))
		fail_msg("%s: \"%s\" lacks \"%s\"", name, why.p, phrase);
	sbuf_free(&why);
}

static void test_refused(void **state)
{
	(void)state;
	assert_refused("bad-template.yaml",
		       ":2: name template \"{{.Comm}} {{printf \"%s\" .Comm}}\": {{printf \"%s\" "
		       ".Comm}} is not one of process-exporter's fields");
	assert_refused("bad-unclosed.yaml", ":2: name template \"{{.Comm\": a {{ without its }}");
	assert_refused("bad-regex.yaml", "bad cmdline expression \"a(b\"");
	assert_refused("bad-nomatchers.yaml", ":2: a rule with no matchers");
	assert_refused("bad-types.yaml", ":2: name must be a string");
	assert_refused("bad-root.yaml", "no process_names");
	assert_refused("bad-yaml.yaml", "not YAML");
	assert_refused("bad-twice.yaml", ":3: comm given twice in one rule");
	assert_refused("bad-nested.yaml", ":2: comm must be a list of strings");
}

static void test_missing_file(void **state)
{
	struct sbuf why = {0};
	struct pecfg *c;

	(void)state;
	assert_int_equal(pecfg_read(FIXTURES "/pe-config/none.yaml", &c, &why, NULL), -ENOENT);
	assert_null(c);
	assert_int_equal(pecfg_read(FIXTURES "/pe-config", &c, &why, NULL), -EISDIR);
	sbuf_free(&why);
}

static void test_empty_list(void **state)
{
	struct pecfg *c = load("empty-list.yaml", NULL);

	(void)state;
	assert_named(name_of(c, "sh", "root", 1, "/bin/sh", "-c", "true", NULL), "sh");
	assert_named(name_of(c, "bash", "root", 2, "/bin/bash", NULL), NULL);
	pecfg_free(c);
}

static void test_backtracking(void **state)
{
	struct pecfg *c = load("backtrack.yaml", NULL);
	char line[64];

	(void)state;
	memset(line, 'a', sizeof(line) - 2);
	line[sizeof(line) - 2] = 'b';
	line[sizeof(line) - 1] = '\0';
	/* (a+)+$ on a...ab backtracks exponentially: cut off, no match, the next rule */
	assert_named(name_of(c, "victim", "root", 1, line, NULL), "victim");
	assert_named(name_of(c, "victim", "root", 2, "aaa", NULL), "slow");
	pecfg_free(c);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_readme),     cmocka_unit_test(test_all_fields),
	    cmocka_unit_test(test_refused),    cmocka_unit_test(test_missing_file),
	    cmocka_unit_test(test_empty_list), cmocka_unit_test(test_backtracking),
	};

	if (argc > 1)
		cmocka_set_test_filter(argv[1]);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
