// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * json.c: JSON Lines: one object per frame, on one line, with the system
 * totals and every shown process. Keys are stable; units are in their names.
 */
#include <string.h>

#include "ptop/output.h"

static void key(struct sbuf *b, const char *k, bool comma)
{
	if (comma)
		sbuf_addc(b, ',');
	sbuf_addc(b, '"');
	sbuf_adds(b, k);
	sbuf_adds(b, "\":");
}

static void kv_u(struct sbuf *b, const char *k, uint64_t v, bool comma)
{
	key(b, k, comma);
	sbuf_addu(b, v);
}

static void kv_i(struct sbuf *b, const char *k, int64_t v, bool comma)
{
	key(b, k, comma);
	sbuf_addi(b, v);
}

static void kv_f(struct sbuf *b, const char *k, double v, int dec, bool comma)
{
	key(b, k, comma);
	sbuf_addf(b, v, dec);
}

/*
 * How a process ended, as wait() told its parent: exit_code, or signal (and
 * core_dumped); when (end_uptime_s, as start times count), its peak RSS and
 * its CPU over its life, all threads, in ns (utime and stime split it).
 */
static void json_exit(struct sbuf *b, const struct frame *f, const struct frame_proc *p, bool comma)
{
	int st = p->exit_status;

	key(b, "exit", comma);
	sbuf_addc(b, '{');
	if ((st & 0x7f) == 0) {
		kv_i(b, "exit_code", (st >> 8) & 0xff, false);
	} else {
		kv_i(b, "signal", st & 0x7f, false);
		key(b, "core_dumped", true);
		sbuf_adds(b, st & 0x80 ? "true" : "false");
	}
	kv_f(b, "end_uptime_s", f->hz > 0 ? (double)p->end_ticks / (double)f->hz : 0, 2, true);
	kv_u(b, "maxrss_kb", p->maxrss_kb, true);
	kv_u(b, "cpu_ns", p->run_ns, true);
	sbuf_addc(b, '}');
}

static void json_proc(struct sbuf *b, const struct frame *f, const struct output_view *v,
		      const struct frame_proc *p)
{
	const enum field_id *cols;
	size_t ncols = output_columns(v, NULL, FIELD_COUNT, &cols);
	bool comma = false;

	sbuf_addc(b, '{');
	/* every column with a key, as the column table keeps it (or --fields chose) */
	for (size_t c = 0; c < ncols; c++) {
		int id = cols ? (int)cols[c] : (int)c;
		const char *s;
		size_t n;

		if (!field_defs[id].key || (!cols && field_defs[id].if_asked) ||
		    (!cols && field_defs[id].if_counting && !f->counters.on))
			continue;
		if (field_absent((enum field_id)id, p) && field_defs[id].if_looked)
			continue;
		/* how a process ended is an object; the live ones have none */
		if (id == FIELD_EXIT) {
			if (p->exited)
				json_exit(b, f, p, comma);
			comma = comma || p->exited;
			continue;
		}
		key(b, field_defs[id].key, comma);
		comma = true;
		/* unknown (io refused) is null, never a 0 that is not a zero */
		if (field_absent((enum field_id)id, p))
			sbuf_adds(b, "null");
		else if (field_string((enum field_id)id, p, &s, &n))
			json_string(b, s, n);
		else
			field_number(b, (enum field_id)id, p);
		if (id == FIELD_COMMAND && p->has_cmd) {
			key(b, "cmdline", true);
			json_string(b, f->strings.p + p->cmd_off, p->cmd_len);
		}
	}
	if (f->counters.on && p->has_ctr) {
		enum ctr_state rs;

		key(b, "counters", true);
		sbuf_adds(b, f->counters.hardware ? "{\"source\":\"hardware\""
						  : "{\"source\":\"software\"");
		for (int e = 0; e < f->counters.nevents; e++) {
			sbuf_addc(b, ',');
			json_string(b, f->counters.names[e], strlen(f->counters.names[e]));
			sbuf_addc(b, ':');
			/* no count is null, never a 0 that is not a zero */
			if (ctr_state(f, p, e) == CTR_COUNTED)
				sbuf_addf(b, p->ctr[e], 0);
			else
				sbuf_adds(b, "null");
		}
		if (p->ctr_partial)
			sbuf_adds(b, ",\"partial\":true");
		/* the row's state, as the text formats say it: multiplexed out for the whole
		 * interval, or attached during it (its counts start with the next). The scale
		 * and the figures derived from the counts are the row's columns (ctr_scale,
		 * ipc, ...), not repeated here */
		rs = ctr_state(f, p, -1);
		if (rs == CTR_NOT_COUNTED)
			sbuf_adds(b, ",\"not_counted\":true");
		else if (rs == CTR_COUNTING)
			sbuf_adds(b, ",\"counting\":true");
		sbuf_addc(b, '}');
	}
	sbuf_addc(b, '}');
}

/* What the text output and the pane say of the counters beyond the counts. */
static void json_counters_why(struct sbuf *b, const struct frame_counters *c)
{
	if (c->refused) {
		const char *e = strerror(-c->refused_error);

		kv_u(b, "refused", c->refused, true);
		key(b, "refused_error", true);
		json_string(b, e, strlen(e));
		if (c->paranoid != PERF_PARANOID_UNKNOWN)
			kv_i(b, "perf_event_paranoid", c->paranoid, true);
	}
	if (c->children_counted)
		sbuf_adds(b, ",\"children_counted\":true");
	if (c->nsplit > 1)
		kv_i(b, "groups", c->nsplit, true);
	if (c->npmus) {
		key(b, "pmus", true);
		sbuf_addc(b, '[');
		for (int i = 0; i < c->npmus; i++) {
			if (i)
				sbuf_addc(b, ',');
			json_string(b, c->pmus[i], strlen(c->pmus[i]));
		}
		sbuf_addc(b, ']');
	}
	if (c->na) {
		bool first = true;

		/* counted in the kernel, which this user may not count: null in the rows */
		key(b, "user_only_na", true);
		sbuf_addc(b, '[');
		for (int e = 0; e < c->nevents; e++) {
			if (!(c->na >> e & 1))
				continue;
			if (!first)
				sbuf_addc(b, ',');
			first = false;
			json_string(b, c->names[e], strlen(c->names[e]));
		}
		sbuf_addc(b, ']');
	}
	if (c->nfailed) {
		key(b, "failed", true);
		sbuf_addc(b, '[');
		for (int e = 0; e < c->nfailed; e++) {
			if (e)
				sbuf_addc(b, ',');
			sbuf_adds(b, "{\"event\":");
			json_string(b, c->failed[e], strlen(c->failed[e]));
			key(b, "reason", true);
			json_string(b, c->failed_why[e], strlen(c->failed_why[e]));
			sbuf_addc(b, '}');
		}
		sbuf_addc(b, ']');
	}
}

/* The sentences the text output and the Counters pane say (ctr_notes()), each with its key. */
static void json_counters_notes(struct sbuf *b, const struct frame_counters *c)
{
	struct ctr_note notes[CTR_NOTES_MAX];
	size_t n = ctr_notes(c, false, notes);

	key(b, "notes", true);
	sbuf_addc(b, '[');
	for (size_t i = 0; i < n; i++) {
		sbuf_adds(b, i ? ",{\"key\":" : "{\"key\":");
		json_string(b, notes[i].key, strlen(notes[i].key));
		key(b, "text", true);
		json_string(b, notes[i].text, strlen(notes[i].text));
		sbuf_addc(b, '}');
	}
	sbuf_addc(b, ']');
}

static void json_counters(struct sbuf *b, const struct frame *f)
{
	const struct frame_counters *c = &f->counters;

	key(b, "counters", true);
	sbuf_adds(b, "{\"events\":[");
	for (int e = 0; e < c->nevents; e++) {
		if (e)
			sbuf_addc(b, ',');
		json_string(b, c->names[e], strlen(c->names[e]));
	}
	sbuf_adds(b, c->hardware ? "],\"source\":\"hardware\"" : "],\"source\":\"software\"");
	if (c->why_software) {
		key(b, "reason", true);
		json_string(b, c->why_software, strlen(c->why_software));
	}
	kv_u(b, "attached", c->attached, true);
	kv_u(b, "not_attached", c->not_attached, true);
	kv_u(b, "partial", c->partial, true);
	json_counters_why(b, c);
	json_counters_notes(b, c);
	if (c->last_error) {
		const char *e = strerror(-c->last_error);

		key(b, "last_error", true);
		json_string(b, e, strlen(e));
	}
	key(b, "self", true);
	sbuf_adds(b, c->self_rdpmc ? "{\"read\":\"rdpmc\"" : "{\"read\":\"syscall\"");
	for (int e = 0; e < c->nevents; e++) {
		sbuf_addc(b, ',');
		json_string(b, c->names[e], strlen(c->names[e]));
		sbuf_addc(b, ':');
		sbuf_addf(b, c->self_ctr[e], 0);
	}
	sbuf_adds(b, "}}");
}

static void json_breakpoints(struct sbuf *b, const struct frame *f)
{
	key(b, "breakpoints", true);
	sbuf_addc(b, '[');
	for (size_t i = 0; i < f->nbps; i++) {
		const struct frame_bp *bp = &f->bps[i];

		if (i)
			sbuf_addc(b, ',');
		sbuf_addc(b, '{');
		kv_i(b, "pid", bp->pid, false);
		sbuf_printf(b, ",\"addr\":\"0x%llx\"", (unsigned long long)bp->addr);
		kv_i(b, "len", bp->len, true);
		key(b, "type", true);
		json_string(b, bp->type, strlen(bp->type));
		kv_u(b, "hits", bp->hits, true);
		kv_f(b, "hits_per_s", bp->hits_per_s, 1, true);
		kv_i(b, "threads", bp->threads, true);
		if (bp->label[0]) {
			key(b, "watch", true);
			json_string(b, bp->label, strlen(bp->label));
		}
		key(b, "comm", true);
		json_string(b, bp->comm, strlen(bp->comm));
		key(b, "exited", true);
		sbuf_adds(b, bp->gone ? "true" : "false");
		/* the watch ended because the process ran another program (execve) */
		key(b, "execd", true);
		sbuf_adds(b, bp->execd ? "true" : "false");
		/* hits/s times the per-hit cost calibrated on this machine; null unknown */
		if (bp->cpu_pct >= 0) {
			kv_f(b, "est_cpu_pct", bp->cpu_pct, 2, true);
		} else {
			key(b, "est_cpu_pct", true);
			sbuf_adds(b, "null");
		}
		sbuf_addc(b, '}');
	}
	sbuf_addc(b, ']');
	if (f->bp_hit_ns > 0)
		kv_f(b, "breakpoint_hit_ns", f->bp_hit_ns, 1, true);
	if (f->bp_no_hits) {
		key(b, "breakpoints_note", true);
		sbuf_adds(b, "\"this machine counts no breakpoint hits (its hypervisor drops debug "
			     "exceptions)\"");
	}
}

/* When, how long since the last frame, and the machine's figures top's first line has. */
static void json_system(struct sbuf *b, const struct frame *f)
{
	char when[RFC3339_LEN + 1];

	fmt_time_rfc3339(when, &f->time);
	sbuf_adds(b, "{\"time\":\"");
	sbuf_adds(b, when);
	sbuf_addc(b, '"');
	kv_f(b, "interval_s", f->interval_s, 3, true);
	kv_f(b, "uptime_s", f->uptime_s, 2, true);
	key(b, "load", true);
	sbuf_addc(b, '[');
	for (int i = 0; i < 3; i++) {
		if (i)
			sbuf_addc(b, ',');
		sbuf_addf(b, f->load[i], 2);
	}
	sbuf_addc(b, ']');
	kv_u(b, "users", f->nusers, true);
	kv_u(b, "hz", (uint64_t)f->hz, true);
	kv_u(b, "ncpu", f->ncpu, true);
}

/* "some":{"avg10":1.23,"avg60":0.50,"avg300":0.10,"total_us":123456}: as the kernel prints them */
static void json_pressure_line(struct sbuf *b, const char *kind, const struct proc_pressure_line *l,
			       bool comma)
{
	static const char *const avg[3] = {"avg10", "avg60", "avg300"};

	key(b, kind, comma);
	sbuf_addc(b, '{');
	for (int i = 0; i < 3; i++) {
		key(b, avg[i], i > 0);
		sbuf_printf(b, "%u.%02u", l->avg_x100[i] / 100, l->avg_x100[i] % 100);
	}
	kv_u(b, "total_us", l->total_us, true);
	sbuf_addc(b, '}');
}

/*
 * The machine's pressure (/proc/pressure) when it was read: per resource its
 * some and, where the kernel has it, full line; a resource that could not be
 * read is null. No object when none was read (a kernel without PSI, psi=0,
 * a replay of a recording without it).
 */
static void json_psi(struct sbuf *b, const struct frame *f)
{
	static const char *const names[PSI_RESOURCES] = {
	    [PSI_CPU] = "cpu", [PSI_MEMORY] = "memory", [PSI_IO] = "io"};
	const struct frame_psi *psi = &f->psi;
	int nread = 0;

	for (int r = 0; r < PSI_RESOURCES; r++)
		nread += psi->asked && !psi->error[r];
	if (!nread)
		return;
	key(b, "psi", true);
	sbuf_addc(b, '{');
	for (int r = 0; r < PSI_RESOURCES; r++) {
		key(b, names[r], r > 0);
		if (psi->error[r]) {
			sbuf_adds(b, "null");
			continue;
		}
		sbuf_addc(b, '{');
		json_pressure_line(b, "some", &psi->res[r].some, false);
		if (psi->res[r].has_full)
			json_pressure_line(b, "full", &psi->res[r].full, true);
		sbuf_addc(b, '}');
	}
	sbuf_addc(b, '}');
}

static void json_tasks(struct sbuf *b, const struct frame *f, const struct output_view *v)
{
	const struct frame_tasks *t = output_tasks(f, v);

	/* what the rows and the task counts are: processes, or threads with -H */
	key(b, "rows", true);
	sbuf_adds(b, f->threads ? "\"threads\"" : "\"processes\"");
	key(b, "tasks", true);
	sbuf_addc(b, '{');
	kv_u(b, "total", t->total, false);
	kv_u(b, "running", t->running, true);
	kv_u(b, "sleeping", t->sleeping, true);
	kv_u(b, "stopped", t->stopped, true);
	kv_u(b, "zombie", t->zombie, true);
	sbuf_addc(b, '}');
}

static void json_cpu(struct sbuf *b, const struct frame *f)
{
	key(b, "cpu", true);
	sbuf_addc(b, '{');
	kv_f(b, "user", f->cpu.user, 1, false);
	kv_f(b, "system", f->cpu.system, 1, true);
	kv_f(b, "nice", f->cpu.nice, 1, true);
	kv_f(b, "idle", f->cpu.idle, 1, true);
	kv_f(b, "iowait", f->cpu.iowait, 1, true);
	kv_f(b, "irq", f->cpu.irq, 1, true);
	kv_f(b, "softirq", f->cpu.softirq, 1, true);
	kv_f(b, "steal", f->cpu.steal, 1, true);
	sbuf_addc(b, '}');
}

static void json_memory(struct sbuf *b, const struct frame *f)
{
	key(b, "mem", true);
	sbuf_addc(b, '{');
	kv_u(b, "total_kb", f->mem.total, false);
	kv_u(b, "free_kb", f->mem.free, true);
	kv_u(b, "used_kb", f->mem.used, true);
	kv_u(b, "buff_cache_kb", f->mem.buff_cache, true);
	kv_u(b, "avail_kb", f->mem.avail, true);
	sbuf_addc(b, '}');

	key(b, "swap", true);
	sbuf_addc(b, '{');
	kv_u(b, "total_kb", f->swap.total, false);
	kv_u(b, "free_kb", f->swap.free, true);
	kv_u(b, "used_kb", f->swap.used, true);
	sbuf_addc(b, '}');
}

/* Seconds as whole ns; 0 for what no clock gives (below 0, not a number, past 2^64 ns). */
static uint64_t whole_ns(double s)
{
	double ns = s * 1e9 + 0.5;

	return ns >= 0 && ns < 18446744073709551616.0 ? (uint64_t)ns : 0;
}

/* What building this frame cost ptop, and how its rows were read. */
static void json_cost(struct sbuf *b, const struct frame *f)
{
	const char *src = f->cost.source ? f->cost.source : "procfs";

	key(b, "cost", true);
	sbuf_addc(b, '{');
	kv_f(b, "cpu_ms", f->cost.cpu_s * 1e3, 3, false);
	kv_f(b, "wall_ms", f->cost.wall_s * 1e3, 3, true);
	kv_f(b, "us_per_process", f->nprocs ? f->cost.cpu_s * 1e6 / (double)f->nprocs : 0, 3, true);
	kv_u(b, "fds_held", f->cost.fds_held, true);
	kv_u(b, "vanished", f->cost.vanished, true);
	kv_u(b, "unreadable", f->cost.unreadable, true);
	key(b, "source", true);
	json_string(b, src, strlen(src));
	kv_u(b, "read_full", f->cost.read_full, true);
	kv_u(b, "read_kept", f->cost.read_kept, true);
	kv_u(b, "read_bpf", f->cost.read_bpf, true);
	/* what the exit hook cost the machine: its programs' run time, the threads that ended */
	if (f->cost.hook_known) {
		kv_u(b, "exit_hook_ns", whole_ns(f->cost.hook_s), true);
		kv_u(b, "exit_hook_runs", f->cost.hook_runs, true);
	}
	/* the delta's switch hook: context switches times a run's calibrated cost */
	if (f->cost.switch_known) {
		kv_u(b, "switch_hook_ns", whole_ns(f->cost.switch_s), true);
		kv_u(b, "switch_hook_runs", f->cost.switch_runs, true);
		kv_f(b, "switch_hook_run_ns", f->cost.switch_run_ns, 1, true);
		kv_f(b, "switch_hook_pct",
		     f->interval_s > 0 ? f->cost.switch_s * 100.0 / f->interval_s : 0, 3, true);
	}
	sbuf_addc(b, '}');
}

/*
 * Where the interval's busy CPU went (frame_account), CPU-seconds: the rows,
 * the processes that ended (an exit hook's records and what the buffer lost)
 * or, without a hook, the parents' children's share; accounted_pct is the
 * share of busy the rows explain, null when nothing was busy.
 */
static void json_accounted(struct sbuf *b, const struct frame *f)
{
	const struct frame_account *a = &f->acct;
	double pct = frame_accounted_pct(a);

	key(b, "accounted", true);
	sbuf_addc(b, '{');
	kv_f(b, "busy_s", a->busy_s, 3, false);
	kv_f(b, "irq_s", a->irq_s, 3, true);
	kv_f(b, "rows_s", a->rows_s, 3, true);
	kv_f(b, "children_s", a->children_s, 3, true);
	key(b, "exits", true);
	sbuf_adds(b, a->exits ? "true" : "false");
	if (a->exits) {
		kv_f(b, "exited_s", a->exited_s, 3, true);
		kv_u(b, "exited", f->nexited, true);
		kv_u(b, "lost", a->lost, true);
		kv_f(b, "lost_s", a->lost_s, 3, true);
	}
	key(b, "accounted_pct", true);
	if (pct >= 0)
		sbuf_addf(b, pct, 1);
	else
		sbuf_adds(b, "null");
	sbuf_addc(b, '}');
}

void output_json_frame(struct sbuf *b, const struct frame *f, const struct output_view *v,
		       const struct frame_proc *const *rows, size_t nrows, bool first)
{
	json_system(b, f);
	json_tasks(b, f, v);
	json_cpu(b, f);
	json_memory(b, f);
	json_psi(b, f);
	json_cost(b, f);
	json_accounted(b, f);
	if (f->counters.on)
		json_counters(b, f);
	if (f->nbps)
		json_breakpoints(b, f);
	key(b, "processes", true);
	sbuf_addc(b, '[');
	for (size_t i = 0; i < nrows; i++) {
		if (i)
			sbuf_addc(b, ',');
		json_proc(b, f, v, rows[i]);
	}
	sbuf_addc(b, ']');
	/* the processes that ended in the interval, with an exit hook: those the presenter
	 * chose, or every one */
	if (f->acct.exits) {
		size_t n = v && v->exited ? v->nexited : f->nexited;

		key(b, "exited", true);
		sbuf_addc(b, '[');
		for (size_t i = 0; i < n; i++) {
			if (i)
				sbuf_addc(b, ',');
			json_proc(b, f, v, v && v->exited ? v->exited[i] : &f->exited[i]);
		}
		sbuf_addc(b, ']');
	}
	sbuf_adds(b, "}\n");
	(void)first;
}

const struct output_format_def output_format_json = {
    .name = "json",
    .summary = N_("one object per line and frame (JSON Lines)"),
    .every_column = true,
    .frame = output_json_frame,
};
