// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz_taskstats.c: libFuzzer target for the taskstats reply parsers,
 * proc_taskstats_parse_family() and proc_taskstats_parse_reply(), over the
 * same bytes (the reply's family taken from its own header, so the mutator
 * reaches the stats). Each input is copied into a heap block of exactly its
 * size, so ASan reports any read past len; an accepted reply must have been
 * long enough to hold its headers and a stats struct up to swapin_delay_total.
 */
#include <linux/netlink.h>
#include <linux/taskstats.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ptop/proc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct proc_taskstats ts;
	struct nlmsghdr h;
	uint16_t id;
	char *buf = malloc(size ? size : 1);

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	(void)proc_taskstats_parse_family(buf, size, &id);
	if (size >= sizeof(h)) {
		memcpy(&h, buf, sizeof(h));
		if (proc_taskstats_parse_reply(buf, size, h.nlmsg_type, &ts) == 0 &&
		    (h.nlmsg_len > size ||
		     h.nlmsg_len < NLMSG_HDRLEN + 4 + 3 * 4 + 4 +
				       offsetof(struct taskstats, swapin_delay_total) + 8))
			abort();
	}
	free(buf);
	return 0;
}
