// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * breakpoints.c: hardware breakpoints and watchpoints a user arms on a
 * process: PERF_TYPE_BREAKPOINT events, one per thread of the process (and
 * inherited by threads it creates later), counting hits. An address is given
 * in hex or as a region of /proc/PID/maps and an offset ("[heap]+0x40"),
 * found with ptop's maps parser. x86 has four debug registers per task, so a
 * fifth breakpoint fails with ENOSPC, which gets a message of its own.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/hw_breakpoint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ptop/perf.h"
#include "ptop/proc.h"

static int parse_hex(const char *s, const char *end, uint64_t *out)
{
	uint64_t v = 0;

	if (end - s > 2 && s[0] == '0' && (s[1] | 0x20) == 'x')
		s += 2;
	if (s == end)
		return -EINVAL;
	for (; s < end; s++) {
		int d;

		if (*s >= '0' && *s <= '9')
			d = *s - '0';
		else if ((*s | 0x20) >= 'a' && (*s | 0x20) <= 'f')
			d = (*s | 0x20) - 'a' + 10;
		else
			return -EINVAL;
		if (v >> 60)
			return -EINVAL;
		v = v << 4 | (unsigned)d;
	}
	*out = v;
	return 0;
}

const char *perf_bp_type_name(enum perf_bp_type t)
{
	switch (t) {
	case PERF_BP_R:
		return "r";
	case PERF_BP_W:
		return "w";
	case PERF_BP_RW:
		return "rw";
	case PERF_BP_X:
		return "x";
	}
	return "?";
}

int perf_bp_parse(const char *arg, struct perf_bp_spec *out)
{
	const char *p = arg, *colon, *plus;
	char *end;
	long v;

	memset(out, 0, sizeof(*out));
	out->len = -1;
	out->type = PERF_BP_W;

	/* strtol would take leading blanks and a sign */
	if (*p < '0' || *p > '9')
		return -EINVAL;
	errno = 0;
	v = strtol(p, &end, 10);
	if (end == p || *end != ':' || errno || v <= 0 || v > INT32_MAX)
		return -EINVAL;
	out->pid = (int)v;
	p = end + 1;

	colon = strchr(p, ':');
	if (!colon)
		colon = p + strlen(p);
	plus = memchr(p, '+', (size_t)(colon - p));
	if (plus) {
		size_t n = (size_t)(plus - p);

		if (n == 0 || n >= sizeof(out->region))
			return -EINVAL;
		memcpy(out->region, p, n);
		if (parse_hex(plus + 1, colon, &out->offset))
			return -EINVAL;
	} else if (parse_hex(p, colon, &out->addr)) {
		return -EINVAL;
	}
	p = *colon ? colon + 1 : colon;

	if (*colon) {
		colon = strchr(p, ':');
		if (!colon)
			colon = p + strlen(p);
		if (colon - p != 1 || !strchr("1248", *p))
			return -EINVAL;
		out->len = *p - '0';
		p = *colon ? colon + 1 : colon;
		if (*colon) {
			if (!strcmp(p, "r"))
				out->type = PERF_BP_R;
			else if (!strcmp(p, "w"))
				out->type = PERF_BP_W;
			else if (!strcmp(p, "rw"))
				out->type = PERF_BP_RW;
			else if (!strcmp(p, "x"))
				out->type = PERF_BP_X;
			else
				return -EINVAL;
		}
	}
	/* perf_event_open wants sizeof(long) for execute breakpoints */
	if (out->len < 0)
		out->len = out->type == PERF_BP_X ? (int)sizeof(long) : 4;
	return 0;
}

int perf_bp_resolve(struct perf_bp_spec *bp, const char *root)
{
	char path[4096], buf[8192];
	size_t have = 0;
	bool found = false;
	int fd;

	if (!bp->region[0])
		return 0;
	snprintf(path, sizeof(path), "%s/%d/maps", root ? root : "/proc", bp->pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? -ESRCH : -errno;
	/* Read by blocks; a line cut at the end of a block is kept for the next one. */
	for (;;) {
		ssize_t n = read(fd, buf + have, sizeof(buf) - have);
		size_t pos = 0;

		if (n < 0) {
			int err = -errno;

			close(fd);
			return err == -ENOENT ? -ESRCH : err;
		}
		have += (size_t)n;
		while (pos < have) {
			struct proc_maps_entry e;
			size_t used;
			const char *nl = memchr(buf + pos, '\n', have - pos);

			if (!nl && n > 0)
				break;
			if (proc_parse_maps_line(buf + pos, have - pos, &e, &used))
				break;
			pos += used;
			if (e.path.n == strlen(bp->region) &&
			    !memcmp(e.path.p, bp->region, e.path.n)) {
				if (bp->offset >= e.end - e.start) {
					close(fd);
					return -EINVAL;
				}
				bp->addr = e.start + bp->offset;
				found = true;
				break;
			}
		}
		if (found || n == 0)
			break;
		memmove(buf, buf + pos, have - pos);
		have -= pos;
		if (have == sizeof(buf))
			break; /* a line longer than the buffer: give up */
	}
	close(fd);
	return found ? 0 : -ENOENT;
}

static int bp_open(const struct perf_bp_spec *s, int tid)
{
	struct perf_event_attr attr;
	long fd;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_BREAKPOINT;
	attr.bp_type = (unsigned)s->type;
	attr.bp_addr = s->addr;
	attr.bp_len = (uint64_t)s->len;
	attr.inherit = 1;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	fd = syscall(SYS_perf_event_open, &attr, tid, -1, -1, PERF_FLAG_FD_CLOEXEC);
	return fd < 0 ? -errno : (int)fd;
}

struct bp_arming {
	struct perf_bp *bp;
	size_t cap;
};

/* One breakpoint event on thread tid; 0 or the -errno that ends the arming. */
static int arm_thread(void *ctx, int tid)
{
	struct bp_arming *a = ctx;
	struct perf_bp *bp = a->bp;
	int fd = bp_open(&bp->spec, tid);

	if (fd == -ESRCH)
		return 0; /* that thread ended meanwhile */
	if (fd < 0)
		return fd;
	if ((size_t)bp->nfds == a->cap) {
		a->cap *= 2;
		bp->fds = xreallocarray(bp->fds, a->cap, sizeof(int));
	}
	bp->fds[bp->nfds++] = fd;
	return 0;
}

int perf_bp_arm(struct perf_bp *bp, const struct perf_bp_spec *spec, const char *root)
{
	struct bp_arming a = {.bp = bp, .cap = 8};
	int err;

	memset(bp, 0, sizeof(*bp));
	bp->spec = *spec;
	err = perf_bp_resolve(&bp->spec, root);
	if (err)
		return err;
	bp->fds = xreallocarray(NULL, a.cap, sizeof(int));
	err = proc_tasks(root, spec->pid, arm_thread, &a);
	if (!err && bp->nfds == 0)
		err = -ESRCH;
	if (err)
		perf_bp_disarm(bp);
	return err;
}

int perf_bp_read(struct perf_bp *bp, double interval)
{
	uint64_t total = 0;
	int live = 0;

	for (int i = 0; i < bp->nfds; i++) {
		uint64_t v;

		/* An ended thread's count stays readable; only an error is skipped. */
		if (read(bp->fds[i], &v, sizeof(v)) == (ssize_t)sizeof(v)) {
			total += v;
			live++;
		}
	}
	if (!live && bp->nfds)
		return -ESRCH;
	bp->prev_hits = bp->hits;
	bp->hits = total;
	bp->hits_per_s = interval > 0 ? (double)(bp->hits - bp->prev_hits) / interval : 0;
	return 0;
}

void perf_bp_disarm(struct perf_bp *bp)
{
	for (int i = 0; i < bp->nfds; i++)
		close(bp->fds[i]);
	free(bp->fds);
	bp->fds = NULL;
	bp->nfds = 0;
}

const char *perf_bp_strerror(int err)
{
	switch (err) {
	case -ENOSPC:
		return N_("no free debug register (x86 has four per task)");
	case -EINVAL:
		return N_("bad address alignment, length or type");
	case -ESRCH:
		return N_("no such process");
	case -EACCES:
	case -EPERM:
		return N_("not permitted (perf_event_paranoid, or another user's process)");
	case -ENOENT:
		return N_("no such region in the process's maps");
	case -ENODEV:
	case -EOPNOTSUPP:
		return N_("hardware breakpoints are not supported here");
	case -EMFILE:
		return N_("out of file descriptors");
	}
	return N_("cannot arm the breakpoint");
}

int perf_bp_selftest(void)
{
	static volatile uint64_t probe;
	struct perf_bp_spec spec = {
	    .addr = (uintptr_t)&probe, .len = sizeof(probe), .type = PERF_BP_W};
	uint64_t hits = 0;
	int fd = bp_open(&spec, 0);

	if (fd < 0)
		return fd;
	for (int i = 0; i < 10; i++)
		probe++;
	if (read(fd, &hits, sizeof(hits)) != (ssize_t)sizeof(hits))
		hits = 0;
	close(fd);
	/* Some hypervisors accept the event but never raise the debug exception. */
	return hits == 10 ? 0 : -EOPNOTSUPP;
}
