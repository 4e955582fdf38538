// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_meters.c: the header's meters (src/ui/meters.c and meter_*.c) drawn
 * into a curses screen written to /dev/null. Every meter in every mode it
 * has, on a made-up machine of 16 CPUs: after the first frames, drawing the
 * header again allocates nothing (the house rule for a steady refresh),
 * counted at malloc, calloc, realloc and reallocarray (linked with --wrap);
 * the header's height is what the modes say (a graph four rows, LED three);
 * the CPU bars of left_cpus and right_cpus share the CPUs between them.
 */
#include <locale.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../src/ui/tui.h"

/* Allocations counted while `counting` is set. */
static bool counting;
static unsigned allocs;

void *__real_malloc(size_t n);
void *__real_calloc(size_t nmemb, size_t size);
void *__real_realloc(void *p, size_t n);
void *__real_reallocarray(void *p, size_t nmemb, size_t size);

void *__wrap_malloc(size_t n)
{
	allocs += counting;
	return __real_malloc(n);
}

void *__wrap_calloc(size_t nmemb, size_t size)
{
	allocs += counting;
	return __real_calloc(nmemb, size);
}

void *__wrap_realloc(void *p, size_t n)
{
	allocs += counting;
	return __real_realloc(p, n);
}

void *__wrap_reallocarray(void *p, size_t nmemb, size_t size)
{
	allocs += counting;
	return __real_reallocarray(p, nmemb, size);
}

#define NCPUS 16

static struct ui ui;
static struct frame_cpu cpus[NCPUS];
static SCREEN *scr;
static FILE *out, *in;

static int setup(void **state)
{
	(void)state;
	setlocale(LC_ALL, "C.UTF-8");
	out = fopen("/dev/null", "w");
	in = fopen("/dev/null", "r");
	if (!out || !in)
		return -1;
	scr = newterm("xterm", out, in);
	if (!scr)
		return -1;
	resizeterm(48, 160);
	memset(&ui, 0, sizeof(ui));
	config_defaults(&ui.cfg);
	ui.cfg.per_cpu = true;
	ui.utf8 = true;
	for (int i = 0; i < NCPUS; i++)
		cpus[i] =
		    (struct frame_cpu){.user = i * 100.0 / NCPUS, .idle = 100 - i * 100.0 / NCPUS};
	ui.frame.cpus = cpus;
	ui.frame.ncpus = ui.frame.ncpu = NCPUS;
	ui.frame.cpu = (struct frame_cpu){.user = 46.875, .idle = 53.125};
	ui.frame.mem.total = 16u << 20;
	ui.frame.mem.used = 5u << 20;
	ui.frame.swap.total = 4u << 20;
	ui.frame.load[0] = 3.5;
	ui.frame.uptime_s = 90061;
	ui.frame.interval_s = 1;
	ui.frame.time.tv_sec = 1700000000;
	ui.have_frame = true;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	endwin();
	delscreen(scr);
	fclose(out);
	fclose(in);
	return 0;
}

/* A frame one interval after the last, for the graphs' history. */
static void next_frame(void)
{
	ui.frame.time.tv_sec++;
	graph_frame(&ui);
}

/* Every meter, the left column's first, in mode m where it has it. */
static void all_meters(enum meter_mode m)
{
	ui.cfg.nmeters = 0;
	for (unsigned id = 0; id < meters_count(); id++)
		ui.cfg.meters[ui.cfg.nmeters++] = (struct ui_meter){
		    .id = (unsigned char)id,
		    .column = (unsigned char)(id % 2),
		    .mode = (unsigned char)(meter_has_mode(id, m) ? m : meter_default_mode(id))};
}

/* The CPU halves in mode m, heading the two columns, memory under the left. */
static void cpu_halves(enum meter_mode m)
{
	ui.cfg.nmeters = 3;
	ui.cfg.meters[0] = (struct ui_meter){.id = (unsigned char)meter_by_name("left_cpus"),
					     .mode = (unsigned char)m};
	ui.cfg.meters[1] = (struct ui_meter){.id = (unsigned char)meter_by_name("memory"),
					     .mode = (unsigned char)m};
	ui.cfg.meters[2] = (struct ui_meter){.id = (unsigned char)meter_by_name("right_cpus"),
					     .column = 1,
					     .mode = (unsigned char)m};
}

static void test_no_malloc_per_draw(void **state)
{
	(void)state;
	/* every meter (a header too tall: compact), then the CPUs one by one */
	for (int m = 0; m < 2 * METER_MODE_COUNT; m++) {
		if (m < METER_MODE_COUNT)
			all_meters((enum meter_mode)m);
		else
			cpu_halves((enum meter_mode)(m - METER_MODE_COUNT));
		/* the first frames may size what is kept */
		for (int i = 0; i < 3; i++) {
			next_frame();
			meters_draw(&ui, 48);
		}
		allocs = 0;
		counting = true;
		for (int i = 0; i < 5; i++) {
			next_frame();
			meters_draw(&ui, 48);
		}
		counting = false;
		if (allocs)
			fail_msg("mode %s%s: %u allocations in 5 draws",
				 meter_mode_name((enum meter_mode)(m % METER_MODE_COUNT)),
				 m < METER_MODE_COUNT ? "" : " (CPUs)", allocs);
	}
}

/* Only meter name in mode m, in the left column. */
static void only(const char *name, enum meter_mode m)
{
	int id = meter_by_name(name);

	assert_true(id >= 0);
	assert_true(meter_has_mode((unsigned)id, m));
	ui.cfg.meters[0] = (struct ui_meter){.id = (unsigned char)id, .mode = (unsigned char)m};
	ui.cfg.nmeters = 1;
}

static void test_heights(void **state)
{
	(void)state;
	only("memory", METER_BAR);
	assert_int_equal(meters_height(&ui, 48), 1);
	only("memory", METER_TEXT);
	assert_int_equal(meters_height(&ui, 48), 1);
	only("memory", METER_GRAPH);
	assert_int_equal(meters_height(&ui, 48), 4);
	only("memory", METER_LED);
	assert_int_equal(meters_height(&ui, 48), 3);
	only("uptime", METER_LED);
	assert_int_equal(meters_height(&ui, 48), 3);
	/* a short screen: one row each */
	only("load", METER_GRAPH);
	assert_int_equal(meters_height(&ui, 2), 1);
	/* uptime has text and LED only, as htop's; tasks all four, text first */
	assert_true(meter_has_mode((unsigned)meter_by_name("tasks"), METER_GRAPH));
	assert_int_equal(meter_default_mode((unsigned)meter_by_name("tasks")), METER_TEXT);
	assert_false(meter_has_mode((unsigned)meter_by_name("uptime"), METER_BAR));
	assert_false(meter_has_mode((unsigned)meter_by_name("uptime"), METER_GRAPH));
	assert_true(meter_has_mode((unsigned)meter_by_name("load"), METER_LED));
	assert_int_equal(meter_default_mode((unsigned)meter_by_name("load")), METER_TEXT);
}

/* 16 CPUs: 8 in each half, two a row, four rows; all of them, eight rows. */
static void test_cpu_halves(void **state)
{
	(void)state;
	only("left_cpus", METER_BAR);
	assert_int_equal(meters_height(&ui, 48), 4);
	only("right_cpus", METER_BAR);
	assert_int_equal(meters_height(&ui, 48), 4);
	only("cpu", METER_BAR);
	assert_int_equal(meters_height(&ui, 48), 8);
	/* as htop's, a graph (four rows) and LED digits (three) for each CPU */
	only("left_cpus", METER_GRAPH);
	assert_int_equal(meters_height(&ui, 48), 16);
	only("right_cpus", METER_LED);
	assert_int_equal(meters_height(&ui, 48), 12);
	/* the halves and memory as graphs: 16 rows on the left, 4 more for memory */
	cpu_halves(METER_GRAPH);
	assert_int_equal(meters_height(&ui, 48), 20);
	/* too many for the screen: one row each */
	assert_int_equal(meters_height(&ui, 10), 2);
	/* one bar for all of them: the left half shows it, the right one nothing */
	ui.cfg.per_cpu = false;
	only("left_cpus", METER_BAR);
	assert_int_equal(meters_height(&ui, 48), 1);
	only("right_cpus", METER_BAR);
	assert_int_equal(meters_height(&ui, 48), 0);
	ui.cfg.per_cpu = true;
}

/* 16 CPUs as many a row as the meter's name says (htop's LeftCPUs4,
 * RightCPUs8, AllCPUs2), whatever the count would give. */
static void test_cpus_named(void **state)
{
	static const struct {
		const char *name;
		enum meter_mode mode;
		int rows;
	} cases[] = {
	    {"left_cpus4", METER_BAR, 2},    {"right_cpus8", METER_BAR, 1},
	    {"left_cpus2", METER_GRAPH, 16}, /* 4 rows of 2 graphs, 4 rows high */
	    {"all_cpus2", METER_BAR, 8},     {"all_cpus8", METER_LED, 6},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		only(cases[i].name, cases[i].mode);
		assert_int_equal(meters_height(&ui, 48), cases[i].rows);
	}
}

/* htop's default beyond 4 CPUs: the halves head the columns. */
static void test_default_layout(void **state)
{
	struct ui_meter m[UI_METERS_MAX];
	unsigned n;

	(void)state;
	n = meters_default(m, KEYS_HTOP, 2);
	assert_int_equal(n, 6);
	assert_int_equal(m[0].id, meter_by_name("cpu"));
	n = meters_default(m, KEYS_HTOP, 8);
	assert_int_equal(n, 7);
	assert_int_equal(m[0].id, meter_by_name("left_cpus"));
	assert_int_equal(m[0].column, 0);
	assert_int_equal(m[3].id, meter_by_name("right_cpus"));
	assert_int_equal(m[3].column, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_no_malloc_per_draw), cmocka_unit_test(test_heights),
	    cmocka_unit_test(test_cpu_halves),	       cmocka_unit_test(test_cpus_named),
	    cmocka_unit_test(test_default_layout),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
