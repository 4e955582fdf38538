// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * parse_io.c: the /proc/PID/io parser: "name: value" lines of I/O
 * accounting (proc(5)), each ending in a newline. The seven the kernel has
 * printed since 2.6.20 are required once each; a name it adds later is skipped.
 */
#include <errno.h>
#include <string.h>

#include "ptop/proc.h"
#include "num.h"

static uint64_t *io_slot(struct proc_io *out, const char *name, size_t n, unsigned *bit)
{
	static const struct {
		const char *name;
		size_t off;
	} keys[] = {
	    {"rchar", offsetof(struct proc_io, rchar)},
	    {"wchar", offsetof(struct proc_io, wchar)},
	    {"syscr", offsetof(struct proc_io, syscr)},
	    {"syscw", offsetof(struct proc_io, syscw)},
	    {"read_bytes", offsetof(struct proc_io, read_bytes)},
	    {"write_bytes", offsetof(struct proc_io, write_bytes)},
	    {"cancelled_write_bytes", offsetof(struct proc_io, cancelled_write_bytes)},
	};

	for (unsigned i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		if (strlen(keys[i].name) == n && !memcmp(keys[i].name, name, n)) {
			*bit = 1u << i;
			return (uint64_t *)((char *)out + keys[i].off);
		}
	}
	return NULL;
}

#define IO_ALL 0x7fu

int proc_parse_io(const char *buf, size_t len, struct proc_io *out)
{
	const char *p = buf, *end = buf + len;
	unsigned seen = 0;

	memset(out, 0, sizeof(*out));
	while (p < end) {
		const char *name = p, *colon, *eol = memchr(p, '\n', (size_t)(end - p));
		unsigned bit = 0;
		uint64_t *v, dummy;
		int err;

		if (!eol)
			return -EINVAL; /* cut mid-line */
		colon = memchr(p, ':', (size_t)(eol - p));
		if (!colon || colon == name)
			return -EINVAL;
		for (const char *c = name; c < colon; c++)
			if (!((*c >= 'a' && *c <= 'z') || *c == '_'))
				return -EINVAL;
		v = io_slot(out, name, (size_t)(colon - name), &bit);
		if (bit & seen)
			return -EINVAL; /* a line twice: not the kernel's text */
		seen |= bit;
		p = colon + 1;
		if (num_expect(&p, eol, ' '))
			return -EINVAL;
		err = num_u64(&p, eol, v ? v : &dummy);
		if (err)
			return err;
		if (p != eol)
			return -EINVAL;
		p = eol + 1;
	}
	return seen == IO_ALL ? 0 : -EINVAL;
}
