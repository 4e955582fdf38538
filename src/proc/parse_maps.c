// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * parse_maps.c: one line of /proc/PID/maps at a time:
 * "start-end perms offset major:minor inode [path]". The kernel escapes '\n'
 * in paths as "\012", so a line ends at the first newline; a path of a file
 * that was unlinked ends in " (deleted)", which is cut off and flagged. And
 * the sum htop's LIB column makes of a whole file: the files some mapping
 * executes, all their mappings.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ptop/proc.h"
#include "num.h"

static const char deleted_suffix[] = " (deleted)";

int proc_parse_maps_line(const char *buf, size_t len, struct proc_maps_entry *out, size_t *used)
{
	const char *p = buf, *nl, *end;
	uint64_t major, minor;
	int err;

	nl = memchr(buf, '\n', len);
	end = nl ? nl : buf + len;
	*used = (size_t)(end - buf) + (nl != NULL);
	memset(out, 0, sizeof(*out));

	if ((err = num_x64(&p, end, &out->start)) || num_expect(&p, end, '-') ||
	    (err = num_x64(&p, end, &out->end)) || num_expect(&p, end, ' '))
		return err ? err : -EINVAL;
	if (end - p < 5 || p[4] != ' ')
		return -EINVAL;
	/* Each position has one letter or '-', and the last says private or shared. */
	if ((p[0] != 'r' && p[0] != '-') || (p[1] != 'w' && p[1] != '-') ||
	    (p[2] != 'x' && p[2] != '-') || (p[3] != 'p' && p[3] != 's'))
		return -EINVAL;
	memcpy(out->perms, p, 4);
	p += 5;
	if ((err = num_x64(&p, end, &out->offset)) || num_expect(&p, end, ' ') ||
	    (err = num_x64(&p, end, &major)) || num_expect(&p, end, ':') ||
	    (err = num_x64(&p, end, &minor)))
		return err ? err : -EINVAL;
	if (major > UINT32_MAX || minor > UINT32_MAX)
		return -ERANGE;
	out->dev_major = (uint32_t)major;
	out->dev_minor = (uint32_t)minor;
	if (num_expect(&p, end, ' ') || (err = num_u64(&p, end, &out->inode)))
		return err ? err : -EINVAL;
	/* Junk glued to the inode would otherwise pass for the start of the path. */
	if (p < end && *p != ' ')
		return -EINVAL;
	if (out->end < out->start)
		return -EINVAL;
	/* The path starts after padding to a fixed column; anonymous maps have none. */
	while (p < end && *p == ' ')
		p++;
	out->path.p = p;
	out->path.n = (size_t)(end - p);
	if (out->path.n >= sizeof(deleted_suffix) - 1 &&
	    !memcmp(end - (sizeof(deleted_suffix) - 1), deleted_suffix,
		    sizeof(deleted_suffix) - 1)) {
		out->path.n -= sizeof(deleted_suffix) - 1;
		out->deleted = true;
	}
	return 0;
}

static int file_cmp(const void *a, const void *b)
{
	const struct proc_maps_file *x = a, *y = b;

	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	return x->inode < y->inode ? -1 : x->inode > y->inode;
}

int proc_maps_lib(const char *buf, size_t len, struct proc_maps_file *files, size_t cap,
		  size_t *need, uint64_t *bytes)
{
	size_t n = 0, used;
	uint64_t sum = 0;

	*bytes = 0;
	*need = 0;
	if (!len)
		return -ENODATA;
	for (size_t at = 0; at < len; at += used) {
		struct proc_maps_entry e;
		uint64_t dev;
		int err = proc_parse_maps_line(buf + at, len - at, &e, &used);

		if (err)
			return err;
		/* anonymous memory, the heap, the stack, [vdso]: no file behind them; nor is
		 * there a path to one behind anon_inode:[...] (htop takes lines with a '/') */
		if (!e.inode || (!e.dev_major && !e.dev_minor) || !memchr(e.path.p, '/', e.path.n))
			continue;
		dev = (uint64_t)e.dev_major << 32 | e.dev_minor;
		/* a file's mappings are usually next to each other: merged as they come */
		if (n && n <= cap && files[n - 1].dev == dev && files[n - 1].inode == e.inode) {
			files[n - 1].bytes += e.end - e.start;
			files[n - 1].exec |= e.perms[2] == 'x';
			continue;
		}
		if (n < cap)
			files[n] = (struct proc_maps_file){.dev = dev,
							   .inode = e.inode,
							   .bytes = e.end - e.start,
							   .exec = e.perms[2] == 'x'};
		n++;
	}
	if (n > cap) {
		*need = n;
		return -ENOSPC;
	}
	/* the same file mapped apart: its mappings meet once sorted */
	qsort(files, n, sizeof(*files), file_cmp);
	for (size_t i = 0; i < n;) {
		uint64_t size = 0;
		bool exec = false;
		size_t j;

		for (j = i; j < n && !file_cmp(&files[i], &files[j]); j++) {
			size += files[j].bytes;
			exec |= files[j].exec;
		}
		if (exec)
			sum += size;
		i = j;
	}
	*bytes = sum;
	return 0;
}
