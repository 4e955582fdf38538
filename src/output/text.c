// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * text.c: the top-like text format: top -b's five summary lines, a blank
 * line, the column headings and one line per process, so that people and
 * scripts used to `top -b` read it without surprise.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "ptop/output.h"

static const enum field_id text_columns[] = {
    FIELD_PID, FIELD_USER,  FIELD_PR,  FIELD_NI,  FIELD_VIRT, FIELD_RES,
    FIELD_SHR, FIELD_STATE, FIELD_CPU, FIELD_MEM, FIELD_TIME, FIELD_COMMAND,
};
#define NCOLUMNS (sizeof(text_columns) / sizeof(text_columns[0]))

static int pid_width(const struct frame *f)
{
	int w = 1;

	for (unsigned v = f->pid_max ? f->pid_max - 1 : 99999; v >= 10; v /= 10)
		w++;
	return w < 5 ? 5 : w;
}

/*
 * Cut every line appended since start to width characters (0: no limit),
 * as top -w cuts its lines: plainly, at a character, never inside one.
 */
static void cut_lines(struct sbuf *b, size_t start, int width)
{
	size_t r = start, w = start, cols = 0;

	if (width <= 0)
		return;
	while (r < b->len) {
		size_t l = b->p[r] == '\n' ? 1 : utf8_len(b->p + r, b->len - r);

		l = l ? l : 1;
		if (b->p[r] == '\n')
			cols = 0;
		else if (cols++ >= (size_t)width) {
			r += l;
			continue;
		}
		memmove(b->p + w, b->p + r, l);
		w += l;
		r += l;
	}
	b->len = w;
}

static void cpu_line(struct sbuf *b, const char *label, const struct frame_cpu *c)
{
	sbuf_printf(
	    b, "%s%5.1f us,%5.1f sy,%5.1f ni,%5.1f id,%5.1f wa,%5.1f hi,%5.1f si,%5.1f st\n", label,
	    c->user, c->system, c->nice, c->idle, c->iowait, c->irq, c->softirq, c->steal);
}

void output_memory_lines(struct sbuf *b, const struct frame *f, enum mem_unit unit)
{
	const char *name = mem_unit_name(unit);
	double div = 1.0;
	int dec = unit == UNIT_KIB ? 0 : 1;

	for (int u = 0; u < (int)unit; u++)
		div *= 1024.0;
	sbuf_printf(b, "%s Mem : %8.*f total, %8.*f free, %8.*f used, %8.*f buff/cache\n", name,
		    dec, (double)f->mem.total / div, dec, (double)f->mem.free / div, dec,
		    (double)f->mem.used / div, dec, (double)f->mem.buff_cache / div);
	sbuf_printf(b, "%s Swap: %8.*f total, %8.*f free, %8.*f used. %8.*f avail Mem\n", name, dec,
		    (double)f->swap.total / div, dec, (double)f->swap.free / div, dec,
		    (double)f->swap.used / div, dec, (double)f->mem.avail / div);
}

/*
 * top -b's summary, line for line, so that what parses top's (jc --top, a
 * script's awk) parses this: the first line starts "top - " as top's does.
 * Numbers take the locale's decimal mark, as top's.
 */
static void summary(struct sbuf *b, const struct frame *f, const struct output_view *v)
{
	const struct frame_tasks *t = output_tasks(f, v);
	size_t start = b->len;
	struct tm tm;

	localtime_r(&f->time.tv_sec, &tm);
	sbuf_printf(b, "top - %02d:%02d:%02d up ", tm.tm_hour, tm.tm_min, tm.tm_sec);
	fmt_uptime(b, f->uptime_s);
	sbuf_printf(b, ", %2u user%s,  load average: %.2f, %.2f, %.2f\n", f->nusers,
		    f->nusers < 2 ? "" : "s", f->load[0], f->load[1], f->load[2]);
	sbuf_printf(b, "%s: %3u total, %3u running, %3u sleeping, %3u stopped, %3u zombie\n",
		    f->threads ? "Threads" : "Tasks", t->total, t->running, t->sleeping, t->stopped,
		    t->zombie);
	if (f->cpus) {
		/* -1: a line per CPU, labelled as top's "%Cpu0  :" */
		for (unsigned i = 0; i < f->ncpus; i++) {
			char label[24];

			snprintf(label, sizeof(label), "%%Cpu%-3u:", i);
			cpu_line(b, label, &f->cpus[i]);
		}
	} else {
		cpu_line(b, "%Cpu(s):", &f->cpu);
	}
	output_memory_lines(b, f, v->summary_unit);
	sbuf_addc(b, '\n');
	cut_lines(b, start, v->width);
}

/*
 * Justify what was appended since start into width columns (only cut it
 * when !pad); '+' marks a cut, as top's. A column is a character: what field_format() writes is UTF-8
 * (fmt_printable replaced the rest), so a multibyte user name pads as many
 * columns as it has characters and is cut between them, never inside one.
 */
static void justify(struct sbuf *b, size_t start, int width, bool left, bool pad)
{
	size_t n = b->len - start, cols = 0, keep = 0, w = width > 0 ? (size_t)width : 0;

	if (!w)
		return;
	for (size_t i = 0; i < n; cols++) {
		size_t l = utf8_len(b->p + start + i, n - i);

		if (cols == w - 1)
			keep = i; /* the bytes of the first w - 1 characters */
		i += l ? l : 1;
	}
	if (cols > w) {
		b->len = start + keep;
		sbuf_addc(b, '+');
	} else if (cols < w && pad) {
		size_t more = w - cols;

		sbuf_reserve(b, more);
		if (!left)
			memmove(b->p + start + more, b->p + start, n);
		memset(left ? b->p + start + n : b->p + start, ' ', more);
		b->len += more;
	}
}

/* A count as the Counters pane shows it (task-clock in ms, K/M/G), right in 16 columns. */
static void ctr_cell(struct sbuf *b, const char *event, double v)
{
	size_t start;

	sbuf_addc(b, ' ');
	start = b->len;
	fmt_ctr(b, event, v, 16);
	justify(b, start, 16, false, true);
}

static void counters_section(struct sbuf *b, const struct frame *f,
			     const struct frame_proc *const *rows, size_t nrows)
{
	const struct frame_counters *c = &f->counters;
	struct ctr_note notes[CTR_NOTES_MAX];
	size_t n;

	/* the head notes with the counts, the source first; the reasons after the rows */
	n = ctr_notes(c, false, notes);
	sbuf_printf(b, "\nCounters (%s):", notes[0].text);
	for (size_t i = 1, head = 0; i < n; i++)
		if (!notes[i].reason)
			sbuf_printf(b, "%s %s", head++ ? ";" : "", notes[i].text);
	sbuf_printf(b, "; ptop itself read by %s:", c->self_rdpmc ? "rdpmc" : "read()");
	for (int e = 0; e < c->nevents; e++) {
		sbuf_printf(b, " %s ", c->names[e]);
		fmt_ctr(b, c->names[e], c->self_ctr[e], 16);
	}
	sbuf_adds(b, "\n    PID");
	for (int e = 0; e < c->nevents; e++)
		sbuf_printf(b, " %16s", c->names[e]);
	sbuf_adds(b, "  SCALE COMMAND\n");
	for (size_t i = 0; i < nrows; i++) {
		const struct frame_proc *p = rows[i];

		if (!p->has_ctr)
			continue;
		sbuf_printf(b, "%7d", p->pid);
		/* no count (multiplexed out, attached within the interval, n/a) says why: 0 would lie */
		for (int e = 0; e < c->nevents; e++) {
			enum ctr_state s = ctr_state(f, p, e);

			if (s == CTR_COUNTED)
				ctr_cell(b, c->names[e], p->ctr[e]);
			else
				sbuf_printf(b, " %16s", ctr_state_text(s, false));
		}
		sbuf_printf(b, " %6.2f ", p->ctr_scale);
		fmt_printable(b, p->comm, p->comm_len);
		sbuf_addc(b, '\n');
	}
	for (size_t i = 1; i < n; i++)
		if (notes[i].reason)
			sbuf_printf(b, "counters: %s\n", notes[i].text);
}

static void breakpoints_section(struct sbuf *b, const struct frame *f)
{
	if (f->bp_no_hits)
		sbuf_adds(b, "\nNote: this machine counts no breakpoint hits (its hypervisor drops "
			     "debug exceptions)");
	for (size_t i = 0; i < f->nbps; i++)
		if (!f->bps[i].gone && f->bps[i].cpu_pct > 5.0)
			sbuf_printf(
			    b, "\nWarning: the watch on %d (%s) costs it about %.0f%% of a CPU",
			    f->bps[i].pid, f->bps[i].label[0] ? f->bps[i].label : f->bps[i].comm,
			    f->bps[i].cpu_pct);
	sbuf_adds(
	    b, "\nBreakpoints\n    PID WATCH              ADDRESS            LEN TYPE            "
	       "HITS     HITS/s   ~%CPU THREADS COMMAND\n");
	for (size_t i = 0; i < f->nbps; i++) {
		const struct frame_bp *bp = &f->bps[i];
		char cost[16];

		if (bp->cpu_pct < 0)
			snprintf(cost, sizeof(cost), "n/a");
		else
			snprintf(cost, sizeof(cost), "%.1f", bp->cpu_pct);
		sbuf_printf(b, "%7d %-18.18s 0x%-16llx %3d %-4s %15llu %10.1f %7s %7d %s%s\n",
			    bp->pid, bp->label[0] ? bp->label : "-", (unsigned long long)bp->addr,
			    bp->len, bp->type, (unsigned long long)bp->hits, bp->hits_per_s, cost,
			    bp->threads, bp->comm,
			    bp->execd  ? " (ran another program)"
			    : bp->gone ? " (exited)"
				       : "");
	}
}

static int column_width(const struct frame *f, const struct output_view *v, enum field_id id)
{
	return id == FIELD_PID ? pid_width(f) : field_width(f, v, id);
}

/*
 * How many of the columns fit in limit (0: all), as top fits its task area:
 * whole columns only, the one of no width (COMMAND) when its heading fits.
 */
static size_t columns_fitting(const struct frame *f, const struct output_view *v,
			      const enum field_id *cols, size_t ncols, int limit)
{
	int pos = 0;

	for (size_t c = 0; c < ncols; c++) {
		int w = column_width(f, v, cols[c]);

		pos += (c ? 1 : 0) + (w ? w : (int)strlen(field_title(f, v, cols[c])));
		if (limit > 0 && pos > limit)
			return c;
	}
	return ncols;
}

/*
 * The column headings and a line per row, in view's columns, then a line
 * per process that ended in the interval (exited, nexited), marked in
 * COMMAND with how it ended. Lines stop a column short of the width, as
 * top's task area does: COMMAND is cut to the same length as top's.
 */
static void table(struct sbuf *b, const struct frame *f, const struct frame_proc *const *rows,
		  size_t nrows, const struct frame_proc *const *exited, size_t nexited,
		  const struct output_view *v)
{
	const enum field_id *cols;
	size_t ncols = output_columns(v, text_columns, NCOLUMNS, &cols);
	int limit = v->width > 1 ? v->width - 1 : 0;
	size_t start = b->len;
	bool over = false; /* a line longer than limit, which only cut_lines() mends */

	ncols = columns_fitting(f, v, cols, ncols, limit);
	for (size_t i = 0; i <= nrows + nexited; i++) {
		const struct frame_proc *p = !i		  ? NULL
					     : i <= nrows ? rows[i - 1]
							  : exited[i - 1 - nrows];
		int pos = 0; /* columns of the line so far */

		for (size_t c = 0; c < ncols; c++) {
			enum field_id id = cols[c];
			const struct field_def *d = &field_defs[id];
			int w = column_width(f, v, id);
			bool rest = !w;
			size_t at;

			if (c) {
				sbuf_addc(b, ' ');
				pos++;
			}
			at = b->len;
			/* a column of no width takes the rest of the line, as top's COMMAND */
			if (rest && limit)
				w = limit - pos;
			if (!p)
				sbuf_adds(b, field_title(f, v, id));
			else if (id == FIELD_STATE && p->exited)
				/* top's letters have no X (dead): Z, a process that ended, as
				 * top's readers (jc) know them */
				sbuf_addc(b, 'Z');
			else
				field_format(b, id, p, f, v);
			justify(b, at, w, d->left, !rest);
			pos += w;
		}
		sbuf_addc(b, '\n');
		over |= limit && pos > limit;
	}
	/* each column was justified to its width: only an overlong line needs a pass */
	if (over)
		cut_lines(b, start, limit);
}

void output_text_frame(struct sbuf *b, const struct frame *f, const struct output_view *v,
		       const struct frame_proc *const *rows, size_t nrows, bool first)
{
	if (!v)
		v = &output_view_default;
	if (!first)
		sbuf_addc(b, '\n');
	summary(b, f, v);
	table(b, f, rows, nrows, v->exited, v->nexited, v);
	if (f->counters.on)
		counters_section(b, f, rows, nrows);
	if (f->nbps)
		breakpoints_section(b, f);
}

const struct output_format_def output_format_text = {
    .name = "text",
    .summary = N_("as top -b"),
    .frame = output_text_frame,
};
