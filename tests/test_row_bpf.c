// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_row_bpf.c: the BPF source's claims in row.def, held against the
 * /proc source on a live process. A child is made to have a value of its
 * own in what it can (a name, nice 5, SCHED_RR at 5, three threads, memory
 * it touched, a reaped grandchild's CPU, distinct real, effective and saved
 * uids, a session and process group of its own with a terminal, storage
 * and character I/O), then burns CPU and writes between two frames of each
 * source, and sleeps while both read it. The expectation of each member is
 * BPF_<member> below, and row.def's every member must have one: a member
 * added to the list without it does not compile. An expectation says
 * whether the BPF source fills the member and how its value is held
 * against /proc's (the same, or both above 0 for what is a rate or share
 * over the sources' own intervals), so a member row.def says BPF fills, with
 * the fill forgotten in src/bpf/, fails here as a value /proc disagrees with,
 * as does a claim row.def and this file disagree on. Needs root (or CAP_BPF
 * + CAP_PERFMON) and a kernel where the walk loads: otherwise skipped (77),
 * saying why.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../src/bpf/bpfsrc.h"
#include "child.h"

#define TICK_NS (1000000000LL / sysconf(_SC_CLK_TCK))
#define CHILD_COMM "rowbpf"

/* What a member's expectation says: whether BPF fills it, and whether it holds. */
struct want {
	bool bpf; /* the BPF source fills it */
	bool ok;  /* it holds against /proc's value */
};

/* filled by BPF, and c holds of b's value (the BPF row) against p's (the /proc row) */
#define IS(c) ((struct want){.bpf = true, .ok = (c)})
#define SAME(m) IS(b->m == p->m)
/* a figure over each source's own interval (or a share of memory): above 0 in both */
#define BOTH(m) IS(b->m > 0 && p->m > 0)
#define NOT_BPF ((struct want){.bpf = false, .ok = true})
/* filled by the BPF frame source's sampler after the walk, and checked through it elsewhere */
#define ELSEWHERE(test) ((struct want){.bpf = true, .ok = (test) != NULL})

#define BPF_pid SAME(pid)
#define BPF_ppid SAME(ppid)
#define BPF_state IS(b->state == 'S' && p->state == 'S')
#define BPF_comm_len IS(b->comm_len == strlen(CHILD_COMM) && p->comm_len == b->comm_len)
#define BPF_comm IS(!memcmp(b->comm, CHILD_COMM, strlen(CHILD_COMM)))
#define BPF_uid IS(b->uid == 4242 && p->uid == 4242)
#define BPF_user IS(b->user && p->user && !strcmp(b->user, p->user))
#define BPF_priority IS(b->priority == p->priority && b->priority == -6)
#define BPF_nice IS(b->nice == 5 && p->nice == 5)
#define BPF_threads IS(b->threads == 3 && p->threads == 3)
#define BPF_vsize_kb SAME(vsize_kb)
#define BPF_rss_kb IS(b->rss_kb == p->rss_kb && b->rss_kb >= 4096)
#define BPF_shared_kb SAME(shared_kb)
#define BPF_cpu_pct BOTH(cpu_pct)
#define BPF_mem_pct BOTH(mem_pct)
#define BPF_utime IS(b->utime == p->utime && b->utime > 0)
#define BPF_stime SAME(stime)
#define BPF_start_ticks SAME(start_ticks)
#define BPF_processor SAME(processor)
#define BPF_swap_kb SAME(swap_kb)
#define BPF_rss_anon_kb IS(b->rss_anon_kb == p->rss_anon_kb && b->rss_anon_kb >= 4096)
#define BPF_rss_file_kb IS(b->rss_file_kb == p->rss_file_kb && b->rss_file_kb > 0)
#define BPF_vctxsw IS(b->vctxsw == p->vctxsw && b->vctxsw > 0)
#define BPF_nvctxsw SAME(nvctxsw)
#define BPF_perf_fds NOT_BPF
#define BPF_tgid SAME(tgid)
#define BPF_has_ctr NOT_BPF
#define BPF_ctr_partial NOT_BPF
#define BPF_ctr_not_counted NOT_BPF
#define BPF_has_cmd NOT_BPF
#define BPF_has_io IS(b->has_io && p->has_io)
#define BPF_exited NOT_BPF
#define BPF_has_flt IS(b->has_flt && p->has_flt)
#define BPF_has_job IS(b->has_job && p->has_job)
#define BPF_cutime IS(b->cutime == p->cutime && b->cutime + b->cstime > 0)
#define BPF_cstime SAME(cstime)
#define BPF_ruid IS(b->ruid == 4241 && p->ruid == 4241)
#define BPF_suid IS(b->suid == 4243 && p->suid == 4243)
#define BPF_fsuid IS(b->fsuid == 4242 && p->fsuid == 4242)
#define BPF_io_rchar IS(b->io_rchar == p->io_rchar && b->io_rchar > 0)
#define BPF_io_wchar IS(b->io_wchar == p->io_wchar && b->io_wchar >= 2 * CHUNK)
#define BPF_io_read_bytes SAME(io_read_bytes)
#define BPF_io_write_bytes SAME(io_write_bytes)
/* the child reads nothing from storage between the frames; under load the kernel may read
 * its pages back in (counted as its reads), which both sources then show */
#define BPF_io_read_rate                                                                           \
	IS(b->io_read_rate == p->io_read_rate || (b->io_read_rate > 0 && p->io_read_rate > 0))
/* where the file system counts storage writes (not tmpfs) the fsync between the frames shows */
#define BPF_io_write_rate                                                                          \
	IS(p->io_write_bytes ? b->io_write_rate > 0 && p->io_write_rate > 0                        \
			     : !b->io_write_rate && !p->io_write_rate)
/* from BPF where the unified hierarchy alone is mounted; elsewhere left to /proc (NULL here) */
#define BPF_cgroup                                                                                 \
	IS(unified ? b->cgroup && p->cgroup && !strcmp(b->cgroup, p->cgroup) : !b->cgroup)
#define BPF_container                                                                              \
	IS(unified ? !b->container == !p->container &&                                             \
			 (!b->container || !strcmp(b->container, p->container))                    \
		   : !b->container)
#define BPF_cmd_off NOT_BPF
#define BPF_cmd_len NOT_BPF
#define BPF_ctr_na NOT_BPF
#define BPF_ctr_scale NOT_BPF
#define BPF_ctr NOT_BPF
#define BPF_child_ticks NOT_BPF
#define BPF_child_pct NOT_BPF
#define BPF_exit_status NOT_BPF
#define BPF_end_ticks NOT_BPF
#define BPF_maxrss_kb NOT_BPF
/* the run time /proc's ticks are scaled from: under two ticks (user's and system's) more */
#define BPF_run_ns                                                                                 \
	IS(b->run_ns / (uint64_t)TICK_NS >= p->utime + p->stime &&                                 \
	   b->run_ns / (uint64_t)TICK_NS <= p->utime + p->stime + 2)
#define BPF_minflt IS(b->minflt == p->minflt && b->minflt > 0)
#define BPF_majflt SAME(majflt)
#define BPF_cminflt IS(b->cminflt == p->cminflt && b->cminflt > 0)
#define BPF_cmajflt SAME(cmajflt)
#define BPF_pgrp IS(b->pgrp == brow->pid && p->pgrp == brow->pid)
#define BPF_session IS(b->session == brow->pid && p->session == brow->pid)
#define BPF_tty_nr IS(b->tty_nr == p->tty_nr && b->tty_nr != 0)
#define BPF_tpgid IS(b->tpgid == brow->pid && p->tpgid == brow->pid)
#define BPF_policy IS(b->policy == SCHED_RR && p->policy == SCHED_RR)
#define BPF_rt_priority IS(b->rt_priority == 5 && p->rt_priority == 5)
#define BPF_has_seg IS(b->has_seg && p->has_seg)
#define BPF_has_oom NOT_BPF
#define BPF_has_oom_adj NOT_BPF
#define BPF_code_kb IS(b->code_kb == p->code_kb && b->code_kb > 0)
#define BPF_data_kb IS(b->data_kb == p->data_kb && b->data_kb >= 4096)
#define BPF_oom_score NOT_BPF
#define BPF_oom_adj NOT_BPF
/* read from /proc by PID for the BPF frame source's rows (sampler_read_side) */
#define BPF_wchan ELSEWHERE("test_proc_columns.sh")
#define BPF_exe ELSEWHERE("test_proc_columns.sh")
#define BPF_cwd ELSEWHERE("test_proc_columns.sh")
#define BPF_has_agrp ELSEWHERE("test_proc_columns.sh")
#define BPF_autogroup_id ELSEWHERE("test_proc_columns.sh")
#define BPF_autogroup_nice ELSEWHERE("test_proc_columns.sh")
#define BPF_has_ioprio ELSEWHERE("test_proc_columns.sh")
#define BPF_ioprio ELSEWHERE("test_proc_columns.sh")
#define BPF_supgids ELSEWHERE("test_proc_columns.sh")
#define BPF_supgrps ELSEWHERE("test_proc_columns.sh")
#define BPF_secattr ELSEWHERE("test_proc_columns.sh")
#define BPF_has_cgpsi_cpu ELSEWHERE("test_cgroup_psi_columns.sh")
#define BPF_has_cgpsi_mem ELSEWHERE("test_cgroup_psi_columns.sh")
#define BPF_has_cgpsi_io ELSEWHERE("test_cgroup_psi_columns.sh")
#define BPF_cgpsi_cpu_some10 ELSEWHERE("test_cgroup_psi_columns.sh")
#define BPF_cgpsi_cpu_some60 ELSEWHERE("test_cgroup_psi_columns.sh")
#define BPF_cgpsi_mem_some10 ELSEWHERE("test_cgroup_psi_columns.sh")
#define BPF_cgpsi_mem_some60 ELSEWHERE("test_cgroup_psi_columns.sh")
#define BPF_cgpsi_mem_full10 ELSEWHERE("test_cgroup_psi_columns.sh")
#define BPF_cgpsi_mem_full60 ELSEWHERE("test_cgroup_psi_columns.sh")
#define BPF_cgpsi_io_some10 ELSEWHERE("test_cgroup_psi_columns.sh")
#define BPF_cgpsi_io_some60 ELSEWHERE("test_cgroup_psi_columns.sh")
#define BPF_cgpsi_io_full10 ELSEWHERE("test_cgroup_psi_columns.sh")
#define BPF_cgpsi_io_full60 ELSEWHERE("test_cgroup_psi_columns.sh")
#define BPF_has_rsssh IS(b->has_rsssh && p->has_rsssh)
#define BPF_rss_shmem_kb SAME(rss_shmem_kb)
#define BPF_has_tflags IS(b->has_tflags && p->has_tflags)
#define BPF_task_flags IS(b->task_flags == p->task_flags && b->task_flags != 0)
#define BPF_ruser IS(b->ruser && p->ruser && !strcmp(b->ruser, p->ruser))
#define BPF_suser IS(b->suser && p->suser && !strcmp(b->suser, p->suser) && b->suser != b->ruser)
/* read from /proc by PID for the BPF frame source's rows (sampler_read_side) */
#define BPF_has_gid ELSEWHERE("test_id_columns.sh")
#define BPF_gid ELSEWHERE("test_id_columns.sh")
#define BPF_group ELSEWHERE("test_id_columns.sh")
#define BPF_rss_lock_kb ELSEWHERE("test_id_columns.sh")
#define BPF_has_numa ELSEWHERE("test_id_columns.sh")
#define BPF_numa_node ELSEWHERE("test_id_columns.sh")
#define BPF_has_loginuid ELSEWHERE("test_id_columns.sh")
#define BPF_loginuid ELSEWHERE("test_id_columns.sh")
#define BPF_environ ELSEWHERE("test_id_columns.sh")
/* smaps_rollup, read from /proc by PID for the BPF frame source's rows (sampler_read_side) */
#define BPF_has_rollup ELSEWHERE("test_mem_columns.sh")
#define BPF_has_pss_split ELSEWHERE("test_mem_columns.sh")
#define BPF_pss_kb ELSEWHERE("test_mem_columns.sh")
#define BPF_pss_anon_kb ELSEWHERE("test_mem_columns.sh")
#define BPF_pss_file_kb ELSEWHERE("test_mem_columns.sh")
#define BPF_pss_shmem_kb ELSEWHERE("test_mem_columns.sh")
#define BPF_uss_kb ELSEWHERE("test_mem_columns.sh")
#define BPF_swap_pss_kb ELSEWHERE("test_mem_columns.sh")
#define BPF_rollup_rss_kb ELSEWHERE("test_mem_columns.sh")
#define BPF_has_io_ops IS(b->has_io_ops && p->has_io_ops)
/* the child read and wrote with system calls before the first frame */
#define BPF_io_syscr IS(b->io_syscr == p->io_syscr && b->io_syscr > 0)
#define BPF_io_syscw IS(b->io_syscw == p->io_syscw && b->io_syscw > 0)
#define BPF_io_cancelled SAME(io_cancelled)
#define BPF_io_rate                                                                                \
	IS(b->io_rate == brow->io_read_rate + brow->io_write_rate &&                               \
	   p->io_rate == prow->io_read_rate + prow->io_write_rate)
/* statm's constant 0 */
#define BPF_has_dirty IS(b->has_dirty && p->has_dirty)
#define BPF_dirty_pages IS(b->dirty_pages == 0 && p->dirty_pages == 0)
/* maps, read from /proc by PID for the BPF frame source's rows (sampler_read_side) */
#define BPF_has_lib ELSEWHERE("test_mem_columns.sh")
#define BPF_lib_kb ELSEWHERE("test_mem_columns.sh")
#define BPF_has_nspid ELSEWHERE("test_container.sh")
#define BPF_in_container ELSEWHERE("test_container.sh")
#define BPF_cgroup_v1 NOT_BPF
#define BPF_ctr_counting NOT_BPF
#define BPF_ctr_ipc NOT_BPF
#define BPF_ctr_cache_mpki NOT_BPF
#define BPF_ctr_branch_mpki NOT_BPF
#define BPF_ctr_cpu_share NOT_BPF
#define BPF_kept NOT_BPF
#define BPF_cuu_pct NOT_BPF
#define BPF_cuc_pct NOT_BPF
#define BPF_ncpu_pct NOT_BPF
#define BPF_used_kb NOT_BPF
/* the deltas' (src/frame/delta.c), from either source's rows: tests/test_delta.c */
#define BPF_has_dflt NOT_BPF
#define BPF_has_dctx NOT_BPF
#define BPF_has_cpud NOT_BPF
#define BPF_has_iod NOT_BPF
#define BPF_has_swapd NOT_BPF
#define BPF_minflt_delta NOT_BPF
#define BPF_majflt_delta NOT_BPF
#define BPF_ctxsw_delta NOT_BPF
#define BPF_cpu_delay_pct NOT_BPF
#define BPF_io_delay_pct NOT_BPF
#define BPF_swap_delay_pct NOT_BPF
/* read from /proc by PID for the BPF frame source's rows (sampler_read_side), and the
 * condensed cgroup at the frame's end (sampler_end) */
#define BPF_ns_cgroup ELSEWHERE("test_ns_delay_columns.sh")
#define BPF_ns_ipc ELSEWHERE("test_ns_delay_columns.sh")
#define BPF_ns_mnt ELSEWHERE("test_ns_delay_columns.sh")
#define BPF_ns_net ELSEWHERE("test_ns_delay_columns.sh")
#define BPF_ns_pid ELSEWHERE("test_ns_delay_columns.sh")
#define BPF_ns_user ELSEWHERE("test_ns_delay_columns.sh")
#define BPF_ns_uts ELSEWHERE("test_ns_delay_columns.sh")
#define BPF_ns_time ELSEWHERE("test_ns_delay_columns.sh")
#define BPF_cgroups ELSEWHERE("test_ns_delay_columns.sh")
#define BPF_cgname ELSEWHERE("test_ns_delay_columns.sh")
#define BPF_lxc ELSEWHERE("test_ns_delay_columns.sh")
#define BPF_ccgroup ELSEWHERE("test_ns_delay_columns.sh")
#define BPF_has_run_delay ELSEWHERE("test_ns_delay_columns.sh")
#define BPF_run_delay_ns ELSEWHERE("test_ns_delay_columns.sh")
#define BPF_has_blkio ELSEWHERE("test_ns_delay_columns.sh")
#define BPF_blkio_ticks ELSEWHERE("test_ns_delay_columns.sh")
#define BPF_has_swapin ELSEWHERE("test_taskstats.sh")
#define BPF_swapin_delay_ns ELSEWHERE("test_taskstats.sh")
#define BPF_has_ctxsw IS(b->has_ctxsw && p->has_ctxsw)

/* Bytes the child writes to its file: before the first frame, and again between the two. */
#define CHUNK 65536

static struct users *users;
static bool unified;		       /* bpfsrc_has_cgroups() */
static pid_t kid;		       /* the child, ended by the teardown however the test went */
static char file[] = "row-bpf-XXXXXX"; /* the child's, removed by the teardown too */

static double uptime(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void must(bool ok, const char *what)
{
	if (!ok) {
		perror(what);
		_exit(2);
	}
}

/* The child: set up, say so (one byte on up), burn and write on a byte from cmd, say so. */
static void child(int cmd, int up, const char *path)
{
	char *mem, buf[CHUNK], c;
	struct sched_param sp = {.sched_priority = 5};
	pthread_t t;
	pid_t g;
	int fd, pty;

	must(prctl(PR_SET_NAME, CHILD_COMM) == 0, "prctl");
	must(setsid() > 0, "setsid");
	pty = posix_openpt(O_RDWR | O_NOCTTY);
	must(pty >= 0 && grantpt(pty) == 0 && unlockpt(pty) == 0, "posix_openpt");
	fd = open(ptsname(pty), O_RDWR);
	must(fd >= 0 && ioctl(fd, TIOCSCTTY, 0) == 0, "TIOCSCTTY");
	must(setpriority(PRIO_PROCESS, 0, 5) == 0, "setpriority");
	for (int i = 0; i < 2; i++)
		must(pthread_create(&t, NULL, sleep_forever, NULL) == 0, "pthread_create");
	mem = mmap(NULL, 8 << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	must(mem != MAP_FAILED, "mmap");
	memset(mem, 1, 8 << 20);
	g = fork();
	must(g >= 0, "fork");
	if (g == 0) {
		burn(CLOCK_PROCESS_CPUTIME_ID, cpu_ns(CLOCK_PROCESS_CPUTIME_ID) + 3 * TICK_NS);
		_exit(0);
	}
	must(waitpid(g, NULL, 0) == g, "waitpid");
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	must(fd >= 0, path);
	memset(buf, 'r', sizeof(buf));
	must(write(fd, buf, sizeof(buf)) == sizeof(buf) && fsync(fd) == 0, "write");
	must(pread(fd, buf, sizeof(buf), 0) == sizeof(buf), "pread");
	must(sched_setscheduler(0, SCHED_RR, &sp) == 0, "sched_setscheduler");
	must(setresuid(4241, 4242, 4243) == 0, "setresuid");
	must(write(up, "u", 1) == 1, "up");
	must(read(cmd, &c, 1) == 1, "cmd");
	burn(CLOCK_PROCESS_CPUTIME_ID, cpu_ns(CLOCK_PROCESS_CPUTIME_ID) + 3 * TICK_NS);
	must(write(fd, buf, sizeof(buf)) == sizeof(buf) && fsync(fd) == 0, "write");
	must(write(up, "d", 1) == 1, "up");
	for (;;)
		pause();
}

static const struct frame_proc *row_of(const struct frame *f, pid_t pid)
{
	for (size_t i = 0; i < f->nprocs; i++)
		if (f->procs[i].pid == pid)
			return &f->procs[i];
	fail_msg("no row for pid %d", (int)pid);
	return NULL;
}

/* A frame of each source, the BPF one with what the /proc one read asked of it too. */
static void frames(struct sampler *ps, struct frame *pf, struct bpfsrc *bs, struct frame *bf,
		   double interval)
{
	struct bpfsrc_ctx c = {.users = users,
			       .hz = sysconf(_SC_CLK_TCK),
			       .page_kb = (uint64_t)sysconf(_SC_PAGESIZE) / 1024,
			       .cgroups = unified ? sampler_cgroup_names(ps) : NULL,
			       .io = true,
			       .job = true,
			       .side = true,
			       .interval = interval};

	assert_int_equal(sampler_frame(ps, pf), 0);
	bf->nprocs = 0;
	frame_sides_begin(bf, true);
	memset(&bf->tasks, 0, sizeof(bf->tasks));
	bf->uptime_s = uptime();
	bf->mem = pf->mem;
	assert_int_equal(bpfsrc_frame(bs, bf, &c), 0);
}

/* Member name of the BPF row against its expectation w; sources from row.def. */
static void check_member(const char *name, unsigned sources, struct want w)
{
	bool claims = sources & ROW_SRC_BPF;

	if (claims != w.bpf)
		fail_msg("%s: row.def says the BPF source %s it, this test says it %s", name,
			 claims ? "fills" : "does not fill", w.bpf ? "does" : "does not");
	if (!w.ok)
		fail_msg("%s: the BPF source's value is not what /proc's row says", name);
}

static void test_bpf_fills(void **state)
{
	struct bpfsrc *bs = *state;
	struct sampler_opts o = {.needs = PROC_NEED(PROC_FILE_STATM) | PROC_NEED(PROC_FILE_STATUS) |
					  PROC_NEED(PROC_FILE_IO) | PROC_NEED(PROC_FILE_CGROUP) |
					  ROW_NEED_JOB | FRAME_NEED_SIDE};
	struct frame pf = {0}, bf = {0};
	const struct frame_proc *b, *p, *brow, *prow;
	char c;
	int cmd[2], up[2], fd;
	struct sampler *ps;
	double t0;
	pid_t pid;

	fd = mkstemp(file);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(pipe(cmd), 0);
	assert_int_equal(pipe(up), 0);
	pid = kid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(cmd[1]);
		close(up[0]);
		child(cmd[0], up[1], file);
	}
	close(cmd[0]);
	close(up[1]);
	if (read(up[0], &c, 1) != 1) {
		fail_msg("the child did not set up (see its message above)");
	}
	assert_int_equal(sampler_new(&o, &ps), 0);
	settle(pid);
	frames(ps, &pf, bs, &bf, 0);
	t0 = uptime();
	assert_int_equal(write(cmd[1], "g", 1), 1);
	assert_int_equal(read(up[0], &c, 1), 1);
	settle(pid);
	frames(ps, &pf, bs, &bf, uptime() - t0);
	p = prow = row_of(&pf, pid);
	b = brow = row_of(&bf, pid);
#define ROW(type, name, dim, kind, since, when, needs, sources)                                    \
	check_member(#name, sources, BPF_##name);
#define ROW_LOCAL(type, name, dim, needs, sources) check_member(#name, sources, BPF_##name);
/* a side member's expectation reads b and p as the rows' sides */
#define ROW_SIDE(type, name, dim, kind, since, when, needs, sources)                               \
	{                                                                                          \
		_Pragma("GCC diagnostic push") _Pragma("GCC diagnostic ignored \"-Wshadow\"")      \
		    const struct frame_proc_side *b = frame_side(brow),                            \
						 *p = frame_side(prow);                            \
		_Pragma("GCC diagnostic pop")(void) b;                                             \
		(void)p;                                                                           \
		check_member(#name, sources, BPF_##name);                                          \
	}
#define ROW_SIDE_LOCAL(type, name, dim, needs, sources)                                            \
	ROW_SIDE(type, name, dim, , , , needs, sources)
#include "ptop/row.def"
#undef ROW
#undef ROW_LOCAL
#undef ROW_SIDE
#undef ROW_SIDE_LOCAL
	close(cmd[1]);
	close(up[0]);
	frame_free(&pf);
	frame_free(&bf);
	sampler_free(ps);
}

static int teardown(void **state)
{
	(void)state;
	if (kid > 0)
		reap(kid);
	kid = 0;
	unlink(file);
	return 0;
}

int main(void)
{
	struct bpfsrc *bs;
	int err, ret;

	if (!bpfsrc_built()) {
		printf("skipped: ptop was built without BPF\n");
		return 77;
	}
	if (geteuid() != 0) {
		printf("skipped: needs root (the child's uids and SCHED_RR)\n");
		return 77;
	}
	err = bpfsrc_open(&bs, false);
	if (err) {
		printf("skipped: the BPF source does not load here: %s\n", strerror(-err));
		return 77;
	}
	users = users_new();
	unified = bpfsrc_has_cgroups(bs);
	if (!unified)
		printf("note: cgroup and container are left to /proc here: more than the unified "
		       "hierarchy is mounted\n");
	{
		const struct CMUnitTest tests[] = {
		    cmocka_unit_test_prestate_setup_teardown(test_bpf_fills, NULL, teardown, bs)};

		ret = cmocka_run_group_tests(tests, NULL, NULL);
	}
	users_free(users);
	bpfsrc_free(bs);
	return ret;
}
