// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_inject.c: unit tests for the build-id injector of src/bench/perfdata.c
 * (bench_inject_stream()), fed perf bench inject-build-id's stream
 * (bench_inject_build()) over a pipe filled before the reader starts. The
 * buffered reader asks read(2) for at least 64 KiB every time and makes at
 * most one read per 64 KiB of the stream (and the one that sees its end);
 * the unbuffered one a read per record header and body; both write the same
 * bytes: every record read, in order, and one HEADER_BUILD_ID per DSO hit,
 * before the first sample in it, holding the bytes of the file's ELF note
 * (read by bench_build_id(), checked against the note found by hand here).
 * With all, DSOs mapped but not hit get theirs too. The hostile streams in
 * fixtures/perfdata/ are refused with -EINVAL and a message naming what is
 * wrong. The DSOs are this test program and the C library it runs with;
 * without build-ids in them (a linker told not to write them) it skips.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ptop/bench.h"
#include "ptop/util.h"

#define STREAM_PIPE (1 << 20) /* bytes: pipe-max-size by default, room for a whole stream */

static const char *dsos[2];
static unsigned char ids[2][20];
static size_t id_len[2];

/* The build-id note of a loaded object, found in its program headers by hand. */
static int phdr_note(struct dl_phdr_info *info, size_t size, void *arg)
{
	int k = *(int *)arg;

	/* the main program comes first, named ""; libc by its soname */
	if (k == 0 ? info->dlpi_name[0] != '\0' : !strstr(info->dlpi_name, "/libc.so"))
		return 0;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		const char *p = (const char *)(info->dlpi_addr + ph->p_vaddr),
			   *end = p + ph->p_memsz;

		if (ph->p_type != PT_NOTE)
			continue;
		while (p + sizeof(ElfW(Nhdr)) <= end) {
			const ElfW(Nhdr) *nh = (const void *)p;
			const char *name = p + sizeof(*nh);
			const char *desc = name + ((nh->n_namesz + 3) & ~3u);

			if (nh->n_type == NT_GNU_BUILD_ID && nh->n_namesz == 4 &&
			    !memcmp(name, "GNU", 4) && nh->n_descsz <= 20) {
				memcpy(ids[k], desc, nh->n_descsz);
				id_len[k] = nh->n_descsz;
				return 1;
			}
			p = desc + ((nh->n_descsz + 3) & ~3u);
		}
	}
	return 0;
}

/* This program and the libc it runs with, named as /proc/self/maps names them. */
static int setup(void **state)
{
	static char self[4096], libc[4096];
	char line[4096 + 128];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	FILE *f = fopen("/proc/self/maps", "re");

	if (n <= 0 || !f)
		return -1;
	self[n] = '\0';
	while (fgets(line, sizeof(line), f)) {
		char *path = strchr(line, '/');

		if (path && strstr(path, "/libc.so")) {
			path[strcspn(path, "\n")] = '\0';
			snprintf(libc, sizeof(libc), "%s", path);
			break;
		}
	}
	fclose(f);
	dsos[0] = self;
	dsos[1] = libc;
	return 0;
}

/* Skip the test unless both DSOs carry build-ids. */
static void need_build_ids(void)
{
	int k0 = 0, k1 = 1;

	if (!dsos[1][0])
		skip();
	if (!id_len[0])
		dl_iterate_phdr(phdr_note, &k0);
	if (!id_len[1])
		dl_iterate_phdr(phdr_note, &k1);
	if (!id_len[0] || !id_len[1]) {
		print_message("no build-id in %s or %s: skipped\n", dsos[0], dsos[1]);
		skip();
	}
}

static void test_build_id(void **state)
{
	unsigned char id[20];
	size_t n;

	need_build_ids();
	for (int k = 0; k < 2; k++) {
		assert_int_equal(bench_build_id(dsos[k], id, &n), 0);
		assert_int_equal(n, id_len[k]);
		assert_memory_equal(id, ids[k], n);
	}
	assert_int_equal(bench_build_id("/nonexistent/dso", id, &n), -ENOENT);
	assert_int_equal(bench_build_id("/proc/self/status", id, &n), -ENOEXEC);
	assert_int_equal(bench_build_id("/dev/null", id, &n), -ENOEXEC);
}

/* A pipe holding the whole of s, its write end closed: the reader's input. */
static int prefilled(const struct sbuf *s)
{
	int p[2];

	assert_int_equal(pipe2(p, O_CLOEXEC), 0);
	if (fcntl(p[1], F_SETPIPE_SZ, STREAM_PIPE) < (int)s->len) {
		print_message("cannot make a pipe of %d bytes: skipped\n", STREAM_PIPE);
		close(p[0]);
		close(p[1]);
		skip();
	}
	assert_int_equal(write_all(p[1], s->p, s->len), 0);
	close(p[1]);
	return p[0];
}

/* Inject s with a reader; the output in *out (a memfd read back). */
static int inject(const struct sbuf *s, bool buffered, bool all, struct bench_inject_stats *st,
		  struct sbuf *out)
{
	char msg[256], buf[65536];
	int in = prefilled(s), fd = memfd_create("inject", MFD_CLOEXEC), err;
	ssize_t n;

	assert_true(fd >= 0);
	err = bench_inject_stream(in, fd, buffered, all, st, msg, sizeof(msg));
	if (err)
		print_message("%s\n", msg);
	close(in);
	lseek(fd, 0, SEEK_SET);
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		sbuf_add(out, buf, (size_t)n);
	close(fd);
	return err;
}

/* The stream after the 16-byte header, record by record: type and size of the i-th. */
static const unsigned char *record_at(const struct sbuf *s, size_t *off)
{
	const unsigned char *p;
	uint16_t size;

	if (*off + 8 > s->len)
		return NULL;
	p = (const unsigned char *)s->p + *off;
	memcpy(&size, p + 6, sizeof(size));
	assert_true(size >= 8 && *off + size <= s->len);
	*off += size;
	return p;
}

/*
 * Check out against in: in's records in order, and before the first sample
 * (or with all, the first MMAP2) of each DSO its build-id record. Returns
 * how many build-id records there were.
 */
static unsigned int check_output(const struct sbuf *in, const struct sbuf *out, bool all)
{
	size_t ioff = 16, ooff = 16;
	bool seen[2] = {false, false};
	unsigned int nids = 0;
	int cur = -1;
	const unsigned char *r;

	assert_true(out->len > 16);
	assert_memory_equal(out->p, in->p, 16);
	while ((r = record_at(out, &ooff))) {
		uint32_t type;
		uint16_t size;

		memcpy(&type, r, 4);
		memcpy(&size, r + 6, 2);
		if (type == 67) { /* HEADER_BUILD_ID */
			const char *name = (const char *)r + 36;
			int k = !strcmp(name, dsos[0]) ? 0 : !strcmp(name, dsos[1]) ? 1 : -1;
			int32_t pid;

			assert_true(k >= 0);
			assert_false(seen[k]);
			seen[k] = true;
			memcpy(&pid, r + 8, 4);
			assert_int_equal(pid, -1);
			assert_int_equal(r[32], id_len[k]); /* the size byte */
			assert_memory_equal(r + 12, ids[k], id_len[k]);
			nids++;
			continue;
		}
		/* the next record of the input, byte for byte */
		{
			size_t before = ioff;
			const unsigned char *ir = record_at(in, &ioff);

			assert_non_null(ir);
			assert_int_equal(ioff - before, size);
			assert_memory_equal(ir, r, size);
		}
		if (type == PERF_RECORD_MMAP2) {
			const char *name = (const char *)r + 72;

			cur = !strcmp(name, dsos[0]) ? 0 : 1;
			if (all)
				assert_true(seen[cur]);
		}
		if (type == PERF_RECORD_SAMPLE)
			assert_true(cur >= 0 && seen[cur]);
	}
	assert_int_equal(ooff, out->len);
	assert_int_equal(ioff, in->len);
	return nids;
}

static void test_buffered_reads(void **state)
{
	struct bench_inject_stats st, ust;
	struct sbuf in = {0}, out = {0}, uout = {0};
	unsigned int seed = 7;
	uint64_t most;

	need_build_ids();
	/* under 1 MiB: 14 reads at 64 KiB */
	bench_inject_build(&in, dsos, 2, 280, 100, &seed, 4242);
	assert_true(in.len > 8 * PERFDATA_READ_MIN);
	assert_int_equal(inject(&in, true, false, &st, &out), 0);
	assert_true(st.min_request >= PERFDATA_READ_MIN);
	/* one read per 64 KiB of the stream, and the one that finds its end */
	most = (in.len + PERFDATA_READ_MIN - 1) / PERFDATA_READ_MIN + 1;
	if (st.reads > most)
		fail_msg("%llu reads for %zu bytes, more than %llu", (unsigned long long)st.reads,
			 in.len, (unsigned long long)most);
	assert_int_equal(st.read_bytes, in.len);
	assert_int_equal(st.records, 1 + 1 + 280 * 101 + 28);
	assert_int_equal(st.samples, 280 * 100);
	assert_int_equal(st.mmaps, 280);
	assert_int_equal(st.dsos, 2);
	assert_int_equal(check_output(&in, &out, false), 2);
	assert_int_equal(st.build_ids, 2);
	/* gathered writes: a write per 64 KiB of output at most, and one for the rest */
	assert_true(st.writes <= out.len / (PERFDATA_READ_MIN / 2) + 1);

	/* unbuffered: a read per header and one per body (none for an empty one) */
	assert_int_equal(inject(&in, false, false, &ust, &uout), 0);
	assert_int_equal(ust.reads, 1 + ust.records + (ust.records - 28) + 1);
	assert_int_equal(ust.writes, 1 + ust.records + ust.build_ids);
	assert_int_equal(uout.len, out.len);
	assert_memory_equal(uout.p, out.p, out.len);
	sbuf_free(&in);
	sbuf_free(&out);
	sbuf_free(&uout);
}

static void test_all(void **state)
{
	struct bench_inject_stats st;
	struct sbuf in = {0}, out = {0};
	unsigned int seed = 3;

	need_build_ids();
	/* no samples: nothing is hit, and with all every mapped DSO is injected anyway */
	bench_inject_build(&in, dsos, 2, 40, 0, &seed, 4242);
	assert_int_equal(inject(&in, true, false, &st, &out), 0);
	assert_int_equal(st.build_ids, 0);
	assert_int_equal(check_output(&in, &out, false), 0);
	sbuf_reset(&out);
	assert_int_equal(inject(&in, true, true, &st, &out), 0);
	assert_int_equal(check_output(&in, &out, true), st.dsos);
	assert_int_equal(st.build_ids, st.dsos);
	sbuf_free(&in);
	sbuf_free(&out);
}

static void hostile(const char *name, const char *says)
{
	char path[512], msg[256], buf[256];
	struct bench_inject_stats st;
	int in, out = memfd_create("out", MFD_CLOEXEC);

	snprintf(path, sizeof(path), "%s/perfdata/%s", FIXTURES, name);
	in = open(path, O_RDONLY | O_CLOEXEC);
	assert_true(in >= 0 && out >= 0);
	for (int buffered = 0; buffered < 2; buffered++) {
		lseek(in, 0, SEEK_SET);
		assert_int_equal(
		    bench_inject_stream(in, out, buffered, false, &st, msg, sizeof(msg)), -EINVAL);
		if (!strstr(msg, says))
			fail_msg("%s: '%s' does not say '%s'", name, msg, says);
	}
	close(in);
	close(out);
	(void)buf;
}

static void test_hostile(void **state)
{
	hostile("truncated-header.data", "truncated header: 12 of the 16 bytes");
	hostile("swapped-magic.data", "byte-swapped perf.data stream");
	hostile("swapped-magic.data", "byte order (little-endian) are supported");
	hostile("bad-magic.data", "magic \"PERFILEX\", not \"PERFILE2\"");
	hostile("file-header.data", "only pipe streams are supported");
	hostile("short-record.data", "has size 4, less than its 8-byte header");
	hostile("past-end.data", "(type 9, 64 bytes) runs past the end of the stream");
	hostile("truncated-record.data", "truncated record header at offset 16: 5 of its 8");
	hostile("sample-first.data", "a sample before any event description");
}

static void test_empty(void **state)
{
	char path[512], msg[256];
	struct bench_inject_stats st;
	int in, out = memfd_create("out", MFD_CLOEXEC);

	snprintf(path, sizeof(path), "%s/perfdata/empty.data", FIXTURES);
	in = open(path, O_RDONLY | O_CLOEXEC);
	assert_true(in >= 0 && out >= 0);
	assert_int_equal(bench_inject_stream(in, out, true, false, &st, msg, sizeof(msg)), 0);
	assert_int_equal(st.records, 0);
	assert_int_equal(lseek(out, 0, SEEK_CUR), 16);
	close(in);
	close(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_build_id), cmocka_unit_test(test_buffered_reads),
	    cmocka_unit_test(test_all),	     cmocka_unit_test(test_hostile),
	    cmocka_unit_test(test_empty),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
