// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * csv.c: RFC 4180 CSV, one row per process per frame, one header row for the
 * whole run; every row carries its frame's time so rows can be grouped.
 */
#include <string.h>

#include "ptop/output.h"

static const char csv_header[] =
    "time,pid,ppid,state,user,uid,priority,nice,threads,vsize_kb,rss_kb,shared_kb,"
    "cpu_pct,mem_pct,utime_ticks,stime_ticks,start_ticks,processor,comm,tgid\r\n";

static void csv_field(struct sbuf *b, const char *s, size_t n)
{
	bool quote = n && (s[0] == ' ' || s[n - 1] == ' ');

	for (size_t i = 0; i < n && !quote; i++)
		quote = s[i] == ',' || s[i] == '"' || s[i] == '\n' || s[i] == '\r';
	if (!quote) {
		sbuf_add(b, s, n);
		return;
	}
	sbuf_addc(b, '"');
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '"')
			sbuf_addc(b, '"');
		sbuf_addc(b, s[i]);
	}
	sbuf_addc(b, '"');
}

void output_csv_frame(struct sbuf *b, const struct frame *f, const struct frame_proc *const *rows,
		      size_t nrows, bool first)
{
	char when[RFC3339_LEN + 1];
	size_t wlen = fmt_time_rfc3339(when, &f->time);

	if (first) {
		sbuf_add(b, csv_header, sizeof(csv_header) - 3); /* without its CRLF */
		if (f->cmdlines)
			sbuf_adds(b, ",cmdline");
		if (f->counters.on) {
			sbuf_adds(b, ",ctr_source");
			for (int e = 0; e < f->counters.nevents; e++) {
				sbuf_addc(b, ',');
				csv_field(b, f->counters.names[e], strlen(f->counters.names[e]));
			}
		}
		sbuf_adds(b, "\r\n");
	}
	for (size_t i = 0; i < nrows; i++) {
		const struct frame_proc *p = rows[i];

		sbuf_add(b, when, wlen);
		sbuf_addc(b, ',');
		sbuf_addi(b, p->pid);
		sbuf_addc(b, ',');
		sbuf_addi(b, p->ppid);
		sbuf_addc(b, ',');
		sbuf_addc(b, p->state);
		sbuf_addc(b, ',');
		csv_field(b, p->user, strlen(p->user));
		sbuf_addc(b, ',');
		sbuf_addu(b, p->uid);
		sbuf_addc(b, ',');
		sbuf_addi(b, p->priority);
		sbuf_addc(b, ',');
		sbuf_addi(b, p->nice);
		sbuf_addc(b, ',');
		sbuf_addi(b, p->threads);
		sbuf_addc(b, ',');
		sbuf_addu(b, p->vsize_kb);
		sbuf_addc(b, ',');
		sbuf_addu(b, p->rss_kb);
		sbuf_addc(b, ',');
		sbuf_addu(b, p->shared_kb);
		sbuf_addc(b, ',');
		sbuf_addf(b, p->cpu_pct, 2);
		sbuf_addc(b, ',');
		sbuf_addf(b, p->mem_pct, 2);
		sbuf_addc(b, ',');
		sbuf_addu(b, p->utime);
		sbuf_addc(b, ',');
		sbuf_addu(b, p->stime);
		sbuf_addc(b, ',');
		sbuf_addu(b, p->start_ticks);
		sbuf_addc(b, ',');
		sbuf_addi(b, p->processor);
		sbuf_addc(b, ',');
		csv_field(b, p->comm, p->comm_len);
		sbuf_addc(b, ',');
		sbuf_addi(b, p->tgid);
		if (f->cmdlines) {
			sbuf_addc(b, ',');
			if (p->has_cmd)
				csv_field(b, f->strings.p + p->cmd_off, p->cmd_len);
		}
		if (f->counters.on) {
			sbuf_adds(b, p->has_ctr ? (f->counters.hardware ? ",hardware" : ",software")
						: ",");
			for (int e = 0; e < f->counters.nevents; e++) {
				sbuf_addc(b, ',');
				if (p->has_ctr)
					sbuf_addf(b, p->ctr[e], 0);
			}
		}
		sbuf_adds(b, "\r\n");
	}
}
