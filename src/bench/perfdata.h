/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * perfdata.h: perf.data streams in pipe mode (perf record -o -), as the
 * benchmarks write and read them (perfdata.c): the records laid out as
 * perf.data has them, the stream's header with one event description, and
 * standard output taken over as the stream. Used by src/bench/ only; what
 * the tests and fuzz targets call is in bench.h (bench_inject_stream(),
 * bench_build_id(), bench_inject_build()).
 */
#ifndef PTOP_PERFDATA_H
#define PTOP_PERFDATA_H

#include <linux/perf_event.h>
#include <stddef.h>
#include <stdint.h>

/* perf's own record types start at 64 (tools/perf/util/event.h). */
#define PERFDATA_RECORD_HEADER_ATTR 64
#define PERFDATA_RECORD_HEADER_BUILD_ID 67
#define PERFDATA_RECORD_FINISHED_ROUND 68
/* misc of a HEADER_BUILD_ID record whose build-id size byte is set */
#define PERFDATA_MISC_BUILD_ID_SIZE (1 << 15)
#define PERFDATA_ATTR_SIZE PERF_ATTR_SIZE_VER7
#define PERFDATA_BUILD_ID_MAX 20 /* bytes: perf's BUILD_ID_SIZE (SHA-1) */
/* The pipe header and one HEADER_ATTR record, as perfdata_stream_header() writes them. */
#define PERFDATA_STREAM_HEADER_SIZE (16 + 8 + PERFDATA_ATTR_SIZE)

struct perfdata_header {
	uint32_t type;
	uint16_t misc;
	uint16_t size; /* bytes, this header included */
};

/* The sample_id_all trailer for sample_type TID|TIME (IP applies to samples only). */
struct perfdata_id {
	uint32_t pid, tid;
	uint64_t time; /* ns; 0 for synthesized records, as perf writes */
};

struct perfdata_comm {
	struct perfdata_header h;
	uint32_t pid, tid;
	/* char comm[], NUL-padded to 8 bytes, then struct perfdata_id */
};

struct perfdata_fork {
	struct perfdata_header h;
	uint32_t pid, ppid, tid, ptid;
	uint64_t time;
	/* struct perfdata_id */
};

struct perfdata_mmap2 {
	struct perfdata_header h;
	uint32_t pid, tid;
	uint64_t start, len, pgoff; /* bytes */
	uint32_t maj, min;
	uint64_t ino, ino_generation;
	uint32_t prot, flags;
	/* char filename[], NUL-padded to 8 bytes, then struct perfdata_id */
};

/* A sample of the stream's one event: sample_type IP|TID|TIME. */
struct perfdata_sample {
	struct perfdata_header h;
	uint64_t ip;
	uint32_t pid, tid;
	uint64_t time; /* ns */
};

/* perf's perf_record_header_build_id: the id, its size, then the file's name. */
struct perfdata_build_id {
	struct perfdata_header h;
	int32_t pid; /* -1: the host (perf's HOST_KERNEL_ID) */
	uint8_t id[PERFDATA_BUILD_ID_MAX];
	uint8_t id_size; /* with PERFDATA_MISC_BUILD_ID_SIZE in h.misc */
	uint8_t reserved[3];
	/* char filename[], NUL-padded to 8 bytes */
};

_Static_assert(sizeof(struct perfdata_comm) == 16, "perf_record_comm's fixed part");
_Static_assert(sizeof(struct perfdata_fork) == 32, "perf_record_fork");
_Static_assert(sizeof(struct perfdata_mmap2) == 72, "perf_record_mmap2's fixed part");
_Static_assert(sizeof(struct perfdata_sample) == 32, "a sample of IP|TID|TIME");
_Static_assert(sizeof(struct perfdata_build_id) == 36, "perf_record_header_build_id's fixed part");
_Static_assert(sizeof(struct perf_event_attr) >= PERFDATA_ATTR_SIZE, "attr layout");

/* n rounded up to a multiple of 8, as perf pads records. */
static inline size_t perfdata_align8(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

/* A string field at p: n bytes of s, then NULs to the next multiple of 8 (at least one). */
char *perfdata_put_string(char *p, const char *s, size_t n);

/*
 * The pipe header ("PERFILE2", size 16) and one HEADER_ATTR record into buf
 * (PERFDATA_STREAM_HEADER_SIZE bytes): a software event of the given config
 * sampling IP|TID|TIME, with sample_id_all (so every other record ends in a
 * struct perfdata_id). Returns the bytes written.
 */
size_t perfdata_stream_header(char *buf, uint64_t config);

/*
 * Open path for writing a stream: a file, or for "-" standard output, which
 * the stream then owns: what ptop would print there goes to standard error
 * (as perf record -o - does), so `ptop bench ... -o - | perf script -i -`
 * works. Returns a descriptor, or -errno with msg (n bytes) saying why.
 */
int perfdata_open_output(const char *path, char *msg, size_t n);

#endif
