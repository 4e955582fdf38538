// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * meters.c: the header: uptime and load, tasks by state, CPU (one summary
 * bar, or one bar per CPU with `1`), memory and swap bars, and what ptop
 * itself costs: CPU per frame, microseconds per process, descriptors held.
 */
#include <string.h>
#include <time.h>

#include "tui.h"

struct bar_part {
	double pct;
	enum ui_color color;
};

/* "label[|||||     text]" across width columns. */
static void draw_bar(struct ui *ui, int y, int x, int width, const char *label,
		     const struct bar_part *parts, int nparts, const char *text)
{
	int inner, filled = 0, tlen = (int)strlen(text);

	attron(ui_attr(ui, COLOR_LABEL, A_BOLD));
	mvaddstr(y, x, label);
	attroff(ui_attr(ui, COLOR_LABEL, A_BOLD));
	x += (int)strlen(label);
	inner = width - (int)strlen(label) - 2;
	if (inner < 1)
		return;
	mvaddch(y, x, '[');
	for (int i = 0; i < nparts; i++) {
		int n = (int)(parts[i].pct / 100.0 * inner + 0.5);

		if (n > inner - filled)
			n = inner - filled;
		attron(ui_attr(ui, parts[i].color, A_NORMAL));
		for (int k = 0; k < n; k++)
			mvaddch(y, x + 1 + filled + k, '|');
		attroff(ui_attr(ui, parts[i].color, A_NORMAL));
		filled += n;
	}
	for (int k = filled; k < inner; k++)
		mvaddch(y, x + 1 + k, ' ');
	if (tlen <= inner)
		mvaddstr(y, x + 1 + inner - tlen, text);
	mvaddch(y, x + 1 + inner, ']');
}

static void cpu_bar(struct ui *ui, int y, int width, const char *label, const struct frame_cpu *c)
{
	struct bar_part parts[] = {
	    {c->nice, COLOR_BAR_NICE},
	    {c->user, COLOR_BAR_USER},
	    {c->system + c->irq + c->softirq, COLOR_BAR_SYSTEM},
	    {c->iowait + c->steal, COLOR_BAR_OTHER},
	};
	char text[32];

	snprintf(text, sizeof(text), "%5.1f%%", 100.0 - c->idle);
	draw_bar(ui, y, 0, width, label, parts, 4, text);
}

static void mem_text(char *out, size_t n, uint64_t used_kb, uint64_t total_kb)
{
	struct sbuf a = {0};

	fmt_size_kb(&a, used_kb);
	sbuf_addc(&a, '/');
	fmt_size_kb(&a, total_kb);
	snprintf(out, n, "%s", sbuf_cstr(&a));
	sbuf_free(&a);
}

int meters_height(const struct ui *ui, int max_rows)
{
	int cpus = ui->cfg.per_cpu && ui->frame.ncpus ? (int)ui->frame.ncpus : 1;
	int h = 2 + cpus + 3;

	/* Leave the table room: per-CPU bars fall back to the summary on a short screen. */
	if (h > max_rows)
		h = 2 + 1 + 3;
	return h;
}

int meters_draw(struct ui *ui, int max_rows)
{
	const struct frame *f = &ui->frame;
	int y = 0, h = meters_height(ui, max_rows);
	int w = COLS;
	struct tm tm;
	char text[128];
	struct sbuf up = {0};

	localtime_r(&f->time.tv_sec, &tm);
	attron(ui_attr(ui, COLOR_LABEL, A_BOLD));
	mvprintw(y, 0, "ptop");
	attroff(ui_attr(ui, COLOR_LABEL, A_BOLD));
	fmt_uptime(&up, f->uptime_s);
	printw(_(" - %02d:%02d:%02d up %s, %u users, load average: %.2f, %.2f, %.2f"), tm.tm_hour,
	       tm.tm_min, tm.tm_sec, sbuf_cstr(&up), f->nusers, f->load[0], f->load[1], f->load[2]);
	sbuf_free(&up);
	if (ui->paused) {
		attron(ui_attr(ui, COLOR_STATUS, A_BOLD));
		printw("  %s", _("[paused]"));
		attroff(ui_attr(ui, COLOR_STATUS, A_BOLD));
	}
	y++;
	mvprintw(y++, 0,
		 f->threads ? _("Threads: %u total, %u running, %u sleeping, %u stopped, %u zombie")
			    : _("Tasks: %u total, %u running, %u sleeping, %u stopped, %u zombie"),
		 f->tasks.total, f->tasks.running, f->tasks.sleeping, f->tasks.stopped,
		 f->tasks.zombie);

	if (ui->cfg.per_cpu && f->ncpus && h == 2 + (int)f->ncpus + 3) {
		for (unsigned i = 0; i < f->ncpus; i++) {
			char label[16];

			snprintf(label, sizeof(label), "%-4u", i);
			cpu_bar(ui, y++, w, label, &f->cpus[i]);
		}
	} else {
		cpu_bar(ui, y++, w, "CPU ", &f->cpu);
	}

	{
		uint64_t other = f->mem.total > f->mem.used ? f->mem.total - f->mem.used : 0;
		double total = f->mem.total ? (double)f->mem.total : 1;
		struct bar_part parts[] = {
		    {(double)f->mem.used * 100.0 / total, COLOR_BAR_USER},
		    {(double)(f->mem.buff_cache < other ? f->mem.buff_cache : other) * 100.0 /
			 total,
		     COLOR_BAR_OTHER},
		};

		mem_text(text, sizeof(text), f->mem.used, f->mem.total);
		draw_bar(ui, y++, 0, w, "Mem ", parts, 2, text);
	}
	{
		double total = f->swap.total ? (double)f->swap.total : 1;
		struct bar_part parts[] = {
		    {(double)f->swap.used * 100.0 / total, COLOR_BAR_SYSTEM}};

		mem_text(text, sizeof(text), f->swap.used, f->swap.total);
		draw_bar(ui, y++, 0, w, "Swp ", parts, 1, text);
	}

	attron(ui_attr(ui, COLOR_LABEL, A_BOLD));
	mvaddstr(y, 0, _("Cost"));
	attroff(ui_attr(ui, COLOR_LABEL, A_BOLD));
	printw(_(": %.2f ms CPU/frame, %.1f us/process, %u fds held, %.1f%% CPU"),
	       f->cost.cpu_s * 1e3, f->nprocs ? f->cost.cpu_s * 1e6 / (double)f->nprocs : 0.0,
	       f->cost.fds_held, ui->own_cpu_pct);
	y++;
	return y;
}
