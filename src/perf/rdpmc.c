// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rdpmc.c: ptop's own counters, read from user space. The event is opened
 * on the calling thread (not inherited: an inherited event cannot be
 * mmapped), its perf_event_mmap_page is mapped and touched at once so the
 * first timed read does not take the page fault, and a count is
 * offset + rdpmc(index - 1), sign-extended from pmc_width bits, under the
 * page's seqlock, with the time the event was enabled and running
 * extrapolated from the page's last update by the TSC (cap_user_time), so a
 * multiplexed count is scaled. Where the kernel says rdpmc is not allowed (no PMU: a
 * software event has index 0; or cap_user_rdpmc clear: libpfm4's copy of the
 * header calls the bit cap_usr_rdpmc) read() does the work.
 */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ptop/perf.h"

#define barrier() __asm__ __volatile__("" ::: "memory")

/* Counter idx (the page's index) read with pmc, sign-extended from the page's
 * pmc_width bits, as the uapi comment above perf_event_mmap_page says. */
static uint64_t pmc_value(const volatile struct perf_event_mmap_page *pg, uint32_t idx,
			  uint64_t (*pmc)(unsigned idx, void *arg), void *arg)
{
	uint16_t width = pg->pmc_width;
	int64_t v = (int64_t)pmc(idx - 1, arg);

	if (width && width < 64) {
		v = (int64_t)((uint64_t)v << (64 - width));
		v >>= 64 - width;
	}
	return (uint64_t)v;
}

int perf_mmap_decode(const volatile struct perf_event_mmap_page *pg,
		     uint64_t (*pmc)(unsigned idx, void *arg), void *arg, uint64_t *count)
{
	uint32_t seq, idx;
	uint64_t c;

	do {
		seq = pg->lock;
		barrier();
		idx = pg->index;
		c = (uint64_t)pg->offset;
		if (!pg->cap_usr_rdpmc || !idx)
			return -EAGAIN;
		c += pmc_value(pg, idx, pmc, arg);
		barrier();
	} while (pg->lock != seq);
	*count = c;
	return 0;
}

int perf_mmap_read(const volatile struct perf_event_mmap_page *pg,
		   uint64_t (*pmc)(unsigned idx, void *arg), uint64_t (*tsc)(void *arg), void *arg,
		   struct perf_count *out)
{
	uint64_t enabled, running, cyc, offset, quot, rem, delta, c;
	uint32_t seq, idx, mult;
	uint16_t shift;

	do {
		seq = pg->lock;
		barrier();
		enabled = pg->time_enabled;
		running = pg->time_running;
		idx = pg->index;
		c = (uint64_t)pg->offset;
		if (!pg->cap_usr_rdpmc || !idx || !pg->cap_user_time)
			return -EAGAIN;
		c += pmc_value(pg, idx, pmc, arg);
		cyc = tsc(arg);
		shift = pg->time_shift;
		mult = pg->time_mult;
		offset = pg->time_offset;
		/* a TSC narrower than 64 bits: only its low time_mask bits advance */
		if (pg->cap_user_time_short)
			cyc = pg->time_cycles + ((cyc - pg->time_cycles) & pg->time_mask);
		barrier();
	} while (pg->lock != seq);
	if (shift > 63)
		return -EAGAIN;
	quot = cyc >> shift;
	rem = cyc & (((uint64_t)1 << shift) - 1);
	delta = offset + quot * mult + ((rem * mult) >> shift);
	out->value = c;
	/* the event is on a counter (index set): it runs as long as it is enabled */
	out->enabled = enabled + delta;
	out->running = running + delta;
	return 0;
}

#if defined(__x86_64__) || defined(__i386__)
static uint64_t hw_tsc(void *arg)
{
	uint32_t lo, hi;

	(void)arg;
	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}

static uint64_t hw_rdpmc(unsigned idx, void *arg)
{
	uint32_t lo, hi;

	(void)arg;
	__asm__ __volatile__("rdpmc" : "=a"(lo), "=d"(hi) : "c"(idx));
	return (uint64_t)hi << 32 | lo;
}
#else
static uint64_t hw_tsc(void *arg)
{
	(void)arg;
	return 0;
}

static uint64_t hw_rdpmc(unsigned idx, void *arg)
{
	(void)idx;
	(void)arg;
	return 0;
}
#endif

int perf_self_open(struct perf_self *s, const struct perf_event_spec *ev)
{
	struct perf_event_attr attr = ev->attr;
	int fd;

	memset(s, 0, sizeof(*s));
	s->fd = -1;
	s->pmc = hw_rdpmc;
	s->tsc = hw_tsc;
	attr.size = sizeof(attr);
	attr.inherit = 0;
	attr.disabled = 0;
	/* the times: a multiplexed count is scaled, as the groups of other processes are */
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	fd = perf_event_open_fd(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return fd;
	s->fd = fd;
	s->na = attr.exclude_kernel && !ev->attr.exclude_kernel && perf_counts_in_kernel(&attr);
	s->page_size = (size_t)sysconf(_SC_PAGESIZE);
	s->page = mmap(NULL, s->page_size, PROT_READ, MAP_SHARED | MAP_POPULATE, s->fd, 0);
	if (s->page == MAP_FAILED) {
		s->page = NULL; /* read() still works */
		return 0;
	}
	/* Pre-fault: the first rdpmc read must not pay for the page. */
	(void)*(volatile uint32_t *)&s->page->lock;
#if defined(__x86_64__) || defined(__i386__)
	/* the index may be 0 now (not scheduled on a counter yet): each read looks again */
	s->rdpmc = s->page->cap_usr_rdpmc;
#endif
	return 0;
}

int perf_self_read_count(struct perf_self *s, struct perf_count *out)
{
	uint64_t buf[3]; /* value, time_enabled, time_running */
	ssize_t n;

	/* the kernel rewrites index at every schedule-in: each read finds its own path */
	s->last_rdpmc =
	    s->page && s->rdpmc && perf_mmap_read(s->page, s->pmc, s->tsc, NULL, out) == 0;
	if (s->last_rdpmc)
		return 0;
	n = read(s->fd, buf, sizeof(buf));
	if (n != (ssize_t)sizeof(buf))
		return n < 0 ? -errno : -EIO;
	out->value = buf[0];
	out->enabled = buf[1];
	out->running = buf[2];
	return 0;
}

int perf_self_read(struct perf_self *s, uint64_t *count)
{
	struct perf_count c;
	int err = perf_self_read_count(s, &c);

	if (!err)
		*count = c.value;
	return err;
}

void perf_self_close(struct perf_self *s)
{
	if (s->page)
		munmap(s->page, s->page_size);
	if (s->fd >= 0)
		close(s->fd);
	s->page = NULL;
	s->fd = -1;
}
