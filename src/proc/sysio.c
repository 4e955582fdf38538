// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sysio.c: the machine's disk and network throughput for the header meters.
 * Disks come from libproc2's diskstats interface (/proc/diskstats, whole
 * disks only); the network from /proc/net/dev under the proc root, held open
 * and re-read with pread, parsed by proc_parse_netdev(). Rates are the
 * counters' growth over the time between two reads.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libproc2/diskstats.h>

#include "ptop/frame.h"
#include "ptop/util.h"

#define NETDEV_BUF 65536
#define NETDEV_MAX 256
#define SECTOR_BYTES 512 /* diskstats counts 512-byte sectors whatever the device's */

struct sysio {
	struct diskstats_info *ds; /* NULL: no /proc/diskstats */
	int net_fd;		   /* -1: no net/dev */
	double at;		   /* CLOCK_MONOTONIC of the previous read, 0 before the first */
	uint64_t disk_r, disk_w, net_rx, net_tx; /* totals at `at` */
	bool disk_prev, net_prev;		 /* those totals were read */
	char buf[NETDEV_BUF];
	struct proc_netdev_entry ifs[NETDEV_MAX];
};

static enum diskstats_item disk_items[] = {DISKSTATS_NAME, DISKSTATS_TYPE, DISKSTATS_READ_SECTORS,
					   DISKSTATS_WRITE_SECTORS};

struct sysio *sysio_new(const char *root)
{
	struct sysio *s = xcalloc(1, sizeof(*s));
	char path[4096];

	if (procps_diskstats_new(&s->ds) < 0)
		s->ds = NULL;
	snprintf(path, sizeof(path), "%s/net/dev", root ? root : "/proc");
	s->net_fd = open(path, O_RDONLY | O_CLOEXEC);
	return s;
}

void sysio_free(struct sysio *s)
{
	if (!s)
		return;
	if (s->ds)
		procps_diskstats_unref(&s->ds);
	if (s->net_fd >= 0)
		close(s->net_fd);
	free(s);
}

/*
 * Devices layered on others count the same bytes again (device mapper, md
 * RAID, loop files on a disk), and RAM disks move no disk: left out, as
 * htop's disk meter leaves them.
 */
static bool disk_counted(const char *name)
{
	static const char *const skip[] = {"loop", "ram", "zram", "dm-", "md", "nbd"};

	for (size_t i = 0; i < sizeof(skip) / sizeof(skip[0]); i++)
		if (!strncmp(name, skip[i], strlen(skip[i])))
			return false;
	return true;
}

static int read_disks(struct sysio *s, uint64_t *r, uint64_t *w)
{
	struct diskstats_reaped *rp;

	if (!s->ds)
		return -ENODEV;
	rp = procps_diskstats_reap(s->ds, disk_items, sizeof(disk_items) / sizeof(disk_items[0]));
	if (!rp)
		return -EIO;
	*r = *w = 0;
	for (int i = 0; i < rp->total; i++) {
		struct diskstats_result *h = rp->stacks[i]->head;

		if (h[1].result.s_int != DISKSTATS_TYPE_DISK || !h[0].result.str ||
		    !disk_counted(h[0].result.str))
			continue;
		*r += (uint64_t)h[2].result.ul_int * SECTOR_BYTES;
		*w += (uint64_t)h[3].result.ul_int * SECTOR_BYTES;
	}
	return 0;
}

static int read_net(struct sysio *s, uint64_t *rx, uint64_t *tx)
{
	ssize_t n;
	size_t nifs;
	int err;

	if (s->net_fd < 0)
		return -ENODEV;
	n = pread(s->net_fd, s->buf, sizeof(s->buf), 0);
	if (n < 0)
		return -errno;
	if ((size_t)n == sizeof(s->buf))
		return -EFBIG;
	err = proc_parse_netdev(s->buf, (size_t)n, s->ifs, NETDEV_MAX, &nifs);
	if (err && err != -ENOSPC)
		return err;
	*rx = *tx = 0;
	for (size_t i = 0; i < nifs; i++) {
		/* loopback traffic never leaves the machine */
		if (!strcmp(s->ifs[i].name, "lo"))
			continue;
		*rx += s->ifs[i].rx_bytes;
		*tx += s->ifs[i].tx_bytes;
	}
	return 0;
}

static double rate(uint64_t now, uint64_t prev, double secs)
{
	return secs > 0 && now >= prev ? (double)(now - prev) / secs : 0;
}

void sysio_sample(struct sysio *s, double now, struct frame_sysio *out)
{
	double secs = s->at > 0 ? now - s->at : 0;
	uint64_t a = 0, b = 0;

	memset(out, 0, sizeof(*out));
	out->disk_error = read_disks(s, &a, &b);
	if (!out->disk_error) {
		out->disk_read_bytes = a;
		out->disk_write_bytes = b;
		out->disk_rates = s->disk_prev && secs > 0;
		out->disk_read_bps = rate(a, s->disk_r, secs);
		out->disk_write_bps = rate(b, s->disk_w, secs);
		s->disk_r = a;
		s->disk_w = b;
	}
	s->disk_prev = !out->disk_error;
	out->net_error = read_net(s, &a, &b);
	if (!out->net_error) {
		out->net_rx_bytes = a;
		out->net_tx_bytes = b;
		out->net_rates = s->net_prev && secs > 0;
		out->net_rx_bps = rate(a, s->net_rx, secs);
		out->net_tx_bps = rate(b, s->net_tx, secs);
		s->net_rx = a;
		s->net_tx = b;
	}
	s->net_prev = !out->net_error;
	s->at = now;
}
