// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * parse_maps.c: one line of /proc/PID/maps at a time:
 * "start-end perms offset major:minor inode [path]". The kernel escapes '\n'
 * in paths as "\012", so a line ends at the first newline; a path of a file
 * that was unlinked ends in " (deleted)", which is cut off and flagged.
 */
#include <errno.h>
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
