// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_fieldfilter.c: top's other filters (src/ui/fieldfilter.c): parsing
 * "[!]FIELD=VALUE", "FIELD<N", "FIELD>N" with headings or field names, the
 * errors for malformed input, and matching rows as top does: '=' is a
 * substring of the value shown, '<' and '>' compare numbers, '!' negates,
 * o ignores case and O does not.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "ptop/ui.h"

static struct frame_proc row(const char *comm, const char *user, double cpu)
{
	struct frame_proc p = {.pid = 42, .ppid = 1, .tgid = 42, .state = 'S'};

	p.comm_len = (uint8_t)strlen(comm);
	memcpy(p.comm, comm, p.comm_len);
	p.user = user;
	p.cpu_pct = cpu;
	p.rss_kb = 2048;
	return p;
}

static bool matches(const char *filter, bool icase, const struct frame_proc *p)
{
	struct field_filter ff;
	struct frame f = {.hz = 100};
	struct sbuf scratch = {0};
	bool hit;

	if (field_filter_parse(filter, icase, &ff))
		fail_msg("%s does not parse", filter);
	hit = field_filter_match(&ff, p, &f, NULL, &scratch);
	sbuf_free(&scratch);
	return hit;
}

static void test_numbers(void **state)
{
	struct frame_proc busy = row("bash", "root", 7.5), idle = row("bash", "root", 2.0);

	(void)state;
	assert_true(matches("%CPU>5.0", true, &busy));
	assert_false(matches("%CPU>5.0", true, &idle));
	assert_true(matches("%cpu<5", true, &idle));
	assert_true(matches("cpu<5", true, &idle)); /* a field name works too */
	assert_false(matches("!%CPU>5.0", true, &busy));
	assert_true(matches("!%CPU>5.0", true, &idle));
	assert_true(matches("RES>2000", true, &busy)); /* KiB, as kept */
	assert_false(matches("RES>2048", true, &busy));
	assert_true(matches("PID=4", true, &busy)); /* '=' is a substring, as in top */
}

static void test_text(void **state)
{
	struct frame_proc p = row("bash", "root", 0);

	(void)state;
	assert_true(matches("COMMAND=as", true, &p));
	assert_true(matches("COMMAND=BA", true, &p));
	assert_false(matches("COMMAND=BA", false, &p)); /* O: exact case */
	assert_false(matches("!COMMAND=bash", true, &p));
	assert_true(matches("!COMMAND=zsh", true, &p));
	assert_true(matches("USER=ro", true, &p));
	assert_true(matches("USER>abc", true, &p));
	assert_true(matches("COMMAND=", true, &p)); /* empty: everything contains it */
	assert_true(matches("S=S", true, &p));
}

static void test_malformed(void **state)
{
	static const struct {
		const char *s;
		int err;
	} bad[] = {
	    {"", -EINVAL},	   {"=x", -EINVAL},
	    {"%CPU", -EINVAL},	   {"!", -EINVAL},
	    {"!=1", -EINVAL},	   {"%CPU>", -EINVAL},
	    {"%CPU>abc", -EINVAL}, {"%CPU<1e999", -EINVAL},
	    {"%CPU>nan", -EINVAL}, {"NOPE=1", -ENOENT},
	    {"CPU%%=1", -ENOENT},  {"COMMANDCOMMANDCOMMANDCOMMAND=1", -ENOENT},
	};
	struct field_filter ff;
	char longv[128];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (field_filter_parse(bad[i].s, true, &ff) != bad[i].err)
			fail_msg("\"%s\": %d, expected %d", bad[i].s,
				 field_filter_parse(bad[i].s, true, &ff), bad[i].err);
	/* both tools' headings and names: htop's CPU% is top's %CPU */
	assert_int_equal(field_filter_parse("CPU%>1", true, &ff), 0);
	assert_int_equal(ff.field, FIELD_CPU);
	assert_int_equal(field_filter_parse("NLWP>1", true, &ff), 0);
	assert_int_equal(ff.field, FIELD_THREADS);
	assert_int_equal(field_filter_parse("nTH>1", true, &ff), 0);
	assert_int_equal(ff.field, FIELD_THREADS);
	memset(longv, 'a', sizeof(longv));
	memcpy(longv, "COMMAND=", 8);
	longv[sizeof(longv) - 1] = '\0';
	assert_int_equal(field_filter_parse(longv, true, &ff), -ERANGE);
	assert_int_equal(field_filter_parse("!%MEM>1.5", false, &ff), 0);
	assert_true(ff.negate);
	assert_false(ff.icase);
	assert_int_equal(ff.field, FIELD_MEM);
	assert_int_equal(ff.op, '>');
	assert_true(ff.num == 1.5);
}

static void test_contains(void **state)
{
	(void)state;
	assert_true(text_contains("Firefox", 7, "fire", true));
	assert_false(text_contains("Firefox", 7, "fire", false));
	assert_true(text_contains("abc", 3, "", true));
	assert_false(text_contains("ab", 2, "abc", true));
	/* only the n bytes count */
	assert_false(text_contains("abcdef", 3, "def", true));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_numbers),
	    cmocka_unit_test(test_text),
	    cmocka_unit_test(test_malformed),
	    cmocka_unit_test(test_contains),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
