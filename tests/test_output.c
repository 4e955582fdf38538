// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_output.c: the presenters' shared code and the batch formats
 * (src/output/). A frame built by hand, with hostile process names (spaces,
 * quotes, commas, a newline, a backslash, bytes that are not UTF-8), a
 * real-time priority, a huge VIRT and a long TIME+, is written as text, JSON
 * and CSV and compared with tests/golden/frame.{txt,json,csv}. Run with
 * PTOP_UPDATE_GOLDEN=1 to rewrite them (then read the diff). Unit tests cover
 * memory and time formats, JSON string escapes, row selection and lookups.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "ptop/output.h"

#define NPROCS 10

static struct frame_proc procs[NPROCS];
static struct frame_proc_side sides[NPROCS]; /* each row's side */

static void set_comm(struct frame_proc *p, const char *s, size_t n)
{
	memcpy(p->comm, s, n);
	p->comm_len = (uint8_t)n;
}

/* One process with the plain values most columns take; the caller changes the rest. */
static struct frame_proc *proc_at(int i, int pid, const char *comm, char state)
{
	struct frame_proc *p = &procs[i];

	memset(p, 0, sizeof(*p));
	memset(&sides[i], 0, sizeof(sides[i]));
	p->side = &sides[i];
	p->pid = pid;
	p->tgid = pid;
	p->ppid = 1;
	p->state = state;
	set_comm(p, comm, strlen(comm));
	p->uid = 0;
	p->user = "root";
	p->priority = 20;
	p->nice = 0;
	p->threads = 1;
	p->vsize_kb = 10240;
	p->rss_kb = 2048;
	p->shared_kb = 1024;
	p->mem_pct = 0.03;
	p->utime = 12;
	p->stime = 3;
	p->start_ticks = 5000 + (uint64_t)i;
	p->processor = i % 2;
	p->has_io = true;
	p->io_rchar = 40960 + (uint64_t)i;
	p->io_wchar = 512;
	p->io_read_bytes = 8192;
	p->io_write_bytes = 3ull << 30;
	p->io_read_rate = 1536;
	p->io_write_rate = 10240;
	p->cgroup = "/system.slice/ssh.service";
	p->container = "ssh.service";
	return p;
}

static void build_frame(struct frame *f)
{
	struct frame_proc *p;

	memset(f, 0, sizeof(*f));
	f->time.tv_sec = 1764686441;
	f->time.tv_nsec = 123000000;
	f->interval_s = 3.0;
	f->uptime_s = 3 * 86400 + 4 * 3600 + 10 * 60 + 5.5;
	f->load[0] = 0.15;
	f->load[1] = 1.5;
	f->load[2] = 12.25;
	f->nusers = 2;
	f->pid_max = 4194304;
	f->tasks = (struct frame_tasks){
	    .total = 10, .running = 2, .sleeping = 6, .stopped = 1, .zombie = 1};
	f->cpu = (struct frame_cpu){.user = 12.5,
				    .nice = 0.0,
				    .system = 3.3,
				    .idle = 83.0,
				    .iowait = 0.7,
				    .irq = 0.0,
				    .softirq = 0.5,
				    .steal = 0.0};
	f->mem.total = 8000000;
	f->mem.free = 2000000;
	f->mem.used = 3000000;
	f->mem.buff_cache = 3000000;
	f->mem.avail = 4500000;
	f->swap.total = 1048576;
	f->swap.free = 1000000;
	f->swap.used = 48576;
	f->ncpu = 2;
	f->hz = 100;
	/* every row has a side (proc_at()) */
	f->has_sides = true;
	f->cost = (struct frame_cost){.cpu_s = 0.0125,
				      .wall_s = 0.025,
				      .fds_held = 18,
				      .fd_budget = 1000,
				      .vanished = 1,
				      .unreadable = 0,
				      .fallback = 0};

	p = proc_at(0, 1, "systemd", 'S');
	p->ppid = 0;
	p->vsize_kb = 168000;
	p->rss_kb = 12000;
	p->shared_kb = 9000;
	p->mem_pct = 0.15;
	p->utime = 150;
	p->stime = 300;
	p->start_ticks = 1;
	/* faults read (the others' were not: null) */
	p->side->has_flt = true;
	p->side->minflt = 123456789;
	p->side->majflt = 4321;
	p->side->cminflt = 98765432;
	p->side->cmajflt = 77;
	p->side->has_job = true;
	p->side->pgrp = 1;
	p->side->session = 1;
	p->side->tty_nr = 4 << 8 | 1; /* tty1 */
	p->side->tpgid = 1;
	p->side->policy = 2;
	p->side->rt_priority = 50;
	p->cutime = 3;
	p->cstime = 7;
	p->side->has_seg = true;
	p->side->code_kb = 1500;
	p->side->data_kb = 9876543;

	/* Widest PID, a space in the name, VIRT past 'm', RES in 'm', TIME+ past 999 minutes. */
	p = proc_at(1, 4194303, "Web Content", 'R');
	p->user = "alice";
	p->uid = 1000;
	p->threads = 27;
	p->vsize_kb = 21474836480ull;
	p->rss_kb = 1234567;
	p->shared_kb = 123456;
	p->cpu_pct = 99.5;
	p->mem_pct = 15.43;
	p->utime = 6000000;
	p->stime = 100000;
	/* another user's io, refused: unknown, not 0 */
	p->has_io = false;
	p->cgroup = "/user.slice/user-1000.slice/user@1000.service/app.slice/a,b \"q\".scope";
	p->container = "a,b \"q\".scope";

	p = proc_at(2, 300, "say \"hi\"", 'S');
	p->user = "bob";
	p->uid = 1001;
	p->nice = 5;
	p->priority = 25;
	p->cpu_pct = 0.3;

	p = proc_at(3, 301, "a,b", 'T');
	/* a cgroup that could not be read */
	p->cgroup = p->container = NULL;
	p->nice = -5;
	p->priority = 15;

	p = proc_at(4, 302, "line\nbreak", 'Z');
	p->vsize_kb = 0;
	p->rss_kb = 0;
	p->shared_kb = 0;
	p->mem_pct = 0;

	p = proc_at(5, 303, "back\\slash", 'S');
	p->user = "verylongusername";
	p->uid = 60001;

	/* Bytes that are not UTF-8, and a uid with no name. */
	p = proc_at(6, 304,
		    "\xff\xfe"
		    "bad",
		    'S');
	set_comm(p,
		 "\xff\xfe"
		 "bad",
		 5);
	p->user = "1234";
	p->uid = 1234;

	p = proc_at(7, 305, "caf\xc3\xa9", 'R');
	p->cpu_pct = 12.25;

	/* The kernel's longest ordinary comm, a real-time thread, over 999.9 %CPU. */
	p = proc_at(8, 306, "fifteen_bytes15", 'S');
	p->priority = -100;
	p->threads = 64;
	p->cpu_pct = 1234.5;

	p = proc_at(9, 307, " lead and trail ", 'S');
	p->priority = -51;
	p->nice = 0;

	f->procs = procs;
	f->nprocs = NPROCS;
	f->cap = NPROCS;
}

static const struct frame_proc *const *frame_rows(const struct frame *f)
{
	static const struct frame_proc *rows[NPROCS];

	for (size_t i = 0; i < f->nprocs; i++)
		rows[i] = &f->procs[i];
	return rows;
}

static void read_file(const char *path, struct sbuf *out)
{
	FILE *fp = fopen(path, "rb");
	char buf[4096];
	size_t n;

	if (!fp)
		fail_msg("cannot open %s: %s", path, strerror(errno));
	while ((n = fread(buf, 1, sizeof(buf), fp)) > 0)
		sbuf_add(out, buf, n);
	fclose(fp);
}

/* Compare got with the golden file; with PTOP_UPDATE_GOLDEN set, rewrite it instead. */
static void check_golden(const char *name, struct sbuf *got)
{
	char path[4096];
	struct sbuf want = {0};
	const char *update = getenv("PTOP_UPDATE_GOLDEN");

	/* FIXTURES is SRCDIR/tests/fixtures; the golden files sit next to it. */
	snprintf(path, sizeof(path), "%s", FIXTURES);
	assert_non_null(strstr(path, "/fixtures"));
	snprintf(strrchr(path, '/'), sizeof(path) - (size_t)(strrchr(path, '/') - path),
		 "/golden/%s", name);
	if (update && *update == '1') {
		FILE *fp = fopen(path, "wb");

		assert_non_null(fp);
		assert_int_equal(fwrite(got->p, 1, got->len, fp), got->len);
		assert_int_equal(fclose(fp), 0);
		return;
	}
	read_file(path, &want);
	if (want.len != got->len || memcmp(want.p, got->p, got->len)) {
		fprintf(stderr,
			"--- %s (golden, %zu bytes)\n%.*s\n--- produced (%zu bytes)\n%.*s\n", name,
			want.len, (int)want.len, want.p, got->len, (int)got->len, got->p);
		fail_msg("%s differs from the golden file", name);
	}
	sbuf_free(&want);
}

static void test_golden_text(void **state)
{
	struct frame f;
	struct sbuf b = {0};

	setenv("TZ", "UTC", 1);
	tzset();
	build_frame(&f);
	output_text_frame(&b, &f, NULL, frame_rows(&f), f.nprocs, true);
	check_golden("frame.txt", &b);

	/* A later frame starts with a blank line, then the same text. */
	{
		struct sbuf again = {0};

		output_text_frame(&again, &f, NULL, frame_rows(&f), f.nprocs, false);
		assert_int_equal(again.len, b.len + 1);
		assert_int_equal(again.p[0], '\n');
		assert_memory_equal(again.p + 1, b.p, b.len);
		sbuf_free(&again);
	}
	sbuf_free(&b);
}

/*
 * The text format counts columns in characters: a multibyte user name pads
 * to the same width as an ASCII one, and a long one is cut between
 * characters, so the line stays UTF-8 and the columns after it line up.
 */
static void test_text_multibyte_user(void **state)
{
	static const struct {
		const char *user, *want;
	} cases[] = {
	    {"zoë", "zoë     "},	{"jürgenmüller", "jürgenm+"}, {"müllerjü", "müllerjü"},
	    {"ääääääääää", "äääääää+"}, {"root", "root    "},
	};
	struct frame f;

	build_frame(&f);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sbuf b = {0};
		struct frame_proc *p = proc_at(0, 42, "sh", 'S');
		const struct frame_proc *row = p;
		const char *line, *user;
		char want[64];

		p->user = cases[i].user;
		output_text_frame(&b, &f, NULL, &row, 1, true);
		sbuf_addc(&b, '\0');
		line = strstr(b.p, "\n     42 ");
		assert_non_null(line);
		user = line + strlen("\n     42 ");
		snprintf(want, sizeof(want), "%s%s", cases[i].want, "  20   0");
		assert_memory_equal(user, want, strlen(want));
		sbuf_free(&b);
	}
}

static void test_golden_json(void **state)
{
	struct frame f;
	struct sbuf b = {0}, again = {0};

	build_frame(&f);
	output_json_frame(&b, &f, NULL, frame_rows(&f), f.nprocs, true);
	check_golden("frame.json", &b);
	/* One line per frame, whatever is in the names. */
	assert_int_equal(b.p[b.len - 1], '\n');
	assert_null(memchr(b.p, '\n', b.len - 1));
	output_json_frame(&again, &f, NULL, frame_rows(&f), f.nprocs, false);
	assert_int_equal(again.len, b.len);
	assert_memory_equal(again.p, b.p, b.len);
	sbuf_free(&again);
	sbuf_free(&b);
}

static void test_golden_csv(void **state)
{
	struct frame f;
	struct sbuf b = {0}, again = {0};
	size_t header;

	build_frame(&f);
	output_csv_frame(&b, &f, NULL, frame_rows(&f), f.nprocs, true);
	check_golden("frame.csv", &b);
	/* Only the first frame carries the header row. */
	header = (size_t)((const char *)memchr(b.p, '\n', b.len) - b.p) + 1;
	assert_memory_equal(b.p, "time,pid,", 9);
	output_csv_frame(&again, &f, NULL, frame_rows(&f), f.nprocs, false);
	assert_int_equal(again.len, b.len - header);
	assert_memory_equal(again.p, b.p + header, again.len);
	sbuf_free(&again);
	sbuf_free(&b);
}

/*
 * CSV injection: a text cell that a spreadsheet would read as a formula
 * (=, +, -, @, or a leading tab or carriage return, as OWASP lists them)
 * is quoted with a single quote before it, whichever column it is in;
 * numbers are never touched, so a negative nice value stays -5.
 */
static void test_csv_formula_cells(void **state)
{
	static const char *const cmd = "=cmd|' /C calc'!A0";
	struct output_view v = output_view_default;
	struct frame f;
	struct sbuf b = {0};
	struct frame_proc *p;
	const char *s;

	(void)state;
	build_frame(&f);
	p = proc_at(0, 41, "=HYPERLINK(\"x\")", 'S');
	p->user = "+user";
	p->cgroup = "@cg";
	p->container = "-unit";
	p->nice = -5;
	p->priority = 15;
	p = proc_at(1, 42, "\tname", 'S');
	p->user = "\ruser";
	p = proc_at(2, 43, "plain-name", 'S');
	p->cgroup = "/a=b";
	f.nprocs = 3;
	v.cmdlines = true;
	sbuf_add(&f.strings, cmd, strlen(cmd));
	f.procs[0].has_cmd = true;
	f.procs[0].cmd_off = 0;
	f.procs[0].cmd_len = (uint32_t)strlen(cmd);
	output_csv_frame(&b, &f, &v, frame_rows(&f), f.nprocs, false);
	s = sbuf_cstr(&b);
	assert_non_null(strstr(s, ",41,1,S,\"'+user\",0,15,-5,"));
	assert_non_null(strstr(s, ",\"'=HYPERLINK(\"\"x\"\")\",41,"));
	assert_non_null(strstr(
	    s, ",\"'@cg\",\"'-unit\",0.00,,,,,,,,,,0,0,,,,,,,,,,\"'=cmd|' /C calc'!A0\"\r\n"));
	assert_non_null(strstr(s, ",42,1,S,\"'\ruser\","));
	assert_non_null(strstr(s, ",\"'\tname\",42,"));
	/* only the first character counts */
	assert_non_null(strstr(s, ",plain-name,43,"));
	assert_non_null(strstr(s, ",/a=b,ssh.service,0.00,,,,,,,,,,0,0,,,,,,,,,,\r\n"));
	assert_null(strstr(s, ",="));
	assert_null(strstr(s, ",\"="));
	sbuf_free(&f.strings);
	sbuf_free(&b);
}

/* An empty frame writes its summary (text, JSON) or nothing but the header (CSV). */
static void test_empty_frame(void **state)
{
	struct frame f;
	struct sbuf b = {0};

	build_frame(&f);
	f.nprocs = 0;
	output_csv_frame(&b, &f, NULL, NULL, 0, false);
	assert_int_equal(b.len, 0);
	output_json_frame(&b, &f, NULL, NULL, 0, true);
	assert_non_null(strstr(sbuf_cstr(&b), "\"processes\":[]}\n"));
	sbuf_reset(&b);
	output_text_frame(&b, &f, NULL, NULL, 0, true);
	sbuf_cstr(&b);
	assert_int_equal(b.p[b.len - 1], '\n');
	assert_non_null(strstr(b.p, "\n\n    PID USER"));
	sbuf_free(&b);
}

static void expect_mem(uint64_t kb, int width, const char *want)
{
	struct sbuf b = {0};

	fmt_mem_kb(&b, kb, width);
	assert_string_equal(sbuf_cstr(&b), want);
	sbuf_free(&b);
}

static void test_fmt_mem_kb(void **state)
{
	expect_mem(0, 6, "0");
	expect_mem(999999, 6, "999999");
	expect_mem(1000000, 6, "976.6m"); /* 976.5625 MiB */
	/* top's units (procs 4's scale_mem): one decimal, in the first unit that fits */
	expect_mem(1234567, 6, "1.2g");	  /* 1205.6m is 7 wide */
	expect_mem(6208000, 6, "5.9g");	  /* not 6062m */
	expect_mem(12345678, 7, "11.8g"); /* not 12056m */
	expect_mem(21474836480ull, 7, "20.0t");
	expect_mem(10485760, 5, "10.0g");
	expect_mem(5368709120ull, 4, "5.0t");
	expect_mem(5368709120ull, 0, "5368709120"); /* no width: never scaled */
	expect_mem(UINT64_MAX, 0, "18446744073709551615");
	expect_mem(1ull << 54, 6, "16.0e"); /* the largest vsize: 2^64 bytes */
	expect_mem(1ull << 54, 5, "16.0e");
	expect_mem(UINT64_MAX, 6, "16384e");
}

static void expect_time(uint64_t ticks, long hz, int width, const char *want)
{
	struct sbuf b = {0};

	fmt_time_plus(&b, ticks, hz, width);
	assert_string_equal(sbuf_cstr(&b), want);
	sbuf_free(&b);
}

static void test_fmt_time_plus(void **state)
{
	expect_time(0, 100, 9, "0:00.00");
	expect_time(12345, 100, 9, "2:03.45");
	expect_time(1500, 1000, 9, "0:01.50");
	expect_time(99 * 6000 + 5999, 100, 9, "99:59.99");
	expect_time(999 * 6000 + 5999, 100, 9, "999:59.99");
	/* 1000 minutes no longer fit in 9 columns: hours and minutes. */
	expect_time(1000 * 6000, 100, 9, "16:40");
	expect_time(6100000, 100, 9, "16:56");
	expect_time(6100000, 100, 0, "1016:40.00");
	expect_time(123, 0, 9, "0:00.00"); /* no clock rate: nothing to divide by */
}

static void expect_json(const char *in, size_t n, const char *want)
{
	struct sbuf b = {0};

	json_string(&b, in, n);
	assert_string_equal(sbuf_cstr(&b), want);
	sbuf_free(&b);
}

static void test_json_string(void **state)
{
	expect_json("plain", 5, "\"plain\"");
	expect_json("", 0, "\"\"");
	expect_json("a\"b\\c", 5, "\"a\\\"b\\\\c\"");
	expect_json("\n\t\r", 3, "\"\\n\\t\\r\"");
	expect_json("\x01\x1f", 2, "\"\\u0001\\u001f\"");
	expect_json("a\0b", 3, "\"a\\u0000b\"");
	expect_json("caf\xc3\xa9", 5, "\"caf\xc3\xa9\"");
	expect_json("\xe2\x82\xac", 3, "\"\xe2\x82\xac\"");
	expect_json("\xf0\x9f\x98\x80", 4, "\"\xf0\x9f\x98\x80\"");
	/* Not UTF-8: each byte as a lone low surrogate, as surrogateescape decodes it. */
	expect_json("\xff\xfe", 2, "\"\\udcff\\udcfe\"");
	expect_json("ab\xc3", 3, "\"ab\\udcc3\"");		     /* cut short */
	expect_json("\xc3(", 2, "\"\\udcc3(\"");		     /* bad continuation */
	expect_json("\xc0\x80", 2, "\"\\udcc0\\udc80\"");	     /* overlong NUL */
	expect_json("\xe0\x80\xaf", 3, "\"\\udce0\\udc80\\udcaf\""); /* overlong '/' */
	expect_json("\xed\xa0\x80", 3, "\"\\udced\\udca0\\udc80\""); /* a surrogate */
	expect_json("\xf4\x90\x80\x80", 4, "\"\\udcf4\\udc90\\udc80\\udc80\""); /* > U+10FFFF */
	expect_json("\x80", 1, "\"\\udc80\"");
}

static void test_fmt_time_rfc3339(void **state)
{
	char out[RFC3339_LEN + 1];
	struct timespec ts = {.tv_sec = 1764686441, .tv_nsec = 123999999};

	assert_int_equal(fmt_time_rfc3339(out, &ts), RFC3339_LEN);
	assert_string_equal(out, "2025-12-02T14:40:41.123Z");
	ts = (struct timespec){.tv_sec = 0, .tv_nsec = 0};
	fmt_time_rfc3339(out, &ts);
	assert_string_equal(out, "1970-01-01T00:00:00.000Z");
}

static void test_fmt_printable(void **state)
{
	struct sbuf b = {0};

	assert_int_equal(fmt_printable(&b, "line\nbreak", 10), 10);
	assert_string_equal(sbuf_cstr(&b), "line?break");
	sbuf_reset(&b);
	assert_int_equal(fmt_printable(&b,
				       "\xff\xfe"
				       "caf\xc3\xa9\x7f",
				       8),
			 7);
	assert_string_equal(sbuf_cstr(&b), "??caf\xc3\xa9?");
	/* C1 CSI (U+009B) and a bidi override (U+202E): one '?' each; U+00A0 and
	 * U+2030 beside them are ordinary characters */
	sbuf_reset(&b);
	assert_int_equal(fmt_printable(&b,
				       "a\xc2\x9b"
				       "31mb\xe2\x80\xae"
				       "c\xc2\xa0\xe2\x80\xb0",
				       16),
			 10);
	assert_string_equal(sbuf_cstr(&b), "a?31mb?c\xc2\xa0\xe2\x80\xb0");
	sbuf_free(&b);
}

/* PIDs of the first n rows, for comparing with an expected list. */
static void expect_pids(const struct frame_proc **rows, size_t n, const int *want, size_t nwant)
{
	assert_int_equal(n, nwant);
	for (size_t i = 0; i < n; i++) {
		if (rows[i]->pid != want[i])
			fail_msg("row %zu: pid %d, expected %d", i, rows[i]->pid, want[i]);
	}
}

static void test_rows_filter(void **state)
{
	const struct frame_proc *rows[NPROCS];
	struct row_order by_pid = {.field = FIELD_PID};
	struct row_filter flt = {0};
	struct frame f;
	size_t n;

	build_frame(&f);
	n = rows_select(&f, NULL, NULL, rows);
	assert_int_equal(n, NPROCS);
	assert_ptr_equal(rows[1], &f.procs[1]); /* no order: frame order */

	{
		const int pids[] = {303, 1, 99999};
		const int want[] = {1, 303};

		flt.pids = pids;
		flt.npids = 3;
		n = rows_select(&f, &flt, &by_pid, rows);
		expect_pids(rows, n, want, 2);
		flt.npids = 0;
	}
	{
		const int want[] = {1, 301, 302, 305, 306, 307};

		flt.by_uid = true;
		flt.uid = 0;
		n = rows_select(&f, &flt, &by_pid, rows);
		expect_pids(rows, n, want, 6);
		flt.uid = 1001;
		n = rows_select(&f, &flt, &by_pid, rows);
		assert_int_equal(n, 1);
		assert_int_equal(rows[0]->pid, 300);
		flt.uid = 4242;
		assert_int_equal(rows_select(&f, &flt, &by_pid, rows), 0);
		flt.by_uid = false;
	}
	{
		const int want[] = {300, 303};

		/* Substrings match the raw bytes, ASCII letters in any case (-F, as F4). */
		flt.substr = "s";
		n = rows_select(&f, &flt, &by_pid, rows);
		assert_int_equal(n, 4); /* systemd, say "hi", back\slash, fifteen_bytes15 */
		flt.substr = "\"";
		n = rows_select(&f, &flt, &by_pid, rows);
		assert_int_equal(n, 1);
		assert_int_equal(rows[0]->pid, 300);
		flt.substr = "\xff";
		n = rows_select(&f, &flt, &by_pid, rows);
		assert_int_equal(n, 1);
		assert_int_equal(rows[0]->pid, 304);
		flt.substr = "S";
		assert_int_equal(rows_select(&f, &flt, &by_pid, rows), 4);
		flt.substr = "SAY \"H";
		n = rows_select(&f, &flt, &by_pid, rows);
		assert_int_equal(n, 1);
		assert_int_equal(rows[0]->pid, 300);
		flt.substr = "";
		assert_int_equal(rows_select(&f, &flt, &by_pid, rows), NPROCS);
		/* Filters combine. */
		flt.substr = "a";
		flt.by_uid = true;
		flt.uid = 1001;
		n = rows_select(&f, &flt, &by_pid, rows);
		assert_int_equal(n, 1);
		flt.uid = 60001;
		n = rows_select(&f, &flt, &by_pid, rows);
		assert_int_equal(n, 1);
		assert_int_equal(rows[0]->pid, want[1]);
		flt.by_uid = false;
		flt.substr = NULL;
	}
	{
		/* hide_idle keeps what used CPU, and what is running. */
		const int want[] = {300, 305, 306, 4194303};

		flt.hide_idle = true;
		n = rows_select(&f, &flt, &by_pid, rows);
		expect_pids(rows, n, want, 4);
	}
}

static void test_rows_sort(void **state)
{
	const struct frame_proc *rows[NPROCS];
	struct row_order ord = {.field = FIELD_PID};
	struct frame f;
	size_t n;

	build_frame(&f);
	{
		const int want[] = {1, 300, 301, 302, 303, 304, 305, 306, 307, 4194303};

		n = rows_select(&f, NULL, &ord, rows);
		expect_pids(rows, n, want, NPROCS);
		ord.reverse = true;
		n = rows_select(&f, NULL, &ord, rows);
		for (size_t i = 0; i < n; i++)
			assert_int_equal(rows[i]->pid, want[NPROCS - 1 - i]);
	}
	{
		/* %CPU sorts down by nature; equal values keep PID order. */
		const int want[] = {306, 4194303, 305, 300, 1, 301, 302, 303, 304, 307};
		const int rev[] = {1, 301, 302, 303, 304, 307, 300, 305, 4194303, 306};

		ord = (struct row_order){.field = FIELD_CPU};
		n = rows_select(&f, NULL, &ord, rows);
		expect_pids(rows, n, want, NPROCS);
		ord.reverse = true;
		n = rows_select(&f, NULL, &ord, rows);
		expect_pids(rows, n, rev, NPROCS);
	}
	{
		/* Names sort up by their bytes: ' ' < 'W' < 'a' ... < 'z' < 0xff. */
		const int want[] = {307, 4194303, 301, 303, 305, 306, 302, 300, 1, 304};

		ord = (struct row_order){.field = FIELD_COMMAND};
		n = rows_select(&f, NULL, &ord, rows);
		expect_pids(rows, n, want, NPROCS);
	}
	{
		/* Priority down: 25 (bob), then the 20s in PID order, 15, -51, rt last. */
		const int want[] = {300, 1, 302, 303, 304, 305, 4194303, 301, 307, 306};

		ord = (struct row_order){.field = FIELD_PR};
		n = rows_select(&f, NULL, &ord, rows);
		expect_pids(rows, n, want, NPROCS);
	}
	{
		/* TIME+ is utime + stime; RES down, with the zombie's 0 last. */
		ord = (struct row_order){.field = FIELD_TIME};
		n = rows_select(&f, NULL, &ord, rows);
		assert_int_equal(rows[0]->pid, 4194303);
		assert_int_equal(rows[1]->pid, 1);
		ord = (struct row_order){.field = FIELD_RES};
		n = rows_select(&f, NULL, &ord, rows);
		assert_int_equal(rows[0]->pid, 4194303);
		assert_int_equal(rows[1]->pid, 1);
		assert_int_equal(rows[2]->pid, 300);
		assert_int_equal(rows[n - 1]->pid, 302);
		ord = (struct row_order){.field = FIELD_USER};
		n = rows_select(&f, NULL, &ord, rows);
		assert_string_equal(rows[0]->user, "1234");
		assert_string_equal(rows[1]->user, "alice");
		assert_string_equal(rows[n - 1]->user, "verylongusername");
	}
}

/*
 * Every field, both ways: each row sorts before the next by its value in the
 * field's direction, or by PID among equal values (what field_compare() says
 * of the two values, the PID made equal).
 */
static void test_rows_sort_every_field(void **state)
{
	const struct frame_proc *rows[NPROCS];
	struct frame f;
	size_t n;

	build_frame(&f);
	for (int id = 0; id < FIELD_COUNT; id++) {
		if (id == FIELD_PID)
			continue; /* the value is the PID: test_rows_sort */
		for (int reverse = 0; reverse < 2; reverse++) {
			struct row_order ord = {.field = (enum field_id)id, .reverse = reverse};
			int sign = (field_defs[id].ascending ? 1 : -1) * (reverse ? -1 : 1);

			n = rows_select(&f, NULL, &ord, rows);
			assert_int_equal(n, NPROCS);
			for (size_t i = 0; i + 1 < n; i++) {
				struct frame_proc next = *rows[i + 1];
				int c;

				next.pid = rows[i]->pid;
				c = sign * field_compare((enum field_id)id, rows[i], &next);
				if (c > 0 || (c == 0 && rows[i]->pid > rows[i + 1]->pid))
					fail_msg("%s%s: PID %d before %d", field_defs[id].name,
						 reverse ? " reversed" : "", rows[i]->pid,
						 rows[i + 1]->pid);
			}
		}
	}
}

/* The reference order: by field_compare() in the field's direction, then PID. */
static const struct row_order *ref_ord;

static int ref_cmp(const void *x, const void *y)
{
	const struct frame_proc *a = *(const struct frame_proc *const *)x;
	const struct frame_proc *b = *(const struct frame_proc *const *)y;
	struct frame_proc bb = *b;
	int sign = (field_defs[ref_ord->field].ascending ? 1 : -1) * (ref_ord->reverse ? -1 : 1);
	int c;

	bb.pid = a->pid;
	c = sign * field_compare(ref_ord->field, a, &bb);
	return c ? c : (a->pid > b->pid) - (a->pid < b->pid);
}

/*
 * Rows most of which share one value (an idle machine's 0.0 %CPU), listed
 * by PID or not, both ways: rows_sort() gives the order one full sort does.
 */
static void test_rows_sort_common_key(void **state)
{
	enum { N = 600 };
	static struct frame_proc many[N];
	const struct frame_proc *rows[N], *want[N];
	unsigned seed = 7;

	(void)state;
	for (int shuffled = 0; shuffled < 2; shuffled++) {
		for (int common = 40; common <= 95; common += 5) {
			for (int i = 0; i < N; i++) {
				memset(&many[i], 0, sizeof(many[i]));
				many[i].pid = 10 + 3 * i;
				seed = seed * 1103515245u + 12345u;
				many[i].cpu_pct = (int)(seed >> 16) % 100 < common
						      ? 0.0
						      : (double)((seed >> 8) % 7) / 2.0;
				many[i].nice = (int64_t)((seed >> 4) % 3) - 1;
			}
			for (int i = 0; i < N; i++)
				rows[i] = &many[i];
			if (shuffled)
				for (int i = N - 1; i > 0; i--) {
					const struct frame_proc *t = rows[i];
					int j;

					seed = seed * 1103515245u + 12345u;
					j = (int)((seed >> 8) % (unsigned)(i + 1));
					rows[i] = rows[j];
					rows[j] = t;
				}
			for (int f = 0; f < 2; f++)
				for (int reverse = 0; reverse < 2; reverse++) {
					struct row_order ord = {.field = f ? FIELD_NI : FIELD_CPU,
								.reverse = reverse};
					const struct frame_proc *in[N];

					memcpy(in, rows, sizeof(in));
					memcpy(want, rows, sizeof(want));
					ref_ord = &ord;
					qsort(want, N, sizeof(*want), ref_cmp);
					rows_sort(in, N, &ord);
					for (int i = 0; i < N; i++)
						if (in[i] != want[i])
							fail_msg(
							    "common %d%%%s%s: row %d is PID %d, "
							    "not %d",
							    common, shuffled ? " shuffled" : "",
							    reverse ? " reversed" : "", i,
							    in[i]->pid, want[i]->pid);
				}
		}
	}
}

static void test_field_by_name(void **state)
{
	assert_int_equal(field_by_name("pid"), FIELD_PID);
	assert_int_equal(field_by_name("PID"), FIELD_PID);
	assert_int_equal(field_by_name("Cpu"), FIELD_CPU);
	assert_int_equal(field_by_name("command"), FIELD_COMMAND);
	assert_int_equal(field_by_name("time"), FIELD_TIME);
	assert_int_equal(field_by_name("nosuch"), -1);
	assert_int_equal(field_by_name(""), -1);
	assert_int_equal(field_by_name("pi"), -1);
	assert_int_equal(field_by_name("pidx"), -1);
	/* one column, two titles: top's and htop's, and one key */
	assert_int_equal(field_by_title("nMaj"), FIELD_MAJFLT);
	assert_int_equal(field_by_htop_name("MAJFLT"), FIELD_MAJFLT);
	assert_int_equal(field_by_title("nMin"), FIELD_MINFLT);
	assert_int_equal(field_by_htop_name("minflt"), FIELD_MINFLT);
	assert_string_equal(field_defs[FIELD_MAJFLT].key, "majflt");
	assert_int_equal(field_by_title("SID"), FIELD_SESSION);
	assert_int_equal(field_by_htop_name("SESSION"), FIELD_SESSION);
	assert_int_equal(field_by_title("CLS"), FIELD_POLICY);
	assert_int_equal(field_by_htop_name("SCHEDULERPOLICY"), FIELD_POLICY);
	/* Every row of the table has a name and a title, and finds itself. */
	for (int i = 0; i < FIELD_COUNT; i++) {
		assert_non_null(field_defs[i].name);
		assert_non_null(field_defs[i].title);
		assert_int_equal(field_by_name(field_defs[i].name), i);
	}
}

/*
 * One column, two titles: the key profile chooses the heading (top's, or
 * htop's where htop has its own); every title and name finds its column, but
 * "CPU" stays ptop's name for %CPU; JSON's keys do not follow the headings.
 */
static void test_two_titles(void **state)
{
	struct output_view top = output_view_default, htop = output_view_default;
	struct sbuf a = {0}, b = {0};
	struct frame f;
	const char *s;

	(void)state;
	htop.htop_titles = true;
	assert_string_equal(field_heading(FIELD_THREADS, false), "nTH");
	assert_string_equal(field_heading(FIELD_THREADS, true), "NLWP");
	assert_string_equal(field_heading(FIELD_CPU, true), "CPU%");
	assert_string_equal(field_heading(FIELD_PROCESSOR, true), "CPU");
	assert_string_equal(field_heading(FIELD_RES, true), "RES");
	assert_string_equal(field_heading(FIELD_WCHAN, true), "WCHAN"); /* htop has none */
	for (int i = 0; i < FIELD_COUNT; i++) {
		const struct field_def *d = &field_defs[i];

		assert_int_equal(field_named(d->title, false), i);
		assert_int_equal(field_named(d->name, false), i);
		/* top's titles first: htop's CPU is top's %CPU (ptop's name cpu), htop's EXE
		 * (the exe's name, EXENAME) top's EXE (its path), htop's TIME (TIME+) top's TIME
		 * (whole seconds: the same order) */
		if (d->htop && i != FIELD_EXENAME && i != FIELD_TIME)
			assert_int_equal(field_named(d->htop, false), i);
		/* a title that would say the same as top's is NULL */
		if (d->htop_title && strcmp(d->htop_title, d->title) == 0)
			fail_msg("%s: htop's title is top's", d->name);
		if (d->htop_title && i != FIELD_PROCESSOR && i != FIELD_EXENAME)
			assert_int_equal(field_named(d->htop_title, false), i);
	}
	assert_int_equal(field_named("CPU", false), FIELD_CPU);
	assert_int_equal(field_named("cpu%", false), -1); /* titles exactly, as top's -o */
	assert_int_equal(field_named("cpu%", true), FIELD_CPU);
	assert_int_equal(field_named("%cpu", true), FIELD_CPU);
	assert_int_equal(field_named("p", true), FIELD_PROCESSOR);
	assert_int_equal(field_named("P", false), FIELD_PROCESSOR);
	assert_int_equal(field_named("DISK READ", false), FIELD_IO_READ_RATE);
	assert_int_equal(field_named("nosuch", false), -1);

	build_frame(&f);
	output_text_frame(&a, &f, &top, frame_rows(&f), f.nprocs, true);
	s = sbuf_cstr(&a);
	assert_non_null(strstr(s, " PR  NI "));
	assert_non_null(strstr(s, " %CPU  %MEM     TIME+ COMMAND\n"));
	output_text_frame(&b, &f, &htop, frame_rows(&f), f.nprocs, true);
	s = sbuf_cstr(&b);
	assert_non_null(strstr(s, " PRI  NI "));
	assert_non_null(strstr(s, " CPU%  MEM%     TIME+ Command\n"));
	assert_null(strstr(s, "%CPU"));
	sbuf_reset(&a);
	sbuf_reset(&b);
	output_json_frame(&a, &f, &top, frame_rows(&f), f.nprocs, true);
	output_json_frame(&b, &f, &htop, frame_rows(&f), f.nprocs, true);
	assert_string_equal(sbuf_cstr(&a), sbuf_cstr(&b));
	sbuf_free(&a);
	sbuf_free(&b);
}

/* build_frame() with counters on, counting events e0 and e1. */
static void counters_frame(struct frame *f, const char *e0, const char *e1)
{
	build_frame(f);
	f->counters.on = true;
	f->counters.nevents = 2;
	strcpy(f->counters.names[0], e0);
	strcpy(f->counters.names[1], e1);
}

/*
 * Counters that are no count (a group multiplexed out for the whole interval,
 * a kernel-counted event this user may not count) are null in JSON and empty in
 * CSV, never a 0 that is not a zero; JSON says why, as the text output does.
 */
static void test_counters_no_count(void **state)
{
	struct frame f;
	struct sbuf j = {0}, c = {0};
	const char *s;

	(void)state;
	counters_frame(&f, "task-clock", "context-switches");
	f.counters.na = 2;
	f.counters.refused = 1;
	f.counters.refused_error = -EACCES;
	f.counters.paranoid = 2;
	f.counters.nfailed = 1;
	strcpy(f.counters.failed[0], "cycles");
	f.counters.failed_why[0] = "no hardware PMU";
	for (size_t i = 0; i < f.nprocs; i++) {
		f.procs[i].has_ctr = true;
		f.procs[i].ctr[0] = 0;
		f.procs[i].ctr[1] = 0;
		f.procs[i].ctr_scale = 1;
	}
	f.procs[0].ctr_not_counted = true;
	f.procs[1].ctr[0] = 5e6;
	f.procs[1].ctr_na = 2;
	output_json_frame(&j, &f, NULL, frame_rows(&f), f.nprocs, true);
	s = sbuf_cstr(&j);
	assert_non_null(strstr(s, "{\"source\":\"software\",\"task-clock\":null,"
				  "\"context-switches\":null,\"not_counted\":true}"));
	assert_non_null(strstr(s, "\"task-clock\":5000000,\"context-switches\":null}"));
	assert_non_null(strstr(s, "\"user_only_na\":[\"context-switches\"]"));
	assert_non_null(strstr(s, "\"refused\":1,\"refused_error\":\"Permission denied\","
				  "\"perf_event_paranoid\":2"));
	assert_non_null(
	    strstr(s, "\"failed\":[{\"event\":\"cycles\",\"reason\":\"no hardware PMU\"}]"));
	output_csv_frame(&c, &f, NULL, frame_rows(&f), f.nprocs, true);
	s = sbuf_cstr(&c);
	/* process 1: neither is a count; process 2: task-clock is, context-switches not */
	assert_non_null(strstr(s, ",software,,\r\n"));
	assert_non_null(strstr(s, ",software,5000000,\r\n"));
	sbuf_free(&j);
	sbuf_free(&c);
}

/*
 * Batch text shows counts as the Counters pane does (task-clock in ms, counts
 * past five digits with K/M/G), right-aligned under the event's name; JSON
 * and CSV keep the raw numbers (ns, counts).
 */
static void test_counters_text_units(void **state)
{
	struct frame f;
	struct sbuf t = {0}, j = {0}, c = {0};
	const char *s;

	(void)state;
	counters_frame(&f, "task-clock", "context-switches");
	f.counters.self_ctr[0] = 250e6;
	f.counters.self_ctr[1] = 42;
	for (size_t i = 0; i < f.nprocs; i++)
		f.procs[i].has_ctr = false;
	f.procs[1].has_ctr = true;
	f.procs[1].ctr[0] = 5e6;
	f.procs[1].ctr[1] = 1234567;
	f.procs[1].ctr_scale = 1;
	output_text_frame(&t, &f, NULL, frame_rows(&f), f.nprocs, true);
	s = sbuf_cstr(&t);
	assert_non_null(strstr(s, ": task-clock 250ms context-switches 42\n"));
	assert_non_null(strstr(s, "4194303            5.0ms            1235K   1.00 "));
	assert_null(strstr(s, "1234567"));
	output_json_frame(&j, &f, NULL, frame_rows(&f), f.nprocs, true);
	assert_non_null(
	    strstr(sbuf_cstr(&j), "\"task-clock\":5000000,\"context-switches\":1234567"));
	output_csv_frame(&c, &f, NULL, frame_rows(&f), f.nprocs, true);
	assert_non_null(strstr(sbuf_cstr(&c), ",software,5000000,1234567\r\n"));
	sbuf_free(&t);
	sbuf_free(&j);
	sbuf_free(&c);
}

/*
 * One sentence per counter state: the batch text section and a CTRn column say
 * each the same way (a row multiplexed out is "not counted" in both, never
 * "n/a"), and JSON's flags and nulls follow the same states.
 */
static void test_counters_states(void **state)
{
	struct output_view v = output_view_default;
	struct frame f;
	struct sbuf t = {0}, cell = {0}, j = {0};
	const char *s;

	(void)state;
	counters_frame(&f, "task-clock", "context-switches");
	for (size_t i = 0; i < f.nprocs; i++) {
		f.procs[i].has_ctr = true;
		f.procs[i].ctr_scale = 1;
	}
	f.procs[0].ctr_not_counted = true;
	f.procs[1].ctr_counting = true;
	f.procs[2].ctr_na = 2;
	f.procs[2].ctr[0] = 5e6;
	assert_int_equal(ctr_state(&f, &f.procs[0], 1), CTR_NOT_COUNTED);
	assert_int_equal(ctr_state(&f, &f.procs[1], 0), CTR_COUNTING);
	assert_int_equal(ctr_state(&f, &f.procs[2], 0), CTR_COUNTED);
	assert_int_equal(ctr_state(&f, &f.procs[2], 1), CTR_NA);
	assert_int_equal(ctr_state(&f, &f.procs[2], -1), CTR_COUNTED);
	assert_int_equal(ctr_state(&f, &f.procs[2], 2), CTR_NONE);
	assert_string_equal(ctr_state_text(CTR_COUNTING, false), "counting...");
	assert_string_equal(ctr_state_text(CTR_COUNTING, true), "counting…");
	assert_null(ctr_state_text(CTR_COUNTED, true));
	for (int k = 0; k < 3; k++) {
		static const char *const want[3][2] = {{"not counted", "not counted"},
						       {"counting...", "counting..."},
						       {"5.0ms", "n/a"}};

		for (int e = 0; e < 2; e++) {
			sbuf_reset(&cell);
			field_format(&cell, field_ctr(e), &f.procs[k], &f, NULL);
			assert_string_equal(sbuf_cstr(&cell), want[k][e]);
		}
	}
	v.utf8 = true;
	sbuf_reset(&cell);
	field_format(&cell, FIELD_CTR1, &f.procs[1], &f, &v);
	assert_string_equal(sbuf_cstr(&cell), "counting…");
	f.procs[3].has_ctr = false;
	sbuf_reset(&cell);
	field_format(&cell, FIELD_CTR1, &f.procs[3], &f, NULL);
	assert_string_equal(sbuf_cstr(&cell), "-");
	output_text_frame(&t, &f, NULL, frame_rows(&f), f.nprocs, true);
	s = sbuf_cstr(&t);
	assert_non_null(strstr(s, "      not counted      not counted   1.00 "));
	assert_non_null(strstr(s, "      counting...      counting...   1.00 "));
	assert_non_null(strstr(s, "            5.0ms              n/a   1.00 "));
	output_json_frame(&j, &f, NULL, frame_rows(&f), f.nprocs, true);
	s = sbuf_cstr(&j);
	assert_non_null(strstr(s, "\"context-switches\":null,\"not_counted\":true}"));
	assert_non_null(strstr(s, "\"context-switches\":null,\"counting\":true}"));
	assert_non_null(strstr(s, "\"task-clock\":5000000,\"context-switches\":null}"));
	sbuf_free(&t);
	sbuf_free(&cell);
	sbuf_free(&j);
}

/*
 * The figures derived from the counters are columns: IPC, C/KI, B/KI, CPU%
 * and SCALE show in text, sort, and reach JSON and CSV while counters are on;
 * a figure whose events are not counted (a row counting, an event n/a, no
 * cycles counted) is unknown ('-', null, empty), never a 0.
 */
static void test_counters_derived_columns(void **state)
{
	static const char *const ev[] = {"cycles", "instructions", "cache-misses", "branch-misses",
					 "task-clock"};
	const struct frame_proc *rows[NPROCS];
	struct row_order by_ipc = {.field = FIELD_IPC};
	struct frame f;
	struct sbuf cell = {0}, j = {0}, c = {0};
	const char *s;

	(void)state;
	build_frame(&f);
	f.counters.on = true;
	f.counters.nevents = 5;
	f.interval_s = 1;
	for (int e = 0; e < 5; e++)
		strcpy(f.counters.names[e], ev[e]);
	for (size_t i = 0; i < f.nprocs; i++) {
		f.procs[i].has_ctr = i < 4;
		f.procs[i].ctr_scale = 1;
		f.procs[i].ctr[0] = 1000;
		f.procs[i].ctr[1] = 500.0 * (double)(i + 1);
		f.procs[i].ctr[2] = 5;
		f.procs[i].ctr[3] = 0;
		f.procs[i].ctr[4] = 250e6;
	}
	f.procs[1].ctr_counting = true;
	f.procs[2].ctr_na = 1u << 2; /* cache-misses n/a: no C/KI, not 0 */
	f.procs[3].ctr_partial = true;
	f.procs[3].ctr_scale = 0.5;
	ctr_derive_rows(&f);
	assert_int_equal(field_by_name("ipc"), FIELD_IPC);
	assert_int_equal(field_by_name("scale"), FIELD_SCALE);
	sbuf_reset(&cell);
	field_format(&cell, FIELD_IPC, &f.procs[0], &f, NULL);
	assert_string_equal(sbuf_cstr(&cell), "0.50");
	sbuf_reset(&cell);
	field_format(&cell, FIELD_CMPKI, &f.procs[0], &f, NULL);
	assert_string_equal(sbuf_cstr(&cell), "10.0");
	sbuf_reset(&cell);
	field_format(&cell, FIELD_BMPKI, &f.procs[0], &f, NULL);
	assert_string_equal(sbuf_cstr(&cell), "0.0");
	sbuf_reset(&cell);
	field_format(&cell, FIELD_CTRCPU, &f.procs[0], &f, NULL);
	assert_string_equal(sbuf_cstr(&cell), "25.0");
	for (int id = FIELD_IPC; id <= FIELD_CTRCPU; id++) {
		assert_true(field_absent((enum field_id)id, &f.procs[1])); /* counting */
		assert_true(field_absent((enum field_id)id, &f.procs[4])); /* not attached */
		sbuf_reset(&cell);
		field_format(&cell, (enum field_id)id, &f.procs[1], &f, NULL);
		assert_string_equal(sbuf_cstr(&cell), "-");
	}
	assert_true(field_absent(FIELD_CMPKI, &f.procs[2]));
	assert_false(field_absent(FIELD_IPC, &f.procs[2]));
	sbuf_reset(&cell);
	field_format(&cell, FIELD_SCALE, &f.procs[3], &f, NULL);
	assert_string_equal(sbuf_cstr(&cell), "0.50+");
	sbuf_reset(&cell);
	field_format(&cell, FIELD_SCALE, &f.procs[4], &f, NULL);
	assert_string_equal(sbuf_cstr(&cell), "-");
	/* largest IPC first, the rows without one last */
	for (size_t i = 0; i < f.nprocs; i++)
		rows[i] = &f.procs[i];
	rows_sort(rows, f.nprocs, &by_ipc);
	assert_ptr_equal(rows[0], &f.procs[3]);
	assert_ptr_equal(rows[1], &f.procs[2]);
	assert_ptr_equal(rows[2], &f.procs[0]);
	for (size_t i = 3; i < f.nprocs; i++)
		assert_true(field_absent(FIELD_IPC, rows[i]));
	output_json_frame(&j, &f, NULL, frame_rows(&f), f.nprocs, true);
	s = sbuf_cstr(&j);
	assert_non_null(strstr(s, "\"ipc\":0.500,\"cache_mpki\":10.000,\"branch_mpki\":0.000,"
				  "\"ctr_cpu_pct\":25.000,\"ctr_scale\":1.00"));
	assert_non_null(strstr(s, "\"ipc\":null,\"cache_mpki\":null,\"branch_mpki\":null,"
				  "\"ctr_cpu_pct\":null,\"ctr_scale\":1.00"));
	/* once: the counters object has the counts, not the row's figures again */
	assert_null(strstr(s, "\"scale\""));
	assert_null(strstr(s, "\"cpu_share_pct\""));
	assert_null(strstr(strstr(s, "\"ipc\":0.500") + 1, "\"ipc\":0.500"));
	output_csv_frame(&c, &f, NULL, frame_rows(&f), f.nprocs, true);
	s = sbuf_cstr(&c);
	assert_non_null(strstr(s, ",ipc,cache_mpki,branch_mpki,ctr_cpu_pct,ctr_scale"));
	assert_non_null(strstr(s, ",0.500,10.000,0.000,25.000,1.00"));
	assert_non_null(strstr(s, ",,,,,1.00"));
	/* without counters the formats have none of them */
	f.counters.on = false;
	sbuf_reset(&j);
	output_json_frame(&j, &f, NULL, frame_rows(&f), f.nprocs, true);
	assert_null(strstr(sbuf_cstr(&j), "\"ipc\""));
	sbuf_free(&cell);
	sbuf_free(&j);
	sbuf_free(&c);
}

/*
 * --fields with counter columns: batch text heads each by its event's name,
 * wide enough for it, as the Counters pane and the other formats name them;
 * a column past the events counted keeps its CTRn.
 */
static void test_counters_text_headings(void **state)
{
	static const enum field_id cols[] = {FIELD_PID, FIELD_CTR1, FIELD_CTR2, FIELD_CTR3,
					     FIELD_COMMAND};
	struct output_view v = output_view_default;
	struct frame f;
	struct sbuf t = {0};
	const char *s;

	(void)state;
	build_frame(&f);
	v.columns = cols;
	v.ncolumns = sizeof(cols) / sizeof(cols[0]);
	f.counters.on = true;
	f.counters.nevents = 2;
	strcpy(f.counters.names[0], "ipc");
	strcpy(f.counters.names[1], "perf::PERF_COUNT_HW_CACHE_L1D:READ:ACCESS");
	for (size_t i = 0; i < f.nprocs; i++)
		f.procs[i].has_ctr = false;
	f.procs[1].has_ctr = true;
	f.procs[1].ctr[0] = 7;
	f.procs[1].ctr[1] = 1234567;
	f.procs[1].ctr_scale = 1;
	f.procs[2].has_ctr = true;
	f.procs[2].ctr_counting = true;
	assert_string_equal(field_title(&f, NULL, FIELD_CTR2), f.counters.names[1]);
	assert_string_equal(field_title(&f, NULL, FIELD_CTR3), "CTR3");
	assert_int_equal(field_width(&f, NULL, FIELD_CTR1), field_defs[FIELD_CTR1].width);
	assert_int_equal(field_width(&f, NULL, FIELD_CTR2), (int)strlen(f.counters.names[1]));
	output_text_frame(&t, &f, &v, frame_rows(&f), f.nprocs, true);
	s = sbuf_cstr(&t);
	assert_null(strstr(s, "CTR1"));
	assert_null(strstr(s, "CTR2"));
	assert_non_null(strstr(s,
			       "        ipc perf::PERF_COUNT_HW_CACHE_L1D:READ:ACCESS        CTR3 "
			       "COMMAND\n"));
	/* the values right-aligned under the long name */
	assert_non_null(
	    strstr(s, "          7                                     1235K           - "));
	/* a column is wide enough to say why a cell has no count, uncut */
	assert_non_null(
	    strstr(s, " counting...                               counting...           - "));
	sbuf_free(&t);
}

/* io, cgroup and fault columns: units in the text formats, "-" for unknown, unknown sorts last. */
static void test_io_cgroup_columns(void **state)
{
	static const struct {
		enum field_id id;
		int row;
		const char *want;
	} cases[] = {
	    {FIELD_IO_READ_RATE, 0, "1536"},
	    {FIELD_IO_WRITE_RATE, 0, "10K"},
	    {FIELD_IO_WRITE, 0, "3.0G"},
	    {FIELD_IO_RCHAR, 0, "40K"},
	    {FIELD_IO_WCHAR, 0, "512"},
	    {FIELD_IO_READ_RATE, 1, "-"},
	    {FIELD_IO_WRITE, 1, "-"},
	    {FIELD_CGROUP, 0, "/system.slice/ssh.service"},
	    {FIELD_CONTAINER, 0, "ssh.service"},
	    {FIELD_CGROUP, 3, "-"},
	    {FIELD_CONTAINER, 3, "-"},
	    /* counts past their width in thousands, millions: top's nMin, nMaj */
	    {FIELD_MINFLT, 0, "123M"},
	    {FIELD_MAJFLT, 0, "4321"},
	    {FIELD_CMINFLT, 0, "98.8M"},
	    {FIELD_CMAJFLT, 0, "77"},
	    /* not read: no silent zero */
	    {FIELD_MINFLT, 1, "-"},
	    {FIELD_CMAJFLT, 1, "-"},
	    /* job control and scheduling as ps and top show them */
	    {FIELD_TTY, 0, "tty1"},
	    {FIELD_POLICY, 0, "RR"},
	    {FIELD_RTPRIO, 0, "50"},
	    {FIELD_SESSION, 0, "1"},
	    {FIELD_TTY, 1, "-"},
	    {FIELD_POLICY, 1, "-"},
	    {FIELD_CUTIME, 0, "0:00.03"},
	    {FIELD_CSTIME, 0, "0:00.07"},
	    /* started 1 tick after boot, 3 days 4:10 ago: top's H,MM and M:SS */
	    {FIELD_ELAPSED, 0, "76,10"},
	    {FIELD_STARTED, 0, "0:00"},
	    /* started at 5001 ticks: 50 s after boot */
	    {FIELD_STARTED, 1, "0:50"},
	    /* memory as RES shows it; not read: no silent zero */
	    {FIELD_CODE, 0, "1500"},
	    {FIELD_DATA, 0, "9.4g"},
	    {FIELD_DATA, 1, "-"},
	};
	const struct frame_proc *rows[NPROCS];
	struct row_order by = {.field = FIELD_IO_WRITE_RATE};
	struct frame f;
	size_t n;

	(void)state;
	build_frame(&f);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sbuf b = {0};

		field_format(&b, cases[i].id, &procs[cases[i].row], &f, NULL);
		if (strcmp(sbuf_cstr(&b), cases[i].want))
			fail_msg("case %zu: \"%s\", want \"%s\"", i, sbuf_cstr(&b), cases[i].want);
		sbuf_free(&b);
	}
	assert_true(field_absent(FIELD_IO_READ, &procs[1]));
	assert_false(field_absent(FIELD_IO_READ, &procs[0]));
	assert_true(field_absent(FIELD_CONTAINER, &procs[3]));
	assert_true(field_absent(FIELD_MAJFLT, &procs[1]));
	assert_false(field_absent(FIELD_MAJFLT, &procs[0]));
	/* unknown below any figure: last in the natural (descending) order */
	procs[2].io_write_rate = 99999;
	n = rows_select(&f, NULL, &by, rows);
	assert_int_equal(n, NPROCS);
	assert_int_equal(rows[0]->pid, 300);
	assert_int_equal(rows[NPROCS - 1]->pid, 4194303);
	by.field = FIELD_CONTAINER;
	n = rows_select(&f, NULL, &by, rows);
	assert_int_equal(rows[0]->pid, 301); /* unknown first when names go up */
	assert_string_equal(rows[1]->container, "a,b \"q\".scope");
	assert_int_equal(field_by_name("CONTAINER"), FIELD_CONTAINER);
	assert_int_equal(field_by_name("write_rate"), FIELD_IO_WRITE_RATE);
}

/*
 * The view says how a frame is shown and the frame stays as it was sampled:
 * -S (cumulative) adds the dead children's time to TIME+, UTIME+ and STIME+
 * in text and in their sort order, never to %CPU nor to JSON's and CSV's
 * tick counts; -c (cmdlines) shows a row's command line where it was read.
 * No format writes into the frame.
 */
/*
 * Processes that ended in the interval: COMMAND says how (exit code, signal,
 * core), the text format lists them after the table, JSON in "exited" with
 * an "exit" object (the presenter's choice when it made one), CSV in its
 * rows with the "exit" column, empty for the live ones.
 */
static void test_exited_rows(void **state)
{
	struct frame_proc ex[2];
	const struct frame_proc *rows[NPROCS], *chosen[2];
	struct output_view v = output_view_default;
	struct frame f;
	struct sbuf b = {0};
	const char *s;

	(void)state;
	build_frame(&f);
	ex[0] = procs[3];
	ex[0].pid = ex[0].tgid = 4242;
	ex[0].comm_len = 9;
	memcpy(ex[0].comm, "ptop-burn", 9);
	ex[0].state = 'X';
	ex[0].exited = true;
	ex[0].exit_status = 7 << 8;
	ex[0].run_ns = 210000000;
	ex[0].maxrss_kb = 5000;
	ex[0].cpu_pct = 7.0;
	ex[1] = ex[0];
	ex[1].pid = ex[1].tgid = 4243;
	ex[1].exit_status = 0x80 | 11;
	f.exited = ex;
	f.nexited = 2;
	f.acct = (struct frame_account){
	    .exits = true, .busy_s = 1.0, .rows_s = 0.5, .exited_s = 0.42, .lost = 2};
	for (size_t i = 0; i < f.nprocs; i++)
		rows[i] = &procs[i];

	field_format(&b, FIELD_COMMAND, &ex[0], &f, NULL);
	assert_string_equal(sbuf_cstr(&b), "ptop-burn <exit 7>");
	sbuf_reset(&b);
	field_format(&b, FIELD_COMMAND, &ex[1], &f, NULL);
	assert_string_equal(sbuf_cstr(&b), "ptop-burn <SIGSEGV core>");
	sbuf_reset(&b);

	v.nexited = rows_select_exited(&f, NULL, NULL, chosen);
	assert_int_equal(v.nexited, 2);
	v.nexited = 1;
	v.exited = chosen;
	output_text_frame(&b, &f, &v, rows, f.nprocs, true);
	s = sbuf_cstr(&b);
	/* after the rows, as top's Z (jc knows no X) */
	assert_true(strstr(s, " 4242 ") > strstr(s, "fifteen_bytes15"));
	assert_non_null(strstr(s, " Z   7.0 "));
	assert_non_null(strstr(s, "ptop-burn <exit 7>\n"));
	assert_null(strstr(s, " 4243 "));
	sbuf_reset(&b);

	output_json_frame(&b, &f, &v, rows, f.nprocs, true);
	s = sbuf_cstr(&b);
	assert_non_null(strstr(s, ",\"exited\":[{\"pid\":4242,"));
	assert_non_null(strstr(s, "\"exit\":{\"exit_code\":7,\"end_uptime_s\":0.00,"
				  "\"maxrss_kb\":5000,\"cpu_ns\":210000000}"));
	assert_null(strstr(s, "4243"));
	assert_non_null(strstr(s, "\"accounted\":{\"busy_s\":1.000,"));
	sbuf_reset(&b);
	/* no choice made: every one */
	output_json_frame(&b, &f, NULL, rows, f.nprocs, true);
	assert_non_null(strstr(sbuf_cstr(&b), "\"exit\":{\"signal\":11,\"core_dumped\":true,"));
	sbuf_reset(&b);

	chosen[0] = &ex[1];
	v.nexited = 1;
	output_csv_frame(&b, &f, &v, rows, f.nprocs, true);
	s = sbuf_cstr(&b);
	assert_non_null(
	    strstr(s, ",exit,minflt,majflt,cminflt,cmajflt,pgrp,session,tty_nr,tpgid,cutime_ticks,"
		      "cstime_ticks,policy,rt_priority,code_kb,data_kb,io_syscr,io_syscw,"
		      "io_cancelled_write_bytes,io_bytes_per_s,dirty_pages\r\n"));
	assert_non_null(strstr(s, ",SIGSEGV core,,,,,,,,,0,0,,,,,,,,,\r\n"));
	assert_non_null(strstr(s, "ssh.service,0.00,,,,,,,,,,0,0,,,,,,,,,\r\n"));
	sbuf_free(&b);
	sbuf_free(&f.strings);
}

/* f's column id of p as text, in b (the next call reuses it) */
static const char *formatted(struct sbuf *b, enum field_id id, const struct frame_proc *p,
			     const struct frame *f)
{
	sbuf_reset(b);
	field_format(b, id, p, f, NULL);
	return sbuf_cstr(b);
}

/* A path, and a name without one, for EXE and EXENAME. */
static void set_exes(struct frame_proc *a, struct frame_proc *b)
{
	a->side->exe = "/usr/bin/some thing";
	b->side->exe = "noslash";
}

/* top's TIME, %CUU, %CUC, USED; htop's NCPU%, COMM and EXE (EXENAME here) */
static void test_derived_columns(void **state)
{
	struct frame f;
	struct frame_proc *p = &procs[0];
	const struct frame_proc *rows[2] = {&procs[1], &procs[0]};
	struct row_order ord = {.field = FIELD_CUU};
	struct sbuf b = {0};

	(void)state;
	build_frame(&f);
	/* 100 s since it started, 25 s of its own CPU, 25 of its children's */
	p->start_ticks = (uint64_t)(f.uptime_s * 100) - 10000;
	p->utime = 2000;
	p->stime = 500;
	p->cutime = 2400;
	p->cstime = 100;
	/* half of one CPU of two in the interval */
	p->cpu_pct = 50.0;
	p->swap_kb = 100;
	set_exes(p, &procs[1]);
	field_derive_rows(&f);
	assert_true(p->side->cuu_pct > 24.99 && p->side->cuu_pct < 25.01);
	assert_true(p->side->cuc_pct > 49.99 && p->side->cuc_pct < 50.01);
	assert_string_equal(formatted(&b, FIELD_CUU, p, &f), "25.000");
	assert_string_equal(formatted(&b, FIELD_CUC, p, &f), "50.000");
	assert_string_equal(formatted(&b, FIELD_NCPU, p, &f), "25.0");
	assert_string_equal(formatted(&b, FIELD_USED, p, &f), "12100");
	/* 25 s: TIME+ keeps the hundredths, TIME drops them */
	assert_string_equal(formatted(&b, FIELD_CPUTIME, p, &f), "0:25");
	assert_string_equal(formatted(&b, FIELD_TIME, p, &f), "0:25.00");
	p->utime = 100 * 3600 * 17;
	assert_string_equal(formatted(&b, FIELD_CPUTIME, p, &f), "17,00");
	assert_string_equal(formatted(&b, FIELD_EXENAME, p, &f), "some thing");
	assert_string_equal(formatted(&b, FIELD_EXENAME, &procs[1], &f), "noslash");
	assert_string_equal(formatted(&b, FIELD_EXE, p, &f), "/usr/bin/some thing");
	assert_string_equal(formatted(&b, FIELD_COMM, p, &f), "systemd");
	/* one that has not run a tick yet uses none, as top shows it */
	procs[1].utime = procs[1].stime = 0;
	procs[1].start_ticks = (uint64_t)(f.uptime_s * 100);
	field_derive_rows(&f);
	assert_string_equal(formatted(&b, FIELD_CUU, &procs[1], &f), "0.000");
	/* the derived figures sort */
	rows_sort(rows, 2, &ord);
	assert_ptr_equal(rows[0], p);
	/* top's titles, htop's names */
	assert_int_equal(field_by_title("TIME"), FIELD_CPUTIME);
	assert_int_equal(field_by_title("TIME+"), FIELD_TIME);
	assert_int_equal(field_by_title("EXE"), FIELD_EXE);
	assert_int_equal(field_by_htop_name("EXE"), FIELD_EXENAME);
	assert_int_equal(field_by_htop_name("COMM"), FIELD_COMM);
	assert_int_equal(field_by_htop_name("PERCENT_NORM_CPU"), FIELD_NCPU);
	assert_int_equal(field_by_title("%CUC"), FIELD_CUC);
	sbuf_free(&b);
	sbuf_free(&f.strings);
}

static void test_view_not_frame(void **state)
{
	struct frame_proc before[NPROCS];
	const struct frame_proc *rows[NPROCS];
	struct output_view v = output_view_default;
	struct row_order by = {.field = FIELD_TIME, .reverse = true};
	struct frame f;
	struct sbuf b = {0};
	size_t at_own = 0, at_all = 0;

	(void)state;
	build_frame(&f);
	procs[2].utime = 7;
	procs[2].stime = 2;
	procs[2].cutime = 6000;
	procs[2].cstime = 50;
	sbuf_adds(&f.strings, "say hi --loud");
	procs[2].has_cmd = true;
	procs[2].cmd_len = 13;
	memcpy(before, procs, sizeof(before));
	v.cumulative = true;
	v.cmdlines = true;

	field_format(&b, FIELD_TIME, &procs[2], &f, NULL);
	assert_string_equal(sbuf_cstr(&b), "0:00.09");
	sbuf_reset(&b);
	field_format(&b, FIELD_TIME, &procs[2], &f, &v);
	assert_string_equal(sbuf_cstr(&b), "1:00.59");
	sbuf_reset(&b);
	field_format(&b, FIELD_UTIME, &procs[2], &f, &v);
	assert_string_equal(sbuf_cstr(&b), "1:00.07");
	sbuf_reset(&b);
	field_format(&b, FIELD_STIME, &procs[2], &f, &v);
	assert_string_equal(sbuf_cstr(&b), "0:00.52");
	sbuf_reset(&b);
	field_format(&b, FIELD_CPU, &procs[2], &f, &v);
	assert_string_equal(sbuf_cstr(&b), "0.3");
	sbuf_reset(&b);
	field_format(&b, FIELD_COMMAND, &procs[2], &f, NULL);
	assert_string_equal(sbuf_cstr(&b), "say \"hi\"");
	sbuf_reset(&b);
	field_format(&b, FIELD_COMMAND, &procs[2], &f, &v);
	assert_string_equal(sbuf_cstr(&b), "say hi --loud");

	/* ascending TIME+: 9 ticks before systemd's 450, 6059 after */
	rows_select(&f, NULL, &by, rows);
	for (size_t i = 0; i < NPROCS; i++) {
		at_own = rows[i]->pid == 300 ? i : at_own;
		at_all = rows[i]->pid == 1 ? i : at_all;
	}
	assert_true(at_own < at_all);
	by.cumulative = true;
	rows_select(&f, NULL, &by, rows);
	for (size_t i = 0; i < NPROCS; i++) {
		at_own = rows[i]->pid == 300 ? i : at_own;
		at_all = rows[i]->pid == 1 ? i : at_all;
	}
	assert_true(at_own > at_all);

	sbuf_reset(&b);
	output_text_frame(&b, &f, &v, frame_rows(&f), f.nprocs, true);
	assert_non_null(strstr(sbuf_cstr(&b), "1:00.59 say hi --loud\n"));
	sbuf_reset(&b);
	output_json_frame(&b, &f, &v, frame_rows(&f), f.nprocs, true);
	assert_non_null(strstr(sbuf_cstr(&b), "\"utime_ticks\":7,\"stime_ticks\":2,"));
	assert_null(strstr(sbuf_cstr(&b), "\"utime_ticks\":6007"));
	sbuf_reset(&b);
	output_csv_frame(&b, &f, &v, frame_rows(&f), f.nprocs, true);
	assert_non_null(strstr(sbuf_cstr(&b), ",7,2,"));
	assert_null(strstr(sbuf_cstr(&b), ",6007,"));
	assert_non_null(strstr(sbuf_cstr(&b), ",say hi --loud\r\n"));
	assert_memory_equal(procs, before, sizeof(before));
	sbuf_free(&b);
	sbuf_free(&f.strings);
}

static void test_output_format_by_name(void **state)
{
	assert_ptr_equal(output_format_by_name("text"), &output_format_text);
	assert_ptr_equal(output_format_by_name("json"), &output_format_json);
	assert_ptr_equal(output_format_by_name("csv"), &output_format_csv);
	assert_ptr_equal(output_format_by_name("JSON"), &output_format_json);
	assert_null(output_format_by_name("xml"));
	assert_null(output_format_by_name(""));
	assert_ptr_equal(output_format_text.frame, output_text_frame);
	assert_ptr_equal(output_format_json.frame, output_json_frame);
	assert_ptr_equal(output_format_csv.frame, output_csv_frame);
	/* text first (the default), then as the usage message names them */
	assert_ptr_equal(output_formats[0], &output_format_text);
	assert_ptr_equal(output_formats[1], &output_format_json);
	assert_ptr_equal(output_formats[2], &output_format_csv);
}

/* --help and the usage errors list every format from the table, so each row
 * has what they show, and a name no other row has. */
static void test_output_formats_listed(void **state)
{
	struct sbuf names = {0};
	size_t n = 0;

	for (const struct output_format_def *const *f = output_formats; *f; f++, n++) {
		assert_non_null((*f)->name);
		assert_non_null((*f)->summary);
		assert_non_null((*f)->frame);
		assert_ptr_equal(output_format_by_name((*f)->name), *f);
	}
	assert_true(n >= 3);
	output_format_names(&names);
	assert_int_equal(strncmp(sbuf_cstr(&names), "text, json, csv", 15), 0);
	sbuf_free(&names);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_golden_text),
	    cmocka_unit_test(test_text_multibyte_user),
	    cmocka_unit_test(test_golden_json),
	    cmocka_unit_test(test_golden_csv),
	    cmocka_unit_test(test_csv_formula_cells),
	    cmocka_unit_test(test_empty_frame),
	    cmocka_unit_test(test_fmt_mem_kb),
	    cmocka_unit_test(test_fmt_time_plus),
	    cmocka_unit_test(test_json_string),
	    cmocka_unit_test(test_fmt_time_rfc3339),
	    cmocka_unit_test(test_fmt_printable),
	    cmocka_unit_test(test_rows_filter),
	    cmocka_unit_test(test_rows_sort),
	    cmocka_unit_test(test_rows_sort_every_field),
	    cmocka_unit_test(test_rows_sort_common_key),
	    cmocka_unit_test(test_field_by_name),
	    cmocka_unit_test(test_two_titles),
	    cmocka_unit_test(test_output_format_by_name),
	    cmocka_unit_test(test_counters_no_count),
	    cmocka_unit_test(test_counters_text_units),
	    cmocka_unit_test(test_counters_states),
	    cmocka_unit_test(test_counters_derived_columns),
	    cmocka_unit_test(test_io_cgroup_columns),
	    cmocka_unit_test(test_output_formats_listed),
	    cmocka_unit_test(test_counters_text_headings),
	    cmocka_unit_test(test_view_not_frame),
	    cmocka_unit_test(test_derived_columns),
	    cmocka_unit_test(test_exited_rows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
