// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * parse_cgroup.c: the /proc/PID/cgroup parser, and the container or systemd
 * unit a cgroup path names. Each line is "hierarchy-ID:controllers:path"
 * (cgroups(7)); the unified (v2) hierarchy's is "0::path", and a v1-only
 * system's systemd line "N:name=systemd:path" stands in for it. The path is
 * printed unescaped and may hold ':', so it is the rest of the line.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "ptop/proc.h"
#include "num.h"

int proc_parse_cgroup(const char *buf, size_t len, struct proc_cgroup *out)
{
	const char *p = buf, *end = buf + len;

	memset(out, 0, sizeof(*out));
	if (!len)
		return -EINVAL;
	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p)), *c1, *c2;
		uint64_t id;
		int err;

		if (!eol)
			return -EINVAL;
		err = num_u64(&p, eol, &id);
		if (err)
			return err;
		c1 = p;
		if (num_expect(&p, eol, ':'))
			return -EINVAL;
		c2 = memchr(p, ':', (size_t)(eol - p));
		if (!c2 || c2 + 1 >= eol || c2[1] != '/')
			return -EINVAL; /* every path is absolute */
		if (id == 0 && c2 == c1 + 1) {
			if (out->have & PROC_CGROUP_V2)
				return -EINVAL;
			out->v2 = (struct ptop_view){c2 + 1, (size_t)(eol - c2 - 1)};
			out->have |= PROC_CGROUP_V2;
		} else if (c2 - p == 12 && !memcmp(p, "name=systemd", 12)) {
			out->systemd = (struct ptop_view){c2 + 1, (size_t)(eol - c2 - 1)};
			out->have |= PROC_CGROUP_SYSTEMD;
		}
		p = eol + 1;
	}
	return 0;
}

const struct ptop_view *proc_cgroup_path(const struct proc_cgroup *cg)
{
	if (cg->have & PROC_CGROUP_V2 && !(cg->v2.n == 1 && cg->have & PROC_CGROUP_SYSTEMD))
		return &cg->v2;
	/* hybrid: the unified hierarchy at "/" says nothing the systemd line does not */
	if (cg->have & PROC_CGROUP_SYSTEMD)
		return &cg->systemd;
	return cg->have & PROC_CGROUP_V2 ? &cg->v2 : NULL;
}

static bool has_prefix(const char *s, size_t n, const char *pre)
{
	size_t l = strlen(pre);

	return n >= l && !memcmp(s, pre, l);
}

static bool has_suffix(const char *s, size_t n, const char *suf)
{
	size_t l = strlen(suf);

	return n >= l && !memcmp(s + n - l, suf, l);
}

/* A container id: 64 hex digits (docker, podman, containerd, CRI-O all use them). */
static bool is_id(const char *s, size_t n)
{
	if (n != 64)
		return false;
	for (size_t i = 0; i < n; i++)
		if (num_hex_digit(s[i]) < 0)
			return false;
	return true;
}

/* "runtime:" and the id's first 12 digits, as docker ps shows it. */
static size_t put_id(char *out, size_t cap, const char *runtime, const char *id)
{
	int n = snprintf(out, cap, "%s:%.12s", runtime, id);

	return n < 0 ? 0 : (size_t)n < cap ? (size_t)n : cap - 1;
}

static size_t put(char *out, size_t cap, const char *s, size_t n)
{
	if (n >= cap)
		n = cap - 1;
	memcpy(out, s, n);
	out[n] = '\0';
	return n;
}

/* Scope names of container runtimes under systemd: "<prefix><64 hex>.scope". */
static const struct {
	const char *prefix, *runtime;
} scopes[] = {
    {"docker-", "docker"},     {"libpod-conmon-", "podman"},
    {"libpod-", "podman"},     {"cri-containerd-", "containerd"},
    {"crio-conmon-", "cri-o"}, {"crio-", "cri-o"},
};

/* The component c (n bytes) names a container: write it, return its length; else 0. */
static size_t container_of(const char *c, size_t n, const char *parent, size_t pn, char *out,
			   size_t cap)
{
	if (has_suffix(c, n, ".scope")) {
		for (size_t i = 0; i < sizeof(scopes) / sizeof(scopes[0]); i++) {
			size_t l = strlen(scopes[i].prefix);

			if (has_prefix(c, n, scopes[i].prefix) && is_id(c + l, n - l - 6))
				return put_id(out, cap, scopes[i].runtime, c + l);
		}
	}
	/* cgroupfs drivers: /docker/<id>, /libpod_parent/libpod-<id>, /kubepods/.../<id> */
	if (is_id(c, n)) {
		if (pn == 6 && !memcmp(parent, "docker", 6))
			return put_id(out, cap, "docker", c);
		return put_id(out, cap, "container", c);
	}
	if (has_prefix(c, n, "libpod-") && is_id(c + 7, n - 7))
		return put_id(out, cap, "podman", c + 7);
	if (has_prefix(c, n, "lxc.payload.") && n > 12)
		return put(out, cap, c, n);
	return 0;
}

size_t proc_cgroup_unit(const char *path, size_t n, char *out, size_t cap)
{
	const char *end = path + n, *parent = "", *unit = NULL, *pod = NULL;
	size_t pn = 0, unit_n = 0, pod_n = 0, got = 0;
	bool kube = false;

	if (!cap)
		return 0;
	out[0] = '\0';
	/*
	 * Outermost to innermost: the innermost container wins (a container
	 * in a container, or systemd's units inside one, are its own
	 * business); without one, the innermost unit, else a Kubernetes pod.
	 */
	for (const char *c = path; c < end;) {
		const char *slash = memchr(c, '/', (size_t)(end - c));
		size_t cn = (size_t)((slash ? slash : end) - c), g;

		if (cn) {
			char tmp[128];

			g = container_of(c, cn, parent, pn, tmp, sizeof(tmp));
			if (g) {
				got = put(out, cap, tmp, g);
			} else if (has_suffix(c, cn, ".service") || has_suffix(c, cn, ".scope")) {
				unit = c;
				unit_n = cn;
			} else if (has_prefix(c, cn, "kubepods")) {
				kube = true;
				if (memmem(c, cn, "-pod", 4)) {
					pod = c;
					pod_n = cn;
				}
			} else if (kube && has_prefix(c, cn, "pod")) {
				pod = c;
				pod_n = cn;
			}
			parent = c;
			pn = cn;
		}
		c = slash ? slash + 1 : end;
	}
	if (got)
		return got;
	if (unit)
		return put(out, cap, unit, unit_n);
	if (pod)
		return put(out, cap, pod, pod_n);
	return 0;
}
