/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bench.h: `ptop bench`, benchmarks of the kernel paths ptop depends on. Each
 * benchmark is one file in src/bench/ exporting a struct bench_desc (name,
 * summary, option table, entry point) and one row in the table in bench.c, as
 * perf's builtin-bench.c registers bench/breakpoint.c. A benchmark fills a
 * struct bench_result (named values with units and, for sweeps, series of
 * points); bench.c parses options from the descriptor's table and prints the
 * result as perf-bench-like text, bare figures, or JSON.
 *
 * JSON mode (`--format=json`) is also the protocol the TUI reads from a child
 * `ptop bench NAME --format=json --progress` over a pipe: standard output is
 * a sequence of lines, each one JSON object with a "type" member:
 *
 *   {"type":"progress","name":"status","progress":0.42}
 *	only with --progress; progress is in [0, 1], non-decreasing, written
 *	between timed regions (never inside one) and flushed at once.
 *   {"type":"result","name":"status","params":{"loops":20000,...,"repeat":10},
 *    "results":{"KEY":{"value":3.37,"unit":"usecs/op","label":"...",
 *		      "min":3.1,"median":3.37,"max":9.8,"samples":10,"of":"runs",
 *		      "bimodal":false},...},
 *    "notes":["...",...],
 *    "series":[{"name":"breakpoints","x":"breakpoints","unit":"usecs/op",
 *		 "points":[{"x":0,"value":43.0},...]},...]}
 *	the last line of a successful run; "series" only when the run swept.
 *	"min", "median", "max" and "samples" only for a figure that repeats:
 *	the spread of its samples ("of" says what one sample is: "runs",
 *	"blocks of 10 ops"); "bimodal" is true when they fall into two groups
 *	far apart, and the notes say which. "notes" are what the default
 *	format prints as "# " lines after perf's: the spread, the causes
 *	counted during the timed part, how the work differs from perf's.
 *	Figures the machine could not give are not in "results" but in
 *	"unavailable":{"KEY":{"unit":"cycles","label":"...","reason":"..."}}.
 *   {"type":"skipped","name":"...","error":"ENODEV","message":"..."}
 *	the machine cannot run it (perf bench's "Skipping ... No hardware
 *	support"); exit status 0.
 *   {"type":"error","name":"...","error":"ENOSPC","message":"..."}
 *	it failed; exit status 1.
 *
 * `ptop bench all` writes one such sequence per benchmark. Standard error
 * carries nothing in JSON mode but usage errors (exit status 2) and
 * "ptop: write error: REASON" when standard output fails (exit status 1). A
 * reader that goes away ends the run quietly, with exit status 0.
 */
#ifndef PTOP_BENCH_H
#define PTOP_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BENCH_MAX_OPTIONS 12 /* per benchmark, not counting the common ones */
#define BENCH_MAX_VALUES 128 /* synthesize: 4 per thread count of its sweep */
#define BENCH_MAX_SERIES 4
#define BENCH_MAX_NOTES 16

enum bench_opt_type {
	BENCH_OPT_UINT,	  /* unsigned int in [min, max] */
	BENCH_OPT_STRING, /* const char *, borrowed from argv */
	BENCH_OPT_FLAG,	  /* bool, no value */
};

/* One option of a benchmark; a table ends with an entry whose name is NULL. */
struct bench_option {
	const char *name; /* long name, without "--" */
	char short_name;  /* 0: none */
	enum bench_opt_type type;
	size_t offset;	  /* of the field in the benchmark's params struct */
	unsigned int min; /* BENCH_OPT_UINT bounds, inclusive */
	unsigned int max;
	const char *arg;  /* the value's name in help ("N", "PATH") */
	const char *help; /* N_()-marked, one line */
};

/* How a value prints in the default and simple formats. */
enum bench_value_style {
	BENCH_STYLE_FIGURE, /* " %14lf UNIT[  LABEL]", as perf's "usecs/op" lines */
	BENCH_STYLE_TOTAL,  /* " %14s: S.mmm [sec]" and a blank line, as perf's Total time */
	BENCH_STYLE_COUNT,  /* "  LABEL: N", an integer */
	BENCH_STYLE_LINE,   /* "LABEL" as is: the benchmark wrote the figure into it */
	BENCH_STYLE_HIDDEN, /* JSON and the pane only: a note says it in text */
};

struct bench_value {
	const char *key;   /* JSON member name, [a-z0-9_] */
	const char *label; /* human text, N_()-marked or built in the result's text */
	const char *unit;  /* "usecs/op", "sec", "" */
	double value;	   /* in unit */
	enum bench_value_style style;
	bool simple; /* printed by --format=simple */
	/* Why the figure could not be measured, or NULL; value is then meaningless. */
	const char *unavailable;
	/* The spread of a repeated figure: samples 0 when it does not repeat. */
	unsigned int samples;
	const char *of;		 /* what one sample is: "runs", "blocks of 10 ops" */
	double min, median, max; /* in unit */
	bool bimodal;		 /* two groups of samples far apart: see bench_set_spread() */
	double low, high;	 /* bimodal: the medians of the two groups */
	unsigned int nlow;	 /* bimodal: samples in the lower group */
};

struct bench_point {
	double x;     /* the swept parameter's value */
	double value; /* in the series' unit */
};

/* A sweep: one parameter varied, the others as given. */
struct bench_series {
	const char *name;	    /* JSON name, as key */
	const char *x;		    /* the parameter's option name */
	const char *unit;	    /* of the values */
	struct bench_point *points; /* heap, owned by the result */
	size_t n, cap;
};

struct bench_result {
	char header[256];  /* perf-like "# ..." line without "# ", or empty */
	char message[256]; /* why it failed or was skipped, or empty */
	char text[16384];  /* storage for labels and notes built at run time */
	size_t text_len;
	struct bench_value values[BENCH_MAX_VALUES];
	size_t nvalues;
	struct bench_series series[BENCH_MAX_SERIES];
	size_t nseries;
	const char *notes[BENCH_MAX_NOTES]; /* in text; "# " lines after perf's */
	size_t nnotes;
};

/* What a running benchmark may use of its caller. */
struct bench_ctx {
	unsigned int repeat; /* --repeat, >= 1 */
	/* Called with done in [0, 1] between timed regions; may be NULL. */
	void (*progress)(void *arg, double done);
	void *progress_arg;
};

struct bench_desc {
	const char *name;    /* on the command line: "breakpoint-thread" */
	const char *title;   /* in "# Running 'TITLE' benchmark:", perf's name where one exists */
	const char *summary; /* N_()-marked, one line */
	const struct bench_option *options; /* NULL-name terminated */
	size_t params_size;		    /* bytes of the params struct */
	const void *defaults;		    /* a params struct with the defaults */
	/*
	 * Run with params (a struct of params_size bytes, defaults overridden by
	 * options) and fill res, which the caller zeroed. Returns 0, -ENODEV when
	 * the machine lacks what it needs, or another -errno, with res->message
	 * saying what failed. Must not print or exit.
	 */
	int (*run)(const void *params, const struct bench_ctx *ctx, struct bench_result *res);
};

extern const struct bench_desc bench_status;
extern const struct bench_desc bench_breakpoint_thread;
extern const struct bench_desc bench_breakpoint_enable;
extern const struct bench_desc bench_rdpmc;
extern const struct bench_desc bench_synthesize;
extern const struct bench_desc bench_scan;
extern const struct bench_desc bench_inject_build_id;

/*
 * A params struct for d holding its defaults, from xmalloc (free() it). Set
 * one option by name from its text form: returns 0, -ENOENT for no such
 * option, -EINVAL for a malformed value, -ERANGE for one outside [min, max].
 * A string option keeps the pointer: value must outlive params. A flag takes
 * NULL, "1"/"0", "true"/"false".
 */
void *bench_params_new(const struct bench_desc *d);
int bench_params_set(const struct bench_desc *d, void *params, const char *name, const char *value);

/* How many benchmarks bench.c's table registers. */
unsigned int bench_count(void);
/* The registered benchmark with index id (< bench_count()), or by name (NULL: none). */
const struct bench_desc *bench_get(unsigned int id);
const struct bench_desc *bench_find(const char *name);

/*
 * Run d with params (defaults when NULL) and fill res (zeroed here first).
 * Returns what d->run returns; free res with bench_result_free() either way.
 */
int bench_run(const struct bench_desc *d, const void *params, const struct bench_ctx *ctx,
	      struct bench_result *res);

/*
 * Append a value; label and unit must outlive res (literals, or bench_text()).
 * Returns it, or NULL when res has BENCH_MAX_VALUES already.
 */
struct bench_value *bench_add_value(struct bench_result *res, const char *key, const char *label,
				    const char *unit, double value, enum bench_value_style style,
				    bool simple);
/* Append a figure that could not be measured; reason must outlive res too. */
void bench_add_unavailable(struct bench_result *res, const char *key, const char *label,
			   const char *unit, const char *reason);
/* Start a series; returns it for bench_series_add(). */
struct bench_series *bench_add_series(struct bench_result *res, const char *name, const char *x,
				      const char *unit);
/* Append a point (allocates through xreallocarray: never fails). */
void bench_series_add(struct bench_series *s, double x, double value);
/* Format into res->text and return the string, or "" when res->text is full. */
__attribute__((format(printf, 2, 3))) const char *bench_text(struct bench_result *res,
							     const char *fmt, ...);
/* Frees the series' points; res may be reused after bench_run() zeroes it. */
void bench_result_free(struct bench_result *res);

/* Report progress through ctx (no-op without a callback), clamped to [0, 1]. */
void bench_progress(const struct bench_ctx *ctx, double done);

/* Median of n doubles (sorts v in place); 0 when n is 0. */
double bench_median(double *v, size_t n);

/*
 * Give v (may be NULL: then nothing) the spread of n samples (sorted in
 * place): min, median, max, and whether they are bimodal: the largest step
 * between neighbours in sorted order, with at least a tenth of the samples
 * (and two) on each side, is a factor of BENCH_BIMODAL_RATIO or more; low and
 * high are then the medians of the two groups. of must outlive the result.
 */
#define BENCH_BIMODAL_RATIO 3.0
void bench_set_spread(struct bench_value *v, double *samples, size_t n, const char *of);

/* Append a note (a "# " line in the default format), formatted into res->text. */
__attribute__((format(printf, 2, 3))) void bench_note(struct bench_result *res, const char *fmt,
						      ...);

/*
 * What the kernel counts while a benchmark's timed part runs, as causes of
 * its figure: function-call IPIs (the CAL row of /proc/interrupts, all CPUs,
 * so other processes' count too), and this process's context switches and
 * CPU migrations (software counters, inherited by threads created after
 * bench_causes_open()). A figure the machine cannot give is left at -1.
 */
struct bench_causes {
	int fd_cs, fd_mig;	      /* -1: not counted */
	int64_t ipis, cs, migrations; /* deltas after bench_causes_stop(), or -1 */
	int64_t ipis0, cs0, mig0;
};

/* Open the counters (before the threads they should cover are created). */
void bench_causes_open(struct bench_causes *c);
/* Mark the start and the end of the timed part. */
void bench_causes_start(struct bench_causes *c);
void bench_causes_stop(struct bench_causes *c);
void bench_causes_close(struct bench_causes *c);
/* The sum of the CAL row of /proc/interrupts under root; 0 or -errno. */
int bench_read_call_ipis(const char *proc_root, uint64_t *out);
/*
 * Add the causes to res: values "ipis", "context_switches", "migrations"
 * (per op when ops > 0 too) and a note naming them.
 */
void bench_add_causes(struct bench_result *res, const struct bench_causes *c, double ops);

/*
 * Pin this process (and the threads it creates after) to the CPUs in list,
 * as taskset -c LIST: "0", "0-2,5". Returns 0, -EINVAL for a malformed list
 * or one naming no CPU (or one of CPU_SETSIZE or more), -ENODEV when none of
 * its CPUs is online, or another -errno of sched_setaffinity(2).
 */
int bench_pin(const char *list);

/* One line of the JSON protocol, read back (src/bench/protocol.c). */
enum bench_msg_type {
	BENCH_MSG_UNKNOWN,
	BENCH_MSG_PROGRESS,
	BENCH_MSG_RESULT,
	BENCH_MSG_SKIPPED,
	BENCH_MSG_ERROR,
};

struct bench_msg {
	enum bench_msg_type type;
	char name[64];
	double progress;	    /* BENCH_MSG_PROGRESS */
	struct bench_result result; /* values and series (RESULT); message (SKIPPED, ERROR) */
};

/*
 * Parse one line (without its newline). Returns 0, or -EINVAL for a line
 * that is not a protocol object; free m->result with bench_result_free().
 */
int bench_msg_parse(const char *line, size_t len, struct bench_msg *m);

/* Records of a perf.data stream in pipe mode, counted by bench_synth_decode(). */
struct bench_synth_counts {
	uint64_t records; /* all, after the 16-byte pipe header */
	uint64_t attr;	  /* PERF_RECORD_HEADER_ATTR */
	uint64_t comm, mmap2, fork;
	uint64_t other; /* any other type */
	uint64_t pid_comm, pid_mmap2,
	    pid_fork; /* of those, the ones whose pid is the one asked for */
};

/*
 * Walk a perf.data stream in pipe mode, as `ptop bench synthesize --output`
 * writes it: the header ("PERFILE2", size 16), then records. Counts them by
 * type into *out (zeroed first), and separately those of process pid (the
 * record's pid field; pid 0 matches none). Never reads past buf + len.
 * Returns 0, or -EINVAL for a bad magic or header size, or a record that is
 * shorter than 8 bytes, runs past the end, or is too short for its type or
 * has a COMM or MMAP2 string without its NUL; *out then counts the records
 * before it. The stream must be in the host's byte order.
 */
int bench_synth_decode(const void *buf, size_t len, int pid, struct bench_synth_counts *out);

/* What bench_inject_stream() did. */
struct bench_inject_stats {
	uint64_t records;	    /* read, after the 16-byte pipe header */
	uint64_t samples, mmaps;    /* PERF_RECORD_SAMPLE, PERF_RECORD_MMAP2 among them */
	uint64_t dsos;		    /* files the MMAP2 records named */
	uint64_t build_ids;	    /* HEADER_BUILD_ID records written */
	uint64_t no_build_id;	    /* DSOs wanted whose file gave no build-id */
	uint64_t reads, read_bytes; /* read(2) calls (the one that saw the end too), bytes */
	size_t min_request;	    /* bytes: the fewest one read(2) asked for */
	uint64_t writes;	    /* write(2) calls */
};

/* Bytes the buffered reader asks read(2) for, at least, and its writes gather. */
#define PERFDATA_READ_MIN (64 * 1024)

/*
 * perf inject -b over a perf.data pipe stream: read it from in, write its
 * records to out, each DSO's HEADER_BUILD_ID record (pid -1, the build-id
 * read from the file's ELF note when it is first wanted) before the first
 * sample that hits one of its maps, or with all before its first MMAP2.
 * Unbuffered, it makes one read(2) per record header and one per body (more
 * only when the pipe hands out less) and one write(2) per record; buffered,
 * each read(2) asks for at least PERFDATA_READ_MIN bytes, and records are
 * written PERFDATA_READ_MIN bytes at a time. Samples are read as the
 * stream's event describes them (IP and TID needed; other records pass).
 * Fills *st (zeroed first; counts up to a failure). Returns 0, -EINVAL for a
 * bad stream (a truncated header, a wrong or byte-swapped magic, a record
 * shorter than 8 bytes or past the end, one too short for its type), or
 * another -errno of read(2) or write(2); msg (msglen bytes) says which, and
 * at which offset.
 */
int bench_inject_stream(int in, int out, bool buffered, bool all, struct bench_inject_stats *st,
			char *msg, size_t msglen);

/*
 * The GNU build-id of the ELF file at path, from its NT_GNU_BUILD_ID note
 * (libelf), into id (at most 20 bytes) and *n. Returns 0, -ENOENT when it
 * has none, -ENOEXEC when it is not ELF, or the -errno of open(2).
 */
int bench_build_id(const char *path, unsigned char id[20], size_t *n);

/*
 * Append to out the stream perf bench internals inject-build-id feeds its
 * reader: the pipe header and a task-clock event sampling IP|TID|TIME, a
 * FORK of pid, then mmaps MMAP2 records of DSOs picked by rand_r(seed) from
 * dsos (ndsos of them, at least one; DSO i mapped at perf's fake address
 * 0x400000 + i * 8192), each followed by samples samples in it, and a
 * FINISHED_ROUND after every tenth.
 */
struct sbuf;
void bench_inject_build(struct sbuf *out, const char *const *dsos, size_t ndsos, unsigned int mmaps,
			unsigned int samples, unsigned int *seed, uint32_t pid);

/*
 * `ptop bench ARGS...`: argv[0] is "bench". Prints to stdout through
 * write_out() (and usage errors to stderr, prefixed with progname); SIGPIPE
 * must be ignored. Returns the exit status: 0 (also when the reader of stdout
 * went away), 1 when a benchmark failed or stdout could not be written, 2 on
 * bad usage.
 */
int bench_main(int argc, char **argv, const char *progname);

#endif
