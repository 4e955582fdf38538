// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_metrics.c: frames as metrics (src/output/metrics.c), on frames built
 * by hand: label values escaped (quote, backslash, control characters,
 * bidirectional controls, bytes that are not UTF-8) one to one, so that
 * names that differ stay different series and decode back, groups bounded
 * by max_groups with the rest in "other", a group's CPU seconds not going
 * down when a process ends or its PID is reused, a stale group's slot given
 * to a newcomer, counter events summed only where counted, storage bytes per
 * group only where io was readable, rows by how they were read, and the two
 * formats' metadata. Slots follow the workload: kernel threads in one group,
 * slots to the busiest groups over 5 minutes with a tenure of 10 minutes (no
 * flapping), an idle group's slot to a busy newcomer at once, a group that
 * wins its slot back going on from its counters, "other" that holds too
 * much said at most once an hour, and CPU time split by mode.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ptop/metrics.h"

#define MAXP 32

struct fixture {
	struct frame f;
	struct frame_proc procs[MAXP];
	struct frame_proc_side sides[MAXP]; /* each row's */
	const struct frame_proc *rows[MAXP];
	const struct frame_proc *exited[MAXP]; /* the processes that ended, chosen */
	size_t nexited;
};

static struct fixture fx;

static void frame_reset(void)
{
	memset(&fx, 0, sizeof(fx));
	for (size_t i = 0; i < MAXP; i++)
		fx.procs[i].side = &fx.sides[i];
	fx.f.hz = 100;
	fx.f.procs = fx.procs;
	fx.f.cap = MAXP;
}

/* A process of the next frame (PID 2 and its children are kernel threads: kthreadd's). */
static void add(int pid, const char *comm, uint64_t ticks, uint64_t start)
{
	struct frame_proc *p = &fx.procs[fx.f.nprocs];

	memset(p, 0, sizeof(*p));
	memset(&fx.sides[fx.f.nprocs], 0, sizeof(fx.sides[0]));
	p->side = &fx.sides[fx.f.nprocs];
	p->pid = p->tgid = pid;
	p->comm_len = (uint8_t)strlen(comm);
	memcpy(p->comm, comm, p->comm_len);
	p->utime = ticks;
	p->start_ticks = start;
	p->threads = 1;
	p->rss_kb = 4;
	p->user = "root";
	fx.rows[fx.f.nprocs] = p;
	fx.f.nprocs++;
}

static void update(struct metrics *m)
{
	metrics_update(m, &fx.f, fx.rows, fx.f.nprocs, fx.exited, fx.nexited, NULL);
	fx.f.nprocs = 0;
}

/* The value of the sample line that starts with `line` ("name{labels}"), or -1. */
static double sample(const struct metrics *m, const char *line)
{
	struct sbuf b = {0};
	const char *s, *at;
	double v = -1;
	size_t n = strlen(line);

	metrics_render(m, &b, false);
	s = sbuf_cstr(&b);
	for (at = strstr(s, line); at; at = strstr(at + 1, line))
		if ((at == s || at[-1] == '\n') && at[n] == ' ') {
			v = strtod(at + n + 1, NULL);
			break;
		}
	sbuf_free(&b);
	return v;
}

static void test_label_value(void **state)
{
	struct sbuf b = {0};

	metrics_label_value(&b, "a\"b\\c\nd\xff\x01\xc3\xa9", 11);
	assert_string_equal(sbuf_cstr(&b), "a\\\"b\\\\\\\\c\\\\x0ad\\\\xff\\\\x01\xc3\xa9");
	sbuf_free(&b);
}

/*
 * Names that an escape to '?' made one series, or that show other text than
 * their bytes: controls, C1, bidirectional overrides, bytes that are not
 * UTF-8, ptop's own escape written out, and a quote.
 */
static const char *const hostile[] = {
    "a\x01",	     "a\x02",	      "a?",
    "a\\x01",	     "a\\\\x01",      "a\\x02",
    "b\xff",	     "b\xfe",	      "b\xc3",
    "c\xc2\x80",     "c\xc2\x9f",     "c\xc2\xa0",
    "d\xe2\x80\xae", "d\xe2\x80\xad", "d\xe2\x81\xa6",
    "d\xe2\x81\xa9", "e\n",	      "e\\n",
    "e\\\n",	     "f\"",	      "f\\\"",
    "f\x7f",	     "g\xd8\x9c",     "g\xe2\x80\x8f",
    "h\\",	     "h\\\\",	      "i\xf0\x9f\x98\x80",
};

static int hex_digit(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/*
 * A label value as the text format writes it, read back to the name's bytes:
 * the format's escapes (\\, \", \n), then ptop's (\\, \xNN in lowercase).
 * Returns the length, or -1 where either is malformed.
 */
static int label_decode(const char *p, size_t n, char *out)
{
	char mid[256];
	size_t m = 0, o = 0;

	for (size_t i = 0; i < n; i++) {
		if (p[i] != '\\') {
			mid[m++] = p[i];
			continue;
		}
		if (++i == n)
			return -1;
		if (p[i] == 'n')
			mid[m++] = '\n';
		else if (p[i] == '\\' || p[i] == '"')
			mid[m++] = p[i];
		else
			return -1;
	}
	for (size_t i = 0; i < m; i++) {
		if (mid[i] != '\\') {
			out[o++] = mid[i];
		} else if (i + 1 < m && mid[i + 1] == '\\') {
			out[o++] = '\\';
			i++;
		} else if (i + 3 < m && mid[i + 1] == 'x' && hex_digit(mid[i + 2]) >= 0 &&
			   hex_digit(mid[i + 3]) >= 0) {
			out[o++] = (char)(hex_digit(mid[i + 2]) << 4 | hex_digit(mid[i + 3]));
			i += 3;
		} else {
			return -1;
		}
	}
	return (int)o;
}

/* No byte or character in s that could rewrite what a reader sees, and UTF-8 throughout. */
static void assert_clean(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;

	for (size_t i = 0; i < n; i++) {
		if (u[i] == '\n')
			continue;
		assert_false(u[i] < 0x20 || u[i] == 0x7f);
		if (u[i] < 0x80)
			continue;
		/* well-formed UTF-8, and no C1 (U+0080..U+009F) */
		if (u[i] >= 0xc2 && u[i] <= 0xdf) {
			assert_true(i + 1 < n && (u[i + 1] & 0xc0) == 0x80);
			assert_false(u[i] == 0xc2 && u[i + 1] <= 0x9f);
			assert_false(u[i] == 0xd8 && u[i + 1] == 0x9c);
			i += 1;
		} else if (u[i] >= 0xe0 && u[i] <= 0xef) {
			assert_true(i + 2 < n && (u[i + 1] & 0xc0) == 0x80 &&
				    (u[i + 2] & 0xc0) == 0x80);
			/* U+200E, U+200F, U+202A..U+202E, U+2066..U+2069 */
			assert_false(u[i] == 0xe2 && u[i + 1] == 0x80 &&
				     (u[i + 2] == 0x8e || u[i + 2] == 0x8f ||
				      (u[i + 2] >= 0xaa && u[i + 2] <= 0xae)));
			assert_false(u[i] == 0xe2 && u[i + 1] == 0x81 && u[i + 2] >= 0xa6 &&
				     u[i + 2] <= 0xa9);
			i += 2;
		} else {
			assert_true(u[i] >= 0xf0 && u[i] <= 0xf4 && i + 3 < n);
			i += 3;
		}
	}
}

static void test_label_distinct(void **state)
{
	const size_t n = sizeof(hostile) / sizeof(hostile[0]);
	struct metrics_opts o = {.max_groups = 64, .top_pids = MAXP};
	struct metrics *m = metrics_new(&o);
	const char *key = "ptop_group_processes{comm=\"";
	bool seen[sizeof(hostile) / sizeof(hostile[0])] = {0};
	struct sbuf b = {0};
	const char *at;
	size_t found = 0;

	(void)state;
	assert_true(n <= MAXP);
	frame_reset();
	for (size_t i = 0; i < n; i++)
		add((int)i + 10, hostile[i], 1, 1);
	update(m);
	metrics_render(m, &b, false);
	assert_clean(b.p, b.len);
	for (at = strstr(sbuf_cstr(&b), key); at; at = strstr(at + 1, key)) {
		const char *v = at + strlen(key), *end = v;
		char name[PROC_COMM_MAX * 2];
		int len;

		/* the value ends at the first quote that no backslash escapes */
		while (*end && *end != '"')
			end += *end == '\\' ? 2 : 1;
		assert_int_equal(*end, '"');
		len = label_decode(v, (size_t)(end - v), name);
		assert_true(len >= 0);
		if (len == 5 && !memcmp(name, "other", 5))
			continue;
		for (size_t i = 0; i < n; i++) {
			if ((size_t)len == strlen(hostile[i]) &&
			    !memcmp(name, hostile[i], (size_t)len)) {
				/* one series per name: two names never merge */
				assert_false(seen[i]);
				seen[i] = true;
				found++;
			}
		}
	}
	assert_int_equal(found, n);
	sbuf_free(&b);
	metrics_free(m);
}

static void test_groups_bounded(void **state)
{
	struct metrics_opts o = {.max_groups = 2};
	struct metrics *m = metrics_new(&o);

	frame_reset();
	add(1, "a", 10, 1);
	add(12, "b", 10, 1);
	add(3, "c", 10, 1);
	add(4, "d", 10, 1);
	add(5, "other", 10, 1);
	update(m);
	assert_true(sample(m, "ptop_group_processes{comm=\"a\"}") == 1);
	assert_true(sample(m, "ptop_group_processes{comm=\"b\"}") == 1);
	assert_true(sample(m, "ptop_group_processes{comm=\"c\"}") == -1);
	assert_true(sample(m, "ptop_group_processes{comm=\"other\"}") == 3);
	assert_true(sample(m, "ptop_group_cpu_seconds_total{comm=\"other\"}") == 0.3);
	assert_true(sample(m, "ptop_group_resident_memory_bytes{comm=\"other\"}") == 3 * 4096);
	metrics_free(m);
}

static void test_counters_monotonic(void **state)
{
	struct metrics_opts o = {.max_groups = 4};
	struct metrics *m = metrics_new(&o);

	frame_reset();
	add(10, "w", 100, 5);
	add(11, "w", 50, 5);
	update(m);
	assert_true(sample(m, "ptop_group_cpu_seconds_total{comm=\"w\"}") == 1.5);
	/* 11 ended, 10 ran 20 ticks: the counter grows, it does not drop to 1.2 */
	add(10, "w", 120, 5);
	update(m);
	assert_true(sample(m, "ptop_group_cpu_seconds_total{comm=\"w\"}") == 1.7);
	assert_true(sample(m, "ptop_group_processes{comm=\"w\"}") == 1);
	/* PID 10 reused by a new process (another start time) with 5 ticks */
	add(10, "w", 5, 900);
	update(m);
	assert_true(sample(m, "ptop_group_cpu_seconds_total{comm=\"w\"}") == 1.75);
	metrics_free(m);
}

/*
 * A process that ended in the interval (an exit record, frame.exited)
 * counts into its group: the CPU the accounting gave the interval, storage
 * bytes since its last row; one never seen as a row counts whole. The
 * accounting's sums are counters of their own.
 */
static void test_exited(void **state)
{
	struct metrics_opts o = {.max_groups = 4};
	struct metrics *m = metrics_new(&o);
	struct frame_proc ex[2] = {0};

	frame_reset();
	add(20, "cc", 10, 5);
	fx.procs[0].has_io = true;
	fx.procs[0].io_read_bytes = 1000;
	update(m);
	assert_true(sample(m, "ptop_group_cpu_seconds_total{comm=\"cc\"}") == 0.1);
	/* 20 ended after 0.25 s more of CPU and 500 bytes more; 21 lived and ended between */
	ex[0] = fx.procs[0];
	ex[0].exited = true;
	ex[0].cpu_pct = 12.5;
	ex[0].io_read_bytes = 1500;
	ex[0].io_read_rate = 250; /* the accounting's: 500 bytes since its row, over 2 s */
	ex[1] = ex[0];
	ex[1].pid = ex[1].tgid = 21;
	ex[1].start_ticks = 50;
	ex[1].cpu_pct = 25;
	ex[1].io_read_bytes = 300;
	ex[1].io_read_rate = 150;
	fx.f.exited = ex;
	fx.f.nexited = 2;
	fx.exited[0] = &ex[0];
	fx.exited[1] = &ex[1];
	fx.nexited = 2;
	fx.f.interval_s = 2;
	fx.f.acct = (struct frame_account){
	    .exits = true, .busy_s = 1, .rows_s = 0.2, .exited_s = 0.75, .lost = 3, .lost_s = 0.05};
	add(1, "init", 0, 1);
	update(m);
	assert_true(sample(m, "ptop_group_cpu_seconds_total{comm=\"cc\"}") == 0.1 + 0.25 + 0.5);
	assert_true(sample(m, "ptop_group_io_read_bytes_total{comm=\"cc\"}") == 1000 + 500 + 300);
	assert_true(sample(m, "ptop_accounted_cpu_seconds_total{kind=\"exited\"}") == 0.75);
	assert_true(sample(m, "ptop_accounted_cpu_seconds_total{kind=\"busy\"}") == 1);
	assert_true(sample(m, "ptop_exits_lost_total") == 3);
	metrics_free(m);
}

/*
 * An exited process whose ticks were all user time: its system seconds stay
 * 0, not the rounding of cpu - cpu * 3 / 3 (below 0 for 0.025 s: a counter
 * that prometheus_client refuses as negative).
 */
static void test_exited_all_user(void **state)
{
	struct metrics_opts o = {.max_groups = 4};
	struct metrics *m = metrics_new(&o);
	struct frame_proc ex = {.pid = 30,
				.tgid = 30,
				.comm_len = 2,
				.comm = "py",
				.user = "root",
				.exited = true,
				.utime = 3,
				.cpu_pct = 2.5};

	(void)state;
	frame_reset();
	add(1, "init", 0, 1);
	update(m);
	fx.f.exited = &ex;
	fx.f.nexited = 1;
	fx.exited[0] = &ex;
	fx.nexited = 1;
	fx.f.interval_s = 1;
	add(1, "init", 0, 1);
	update(m);
	assert_true(sample(m, "ptop_group_cpu_mode_seconds_total{comm=\"py\",mode=\"system\"}") ==
		    0);
	assert_true(sample(m, "ptop_group_cpu_mode_seconds_total{comm=\"py\",mode=\"user\"}") > 0);
	metrics_free(m);
}

static void io(int i, uint64_t r, uint64_t w)
{
	fx.procs[i].has_io = true;
	fx.procs[i].io_read_bytes = r;
	fx.procs[i].io_write_bytes = w;
}

static void test_io_bytes(void **state)
{
	struct metrics_opts o = {.max_groups = 4};
	struct metrics *m = metrics_new(&o);

	(void)state;
	frame_reset();
	add(10, "w", 1, 5);
	add(11, "w", 1, 5);
	add(12, "r", 1, 5);
	io(0, 100, 1000);
	io(1, 0, 500);
	update(m);
	assert_true(sample(m, "ptop_group_io_write_bytes_total{comm=\"w\"}") == 1500);
	assert_true(sample(m, "ptop_group_io_read_bytes_total{comm=\"w\"}") == 100);
	/* r's io was refused: no series rather than a false zero */
	assert_true(sample(m, "ptop_group_io_write_bytes_total{comm=\"r\"}") == -1);
	/* 11 ended, 10 wrote 24 more bytes: the counter grows */
	add(10, "w", 1, 5);
	add(12, "r", 1, 5);
	io(0, 100, 1024);
	io(1, 7, 8);
	update(m);
	assert_true(sample(m, "ptop_group_io_write_bytes_total{comm=\"w\"}") == 1524);
	assert_true(sample(m, "ptop_group_io_write_bytes_total{comm=\"r\"}") == 8);
	assert_true(sample(m, "ptop_group_io_read_bytes_total{comm=\"r\"}") == 7);
	metrics_free(m);
}

static void test_rows_read(void **state)
{
	struct metrics_opts o = {.max_groups = 4};
	struct metrics *m = metrics_new(&o);

	(void)state;
	frame_reset();
	add(10, "w", 1, 5);
	fx.f.cost.source = "bpf";
	fx.f.cost.read_bpf = 40;
	update(m);
	fx.f.cost.source = "procfs";
	fx.f.cost.read_bpf = 0;
	fx.f.cost.read_full = 3;
	fx.f.cost.read_kept = 37;
	update(m);
	assert_true(sample(m, "ptop_frame_rows{how=\"full\",source=\"procfs\"}") == 3);
	assert_true(sample(m, "ptop_frame_rows{how=\"kept\",source=\"procfs\"}") == 37);
	assert_true(sample(m, "ptop_frame_rows{how=\"bpf\",source=\"procfs\"}") == 0);
	assert_true(sample(m, "ptop_rows_read_total{how=\"bpf\"}") == 40);
	assert_true(sample(m, "ptop_rows_read_total{how=\"kept\"}") == 37);
	metrics_free(m);
}

static void test_stale_slot(void **state)
{
	struct metrics_opts o = {.max_groups = 1};
	struct metrics *m = metrics_new(&o);

	frame_reset();
	add(1, "old", 1, 1);
	update(m);
	for (int i = 0; i < METRICS_STALE_FRAMES; i++) {
		add(12, "new", 1, 1);
		update(m);
		/* while "old" may come back, "new" is counted in other */
		assert_true(sample(m, "ptop_group_processes{comm=\"new\"}") == -1);
	}
	add(12, "new", 1, 1);
	update(m);
	assert_true(sample(m, "ptop_group_processes{comm=\"new\"}") == 1);
	assert_true(sample(m, "ptop_group_processes{comm=\"old\"}") == -1);
	metrics_free(m);
}

static void test_perf_events(void **state)
{
	struct metrics_opts o = {.max_groups = 4};
	struct metrics *m = metrics_new(&o);

	frame_reset();
	fx.f.counters.on = true;
	fx.f.counters.nevents = 2;
	strcpy(fx.f.counters.names[0], "cycles");
	strcpy(fx.f.counters.names[1], "instructions");
	add(1, "x", 1, 1);
	add(12, "x", 1, 1);
	add(3, "x", 1, 1);
	fx.procs[0].has_ctr = fx.procs[1].has_ctr = true;
	fx.procs[0].ctr[0] = 1000;
	fx.procs[0].ctr[1] = 2000;
	fx.procs[1].ctr[0] = 7;
	fx.procs[1].ctr_na = 1 << 1; /* refused here: no count */
	fx.procs[1].ctr[1] = 99;
	fx.procs[2].ctr[0] = 5; /* not attached */
	update(m);
	assert_true(sample(m, "ptop_group_perf_events_total{comm=\"x\",event=\"cycles\"}") == 1007);
	assert_true(sample(m, "ptop_group_perf_events_total{comm=\"x\",event=\"instructions\"}") ==
		    2000);
	metrics_free(m);
}

static void test_formats(void **state)
{
	struct metrics_opts o = {.group_by = METRICS_BY_USER, .top_pids = 1};
	struct metrics *m = metrics_new(&o);
	struct sbuf t = {0}, om = {0};

	frame_reset();
	add(7, "p", 300, 1);
	update(m);
	metrics_render(m, &t, false);
	metrics_render(m, &om, true);
	assert_non_null(strstr(sbuf_cstr(&t), "# TYPE ptop_group_cpu_seconds_total counter\n"));
	assert_non_null(strstr(sbuf_cstr(&t), "ptop_group_cpu_seconds_total{user=\"root\"} 3\n"));
	assert_non_null(
	    strstr(sbuf_cstr(&t), "ptop_top_cpu_seconds_total{pid=\"7\",comm=\"p\"} 3\n"));
	assert_null(strstr(sbuf_cstr(&t), "# UNIT"));
	assert_null(strstr(sbuf_cstr(&t), "cmdline"));
	assert_non_null(strstr(sbuf_cstr(&om), "# TYPE ptop_group_cpu_seconds counter\n"
					       "# UNIT ptop_group_cpu_seconds seconds\n"));
	assert_non_null(strstr(sbuf_cstr(&om), "ptop_group_cpu_seconds_total{user=\"root\"} 3\n"));
	assert_null(strstr(sbuf_cstr(&om), "# EOF"));
	sbuf_free(&t);
	sbuf_free(&om);
	metrics_free(m);
}

/* The last process added uses cpu_pct of a CPU and rss_kb of memory. */
static void use(double cpu_pct, uint64_t rss_kb)
{
	fx.procs[fx.f.nprocs - 1].cpu_pct = cpu_pct;
	fx.procs[fx.f.nprocs - 1].rss_kb = rss_kb;
}

/* A machine of one CPU and 1,000,000 KiB, frames a second apart. */
static void machine(void)
{
	fx.f.ncpu = 1;
	fx.f.mem.total = 1000000;
	fx.f.interval_s = 1;
}

static void test_kernel_group(void **state)
{
	struct metrics_opts o = {.max_groups = 4};
	struct metrics *m = metrics_new(&o);

	(void)state;
	for (int grouped = 0; grouped < 2; grouped++) {
		frame_reset();
		add(2, "kthreadd", 1, 1);
		add(30, "kworker/0:1", 1, 1);
		fx.procs[1].ppid = 2;
		add(31, "migration/0", 1, 1);
		fx.procs[2].ppid = 2;
		add(40, "sshd", 1, 1);
		fx.procs[3].ppid = 1;
		update(m);
		if (!grouped) {
			assert_true(sample(m, "ptop_group_processes{comm=\"kernel\"}") == 3);
			assert_true(sample(m, "ptop_group_processes{comm=\"kworker/0:1\"}") == -1);
		} else {
			assert_true(sample(m, "ptop_group_processes{comm=\"kernel\"}") == -1);
			assert_true(sample(m, "ptop_group_processes{comm=\"kworker/0:1\"}") == 1);
		}
		assert_true(sample(m, "ptop_group_processes{comm=\"sshd\"}") == 1);
		metrics_free(m);
		o.kthreads_grouped = true;
		m = metrics_new(&o);
	}
	metrics_free(m);
}

/*
 * One slot: "a" (2% of memory, 1% of a CPU) takes it; "b" grows to 10% of
 * memory but waits out a's tenure in other, which holds too much meanwhile
 * (said once); then b holds the slot and a never flaps back while both stay
 * as they are. When b ends, a wins the slot back and its counter goes on
 * from where it stopped; other counted a meanwhile.
 */
static void test_tenure(void **state)
{
	struct metrics_opts o = {.max_groups = 1};
	struct metrics *m = metrics_new(&o);
	double a_left = -1, other_left = 0, a_back;
	int warnings = 0, t;

	(void)state;
	frame_reset();
	for (t = 0; t < 3000; t++) {
		machine();
		add(10, "a", (uint64_t)t, 1);
		use(1, 20000);
		if (t < 2000) {
			add(11, "b", 0, 1);
			use(0, t ? 100000 : 10000);
		}
		update(m);
		warnings += metrics_other_warning(m);
		if (t < METRICS_TENURE_S) {
			assert_true(sample(m, "ptop_group_processes{comm=\"b\"}") == -1);
			continue;
		}
		if (a_left < 0 && sample(m, "ptop_group_processes{comm=\"b\"}") == 1) {
			/* b's share passed a's as soon as a's tenure ended */
			assert_true(t < METRICS_TENURE_S + 5);
			assert_true(sample(m, "ptop_group_cpu_seconds_total{comm=\"a\"}") == -1);
			other_left = sample(m, "ptop_group_cpu_seconds_total{comm=\"other\"}");
			/* what a counted up to the frame before: this frame's is other's */
			a_left = (t - 1) * 0.01;
		}
		if (t > METRICS_TENURE_S + 5 && t < 2000)
			assert_true(sample(m, "ptop_group_processes{comm=\"a\"}") == -1);
		if (t == 1000) {
			assert_true(sample(m, "ptop_group_slot_changes_total") == 1);
			assert_true(sample(m, "ptop_group_other_high") == 0);
		}
	}
	/* other held b's 10% for 10 minutes: over 5% from the first minutes, said once */
	assert_int_equal(warnings, 1);
	assert_true(a_left > 0);
	/* a came back after b had gone METRICS_STALE_FRAMES frames: on from a_left */
	a_back = sample(m, "ptop_group_cpu_seconds_total{comm=\"a\"}");
	assert_true(a_back >= a_left + (3000 - 2000 - METRICS_STALE_FRAMES - 2) * 0.01);
	/* ... and without what it did in other meanwhile (14 s more) */
	assert_true(a_back <= a_left + (3000 - 2000) * 0.01 + 1e-9);
	assert_true(sample(m, "ptop_group_cpu_seconds_total{comm=\"other\"}") >
		    other_left + (2000 - METRICS_TENURE_S - 5) * 0.01);
	assert_true(sample(m, "ptop_group_slot_changes_total") == 2);
	metrics_free(m);
}

/* An idle group gives its slot to a busy newcomer within seconds, tenure or not. */
static void test_idle_slot(void **state)
{
	struct metrics_opts o = {.max_groups = 1};
	struct metrics *m = metrics_new(&o);
	int t;

	(void)state;
	frame_reset();
	for (t = 0; t < 120; t++) {
		machine();
		add(10, "sleeper", 0, 1);
		use(0, 100);
		if (t > 0) {
			add(11, "burner", 50 * (uint64_t)t, 1);
			use(50, 100);
		}
		update(m);
		if (sample(m, "ptop_group_processes{comm=\"burner\"}") == 1)
			break;
	}
	assert_true(t > 0 && t < 10);
	/* the sleeper, idle, does not take it back */
	for (int i = 0; i < 100; i++) {
		machine();
		add(10, "sleeper", 0, 1);
		use(0, 100);
		add(11, "burner", 50 * (uint64_t)(t + i), 1);
		use(50, 100);
		update(m);
		assert_true(sample(m, "ptop_group_processes{comm=\"burner\"}") == 1);
	}
	metrics_free(m);
}

/* Two groups busy in turns, a minute each: the slot changes hands once a tenure at most. */
static void test_no_flapping(void **state)
{
	struct metrics_opts o = {.max_groups = 1, .time_scale = 10};
	struct metrics *m = metrics_new(&o);
	uint64_t ticks[2] = {0};

	(void)state;
	frame_reset();
	for (int t = 0; t < 3600; t += 10) {
		int busy = (t / 60) % 2;

		machine();
		for (int k = 0; k < 2; k++) {
			ticks[k] += k == busy ? 50 : 0;
			add(10 + k, k ? "y" : "x", ticks[k], 1);
			use(k == busy ? 50 : 0.5, 1000);
		}
		update(m);
	}
	assert_true(sample(m, "ptop_group_slot_changes_total") <= 3600 / METRICS_TENURE_S + 1);
	metrics_free(m);
}

static void test_cpu_modes(void **state)
{
	struct metrics_opts o = {.max_groups = 4};
	struct metrics *m = metrics_new(&o);

	(void)state;
	frame_reset();
	add(10, "w", 100, 5);
	fx.procs[0].stime = 30;
	update(m);
	add(10, "w", 150, 5);
	fx.procs[0].stime = 40;
	update(m);
	assert_true(sample(m, "ptop_group_cpu_mode_seconds_total{comm=\"w\",mode=\"user\"}") ==
		    1.5);
	assert_true(sample(m, "ptop_group_cpu_mode_seconds_total{comm=\"w\",mode=\"system\"}") ==
		    0.4);
	assert_true(sample(m, "ptop_group_cpu_seconds_total{comm=\"w\"}") == 1.9);
	metrics_free(m);
}

/* metrics_opts.group for the test: processes named "x*" in no group, the rest by comm's first byte. */
static const char *group_of_test(const void *arg, const struct frame_proc *p, size_t *len)
{
	(void)arg;
	*len = 1;
	return p->comm[0] == 'x' ? NULL : p->comm;
}

/*
 * process-exporter's names over the groups a configuration gives: a process
 * in no group counts nowhere (not even in other, which is not served), the
 * facts (descriptors, their worst ratio, proportional memory, thread states)
 * summed per group, the oldest start in whole seconds, families and labels
 * as process-exporter writes them.
 */
static void test_pe_names(void **state)
{
	struct metrics_opts o = {
	    .max_groups = 4, .names = METRICS_NAMES_PE, .group = group_of_test};
	struct metrics *m = metrics_new(&o);
	struct proc_facts facts[3] = {
	    {.has_fds = true,
	     .has_limit = true,
	     .fds = 10,
	     .fd_limit = 1000,
	     .has_rollup = true,
	     .rollup = {.pss_kb = 3, .swap_pss_kb = 1},
	     .has_states = true,
	     .states = {[PROC_TS_SLEEPING] = 2, [PROC_TS_RUNNING] = 1},
	     .has_wchan = true,
	     .nwchan = 3,
	     .wchans = "do_wait\0\0do_wait"},
	    {.has_fds = true,
	     .has_limit = true,
	     .fds = 30,
	     .fd_limit = 100,
	     .has_states = true,
	     .states = {[PROC_TS_WAITING] = 1}},
	    {.has_fds = true, .fds = 99},
	};

	(void)state;
	frame_reset();
	fx.f.boot_time = 1000;
	add(10, "alpha", 100, 250);
	fx.procs[0].threads = 3;
	add(11, "able", 50, 150);
	add(12, "xeno", 500, 5);
	metrics_update(m, &fx.f, fx.rows, fx.f.nprocs, fx.exited, fx.nexited, facts);
	assert_true(sample(m, "namedprocess_namegroup_num_procs{groupname=\"a\"}") == 2);
	assert_true(sample(m, "namedprocess_namegroup_num_threads{groupname=\"a\"}") == 4);
	assert_true(sample(m, "namedprocess_namegroup_open_filedesc{groupname=\"a\"}") == 40);
	assert_true(sample(m, "namedprocess_namegroup_worst_fd_ratio{groupname=\"a\"}") == 0.3);
	assert_true(
	    sample(m, "namedprocess_namegroup_oldest_start_time_seconds{groupname=\"a\"}") == 1001);
	assert_true(sample(m, "namedprocess_namegroup_memory_bytes{groupname=\"a\",memtype="
			      "\"proportionalResident\"}") == 3 * 1024);
	assert_true(sample(m, "namedprocess_namegroup_memory_bytes{groupname=\"a\",memtype="
			      "\"resident\"}") == 8 * 1024);
	assert_true(
	    sample(m, "namedprocess_namegroup_states{groupname=\"a\",state=\"Sleeping\"}") == 2);
	assert_true(sample(m, "namedprocess_namegroup_states{groupname=\"a\",state=\"Waiting\"}") ==
		    1);
	assert_true(sample(m, "namedprocess_namegroup_cpu_seconds_total{groupname=\"a\",mode="
			      "\"user\"}") == 1.5);
	assert_true(sample(m, "namedprocess_namegroup_threads_wchan{groupname=\"a\",wchan="
			      "\"do_wait\"}") == 2);
	assert_true(sample(m, "namedprocess_namegroup_threads_wchan{groupname=\"a\",wchan=\"\"}") ==
		    1);
	/* xeno is in no group: no series, no other */
	assert_true(sample(m, "namedprocess_namegroup_num_procs{groupname=\"x\"}") == -1);
	assert_true(sample(m, "namedprocess_namegroup_num_procs{groupname=\"other\"}") == -1);
	assert_true(sample(m, "namedprocess_scrape_partial_errors") == 0);
	assert_true(sample(m, "ptop_group_cpu_seconds_total{comm=\"a\"}") == -1);
	metrics_free(m);
}

/* ptop's names with the facts: descriptors, the worst ratio, threads by state. */
static void test_facts_ptop(void **state)
{
	struct metrics_opts o = {.max_groups = 4};
	struct metrics *m = metrics_new(&o);
	struct proc_facts facts[2] = {
	    {.has_fds = true,
	     .has_limit = true,
	     .fds = 10,
	     .fd_limit = 20,
	     .has_states = true,
	     .states = {[PROC_TS_SLEEPING] = 2, [PROC_TS_RUNNING] = 1}},
	    {.has_fds = true, .fds = 5, .has_states = true, .states = {[PROC_TS_ZOMBIE] = 1}},
	};

	(void)state;
	frame_reset();
	add(10, "w", 100, 5);
	add(11, "w", 100, 6);
	metrics_update(m, &fx.f, fx.rows, fx.f.nprocs, fx.exited, fx.nexited, facts);
	assert_true(sample(m, "ptop_group_open_fds{comm=\"w\"}") == 15);
	assert_true(sample(m, "ptop_group_fd_limit_ratio{comm=\"w\"}") == 0.5);
	assert_true(sample(m, "ptop_group_thread_states{comm=\"w\",state=\"sleeping\"}") == 2);
	assert_true(sample(m, "ptop_group_thread_states{comm=\"w\",state=\"zombie\"}") == 1);
	/* without facts read (a replay), no such series rather than zeros */
	update(m);
	assert_true(sample(m, "ptop_group_open_fds{comm=\"w\"}") == -1);
	metrics_free(m);
}

/*
 * process-exporter's thread_* families: a group's threads by name, counters
 * summed from each thread's deltas (all of its life when first seen), a name
 * without threads dropped.
 */
static void test_pe_threads(void **state)
{
	struct metrics_opts o = {.max_groups = 4, .names = METRICS_NAMES_PE};
	struct metrics *m = metrics_new(&o);
	struct proc_thread thr[3] = {
	    {.tid = 10, .comm = "w", .comm_len = 1, .start = 5, .utime = 100, .minflt = 7},
	    {.tid = 11, .comm = "io", .comm_len = 2, .start = 6, .utime = 50, .vctx = 3},
	    {.tid = 12,
	     .comm = "io",
	     .comm_len = 2,
	     .start = 6,
	     .stime = 20,
	     .has_io = true,
	     .read_bytes = 4096},
	};
	struct proc_facts facts = {
	    .has_states = true, .states = {[PROC_TS_SLEEPING] = 3}, .nthr = 3, .thr = thr};

	(void)state;
	frame_reset();
	add(10, "w", 170, 5);
	fx.procs[0].threads = 3;
	metrics_update(m, &fx.f, fx.rows, fx.f.nprocs, fx.exited, fx.nexited, &facts);
	assert_true(sample(m, "namedprocess_namegroup_thread_count{groupname=\"w\",threadname="
			      "\"io\"}") == 2);
	assert_true(sample(m, "namedprocess_namegroup_thread_cpu_seconds_total{groupname=\"w\","
			      "threadname=\"io\",mode=\"user\"}") == 0.5);
	assert_true(sample(m, "namedprocess_namegroup_thread_io_bytes_total{groupname=\"w\","
			      "threadname=\"io\",iomode=\"read\"}") == 4096);
	/* the next frame: w ran a second, one io thread ended */
	thr[0].utime = 200;
	thr[0].minflt = 9;
	facts.nthr = 2;
	fx.procs[0].utime = 270;
	metrics_update(m, &fx.f, fx.rows, fx.f.nprocs, fx.exited, fx.nexited, &facts);
	assert_true(sample(m, "namedprocess_namegroup_thread_cpu_seconds_total{groupname=\"w\","
			      "threadname=\"w\",mode=\"user\"}") == 2);
	assert_true(sample(m, "namedprocess_namegroup_thread_minor_page_faults_total{groupname="
			      "\"w\",threadname=\"w\"}") == 9);
	assert_true(sample(m, "namedprocess_namegroup_thread_count{groupname=\"w\",threadname="
			      "\"io\"}") == 1);
	/* no io thread left: its series go */
	facts.nthr = 1;
	metrics_update(m, &fx.f, fx.rows, fx.f.nprocs, fx.exited, fx.nexited, &facts);
	assert_true(sample(m, "namedprocess_namegroup_thread_count{groupname=\"w\",threadname="
			      "\"io\"}") == -1);
	metrics_free(m);
}

/* Page faults per group: summed from each process's deltas, not down when one ends. */
static void test_faults(void **state)
{
	struct metrics_opts o = {.max_groups = 4};
	struct metrics *m = metrics_new(&o);

	(void)state;
	frame_reset();
	add(10, "w", 0, 5);
	fx.procs[0].side->has_flt = true;
	fx.procs[0].side->minflt = 100;
	fx.procs[0].side->majflt = 2;
	add(11, "w", 0, 6);
	fx.procs[1].side->has_flt = true;
	fx.procs[1].side->minflt = 50;
	update(m);
	assert_true(sample(m, "ptop_group_page_faults_total{comm=\"w\",kind=\"minor\"}") == 150);
	assert_true(sample(m, "ptop_group_page_faults_total{comm=\"w\",kind=\"major\"}") == 2);
	/* 11 ended; 10 faulted 5 more */
	add(10, "w", 0, 5);
	fx.procs[0].side->has_flt = true;
	fx.procs[0].side->minflt = 105;
	fx.procs[0].side->majflt = 2;
	update(m);
	assert_true(sample(m, "ptop_group_page_faults_total{comm=\"w\",kind=\"minor\"}") == 155);
	metrics_free(m);
	/* faults not known (an old recording): no series */
	m = metrics_new(&o);
	add(10, "w", 0, 5);
	update(m);
	assert_true(sample(m, "ptop_group_page_faults_total{comm=\"w\",kind=\"minor\"}") == -1);
	metrics_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_label_value),	   cmocka_unit_test(test_label_distinct),
	    cmocka_unit_test(test_groups_bounded), cmocka_unit_test(test_counters_monotonic),
	    cmocka_unit_test(test_stale_slot),	   cmocka_unit_test(test_perf_events),
	    cmocka_unit_test(test_formats),	   cmocka_unit_test(test_io_bytes),
	    cmocka_unit_test(test_rows_read),	   cmocka_unit_test(test_exited),
	    cmocka_unit_test(test_kernel_group),   cmocka_unit_test(test_tenure),
	    cmocka_unit_test(test_idle_slot),	   cmocka_unit_test(test_no_flapping),
	    cmocka_unit_test(test_cpu_modes),	   cmocka_unit_test(test_pe_names),
	    cmocka_unit_test(test_facts_ptop),	   cmocka_unit_test(test_pe_threads),
	    cmocka_unit_test(test_faults),	   cmocka_unit_test(test_exited_all_user),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
