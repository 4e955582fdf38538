// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * parse_status.c: the /proc/PID/status parser. "Key:\tvalue" lines; ptop
 * keeps the ones in struct proc_status and steps over the rest, so a kernel
 * that adds lines changes nothing. The kernel escapes Name ('\n' as "\n",
 * '\\' as "\\\\"), so unlike stat's comm it cannot hold a newline.
 */
#include <errno.h>
#include <string.h>

#include "ptop/proc.h"
#include "num.h"

enum {
	REQ_NAME = 1u << 0,
	REQ_STATE = 1u << 1,
	REQ_TGID = 1u << 2,
	REQ_PID = 1u << 3,
	REQ_PPID = 1u << 4,
	REQ_UID = 1u << 5,
	REQ_GID = 1u << 6,
	REQ_THREADS = 1u << 7,
	REQ_ALL = (1u << 8) - 1,
};

static void skip_blanks(const char **pp, const char *end)
{
	while (*pp < end && (**pp == ' ' || **pp == '\t'))
		(*pp)++;
}

/* "\t  1234 kB": the value in KiB. */
static int read_kb(const char *p, const char *end, uint64_t *out)
{
	int err;

	skip_blanks(&p, end);
	err = num_u64(&p, end, out);
	if (err)
		return err;
	skip_blanks(&p, end);
	return end - p == 2 && p[0] == 'k' && p[1] == 'B' ? 0 : -EINVAL;
}

static int read_u64(const char *p, const char *end, uint64_t *out)
{
	int err;

	skip_blanks(&p, end);
	err = num_u64(&p, end, out);
	return err ? err : p == end ? 0 : -EINVAL;
}

static int read_s64(const char *p, const char *end, int64_t *out)
{
	int err;

	skip_blanks(&p, end);
	err = num_s64(&p, end, out);
	return err ? err : p == end ? 0 : -EINVAL;
}

/* Four tab-separated ids (Uid:, Gid:). */
static int read_ids(const char *p, const char *end, uint32_t ids[4])
{
	for (int i = 0; i < 4; i++) {
		uint64_t v;
		int err;

		skip_blanks(&p, end);
		err = num_u64(&p, end, &v);
		if (err)
			return err;
		if (v > UINT32_MAX)
			return -ERANGE;
		ids[i] = (uint32_t)v;
	}
	return p == end ? 0 : -EINVAL;
}

/* Groups: ids between blanks (a tab first; a space after each on older kernels). */
static int read_groups(const char *p, const char *end, struct proc_status *out)
{
	const char *first;

	skip_blanks(&p, end);
	first = p;
	out->ngroups = 0;
	while (p < end) {
		uint64_t v;
		int err = num_u64(&p, end, &v);

		if (err)
			return err;
		if (v > UINT32_MAX)
			return -ERANGE;
		if (p < end && *p != ' ' && *p != '\t')
			return -EINVAL;
		out->ngroups++;
		skip_blanks(&p, end);
	}
	out->groups.p = first;
	out->groups.n = (size_t)(end - first);
	return 0;
}

/* NSpid: pids between blanks, one per namespace level, at least one. */
static int read_nspids(const char *p, const char *end, unsigned *n)
{
	*n = 0;
	skip_blanks(&p, end);
	while (p < end) {
		uint64_t v;
		int err = num_u64(&p, end, &v);

		if (err)
			return err;
		if (v == 0 || v > INT32_MAX)
			return -ERANGE;
		if (p < end && *p != ' ' && *p != '\t')
			return -EINVAL;
		(*n)++;
		skip_blanks(&p, end);
	}
	return *n ? 0 : -EINVAL;
}

#define KEY(k) (klen == sizeof(k) - 1 && !memcmp(line, k, sizeof(k) - 1))

int proc_parse_status(const char *buf, size_t len, struct proc_status *out)
{
	const char *line = buf, *end = buf + len;
	unsigned seen = 0;
	int err = 0;

	memset(out, 0, sizeof(*out));
	while (line < end) {
		const char *nl = memchr(line, '\n', (size_t)(end - line));
		const char *colon, *v;
		size_t klen;

		if (!nl)
			return -EINVAL; /* cut mid-line */
		colon = memchr(line, ':', (size_t)(nl - line));
		if (!colon)
			return -EINVAL;
		klen = (size_t)(colon - line);
		v = colon + 1;

		if (KEY("Name")) {
			if (v < nl && *v == '\t')
				v++;
			out->name.p = v;
			out->name.n = (size_t)(nl - v);
			seen |= REQ_NAME;
		} else if (KEY("State")) {
			skip_blanks(&v, nl);
			if (v >= nl)
				return -EINVAL;
			out->state = *v;
			seen |= REQ_STATE;
		} else if (KEY("Tgid")) {
			err = read_s64(v, nl, &out->tgid);
			seen |= REQ_TGID;
		} else if (KEY("Pid")) {
			err = read_s64(v, nl, &out->pid);
			seen |= REQ_PID;
		} else if (KEY("PPid")) {
			err = read_s64(v, nl, &out->ppid);
			seen |= REQ_PPID;
		} else if (KEY("Uid")) {
			err = read_ids(v, nl, out->uid);
			seen |= REQ_UID;
		} else if (KEY("Gid")) {
			err = read_ids(v, nl, out->gid);
			seen |= REQ_GID;
		} else if (KEY("Groups")) {
			err = read_groups(v, nl, out);
			out->have |= PROC_STATUS_GROUPS;
		} else if (KEY("NSpid")) {
			err = read_nspids(v, nl, &out->nspids);
			out->have |= PROC_STATUS_NSPID;
		} else if (KEY("Threads")) {
			err = read_u64(v, nl, &out->threads);
			seen |= REQ_THREADS;
		} else if (KEY("VmSize")) {
			err = read_kb(v, nl, &out->vm_size);
			out->have |= PROC_STATUS_VMSIZE;
		} else if (KEY("VmRSS")) {
			err = read_kb(v, nl, &out->vm_rss);
			out->have |= PROC_STATUS_VMRSS;
		} else if (KEY("RssAnon")) {
			err = read_kb(v, nl, &out->rss_anon);
			out->have |= PROC_STATUS_RSSANON;
		} else if (KEY("RssFile")) {
			err = read_kb(v, nl, &out->rss_file);
			out->have |= PROC_STATUS_RSSFILE;
		} else if (KEY("RssShmem")) {
			err = read_kb(v, nl, &out->rss_shmem);
			out->have |= PROC_STATUS_RSSSHMEM;
		} else if (KEY("VmLck")) {
			err = read_kb(v, nl, &out->vm_lck);
			out->have |= PROC_STATUS_VMLCK;
		} else if (KEY("VmSwap")) {
			err = read_kb(v, nl, &out->vm_swap);
			out->have |= PROC_STATUS_VMSWAP;
		} else if (KEY("voluntary_ctxt_switches")) {
			err = read_u64(v, nl, &out->voluntary_ctxt);
			out->have |= PROC_STATUS_CTXT;
		} else if (KEY("nonvoluntary_ctxt_switches")) {
			err = read_u64(v, nl, &out->nonvoluntary_ctxt);
		}
		if (err)
			return err;
		line = nl + 1;
	}
	return seen == REQ_ALL ? 0 : -EINVAL;
}
