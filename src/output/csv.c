// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * csv.c: RFC 4180 CSV, one row per process per frame, one header row for the
 * whole run; every row carries its frame's time so rows can be grouped.
 * Text cells that a spreadsheet would run as a formula get a leading quote.
 */
#include <string.h>

#include "ptop/output.h"

/*
 * A text cell a spreadsheet would take for a formula (CSV injection: a
 * process names itself "=HYPERLINK(...)"): OWASP's leading characters,
 * tab and carriage return among them. Numbers never pass here, so a
 * negative nice value stays a number.
 */
static bool csv_formula(const char *s, size_t n)
{
	return n && (s[0] == '=' || s[0] == '+' || s[0] == '-' || s[0] == '@' || s[0] == '\t' ||
		     s[0] == '\r');
}

/* A text cell: quoted when RFC 4180 needs it, and with a ' before a formula. */
static void csv_field(struct sbuf *b, const char *s, size_t n)
{
	bool formula = csv_formula(s, n);
	bool quote = formula || (n && (s[0] == ' ' || s[n - 1] == ' '));

	for (size_t i = 0; i < n && !quote; i++)
		quote = s[i] == ',' || s[i] == '"' || s[i] == '\n' || s[i] == '\r';
	if (!quote) {
		sbuf_add(b, s, n);
		return;
	}
	sbuf_addc(b, '"');
	if (formula)
		sbuf_addc(b, '\'');
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '"')
			sbuf_addc(b, '"');
		sbuf_addc(b, s[i]);
	}
	sbuf_addc(b, '"');
}

/* How a process ended, as the text formats say it ("exit 7", "SIGKILL"). */
static void csv_exit(struct sbuf *b, int status)
{
	struct sbuf how = {0};

	fmt_exit(&how, status);
	csv_field(b, how.p, how.len);
	sbuf_free(&how);
}

void output_csv_frame(struct sbuf *b, const struct frame *f, const struct output_view *v,
		      const struct frame_proc *const *rows, size_t nrows, bool first)
{
	char when[RFC3339_LEN + 1];
	size_t wlen = fmt_time_rfc3339(when, &f->time);
	const enum field_id *cols;
	size_t ncols;

	if (!v)
		v = &output_view_default;
	ncols = output_columns(v, NULL, FIELD_COUNT, &cols);
	if (first) {
		/* the column table's keys, in its order (or --fields') */
		sbuf_adds(b, "time");
		for (size_t c = 0; c < ncols; c++) {
			int id = cols ? (int)cols[c] : (int)c;

			if (!field_defs[id].key || field_defs[id].json_only ||
			    (!cols && field_defs[id].if_asked) ||
			    (!cols && field_defs[id].if_counting && !f->counters.on))
				continue;
			sbuf_addc(b, ',');
			sbuf_adds(b, field_defs[id].key);
		}
		if (v->cmdlines)
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
	for (size_t i = 0; i < nrows + v->nexited; i++) {
		const struct frame_proc *p = i < nrows ? rows[i] : v->exited[i - nrows];

		sbuf_add(b, when, wlen);
		for (size_t c = 0; c < ncols; c++) {
			int id = cols ? (int)cols[c] : (int)c;
			const char *s;
			size_t n;

			if (!field_defs[id].key || field_defs[id].json_only ||
			    (!cols && field_defs[id].if_asked) ||
			    (!cols && field_defs[id].if_counting && !f->counters.on))
				continue;
			sbuf_addc(b, ',');
			/* unknown is an empty field, never a 0 */
			if (field_absent((enum field_id)id, p))
				continue;
			if (id == FIELD_EXIT)
				csv_exit(b, p->exit_status);
			else if (field_string((enum field_id)id, p, &s, &n))
				csv_field(b, s, n);
			else
				field_number(b, (enum field_id)id, p);
		}
		if (v->cmdlines) {
			sbuf_addc(b, ',');
			if (p->has_cmd)
				csv_field(b, f->strings.p + p->cmd_off, p->cmd_len);
		}
		if (f->counters.on) {
			sbuf_adds(b, p->has_ctr ? (f->counters.hardware ? ",hardware" : ",software")
						: ",");
			for (int e = 0; e < f->counters.nevents; e++) {
				sbuf_addc(b, ',');
				/* no count is an empty field, never a 0 */
				if (ctr_state(f, p, e) == CTR_COUNTED)
					sbuf_addf(b, p->ctr[e], 0);
			}
		}
		sbuf_adds(b, "\r\n");
	}
}

const struct output_format_def output_format_csv = {
    .name = "csv",
    .summary = N_("a header, then a line per process and frame"),
    .every_column = true,
    .frame = output_csv_frame,
};
