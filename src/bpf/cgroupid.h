/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cgroupid.h: cgroup v2 paths from the cgroup ids the task iterator gives
 * (see cgroupid.c). Not thread-safe: one per sampler.
 */
#ifndef PTOP_BPF_CGROUPID_H
#define PTOP_BPF_CGROUPID_H

#include <stddef.h>
#include <stdint.h>

struct cgroup_ids;

/* Paths of the cgroups under root, the cgroup2 mount point (walked when first asked). */
struct cgroup_ids *cgroup_ids_new(const char *root);
void cgroup_ids_free(struct cgroup_ids *c);

/* A new frame: an unknown id may walk the tree again (once per frame). */
void cgroup_ids_frame(struct cgroup_ids *c);

/* id's path ("/" for the root, as /proc/PID/cgroup's "0::" line), or NULL when not found. */
const char *cgroup_ids_path(struct cgroup_ids *c, uint64_t id);

/*
 * Where the cgroup2 file system is mounted (into buf), when it is the only
 * hierarchy (/proc/self/cgroup has the single line "0::..."): 0, else
 * -ENOENT (a hybrid or v1 system, whose /proc paths come from other lines)
 * or another -errno. proc is the proc root ("/proc").
 */
int cgroup_ids_v2_root(const char *proc, char *buf, size_t len);

#endif
