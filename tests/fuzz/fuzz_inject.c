// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz_inject.c: libFuzzer target for the perf.data pipe stream reader and
 * build-id injector (src/bench/perfdata.c). The first byte chooses the
 * reader (even: buffered) and whether every mapped DSO is injected (bit 1);
 * the rest is the stream, in a memfd, injected into /dev/null. A refusal
 * must come with a message; a stream taken must have been read whole.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ptop/bench.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bench_inject_stats st;
	char msg[256];
	int in, out, err;

	if (!size)
		return 0;
	in = memfd_create("fuzz_inject", MFD_CLOEXEC);
	out = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (in < 0 || out < 0 || write(in, data + 1, size - 1) != (ssize_t)(size - 1))
		abort();
	lseek(in, 0, SEEK_SET);
	err = bench_inject_stream(in, out, !(data[0] & 1), data[0] & 2, &st, msg, sizeof(msg));
	if (err && !msg[0])
		abort();
	if (!err && st.read_bytes != size - 1)
		abort();
	close(in);
	close(out);
	return 0;
}
