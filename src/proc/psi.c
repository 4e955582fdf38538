// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * psi.c: the machine's pressure stall information for the header meters:
 * /proc/pressure/cpu, memory and io under the proc root, held open and
 * re-read with pread each frame, parsed by proc_parse_pressure(). A kernel
 * without PSI has no such files (-ENOENT); one booted with psi=0 has them,
 * and refuses to open or read them (-EOPNOTSUPP).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ptop/frame.h"
#include "ptop/util.h"

struct psi {
	int fd[PSI_RESOURCES];
	int open_err[PSI_RESOURCES]; /* why fd is -1 */
	char buf[256];
};

static const char *const psi_files[PSI_RESOURCES] = {
    [PSI_CPU] = "cpu",
    [PSI_MEMORY] = "memory",
    [PSI_IO] = "io",
};

struct psi *psi_new(const char *root)
{
	struct psi *p = xcalloc(1, sizeof(*p));
	char path[4096];

	for (int i = 0; i < PSI_RESOURCES; i++) {
		snprintf(path, sizeof(path), "%s/pressure/%s", root ? root : "/proc", psi_files[i]);
		p->fd[i] = open(path, O_RDONLY | O_CLOEXEC);
		p->open_err[i] = p->fd[i] < 0 ? -errno : 0;
	}
	return p;
}

void psi_free(struct psi *p)
{
	if (!p)
		return;
	for (int i = 0; i < PSI_RESOURCES; i++)
		if (p->fd[i] >= 0)
			close(p->fd[i]);
	free(p);
}

void psi_sample(struct psi *p, struct frame_psi *out)
{
	out->asked = true;
	for (int i = 0; i < PSI_RESOURCES; i++) {
		ssize_t n;

		if (p->fd[i] < 0) {
			out->error[i] = p->open_err[i];
			continue;
		}
		n = pread(p->fd[i], p->buf, sizeof(p->buf), 0);
		if (n < 0)
			out->error[i] = -errno;
		else if ((size_t)n == sizeof(p->buf))
			out->error[i] = -EFBIG; /* not a pressure file as the kernel writes it */
		else
			out->error[i] = proc_parse_pressure(p->buf, (size_t)n, &out->res[i]);
	}
}
