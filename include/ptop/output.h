/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * output.h: what presenters share. The field table (one row per column:
 * name, title, width, which /proc files it needs), row selection (filter and
 * sort a frame's processes), the value formats top users know (memory with
 * K/M/G scaling, TIME+), and the batch output formats: text (top -b),
 * JSON Lines and CSV. Formats write into an sbuf; the caller writes it once.
 */
#ifndef PTOP_OUTPUT_H
#define PTOP_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>

#include "ptop/frame.h"
#include "ptop/util.h"

struct output_view;

/* The columns, in the order CSV writes them (and JSON, and the column chooser): columns.def's. */
enum field_id {
#define COLUMN(ID, name, title, htop, htop_title, width, flags, member, key, desc) FIELD_##ID,
#define COLUMN_OVER(ID, name, title, htop, htop_title, width, flags, type, off, needs, key, desc)  \
	FIELD_##ID,
#include "ptop/columns.def"
#undef COLUMN
#undef COLUMN_OVER
	FIELD_COUNT
};

/* Memory units as top's -E and -e name them: KiB << 10 * unit. */
enum mem_unit { UNIT_KIB, UNIT_MIB, UNIT_GIB, UNIT_TIB, UNIT_PIB, UNIT_EIB, UNIT_COUNT };

/* How a column's value is kept in struct frame_proc (at .off): for sorting and
 * for the machine formats, which write it as it is kept. */
enum field_type {
	FT_INT,	  /* int */
	FT_I64,	  /* int64_t */
	FT_U64,	  /* uint64_t */
	FT_UID,	  /* uid_t */
	FT_PCT,	  /* double, written with two decimals */
	FT_CHAR,  /* one char, written as a string */
	FT_NAME,  /* const char *, NUL-terminated; NULL: not known (see field_absent) */
	FT_COMM,  /* comm[comm_len] */
	FT_TICKS, /* utime + stime; .off is not used */
	FT_CTR,	  /* ctr[.off], an event's count; none when not counted */
	FT_CTRFIG /* double derived from the counters; none without them, or when < 0 */
};

struct field_def {
	const char *name;  /* for -s and the config file: "pid", "cpu", ... */
	const char *title; /* column heading, as top prints it */
	const char *htop;  /* htop's name for it (--sort-key, htoprc), or NULL */
	/* its heading as htop prints it, where that is not title (htop's profile) */
	const char *htop_title;
	const char *desc; /* one line for help screens, translatable */
	int width;	  /* columns; 0: takes the rest of the line */
	bool left;	  /* left-justified */
	bool ascending;	  /* natural sort order: PID and names up, figures down */
	unsigned needs;	  /* PROC_NEED() bits beyond stat */
	bool observer;	  /* filled by the observer (src/perf), not the sampler */
	enum field_type type;
	size_t off; /* offsetof(struct frame_proc, the value), or of its side's (side) */
	bool side;  /* the value is a side member (frame_proc.side) */
	/* JSON key and CSV heading, units in the name ("rss_kb"); NULL: in neither */
	const char *key;
	bool json_only; /* not a CSV column */
	bool if_looked; /* left out of JSON while negative (-1: not looked at) */
	/* in JSON and CSV only when --fields names it: what it needs read would cost
	 * every frame of theirs (status for each process) */
	bool if_asked;
	/* in JSON and CSV, unless --fields names it, only while the frame counts */
	bool if_counting;
	bool zero_unknown; /* 0 is no value: '-', null, empty (a namespace's inode) */
	/* 1 + the offset of the bool member that says the value holds (row.def's WHEN:
	 * has_io, exited, ...), 0 when it always does */
	size_t when;
};

extern const struct field_def field_defs[FIELD_COUNT];

/* The field called name (case-insensitive), or -1. */
int field_by_name(const char *name);
/* The field htop calls name (any case: "PERCENT_CPU", "M_RESIDENT"), or -1. */
int field_by_htop_name(const char *name);
/* The field whose title is name, exactly as top prints it ("%CPU", "TIME+"; "ioR", which
 * ptop titles RBYTES), or -1. */
int field_by_title(const char *name);
/*
 * The field name stands for, or -1: first top's title exactly ("%CPU"), then
 * ptop's name ("cpu"), then htop's name ("PERCENT_CPU"), both in any case, then
 * htop's title exactly ("CPU%"), then, with any_case, either title in any case
 * ("%cpu", as top's o filters take it; top's -o does not). So "CPU" is ptop's
 * name for %CPU, never htop's heading of P (whose names are "processor",
 * "PROCESSOR" and "P").
 */
int field_named(const char *name, bool any_case);
/* The table's heading of column id: htop's where htop is true and it has its own,
 * else top's. */
const char *field_heading(enum field_id id, bool htop);
/* The heading of column id over f's rows as v shows it (NULL: top's headings): a
 * counter's is its event's name where f counts one ("context-switches", not
 * "CTR1"), any other field_heading()'s for v->htop_titles. */
const char *field_title(const struct frame *f, const struct output_view *v, enum field_id id);
/* Columns column id takes over f's rows through v: the table's width, or its
 * heading's when that is longer (an event's name, htop's "DISK READ"); 0 for a
 * column that takes the rest. */
int field_width(const struct frame *f, const struct output_view *v, enum field_id id);
/* <0, 0, >0 as a before b in the field's ascending order; ties broken by PID. */
int field_compare(enum field_id id, const struct frame_proc *a, const struct frame_proc *b);
/*
 * The value of field id of p (a record of f), unpadded, as the text formats
 * show it through view v (NULL: output_view_default): memory in K/M/G to fit
 * from v's task_unit, times as TIME+, the command line instead of the name
 * when v->cmdlines is set and the row's was read (has_cmd).
 */
void field_format(struct sbuf *b, enum field_id id, const struct frame_proc *p,
		  const struct frame *f, const struct output_view *v);
/* Field id of p as a string (FT_CHAR, FT_NAME, FT_COMM): true and *s, *n set. */
bool field_string(enum field_id id, const struct frame_proc *p, const char **s, size_t *n);
/* Field id of p as a number, as the machine formats write it (not a string type). */
void field_number(struct sbuf *b, enum field_id id, const struct frame_proc *p);
/*
 * Whether field id of p holds no value: not looked at (-1 of an if_looked
 * column, left out of JSON), or unknown (io refused, a cgroup not read: null
 * in JSON, empty in CSV, "-" in the text formats). Unknown sorts below any value.
 */
bool field_absent(enum field_id id, const struct frame_proc *p);

/*
 * Why SWPD% has no value in live frame f, one line into b (reset first):
 * taskstats refused (no CAP_NET_ADMIN) or absent, or kernel.task_delayacct
 * 0. False, b untouched, when f gives no such reason (or did not ask).
 */
bool field_swapd_why(struct sbuf *b, const struct frame *f);

/* Memory in KiB into width columns: plain KiB if it fits, else m/g/t/p with one decimal. */
void fmt_mem_kb(struct sbuf *b, uint64_t kb, int width);
/* As fmt_mem_kb, in unit or the first larger one it fits, as top -e shows memory. */
void fmt_mem_unit(struct sbuf *b, uint64_t kb, int width, enum mem_unit unit);
/* TIME+ of ticks: "M:SS.hh"; past 999 minutes "H:MM" hours, as top does. */
void fmt_time_plus(struct sbuf *b, uint64_t ticks, long hz, int width);
/* Uptime as top prints it: "3 days,  4:10", "28 min". */
void fmt_uptime(struct sbuf *b, double secs);
/* A size for a meter: the largest unit that keeps it under 1024, "23.5G", "316M", "0K". */
void fmt_size_kb(struct sbuf *b, uint64_t kb);
/* utf8_len() past its first byte: a byte of 0x80 or more at s. */
size_t utf8_len_multi(const char *s, size_t n);
/* Length of the well-formed UTF-8 sequence at s (1 for ASCII), or 0 when the bytes
 * there (n of them) are not UTF-8: overlong, surrogate, past U+10FFFF, cut short.
 * Inline for ASCII, which is nearly every byte a writer measures. */
static inline size_t utf8_len(const char *s, size_t n)
{
	if (n && (unsigned char)s[0] < 0x80)
		return 1;
	return n ? utf8_len_multi(s, n) : 0;
}
/* Append a name for a terminal: control bytes and invalid UTF-8 as '?'. Returns columns. */
size_t fmt_printable(struct sbuf *b, const char *s, size_t n);

/* Which rows of a frame to show, and in what order. */
struct row_filter {
	const int *pids; /* show only these, when npids > 0 */
	size_t npids;
	bool by_uid; /* show only processes of uid */
	uid_t uid;
	bool uid_any;	    /* ... matching any of real, effective, saved, fs uid (top -U) */
	bool uid_not;	    /* ... or only those that do not (top's -u !USER) */
	const char *substr; /* show only names containing this, when non-NULL */
	bool hide_idle;	    /* leave out processes with no CPU in the interval */
};

struct row_order {
	enum field_id field;
	bool reverse;	 /* against the field's natural order */
	bool cumulative; /* TIME+, UTIME+, STIME+ with dead children's time (top -S) */
};

/* Fill rows (room for f->nprocs) with the chosen processes, sorted. Returns how many. */
size_t rows_select(const struct frame *f, const struct row_filter *flt, const struct row_order *ord,
		   const struct frame_proc **rows);
/* With -p (flt->npids), *out counts only what -p shows: those processes, or with -H
 * their threads, whatever the other filters leave out (top's Tasks: line), and true;
 * without -p, false (*out untouched: the frame's counts stand). */
/* The same of f->exited (room for f->nexited): the processes that ended, chosen. */
size_t rows_select_exited(const struct frame *f, const struct row_filter *flt,
			  const struct row_order *ord, const struct frame_proc **rows);
/* How a process ended, from its wait() status: "exit 7", "SIGKILL", "SIGSEGV core". */
void fmt_exit(struct sbuf *b, int status);
bool rows_count_tasks(const struct frame *f, const struct row_filter *flt, struct frame_tasks *out);

/* Figures derived from a process's counters; a field is < 0 when its events are absent. */
struct ctr_derived {
	double ipc;	    /* instructions per cycle */
	double cache_mpki;  /* cache misses per thousand instructions */
	double branch_mpki; /* branch misses per thousand instructions */
	double cpu_share;   /* task-clock over the interval, percent of one CPU */
};
void ctr_derive(const struct frame *f, const struct frame_proc *p, struct ctr_derived *d);
/* Each counted row of f's figures into its side's ctr_ipc, ctr_cache_mpki, ... (-1 where
 * none): after the observer read the counts, or a replay gave them, so the figures sort and
 * show as columns. A frame without sides (no column of them asked for) gets none. */
void ctr_derive_rows(struct frame *f);
/* Each row of f's figures derived from its members and the frame (row.def's ROW_SRC_DERIVE:
 * cuu_pct, cuc_pct, ncpu_pct, used_kb), after any source's frame, so that they sort. */
void field_derive_rows(struct frame *f);
/* The field of counter event e (0-based), or -1 past the last. */
int field_ctr(int e);
/* p's count of the event field id stands for, or -1 when it has none (not attached, not
 * counted, counting since attach in this interval, n/a). */
double field_ctr_value(enum field_id id, const struct frame_proc *p);
/*
 * An event's count as the text formats show it, to fit width: task-clock and
 * cpu-clock (ns) as milliseconds ("12.5ms"), other counts as they are up to
 * 5 digits, then with K, M, G or T.
 */
void fmt_ctr(struct sbuf *b, const char *event, double v, int width);
/*
 * What a row's counter cell holds: a count, or why there is none. One table
 * of sentences (ctr_state_text()) says each the same way in the Counters
 * pane, batch text and the CTRn columns; JSON's flags and nulls and CSV's
 * empty cells follow the same states.
 */
enum ctr_state {
	CTR_COUNTED,	 /* a count over the whole interval (scaled when multiplexed) */
	CTR_NONE,	 /* not attached (over the budget, refused, not in view): "-" */
	CTR_NOT_COUNTED, /* attached, but its group never ran in the interval */
	CTR_COUNTING,	 /* attached within the interval: counts start with the next */
	CTR_NA,		 /* counted in the kernel, which this user may not count */
	CTR_STATE_COUNT
};
/* p's state for event e of f (0-based); e < 0: the row's, whatever any one event's
 * (CTR_NA is an event's). An event f does not count is CTR_NONE. */
enum ctr_state ctr_state(const struct frame *f, const struct frame_proc *p, int e);
/*
 * The sentence for s, untranslated (a msgid: the viewer passes it through _(),
 * batch text prints it as it is); utf8: the form for a UTF-8 terminal where it
 * differs ("counting…" for "counting..."). NULL for CTR_COUNTED: the count is shown.
 */
const char *ctr_state_text(enum ctr_state s, bool utf8);
/*
 * What the counters' state is beyond the rows, one sentence each, in one
 * order: the Counters pane's first line, the text output's Counters section
 * and JSON's counters.notes say them from ctr_notes(), so they cannot drift
 * apart. A head note belongs with the counts, a reason explains a '-' or
 * n/a in the rows.
 */
#define CTR_NOTES_MAX (12 + FRAME_MAX_EVENTS)
struct ctr_note {
	const char *key; /* its name in JSON's notes, never translated */
	bool reason;	 /* a reason (text: a line of its own after the rows), not a head note */
	char text[256];
};
/* f's counters' notes into out (room for CTR_NOTES_MAX), in the viewer's language when
 * translate; the first is the source ("hardware", "software only: why"). How many. */
size_t ctr_notes(const struct frame_counters *c, bool translate, struct ctr_note *out);
/* Whether p's value of event e is a count: its group ran, and this user may count it. */
static inline bool ctr_counted(const struct frame_proc *p, int e)
{
	return !p->ctr_not_counted && !p->ctr_counting && !(p->ctr_na >> e & 1);
}

/* Sort rows in place. */
void rows_sort(const struct frame_proc **rows, size_t n, const struct row_order *ord);

/*
 * How a presenter shows frames, beyond what the frame holds: its own, passed
 * to each format and field_format() beside the frame, which it never changes.
 */
struct output_view {
	const enum field_id *columns; /* --fields, in their order; NULL: the format's own */
	size_t ncolumns;
	int width;		    /* text: lines cut to this many columns; 0: no limit */
	enum mem_unit summary_unit; /* text: the summary's memory lines (top -E) */
	enum mem_unit task_unit;    /* text: memory columns shown from this unit up (top -e) */
	/* COMMAND shows the command line of rows that have one read (top -c); CSV adds
	 * a cmdline column. JSON gives every row's that was read, whatever this says. */
	bool cmdlines;
	/* text: TIME+, UTIME+ and STIME+ with the dead children's time (top -S); %CPU,
	 * JSON and CSV keep the process's own, as the frame does */
	bool cumulative;
	/* text: the sentences a terminal shows in UTF-8 where they differ ("counting…") */
	bool utf8;
	/* text: the sentences in the user's language (the viewer); batch text keeps them
	 * in English, as top -b is read by programs */
	bool translate;
	/* text: columns headed as htop heads them (the htop key profile: the viewer's by
	 * default, batch text's with --keys=htop); else top's headings */
	bool htop_titles;
	/* the Tasks: line's counts when top's -p narrows them (rows_count_tasks()); NULL:
	 * the frame's */
	const struct frame_tasks *tasks;
	/* the processes that ended in the interval to show (rows_select_exited()), after
	 * the rows in text, in JSON's "exited", marked in CSV; NULL: every one in JSON */
	const struct frame_proc *const *exited;
	size_t nexited;
};

/* The task counts a format shows of f: v's when -p narrowed them, else f's own. */
static inline const struct frame_tasks *output_tasks(const struct frame *f,
						     const struct output_view *v)
{
	return v && v->tasks ? v->tasks : &f->tasks;
}

/* No column choice, no width limit, MiB in the summary and KiB columns: as top's. */
extern const struct output_view output_view_default;

/*
 * top's two memory lines ("MiB Mem : ... buff/cache", "MiB Swap: ... avail
 * Mem"), each ended by '\n', in unit (KiB as whole numbers, the others with
 * one decimal, in the locale's mark), appended to b.
 */
void output_memory_lines(struct sbuf *b, const struct frame *f, enum mem_unit unit);

/* The unit named by its letter (k, m, g, t, p, e, any case), or -1. */
int mem_unit_by_letter(char c);
/* "KiB", "MiB", ... "EiB". */
const char *mem_unit_name(enum mem_unit u);
/* The unit named "KiB" ... "EiB" or by its letter, any case, or -1. */
int mem_unit_by_name(const char *s);

/*
 * The columns a format shows: the presenter's choice (v's, when v is not NULL
 * and has one), else the n of fallback; *out is set and the count returned. A
 * NULL *out means every field in the table's order (fallback NULL, n FIELD_COUNT).
 */
size_t output_columns(const struct output_view *v, const enum field_id *fallback, size_t n,
		      const enum field_id **out);

/*
 * A batch output format: a file exporting one of these, and a row in
 * output.c's output_formats[]. --help and the usage errors list the table.
 */
struct output_format_def {
	const char *name;    /* as -o and --format take it (in any case) */
	const char *summary; /* what it writes, for --help; translatable (N_) */
	/* writes every column with a key, whatever is shown: the reader reads what they need */
	bool every_column;
	/* Append one frame as view v shows it (NULL: output_view_default). `first` is
	 * true for the first frame written (CSV's header). */
	void (*frame)(struct sbuf *b, const struct frame *f, const struct output_view *v,
		      const struct frame_proc *const *rows, size_t nrows, bool first);
};

extern const struct output_format_def output_format_text; /* top -b's (text.c) */
extern const struct output_format_def output_format_json; /* JSON Lines (json.c) */
extern const struct output_format_def output_format_csv;  /* csv.c */

/* The formats, text first; NULL-terminated. */
extern const struct output_format_def *const output_formats[];

/* The format called name (in any case), or NULL. */
const struct output_format_def *output_format_by_name(const char *name);
/* The formats' names, in the table's order, separated by ", ", appended to b. */
void output_format_names(struct sbuf *b);

void output_text_frame(struct sbuf *b, const struct frame *f, const struct output_view *v,
		       const struct frame_proc *const *rows, size_t nrows, bool first);
void output_json_frame(struct sbuf *b, const struct frame *f, const struct output_view *v,
		       const struct frame_proc *const *rows, size_t nrows, bool first);
void output_csv_frame(struct sbuf *b, const struct frame *f, const struct output_view *v,
		      const struct frame_proc *const *rows, size_t nrows, bool first);

/* JSON string of n raw bytes; bytes that are not UTF-8 become \udcXX (lossless, as
 * Python's surrogateescape reads them back). */
void json_string(struct sbuf *b, const char *s, size_t n);
/* RFC 3339 UTC time with milliseconds, "2026-12-02T14:40:41.123Z", NUL-terminated.
 * Returns RFC3339_LEN. */
#define RFC3339_LEN 24
size_t fmt_time_rfc3339(char out[RFC3339_LEN + 1], const struct timespec *ts);

#endif
