// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_sysio.c: unit tests for the disk and network throughput of the
 * header meters (src/proc/sysio.c): totals from a captured /proc/net/dev
 * without loopback, rates as the growth over the time given, nothing shown
 * as a rate before a second read, and a missing net/dev reported.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "fixture.h"

#include "ptop/frame.h"

static void write_dev(const char *root, uint64_t rx, uint64_t tx)
{
	char path[512];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/net/dev", root);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fprintf(fp, "Inter-|   Receive                                                |  Transmit\n"
		    " face |bytes    packets errs drop fifo frame compressed multicast|bytes    "
		    "packets errs drop fifo colls carrier compressed\n");
	fprintf(fp, "    lo: 999999 1 0 0 0 0 0 0 999999 1 0 0 0 0 0 0\n");
	fprintf(fp, "  eth0: %llu 10 0 0 0 0 0 0 %llu 20 0 0 0 0 0 0\n", (unsigned long long)rx,
		(unsigned long long)tx);
	fprintf(fp, "  wlan0: 1000 1 0 0 0 0 0 0 24 1 0 0 0 0 0 0\n");
	assert_int_equal(fclose(fp), 0);
}

static void test_capture(void **state)
{
	struct sysio *s = sysio_new(FIXTURES "/net/proc");
	struct frame_sysio io;

	sysio_sample(s, 10.0, &io);
	assert_int_equal(io.net_error, 0);
	/* eth0 and two idle ifb devices; lo's bytes never left the machine */
	assert_true(io.net_rx_bytes == 73966599 && io.net_tx_bytes == 182600);
	assert_false(io.net_rates);
	/* the disks are the machine's own: read, or said why not */
	assert_true(io.disk_error == 0 || io.disk_error == -ENODEV);
	assert_false(io.disk_rates);
	sysio_free(s);
}

static void test_rates(void **state)
{
	char root[] = "/tmp/ptop-sysio.XXXXXX", path[512];
	struct frame_sysio io;
	struct sysio *s;

	assert_non_null(mkdtemp(root));
	snprintf(path, sizeof(path), "%s/net", root);
	assert_int_equal(mkdir(path, 0755), 0);
	write_dev(root, 5000, 100);
	s = sysio_new(root);
	sysio_sample(s, 100.0, &io);
	assert_true(io.net_rx_bytes == 6000 && io.net_tx_bytes == 124);
	/* rewritten in place: the held descriptor reads the new text */
	write_dev(root, 9000, 300);
	sysio_sample(s, 102.0, &io);
	assert_true(io.net_rates);
	assert_true(io.net_rx_bytes == 10000 && io.net_tx_bytes == 324);
	assert_true(io.net_rx_bps == 2000.0 && io.net_tx_bps == 100.0);
	/* a counter that went back (an interface gone): no negative rate */
	write_dev(root, 10, 10);
	sysio_sample(s, 103.0, &io);
	assert_true(io.net_rx_bps == 0.0 && io.net_tx_bps == 0.0);
	sysio_free(s);
	snprintf(path, sizeof(path), "%s/net/dev", root);
	unlink(path);
	snprintf(path, sizeof(path), "%s/net", root);
	rmdir(path);
	rmdir(root);
}

static void test_missing(void **state)
{
	struct sysio *s = sysio_new("/nonexistent-proc-root");
	struct frame_sysio io;

	sysio_sample(s, 1.0, &io);
	assert_int_equal(io.net_error, -ENODEV);
	sysio_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_capture),
	    cmocka_unit_test(test_rates),
	    cmocka_unit_test(test_missing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
