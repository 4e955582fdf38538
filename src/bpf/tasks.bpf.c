// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tasks.bpf.c: a task iterator (iter/task) that writes one struct ptop_task
 * per task with bpf_seq_write, in the reader's read(). It copies raw kernel
 * fields; the reader (bpfsrc.c) turns them into what /proc shows (state
 * letters, scaled CPU times, uids in its user namespace). What /proc computes
 * from kernel memory the reader cannot see is done here: pids in the
 * reader's pid namespace (pid_nr_ns), RSS summed over the per-CPU counters
 * as statm does, and a kernel thread's long name as proc_task_name() builds.
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>

#include "tasks.h"

char LICENSE[] SEC("license") = "GPL";

#define MAX_CPUS 1024
#define MAX_PID_LEVEL 32
#define PF_WQ_WORKER 0x00000020
#define PF_KTHREAD 0x00200000

const volatile __u32 nr_cpus = 1;

/*
 * Each CPU's per-CPU offset (__per_cpu_offset[]), which kernels without
 * KALLSYMS_ALL do not let a program name: found as the distance between a
 * per-CPU map value's address on that CPU and its per-CPU pointer.
 */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} pcpu_probe SEC(".maps");

/* The record being built: too big for the program's 512-byte stack. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct ptop_iter_record);
} record SEC(".maps");

static unsigned long cpu_off[MAX_CPUS];
static __u32 ncpu_off;

/* The reader's pid namespace, found on the first task of each pass. */
static struct pid_namespace *my_ns;
static __u32 my_level;

static __always_inline struct upid pid_upid(struct pid *p, __u32 level)
{
	struct upid u = {};

	if (level < MAX_PID_LEVEL)
		bpf_core_read(&u, sizeof(u), &p->numbers[level]);
	return u;
}

/*
 * What /proc/PID/io shows of one accounting (do_io_accounting()). Plain
 * loads through the task's BTF pointer: each BPF_CORE_READ would be a helper
 * call and a fault-safe copy, a tenth of a frame's CPU in all.
 */
static __always_inline void task_io(struct task_io_accounting *a, struct ptop_io *o)
{
	o->rchar = a->rchar;
	o->wchar = a->wchar;
	o->read_bytes = a->read_bytes;
	o->write_bytes = a->write_bytes;
	o->syscr = a->syscr;
	o->syscw = a->syscw;
	o->cancelled_write_bytes = a->cancelled_write_bytes;
}

/* The kernfs id of t's unified-hierarchy cgroup, 0 when a link is missing. */
static __always_inline __u64 task_cgroup_id(struct task_struct *t)
{
	struct css_set *cs = t->cgroups;
	struct cgroup *cg;
	struct kernfs_node *kn;

	if (!cs)
		return 0;
	cg = cs->dfl_cgrp;
	if (!cg)
		return 0;
	kn = cg->kn;
	return kn ? kn->id : 0;
}

/* pid_nr_ns(): p's number in the reader's namespace, 0 when it has none there. */
static __always_inline __s32 nr_ns(struct pid *p)
{
	struct upid u;

	if (!p || BPF_CORE_READ(p, level) < my_level)
		return 0;
	u = pid_upid(p, my_level);
	return u.ns == my_ns ? u.nr : 0;
}

/* An address as a number: pointers read back through the stack are plain scalars. */
static __always_inline unsigned long addr_of(const void *p)
{
	unsigned long a = 0;

	bpf_probe_read_kernel(&a, sizeof(a), &p);
	return a;
}

static __always_inline void find_cpu_offsets(void)
{
	unsigned long map = addr_of(&pcpu_probe), base = 0;
	__u32 key = 0, cpu;

	ncpu_off = 0;
	bpf_probe_read_kernel(&base, sizeof(base),
			      (const void *)(map + bpf_core_field_offset(struct bpf_array, pptrs)));
	if (!base)
		return;
	for (cpu = 0; cpu < MAX_CPUS && cpu < nr_cpus; cpu++) {
		void *v = bpf_map_lookup_percpu_elem(&pcpu_probe, &key, cpu);

		if (!v)
			return;
		cpu_off[cpu] = addr_of(v) - base;
	}
	ncpu_off = cpu;
}

/* What rss_cpu() adds each CPU's parts of mm's RSS counters to. */
struct rss_walk {
	unsigned long base[PTOP_MM_N]; /* the counters' per-CPU pointers */
	__s64 sum[PTOP_MM_N];
	__u32 together;
};

/*
 * In memory rather than on the stack: values the verifier knows there (which
 * counters are together, each sum) made each task of the walk a new state
 * for it to check; in a map value they are just numbers. One pass at a time
 * uses it, as the globals below.
 */
static struct rss_walk rss_w;

/* bpf_loop()'s body: one CPU's parts (a loop the verifier checks once, not per CPU). */
static long rss_cpu(__u64 cpu, void *data)
{
	struct rss_walk *w = &rss_w;
	__s32 part[PTOP_MM_N] = {};

	if (cpu >= MAX_CPUS)
		return 1;
	if (w->together) {
		bpf_probe_read_kernel(part, sizeof(part),
				      (const void *)(w->base[0] + cpu_off[cpu]));
	} else {
		for (int i = 0; i < PTOP_MM_N; i++)
			if (w->base[i])
				bpf_probe_read_kernel(&part[i], sizeof(part[i]),
						      (const void *)(w->base[i] + cpu_off[cpu]));
	}
	for (int i = 0; i < PTOP_MM_N; i++)
		w->sum[i] += part[i];
	return 0;
}

/*
 * percpu_counter_sum() of mm's RSS counters into r->rss: each count and
 * every CPU's part not yet folded into it. The kernel allocates the four
 * counters' per-CPU parts together (percpu_counter_init_many()), so one
 * read per CPU fetches all four; counters allocated apart are read one by one.
 */
static __always_inline void rss_sum(struct mm_struct *mm, struct ptop_task *r)
{
	struct rss_walk *w = &rss_w;

	w->together = 1;
	for (int i = 0; i < PTOP_MM_N; i++) {
		w->sum[i] = mm->rss_stat[i].count;
		w->base[i] = (unsigned long)mm->rss_stat[i].counters;
		w->together &= w->base[i] == w->base[0] + (unsigned long)i * sizeof(__s32);
	}
	if (!w->base[0] || !ncpu_off) {
		r->rss_exact = 0;
		for (int i = 0; i < PTOP_MM_N; i++)
			r->rss[i] = w->sum[i];
		return;
	}
	bpf_loop(ncpu_off < MAX_CPUS ? ncpu_off : MAX_CPUS, rss_cpu, NULL, 0);
	for (int i = 0; i < PTOP_MM_N; i++)
		r->rss[i] = w->sum[i];
}

/*
 * What fill_record() is asked to fill beyond what every frame needs
 * (PTOP_WANT_*), set by each program before it calls it. In memory, read
 * at each test: a register the verifier learns a bit of at each test, and
 * every path with its own bits is a state of its own for the rest of the
 * record (four bits made the walk's check 387,000 instructions, 0.6 s of
 * system time at each start, instead of 24,000).
 */
static __u32 fill_want;

/* ~(page size - 1), set by the reader before load: statm's text is in whole pages */
const volatile __u64 page_mask = ~4095ull;

static __always_inline void task_mm(struct task_struct *t, struct ptop_task *r,
				    struct ptop_task_x *rx)
{
	struct mm_struct *mm = t->mm;

	if (!mm)
		return;
	r->has_mm = 1;
	r->rss_exact = 1;
	r->total_vm = mm->total_vm;
	/* task_statm(): the code's pages, whole; data and stack mappings */
	if (fill_want & PTOP_WANT_SIDE) {
		rx->text_pages =
		    (((mm->end_code + ~page_mask) & page_mask) - (mm->start_code & page_mask)) /
		    (~page_mask + 1);
		rx->data_pages = mm->data_vm + mm->stack_vm;
	}
	rss_sum(mm, r);
}

/* What proc_task_name() builds a kernel thread's name from. */
static __always_inline void task_ext(struct task_struct *t, struct ptop_task *r,
				     struct ptop_names *x)
{
	struct kthread *k = (struct kthread *)t->worker_private;

	if (!k)
		return;
	if (t->flags & PF_WQ_WORKER) {
		struct worker *w = (struct worker *)BPF_CORE_READ(k, data);
		struct workqueue_struct *wq;
		struct worker_pool *pool;

		if (!w)
			return;
		r->ext_kind = PTOP_EXT_WORKER;
		wq = BPF_CORE_READ(w, rescue_wq);
		if (wq) {
			r->ext_kind = PTOP_EXT_RESCUER;
			bpf_probe_read_kernel_str(x->ext, sizeof(x->ext), &wq->name);
		}
		r->worker_id = BPF_CORE_READ(w, id);
		pool = BPF_CORE_READ(w, pool);
		if (!pool)
			return;
		r->worker_flags = PTOP_WORKER_POOL;
		r->worker_cpu = BPF_CORE_READ(pool, cpu);
		r->worker_pool = BPF_CORE_READ(pool, id);
		if (BPF_CORE_READ(pool, attrs, nice) < 0)
			r->worker_flags |= PTOP_WORKER_HIGHPRI;
		if (BPF_CORE_READ(w, current_work))
			r->worker_flags |= PTOP_WORKER_BUSY;
		bpf_probe_read_kernel_str(x->desc, sizeof(x->desc), &w->desc);
	} else if (t->flags & PF_KTHREAD) {
		char *name = BPF_CORE_READ(k, full_name);

		if (name && bpf_probe_read_kernel_str(x->ext, sizeof(x->ext), name) > 1)
			r->ext_kind = PTOP_EXT_FULL_NAME;
	}
}

/* Before Linux 5.17 a terminal's foreground group was not in ctrl. */
struct tty_struct___old {
	struct pid *pgrp;
} __attribute__((preserve_access_index));

/* p's number as the initial namespace sees it (a plain load), or as nr_ns() does. */
static __always_inline __s32 job_nr(struct pid *p)
{
	if (my_level)
		return nr_ns(p);
	return p ? p->numbers[0].nr : 0;
}

/*
 * A leader's job control fields as stat shows them (do_task_stat()): its
 * process group and session, its controlling terminal as a device number
 * (new_encode_dev()) and that terminal's foreground group, -1 without one.
 * Plain loads, as task_io(): a BPF_CORE_READ each would double what they
 * cost the walk.
 */
static __always_inline void task_job(struct signal_struct *sig, struct ptop_task_x *r)
{
	struct tty_struct *tty = sig->tty;
	struct tty_driver *drv;
	int minor;

	r->pgrp = job_nr(sig->pids[PIDTYPE_PGID]);
	r->session = job_nr(sig->pids[PIDTYPE_SID]);
	r->tpgid = -1;
	if (!tty)
		return;
	drv = tty->driver;
	if (!drv)
		return;
	minor = drv->minor_start + tty->index;
	r->tty_nr = (minor & 0xff) | (drv->major << 8) | ((minor & ~0xff) << 12);
	if (bpf_core_field_exists(tty->ctrl))
		r->tpgid = job_nr(tty->ctrl.pgrp);
	else
		r->tpgid = job_nr(BPF_CORE_READ((struct tty_struct___old *)tty, pgrp));
}

/*
 * What fd_word() counts, in memory as rss_w is: the open descriptors'
 * bitmap (its address), its whole words, the bits of a last part word, the
 * count. Plain variables: an anonymous struct's made the object's BTF one
 * the kernel refused (an invalid size in .bss).
 */
static __u64 fd_bits;
static __u32 fd_words, fd_tail, fd_n;

/* bpf_loop()'s body: word i of open_fds, its bits counted (no popcount in BPF). */
static long fd_word(__u64 i, void *ctx)
{
	__u64 w = 0;

	if (bpf_probe_read_kernel(&w, sizeof(w), (const void *)(fd_bits + i * sizeof(w))))
		return 1;
	if (i == fd_words)
		w &= (1ull << fd_tail) - 1;
	w = w - ((w >> 1) & 0x5555555555555555ull);
	w = (w & 0x3333333333333333ull) + ((w >> 2) & 0x3333333333333333ull);
	w = (w + (w >> 4)) & 0x0f0f0f0f0f0f0f0full;
	fd_n += (__u32)((w * 0x0101010101010101ull) >> 56);
	return 0;
}

/*
 * A leader's open descriptors as /proc/PID/fd's size counts them since Linux
 * 6.2 (proc_readfd_count(): the bits of open_fds up to max_fds; none without
 * a files table), and its soft descriptor limit as /proc/PID/limits shows
 * it. has_fds stays 0 when the bitmap could not be read whole.
 */
static __always_inline void task_fds(struct task_struct *u, struct signal_struct *sig,
				     struct ptop_task *r, struct ptop_task_x *rx)
{
	struct files_struct *files = u->files;
	struct fdtable *fdt;
	__u32 max;
	long turns;

	rx->nofile = sig->rlim[7].rlim_cur; /* RLIMIT_NOFILE */
	rx->nr_fds = 0;
	r->has_fds = 0;
	if (!files) {
		r->has_fds = 1;
		return;
	}
	fdt = files->fdt;
	if (!fdt)
		return;
	max = fdt->max_fds;
	fd_bits = addr_of(fdt->open_fds);
	fd_words = max / 64;
	fd_tail = max % 64;
	fd_n = 0;
	if (!fd_bits)
		return;
	turns = bpf_loop(fd_words + (fd_tail != 0), fd_word, NULL, 0);
	if (turns != fd_words + (fd_tail != 0))
		return;
	rx->nr_fds = fd_n;
	r->has_fds = 1;
}

/* Where a pass starts: the reader's pid namespace, and each CPU's per-CPU offset. */
static __always_inline void pass_begin(void)
{
	struct task_struct *me = bpf_get_current_task_btf();
	struct pid *p = me->thread_pid;

	my_level = BPF_CORE_READ(p, level);
	my_ns = pid_upid(p, my_level).ns;
	find_cpu_offsets();
}

/*
 * t's record into r (zeroed here), what fill_want asks beyond it into rx
 * (zeroed and written only then), a kernel thread's name parts into x (zeroed by the
 * caller; NULL: left out); 0 when t is not in the reader's namespace.
 * Pointer fields are loaded through u, t itself or an alias of t the verifier
 * does not trust (the walk's): where it trusts the base, each such load costs
 * it four searches of the kernel's BTF by name, in every state it checks
 * (which fields pass trust on: a second of system time at each start). Plain
 * fields stay loads through t: through an untrusted pointer each load is
 * checked for faults when it runs, a tenth more a frame.
 */
static __always_inline int fill_record(struct task_struct *t, struct task_struct *u,
				       struct ptop_task *r, struct ptop_task_x *rx,
				       struct ptop_names *x)
{
	struct task_struct *leader;
	struct signal_struct *sig;
	const struct cred *cred;

	__builtin_memset(r, 0, sizeof(*r));
	if (fill_want)
		__builtin_memset(rx, 0, sizeof(*rx));
	leader = u->group_leader;
	sig = u->signal;
	if (my_level == 0) {
		/* the initial namespace: its numbers are the task's own, read without helpers */
		r->pid = t->pid;
		r->tgid = t->tgid;
		r->ppid = u->real_parent->tgid;
	} else {
		r->pid = nr_ns(u->thread_pid);
		r->tgid = nr_ns(BPF_CORE_READ(sig, pids[PIDTYPE_TGID]));
		r->ppid = nr_ns(BPF_CORE_READ(u, real_parent, signal, pids[PIDTYPE_TGID]));
	}
	if (!r->pid || !r->tgid)
		return 0; /* not in the reader's namespace: /proc would not list it */
	cred = u->cred;
	r->euid = cred->euid.val;
	r->ruid = cred->uid.val;
	r->suid = cred->suid.val;
	r->fsuid = cred->fsuid.val;
	r->state = t->__state;
	r->exit_state = t->exit_state;
	r->flags = t->flags;
	r->prio = t->prio;
	r->static_prio = t->static_prio;
	r->nr_threads = sig->nr_threads;
	r->cpu = t->thread_info.cpu;
	r->utime = t->utime;
	r->stime = t->stime;
	r->runtime = t->se.sum_exec_runtime;
	r->prev_utime = t->prev_cputime.utime;
	r->prev_stime = t->prev_cputime.stime;
	r->sig_utime = sig->utime;
	r->sig_stime = sig->stime;
	r->sig_runtime = sig->sum_sched_runtime;
	r->sig_prev_utime = sig->prev_cputime.utime;
	r->sig_prev_stime = sig->prev_cputime.stime;
	r->start_boottime = t->start_boottime;
	r->cutime = sig->cutime;
	r->cstime = sig->cstime;
	r->nvcsw = t->nvcsw;
	r->nivcsw = t->nivcsw;
	if (fill_want & PTOP_WANT_SIDE) {
		rx->min_flt = t->min_flt;
		rx->maj_flt = t->maj_flt;
		rx->sig_min_flt = sig->min_flt;
		rx->sig_maj_flt = sig->maj_flt;
		rx->cmin_flt = sig->cmin_flt;
		rx->cmaj_flt = sig->cmaj_flt;
	}
	if (fill_want & PTOP_WANT_IO) {
		task_io(&t->ioac, &rx->io);
		task_io(&sig->ioac, &rx->sig_io);
	}
	if (fill_want & PTOP_WANT_CGROUP)
		rx->cgroup_id = task_cgroup_id(u);
	bpf_probe_read_kernel(r->comm, sizeof(r->comm), t->comm);
	/* a thread's memory is its process's, wanted only once the leader has none */
	if (u == leader || leader->exit_state)
		task_mm(u, r, rx);
	if (u == leader && (fill_want & PTOP_WANT_FDS))
		task_fds(u, sig, r, rx);
	if (u == leader && (fill_want & PTOP_WANT_JOB)) {
		rx->policy = t->policy;
		rx->rt_priority = t->rt_priority;
		task_job(sig, rx);
	}
	if (x && (t->flags & PF_KTHREAD))
		task_ext(u, r, x);
	return 1;
}

SEC("iter/task")
int ptop_tasks(struct bpf_iter__task *ctx)
{
	struct task_struct *t = ctx->task;
	struct ptop_iter_record *r;
	__u32 zero = 0;

	r = bpf_map_lookup_elem(&record, &zero);
	if (!t || !r)
		return 0;
	if (ctx->meta->seq_num == 0)
		pass_begin();
	__builtin_memset(&r->ext, 0, sizeof(r->ext));
	fill_want = PTOP_WANT_IO | PTOP_WANT_CGROUP | PTOP_WANT_JOB | PTOP_WANT_SIDE;
	if (fill_record(t, t, &r->task, &r->x, &r->ext))
		bpf_seq_write(ctx->meta->seq, r, sizeof(*r));
	return 0;
}

/*
 * The walk: the same records for every task, written straight into the
 * records map (which the reader maps), by the open-coded task iterator
 * (kernel 6.7 and later), run with BPF_PROG_TEST_RUN. It follows the task
 * list under RCU: no PID lookup, reference or seq_file per task, which cost
 * the iterator above half of a frame. Records come in the task list's order,
 * each process's threads after it; I/O and cgroups only when asked
 * (struct ptop_walk_args, the run's context: the frame leaves them out
 * otherwise, and they cost a tenth of it). Returns how many tasks it found:
 * more than the map holds means the rest were left out.
 */
extern int bpf_iter_task_new(struct bpf_iter_task *it, struct task_struct *task,
			     unsigned int flags) __ksym __weak;
extern struct task_struct *bpf_iter_task_next(struct bpf_iter_task *it) __ksym __weak;
extern void bpf_iter_task_destroy(struct bpf_iter_task *it) __ksym __weak;
extern void bpf_rcu_read_lock(void) __ksym __weak;
extern void bpf_rcu_read_unlock(void) __ksym __weak;
extern void *bpf_rdonly_cast(const void *obj, __u32 btf_id) __ksym __weak;
extern struct task_struct *bpf_task_acquire(struct task_struct *p) __ksym __weak;
extern void bpf_task_release(struct task_struct *p) __ksym __weak;

/* kernel/bpf/task_iter.c's BPF_TASK_ITER_ALL_PROCS, _ALL_THREADS, _PROC_THREADS */
#define ITER_ALL_PROCS 0
#define ITER_ALL_THREADS 1
#define ITER_PROC_THREADS 2

/* An array of value_t the reader maps; it sets the size before load. */
#define MAPPED_ARRAY(value_t)                                                                      \
	struct {                                                                                   \
		__uint(type, BPF_MAP_TYPE_ARRAY);                                                  \
		__uint(map_flags, BPF_F_MMAPABLE);                                                 \
		__uint(max_entries, 1);                                                            \
		__type(key, __u32);                                                                \
		__type(value, value_t);                                                            \
	}

MAPPED_ARRAY(struct ptop_task) records SEC(".maps");
/* The rest of each record, at its index, when the frame asks for some of it (fill_want). */
MAPPED_ARRAY(struct ptop_task_x) records_x SEC(".maps");
/* Where a frame that asks for none of it has the rest written: nowhere read. */
static struct ptop_task_x x_none;
/* Kernel threads' name parts, for the records of the walk (ptop_task.ext_at). */
MAPPED_ARRAY(struct ptop_names) names SEC(".maps");

/*
 * The walk's counts, in memory rather than in registers: a key the verifier
 * knows is a constant, and each turn of the loop a new state to verify
 * (a million instructions before it gives up).
 */
static __u32 walk_n, walk_found, walk_names;

SEC("syscall")
int ptop_walk(struct ptop_walk_args *args)
{
	struct bpf_iter_task it;
	struct task_struct *t;

	walk_n = walk_found = walk_names = 0;
	fill_want = args->want;
	pass_begin();
	bpf_rcu_read_lock();
	bpf_iter_task_new(&it, NULL, ITER_ALL_THREADS);
	while ((t = bpf_iter_task_next(&it))) {
		struct ptop_task *r = bpf_map_lookup_elem(&records, &walk_n);
		struct ptop_task_x *rx = &x_none;
		struct ptop_names *x = NULL;

		if (fill_want)
			rx = bpf_map_lookup_elem(&records_x, &walk_n);
		if (!r || !rx) {
			walk_found++; /* no room: counted, so the reader knows */
			continue;
		}
		if (t->flags & PF_KTHREAD) {
			x = bpf_map_lookup_elem(&names, &walk_names);
			if (x)
				__builtin_memset(x, 0, sizeof(*x));
		}
		/* the cast (kernel 6.2 and later) is inlined: no call when it runs */
		if (fill_record(t, bpf_rdonly_cast(t, bpf_core_type_id_kernel(struct task_struct)),
				r, rx, x)) {
			if (x)
				r->ext_at = ++walk_names;
			walk_n++;
			walk_found++;
		}
	}
	bpf_iter_task_destroy(&it);
	bpf_rcu_read_unlock();
	return (int)walk_found;
}

/*
 * The delta pass: the walk's records for processes, at a cost that follows
 * what changed. A hook on every context switch marks the process of the task
 * switched in, in a bitmap by global tgid (a load, and an atomic OR the first
 * time in a pass). What changes a process without one of its threads running
 * (/proc/PID/comm is written only by the process's own threads):
 * its leader's state, priority and nice (a renice by another process:
 * setpriority() has no tracepoint, and fentry needs a kernel with dynamic
 * ftrace), its memory (reclaim, KSM, migration), its parent (reparented) and
 * its cgroup (moved), all read again each pass, cheaply, from the leader.
 * Each pass follows the list of processes (leaders only, not every thread):
 * a process that was marked, is new, whose parent or cgroup changed, whose
 * leader switched or changed credentials since (a check on the mark, which
 * once missed a setuid under a test run's load), or whose turn it is in the
 * slow check (check_every) is read in full, its
 * threads summed; the others keep the rest from the pass before. A thread
 * running at the pass leaves its process marked, as it runs on without a
 * switch. Each process keeps a slot in the procs map while it lives
 * (pslot: tgid and start time to slot); a slot no pass saw is freed.
 */
MAPPED_ARRAY(struct ptop_proc) procs SEC(".maps");
/* Kernel threads' name parts, one per slot (ptop_task.ext_at: its slot plus one). */
MAPPED_ARRAY(struct ptop_names) pnames SEC(".maps");

/*
 * A process's slot, and what another process can change in it without it
 * running, as the addresses they were at its last full read: its parent
 * (reparented when the parent ends) and its css_set (moved to another
 * cgroup). Beside them, what its leader's own run changes, a check on the
 * switch hook's mark: its credentials (a new struct at each setuid) and its
 * switches. Kept here, not in the mapped record: addresses stay in the kernel.
 */
struct ptop_slot {
	__u32 slot;
	__u32 pad;
	__u64 start_boottime;
	__u64 parent, css_set, cred, switches;
};

/* The reader sizes these before load: the procs map's slots, pid_max's bits. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1);
	__type(key, __s32);
	__type(value, struct ptop_slot);
} pslot SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} free_slots SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} dirty SEC(".maps");

const volatile __u32 delta_cap = 1;

/* One pass at a time: in memory, not registers, as the walk's counts. */
static __u32 d_next, d_nfree, d_found, d_refreshed, d_threads, d_want, d_check, d_slot;
static __u64 d_gen;

/* tgid's process changed or ran: marked for the next pass. */
static __always_inline void mark(__s32 tgid)
{
	__u32 k = (__u32)tgid >> 6;
	__u64 bit = 1ull << (tgid & 63), *w = bpf_map_lookup_elem(&dirty, &k);

	/* a plain load first: a process that runs often is marked already */
	if (w && !(*w & bit))
		__sync_fetch_and_or(w, bit);
}

/* Whether tgid was marked, unmarked now; past the bitmap (pid_max raised since): always. */
static __always_inline bool take_mark(__s32 tgid)
{
	__u32 k = (__u32)tgid >> 6;
	__u64 bit = 1ull << (tgid & 63), *w = bpf_map_lookup_elem(&dirty, &k);

	if (!w)
		return true;
	if (!(*w & bit))
		return false;
	__sync_fetch_and_and(w, ~bit);
	return true;
}

/* Loop turns added to each switch: a hook made heavier for bench/hook-cost; 0 otherwise. */
const volatile __u32 switch_spin = 0;

static long spin_turn(__u32 i, void *ctx)
{
	return 0;
}

SEC("tp_btf/sched_switch")
int ptop_mark_switch(__u64 *ctx)
{
	struct task_struct *next = (struct task_struct *)ctx[2];

	mark(next->tgid);
	if (switch_spin)
		bpf_loop(switch_spin, spin_turn, NULL, 0);
	return 0;
}

/*
 * t's slot (into d_slot) and record: kept, or a new one; *fresh when it is
 * new or its parent, cgroup, credentials or leader's switches changed since
 * (u: t, untrusted). NULL when the map is full.
 */
static __always_inline struct ptop_proc *slot_of(struct task_struct *t, struct task_struct *u,
						 bool *fresh)
{
	__s32 tgid = t->tgid;
	struct ptop_slot *s = bpf_map_lookup_elem(&pslot, &tgid), ns = {};
	__u64 parent = addr_of(u->real_parent), css_set = addr_of(u->cgroups);
	__u64 cred = addr_of(u->cred), switches = t->nvcsw + t->nivcsw;
	struct ptop_proc *p;
	bool popped = false;
	__u32 *f;

	*fresh = false;
	if (s && s->start_boottime == t->start_boottime) {
		if (s->parent != parent || s->css_set != css_set || s->cred != cred ||
		    s->switches != switches) {
			s->parent = parent;
			s->css_set = css_set;
			s->cred = cred;
			s->switches = switches;
			*fresh = true;
		}
		d_slot = s->slot;
		return bpf_map_lookup_elem(&procs, &d_slot);
	}
	*fresh = true;
	if (s) {
		d_slot = s->slot; /* its tgid taken again: the slot goes to the new process */
	} else if (d_nfree) {
		d_nfree--;
		f = bpf_map_lookup_elem(&free_slots, &d_nfree);
		if (!f)
			return NULL;
		d_slot = *f;
		popped = true;
	} else if (d_next < delta_cap) {
		d_slot = d_next++;
	} else {
		return NULL;
	}
	ns.slot = d_slot;
	ns.start_boottime = t->start_boottime;
	ns.parent = parent;
	ns.css_set = css_set;
	ns.cred = cred;
	ns.switches = switches;
	if (bpf_map_update_elem(&pslot, &tgid, &ns, BPF_ANY)) {
		if (popped)
			d_nfree++;
		else if (!s)
			d_next--;
		return NULL;
	}
	p = bpf_map_lookup_elem(&procs, &d_slot);
	if (p)
		p->gtgid = tgid;
	return p;
}

/* t's record and its live threads' sums, in full; t's process stays marked while one runs. */
static __always_inline void refresh(struct task_struct *t, struct task_struct *u,
				    struct ptop_proc *p)
{
	struct bpf_iter_task th_it;
	struct task_struct *th, *ref;
	struct ptop_names *x = NULL;
	struct ptop_io io;
	bool running = false;

	if (t->flags & PF_KTHREAD) {
		x = bpf_map_lookup_elem(&pnames, &d_slot);
		if (x)
			__builtin_memset(x, 0, sizeof(*x));
	}
	if (!fill_record(t, u, &p->t, &p->tx, x))
		p->t.pid = 0; /* not in the reader's namespace: kept, not shown */
	else if (x)
		p->t.ext_at = d_slot + 1;
	p->ut = p->st = p->rt = 0;
	p->min_flt = p->maj_flt = 0;
	__builtin_memset(&p->io, 0, sizeof(p->io));
	/* its threads' iterator wants a task held, not one RCU keeps */
	ref = bpf_task_acquire(t);
	if (!ref)
		return;
	bpf_iter_task_new(&th_it, ref, ITER_PROC_THREADS);
	while ((th = bpf_iter_task_next(&th_it))) {
		p->ut += th->utime;
		p->st += th->stime;
		p->rt += th->se.sum_exec_runtime;
		p->min_flt += th->min_flt;
		p->maj_flt += th->maj_flt;
		running |= th->on_cpu;
		if (d_want & PTOP_WANT_IO) {
			task_io(&th->ioac, &io);
			p->io.rchar += io.rchar;
			p->io.wchar += io.wchar;
			p->io.read_bytes += io.read_bytes;
			p->io.write_bytes += io.write_bytes;
			p->io.syscr += io.syscr;
			p->io.syscw += io.syscw;
			p->io.cancelled_write_bytes += io.cancelled_write_bytes;
		}
		d_threads++;
	}
	bpf_iter_task_destroy(&th_it);
	bpf_task_release(ref);
	if (running)
		mark(t->tgid);
	d_refreshed++;
}

/* What changes in a process that did not run: its leader's state, and its memory. */
static __always_inline void touch(struct task_struct *t, struct task_struct *u, struct ptop_proc *p)
{
	p->t.state = t->__state;
	p->t.exit_state = t->exit_state;
	p->t.flags = t->flags;
	p->t.prio = t->prio;
	p->t.static_prio = t->static_prio;
	p->t.has_mm = 0;
	p->t.rss_exact = 0;
	p->t.total_vm = 0;
	for (int i = 0; i < PTOP_MM_N; i++)
		p->t.rss[i] = 0;
	task_mm(u, &p->t, &p->tx);
	/* another process can raise its limit (prlimit) or share its table (CLONE_FILES) */
	if (d_want & PTOP_WANT_FDS)
		task_fds(u, u->signal, &p->t, &p->tx);
}

/* bpf_loop()'s body: slot i freed when no pass saw its process this time. */
static long sweep(__u64 i, void *ctx)
{
	__u32 k = (__u32)i;
	struct ptop_proc *p = bpf_map_lookup_elem(&procs, &k);
	struct ptop_slot *s;
	__u32 *f;
	__s32 tgid;

	if (!p)
		return 1;
	if (!p->gen || p->gen == d_gen)
		return 0;
	tgid = p->gtgid;
	s = bpf_map_lookup_elem(&pslot, &tgid);
	if (s && s->slot == k)
		bpf_map_delete_elem(&pslot, &tgid);
	p->t.pid = 0;
	p->gen = 0;
	f = bpf_map_lookup_elem(&free_slots, &d_nfree);
	if (f) {
		*f = k;
		d_nfree++;
	}
	return 0;
}

/* One pass; returns the processes found (more than the map's slots: some left out). */
SEC("syscall")
int ptop_delta(struct ptop_delta_args *args)
{
	struct bpf_iter_task it;
	struct task_struct *t;

	d_want = fill_want = args->want;
	d_check = args->check_every;
	d_found = d_refreshed = d_threads = 0;
	d_gen++;
	pass_begin();
	bpf_rcu_read_lock();
	bpf_iter_task_new(&it, NULL, ITER_ALL_PROCS);
	while ((t = bpf_iter_task_next(&it))) {
		struct task_struct *u =
		    bpf_rdonly_cast(t, bpf_core_type_id_kernel(struct task_struct));
		struct ptop_proc *p;
		bool fresh;

		d_found++;
		p = slot_of(t, u, &fresh);
		if (!p)
			continue; /* no room: d_found past the slots tells the reader */
		if (take_mark(t->tgid) || fresh || (d_check && d_slot % d_check == d_gen % d_check))
			refresh(t, u, p);
		else
			touch(t, u, p);
		p->gen = d_gen;
	}
	bpf_iter_task_destroy(&it);
	bpf_rcu_read_unlock();
	bpf_loop(d_next, sweep, NULL, 0);
	args->slots = d_next;
	args->refreshed = d_refreshed;
	args->threads = d_threads;
	return (int)d_found;
}

/*
 * The exit hook: one record (struct ptop_exit) per process that ends, into a
 * ring buffer the reader drains each frame. Its CPU is not taken at exit:
 * sum_exec_runtime is brought up to date only at ticks and switches, so at
 * the exit tracepoint a 1 ms process shows a fraction of its time or none
 * (a /bin/true loop: 38% of what wait4() reports), and the exit itself
 * (tearing down the mm, closing files) is still to run. The last thread's
 * exit writes the record into a hash (ptop_exit_key), with the CPU as it
 * stands; when the leader's task is freed (after its parent reaped it and a
 * grace period), its CPU and I/O are taken again from signal, which by then
 * holds every thread's whole time, as wait4() reports it, and the record
 * goes to the ring. A record whose free does not come (here some frees wait
 * for minutes: 3 of 1,000 exits) the reader takes from the hash after a
 * while, with the CPU at exit (bpfsrc.c, EXIT_LATE).
 */

/* The reader's pid namespace (the hooks run in other tasks): its level and inode number. */
const volatile __u32 exit_level = 0;
const volatile __u32 exit_ns_inum = 0;

/*
 * Processes that ended and are not yet freed: zombies waiting for their
 * parent, and an RCU grace period after. Full (4,096 of them), an exit is
 * counted lost.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, 4096);
	__type(key, struct ptop_exit_key);
	__type(value, struct ptop_exit);
} exit_stash SEC(".maps");

/* The records; the reader sets the size before load (bpfsrc.c, EXIT_RING). */
struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);
} exits SEC(".maps");

/* What did not fit: counted, CPU included, so the reader's accounting stays whole. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct ptop_exit_lost);
} exit_lost SEC(".maps");

/* The record being built at exit: too big for the stack beside the rest. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct ptop_exit);
} exit_record SEC(".maps");

/* The tracepoint's group_dead argument (Linux 6.16); before, signal->live says. */
struct trace_event_raw_sched_process_exit___gd {
	bool group_dead;
} __attribute__((preserve_access_index));

#define SIGNAL_GROUP_EXIT 0x00000004

/* p's number in the reader's pid namespace, 0 when it has none there. */
static __always_inline __s32 exit_nr(struct pid *p)
{
	struct upid u;

	if (!p || BPF_CORE_READ(p, level) < exit_level)
		return 0;
	u = pid_upid(p, exit_level);
	return u.ns && BPF_CORE_READ(u.ns, ns.inum) == exit_ns_inum ? u.nr : 0;
}

static __always_inline void exit_lose(__u64 records, __u64 runtime)
{
	struct ptop_exit_lost *l;
	__u32 zero = 0;

	l = bpf_map_lookup_elem(&exit_lost, &zero);
	if (!l)
		return;
	__sync_fetch_and_add(&l->records, records);
	__sync_fetch_and_add(&l->runtime, runtime);
}

static __always_inline void exit_add(struct ptop_exit *e, struct task_struct *t)
{
	struct ptop_io io;

	e->runtime += t->se.sum_exec_runtime;
	e->utime += t->utime;
	e->stime += t->stime;
	e->min_flt += t->min_flt;
	e->maj_flt += t->maj_flt;
	task_io(&t->ioac, &io);
	e->io.rchar += io.rchar;
	e->io.wchar += io.wchar;
	e->io.read_bytes += io.read_bytes;
	e->io.write_bytes += io.write_bytes;
	e->io.syscr += io.syscr;
	e->io.syscw += io.syscw;
	e->io.cancelled_write_bytes += io.cancelled_write_bytes;
}

/* The last thread of a process exits: its record as it stands, kept for the free. */
SEC("tp_btf/sched_process_exit")
int ptop_exit(__u64 *ctx)
{
	struct task_struct *t = (struct task_struct *)ctx[0], *leader;
	struct signal_struct *sig = t->signal;
	struct ptop_exit_key k = {};
	struct ptop_exit *e;
	__u32 zero = 0;
	bool dead;

	/* before 6.16, two threads ending at once may both see 0: both keep the same */
	if (bpf_core_field_exists(struct trace_event_raw_sched_process_exit___gd, group_dead))
		dead = ctx[1] & 1;
	else
		dead = !sig->live.counter;
	e = bpf_map_lookup_elem(&exit_record, &zero);
	if (!dead || !e)
		return 0;
	__builtin_memset(e, 0, sizeof(*e));
	e->tgid = exit_level == 0 ? t->tgid : exit_nr(BPF_CORE_READ(sig, pids[PIDTYPE_TGID]));
	if (!e->tgid)
		return 0; /* not in the reader's namespace: /proc would not list it */
	e->ppid = exit_level == 0
		      ? t->real_parent->tgid
		      : exit_nr(BPF_CORE_READ(t, real_parent, signal, pids[PIDTYPE_TGID]));
	leader = t->group_leader;
	e->euid = leader->cred->euid.val;
	e->start_boottime = leader->start_boottime;
	e->end_boottime = bpf_ktime_get_boot_ns();
	/* what wait() reports (wait_task_zombie()) */
	e->exit_code = (sig->flags & SIGNAL_GROUP_EXIT) ? sig->group_exit_code : leader->exit_code;
	e->maxrss = sig->maxrss; /* this exit raised it to the mm's peak */
	e->cgroup_id = task_cgroup_id(t);
	bpf_probe_read_kernel(e->comm, sizeof(e->comm), leader->comm);
	/* as it stands: the released threads', this one's, and the leader's when it went first */
	e->runtime = sig->sum_sched_runtime;
	e->utime = sig->utime;
	e->stime = sig->stime;
	e->min_flt = sig->min_flt;
	e->maj_flt = sig->maj_flt;
	e->cmin_flt = sig->cmin_flt;
	e->cmaj_flt = sig->cmaj_flt;
	task_io(&sig->ioac, &e->io);
	exit_add(e, t);
	if (leader != t)
		exit_add(e, leader);
	k.tgid = t->tgid;
	k.start_boottime = e->start_boottime;
	if (bpf_map_update_elem(&exit_stash, &k, e, BPF_ANY))
		exit_lose(1, e->runtime);
	return 0;
}

/*
 * A task is freed: when it is the leader of a process whose exit was kept,
 * the record, with its CPU and I/O as signal sums them now: every thread's
 * whole time. A leader an exec replaced is freed as a thread: skipped.
 */
SEC("tp_btf/sched_process_free")
int ptop_exit_free(__u64 *ctx)
{
	struct task_struct *t = (struct task_struct *)ctx[0];
	struct ptop_exit_key k = {};
	struct signal_struct *sig;
	struct ptop_exit *s, *e;

	if (t->group_leader != t)
		return 0;
	k.tgid = t->tgid;
	k.start_boottime = t->start_boottime;
	s = bpf_map_lookup_elem(&exit_stash, &k);
	if (!s)
		return 0;
	sig = t->signal;
	e = bpf_ringbuf_reserve(&exits, sizeof(*e), 0);
	if (!e) {
		if (!bpf_map_delete_elem(&exit_stash, &k))
			exit_lose(1, sig->sum_sched_runtime);
		return 0;
	}
	__builtin_memcpy(e, s, sizeof(*e));
	e->runtime = sig->sum_sched_runtime;
	e->utime = sig->utime;
	e->stime = sig->stime;
	e->min_flt = sig->min_flt;
	e->maj_flt = sig->maj_flt;
	task_io(&sig->ioac, &e->io);
	/* the reader took it meanwhile, as late: its record is out */
	if (bpf_map_delete_elem(&exit_stash, &k)) {
		bpf_ringbuf_discard(e, 0);
		return 0;
	}
	bpf_ringbuf_submit(e, 0);
	return 0;
}
