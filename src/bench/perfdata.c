// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * perfdata.c: perf.data streams in pipe mode, written and read. Writing: the
 * stream's header with one event description, string fields, standard
 * output taken over as the stream (for `synthesize --output` and
 * `inject-build-id --output`), and the stream perf bench internals
 * inject-build-id feeds its reader (bench_inject_build()). Reading: the
 * build-id injector (bench_inject_stream()), which reads a stream from a
 * descriptor either with one read(2) per record header and one per body, as
 * perf did before it read pipes buffered, or buffered, asking read(2) for at
 * least PERFDATA_READ_MIN bytes each time; it writes the records back, one
 * write(2) each or gathered into PERFDATA_READ_MIN-byte writes, with a
 * HEADER_BUILD_ID record before the first sample that hits each DSO (or,
 * with all, after the first MMAP2 of each). Build-ids come from the files'
 * ELF notes through libelf (NT_GNU_BUILD_ID in an SHT_NOTE section).
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perfdata.h"
#include "ptop/bench.h"
#include "ptop/util.h"

#define PERFDATA_REC_MAX 65535 /* a record's size is 16 bits */
/* The buffered reader's buffer: a record cut at its end and a whole read after it. */
#define PERFDATA_READ_BUF (PERFDATA_REC_MAX + 1 + PERFDATA_READ_MIN)
#define PERFDATA_MAGIC "PERFILE2"
#define PERFDATA_MAGIC_SWAPPED "2ELIFREP"
#define PERFDATA_NT_GNU_BUILD_ID 3    /* <elf.h>'s NT_GNU_BUILD_ID */
#define PERFDATA_MAP_ADDR 0x400000ULL /* where the fed maps start, perf's fake address */
#define PERFDATA_MAP_STRIDE 8192ULL
#define PERFDATA_DEV_MAJOR 8 /* perf's fed MMAP2s say sda */

char *perfdata_put_string(char *p, const char *s, size_t n)
{
	size_t room = perfdata_align8(n + 1);

	memcpy(p, s, n);
	memset(p + n, 0, room - n);
	return p + room;
}

size_t perfdata_stream_header(char *buf, uint64_t config)
{
	struct perf_event_attr attr;
	struct perfdata_header h = {
	    .type = PERFDATA_RECORD_HEADER_ATTR,
	    .size = (uint16_t)(sizeof(h) + PERFDATA_ATTR_SIZE),
	};
	uint64_t size = 16;

	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_SOFTWARE;
	attr.size = PERFDATA_ATTR_SIZE;
	attr.config = config;
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
	attr.disabled = 1;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	attr.mmap = 1;
	attr.comm = 1;
	attr.task = 1;
	attr.mmap2 = 1;
	attr.sample_id_all = 1;
	memcpy(buf, PERFDATA_MAGIC, 8);
	memcpy(buf + 8, &size, sizeof(size));
	memcpy(buf + 16, &h, sizeof(h));
	memcpy(buf + 16 + sizeof(h), &attr, PERFDATA_ATTR_SIZE);
	return PERFDATA_STREAM_HEADER_SIZE;
}

int perfdata_open_output(const char *path, char *msg, size_t n)
{
	int fd;

	if (strcmp(path, "-")) {
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (fd < 0) {
			fd = -errno;
			snprintf(msg, n, "%s: %s", path, strerror(-fd));
		}
		return fd;
	}
	if (isatty(STDOUT_FILENO)) {
		snprintf(msg, n,
			 _("--output -: standard output is a terminal, not a pipe or file"));
		return -EINVAL;
	}
	fflush(stdout);
	fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
	if (fd < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
		int err = -errno;

		if (fd >= 0)
			close(fd);
		snprintf(msg, n, "--output -: %s", strerror(-err));
		return err;
	}
	return fd;
}

/* ---- build-ids from ELF notes ---- */

/* The NT_GNU_BUILD_ID note in the SHT_NOTE section scn, into id; 0 or -ENOENT. */
static int note_build_id(Elf_Scn *scn, unsigned char *id, size_t *n)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t off = 0, name_off, desc_off;
	GElf_Nhdr nh;

	while (data && (off = gelf_getnote(data, off, &nh, &name_off, &desc_off)) > 0) {
		if (nh.n_type != PERFDATA_NT_GNU_BUILD_ID || nh.n_namesz != 4 ||
		    memcmp((const char *)data->d_buf + name_off, "GNU", 4) || !nh.n_descsz)
			continue;
		*n = nh.n_descsz < PERFDATA_BUILD_ID_MAX ? nh.n_descsz : PERFDATA_BUILD_ID_MAX;
		memcpy(id, (const char *)data->d_buf + desc_off, *n);
		return 0;
	}
	return -ENOENT;
}

int bench_build_id(const char *path, unsigned char id[20], size_t *n)
{
	Elf_Scn *scn = NULL;
	struct stat sb;
	Elf *elf;
	int fd, err = -ENOENT;

	if (elf_version(EV_CURRENT) == EV_NONE)
		return -ENOSYS;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	/* a device or a FIFO named in a stream is no DSO: never read one */
	if (fstat(fd, &sb) || !S_ISREG(sb.st_mode)) {
		close(fd);
		return -ENOEXEC;
	}
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		err = -ENOEXEC;
		goto out;
	}
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;

		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_NOTE &&
		    !note_build_id(scn, id, n)) {
			err = 0;
			break;
		}
	}
out:
	if (elf)
		elf_end(elf);
	close(fd);
	return err;
}

/* ---- the feeder's stream ---- */

static void put_record(struct sbuf *out, const void *rec, size_t size)
{
	sbuf_add(out, rec, size);
}

static void put_id(struct sbuf *out, uint32_t pid, uint64_t time)
{
	struct perfdata_id id = {.pid = pid, .tid = pid, .time = time};

	put_record(out, &id, sizeof(id));
}

static void put_mmap2(struct sbuf *out, uint32_t pid, uint32_t dso, const char *name, uint64_t time)
{
	size_t n = strlen(name), size;
	struct perfdata_mmap2 r;
	char *p;

	if (n > PERFDATA_REC_MAX / 2)
		n = PERFDATA_REC_MAX / 2;
	size = sizeof(r) + perfdata_align8(n + 1) + sizeof(struct perfdata_id);
	r = (struct perfdata_mmap2){
	    .h = {.type = PERF_RECORD_MMAP2, .misc = PERF_RECORD_MISC_USER, .size = (uint16_t)size},
	    .pid = pid,
	    .tid = pid,
	    .start = PERFDATA_MAP_ADDR + dso * PERFDATA_MAP_STRIDE,
	    .len = 4096,
	    .maj = PERFDATA_DEV_MAJOR,
	    .ino = dso,
	    .prot = 0x4,  /* PROT_EXEC */
	    .flags = 0x2, /* MAP_PRIVATE */
	};
	put_record(out, &r, sizeof(r));
	p = sbuf_reserve(out, perfdata_align8(n + 1));
	perfdata_put_string(p, name, n);
	out->len += perfdata_align8(n + 1);
	put_id(out, pid, time);
}

void bench_inject_build(struct sbuf *out, const char *const *dsos, size_t ndsos, unsigned int mmaps,
			unsigned int samples, unsigned int *seed, uint32_t pid)
{
	char hdr[PERFDATA_STREAM_HEADER_SIZE];
	struct {
		struct perfdata_fork f;
		struct perfdata_id id;
	} fork = {
	    .f = {.h = {.type = PERF_RECORD_FORK, .misc = 1 << 13, .size = sizeof(fork)},
		  .pid = pid,
		  .ppid = 1,
		  .tid = pid,
		  .ptid = 1},
	    .id = {.pid = pid, .tid = pid},
	};
	struct perfdata_header round = {.type = PERFDATA_RECORD_FINISHED_ROUND, .size = 8};

	sbuf_add(out, hdr, perfdata_stream_header(hdr, PERF_COUNT_SW_TASK_CLOCK));
	put_record(out, &fork, sizeof(fork));
	for (unsigned int i = 0; i < mmaps && ndsos; i++) {
		uint32_t dso = (uint32_t)((unsigned int)rand_r(seed) % ndsos);
		uint64_t time = (uint64_t)rand_r(seed) % 1000000;

		put_mmap2(out, pid, dso, dsos[dso], time);
		for (unsigned int k = 0; k < samples; k++) {
			struct perfdata_sample s = {
			    .h = {.type = PERF_RECORD_SAMPLE,
				  .misc = PERF_RECORD_MISC_USER,
				  .size = sizeof(s)},
			    .ip = PERFDATA_MAP_ADDR + dso * PERFDATA_MAP_STRIDE,
			    .pid = pid,
			    .tid = pid,
			    .time = time + k * 1000ULL,
			};

			put_record(out, &s, sizeof(s));
		}
		if ((i + 1) % 10 == 0)
			put_record(out, &round, sizeof(round));
	}
}

/* ---- reading a stream ---- */

struct perfdata_reader {
	int fd;
	bool buffered;
	unsigned char *buf; /* PERFDATA_READ_BUF bytes, or PERFDATA_REC_MAX + 1 */
	size_t head, tail;  /* buffered: the bytes not handed out yet */
	uint64_t offset;    /* in the stream, of the next record */
	struct bench_inject_stats *st;
	char *msg;
	size_t msglen;
};

/* One read(2) of up to n bytes at p, counted; the bytes read, 0 at the end, or -errno. */
static ssize_t counted_read(struct perfdata_reader *r, void *p, size_t n)
{
	ssize_t got;

	do {
		r->st->reads++;
		if (n < r->st->min_request)
			r->st->min_request = n;
		got = read(r->fd, p, n);
	} while (got < 0 && errno == EINTR);
	if (got < 0)
		return -errno;
	r->st->read_bytes += (uint64_t)got;
	return got;
}

/* Exactly n bytes at p, in as many read(2)s as the pipe needs; the bytes had, or -errno. */
static ssize_t read_full(struct perfdata_reader *r, unsigned char *p, size_t n)
{
	size_t have = 0;

	while (have < n) {
		ssize_t got = counted_read(r, p + have, n - have);

		if (got < 0)
			return got;
		if (!got)
			break;
		have += (size_t)got;
	}
	return (ssize_t)have;
}

/*
 * Buffered: at least n bytes from r->head on, reading while they are fewer;
 * each read asks for all the room after them, at least PERFDATA_READ_MIN
 * bytes since n is at most PERFDATA_REC_MAX. The bytes there, or -errno.
 */
static ssize_t fill(struct perfdata_reader *r, size_t n)
{
	while (r->tail - r->head < n) {
		ssize_t got;

		if (r->head) {
			memmove(r->buf, r->buf + r->head, r->tail - r->head);
			r->tail -= r->head;
			r->head = 0;
		}
		got = counted_read(r, r->buf + r->tail, PERFDATA_READ_BUF - r->tail);
		if (got < 0)
			return got;
		if (!got)
			break;
		r->tail += (size_t)got;
	}
	return (ssize_t)(r->tail - r->head);
}

static int read_error(struct perfdata_reader *r, int err)
{
	snprintf(r->msg, r->msglen, _("reading the stream: %s"), strerror(-err));
	return err;
}

/* The 16-byte pipe header, checked; 0 or -EINVAL with r->msg saying what is wrong. */
static int read_stream_header(struct perfdata_reader *r)
{
	unsigned char *p = r->buf;
	uint64_t size;
	ssize_t got;

	if (r->buffered) {
		got = fill(r, 16);
		p = r->buf + r->head;
	} else {
		got = read_full(r, r->buf, 16);
	}
	if (got < 0)
		return read_error(r, (int)got);
	if (got < 16) {
		snprintf(r->msg, r->msglen,
			 _("truncated header: %zd of the 16 bytes of a perf.data pipe header"),
			 got);
		return -EINVAL;
	}
	if (!memcmp(p, PERFDATA_MAGIC_SWAPPED, 8)) {
		snprintf(r->msg, r->msglen,
			 _("byte-swapped perf.data stream (written on a machine of the other byte "
			   "order): only streams in this machine's byte order (%s) are supported"),
			 __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? _("little-endian")
								   : _("big-endian"));
		return -EINVAL;
	}
	if (memcmp(p, PERFDATA_MAGIC, 8)) {
		char magic[8 * 4 + 1], *m = magic;

		/* the bytes as C would write them: a file of text shows as text */
		for (int i = 0; i < 8; i++)
			m += p[i] >= 0x20 && p[i] < 0x7f && p[i] != '\\'
				 ? snprintf(m, 5, "%c", p[i])
				 : snprintf(m, 5, "\\x%02x", p[i]);
		snprintf(r->msg, r->msglen,
			 _("not a perf.data stream: magic \"%s\", not \"PERFILE2\" (only perf.data "
			   "version 2 is supported)"),
			 magic);
		return -EINVAL;
	}
	memcpy(&size, p + 8, sizeof(size));
	if (size != 16) {
		snprintf(r->msg, r->msglen,
			 _("header size %llu: a perf.data file, not a pipe stream (whose header "
			   "has 16 bytes); only pipe streams are supported (perf record -o -)"),
			 (unsigned long long)size);
		return -EINVAL;
	}
	if (r->buffered)
		r->head += 16;
	r->offset = 16;
	return 0;
}

/*
 * The next record: *rec points at it (valid until the next call). Returns
 * 1, 0 at the end of the stream, or -errno (-EINVAL for a record cut short
 * or of an impossible size) with r->msg saying which and where.
 */
static int next_record(struct perfdata_reader *r, const unsigned char **rec)
{
	struct perfdata_header h;
	unsigned char *p = r->buf;
	ssize_t got;

	got = r->buffered ? fill(r, sizeof(h)) : read_full(r, r->buf, sizeof(h));
	if (got < 0)
		return read_error(r, (int)got);
	if (!got)
		return 0;
	if (r->buffered)
		p = r->buf + r->head;
	if ((size_t)got < sizeof(h)) {
		snprintf(r->msg, r->msglen,
			 _("truncated record header at offset %llu: %zd of its 8 bytes"),
			 (unsigned long long)r->offset, got);
		return -EINVAL;
	}
	memcpy(&h, p, sizeof(h));
	if (h.size < sizeof(h)) {
		snprintf(r->msg, r->msglen,
			 _("record at offset %llu (type %u) has size %u, less than its 8-byte "
			   "header"),
			 (unsigned long long)r->offset, h.type, h.size);
		return -EINVAL;
	}
	if (r->buffered) {
		got = fill(r, h.size);
		p = r->buf + r->head;
	} else {
		got = read_full(r, r->buf + sizeof(h), h.size - sizeof(h));
		if (got >= 0)
			got += (ssize_t)sizeof(h);
	}
	if (got < 0)
		return read_error(r, (int)got);
	if ((size_t)got < h.size) {
		snprintf(r->msg, r->msglen,
			 _("record at offset %llu (type %u, %u bytes) runs past the end of the "
			   "stream (%zd bytes left)"),
			 (unsigned long long)r->offset, h.type, h.size, got);
		return -EINVAL;
	}
	if (r->buffered)
		r->head += h.size;
	r->offset += h.size;
	*rec = p;
	return 1;
}

/* ---- the injector ---- */

struct inject_dso {
	char *name;
	bool done; /* its build-id written, or looked for and not found */
};

struct inject_map {
	uint32_t pid;
	uint64_t start, end;
	size_t dso;
};

struct inject_state {
	struct perfdata_reader r;
	int out;
	bool buffered, all;
	struct sbuf wbuf; /* buffered output, written in PERFDATA_READ_MIN-byte writes */
	struct inject_dso *dsos;
	size_t ndsos, dcap;
	size_t *dhash; /* open addressing: index + 1, 0 empty; dhcap slots */
	size_t dhcap;
	struct inject_map *maps; /* by pid, then start */
	size_t nmaps, mcap;
	size_t last; /* the map the last sample hit, or SIZE_MAX */
	uint64_t sample_type;
	bool have_attr;
};

static int write_counted(struct inject_state *s, const void *p, size_t n)
{
	const char *c = p;

	while (n) {
		ssize_t w;

		s->r.st->writes++;
		w = write(s->out, c, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0) {
			int err = -errno;

			snprintf(s->r.msg, s->r.msglen, _("writing the stream: %s"),
				 strerror(-err));
			return err;
		}
		c += w;
		n -= (size_t)w;
	}
	return 0;
}

static int flush_out(struct inject_state *s)
{
	int err = 0;

	if (s->wbuf.len)
		err = write_counted(s, s->wbuf.p, s->wbuf.len);
	sbuf_reset(&s->wbuf);
	return err;
}

/* One record out: its own write(2), or into the buffer, written when it is full. */
static int put_out(struct inject_state *s, const void *p, size_t n)
{
	if (!s->buffered)
		return write_counted(s, p, n);
	if (s->wbuf.len + n > PERFDATA_READ_MIN) {
		int err = flush_out(s);

		if (err)
			return err;
	}
	sbuf_add(&s->wbuf, p, n);
	return 0;
}

static uint64_t hash_name(const char *s, size_t n)
{
	uint64_t h = 1469598103934665603ULL; /* FNV-1a */

	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
	return h;
}

static void dhash_grow(struct inject_state *s)
{
	size_t cap = s->dhcap ? s->dhcap * 2 : 256;

	free(s->dhash);
	s->dhash = xcalloc(cap, sizeof(*s->dhash));
	s->dhcap = cap;
	for (size_t i = 0; i < s->ndsos; i++) {
		const char *nm = s->dsos[i].name;
		size_t j = hash_name(nm, strlen(nm)) & (cap - 1);

		while (s->dhash[j])
			j = (j + 1) & (cap - 1);
		s->dhash[j] = i + 1;
	}
}

/* The DSO named name[0, n), added when new; its index. */
static size_t dso_find(struct inject_state *s, const char *name, size_t n)
{
	size_t j;

	if (2 * (s->ndsos + 1) > s->dhcap)
		dhash_grow(s);
	for (j = hash_name(name, n) & (s->dhcap - 1); s->dhash[j]; j = (j + 1) & (s->dhcap - 1)) {
		const char *nm = s->dsos[s->dhash[j] - 1].name;

		if (!strncmp(nm, name, n) && !nm[n])
			return s->dhash[j] - 1;
	}
	if (s->ndsos == s->dcap) {
		s->dcap = s->dcap ? 2 * s->dcap : 64;
		s->dsos = xreallocarray(s->dsos, s->dcap, sizeof(*s->dsos));
	}
	s->dsos[s->ndsos].name = xmalloc(n + 1);
	memcpy(s->dsos[s->ndsos].name, name, n);
	s->dsos[s->ndsos].name[n] = '\0';
	s->dsos[s->ndsos].done = false;
	s->dhash[j] = ++s->ndsos;
	return s->ndsos - 1;
}

static int map_cmp(uint32_t pid, uint64_t start, const struct inject_map *m)
{
	if (pid != m->pid)
		return pid < m->pid ? -1 : 1;
	return start < m->start ? -1 : start > m->start;
}

/* The index of the first map not below (pid, start). */
static size_t map_lower(const struct inject_state *s, uint32_t pid, uint64_t start)
{
	size_t lo = 0, hi = s->nmaps;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (map_cmp(pid, start, &s->maps[mid]) > 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* A map of pid over [start, start + len); one at the same start is replaced. */
static void map_add(struct inject_state *s, uint32_t pid, uint64_t start, uint64_t len, size_t dso)
{
	size_t i = map_lower(s, pid, start);
	struct inject_map m = {.pid = pid, .start = start, .end = start + len, .dso = dso};

	if (m.end < start)
		m.end = UINT64_MAX;
	s->last = SIZE_MAX;
	if (i < s->nmaps && !map_cmp(pid, start, &s->maps[i])) {
		s->maps[i] = m;
		return;
	}
	if (s->nmaps == s->mcap) {
		s->mcap = s->mcap ? 2 * s->mcap : 64;
		s->maps = xreallocarray(s->maps, s->mcap, sizeof(*s->maps));
	}
	memmove(s->maps + i + 1, s->maps + i, (s->nmaps - i) * sizeof(*s->maps));
	s->maps[i] = m;
	s->nmaps++;
}

/* The map of pid holding ip, or SIZE_MAX. */
static size_t map_find(struct inject_state *s, uint32_t pid, uint64_t ip)
{
	size_t i;

	/* A run of samples hits the same map: look there first. */
	if (s->last < s->nmaps && s->maps[s->last].pid == pid && ip >= s->maps[s->last].start &&
	    ip < s->maps[s->last].end)
		return s->last;
	i = map_lower(s, pid, ip + 1 < ip ? ip : ip + 1);
	if (!i || s->maps[i - 1].pid != pid || ip >= s->maps[i - 1].end)
		return SIZE_MAX;
	s->last = i - 1;
	return i - 1;
}

/* The build-id record of DSO d, read from its file now, before the record that needs it. */
static int inject(struct inject_state *s, size_t d)
{
	struct inject_dso *dso = &s->dsos[d];
	struct perfdata_build_id b = {.pid = -1};
	char rec[sizeof(b) + PERFDATA_REC_MAX];
	size_t n, size, len = strlen(dso->name);

	dso->done = true;
	if (bench_build_id(dso->name, b.id, &n)) {
		s->r.st->no_build_id++;
		return 0;
	}
	if (len > sizeof(rec) - sizeof(b) - 8)
		len = sizeof(rec) - sizeof(b) - 8;
	size = sizeof(b) + perfdata_align8(len + 1);
	b.h = (struct perfdata_header){
	    .type = PERFDATA_RECORD_HEADER_BUILD_ID,
	    .misc = PERF_RECORD_MISC_USER | PERFDATA_MISC_BUILD_ID_SIZE,
	    .size = (uint16_t)size,
	};
	b.id_size = (uint8_t)n;
	memcpy(rec, &b, sizeof(b));
	perfdata_put_string(rec + sizeof(b), dso->name, len);
	s->r.st->build_ids++;
	return put_out(s, rec, size);
}

static int bad_record(struct inject_state *s, const char *what, uint32_t type, uint16_t size)
{
	snprintf(s->r.msg, s->r.msglen, _("record at offset %llu (type %u, %u bytes): %s"),
		 (unsigned long long)(s->r.offset - size), type, size, what);
	return -EINVAL;
}

static int on_attr(struct inject_state *s, const unsigned char *rec, uint16_t size)
{
	uint64_t type;
	uint32_t asize;

	if (size < sizeof(struct perfdata_header) + PERF_ATTR_SIZE_VER0)
		return bad_record(s, _("an event description shorter than perf's first"),
				  PERFDATA_RECORD_HEADER_ATTR, size);
	memcpy(&asize, rec + 8 + offsetof(struct perf_event_attr, size), sizeof(asize));
	if (asize < PERF_ATTR_SIZE_VER0 || asize > size - 8u)
		return bad_record(s, _("an event description whose size is not inside it"),
				  PERFDATA_RECORD_HEADER_ATTR, size);
	memcpy(&type, rec + 8 + offsetof(struct perf_event_attr, sample_type), sizeof(type));
	if (s->have_attr && type != s->sample_type)
		return bad_record(s,
				  _("events of different sample types in one stream are not "
				    "supported"),
				  PERFDATA_RECORD_HEADER_ATTR, size);
	s->sample_type = type;
	s->have_attr = true;
	return 0;
}

/* A map of a file; *d is its DSO when it is to be injected now (with all), else SIZE_MAX. */
static int on_mmap2(struct inject_state *s, const unsigned char *rec, uint16_t size, size_t *d)
{
	struct perfdata_mmap2 m;
	const char *name = (const char *)rec + sizeof(m);
	const char *nul;
	size_t i;

	*d = SIZE_MAX;
	if (size <= sizeof(m) || !(nul = memchr(name, '\0', size - sizeof(m))))
		return bad_record(s, _("an MMAP2 whose file name has no end"), PERF_RECORD_MMAP2,
				  size);
	memcpy(&m, rec, sizeof(m));
	if (name == nul || name[0] != '/')
		return 0; /* anonymous, or [vdso]: no file to read */
	i = dso_find(s, name, (size_t)(nul - name));
	map_add(s, m.pid, m.start, m.len, i);
	if (s->all && !s->dsos[i].done)
		*d = i;
	return 0;
}

/* The DSO a sample hits, when it is still to be injected: its index, else SIZE_MAX. */
static int on_sample(struct inject_state *s, const unsigned char *rec, uint16_t size, size_t *d)
{
	size_t off = sizeof(struct perfdata_header), m;
	uint64_t ip;
	uint32_t pid;

	*d = SIZE_MAX;
	if (!s->have_attr)
		return bad_record(s, _("a sample before any event description"), PERF_RECORD_SAMPLE,
				  size);
	if ((s->sample_type & (PERF_SAMPLE_IP | PERF_SAMPLE_TID)) !=
	    (PERF_SAMPLE_IP | PERF_SAMPLE_TID))
		return 0; /* nothing to find a map with */
	if ((((const struct perfdata_header *)(const void *)rec)->misc &
	     PERF_RECORD_MISC_CPUMODE_MASK) != PERF_RECORD_MISC_USER)
		return 0;
	if (s->sample_type & PERF_SAMPLE_IDENTIFIER)
		off += 8;
	if (size < off + 16)
		return bad_record(s, _("a sample too short for its IP and TID"), PERF_RECORD_SAMPLE,
				  size);
	memcpy(&ip, rec + off, sizeof(ip));
	memcpy(&pid, rec + off + 8, sizeof(pid));
	m = map_find(s, pid, ip);
	if (m != SIZE_MAX && !s->dsos[s->maps[m].dso].done)
		*d = s->maps[m].dso;
	return 0;
}

/* One record: its build-id record first when it is a sample that hits a new DSO. */
static int on_record(struct inject_state *s, const unsigned char *rec)
{
	struct perfdata_header h;
	size_t d = SIZE_MAX;
	int err = 0;

	memcpy(&h, rec, sizeof(h));
	s->r.st->records++;
	switch (h.type) {
	case PERFDATA_RECORD_HEADER_ATTR:
		err = on_attr(s, rec, h.size);
		break;
	case PERF_RECORD_MMAP2:
		s->r.st->mmaps++;
		err = on_mmap2(s, rec, h.size, &d);
		break;
	case PERF_RECORD_SAMPLE:
		s->r.st->samples++;
		err = on_sample(s, rec, h.size, &d);
		break;
	}
	/* perf inject writes a DSO's build-id before the record that made it wanted */
	if (!err && d != SIZE_MAX)
		err = inject(s, d);
	return err ? err : put_out(s, rec, h.size);
}

static void state_free(struct inject_state *s)
{
	for (size_t i = 0; i < s->ndsos; i++)
		free(s->dsos[i].name);
	free(s->dsos);
	free(s->dhash);
	free(s->maps);
	free(s->r.buf);
	sbuf_free(&s->wbuf);
}

int bench_inject_stream(int in, int out, bool buffered, bool all, struct bench_inject_stats *st,
			char *msg, size_t msglen)
{
	struct inject_state s = {
	    .r = {.fd = in,
		  .buffered = buffered,
		  .buf = xmalloc(buffered ? PERFDATA_READ_BUF : PERFDATA_REC_MAX + 1),
		  .st = st,
		  .msg = msg,
		  .msglen = msglen},
	    .out = out,
	    .buffered = buffered,
	    .all = all,
	    .last = SIZE_MAX,
	};
	const unsigned char *rec = NULL;
	int err;

	memset(st, 0, sizeof(*st));
	st->min_request = SIZE_MAX;
	if (msglen)
		msg[0] = '\0';
	err = read_stream_header(&s.r);
	if (!err) {
		uint64_t size = 16;
		char hdr[16];

		memcpy(hdr, PERFDATA_MAGIC, 8);
		memcpy(hdr + 8, &size, sizeof(size));
		err = put_out(&s, hdr, sizeof(hdr));
	}
	while (!err && (err = next_record(&s.r, &rec)) > 0)
		err = on_record(&s, rec);
	if (!err)
		err = flush_out(&s);
	st->dsos = s.ndsos;
	state_free(&s);
	return err;
}
