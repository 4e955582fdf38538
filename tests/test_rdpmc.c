// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_rdpmc.c: unit tests for src/perf/rdpmc.c. perf_mmap_decode() is fed a
 * synthetic perf_event_mmap_page (one page, fields filled by hand, the
 * struct from libpfm4's copy of perf_event.h) and a stub in place of the
 * rdpmc instruction: index 0 and a clear cap_usr_rdpmc refuse, offset plus
 * counter, sign extension from pmc_width bits, and a torn read (the seqlock
 * moved under the reader) retried; perf_mmap_read() extrapolating the
 * page's enabled and running times with a stub TSC (cap_user_time, and
 * cap_user_time_short). Then perf_self_open() on the running
 * kernel: a software event maps its page and reads through read(); a
 * hardware event, where a PMU exists, reads through rdpmc.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "child.h"
#include "ptop/perf.h"

struct stub {
	unsigned calls;
	unsigned last_idx;
	uint64_t value;
	struct perf_event_mmap_page *tear; /* bump its lock during the first call */
	uint64_t tsc;			   /* what the stub TSC reads */
};

static uint64_t stub_pmc(unsigned idx, void *arg)
{
	struct stub *s = arg;

	s->calls++;
	s->last_idx = idx;
	if (s->tear && s->calls == 1)
		s->tear->lock += 2; /* a writer came and went while we read */
	return s->value;
}

static int setup_page(void **state)
{
	size_t psz = (size_t)sysconf(_SC_PAGESIZE);
	struct perf_event_mmap_page *pg;

	assert_true(sizeof(*pg) <= psz);
	pg = mmap(NULL, psz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(pg != MAP_FAILED);
	pg->version = 0;
	pg->compat_version = 0;
	pg->lock = 4;
	pg->index = 1;
	pg->offset = 1000;
	pg->cap_usr_rdpmc = 1;
	pg->pmc_width = 48;
	*state = pg;
	return 0;
}

static int teardown_page(void **state)
{
	if (*state)
		munmap(*state, (size_t)sysconf(_SC_PAGESIZE));
	return 0;
}

static void test_index_zero(void **state)
{
	struct perf_event_mmap_page *pg = *state;
	struct stub s = {.value = 5};
	uint64_t count = 77;

	pg->index = 0;
	assert_int_equal(perf_mmap_decode(pg, stub_pmc, &s, &count), -EAGAIN);
	assert_int_equal(s.calls, 0);
	assert_int_equal(count, 77); /* untouched on refusal */
}

static void test_cap_clear(void **state)
{
	struct perf_event_mmap_page *pg = *state;
	struct stub s = {.value = 5};
	uint64_t count = 77;

	pg->cap_usr_rdpmc = 0;
	assert_int_equal(perf_mmap_decode(pg, stub_pmc, &s, &count), -EAGAIN);
	assert_int_equal(s.calls, 0);
	assert_int_equal(count, 77);
}

static void test_offset_plus_counter(void **state)
{
	struct perf_event_mmap_page *pg = *state;
	struct stub s = {.value = 5};
	uint64_t count = 0;

	assert_int_equal(perf_mmap_decode(pg, stub_pmc, &s, &count), 0);
	assert_int_equal(count, 1005);
	assert_int_equal(s.calls, 1);
	assert_int_equal(s.last_idx, 0); /* the page's index is rdpmc's plus one */

	pg->index = 3;
	s.calls = 0;
	assert_int_equal(perf_mmap_decode(pg, stub_pmc, &s, &count), 0);
	assert_int_equal(s.last_idx, 2);
	assert_int_equal(s.calls, 1);
}

static void test_sign_extension(void **state)
{
	struct perf_event_mmap_page *pg = *state;
	struct stub s = {.value = 0xFFFFFFFFFFFFull}; /* -1 in 48 bits */
	uint64_t count = 0;

	pg->offset = (int64_t)1 << 40;
	assert_int_equal(perf_mmap_decode(pg, stub_pmc, &s, &count), 0);
	assert_int_equal(count, ((uint64_t)1 << 40) - 1);

	/* bit 47 set: -2^47 */
	s.value = (uint64_t)1 << 47;
	pg->offset = (int64_t)1 << 50;
	assert_int_equal(perf_mmap_decode(pg, stub_pmc, &s, &count), 0);
	assert_int_equal(count, ((uint64_t)1 << 50) - ((uint64_t)1 << 47));

	/* bit 46 and below: positive, bits above the width are dropped */
	s.value = 0xABCD000000000000ull | ((uint64_t)1 << 46);
	pg->offset = 10;
	assert_int_equal(perf_mmap_decode(pg, stub_pmc, &s, &count), 0);
	assert_int_equal(count, 10 + ((uint64_t)1 << 46));

	/* a negative offset, as the kernel leaves it after a counter is reprogrammed */
	s.value = 300;
	pg->offset = -100;
	assert_int_equal(perf_mmap_decode(pg, stub_pmc, &s, &count), 0);
	assert_int_equal(count, 200);

	/* a full 64-bit counter is not touched */
	pg->pmc_width = 64;
	pg->offset = 0;
	s.value = 0xFFFFFFFFFFFFull;
	assert_int_equal(perf_mmap_decode(pg, stub_pmc, &s, &count), 0);
	assert_int_equal(count, 0xFFFFFFFFFFFFull);
}

static void test_torn_read(void **state)
{
	struct perf_event_mmap_page *pg = *state;
	struct stub s = {.value = 5, .tear = pg};
	uint64_t count = 0;

	assert_int_equal(perf_mmap_decode(pg, stub_pmc, &s, &count), 0);
	assert_int_equal(s.calls, 2);
	assert_int_equal(pg->lock, 6);
	assert_int_equal(count, 1005);
}

/* A TSC that reads what the stub says. */
static uint64_t stub_tsc(void *arg)
{
	return ((struct stub *)arg)->tsc;
}

/*
 * cap_user_time: the page's times are those of the kernel's last update;
 * the reader adds the time since, from the TSC, as the uapi comment says:
 * time_offset + (cyc >> shift) * mult + ((cyc & mask) * mult >> shift).
 */
static void test_times_extrapolated(void **state)
{
	struct perf_event_mmap_page *pg = *state;
	struct stub s = {.value = 5, .tsc = 3000};
	struct perf_count c;

	pg->time_enabled = 10000;
	pg->time_running = 4000;
	pg->cap_user_time = 1;
	/* 1 ns per 2 cycles: mult 1 << 9, shift 10 */
	pg->time_mult = 1u << 9;
	pg->time_shift = 10;
	pg->time_offset = (uint64_t)-1000; /* the kernel's "now" minus its TSC time */
	assert_int_equal(perf_mmap_read(pg, stub_pmc, stub_tsc, &s, &c), 0);
	assert_int_equal(c.value, 1005);
	/* 3000 cycles are 1500 ns; less 1000 since the update: 500 ns more of each */
	assert_int_equal(c.enabled, 10500);
	assert_int_equal(c.running, 4500);

	/* the remainder: 3001 cycles, shift 10, mult 512 is 1500.5 ns, rounded down */
	s.tsc = 3001;
	assert_int_equal(perf_mmap_read(pg, stub_pmc, stub_tsc, &s, &c), 0);
	assert_int_equal(c.enabled, 10500);
	s.tsc = 3002;
	assert_int_equal(perf_mmap_read(pg, stub_pmc, stub_tsc, &s, &c), 0);
	assert_int_equal(c.enabled, 10501);

	/* a short TSC (cap_user_time_short): only time_mask bits past time_cycles count */
	pg->cap_user_time_short = 1;
	pg->time_cycles = 0x10000;
	pg->time_mask = 0xffff;
	pg->time_offset = 0;
	s.tsc = 0xabc00000 | 2000; /* the high bits are not the page's */
	assert_int_equal(perf_mmap_read(pg, stub_pmc, stub_tsc, &s, &c), 0);
	/* cyc = 0x10000 + 2000 cycles: 33768 ns */
	assert_int_equal(c.enabled, 10000 + (0x10000 + 2000) / 2);
	assert_int_equal(c.running, 4000 + (0x10000 + 2000) / 2);
}

/* Without cap_user_time the times cannot be had from the page: read() it is. */
static void test_times_cap_clear(void **state)
{
	struct perf_event_mmap_page *pg = *state;
	struct stub s = {.value = 5};
	struct perf_count c;

	pg->cap_user_time = 0;
	assert_int_equal(perf_mmap_read(pg, stub_pmc, stub_tsc, &s, &c), -EAGAIN);
	pg->cap_user_time = 1;
	pg->index = 0;
	assert_int_equal(perf_mmap_read(pg, stub_pmc, stub_tsc, &s, &c), -EAGAIN);
}

static struct stub label_stub = {.value = 7};

static uint64_t label_pmc(unsigned idx, void *arg)
{
	return stub_pmc(idx, &label_stub);
}

static uint64_t label_tsc(void *arg)
{
	return 0;
}

/*
 * The path a read takes follows the page's index, which the kernel rewrites
 * at every schedule-in: set, rdpmc; 0 (the event is off its counter), read().
 * A software event's descriptor with a synthetic page in place of its own,
 * and stubs for the instructions.
 */
static void test_label_follows_index(void **state)
{
	struct perf_event_mmap_page *pg = *state;
	struct perf_event_spec ev;
	struct perf_count c;
	struct perf_self s;

	assert_int_equal(perf_event_resolve("task-clock", &ev), 0);
	assert_int_equal(perf_self_open(&s, &ev), 0);
	assert_non_null(s.page);
	munmap(s.page, s.page_size);
	s.page = pg;
	*state = NULL;	/* perf_self_close unmaps it */
	s.rdpmc = true; /* as a hardware event's page says at open */
	s.pmc = label_pmc;
	s.tsc = label_tsc;
	pg->cap_user_time = 1;
	pg->time_enabled = pg->time_running = 500;

	pg->index = 1;
	assert_int_equal(perf_self_read_count(&s, &c), 0);
	assert_true(s.last_rdpmc);
	assert_int_equal(c.value, 1007);
	assert_int_equal(c.running, 500);

	pg->index = 0;
	assert_int_equal(perf_self_read_count(&s, &c), 0);
	assert_false(s.last_rdpmc);
	assert_true(c.value != 1007); /* task-clock's own ns, from read() */
	assert_true(c.enabled > 0);

	pg->index = 2;
	assert_int_equal(perf_self_read_count(&s, &c), 0);
	assert_true(s.last_rdpmc);
	assert_int_equal(label_stub.last_idx, 1);
	perf_self_close(&s);
}

static void spin(void)
{
	for (volatile int i = 0; i < 2000000; i++)
		;
}

static void test_self_software(void **state)
{
	struct perf_event_spec ev;
	struct perf_self s;
	uint64_t a = 0, b = 0, c = 0, unused;

	assert_int_equal(perf_event_resolve("task-clock", &ev), 0);
	assert_int_equal(perf_self_open(&s, &ev), 0);
	assert_true(s.fd >= 0);
	assert_non_null(s.page);
	assert_int_equal(s.page_size, (size_t)sysconf(_SC_PAGESIZE));
	/* a software event has no hardware counter: index 0, whatever the PMU */
	assert_int_equal(s.page->index, 0);
	assert_false(s.rdpmc);
	assert_int_equal(perf_mmap_decode(s.page, stub_pmc, &(struct stub){0}, &unused), -EAGAIN);

	assert_int_equal(perf_self_read(&s, &a), 0);
	spin();
	assert_int_equal(perf_self_read(&s, &b), 0);
	spin();
	assert_int_equal(perf_self_read(&s, &c), 0);
	assert_true(a < b);
	assert_true(b < c);
	assert_true(c - a > 1000); /* ns of CPU time: two spins are far more */
	{
		struct perf_count t;

		/* read() gives the times too: a software event runs whenever it is enabled */
		assert_int_equal(perf_self_read_count(&s, &t), 0);
		assert_true(t.value >= c);
		assert_true(t.enabled > 0);
		assert_int_equal(t.running, t.enabled);
	}

	perf_self_close(&s);
	assert_int_equal(s.fd, -1);
	assert_null(s.page);
	perf_self_close(&s); /* twice is harmless */
}

static void test_self_hardware(void **state)
{
	struct perf_event_spec ev;
	struct perf_self s;
	uint64_t a = 0, b = 0;
	int err;

	assert_int_equal(perf_event_resolve("instructions", &ev), 0);
	err = perf_self_open(&s, &ev);
	if (err)
		SKIP("hardware events do not open here (%s): no PMU, rdpmc cannot be tested",
		     strerror(-err));
	assert_non_null(s.page);
#if defined(__x86_64__) || defined(__i386__)
	if (!s.page->cap_usr_rdpmc) {
		perf_self_close(&s);
		SKIP("the kernel does not allow rdpmc (/sys/bus/event_source/devices/cpu/rdpmc)");
	}
	assert_true(s.rdpmc);
	assert_true(s.page->index > 0);
	assert_true(s.page->pmc_width > 0);
#else
	assert_false(s.rdpmc);
#endif
	assert_int_equal(perf_self_read(&s, &a), 0);
	spin();
	assert_int_equal(perf_self_read(&s, &b), 0);
	assert_true(b > a);
	assert_true(b - a > 1000000); /* two million loop turns are more instructions */
	perf_self_close(&s);
}

static void test_self_bad(void **state)
{
	struct perf_event_spec ev;
	struct perf_self s;

	assert_int_equal(perf_event_resolve("task-clock", &ev), 0);
	ev.attr.type = 0x7fffffff; /* no such PMU type */
	assert_true(perf_self_open(&s, &ev) < 0);
	assert_int_equal(s.fd, -1);
	assert_null(s.page);
	perf_self_close(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_index_zero, setup_page, teardown_page),
	    cmocka_unit_test_setup_teardown(test_cap_clear, setup_page, teardown_page),
	    cmocka_unit_test_setup_teardown(test_offset_plus_counter, setup_page, teardown_page),
	    cmocka_unit_test_setup_teardown(test_sign_extension, setup_page, teardown_page),
	    cmocka_unit_test_setup_teardown(test_torn_read, setup_page, teardown_page),
	    cmocka_unit_test_setup_teardown(test_times_extrapolated, setup_page, teardown_page),
	    cmocka_unit_test_setup_teardown(test_times_cap_clear, setup_page, teardown_page),
	    cmocka_unit_test_setup_teardown(test_label_follows_index, setup_page, teardown_page),
	    cmocka_unit_test(test_self_software),
	    cmocka_unit_test(test_self_hardware),
	    cmocka_unit_test(test_self_bad),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
