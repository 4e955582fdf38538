// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_fields_man.c: the man page's table of columns (FIELDS: ptop's name,
 * top's title, htop's title, htop's name) is columns.def's, line for line,
 * so a column added there is in the man page or this test fails.
 * PTOP_UPDATE_GOLDEN=1 writes the table into doc/ptop.1 anew.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ptop/util.h"

#ifndef N_
#define N_(s) s
#endif

struct column_names {
	const char *name, *title, *htop_title, *htop;
};

static const struct column_names columns[] = {
#define COLUMN(ID, nm, ttl, ht, htt, w, fl, member, k, d) {nm, ttl, htt, ht},
#define COLUMN_OVER(ID, nm, ttl, ht, htt, w, fl, ty, o, nd, k, d) {nm, ttl, htt, ht},
#include "ptop/columns.def"
#undef COLUMN
#undef COLUMN_OVER
};

/* s, then spaces to width (one at least), a missing one as roff's "\-" */
static void cell(struct sbuf *b, const char *s, size_t width)
{
	size_t n;

	if (!s)
		s = "\\-";
	sbuf_adds(b, s);
	n = strlen(s) - (s[0] == '\\'); /* "\-" is one character wide */
	do
		sbuf_addc(b, ' ');
	while (++n < width);
}

/* The table as the man page has it between its .nf and .fi lines. */
static void table(struct sbuf *b)
{
	sbuf_adds(b, "name            top       htop                htop's name\n");
	for (size_t i = 0; i < sizeof(columns) / sizeof(columns[0]); i++) {
		const struct column_names *c = &columns[i];

		cell(b, c->name, 16);
		cell(b, c->title, 10);
		cell(b, c->htop_title ? c->htop_title : c->title, 20);
		sbuf_adds(b, c->htop ? c->htop : "\\-");
		sbuf_addc(b, '\n');
	}
}

static char *slurp(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "r");
	char *p;
	long n;

	assert_non_null(fp);
	assert_int_equal(fseek(fp, 0, SEEK_END), 0);
	n = ftell(fp);
	assert_true(n > 0);
	rewind(fp);
	p = malloc((size_t)n + 1);
	assert_non_null(p);
	assert_int_equal(fread(p, 1, (size_t)n, fp), (size_t)n);
	p[n] = '\0';
	fclose(fp);
	*len = (size_t)n;
	return p;
}

static void test_fields_table(void **state)
{
	static const char head[] =
	    ".nf\nname            top       htop                htop's name\n";
	char path[4096];
	struct sbuf want = {0};
	size_t len;
	char *page, *from, *to;

	(void)state;
	snprintf(path, sizeof(path), "%s/../../doc/ptop.1", FIXTURES);
	page = slurp(path, &len);
	from = strstr(page, head);
	assert_non_null(from);
	from += 4; /* past ".nf\n" */
	to = strstr(from, ".fi\n");
	assert_non_null(to);
	table(&want);
	if (getenv("PTOP_UPDATE_GOLDEN")) {
		FILE *fp = fopen(path, "w");

		assert_non_null(fp);
		fwrite(page, 1, (size_t)(from - page), fp);
		fwrite(want.p, 1, want.len, fp);
		fputs(to, fp);
		assert_int_equal(fclose(fp), 0);
	} else if ((size_t)(to - from) != want.len || memcmp(from, want.p, want.len)) {
		fail_msg("doc/ptop.1's FIELDS table is not columns.def's: run this test with "
			 "PTOP_UPDATE_GOLDEN=1, then read the diff");
	}
	sbuf_free(&want);
	free(page);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_fields_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
