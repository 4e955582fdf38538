// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_row.c: the test over row.def, the list of a process row's members.
 *
 * Fills: a fixture /proc (a proc root written here: one process, 100, with a
 * known value in each file) is read by the /proc source with every file
 * asked for, and each member is held against what the fixture says. The
 * expectation of a member is EXPECT_<member> below, and row.def's every
 * member must have one: a member added to the list without it does not
 * compile. An expectation says whether the /proc source fills the member
 * (and then what it must hold), so a member whose sources claim ROW_SRC_PROC
 * with a fill forgotten in src/proc/sample.c fails here, as does a claim
 * row.def and this file disagree on.
 *
 * Recordings: every member a recording keeps (ROW, ROW_SIDE) is given a value
 * of its own, encoded with the codec at the current format version, decoded,
 * and compared; a member the codec drops or reads into another fails.
 *
 * Sides: a frame's rows have sides (the ROW_SIDE members) only when its needs
 * ask, and every column over a side member asks.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "ptop/frame.h"
#include "ptop/output.h"
#include "ptop/record.h"

/* ---- fills ---- */

/* What a member's expectation says: whether /proc fills it, and whether it holds. */
struct want {
	bool proc; /* the /proc source fills it */
	bool ok;   /* it holds what the fixture says (or is checked where why says) */
	const char *why;
};

/* filled by /proc, and c holds of its value */
#define IS(c) ((struct want){.proc = true, .ok = (c)})
/* filled by /proc, and checked by the named test instead (needs more than one frame) */
#define ELSEWHERE(test) ((struct want){.proc = true, .ok = true, .why = (test)})
/* not the /proc source's */
#define NOT_PROC ((struct want){.proc = false, .ok = true})

#define FIXTURE_COMM "rowtest"
/* the links' targets, as a kernel gives them for a replaced binary and a path with a space */
#define FIXTURE_EXE "/usr/bin/rowtest (deleted)"
#define FIXTURE_CWD "/srv/row test"
#define FIXTURE_ENV "HOME=/root\0LANG=C.UTF-8"

/* cgroup: a v1 line in an LXC container's cgroup, systemd's named one, the unified one */
#define FIXTURE_CGROUP_FILE                                                                        \
	"12:cpuset:/lxc.payload.box1/inner\n1:name=systemd:/system.slice/rowtest.service\n"        \
	"0::/system.slice/rowtest.service\n"
#define FIXTURE_CGNAME "systemd:/system.slice/rowtest.service,0::/system.slice/rowtest.service"
#define FIXTURE_CGROUPS "12:cpuset:/lxc.payload.box1/inner,1:name=" FIXTURE_CGNAME

/* Process 100 as the fixture writes it (below), member by member. */
#define EXPECT_pid(v) IS(v == 100)
#define EXPECT_ppid(v) IS(v == 42)
#define EXPECT_state(v) IS(v == 'S')
#define EXPECT_comm_len(v) IS(v == strlen(FIXTURE_COMM))
#define EXPECT_comm(v) IS(!memcmp(v, FIXTURE_COMM, strlen(FIXTURE_COMM)))
#define EXPECT_uid(v) IS(v == 4242)
#define EXPECT_user(v) IS(v && !strcmp(v, "4242"))
#define EXPECT_priority(v) IS(v == 25)
#define EXPECT_nice(v) IS(v == 5)
#define EXPECT_threads(v) IS(v == 3)
#define EXPECT_vsize_kb(v) IS(v == 27713536 / 1024)
#define EXPECT_rss_kb(v) IS(v == 500000 * page_kb)
#define EXPECT_shared_kb(v) IS(v == 2000 * page_kb)
#define EXPECT_cpu_pct(v) IS(v > 0)
#define EXPECT_mem_pct(v) IS(v > 0)
#define EXPECT_utime(v) IS(v == 701)
#define EXPECT_stime(v) IS(v == 302)
#define EXPECT_start_ticks(v) IS(v == 5000)
#define EXPECT_processor(v) IS(v == 1)
#define EXPECT_swap_kb(v) IS(v == 11)
#define EXPECT_rss_anon_kb(v) IS(v == 12)
#define EXPECT_rss_file_kb(v) IS(v == 13)
#define EXPECT_vctxsw(v) IS(v == 14)
#define EXPECT_nvctxsw(v) IS(v == 15)
#define EXPECT_perf_fds(v) NOT_PROC
#define EXPECT_tgid(v) IS(v == 100)
#define EXPECT_has_ctr(v) NOT_PROC
#define EXPECT_ctr_partial(v) NOT_PROC
#define EXPECT_ctr_not_counted(v) NOT_PROC
#define EXPECT_has_cmd(v) NOT_PROC
#define EXPECT_has_io(v) IS(v)
#define EXPECT_exited(v) NOT_PROC
#define EXPECT_cutime(v) IS(v == 33)
#define EXPECT_cstime(v) IS(v == 44)
#define EXPECT_ruid(v) IS(v == 4241)
#define EXPECT_suid(v) IS(v == 4243)
#define EXPECT_fsuid(v) IS(v == 4244)
#define EXPECT_io_rchar(v) IS(v == 1001)
#define EXPECT_io_wchar(v) IS(v == 1002)
#define EXPECT_io_read_bytes(v) IS(v == 409600)
#define EXPECT_io_write_bytes(v) IS(v == 819200)
/* the first look: over the process's life */
#define EXPECT_io_read_rate(v) IS(v > 0)
#define EXPECT_io_write_rate(v) IS(v > 0)
#define EXPECT_cgroup(v) IS(v && !strcmp(v, "/system.slice/rowtest.service"))
#define EXPECT_container(v) IS(v && !strcmp(v, "rowtest.service"))
#define EXPECT_cmd_off(v) NOT_PROC
#define EXPECT_cmd_len(v) NOT_PROC
#define EXPECT_ctr_na(v) NOT_PROC
#define EXPECT_ctr_scale(v) NOT_PROC
#define EXPECT_ctr(v) NOT_PROC
#define EXPECT_child_ticks(v) NOT_PROC
#define EXPECT_child_pct(v) NOT_PROC
#define EXPECT_exit_status(v) NOT_PROC
#define EXPECT_end_ticks(v) NOT_PROC
#define EXPECT_maxrss_kb(v) NOT_PROC
#define EXPECT_run_ns(v) NOT_PROC
#define EXPECT_has_flt(v) IS(v)
#define EXPECT_minflt(v) IS(v == 61)
#define EXPECT_cminflt(v) IS(v == 62)
#define EXPECT_majflt(v) IS(v == 63)
#define EXPECT_cmajflt(v) IS(v == 64)
#define EXPECT_has_job(v) IS(v)
#define EXPECT_pgrp(v) IS(v == 101)
#define EXPECT_session(v) IS(v == 102)
#define EXPECT_tty_nr(v) IS(v == 34818)
#define EXPECT_tpgid(v) IS(v == 103)
#define EXPECT_policy(v) IS(v == 2)
#define EXPECT_rt_priority(v) IS(v == 5)
#define EXPECT_has_seg(v) IS(v)
#define EXPECT_code_kb(v) IS(v == 1 * page_kb)
#define EXPECT_data_kb(v) IS(v == 300 * page_kb)
#define EXPECT_has_oom(v) IS(v)
#define EXPECT_has_oom_adj(v) IS(v)
#define EXPECT_oom_score(v) IS(v == 667)
#define EXPECT_oom_adj(v) IS(v == -17)
#define EXPECT_wchan(v) IS(v && !strcmp(v, "do_epoll_wait"))
#define EXPECT_exe(v) IS(v && !strcmp(v, FIXTURE_EXE))
#define EXPECT_cwd(v) IS(v && !strcmp(v, FIXTURE_CWD))
#define EXPECT_has_agrp(v) IS(v)
#define EXPECT_autogroup_id(v) IS(v == 77)
#define EXPECT_autogroup_nice(v) IS(v == -3)
/* a system call on a live PID: not under a fixture root */
#define EXPECT_has_ioprio(v) ELSEWHERE("test_proc_columns.sh")
#define EXPECT_ioprio(v) ELSEWHERE("test_proc_columns.sh")
/* ids that no group file names: their names are the ids */
#define EXPECT_supgids(v) IS(v && !strcmp(v, "2000000001,2000000002"))
#define EXPECT_supgrps(v) IS(v && !strcmp(v, "2000000001,2000000002"))
#define EXPECT_secattr(v) IS(v && !strcmp(v, "system_u:system_r:rowtest_t:s0"))
#define EXPECT_has_cgpsi_cpu(v) IS(v)
#define EXPECT_has_cgpsi_mem(v) IS(v)
#define EXPECT_has_cgpsi_io(v) IS(v)
#define EXPECT_cgpsi_cpu_some10(v) IS(v == 1.25)
#define EXPECT_cgpsi_cpu_some60(v) IS(v == 2.5)
#define EXPECT_cgpsi_mem_some10(v) IS(v == 3.1)
#define EXPECT_cgpsi_mem_some60(v) IS(v == 4.2)
#define EXPECT_cgpsi_mem_full10(v) IS(v == 0.75)
#define EXPECT_cgpsi_mem_full60(v) IS(v == 0.6)
#define EXPECT_cgpsi_io_some10(v) IS(v == 5.55)
#define EXPECT_cgpsi_io_some60(v) IS(v == 6.66)
#define EXPECT_cgpsi_io_full10(v) IS(v == 7.07)
#define EXPECT_cgpsi_io_full60(v) IS(v == 80.08)
#define EXPECT_cgroup_v1(v) IS(v == FRAME_CGROUP_UNIFIED)
#define EXPECT_has_gid(v) IS(v)
#define EXPECT_has_rsssh(v) IS(v)
#define EXPECT_has_tflags(v) IS(v)
#define EXPECT_has_numa(v) IS(v)
#define EXPECT_has_loginuid(v) IS(v)
/* a gid no group file names: its name is the id */
#define EXPECT_gid(v) IS(v == 2000000011u)
#define EXPECT_group(v) IS(v && !strcmp(v, "2000000011"))
#define EXPECT_rss_lock_kb(v) IS(v == 16)
#define EXPECT_rss_shmem_kb(v) IS(v == 17)
/* uids no password file names */
#define EXPECT_ruser(v) IS(v && !strcmp(v, "4241"))
#define EXPECT_suser(v) IS(v && !strcmp(v, "4243"))
/* stat's ninth field, PF_RANDOMIZE | PF_FORKNOEXEC */
#define EXPECT_task_flags(v) IS(v == 4194304u)
/* processor 1 is node 1's */
#define EXPECT_numa_node(v) IS(v == 1)
#define EXPECT_loginuid(v) IS(v == 4245)
#define EXPECT_environ(v) IS(v && !strcmp(v, "HOME=/root LANG=C.UTF-8"))
#define EXPECT_has_rollup(v) IS(v)
#define EXPECT_has_pss_split(v) IS(v)
#define EXPECT_has_io_ops(v) IS(v)
#define EXPECT_has_dirty(v) IS(v)
#define EXPECT_pss_kb(v) IS(v == 983)
#define EXPECT_pss_anon_kb(v) IS(v == 739)
#define EXPECT_pss_file_kb(v) IS(v == 243)
#define EXPECT_pss_shmem_kb(v) IS(v == 1)
/* Private_Clean + Private_Dirty */
#define EXPECT_uss_kb(v) IS(v == 40 + 380)
#define EXPECT_swap_pss_kb(v) IS(v == 17)
#define EXPECT_rollup_rss_kb(v) IS(v == 4360)
#define EXPECT_io_syscr(v) IS(v == 3)
#define EXPECT_io_syscw(v) IS(v == 4)
#define EXPECT_io_cancelled(v) IS(v == 8192)
#define EXPECT_io_rate(v) IS(v > 0)
#define EXPECT_dirty_pages(v) IS(v == 7)
#define EXPECT_has_lib(v) IS(v)
/* the program's two mappings (one executes) and a library's, not a data file's nor the heap */
#define EXPECT_lib_kb(v) IS(v == 8 + 4 + 16)
/* NSpid: 100 in /proc's namespace, 7 in its own */
#define EXPECT_has_nspid(v) IS(v)
#define EXPECT_in_container(v) IS(v == 1)
#define EXPECT_ctr_counting(v) NOT_PROC
#define EXPECT_ctr_ipc(v) NOT_PROC
#define EXPECT_ctr_cache_mpki(v) NOT_PROC
#define EXPECT_ctr_branch_mpki(v) NOT_PROC
#define EXPECT_ctr_cpu_share(v) NOT_PROC
#define EXPECT_kept(v) ELSEWHERE("test_sample's test_read_less_*")
#define EXPECT_cuu_pct(v) NOT_PROC
#define EXPECT_cuc_pct(v) NOT_PROC
#define EXPECT_ncpu_pct(v) NOT_PROC
#define EXPECT_used_kb(v) NOT_PROC
/* the deltas' (src/frame/delta.c), made from two frames: tests/test_delta.c */
#define EXPECT_has_dflt(v) NOT_PROC
#define EXPECT_has_dctx(v) NOT_PROC
#define EXPECT_has_cpud(v) NOT_PROC
#define EXPECT_has_iod(v) NOT_PROC
#define EXPECT_has_swapd(v) NOT_PROC
#define EXPECT_minflt_delta(v) NOT_PROC
#define EXPECT_majflt_delta(v) NOT_PROC
#define EXPECT_ctxsw_delta(v) NOT_PROC
#define EXPECT_cpu_delay_pct(v) NOT_PROC
#define EXPECT_io_delay_pct(v) NOT_PROC
#define EXPECT_swap_delay_pct(v) NOT_PROC
/* the fixture's ns links: each type its own inode */
#define EXPECT_ns_cgroup(v) IS(v == 4026531835u)
#define EXPECT_ns_ipc(v) IS(v == 4026531839u)
#define EXPECT_ns_mnt(v) IS(v == 4026531840u)
#define EXPECT_ns_net(v) IS(v == 4026531992u)
#define EXPECT_ns_pid(v) IS(v == 4026531836u)
#define EXPECT_ns_user(v) IS(v == 4026531837u)
#define EXPECT_ns_uts(v) IS(v == 4026531838u)
#define EXPECT_ns_time(v) IS(v == 4026531834u)
#define EXPECT_cgroups(v) IS(v && !strcmp(v, FIXTURE_CGROUPS))
#define EXPECT_cgname(v) IS(v && !strcmp(v, FIXTURE_CGNAME))
#define EXPECT_lxc(v) IS(v && !strcmp(v, "box1"))
#define EXPECT_ccgroup(v) IS(v && !strcmp(v, "/[S]/rowtest"))
#define EXPECT_has_run_delay(v) IS(v)
#define EXPECT_run_delay_ns(v) IS(v == 2222)
#define EXPECT_has_blkio(v) IS(v)
#define EXPECT_blkio_ticks(v) IS(v == 9)
/* a netlink request about a live PID: not under a fixture root */
#define EXPECT_has_swapin(v) ELSEWHERE("test_taskstats.sh")
#define EXPECT_swapin_delay_ns(v) ELSEWHERE("test_taskstats.sh")
#define EXPECT_has_ctxsw(v) IS(v)

static void put_file(const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/100/%s", dir, name);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(text, fp);
	assert_int_equal(fclose(fp), 0);
}

/* The fixture's ns links and their targets. */
static const char *const ns_links[][2] = {
    {"cgroup", "cgroup:[4026531835]"}, {"ipc", "ipc:[4026531839]"},   {"mnt", "mnt:[4026531840]"},
    {"net", "net:[4026531992]"},       {"pid", "pid:[4026531836]"},   {"user", "user:[4026531837]"},
    {"uts", "uts:[4026531838]"},       {"time", "time:[4026531834]"},
};

/* A proc root in dir (room for 256 bytes) with process 100 as the expectations say. */
static void fixture_root(char dir[256])
{
	const char *tmp = getenv("TMPDIR");
	char path[512];
	FILE *fp;

	snprintf(dir, 256, "%s/ptop-row-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/100", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	/* pgrp 101, session 102, tty pts/2 (136 << 8 | 2), tpgid 103, minflt 61, cminflt 62,
	 * majflt 63, cmajflt 64, utime 701, stime 302, cutime 33, cstime 44, priority 25,
	 * nice 5, 3 threads, start 5000, processor 1, rt_priority 5, policy 2 (SCHED_RR),
	 * delayacct_blkio_ticks 9 */
	put_file(dir, "stat",
		 "100 (" FIXTURE_COMM
		 ") S 42 101 102 34818 103 4194304 61 62 63 64 701 302 33 44 25 "
		 "5 3 0 5000 27713536 280 18446744073709551615 0 0 0 0 0 0 0 0 0 0 0 0 17 1 5 2 9 "
		 "0 0 0 0 0 0 0 0 0 0\n");
	/* dt 7: the kernel prints 0 there since 2.6, but what the file says is shown */
	put_file(dir, "statm", "6766 500000 2000 1 0 300 7\n");
	put_file(dir, "status",
		 "Name:\t" FIXTURE_COMM "\nState:\tS (sleeping)\nTgid:\t100\nPid:\t100\nPPid:\t42\n"
		 "Uid:\t4241\t4242\t4243\t4244\nGid:\t2000000010\t2000000011\t0\t0\n"
		 "Groups:\t2000000001 2000000002\nNSpid:\t100\t7\nVmLck:\t16 kB\nVmSwap:\t11 kB\n"
		 "RssAnon:\t12 kB\nRssFile:\t13 kB\nRssShmem:\t17 kB\nThreads:\t3\n"
		 "voluntary_ctxt_switches:\t14\nnonvoluntary_ctxt_switches:\t15\n");
	put_file(dir, "io",
		 "rchar: 1001\nwchar: 1002\nsyscr: 3\nsyscw: 4\nread_bytes: 409600\n"
		 "write_bytes: 819200\ncancelled_write_bytes: 8192\n");
	put_file(
	    dir, "smaps_rollup",
	    "55763b2af000-7ffdd7b23000 ---p 00000000 00:00 0                          [rollup]\n"
	    "Rss:                4360 kB\nPss:                 983 kB\n"
	    "Pss_Dirty:           739 kB\nPss_Anon:            739 kB\n"
	    "Pss_File:            243 kB\nPss_Shmem:             1 kB\n"
	    "Shared_Clean:       3128 kB\nShared_Dirty:        812 kB\n"
	    "Private_Clean:        40 kB\nPrivate_Dirty:       380 kB\n"
	    "Private_Hugetlb:       0 kB\nSwap:                 20 kB\n"
	    "SwapPss:              17 kB\nLocked:                0 kB\n");
	put_file(dir, "maps",
		 "55e0c0000000-55e0c0002000 r--p 00000000 fe:00 4711 /usr/bin/rowtest\n"
		 "55e0c0002000-55e0c0003000 r-xp 00002000 fe:00 4711 /usr/bin/rowtest\n"
		 "55e0c1000000-55e0c1021000 rw-p 00000000 00:00 0                    [heap]\n"
		 "7f0000000000-7f0000004000 r-xp 00000000 fe:00 815 /usr/lib/librow.so\n"
		 "7f0000004000-7f0000006000 r--p 00000000 fe:00 999 /usr/share/row.dat\n");
	put_file(dir, "cgroup", FIXTURE_CGROUP_FILE);
	put_file(dir, "schedstat", "1111 2222 3\n");
	snprintf(path, sizeof(path), "%s/100/ns", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	for (size_t i = 0; i < sizeof(ns_links) / sizeof(ns_links[0]); i++) {
		snprintf(path, sizeof(path), "%s/100/ns/%s", dir, ns_links[i][0]);
		assert_int_equal(symlink(ns_links[i][1], path), 0);
	}
	snprintf(path, sizeof(path), "%s/sys", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/sys/kernel", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	fp = fopen(strcat(path, "/task_delayacct"), "w");
	assert_non_null(fp);
	fputs("1\n", fp);
	assert_int_equal(fclose(fp), 0);
	put_file(dir, "oom_score", "667\n");
	put_file(dir, "oom_score_adj", "-17\n");
	put_file(dir, "wchan", "do_epoll_wait");
	put_file(dir, "autogroup", "/autogroup-77 nice -3\n");
	put_file(dir, "loginuid", "4245");
	/* NULs between the strings, and one after the last */
	snprintf(path, sizeof(path), "%s/100/environ", dir);
	fp = fopen(path, "w");
	assert_non_null(fp);
	assert_int_equal(fwrite(FIXTURE_ENV, 1, sizeof(FIXTURE_ENV), fp), sizeof(FIXTURE_ENV));
	assert_int_equal(fclose(fp), 0);
	snprintf(path, sizeof(path), "%s/100/attr", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	/* SELinux's label ends in a NUL, which fputs cannot write */
	snprintf(path, sizeof(path), "%s/100/attr/current", dir);
	fp = fopen(path, "w");
	assert_non_null(fp);
	assert_int_equal(fwrite("system_u:system_r:rowtest_t:s0", 1, 31, fp), 31);
	assert_int_equal(fclose(fp), 0);
	snprintf(path, sizeof(path), "%s/100/exe", dir);
	assert_int_equal(symlink(FIXTURE_EXE, path), 0);
	snprintf(path, sizeof(path), "%s/100/cwd", dir);
	assert_int_equal(symlink(FIXTURE_CWD, path), 0);
}

/* A file of the cgroup root at root/sys (made by cgroup_root()), its name under it. */
static void put_sys(const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/sys/%s", dir, name);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(text, fp);
	assert_int_equal(fclose(fp), 0);
}

/* A cgroup2 root at dir/sys, written into out, with process 100's cgroup and its pressure. */
static void cgroup_root(const char *dir, char out[512])
{
	char cmd[600];

	snprintf(out, 512, "%s/sys", dir);
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s/system.slice/rowtest.service'", out);
	assert_int_equal(system(cmd), 0);
	put_sys(dir, "cgroup.controllers", "cpu io memory pids\n");
	put_sys(dir, "system.slice/rowtest.service/cpu.pressure",
		"some avg10=1.25 avg60=2.50 avg300=0.00 total=1\n"
		"full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n");
	put_sys(dir, "system.slice/rowtest.service/memory.pressure",
		"some avg10=3.10 avg60=4.20 avg300=0.00 total=2\n"
		"full avg10=0.75 avg60=0.60 avg300=0.00 total=3\n");
	put_sys(dir, "system.slice/rowtest.service/io.pressure",
		"some avg10=5.55 avg60=6.66 avg300=0.00 total=4\n"
		"full avg10=7.07 avg60=80.08 avg300=0.00 total=5\n");
}

/* NUMA nodes at dir/node, written into out: CPU 0 node 0's, 1 to 3 node 1's, and a node
 * without CPUs. */
static void node_root(const char *dir, char out[512])
{
	char cmd[600];

	snprintf(out, 512, "%s/node", dir);
	snprintf(cmd, sizeof(cmd),
		 "mkdir -p '%s/node0' '%s/node1' '%s/node2' && echo 0 >'%s/node0/cpulist' && "
		 "echo 1-3 >'%s/node1/cpulist' && echo >'%s/node2/cpulist'",
		 out, out, out, out, out, out);
	assert_int_equal(system(cmd), 0);
}

/* Member name of p against its expectation w; sources from row.def. */
static void check_member(const char *name, unsigned sources, struct want w)
{
	bool claims = sources & ROW_SRC_PROC;

	if (claims != w.proc)
		fail_msg("%s: row.def says the /proc source %s it, this test says it %s", name,
			 claims ? "fills" : "does not fill", w.proc ? "does" : "does not");
	if (!w.ok)
		fail_msg("%s: the /proc source did not fill it as the fixture says", name);
}

static void test_proc_fills(void **state)
{
	char dir[256], cmd[512], sys[512], nodes[512];
	struct sampler_opts o = {
	    .root = dir,
	    .cgroup_root = sys,
	    .needs = PROC_NEED(PROC_FILE_STATM) | PROC_NEED(PROC_FILE_STATUS) |
		     PROC_NEED(PROC_FILE_IO) | PROC_NEED(PROC_FILE_CGROUP) |
		     PROC_NEED(PROC_FILE_OOM_SCORE) | PROC_NEED(PROC_FILE_OOM_ADJ) |
		     ROW_NEED_WCHAN | ROW_NEED_EXE | ROW_NEED_CWD | ROW_NEED_AUTOGROUP |
		     ROW_NEED_IOPRIO | ROW_NEED_GROUPS | ROW_NEED_SECATTR | ROW_NEED_CGROUP_PSI |
		     ROW_NEED_LOGINUID | ROW_NEED_ENVIRON | ROW_NEED_NUMA | ROW_NEED_NS |
		     ROW_NEED_SCHEDSTAT | ROW_NEED_BLKIO | ROW_NEED_CGLINES | ROW_NEED_CCGROUP |
		     ROW_NEED_ROLLUP | ROW_NEED_MAPS | FRAME_NEED_SIDE,
	    .node_root = nodes};
	uint64_t page_kb = (uint64_t)sysconf(_SC_PAGESIZE) / 1024;
	const struct frame_proc *p = NULL;
	struct frame f = {0};
	struct sampler *s;

	(void)state;
	if (geteuid() != 0)
		skip(); /* a copy's uid is taken from status at first sight only when root owns 100/ */
	fixture_root(dir);
	cgroup_root(dir, sys);
	node_root(dir, nodes);
	assert_int_equal(sampler_new(&o, &s), 0);
	assert_int_equal(sampler_frame(s, &f), 0);
	for (size_t i = 0; i < f.nprocs; i++)
		if (f.procs[i].pid == 100)
			p = &f.procs[i];
	assert_non_null(p);
#define ROW(type, name, dim, kind, since, when, needs, sources)                                    \
	check_member(#name, sources, EXPECT_##name(p->name));
#define ROW_LOCAL(type, name, dim, needs, sources)                                                 \
	check_member(#name, sources, EXPECT_##name(p->name));
#define ROW_SIDE(type, name, dim, kind, since, when, needs, sources)                               \
	check_member(#name, sources, EXPECT_##name(frame_side(p)->name));
#define ROW_SIDE_LOCAL(type, name, dim, needs, sources)                                            \
	check_member(#name, sources, EXPECT_##name(frame_side(p)->name));
#include "ptop/row.def"
#undef ROW
#undef ROW_LOCAL
#undef ROW_SIDE
#undef ROW_SIDE_LOCAL
	frame_free(&f);
	sampler_free(s);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

/* Whether every row of f has a side of its own (want), or none has one. */
static void sides_are(const struct frame *f, bool want)
{
	assert_true(f->nprocs > 0);
	assert_int_equal(f->has_sides, want);
	for (size_t i = 0; i < f->nprocs; i++) {
		assert_int_equal(f->procs[i].side != NULL, want);
		for (size_t j = 0; want && j < i; j++)
			assert_ptr_not_equal(f->procs[i].side, f->procs[j].side);
	}
}

/*
 * A frame has sides only when its needs ask (FRAME_NEED_SIDE), which every
 * column over a side member carries: the default frame's rows stay small.
 */
static void test_sides_when_asked(void **state)
{
	char dir[256], cmd[512];
	struct sampler_opts o = {.root = dir, .needs = PROC_NEED(PROC_FILE_STATM)};
	struct frame f = {0};
	struct sampler *s;

	(void)state;
	for (int id = 0; id < FIELD_COUNT; id++)
		if (field_defs[id].side && !(field_defs[id].needs & FRAME_NEED_SIDE))
			fail_msg("%s: a side member's column without FRAME_NEED_SIDE",
				 field_defs[id].name);
	assert_true(field_defs[FIELD_PSS].side && !field_defs[FIELD_PID].side);
	fixture_root(dir);
	assert_int_equal(sampler_new(&o, &s), 0);
	assert_int_equal(sampler_frame(s, &f), 0);
	sides_are(&f, false);
	/* PSS shown: every row has one, in the same frame's memory the next time */
	o.needs |= field_defs[FIELD_PSS].needs;
	sampler_configure(s, &o);
	assert_int_equal(sampler_frame(s, &f), 0);
	sides_are(&f, true);
	assert_int_equal(sampler_frame(s, &f), 0);
	sides_are(&f, true);
	o.needs = PROC_NEED(PROC_FILE_STATM);
	sampler_configure(s, &o);
	assert_int_equal(sampler_frame(s, &f), 0);
	sides_are(&f, false);
	frame_free(&f);
	sampler_free(s);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

/* The needs of the members a recording keeps are what it asks to be read. */
static void test_recorded_needs(void **state)
{
	(void)state;
	assert_int_equal(
	    row_recorded_needs,
	    PROC_NEED(PROC_FILE_STATM) | PROC_NEED(PROC_FILE_STATUS) | PROC_NEED(PROC_FILE_IO) |
		PROC_NEED(PROC_FILE_CGROUP) | ROW_NEED_JOB | PROC_NEED(PROC_FILE_OOM_SCORE) |
		PROC_NEED(PROC_FILE_OOM_ADJ) | ROW_NEED_WCHAN | ROW_NEED_EXE | ROW_NEED_CWD |
		ROW_NEED_AUTOGROUP | ROW_NEED_IOPRIO | ROW_NEED_GROUPS | ROW_NEED_SECATTR |
		ROW_NEED_CGROUP_PSI | ROW_NEED_NUMA | ROW_NEED_LOGINUID | ROW_NEED_NS |
		ROW_NEED_SCHEDSTAT | ROW_NEED_BLKIO | ROW_NEED_CGLINES | ROW_NEED_CCGROUP |
		ROW_NEED_ROLLUP | ROW_NEED_MAPS | ROW_NEED_TASKSTATS | FRAME_NEED_SIDE);
	/* what every recording reads is some of it, and the lazy files are files the sampler
	 * reads lazily */
	assert_int_equal((RECORD_NEEDS | RECORD_NEEDS_LAZY) & ~row_recorded_needs, 0);
	assert_int_equal(RECORD_NEEDS & RECORD_NEEDS_LAZY, 0);
}

/* ---- recordings ---- */

enum kind { K_U8, K_CHAR, K_BIT, K_I32, K_U32, K_I64, K_U64, K_F64, K_STORED, K_COMM, K_USER };

/* A member a recording keeps: where it is (in the row, or its side), how big, and its kind. */
struct member {
	const char *name;
	size_t off, size;
	enum kind kind;
	bool side;
};

static const struct member members[] = {
#define ROW(type, m, dim, k, since, when, needs, sources)                                          \
	{#m, offsetof(struct frame_proc, m), sizeof(((struct frame_proc *)0)->m), K_##k, false},
#define ROW_LOCAL(type, m, dim, needs, sources)
#define ROW_SIDE(type, m, dim, k, since, when, needs, sources)                                     \
	{#m, offsetof(struct frame_proc_side, m), sizeof(((struct frame_proc_side *)0)->m), K_##k, \
	 true},
#define ROW_SIDE_LOCAL(type, m, dim, needs, sources)
#include "ptop/row.def"
#undef ROW
#undef ROW_LOCAL
#undef ROW_SIDE
#undef ROW_SIDE_LOCAL
};

/* Where member m of p is. */
static char *member_at(const struct frame_proc *p, const struct member *m)
{
	return (char *)(m->side ? (const void *)frame_side(p) : (const void *)p) + m->off;
}

static const char *const names[] = {"first-name", "second", "third-one", "fourth"};

/* A value of member m of its own (seed: its index), as its kind allows. */
static void set_member(struct frame_proc *p, const struct member *m, unsigned seed)
{
	char *at = member_at(p, m);

	switch (m->kind) {
	case K_BIT:
		*(bool *)at = true;
		break;
	case K_STORED:
	case K_USER:
		*(const char **)at = names[seed % 4];
		break;
	case K_COMM:
		memcpy(p->comm, "round-trip", 10);
		p->comm_len = 10;
		break;
	case K_F64:
		for (size_t i = 0; i < m->size / sizeof(double); i++)
			((double *)(void *)at)[i] = seed * 1000.25 + (double)i;
		break;
	default:
		/* every byte its own: a member read as a narrower or wider one differs */
		for (size_t i = 0; i < m->size; i++)
			at[i] = (char)(seed * 16 + i + 1);
		break;
	}
}

static bool same_member(const struct frame_proc *a, const struct frame_proc *b,
			const struct member *m)
{
	const char *x = member_at(a, m), *y = member_at(b, m);

	switch (m->kind) {
	case K_STORED:
	case K_USER:
		return *(const char *const *)y &&
		       !strcmp(*(const char *const *)x, *(const char *const *)y);
	case K_COMM:
		return a->comm_len == b->comm_len && !memcmp(a->comm, b->comm, a->comm_len);
	default:
		return !memcmp(x, y, m->size);
	}
}

static void test_round_trip(void **state)
{
	struct frame_proc row;
	struct frame_proc_side side = {0};
	struct frame f = {0}, g = {0};
	struct record_store st = {0};
	struct sbuf raw = {0};
	size_t n = sizeof(members) / sizeof(members[0]);

	(void)state;
	memset(&row, 0, sizeof(row));
	row.side = &side;
	for (size_t i = 0; i < n; i++)
		set_member(&row, &members[i], (unsigned)i + 1);
	/* the command line a row points at is in the frame's strings */
	sbuf_add(&f.strings, "x", 1);
	row.cmd_off = 0;
	row.cmd_len = 1;
	f.hz = 100;
	f.procs = &row;
	f.nprocs = 1;
	record_encode(&raw, &f, RECORD_VERSION);
	assert_int_equal(record_decode(raw.p, raw.len, RECORD_VERSION, &g, &st), 0);
	assert_int_equal(g.nprocs, 1);
	for (size_t i = 0; i < n; i++)
		if (!same_member(&row, &g.procs[0], &members[i]))
			fail_msg("%s: not the same after a recording's round trip",
				 members[i].name);
	frame_free(&g);
	record_store_free(&st);
	sbuf_free(&raw);
	sbuf_free(&f.strings);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_proc_fills),
	    cmocka_unit_test(test_recorded_needs),
	    cmocka_unit_test(test_sides_when_asked),
	    cmocka_unit_test(test_round_trip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
