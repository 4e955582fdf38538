// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_column.c: adding a column over a member the row has is one line in
 * include/ptop/columns.def. This program is built with PTOP_TEST_COLUMN,
 * which adds that line (FIELD_TEST, "testcol", the voluntary context
 * switches, key "test_vcsw") and nothing else, and checks that the column then shows in the text formats,
 * JSON and CSV, sorts, and is found by name (-s, ptoprc).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "ptop/output.h"

static struct frame_proc procs[2];
static struct frame_proc_side sides[2]; /* JSON and CSV write the side members' keys too */
static struct frame frame;
static const struct frame_proc *rows[2];

static int setup(void **state)
{
	(void)state;
	memset(procs, 0, sizeof(procs));
	memset(sides, 0, sizeof(sides));
	for (int i = 0; i < 2; i++) {
		procs[i].side = &sides[i];
		procs[i].pid = procs[i].tgid = 100 + i;
		procs[i].state = 'S';
		procs[i].user = "root";
		memcpy(procs[i].comm, "cmd", 3);
		procs[i].comm_len = 3;
		procs[i].perf_fds = -1;
		rows[i] = &procs[i];
	}
	procs[0].vctxsw = 42;
	procs[1].vctxsw = 7;
	memset(&frame, 0, sizeof(frame));
	frame.procs = procs;
	frame.nprocs = frame.cap = 2;
	frame.hz = 100;
	return 0;
}

static void test_found_by_name(void **state)
{
	(void)state;
	assert_int_equal(field_by_name("testcol"), FIELD_TEST);
	assert_string_equal(field_defs[FIELD_TEST].title, "TEST");
}

static void test_text(void **state)
{
	struct sbuf b = {0};

	(void)state;
	field_format(&b, FIELD_TEST, &procs[0], &frame, NULL);
	assert_string_equal(sbuf_cstr(&b), "42");
	sbuf_free(&b);
}

static void test_json(void **state)
{
	struct sbuf b = {0};

	(void)state;
	output_json_frame(&b, &frame, NULL, rows, 2, true);
	assert_non_null(strstr(sbuf_cstr(&b), "\"test_vcsw\":42"));
	assert_non_null(strstr(sbuf_cstr(&b), "\"test_vcsw\":7"));
	sbuf_free(&b);
}

/* Field k (from 0) of the CSV line at line (no quoting in this test's frame): its length, at *at. */
static size_t csv_field(const char *line, int k, const char **at)
{
	for (; k > 0; k--) {
		line = strchr(line, ',');
		assert_non_null(line);
		line++;
	}
	*at = line;
	return strcspn(line, ",\r\n");
}

/*
 * The heading comes last in CSV, as the column is the table's last row, and
 * its value last in each row; the columns of files that were not read (I/O,
 * control group) are empty, never 0, whatever other columns the table has.
 */
static void test_csv(void **state)
{
	static const char last[] = ",test_vcsw\r\n";
	struct sbuf b = {0};
	const char *s, *nl, *row2, *at;
	int empty = 0;

	(void)state;
	output_csv_frame(&b, &frame, NULL, rows, 2, true);
	s = sbuf_cstr(&b);
	nl = strchr(s, '\n');
	assert_non_null(nl);
	assert_true((size_t)(nl + 1 - s) > strlen(last));
	assert_memory_equal(nl + 1 - strlen(last), last, strlen(last));
	row2 = strchr(nl + 1, '\n');
	assert_non_null(row2);
	assert_memory_equal(row2 - strlen(",42\r"), ",42\r", strlen(",42\r"));
	assert_non_null(strstr(row2 + 1, ",7\r\n"));
	for (int k = 0;; k++) {
		size_t n = csv_field(s, k, &at);
		const char *v;

		if (!strncmp(at, "io_", 3) || (n == 6 && !strncmp(at, "cgroup", n)) ||
		    (n == 9 && !strncmp(at, "container", n))) {
			assert_int_equal(csv_field(nl + 1, k, &v), 0);
			assert_int_equal(csv_field(row2 + 1, k, &v), 0);
			empty++;
		}
		if (at[n] != ',')
			break;
	}
	assert_true(empty >= 8); /* six I/O columns, the cgroup and the container */
	sbuf_free(&b);
}

static void test_sorts(void **state)
{
	const struct frame_proc *sorted[2] = {&procs[0], &procs[1]};
	struct row_order by = {.field = FIELD_TEST};

	(void)state;
	rows_sort(sorted, 2, &by); /* figures sort largest first */
	assert_ptr_equal(sorted[0], &procs[0]);
	by.reverse = true;
	rows_sort(sorted, 2, &by);
	assert_ptr_equal(sorted[0], &procs[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup(test_found_by_name, setup),
	    cmocka_unit_test_setup(test_text, setup),
	    cmocka_unit_test_setup(test_json, setup),
	    cmocka_unit_test_setup(test_csv, setup),
	    cmocka_unit_test_setup(test_sorts, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
