// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * parse_netdev.c: the /proc/net/dev parser: two heading lines, then one line
 * per interface, "name: " and sixteen counters (eight received, eight
 * sent), the name right-aligned in spaces (net/core/net-procfs.c).
 */
#include <errno.h>
#include <string.h>

#include "ptop/proc.h"
#include "num.h"

#define NETDEV_FIELDS 16

static int parse_line(const char *p, const char *eol, struct proc_netdev_entry *e)
{
	const char *colon;
	uint64_t v[NETDEV_FIELDS];
	int err;

	while (p < eol && *p == ' ')
		p++;
	/* a name holds no ':', '/', space or control byte (dev_valid_name): the first ':' ends it */
	colon = memchr(p, ':', (size_t)(eol - p));
	if (!colon || colon == p || colon - p > PROC_NETDEV_NAME)
		return -EINVAL;
	for (const char *c = p; c < colon; c++)
		if ((unsigned char)*c <= ' ' || *c == 0x7f || *c == '/')
			return -EINVAL;
	memcpy(e->name, p, (size_t)(colon - p));
	e->name[colon - p] = '\0';
	p = colon + 1;
	for (int i = 0; i < NETDEV_FIELDS; i++) {
		/* an old kernel's "%6s:%8llu" leaves no space before a long first count */
		if (i && (p >= eol || *p != ' '))
			return -EINVAL;
		while (p < eol && *p == ' ')
			p++;
		err = num_u64(&p, eol, &v[i]);
		if (err)
			return err;
	}
	if (p != eol)
		return -EINVAL;
	e->rx_bytes = v[0];
	e->rx_packets = v[1];
	e->tx_bytes = v[8];
	e->tx_packets = v[9];
	return 0;
}

int proc_parse_netdev(const char *buf, size_t len, struct proc_netdev_entry *out, size_t cap,
		      size_t *n)
{
	const char *p = buf, *end = buf + len;

	*n = 0;
	for (int line = 0; p < end; line++) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		struct proc_netdev_entry e;
		int err;

		if (!eol)
			return -EINVAL;
		if (line < 2) {
			/* the headings: "Inter-|   Receive ..." and " face |bytes ..." */
			if (!memchr(p, '|', (size_t)(eol - p)))
				return -EINVAL;
			p = eol + 1;
			continue;
		}
		err = parse_line(p, eol, &e);
		if (err)
			return err;
		if (*n == cap)
			return -ENOSPC;
		out[(*n)++] = e;
		p = eol + 1;
	}
	return p == buf ? -EINVAL : 0;
}
