// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_parse_cgroup.c: unit tests for proc_parse_cgroup(), proc_cgroup_path()
 * and proc_cgroup_unit() (src/proc/parse_cgroup.c), and the table of names
 * (src/proc/cgroups.c). The lines are as a hybrid v1/v2 machine (a real
 * capture), systemd services, user sessions, docker, podman, containerd,
 * CRI-O, Kubernetes and LXC print them, then hostile and malformed text.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "fixture.h"

#include "ptop/frame.h"
#include "ptop/proc.h"

/* The path and unit of a fixture, or fail. */
static void check(const char *rel, const char *path, const char *unit)
{
	struct proc_cgroup cg;
	const struct ptop_view *v;
	char got[128];
	size_t len, n;
	char *b = fixture_load(rel, &len);

	assert_int_equal(proc_parse_cgroup(b, len, &cg), 0);
	v = proc_cgroup_path(&cg);
	assert_non_null(v);
	if (v->n != strlen(path) || memcmp(v->p, path, v->n))
		fail_msg("%s: path \"%.*s\", want \"%s\"", rel, (int)v->n, v->p, path);
	n = proc_cgroup_unit(v->p, v->n, got, sizeof(got));
	assert_int_equal(n, strlen(got));
	if (strcmp(got, unit))
		fail_msg("%s: unit \"%s\", want \"%s\"", rel, got, unit);
	free(b);
}

static void test_real_hybrid(void **state)
{
	/* v1 controllers beside a unified hierarchy at "/": the systemd line's path */
	check("shell/proc/9791/cgroup", "/", "");
	check("kthread/proc/2/cgroup", "/", "");
}

static void test_units(void **state)
{
	static const struct {
		int pid;
		const char *path, *unit;
	} cases[] = {
	    {300, "/system.slice/ssh.service", "ssh.service"},
	    {301,
	     "/system.slice/docker-4f1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8"
	     ".scope",
	     "docker:4f1a2b3c4d5e"},
	    {302, "/docker/4f1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8",
	     "docker:4f1a2b3c4d5e"},
	    {303,
	     "/user.slice/user-1000.slice/user@1000.service/user.slice/"
	     "libpod-0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9.scope/"
	     "container",
	     "podman:0a1b2c3d4e5f"},
	    {304,
	     "/machine.slice/"
	     "libpod-0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9.scope/"
	     "container",
	     "podman:0a1b2c3d4e5f"},
	    {305,
	     "/kubepods.slice/kubepods-burstable.slice/"
	     "kubepods-burstable-pod8d9f6a2e_1c2b_4d3e_9f8a_7b6c5d4e3f21.slice/"
	     "cri-containerd-9e8d7c6b5a4f30211203f4e5d6c7b8a99e8d7c6b5a4f30211203f4e5d6c7b8a9."
	     "scope",
	     "containerd:9e8d7c6b5a4f"},
	    {306,
	     "/kubepods/besteffort/pod8d9f6a2e-1c2b-4d3e-9f8a-7b6c5d4e3f21/"
	     "9e8d7c6b5a4f30211203f4e5d6c7b8a99e8d7c6b5a4f30211203f4e5d6c7b8a9",
	     "container:9e8d7c6b5a4f"},
	    {307,
	     "/kubepods.slice/kubepods-besteffort.slice/"
	     "kubepods-besteffort-pod8d9f6a2e_1c2b_4d3e_9f8a_7b6c5d4e3f21.slice",
	     "kubepods-besteffort-pod8d9f6a2e_1c2b_4d3e_9f8a_7b6c5d4e3f21.slice"},
	    {308, "/user.slice/user-1000.slice/session-3.scope", "session-3.scope"},
	    {309,
	     "/user.slice/user-1000.slice/user@1000.service/app.slice/app-org.gnome.Terminal.slice/"
	     "vte-spawn-5c1c0a4e-9d8e-4f3a-b2c1-0d9e8f7a6b5c.scope",
	     "vte-spawn-5c1c0a4e-9d8e-4f3a-b2c1-0d9e8f7a6b5c.scope"},
	    {310, "/user.slice/user-1000.slice/user@1000.service/init.scope", "init.scope"},
	    {311, "/", ""},
	    {312, "/system.slice/cron.service", "cron.service"},   /* hybrid, both lines */
	    {313, "/system.slice/nginx.service", "nginx.service"}, /* v1 only */
	    {314,
	     "/system.slice/crio-1234567890abcdef1234567890abcdef1234567890abcdef1234567890abcdef"
	     ".scope",
	     "cri-o:1234567890ab"},
	    {315, "/lxc.payload.web01/system.slice/apache2.service", "lxc.payload.web01"},
	    /* systemd inside a container: the container, not its services */
	    {316,
	     "/system.slice/docker-4f1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8"
	     ".scope/system.slice/nginx.service",
	     "docker:4f1a2b3c4d5e"},
	    {317, "/init.scope", "init.scope"},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char rel[64];

		snprintf(rel, sizeof(rel), "containers/proc/%d/cgroup", cases[i].pid);
		check(rel, cases[i].path, cases[i].unit);
	}
}

static void test_hostile(void **state)
{
	char out[8];

	check("hostile/proc/100/cgroup", "/a:b/c d\\\\e/x.scope", "x.scope");
	check("hostile/proc/105/cgroup", "/0::/y.service", "y.service");
	/* cut to fit, still terminated */
	assert_int_equal(proc_cgroup_unit("/ssh.service", 12, out, sizeof(out)), 7);
	assert_string_equal(out, "ssh.ser");
	/* not 64 hex digits: no container */
	assert_int_equal(proc_cgroup_unit("/docker/abc", 11, out, sizeof(out)), 0);
	assert_string_equal(out, "");
}

static void test_malformed(void **state)
{
	static const struct {
		const char *rel;
		int err;
	} cases[] = {
	    {"malformed/proc/200/cgroup", -EINVAL}, /* empty */
	    {"malformed/proc/201/cgroup", -EINVAL}, /* cut: no newline */
	    {"malformed/proc/202/cgroup", -EINVAL}, /* no path */
	    {"malformed/proc/203/cgroup", -ERANGE}, /* 2^64 */
	    {"malformed/proc/204/cgroup", -EINVAL}, /* two unified lines */
	    {"malformed/proc/205/cgroup", -EINVAL}, /* relative path */
	};
	static const char *const strs[] = {"\n",       "0:/\n", "x::/\n",  "-1::/\n",
					   "0::/\n\n", "0::\n", "0::/a\n0"};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct proc_cgroup cg;
		size_t len;
		char *b = fixture_load(cases[i].rel, &len);
		int err = proc_parse_cgroup(b, len, &cg);

		if (err != cases[i].err)
			fail_msg("%s: %d, want %d", cases[i].rel, err, cases[i].err);
		free(b);
	}
	for (size_t i = 0; i < sizeof(strs) / sizeof(strs[0]); i++) {
		struct proc_cgroup cg;
		size_t len = strlen(strs[i]);
		char *b = malloc(len);

		memcpy(b, strs[i], len);
		if (proc_parse_cgroup(b, len, &cg) != -EINVAL)
			fail_msg("\"%s\" accepted", strs[i]);
		free(b);
	}
}

static void test_names(void **state)
{
	struct cgroup_names *c = cgroup_names_new();
	const char *u1, *u2, *p1, *p2;

	p1 = cgroup_names_get(c, "/system.slice/ssh.service/x", 25, &u1);
	p2 = cgroup_names_get(c, "/system.slice/ssh.service", 25, &u2);
	/* one copy per distinct path: the same pointer again */
	assert_ptr_equal(p1, p2);
	assert_ptr_equal(u1, u2);
	assert_string_equal(p1, "/system.slice/ssh.service");
	assert_string_equal(u1, "ssh.service");
	p2 = cgroup_names_get(c, "/", 1, &u2);
	assert_string_equal(p2, "/");
	assert_string_equal(u2, "");
	assert_int_equal(cgroup_names_count(c), 2);
	cgroup_names_clear(c);
	assert_int_equal(cgroup_names_count(c), 0);
	cgroup_names_free(c);
}

/* path condensed as htop's CCGROUP condenses it */
static void compressed_is(const char *path, const char *want)
{
	struct sbuf b = {0};
	char *copy = malloc(strlen(path) + 1);

	/* exactly its length: a read past it is ASan's to see */
	assert_non_null(copy);
	memcpy(copy, path, strlen(path));
	proc_cgroup_compress(copy, strlen(path), &b);
	sbuf_addc(&b, '\0');
	if (strcmp(b.p, want))
		fail_msg("%s: \"%s\", not \"%s\"", path, b.p, want);
	sbuf_free(&b);
	free(copy);
}

static void test_compress(void **state)
{
	struct cgroup_names *c = cgroup_names_new();
	const char *u, *p;

	(void)state;
	compressed_is("/", "/");
	compressed_is("/system.slice/ssh.service", "/[S]/ssh");
	compressed_is("/system.slice/system-getty.slice/getty@tty1.service", "/[S]/getty@tty1");
	compressed_is("/user.slice/user-1000.slice/session-2.scope", "/[U:1000]/!session-2");
	compressed_is("/user.slice/user-1000.slice/user@1000.service/app.slice/foo.service",
		      "/[U:1000]/[app]/foo");
	compressed_is("/user.slice", "/[U]");
	compressed_is("/machine.slice/machine-web.scope/payload/x", "/[M]/[snc:web]/x");
	compressed_is("/machine.slice/machine-web.scope/supervisor", "/[M]/[SNC:web]");
	compressed_is("/lxc.payload.box1/init.scope", "/[lxc:box1]/!init");
	compressed_is("/lxc.monitor.box1", "/[LXC:box1]");
	compressed_is("/kubepods.slice//pod1/x.y", "/[kubepods]/pod1/x.y");
	/* a name that is all suffix stays as it is */
	compressed_is("/.slice/.service/.scope", "/.slice/.service/.scope");
	p = cgroup_names_get(c, "/system.slice/cron.service", 26, &u);
	assert_string_equal(cgroup_names_compressed(c, p), "/[S]/cron");
	/* once per path */
	assert_ptr_equal(cgroup_names_compressed(c, p), cgroup_names_compressed(c, p));
	assert_null(cgroup_names_compressed(c, NULL));
	cgroup_names_free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_real_hybrid), cmocka_unit_test(test_units),
	    cmocka_unit_test(test_hostile),	cmocka_unit_test(test_malformed),
	    cmocka_unit_test(test_names),	cmocka_unit_test(test_compress),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
