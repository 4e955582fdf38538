// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * parse_cgroup.c: the /proc/PID/cgroup parser, and the container or systemd
 * unit a cgroup path names. Each line is "hierarchy-ID:controllers:path"
 * (cgroups(7)); the unified (v2) hierarchy's is "0::path", and a v1-only
 * system's systemd line "N:name=systemd:path" stands in for it. The path is
 * printed unescaped and may hold ':', so it is the rest of the line. Also
 * htop's condensed form of a path (CCGROUP).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "ptop/proc.h"
#include "ptop/util.h"
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

/* Whether [q, q + n) is s, has it as prefix or as suffix, with something left for the last two. */
static bool label_is(const char *q, size_t n, const char *s)
{
	return n == strlen(s) && !memcmp(q, s, n);
}

static bool label_starts(const char *q, size_t n, const char *s)
{
	return n > strlen(s) && !memcmp(q, s, strlen(s));
}

static bool label_ends(const char *q, size_t n, const char *s)
{
	return n > strlen(s) && !memcmp(q + n - strlen(s), s, strlen(s));
}

static void put_tagged(struct sbuf *out, const char *tag, const char *q, size_t n)
{
	sbuf_adds(out, tag);
	sbuf_add(out, q, n);
	sbuf_addc(out, ']');
}

/* Past the component at q (up to '/' or end). */
static const char *component_end(const char *q, const char *end)
{
	const char *t = memchr(q, '/', (size_t)(end - q));

	return t ? t : end;
}

void proc_cgroup_compress(const char *path, size_t n, struct sbuf *out)
{
	const char *q = path, *end = path + n;

	while (q < end) {
		const char *e;
		size_t len;

		if (*q == '/') {
			while (q < end && *q == '/')
				q++;
			sbuf_addc(out, '/');
			continue;
		}
		e = component_end(q, end);
		len = (size_t)(e - q);
		if (label_is(q, len, "system.slice")) {
			sbuf_adds(out, "[S]");
			q = e;
			/* its template slices say no more than the unit under them */
			if ((size_t)(end - q) > 8 && !memcmp(q, "/system-", 8))
				q = component_end(q + 1, end);
		} else if (label_is(q, len, "machine.slice")) {
			sbuf_adds(out, "[M]");
			q = e;
		} else if (label_is(q, len, "user.slice")) {
			const char *u, *ue;

			q = e;
			if ((size_t)(end - q) > 6 && !memcmp(q, "/user-", 6)) {
				u = q + 6;
				ue = component_end(u, end);
				if (label_ends(u, (size_t)(ue - u), ".slice")) {
					put_tagged(out, "[U:", u, (size_t)(ue - u) - 6);
					q = ue;
					continue;
				}
			}
			sbuf_adds(out, "[U]");
		} else if (label_ends(q, len, ".slice")) {
			put_tagged(out, "[", q, len - 6);
			q = e;
		} else if (label_starts(q, len, "lxc.payload.")) {
			put_tagged(out, "[lxc:", q + 12, len - 12);
			q = e;
		} else if (label_starts(q, len, "lxc.monitor.")) {
			put_tagged(out, "[LXC:", q + 12, len - 12);
			q = e;
		} else if (label_ends(q, len, ".service")) {
			if (len >= 5 && !memcmp(q, "user@", 5)) {
				/* a user's manager: the units under it tell */
				for (q = e; q < end && *q == '/'; q++)
					;
				continue;
			}
			sbuf_add(out, q, len - 8);
			q = e;
		} else if (label_ends(q, len, ".scope")) {
			size_t sn = len - 6;

			if (label_starts(q, sn, "machine-")) {
				bool monitor =
				    (size_t)(end - e) >= 11 && !memcmp(e, "/supervisor", 11);

				put_tagged(out, monitor ? "[SNC:" : "[snc:", q + 8, sn - 8);
				q = e;
				if (monitor)
					q += 11;
				else if ((size_t)(end - e) >= 8 && !memcmp(e, "/payload", 8))
					q += 8;
			} else {
				sbuf_addc(out, '!');
				sbuf_add(out, q, sn);
				q = e;
			}
		} else {
			sbuf_add(out, q, len);
			q = e;
		}
	}
}
