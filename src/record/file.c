// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * file.c: the recording file (see record.h and doc/DESIGN.md, "Recording"):
 * the header, frames appended with pwrite at the end of the last complete
 * one, the search for that end (back from the file's end to the last frame
 * whose checksums hold), the keyframe chain, and decoding a frame from its
 * keyframe. Compression is libzstd's, a delta being a frame compressed with
 * the previous frame as its prefix; checksums are zlib's CRC-32. Touches
 * only the file it is given.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "ptop/record.h"
#include "ptop/safefile.h"

static const char file_magic[8] = {'P', 'T', 'O', 'P', 'R', 'E', 'C', '\n'};
static const char frame_magic[4] = {'P', 'T', 'F', 'R'};

enum { KIND_KEY = 0, KIND_DELTA = 1 };

/* Level 1: a delta against the previous frame is where the size goes; more
 * effort buys little and costs the recorder CPU every frame. */
#define RECORD_ZSTD_LEVEL 1
/* Largest zstd window a reader accepts: a frame and its prefix, 2 x RECORD_FRAME_MAX. */
#define RECORD_WINDOW_LOG_MAX 29

struct head {
	uint32_t clen; /* compressed bytes after the head */
	unsigned kind;
	uint32_t data_crc;
	uint64_t seq;
	int64_t time_ns;
	uint64_t key_off; /* delta: its keyframe; keyframe: the previous one, 0 none */
	uint32_t rec_us; /* version 3: the recorder's CPU time on the frame before, us; 0 unknown */
};

struct key {
	uint64_t off, seq;
	int64_t time_ns;
	bool bad; /* no keyframe reads here: frames from seq to the next key are lost */
};

struct record_writer {
	int fd;
	char *path;
	uint64_t end;	    /* where the next frame goes */
	uint64_t seq;	    /* its number */
	uint64_t key_off;   /* the current keyframe, 0 none yet */
	unsigned since_key; /* frames since it */
	uint32_t version;   /* the file's: 2 is appended to as it is, without rec_us */
	uint32_t rec_us;    /* CPU time the last frame took to record, us; 0 none yet */
	uint64_t written;   /* bytes this writer wrote */
	bool failed;
	ZSTD_CCtx *cctx;
	struct sbuf raw, prev, out;
};

struct record_reader {
	int fd;
	bool borrowed; /* fd is the writer's: closing it would drop the writer's lock */
	char *path;
	struct record_info info;
	uint64_t end;  /* after the last complete frame (a file; unused for a directory) */
	uint64_t tail; /* bytes after it, when no recorder is writing them */
	struct key *keys;
	size_t nkeys;
	uint64_t nframes;
	ZSTD_DCtx *dctx;
	struct sbuf comp, raw, cur; /* cur: the decoded bytes of frame cur_seq */
	bool cur_valid;
	uint64_t cur_seq, cur_next, cur_key;
	uint32_t cur_rec_us; /* the head's rec_us of frame cur_seq */
	uint64_t cur_bytes;  /* frame cur_seq's head and compressed data, bytes */
	/* a directory (--record DIR): its day files in order, as one recording */
	struct record_reader **parts;
	uint64_t *base;	     /* the number of each part's first frame */
	size_t nparts, part; /* part: the one last read */
	struct record_store store;
};

static int rec_fail(struct record_error *e, int err, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int rec_fail(struct record_error *e, int err, const char *path, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!e)
		return err;
	e->why = NULL;
	n = snprintf(e->msg, sizeof(e->msg), "ptop: %s: ", path);
	if (n < 0 || (size_t)n >= sizeof(e->msg))
		return err;
	va_start(ap, fmt);
	vsnprintf(e->msg + n, sizeof(e->msg) - (size_t)n, fmt, ap);
	va_end(ap);
	return err;
}

static void le32(unsigned char *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static void le64(unsigned char *p, uint64_t v)
{
	le32(p, (uint32_t)v);
	le32(p + 4, (uint32_t)(v >> 32));
}

static uint32_t rd32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t rd64(const unsigned char *p)
{
	return rd32(p) | (uint64_t)rd32(p + 4) << 32;
}

static uint32_t crc(const void *p, size_t n)
{
	uLong c = crc32(0L, Z_NULL, 0);

	/* zlib takes uInt lengths: feed a large block in parts */
	while (n > 0) {
		uInt part = n > UINT_MAX ? UINT_MAX : (uInt)n;

		c = crc32(c, p, part);
		p = (const char *)p + part;
		n -= part;
	}
	return (uint32_t)c;
}

/* All n bytes at off, or -errno; -ENODATA when the file ends first. */
static int pread_all(int fd, void *buf, size_t n, uint64_t off)
{
	while (n > 0) {
		ssize_t r = pread(fd, buf, n, (off_t)off);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (r == 0)
			return -ENODATA;
		buf = (char *)buf + r;
		n -= (size_t)r;
		off += (uint64_t)r;
	}
	return 0;
}

static int pwrite_all(int fd, const void *buf, size_t n, uint64_t off)
{
	while (n > 0) {
		ssize_t r = pwrite(fd, buf, n, (off_t)off);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (r == 0)
			return -ENOSPC;
		buf = (const char *)buf + r;
		n -= (size_t)r;
		off += (uint64_t)r;
	}
	return 0;
}

/* ---- the header ---- */

static void header_build(unsigned char h[RECORD_HEADER_LEN])
{
	struct utsname u;
	struct timespec now;
	long hz = sysconf(_SC_CLK_TCK), page = sysconf(_SC_PAGESIZE);
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);

	memset(h, 0, RECORD_HEADER_LEN);
	memcpy(h, file_magic, sizeof(file_magic));
	le32(h + 8, RECORD_VERSION);
	le32(h + 12, RECORD_HEADER_LEN);
	clock_gettime(CLOCK_REALTIME, &now);
	le64(h + 20, (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec);
	le32(h + 28, hz > 0 ? (uint32_t)hz : 0);
	le32(h + 32, page > 0 ? (uint32_t)page : 0);
	le32(h + 36, ncpu > 0 ? (uint32_t)ncpu : 0);
	le32(h + 40, RECORD_KEY_EVERY);
	if (uname(&u) == 0) {
		memcpy(h + 44, u.nodename, strnlen(u.nodename, 64));
		memcpy(h + 109, u.release, strnlen(u.release, 64));
	}
	le32(h + RECORD_VERSION_CRC_AT, crc(h + 8, 8));
	le32(h + 16, crc(h + 20, RECORD_HEADER_LEN - 20));
}

/*
 * Whether the version field (and the header length after it) is as written:
 * its CRC-32 at RECORD_VERSION_CRC_AT, which every version from this one on
 * writes there, or 0 in a file written before it was.
 */
static int version_check(const unsigned char *h, size_t n)
{
	uint32_t v;

	if (n < RECORD_HEADER_LEN)
		return -ENODATA;
	v = rd32(h + RECORD_VERSION_CRC_AT);
	return v == crc(h + 8, 8) ? 0 : v == 0 ? -ENOENT : -EINVAL;
}

/* Parse and check the header read into h (n bytes of it). */
static int header_parse(const unsigned char *h, size_t n, const char *path, struct record_info *in,
			struct record_error *e)
{
	int check;

	if (n == 0)
		return rec_fail(e, -EPROTO, path, _("empty file, not a ptop recording"));
	if (n < sizeof(file_magic) || memcmp(h, file_magic, sizeof(file_magic)))
		return rec_fail(e, -EPROTO, path, _("not a ptop recording"));
	if (n < 12)
		return rec_fail(e, -EINVAL, path, _("truncated header"));
	in->version = rd32(h + 8);
	check = version_check(h, n);
	/* newer by its version field and that field's own check, whatever else its header says */
	if (in->version > RECORD_VERSION && in->version <= RECORD_VERSION_SANE && !check)
		return rec_fail(e, -EPROTO, path,
				_("recorded in format version %u by a newer ptop; this ptop reads "
				  "versions up to %u"),
				in->version, RECORD_VERSION);
	if (check == -ENODATA)
		return rec_fail(e, -EINVAL, path, _("truncated header"));
	if (in->version == 0 || in->version > RECORD_VERSION || check == -EINVAL)
		return rec_fail(e, -EINVAL, path,
				_("corrupt header: its version field (%u) is damaged"),
				in->version);
	if (n < RECORD_HEADER_LEN)
		return rec_fail(e, -EINVAL, path, _("truncated header"));
	if (in->version == 0 || rd32(h + 12) != RECORD_HEADER_LEN ||
	    rd32(h + 16) != crc(h + 20, RECORD_HEADER_LEN - 20))
		return rec_fail(e, -EINVAL, path, _("corrupt header"));
	in->created_ns = (int64_t)rd64(h + 20);
	in->hz = rd32(h + 28);
	in->page_size = rd32(h + 32);
	in->ncpu = rd32(h + 36);
	in->key_every = rd32(h + 40);
	memcpy(in->hostname, h + 44, 64);
	in->hostname[64] = '\0';
	memcpy(in->kernel, h + 109, 64);
	in->kernel[64] = '\0';
	return 0;
}

/* ---- frame heads ---- */

static void head_build(unsigned char b[RECORD_FRAME_HEAD], const struct head *h)
{
	memset(b, 0, RECORD_FRAME_HEAD);
	memcpy(b, frame_magic, sizeof(frame_magic));
	le32(b + 4, h->clen);
	b[8] = (unsigned char)h->kind;
	le32(b + 12, h->data_crc);
	le64(b + 16, h->seq);
	le64(b + 24, (uint64_t)h->time_ns);
	le64(b + 32, h->key_off);
	le32(b + 40, h->rec_us);
	le32(b + 44, crc(b, 44));
}

/* The head in b, for a frame at off, checked on its own (magic, its CRC, sizes within end). */
static int head_parse(const unsigned char *b, uint64_t off, uint64_t end, struct head *h)
{
	if (off < RECORD_HEADER_LEN || off > end || end - off < RECORD_FRAME_HEAD)
		return -EINVAL;
	if (memcmp(b, frame_magic, sizeof(frame_magic)) || rd32(b + 44) != crc(b, 44) ||
	    b[8] > KIND_DELTA || b[9] || b[10] || b[11])
		return -EINVAL;
	h->clen = rd32(b + 4);
	h->kind = b[8];
	h->data_crc = rd32(b + 12);
	h->seq = rd64(b + 16);
	h->time_ns = (int64_t)rd64(b + 24);
	h->key_off = rd64(b + 32);
	/* zero before version 3, which readers of version 2 check: the CRC guards it */
	h->rec_us = rd32(b + 40);
	if (h->clen > RECORD_FRAME_MAX || h->clen > end - off - RECORD_FRAME_HEAD)
		return -EINVAL;
	/* a delta's keyframe comes before it; so does the keyframe before a keyframe */
	if (h->key_off >= off || (h->key_off && h->key_off < RECORD_HEADER_LEN) ||
	    (h->kind == KIND_DELTA && !h->key_off))
		return -EINVAL;
	return 0;
}

/* The head at off, read and checked on its own: 0 or -EINVAL. */
static int head_read(int fd, uint64_t off, uint64_t end, struct head *h)
{
	unsigned char b[RECORD_FRAME_HEAD];

	if (off < RECORD_HEADER_LEN || off > end || end - off < RECORD_FRAME_HEAD ||
	    pread_all(fd, b, sizeof(b), off))
		return -EINVAL;
	return head_parse(b, off, end, h);
}

/* The compressed data of the frame at off (head h) into b, its CRC checked. */
static int data_read(int fd, uint64_t off, const struct head *h, struct sbuf *b)
{
	int err;

	sbuf_reset(b);
	sbuf_reserve(b, h->clen);
	err = pread_all(fd, b->p, h->clen, off + RECORD_FRAME_HEAD);
	if (err)
		return err == -ENODATA ? -EINVAL : err;
	b->len = h->clen;
	return crc(b->p, b->len) == h->data_crc ? 0 : -EINVAL;
}

/*
 * The last complete frame: back from the file's end to the last place where
 * a frame's magic starts a head and data whose checksums hold. A crash or a
 * full disk leaves at most a part of one frame after it. Linear in the
 * file's size whatever it holds: each chunk is read once and the heads in
 * it checked there, and the data of the heads that hold is checked within
 * a budget of twice the file's size (a damaged last frame and the one before
 * it fit), past which the file is corrupt (-EINVAL), not searched on:
 * crafted heads claiming long data would otherwise cost the size squared.
 */
static int find_last(int fd, uint64_t size, struct sbuf *tmp, uint64_t *last, struct head *h)
{
	enum { CHUNK = 1 << 16 };
	unsigned char *buf = xmalloc(CHUNK + RECORD_FRAME_HEAD - 1);
	uint64_t hi = size, budget = 2 * size;
	int err = -ENODATA;

	while (err == -ENODATA && hi > RECORD_HEADER_LEN) {
		uint64_t lo = hi - RECORD_HEADER_LEN > CHUNK ? hi - CHUNK : RECORD_HEADER_LEN;
		/* the head of a frame that starts in the chunk, up to its last byte */
		size_t n =
		    (size_t)(hi - lo) + (size - hi < RECORD_FRAME_HEAD - 1 ? (size_t)(size - hi)
									   : RECORD_FRAME_HEAD - 1);

		if (pread_all(fd, buf, n, lo)) {
			err = -EIO;
			break;
		}
		for (uint64_t p = hi; p-- > lo;) {
			size_t i = (size_t)(p - lo);

			if (i + RECORD_FRAME_HEAD > n || memcmp(buf + i, frame_magic, 4) ||
			    head_parse(buf + i, p, size, h))
				continue;
			if (h->clen > budget) {
				err = -EINVAL;
				break;
			}
			budget -= h->clen;
			if (data_read(fd, p, h, tmp))
				continue;
			*last = p;
			err = 0;
			break;
		}
		hi = lo;
	}
	free(buf);
	return err;
}

static void key_add(struct record_reader *r, size_t *cap, struct key k)
{
	if (r->nkeys == *cap) {
		*cap = *cap ? *cap * 2 : 64;
		r->keys = xreallocarray(r->keys, *cap, sizeof(*r->keys));
	}
	r->keys[r->nkeys++] = k;
}

/*
 * The keyframes, from the last frame's back to the first frame, into r->keys
 * (in order): one head read per keyframe. -EINVAL when a head on the way
 * does not hold.
 */
static int keys_load(struct record_reader *r, uint64_t last, const struct head *lh)
{
	uint64_t off = lh->kind == KIND_KEY ? last : lh->key_off, seq_above = lh->seq + 1;
	size_t cap = 0;

	r->nkeys = 0;
	while (off) {
		struct head h;

		if (head_read(r->fd, off, r->end, &h) || h.kind != KIND_KEY || h.seq >= seq_above)
			return -EINVAL;
		key_add(r, &cap, (struct key){.off = off, .seq = h.seq, .time_ns = h.time_ns});
		seq_above = h.seq;
		off = h.key_off;
	}
	/* the chain ends at the first frame, which starts right after the header */
	if (!r->nkeys || r->keys[r->nkeys - 1].off != RECORD_HEADER_LEN ||
	    r->keys[r->nkeys - 1].seq != 0)
		return -EINVAL;
	for (size_t i = 0; i < r->nkeys / 2; i++) {
		struct key k = r->keys[i];

		r->keys[i] = r->keys[r->nkeys - 1 - i];
		r->keys[r->nkeys - 1 - i] = k;
	}
	return 0;
}

/*
 * The keyframes when their chain is broken (a damaged keyframe head): every
 * frame head from the first frame to the last complete one whose own
 * checksum holds, in one pass (a head that holds is jumped over with its
 * data; a damaged one is passed byte by byte to the next that holds), so
 * each byte is read at most once. Frames whose heads were not found are lost
 * with every frame after them up to the next keyframe: a bad key there (at
 * the damaged bytes, where no head reads) makes reading skip them at once.
 */
static int keys_scan(struct record_reader *r, const struct head *lh)
{
	enum { CHUNK = 1 << 16 };
	unsigned char *buf = xmalloc(CHUNK + RECORD_FRAME_HEAD);
	uint64_t at = RECORD_HEADER_LEN, lo = 0, hi = 0, gap = 0, next = 0;
	size_t cap = 0;
	int err = 0;

	r->nkeys = 0;
	while (at + RECORD_FRAME_HEAD <= r->end) {
		const unsigned char *b;
		struct head h;

		if (at + RECORD_FRAME_HEAD > hi) {
			size_t n = r->end - at > CHUNK + RECORD_FRAME_HEAD
				       ? CHUNK + RECORD_FRAME_HEAD
				       : (size_t)(r->end - at);

			err = pread_all(r->fd, buf, n, at);
			if (err)
				break;
			lo = at;
			hi = at + n;
		}
		b = buf + (at - lo);
		if (memcmp(b, frame_magic, sizeof(frame_magic)) || head_parse(b, at, r->end, &h) ||
		    h.seq < next || h.seq > lh->seq) {
			if (!gap)
				gap = at;
			at++;
			continue;
		}
		/* frames lost before this one: from the first of them to the next keyframe */
		if (h.seq != next || (h.kind == KIND_DELTA && !r->nkeys))
			key_add(r, &cap,
				(struct key){.off = gap ? gap : at,
					     .seq = next,
					     .time_ns = h.time_ns,
					     .bad = true});
		if (h.kind == KIND_KEY)
			key_add(r, &cap,
				(struct key){.off = at, .seq = h.seq, .time_ns = h.time_ns});
		next = h.seq + 1;
		gap = 0;
		at += RECORD_FRAME_HEAD + (uint64_t)h.clen;
	}
	free(buf);
	if (err)
		return err == -ENODATA ? -EIO : err;
	/* the last frame's head holds: passed over only by a crafted head's length */
	if (next <= lh->seq)
		key_add(
		    r, &cap,
		    (struct key){
			.off = gap ? gap : at, .seq = next, .time_ns = lh->time_ns, .bad = true});
	return 0;
}

/* Whether another process records into fd's file now (holds the writer's lock). */
static bool being_recorded(int fd)
{
	struct flock l = {.l_type = F_RDLCK, .l_whence = SEEK_SET};

	return fcntl(fd, F_GETLK, &l) == 0 && l.l_type != F_UNLCK;
}

/* record_reader_open_fd(), fd owned by the reader unless borrowed. */
static int reader_open(int fd, bool borrowed, const char *path, struct record_reader **out,
		       struct record_error *e)
{
	struct record_reader *r = xcalloc(1, sizeof(*r));
	unsigned char h[RECORD_HEADER_LEN];
	struct head lh;
	struct stat st;
	uint64_t last;
	ssize_t n;
	int err;

	*out = NULL;
	r->fd = fd;
	r->borrowed = borrowed;
	r->path = xstrdup(path);
	if (fstat(fd, &st)) {
		err = rec_fail(e, -errno, path, "%s", strerror(errno));
		goto fail;
	}
	if (!S_ISREG(st.st_mode)) {
		err = rec_fail(e, -EPROTO, path, _("not a ptop recording"));
		goto fail;
	}
	do
		n = pread(fd, h, sizeof(h), 0);
	while (n < 0 && errno == EINTR);
	if (n < 0) {
		err = rec_fail(e, -errno, path, "%s", strerror(errno));
		goto fail;
	}
	err = header_parse(h, (size_t)n, path, &r->info, e);
	if (err)
		goto fail;
	err = find_last(fd, (uint64_t)st.st_size, &r->comp, &last, &lh);
	if (err == -ENODATA) {
		rec_fail(e, err, path, _("no complete frame recorded"));
		goto fail;
	} else if (err == -EINVAL) {
		rec_fail(e, err, path,
			 _("corrupt: too many damaged frame heads at its end to find its last "
			   "complete frame"));
		goto fail;
	} else if (err) {
		rec_fail(e, err, path, "%s", strerror(-err));
		goto fail;
	}
	r->end = last + RECORD_FRAME_HEAD + lh.clen;
	if ((uint64_t)st.st_size > r->end && !borrowed && !being_recorded(fd))
		r->tail = (uint64_t)st.st_size - r->end;
	/* every frame takes a head: a crafted number must not make readers count to it */
	if (lh.seq >= (r->end - RECORD_HEADER_LEN) / RECORD_FRAME_HEAD) {
		err = rec_fail(e, -EINVAL, path,
			       _("corrupt: its last frame's number is more than the file holds"));
		goto fail;
	}
	r->nframes = lh.seq + 1;
	/* a damaged keyframe head breaks the chain: the frames that read are found one by one */
	if (keys_load(r, last, &lh))
		err = keys_scan(r, &lh);
	if (err) {
		rec_fail(e, err, path, "%s", strerror(-err));
		goto fail;
	}
	r->dctx = ZSTD_createDCtx();
	if (!r->dctx || ZSTD_isError(ZSTD_DCtx_setParameter(r->dctx, ZSTD_d_windowLogMax,
							    RECORD_WINDOW_LOG_MAX))) {
		err = rec_fail(e, -ENOMEM, path, "%s", strerror(ENOMEM));
		goto fail;
	}
	*out = r;
	return 0;
fail:
	record_reader_free(r);
	return err;
}

/* path opened by safefile_open(), or -errno with e saying why. */
static int open_file(const char *path, int flags, unsigned how, struct stat *st,
		     struct record_error *e)
{
	int fd = safefile_open(path, flags, how, st);

	if (fd >= 0)
		return fd;
	if (fd == -ENOENT || (fd == -EACCES && !safefile_refused(fd, st, how)))
		return rec_fail(e, fd, path, "%s", strerror(-fd));
	return rec_fail(e, fd, path, "%s: %s", safefile_why(fd, st, how),
			flags == O_RDONLY ? _("not read") : _("not recorded into"));
}

int record_reader_open_fd(int fd, const char *path, struct record_reader **out,
			  struct record_error *e)
{
	return reader_open(fd, false, path, out, e);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names of dir's day files (ptop-YYYY-MM-DD.rec), sorted: in date order. */
static int day_files(const char *dir, char ***out, size_t *n, struct record_error *e)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	size_t cap = 0;

	*out = NULL;
	*n = 0;
	if (!d)
		return rec_fail(e, -errno, dir, "%s", strerror(errno));
	while ((de = readdir(d))) {
		int y, m, dd, len = 0;

		if (sscanf(de->d_name, "ptop-%4d-%2d-%2d.rec%n", &y, &m, &dd, &len) != 3 ||
		    (size_t)len != strlen(de->d_name) || len != 19)
			continue;
		if (*n == cap) {
			cap = cap ? cap * 2 : 16;
			*out = xreallocarray(*out, cap, sizeof(**out));
		}
		(*out)[(*n)++] = xstrdup(de->d_name);
	}
	closedir(d);
	if (*n)
		qsort(*out, *n, sizeof(**out), by_name);
	return 0;
}

/*
 * A directory's day files as one recording: the parts in date order, frames
 * numbered across them. A day file with no complete frame is left out;
 * another that cannot be read fails it all.
 */
static int open_days(const char *dir, struct record_reader **out, struct record_error *e)
{
	struct record_reader *r = xcalloc(1, sizeof(*r));
	char **names, path[PATH_MAX];
	struct stat st;
	size_t n;
	int err = day_files(dir, &names, &n, e);

	r->fd = -1;
	r->path = xstrdup(dir);
	r->parts = xcalloc(n ? n : 1, sizeof(*r->parts));
	r->base = xcalloc(n ? n : 1, sizeof(*r->base));
	for (size_t i = 0; !err && i < n; i++) {
		struct record_reader *p;
		int fd;

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		/* a file each, never a directory again (a link to "." would not end) */
		fd = open_file(path, O_RDONLY, 0, &st, e);
		err = fd < 0 ? fd : record_reader_open_fd(fd, path, &p, e);
		if (err == -ENODATA) {
			err = 0;
			continue;
		}
		if (err)
			break;
		if (!r->nparts)
			r->info = p->info;
		r->base[r->nparts] = r->nframes;
		r->parts[r->nparts++] = p;
		r->nframes += p->nframes;
	}
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	if (!err && !r->nparts)
		err = rec_fail(e, -ENODATA, dir, _("no recorded frames in this directory"));
	if (err) {
		record_reader_free(r);
		return err;
	}
	*out = r;
	return 0;
}

int record_reader_open(const char *path, struct record_reader **out, struct record_error *e)
{
	struct stat st;
	int fd;

	*out = NULL;
	fd = open_file(path, O_RDONLY, SAFEFILE_DIR, &st, e);
	if (fd < 0)
		return fd;
	if (S_ISDIR(st.st_mode)) {
		close(fd);
		return open_days(path, out, e);
	}
	return record_reader_open_fd(fd, path, out, e);
}

/* The part that holds frame n of a directory (n < r->nframes). */
static size_t part_of(const struct record_reader *r, uint64_t n)
{
	size_t lo = 0, hi = r->nparts;

	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (r->base[mid] <= n)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

void record_reader_free(struct record_reader *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nparts; i++)
		record_reader_free(r->parts[i]);
	free(r->parts);
	free(r->base);
	if (r->fd >= 0 && !r->borrowed)
		close(r->fd);
	ZSTD_freeDCtx(r->dctx);
	sbuf_free(&r->comp);
	sbuf_free(&r->raw);
	sbuf_free(&r->cur);
	record_store_free(&r->store);
	free(r->keys);
	free(r->path);
	free(r);
}

const struct record_info *record_reader_info(const struct record_reader *r)
{
	return &r->info;
}

uint64_t record_reader_tail(const struct record_reader *r, const char **path)
{
	for (size_t i = 0; i < r->nparts; i++)
		if (r->parts[i]->tail)
			return record_reader_tail(r->parts[i], path);
	*path = r->path;
	return r->tail;
}

const char *record_reader_path(const struct record_reader *r)
{
	return r->path;
}

uint64_t record_frames(const struct record_reader *r)
{
	return r->nframes;
}

/* The keyframe at or before frame n. */
static const struct key *key_for(const struct record_reader *r, uint64_t n)
{
	size_t lo = 0, hi = r->nkeys;

	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (r->keys[mid].seq <= n)
			lo = mid;
		else
			hi = mid;
	}
	return &r->keys[lo];
}

static int corrupt(struct record_reader *r, struct record_error *e, uint64_t n, uint64_t off,
		   const char *why)
{
	r->cur_valid = false;
	rec_fail(e, -EINVAL, r->path, _("frame %llu at byte %llu is corrupt (%s)"),
		 (unsigned long long)n, (unsigned long long)off, why);
	if (e) {
		e->frame = n;
		e->why = why;
	}
	return -EINVAL;
}

/* Decode frame n at off into r->cur; a delta needs frame n - 1 there. */
static int step(struct record_reader *r, uint64_t off, uint64_t n, struct record_error *e)
{
	struct head h;
	unsigned long long size;
	size_t got;
	struct sbuf t;

	if (head_read(r->fd, off, r->end, &h) || h.seq != n)
		return corrupt(r, e, n, off, _("bad frame head"));
	if (h.kind == KIND_DELTA &&
	    (!r->cur_valid || r->cur_seq + 1 != n || h.key_off != r->cur_key))
		return corrupt(r, e, n, off, _("delta without its keyframe"));
	if (data_read(r->fd, off, &h, &r->comp))
		return corrupt(r, e, n, off, _("checksum mismatch"));
	size = ZSTD_getFrameContentSize(r->comp.p, r->comp.len);
	if (size == ZSTD_CONTENTSIZE_UNKNOWN || size == ZSTD_CONTENTSIZE_ERROR ||
	    size > RECORD_FRAME_MAX)
		return corrupt(r, e, n, off, _("bad compressed data"));
	ZSTD_DCtx_reset(r->dctx, ZSTD_reset_session_only);
	if (h.kind == KIND_DELTA &&
	    ZSTD_isError(ZSTD_DCtx_refPrefix(r->dctx, r->cur.p, r->cur.len)))
		return corrupt(r, e, n, off, _("bad compressed data"));
	sbuf_reset(&r->raw);
	sbuf_reserve(&r->raw, (size_t)size);
	got = ZSTD_decompressDCtx(r->dctx, r->raw.p, (size_t)size, r->comp.p, r->comp.len);
	if (ZSTD_isError(got) || got != size)
		return corrupt(r, e, n, off, _("bad compressed data"));
	r->raw.len = got;
	t = r->cur;
	r->cur = r->raw;
	r->raw = t;
	r->cur_valid = true;
	r->cur_seq = n;
	r->cur_next = off + RECORD_FRAME_HEAD + h.clen;
	r->cur_rec_us = r->info.version >= 3 ? h.rec_us : 0;
	r->cur_bytes = RECORD_FRAME_HEAD + (uint64_t)h.clen;
	if (h.kind == KIND_KEY)
		r->cur_key = off;
	return 0;
}

int record_read(struct record_reader *r, uint64_t n, struct frame *f, struct record_error *e)
{
	int err = 0;

	if (n >= r->nframes)
		return -ERANGE;
	if (r->nparts) {
		r->part = part_of(r, n);
		err = record_read(r->parts[r->part], n - r->base[r->part], f, e);
		if (err == -EINVAL && e)
			e->frame += r->base[r->part];
		return err;
	}
	if (!(r->cur_valid && r->cur_seq == n)) {
		if (r->cur_valid && r->cur_seq + 1 == n) {
			err = step(r, r->cur_next, n, e);
		} else {
			const struct key *k = key_for(r, n);

			r->cur_valid = false;
			if (k->bad)
				err = corrupt(r, e, k->seq, k->off, _("bad frame head"));
			else
				err = step(r, k->off, k->seq, e);
			while (!err && r->cur_seq < n)
				err = step(r, r->cur_next, r->cur_seq + 1, e);
		}
		if (err)
			return err;
	}
	if (record_decode(r->cur.p, r->cur.len, r->info.version, f, &r->store))
		return corrupt(r, e, n, r->cur_next, _("bad frame contents"));
	return 0;
}

/* The first keyframe after frame n (n < r->nframes), or r->nframes when there is none. */
static uint64_t next_key(const struct record_reader *r, uint64_t n)
{
	size_t lo = 0, hi = r->nkeys;

	if (r->nparts) {
		size_t i = part_of(r, n);

		return r->base[i] + next_key(r->parts[i], n - r->base[i]);
	}
	/* the first key whose frame is past n */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (r->keys[mid].seq <= n)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < r->nkeys ? r->keys[lo].seq : r->nframes;
}

/* The keyframe at or before frame n (n < r->nframes). */
static uint64_t key_at(const struct record_reader *r, uint64_t n)
{
	if (r->nparts) {
		size_t i = part_of(r, n);

		return r->base[i] + key_at(r->parts[i], n - r->base[i]);
	}
	return key_for(r, n)->seq;
}

int record_read_next(struct record_reader *r, uint64_t *n, struct frame *f, uint64_t *skipped,
		     struct record_error *e)
{
	struct record_error later;
	bool damaged = false;

	for (;;) {
		uint64_t k;
		int err;

		if (*n >= r->nframes)
			return -ERANGE;
		err = record_read(r, *n, f, damaged ? &later : e);
		if (err != -EINVAL) {
			/* a failure past the damage is what the caller says, not the damage */
			if (err && damaged)
				*e = later;
			return err;
		}
		/* a delta needs every frame since its keyframe: on from the next one */
		damaged = true;
		k = next_key(r, *n);
		*skipped += k - *n;
		*n = k;
	}
}

int record_read_prev(struct record_reader *r, uint64_t *n, struct frame *f, uint64_t *skipped,
		     struct record_error *e)
{
	struct record_error later;
	bool damaged = false;

	for (;;) {
		struct record_error *now = damaged ? &later : e;
		uint64_t k, bad;
		int err;

		if (*n >= r->nframes)
			return -ERANGE;
		err = record_read(r, *n, f, now);
		if (err != -EINVAL) {
			if (err && damaged)
				*e = later;
			return err;
		}
		damaged = true;
		/* every frame from the corrupt one to *n needs it: back to the one before it */
		k = key_at(r, *n);
		bad = now->frame > k && now->frame <= *n ? now->frame : k;
		*skipped += *n - bad + 1;
		if (!bad)
			return -ERANGE;
		*n = bad - 1;
	}
}

/* Walk heads from keyframe k to the last frame with time <= t (k's time is). */
int record_find_time(struct record_reader *r, int64_t t, uint64_t *n, struct record_error *e)
{
	size_t lo = 0, hi = r->nkeys;
	uint64_t off, seq, stop;

	*n = 0;
	if (r->nparts) {
		size_t i = r->nparts;
		int err;

		/* the last day that began at or before t */
		while (i > 1 && r->parts[i - 1]->keys[0].time_ns > t)
			i--;
		err = record_find_time(r->parts[i - 1], t, n, e);
		*n += r->base[i - 1];
		return err;
	}
	if (r->keys[0].time_ns > t)
		return 0;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (r->keys[mid].time_ns <= t)
			lo = mid;
		else
			hi = mid;
	}
	off = r->keys[lo].off;
	seq = r->keys[lo].seq;
	stop = lo + 1 < r->nkeys ? r->keys[lo + 1].seq : r->nframes;
	*n = seq;
	/* a damaged head ends the walk: no frame after it reads before the next keyframe */
	while (!r->keys[lo].bad && ++seq < stop) {
		struct head h, cur;

		if (head_read(r->fd, off, r->end, &cur))
			break;
		off += RECORD_FRAME_HEAD + cur.clen;
		if (head_read(r->fd, off, r->end, &h) || h.seq != seq || h.time_ns > t)
			break;
		*n = seq;
	}
	return 0;
}

int record_frame_time(struct record_reader *r, uint64_t n, int64_t *t, struct record_error *e)
{
	const struct key *k;
	uint64_t off;
	struct head h;

	if (n >= r->nframes)
		return -ERANGE;
	if (r->nparts) {
		size_t i = part_of(r, n);

		return record_frame_time(r->parts[i], n - r->base[i], t, e);
	}
	k = key_for(r, n);
	if (k->bad)
		return corrupt(r, e, k->seq, k->off, _("bad frame head"));
	off = k->off;
	for (uint64_t s = k->seq;; s++) {
		if (head_read(r->fd, off, r->end, &h) || h.seq != s)
			return corrupt(r, e, s, off, _("bad frame head"));
		if (s == n)
			break;
		off += RECORD_FRAME_HEAD + h.clen;
	}
	*t = h.time_ns;
	return 0;
}

/* ---- the writer ---- */

/* A new file at path, whole header or none: written aside, then linked into place. */
static int create_file(const char *path, struct record_error *e)
{
	unsigned char h[RECORD_HEADER_LEN];
	size_t len = strlen(path);
	char *tmp = xmalloc(len + 8);
	int fd, err = 0;

	memcpy(tmp, path, len);
	memcpy(tmp + len, ".XXXXXX", 8);
	/* 0600 from mkstemp: a recording holds every user's processes */
	fd = mkstemp(tmp);
	if (fd < 0) {
		err = rec_fail(e, -errno, path, "%s", strerror(errno));
		free(tmp);
		return err;
	}
	header_build(h);
	err = pwrite_all(fd, h, sizeof(h), 0);
	if (!err && fsync(fd))
		err = -errno;
	if (!err && link(tmp, path) && errno != EEXIST)
		err = -errno;
	if (err)
		rec_fail(e, err, path, "%s", strerror(-err));
	close(fd);
	unlink(tmp);
	free(tmp);
	return err;
}

/* A new header in place of what w->fd holds: a file with no complete frame. */
static int writer_new_header(struct record_writer *w, struct record_error *e)
{
	unsigned char h[RECORD_HEADER_LEN];
	int err;

	header_build(h);
	err = pwrite_all(w->fd, h, sizeof(h), 0);
	if (err)
		return rec_fail(e, err, w->path, "%s", strerror(-err));
	w->end = RECORD_HEADER_LEN;
	return 0;
}

/* Where an existing recording on w->fd ends, cutting off what follows its last frame. */
static int writer_resume(struct record_writer *w, struct record_error *e)
{
	struct record_reader *r;
	struct stat st;
	int err;

	w->version = RECORD_VERSION;
	if (fstat(w->fd, &st))
		return rec_fail(e, -errno, w->path, "%s", strerror(errno));
	/* an empty file given to record into */
	if (st.st_size == 0)
		return writer_new_header(w, e);
	err = reader_open(w->fd, true, w->path, &r, e);
	if (err == -ENODATA) {
		/* a header and no complete frame: this format's header, the first frame after it */
		err = writer_new_header(w, e);
		if (err)
			return err;
	} else if (err) {
		return err;
	} else if (r->info.version < 2) {
		/* one file holds one format: version 1's rows differ; 2 differs from 3 in heads only */
		err =
		    rec_fail(e, -EPROTO, w->path,
			     _("recorded in format version %u; this ptop appends only to versions "
			       "2 to %u: record into a new file"),
			     r->info.version, RECORD_VERSION);
		record_reader_free(r);
		return err;
	} else {
		w->version = r->info.version;
		w->end = r->end;
		w->seq = r->nframes;
		/* the last keyframe that reads, for the chain: a damaged one is left out */
		for (size_t i = r->nkeys; i-- > 0 && !w->key_off;)
			if (!r->keys[i].bad)
				w->key_off = r->keys[i].off;
		record_reader_free(r);
	}
	if (ftruncate(w->fd, (off_t)w->end))
		return rec_fail(e, -errno, w->path, "%s", strerror(errno));
	return 0;
}

/*
 * One recorder per file: two would write their frames over each other's. A
 * POSIX lock, as it names its holder; it lasts while this process keeps
 * every descriptor of the file open (closing any drops it), hence the
 * borrowed descriptor of writer_resume()'s reader.
 */
static int writer_lock(struct record_writer *w, struct record_error *e)
{
	struct flock l = {.l_type = F_WRLCK, .l_whence = SEEK_SET};

	if (fcntl(w->fd, F_SETLK, &l) == 0)
		return 0;
	if (errno != EAGAIN && errno != EACCES)
		return rec_fail(e, -errno, w->path, _("cannot lock it: %s"), strerror(errno));
	l = (struct flock){.l_type = F_WRLCK, .l_whence = SEEK_SET};
	/* the holder's PID is 0 when it is in another PID namespace */
	if (fcntl(w->fd, F_GETLK, &l) == 0 && l.l_type != F_UNLCK && l.l_pid > 0)
		snprintf(e->msg, sizeof(e->msg), _("ptop: %s is being recorded by process %d"),
			 w->path, (int)l.l_pid);
	else
		snprintf(e->msg, sizeof(e->msg), _("ptop: %s is being recorded by another process"),
			 w->path);
	return -EBUSY;
}

int record_writer_open(const char *path, struct record_writer **out, struct record_error *e)
{
	struct record_writer *w = xcalloc(1, sizeof(*w));
	/* a recording holds every user's processes: never into a file another user can read */
	const unsigned how = SAFEFILE_OWN_FILE;
	struct stat st;
	int err;

	*out = NULL;
	w->path = xstrdup(path);
	w->fd = safefile_open(path, O_RDWR, how, &st);
	if (w->fd == -ENOENT && !st.st_mode) {
		err = create_file(path, e);
		if (err)
			goto fail;
		w->fd = -1;
	}
	if (w->fd < 0) {
		w->fd = open_file(path, O_RDWR, how, &st, e);
		if (w->fd < 0) {
			err = w->fd;
			goto fail;
		}
	}
	err = writer_lock(w, e);
	if (!err)
		err = writer_resume(w, e);
	if (err)
		goto fail;
	w->cctx = ZSTD_createCCtx();
	if (!w->cctx) {
		err = rec_fail(e, -ENOMEM, path, "%s", strerror(ENOMEM));
		goto fail;
	}
	*out = w;
	return 0;
fail:
	if (w->fd >= 0)
		close(w->fd);
	free(w->path);
	free(w);
	return err;
}

/* The window that holds the previous frame and this one, so a delta finds every row. */
static int window_log(size_t n)
{
	int log = 10;

	while (log < RECORD_WINDOW_LOG_MAX && ((size_t)1 << log) < n)
		log++;
	return log;
}

/* Compress w->raw (against w->prev for a delta) after a head's room in w->out. */
static int compress_frame(struct record_writer *w, bool key)
{
	size_t bound = ZSTD_compressBound(w->raw.len), n;

	ZSTD_CCtx_reset(w->cctx, ZSTD_reset_session_and_parameters);
	ZSTD_CCtx_setParameter(w->cctx, ZSTD_c_compressionLevel, RECORD_ZSTD_LEVEL);
	ZSTD_CCtx_setParameter(w->cctx, ZSTD_c_windowLog,
			       window_log(w->raw.len + (key ? 0 : w->prev.len)));
	if (!key)
		ZSTD_CCtx_refPrefix(w->cctx, w->prev.p, w->prev.len);
	sbuf_reset(&w->out);
	sbuf_reserve(&w->out, RECORD_FRAME_HEAD + bound);
	n = ZSTD_compress2(w->cctx, w->out.p + RECORD_FRAME_HEAD, bound, w->raw.p, w->raw.len);
	if (ZSTD_isError(n))
		return -ENOMEM;
	w->out.len = RECORD_FRAME_HEAD + n;
	return 0;
}

/* Append the compressed frame in w->out with its head; the writer fails on an error. */
static int append_frame(struct record_writer *w, const struct frame *f, bool key,
			struct record_error *e)
{
	struct head h;
	struct sbuf t;
	int err;

	h = (struct head){.clen = (uint32_t)(w->out.len - RECORD_FRAME_HEAD),
			  .kind = key ? KIND_KEY : KIND_DELTA,
			  .data_crc =
			      crc(w->out.p + RECORD_FRAME_HEAD, w->out.len - RECORD_FRAME_HEAD),
			  .seq = w->seq,
			  .time_ns = (int64_t)f->time.tv_sec * 1000000000 + f->time.tv_nsec,
			  .key_off = w->key_off,
			  .rec_us = w->version >= 3 ? w->rec_us : 0};
	head_build((unsigned char *)w->out.p, &h);
	err = pwrite_all(w->fd, w->out.p, w->out.len, w->end);
	if (err) {
		/* a part of a frame would be skipped by readers; cut it all the same */
		w->failed = true;
		if (ftruncate(w->fd, (off_t)w->end)) {
			/* the reader's search for the last frame copes */
		}
		return rec_fail(e, err, w->path, "%s", strerror(-err));
	}
	if (key) {
		w->key_off = w->end;
		w->since_key = 0;
	}
	w->since_key++;
	w->end += w->out.len;
	w->written += w->out.len;
	w->seq++;
	t = w->prev;
	w->prev = w->raw;
	w->raw = t;
	if (key && fdatasync(w->fd)) {
		w->failed = true;
		return rec_fail(e, -errno, w->path, "%s", strerror(errno));
	}
	return 0;
}

static int64_t thread_cpu_ns(void)
{
	struct timespec t;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t))
		return -1;
	return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

/* t1 - t0 ns in us, rounded up (0 says "unknown"); 0 when a clock failed. */
static uint32_t cost_us(int64_t t0, int64_t t1)
{
	int64_t us;

	if (t0 < 0 || t1 < t0)
		return 0;
	us = (t1 - t0 + 999) / 1000;
	return us < 1 ? 1 : us > UINT32_MAX ? UINT32_MAX : (uint32_t)us;
}

int record_write(struct record_writer *w, const struct frame *f, struct record_error *e)
{
	bool key = !w->since_key || w->since_key >= RECORD_KEY_EVERY;
	int64_t t0 = thread_cpu_ns(), t1;
	int err;

	if (w->failed)
		return rec_fail(e, -EIO, w->path, _("recording stopped after an error"));
	sbuf_reset(&w->raw);
	record_encode(&w->raw, f, w->version);
	if (w->raw.len > RECORD_FRAME_MAX || compress_frame(w, key))
		return rec_fail(e, -EFBIG, w->path, _("frame too large to record"));
	err = append_frame(w, f, key, e);
	t1 = thread_cpu_ns();
	/* known only once written: this frame's cost goes into the next frame's head */
	if (!err)
		w->rec_us = cost_us(t0, t1);
	return err;
}

uint32_t record_read_cost_us(const struct record_reader *r)
{
	if (r->nparts)
		return record_read_cost_us(r->parts[r->part]);
	return r->cur_valid ? r->cur_rec_us : 0;
}

uint64_t record_read_bytes(const struct record_reader *r)
{
	if (r->nparts)
		return record_read_bytes(r->parts[r->part]);
	return r->cur_valid ? r->cur_bytes : 0;
}

uint64_t record_writer_bytes(const struct record_writer *w)
{
	return w->written;
}

int record_writer_close(struct record_writer *w, struct record_error *e)
{
	int err = 0;

	if (!w)
		return 0;
	if (fdatasync(w->fd))
		err = rec_fail(e, -errno, w->path, "%s", strerror(errno));
	close(w->fd);
	ZSTD_freeCCtx(w->cctx);
	sbuf_free(&w->raw);
	sbuf_free(&w->prev);
	sbuf_free(&w->out);
	free(w->path);
	free(w);
	return err;
}
