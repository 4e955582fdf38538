// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * main.c: ptop's entry: options, then dispatch to batch mode (-b) or the
 * interactive viewer. Bad options end here with a usage message and status 2;
 * a run stopped by a signal ends here by that signal.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <pwd.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "ptop/batch.h"
#include "ptop/bench.h"
#include "ptop/replay.h"
#include "ptop/ui.h"
#include "bpf/bpfsrc.h"
#include "proc/num.h"

#define EXIT_USAGE 2

static const char *progname = "ptop";

static void __attribute__((noreturn, format(printf, 1, 2))) usage_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", progname);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, _("\nTry '%s --help' for more information.\n"), progname);
	exit(EXIT_USAGE);
}

/*
 * Outputs other than the viewer's report a reader that went away as EPIPE,
 * which write_out() takes for the quiet end it is, instead of dying of it.
 */
static void ignore_sigpipe(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_IGN;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGPIPE, &sa, NULL);
}

/* Write out and free b; returns the exit status: 0, also for a closed pipe, or 1. */
static int put_stdout(struct sbuf *b)
{
	int err;

	ignore_sigpipe();
	err = write_out(STDOUT_FILENO, b->p, b->len);
	sbuf_free(b);
	return err && err != -EPIPE;
}

/*
 * A run stopped by signal N (status 128+N) ends by N's default action, so
 * that the parent sees the signal: a shell running a script stops it after a
 * child died of SIGINT, not after one that exited with 130.
 */
static int end_status(int status)
{
	if (status > 128 && status < 128 + NSIG) {
		int sig = status - 128;
		sigset_t set;

		signal(sig, SIG_DFL);
		sigemptyset(&set);
		sigaddset(&set, sig);
		sigprocmask(SIG_UNBLOCK, &set, NULL);
		raise(sig);
	}
	return status;
}

/* The output formats' names, for messages ("text, json, csv"). */
static const char *format_names(void)
{
	static struct sbuf b;

	if (!b.len)
		output_format_names(&b);
	return sbuf_cstr(&b);
}

/* The output formats, a line each, below --format in the usage text. */
static void help_formats(struct sbuf *b)
{
	int w = 0;

	for (const struct output_format_def *const *f = output_formats; *f; f++)
		if ((int)strlen((*f)->name) > w)
			w = (int)strlen((*f)->name);
	for (const struct output_format_def *const *f = output_formats; *f; f++)
		sbuf_printf(b, "%27s%-*s  %s\n", "", w, (*f)->name, _((*f)->summary));
}

/* The names -O lists, after the usage text's "Fields: ". */
static void help_fields(struct sbuf *b)
{
	for (int i = 0; i < FIELD_COUNT; i++)
		sbuf_printf(b, "%s%s", i ? ", " : "", field_defs[i].name);
	sbuf_adds(b, ".\n\n");
}

static void help_record(struct sbuf *b)
{
	sbuf_printf(
	    b,
	    _("Recording and replay:\n"
	      "       %s [-b] --record FILE|DIR [--keep DAYS] [options]\n"
	      "       %s -r FILE|DIR [-b [-o FORMAT] | --summary] [--begin TIME] [--end TIME]\n"
	      "      --record=FILE|DIR    record frames into FILE (appended to), or into DIR\n"
	      "                           with one file per day; with -b, also print\n"
	      "      --keep=DAYS          DIR keeps its files of DAYS days besides today\n"
	      "  -r, --replay=FILE|DIR    replay a recording, or DIR's day files as one: the\n"
	      "                           viewer, or with -b its frames\n"
	      "      --begin=TIME, --end=TIME  the frames replayed or summed up: HH:MM[:SS]\n"
	      "                           on the recording's first day or YYYY-MM-DD HH:MM[:SS]\n"
	      "      --summary            what a recording holds: when, processes, top\n"
	      "                           consumers, what recording cost\n"
	      "\n"),
	    progname, progname);
}

/* htop's options, where top's do not have the letter (-s, -H, -U, -u and -d stay top's). */
static void help_htop(struct sbuf *b)
{
	sbuf_adds(b,
		  _("Options of htop's (for the viewer; -s, -H, -u, -U and -d keep top's "
		    "meanings):\n"
		    "  -t, --tree               start in the tree view\n"
		    "  -C, --no-color           monochrome (also --no-colour, or NO_COLOR set)\n"
		    "  -F, --filter=TEXT        show only commands containing TEXT, in any case\n"
		    "                           (in batch mode too: the name, and with -c the\n"
		    "                           command line)\n"
		    "  -M, --no-mouse           no mouse\n"
		    "      --no-unicode         ASCII only, whatever the locale\n"
		    "      --sort-key=FIELD     sort by FIELD, by -O's names or htop's\n"
		    "                           (PERCENT_CPU, M_RESIDENT, ...)\n"
		    "      --keys=htop|top      whose meanings the viewer's keys have and whose\n"
		    "                           headings its columns (over ptoprc's); batch text\n"
		    "                           has top's headings unless --keys=htop\n"
		    "      --highlight-changes[=DELAY]  colour processes that started or ended in\n"
		    "                           the last DELAY seconds (default 5; htop's -H)\n"
		    "\n"));
}

static int help(void)
{
	struct sbuf b = {0}, formats = {0};

	help_formats(&formats);
	sbuf_printf(
	    &b,
	    _("Usage: %s [options]\n"
	      "       %s -b [-n N] [-d SECONDS] [-p PID,...] [-u|-U [!]USER] [-o [+|-]FIELD]\n"
	      "             [-o FORMAT] [--fields LIST] [-w [N]] [-E UNIT] [-e UNIT] [-iS1sHc]\n"
	      "             [--listen [ADDR:]PORT]\n"
	      "       %s --listen [ADDR:]PORT [--group-by KEY] [--top-pids N]\n"
	      "       %s bench list | all | NAME [options]   (see '%s bench --help')\n"
	      "\n"
	      "A process viewer that shows what observing costs.\n"
	      "\n"
	      "Options (top's, with top's meanings):\n"
	      "  -b, --batch              write frames to standard output instead of the viewer\n"
	      "  -n, --iterations=N       stop after N frames (default: until interrupted)\n"
	      "  -d, --delay=SECONDS      time between frames, may be fractional (default 3)\n"
	      "  -p, --pid=PID[,PID...]   show only these processes (repeatable)\n"
	      "  -u, --user=[!]USER       show only processes of USER (effective; name or uid),\n"
	      "                           with ! all but USER's\n"
	      "  -U, --filter-any-user=[!]USER  as -u, matching real, effective, saved or\n"
	      "                           file system user\n"
	      "  -o, --sort-override=[+|-]FIELD  sort by FIELD as -O lists it; + high to low,\n"
	      "                           - low to high\n"
	      "  -O, --list-fields        list the fields, one a line, and exit\n"
	      "  -w, --width[=N]          batch text lines of N columns (default: COLUMNS, the\n"
	      "                           terminal's, else 80; -w alone: COLUMNS, else 512)\n"
	      "  -E, --scale-summary-mem=k|m|g|t|p|e  summary memory unit (default m)\n"
	      "  -e, --scale-task-mem=k|m|g|t|p  smallest unit of memory columns (default k)\n"
	      "  -i, --idle-toggle        hide processes that used no CPU in the interval\n"
	      "  -S, --accum-time-toggle  TIME+ with the time of dead children\n"
	      "  -1, --single-cpu-toggle  a summary line per CPU\n"
	      "  -s, --secure-mode        secure mode\n"
	      "  -H, --threads            a row per thread instead of per process\n"
	      "  -c, --cmdline            command lines instead of program names\n"
	      "\n"
	      "ptop's own:\n"
	      "  -o, --format=FORMAT      batch format (default: text):\n"
	      "%s"
	      "      --fields=LIST        batch columns, by -O's names, separated by commas\n"
	      "      --sort=[+|-]FIELD    sort by FIELD; + ascending, - descending\n"
	      "      --exited             text: the processes that ended in each interval after\n"
	      "                           the rows (an exit hook's; JSON and CSV always)\n"
	      "      --counters[=EVENT,...]  per-process counters (default: cycles,\n"
	      "                           instructions, cache-misses, branch-misses; software\n"
	      "                           events where the machine has no PMU)\n"
	      "      --counter-budget=N   attach counters to N processes at most (default 32)\n"
	      "      --perf-fds           count each process's perf_event descriptors\n"
	      "      --watch=PID:ADDR[:LEN[:TYPE]]  arm a hardware breakpoint (repeatable);\n"
	      "                           ADDR in hex or REGION+OFFSET such as [heap]+0x40,\n"
	      "                           LEN 1, 2, 4 or 8, TYPE r, w, rw or x (default 4, w)\n"
	      "      --listen=[ADDR:]PORT  serve metrics for Prometheus on "
	      "http://ADDR:PORT/metrics\n"
	      "                           (ADDR 127.0.0.1 unless given); without -b, write "
	      "nothing\n"
	      "      --group-by=KEY       group the metrics by comm, user or cgroup (default "
	      "comm)\n"
	      "      --max-groups=N       N groups with their own series, the busiest over 5\n"
	      "                           minutes; the rest in 'other' (default 64)\n"
	      "      --kernel-threads=HOW kernel (one group named 'kernel', the default) or\n"
	      "                           grouped (by --group-by, as any process)\n"
	      "      --metrics-config=FILE  group as prometheus-process-exporter's YAML\n"
	      "                           configuration FILE says (process_names:)\n"
	      "      --metrics-names=NAMES  ptop (ptop_*, the default) or process-exporter\n"
	      "                           (its namedprocess_namegroup_* families and labels)\n"
	      "      --top-pids=N         also export the N busiest processes by PID; opt-in, as\n"
	      "                           each PID makes new series that Prometheus keeps\n"
	      "      --expose-cmdline     give the top processes' command lines (may hold "
	      "secrets)\n"
	      "      --viewer             with --listen: show the viewer while serving\n"
	      "      --source=SOURCE      read processes from auto (BPF when privileged, else\n"
	      "                           /proc; the default), procfs, bpf or bpf-delta\n"
	      "  -h, --help               show this help and exit\n"
	      "  -V, --version            show the version and exit\n"
	      "\n"
	      "Fields: "),
	    progname, progname, progname, progname, progname, sbuf_cstr(&formats));
	sbuf_free(&formats);
	help_fields(&b);
	help_record(&b);
	help_htop(&b);
	sbuf_adds(&b, _("See ptop(1) for more.\n"));
	return put_stdout(&b);
}

/*
 * A whole number in [min, max] for option opt (as "-n/--iterations"), or a
 * usage error naming opt: nothing out of range is truncated or clamped.
 */
static uint64_t parse_num(const char *opt, const char *arg, uint64_t min, uint64_t max)
{
	const char *p = arg, *end = arg + strlen(arg);
	uint64_t v = 0;
	int err = num_u64(&p, end, &v);

	if (err == -EINVAL || (!err && p != end))
		usage_error(_("%s needs a whole number, not '%s'"), opt, arg);
	if (err || v > max)
		usage_error(_("%s must be at most %llu, not '%s'"), opt, (unsigned long long)max,
			    arg);
	if (v < min)
		usage_error(_("%s must be at least %llu, not '%s'"), opt, (unsigned long long)min,
			    arg);
	return v;
}

static void parse_pids(const char *arg, struct batch_opts *o, size_t *cap)
{
	const char *p = arg, *end = arg + strlen(arg);

	while (*p) {
		uint64_t v;
		int err = num_u64(&p, end, &v);

		if (err == -EINVAL || (!err && *p && *p != ','))
			usage_error(_("-p/--pid needs PIDs separated by commas, not '%s'"), arg);
		if (err || v < 1 || v > INT_MAX)
			usage_error(_("-p/--pid: each PID must be between 1 and %d in '%s'"),
				    INT_MAX, arg);
		if (o->filter.npids == *cap) {
			*cap = *cap ? *cap * 2 : 16;
			o->filter.pids = xreallocarray((int *)o->filter.pids, *cap, sizeof(int));
		}
		((int *)o->filter.pids)[o->filter.npids++] = (int)v;
		if (*p == ',' && !*++p)
			usage_error(_("-p/--pid needs PIDs separated by commas, not '%s'"), arg);
	}
	if (!o->filter.npids)
		usage_error(_("-p/--pid needs PIDs separated by commas, not '%s'"), arg);
}

/* -u USER, -U USER (any of its uids), either with '!' for all but USER, as top's. */
static void parse_user(const char *arg, struct batch_opts *o, bool any)
{
	bool not = *arg == '!';

	if (users_parse(arg + not, &o->filter.uid))
		usage_error(_("unknown user: '%s'"), arg);
	o->filter.by_uid = true;
	o->filter.uid_any = any;
	o->filter.uid_not = not ;
}

/*
 * The field a mistyped name may have meant, as " (did you mean 'X'?)": the
 * nearest of its titles and names, top's title where several are as near
 * ("CGROUPS": 'CGROUP', "NLPW": 'NLWP'); "" when none is near.
 */
static const char *field_hint(const char *name)
{
	static char hint[96];
	struct suggest sg;

	suggest_init(&sg, *name == '+' || *name == '-' ? name + 1 : name);
	for (int i = 0; i < FIELD_COUNT; i++) {
		suggest_try(&sg, field_defs[i].title);
		suggest_try(&sg, field_defs[i].name);
		if (field_defs[i].htop)
			suggest_try(&sg, field_defs[i].htop);
		if (field_defs[i].htop_title)
			suggest_try(&sg, field_defs[i].htop_title);
	}
	if (!suggest_best(&sg))
		return "";
	snprintf(hint, sizeof(hint), _(" (did you mean '%s'?)"), suggest_best(&sg));
	return hint;
}

/*
 * [+|-]FIELD into ord, or false when FIELD is no field. top's -o reads '+'
 * as high to low and '-' as low to high; ptop's --sort (top_signs false)
 * has always read '+' as ascending and '-' as descending.
 */
static bool sort_by(const char *arg, struct row_order *ord, bool top_signs)
{
	const char *name = arg;
	int id;
	char dir = 0;

	if (*name == '+' || *name == '-')
		dir = *name++;
	id = field_named(name, false);
	if (id < 0)
		return false;
	ord->field = (enum field_id)id;
	if (top_signs && dir)
		dir = dir == '+' ? '-' : '+';
	ord->reverse = dir && (dir == '+') != field_defs[id].ascending;
	return true;
}

static void parse_sort(const char *arg, struct row_order *ord)
{
	if (!sort_by(arg, ord, false))
		usage_error(_("unknown sort field: '%s'%s"), arg, field_hint(arg));
}

/* --fields pid,user,%CPU: the columns batch output shows, in that order. */
static void parse_fields(const char *arg, struct batch_opts *o)
{
	static enum field_id ids[FIELD_COUNT * 2];
	char *copy = xstrdup(arg), *save = NULL;
	size_t n = 0;

	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		int id = field_named(t, false);

		if (id < 0)
			usage_error(_("unknown field in --fields: '%s'%s (see -O)"), t,
				    field_hint(t));
		if (n == sizeof(ids) / sizeof(ids[0]))
			usage_error(_("too many fields in --fields: '%s'"), arg);
		ids[n++] = (enum field_id)id;
	}
	free(copy);
	if (!n)
		usage_error(_("--fields needs a list of fields, not '%s'"), arg);
	o->view.columns = ids;
	o->view.ncolumns = n;
}

/* -E and -e: one letter of k, m, g, t, p (and e for -E), as top's. */
static enum mem_unit parse_unit(const char *opt, const char *arg, enum mem_unit max)
{
	int u = arg[0] && !arg[1] ? mem_unit_by_letter(arg[0]) : -1;

	if (u < 0 || u > (int)max)
		usage_error(_("%s needs one of k, m, g, t, p%s, not '%s'"), opt,
			    max == UNIT_EIB ? ", e" : "", arg);
	return (enum mem_unit)u;
}

#define MAX_WIDTH 512 /* top's */
#define MIN_WIDTH 3

/* COLUMNS from the environment, when it holds a usable width; else 0. */
static int env_columns(void)
{
	const char *e = getenv("COLUMNS");
	const char *p = e, *end = e ? e + strlen(e) : NULL;
	uint64_t v;

	if (!e || num_u64(&p, end, &v) || p != end || v < MIN_WIDTH)
		return 0;
	return v > MAX_WIDTH ? MAX_WIDTH : (int)v;
}

/* Batch text's width as top's: COLUMNS, else the terminal's, else 80 columns. */
static int default_width(void)
{
	struct winsize ws;
	int w = env_columns();

	if (w)
		return w;
	if (isatty(STDOUT_FILENO) && !ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) && ws.ws_col)
		return ws.ws_col > MAX_WIDTH ? MAX_WIDTH : ws.ws_col;
	return 80;
}

/* -w [N]: N columns; alone, COLUMNS or top's 512. The value may be the next word. */
static int parse_width(const char *arg, char **argv, int argc)
{
	int w;

	if (!arg && optind < argc && argv[optind][0] >= '0' && argv[optind][0] <= '9')
		arg = argv[optind++];
	if (!arg) {
		w = env_columns();
		return w ? w : MAX_WIDTH;
	}
	return (int)parse_num("-w/--width", arg, MIN_WIDTH, MAX_WIDTH);
}

/* -O: the names -o and --fields take, one a line, as top -O lists its own. */
static int list_fields(void)
{
	struct sbuf b = {0};

	for (int i = 0; i < FIELD_COUNT; i++)
		sbuf_printf(&b, "%s\n", field_defs[i].title);
	return put_stdout(&b);
}

#define MAX_DELAY_S (86400 * 365)

static double parse_delay(const char *arg)
{
	char *end;
	double v;

	errno = 0;
	v = strtod_user(arg, &end);
	if (end == arg || *end || isnan(v))
		usage_error(_("-d/--delay needs a number of seconds, not '%s'"), arg);
	/* a year: far beyond any use, and the nanoseconds of a deadline stay in range */
	if (errno || v < 0 || v > MAX_DELAY_S)
		usage_error(_("-d/--delay must be between 0 and %d seconds, not '%s'"), MAX_DELAY_S,
			    arg);
	return v;
}

static void setup_locale(void)
{
	const char *lc = setlocale(LC_ALL, ""), *language = getenv("LANGUAGE");
	const char *dir = getenv("PTOP_LOCALEDIR");

	/* gettext ignores LANGUAGE under the C locale; `LANGUAGE=de ptop` should still
	 * speak German on a machine where LANG is unset, so use C's UTF-8 twin there. */
	if (language && *language &&
	    (!lc || !strcmp(setlocale(LC_MESSAGES, NULL), "C") ||
	     !strcmp(setlocale(LC_MESSAGES, NULL), "POSIX")))
		setlocale(LC_MESSAGES, "C.UTF-8");
	bindtextdomain(PACKAGE, dir && *dir ? dir : LOCALEDIR);
	textdomain(PACKAGE);
}

enum {
	OPT_PROC_ROOT = 0x100,
	OPT_COUNTERS,
	OPT_COUNTER_BUDGET,
	OPT_WATCH,
	OPT_PERF_FDS,
	OPT_FORMAT,
	OPT_SORT,
	OPT_FIELDS,
	OPT_LISTEN,
	OPT_GROUP_BY,
	OPT_MAX_GROUPS,
	OPT_KERNEL_THREADS,
	OPT_METRICS_CONFIG,
	OPT_METRICS_NAMES,
	OPT_TOP_PIDS,
	OPT_EXPOSE_CMDLINE,
	OPT_VIEWER,
	OPT_RECORD,
	OPT_KEEP,
	OPT_BEGIN,
	OPT_END,
	OPT_SUMMARY,
	OPT_SOURCE,
	OPT_EXITED,
	OPT_KEYS,
	OPT_NO_UNICODE,
	OPT_HIGHLIGHT
};

#define DEFAULT_COUNTER_BUDGET 32
/* Each process with counters holds descriptors; more than the kernel's PID_MAX_LIMIT is a typo. */
#define MAX_COUNTER_BUDGET (4 * 1024 * 1024)

/* "cycles,instructions": names kept in one copy, split in place. */
static void parse_events(const char *arg, struct batch_opts *o)
{
	static const char *names[PERF_GROUP_MAX];
	char *copy = xstrdup(arg), *save = NULL;
	int n = 0;

	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		if (n == PERF_GROUP_MAX)
			usage_error(_("too many events (at most 8): '%s'"), arg);
		names[n++] = t;
	}
	if (!n)
		usage_error(_("invalid event list: '%s'"), arg);
	o->observe.events = names;
	o->observe.nevents = n;
}

static void parse_watch(const char *arg, struct batch_opts *o, size_t *cap)
{
	struct perf_bp_spec spec;

	if (perf_bp_parse(arg, &spec))
		usage_error(_("invalid --watch '%s' (PID:ADDR[:LEN[:TYPE]], LEN 1/2/4/8, "
			      "TYPE r, w, rw or x)"),
			    arg);
	if (o->nwatches == *cap) {
		*cap = *cap ? *cap * 2 : 4;
		o->watches = xreallocarray((void *)o->watches, *cap, sizeof(spec));
	}
	((struct perf_bp_spec *)o->watches)[o->nwatches++] = spec;
}

static const struct option longopts[] = {
    {"batch", no_argument, NULL, 'b'},
    {"iterations", required_argument, NULL, 'n'},
    {"delay", required_argument, NULL, 'd'},
    {"pid", required_argument, NULL, 'p'},
    {"user", required_argument, NULL, 'u'},
    {"sort", required_argument, NULL, OPT_SORT},
    {"format", required_argument, NULL, OPT_FORMAT},
    {"output", required_argument, NULL, OPT_FORMAT},
    {"fields", required_argument, NULL, OPT_FIELDS},
    {"threads", no_argument, NULL, 'H'},
    {"cmdline", no_argument, NULL, 'c'},
    /* top's long names */
    {"sort-override", required_argument, NULL, 'o'},
    {"list-fields", no_argument, NULL, 'O'},
    {"width", optional_argument, NULL, 'w'},
    {"filter-any-user", required_argument, NULL, 'U'},
    {"filter-only-euser", required_argument, NULL, 'u'},
    {"scale-summary-mem", required_argument, NULL, 'E'},
    {"scale-task-mem", required_argument, NULL, 'e'},
    {"idle-toggle", no_argument, NULL, 'i'},
    {"accum-time-toggle", no_argument, NULL, 'S'},
    {"single-cpu-toggle", no_argument, NULL, '1'},
    {"secure-mode", no_argument, NULL, 's'},
    {"threads-show", no_argument, NULL, 'H'},
    {"cmdline-toggle", no_argument, NULL, 'c'},
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, 'V'},
    {"proc-root", required_argument, NULL, OPT_PROC_ROOT},
    {"counters", optional_argument, NULL, OPT_COUNTERS},
    {"counter-budget", required_argument, NULL, OPT_COUNTER_BUDGET},
    {"watch", required_argument, NULL, OPT_WATCH},
    {"perf-fds", no_argument, NULL, OPT_PERF_FDS},
    {"listen", required_argument, NULL, OPT_LISTEN},
    {"group-by", required_argument, NULL, OPT_GROUP_BY},
    {"max-groups", required_argument, NULL, OPT_MAX_GROUPS},
    {"kernel-threads", required_argument, NULL, OPT_KERNEL_THREADS},
    {"metrics-config", required_argument, NULL, OPT_METRICS_CONFIG},
    {"metrics-names", required_argument, NULL, OPT_METRICS_NAMES},
    {"top-pids", required_argument, NULL, OPT_TOP_PIDS},
    {"expose-cmdline", no_argument, NULL, OPT_EXPOSE_CMDLINE},
    {"viewer", no_argument, NULL, OPT_VIEWER},
    {"record", required_argument, NULL, OPT_RECORD},
    {"keep", required_argument, NULL, OPT_KEEP},
    {"replay", required_argument, NULL, 'r'},
    {"begin", required_argument, NULL, OPT_BEGIN},
    {"end", required_argument, NULL, OPT_END},
    {"summary", no_argument, NULL, OPT_SUMMARY},
    {"source", required_argument, NULL, OPT_SOURCE},
    {"exited", no_argument, NULL, OPT_EXITED},
    /* htop's, where they do not clash with top's (-s, -H, -U, -u, -d stay top's) */
    {"sort-key", required_argument, NULL, OPT_SORT},
    {"tree", no_argument, NULL, 't'},
    {"no-color", no_argument, NULL, 'C'},
    {"no-colour", no_argument, NULL, 'C'},
    {"filter", required_argument, NULL, 'F'},
    {"no-mouse", no_argument, NULL, 'M'},
    {"no-unicode", no_argument, NULL, OPT_NO_UNICODE},
    {"keys", required_argument, NULL, OPT_KEYS},
    {"highlight-changes", optional_argument, NULL, OPT_HIGHLIGHT},
    {NULL, 0, NULL, 0},
};

/* What the command line asked for. */
struct cli {
	struct batch_opts o; /* the viewer takes its part of these too */
	size_t pids_cap, watch_cap;
	bool batch, delay_given, sort_given, width_given, summary, keep_given, source_given;
	bool summary_unit_given, task_unit_given; /* -E, -e: over ptoprc's in the viewer */
	bool secure;				  /* -s: top's secure mode */
	bool viewer;				  /* --viewer: the viewer serves --listen */
	/* htop's options, for the viewer (batch output has no colour, mouse or keys) */
	int keys;	     /* --keys: enum key_profile, or -1 */
	int highlight_delay; /* --highlight-changes[=DELAY], seconds, or -1 */
	bool tree, no_color, no_mouse, no_unicode;
	struct serve_addr listen;
	const char *metrics_opt; /* a metrics option given, for the error without --listen */
};

/* -o: ptop's output format (no field has those names), else top's sort field. */
static void parse_o(const char *arg, struct cli *cli)
{
	const struct output_format_def *fmt = output_format_by_name(arg);

	if (fmt) {
		cli->o.format = fmt;
		return;
	}
	if (!sort_by(arg, &cli->o.order, true))
		usage_error(_("-o needs a field to sort by (see -O) or an output format "
			      "(%s), not '%s'%s"),
			    format_names(), arg, field_hint(arg));
	cli->sort_given = true;
}

/*
 * -s is top's secure mode and takes no value. ptop's -s took a sort field:
 * a field name right after it is still taken so (ptop takes no other words).
 */
static void parse_s(struct cli *cli, char **argv, int argc)
{
	struct row_order ord;

	cli->secure = true;
	if (optind < argc && argv[optind][0] != '-' && sort_by(argv[optind], &ord, false)) {
		cli->o.order = ord;
		cli->sort_given = true;
		optind++;
	}
}

/* Options that shape batch output and top's filters; false when c is none. */
static bool take_top_option(int c, struct cli *cli, char **argv, int argc)
{
	struct batch_opts *o = &cli->o;

	switch (c) {
	case 'o':
		parse_o(optarg, cli);
		break;
	case 's':
		parse_s(cli, argv, argc);
		break;
	case 'U':
		parse_user(optarg, o, true);
		break;
	case 'E':
		o->view.summary_unit = parse_unit("-E", optarg, UNIT_EIB);
		cli->summary_unit_given = true;
		break;
	case 'e':
		o->view.task_unit = parse_unit("-e", optarg, UNIT_PIB);
		cli->task_unit_given = true;
		break;
	case 'w':
		o->view.width = parse_width(optarg, argv, argc);
		cli->width_given = true;
		break;
	case 'i':
		o->filter.hide_idle = true;
		break;
	case 'S':
		o->view.cumulative = true;
		break;
	case '1':
		o->per_cpu = true;
		break;
	case OPT_SORT:
		parse_sort(optarg, &o->order);
		cli->sort_given = true;
		break;
	case OPT_FIELDS:
		parse_fields(optarg, o);
		break;
	default:
		return false;
	}
	return true;
}

static void parse_group_by(const char *arg, struct metrics_opts *m)
{
	if (!strcmp(arg, "comm"))
		m->group_by = METRICS_BY_COMM;
	else if (!strcmp(arg, "user"))
		m->group_by = METRICS_BY_USER;
	else if (!strcmp(arg, "cgroup"))
		m->group_by = METRICS_BY_CGROUP;
	else
		usage_error(_("--group-by takes comm, user or cgroup, not '%s'"), arg);
}

/* A metrics option (c); -1 when c is not one. */
static int take_metrics_option(int c, struct cli *cli)
{
	struct metrics_opts *m = &cli->o.metrics;

	switch (c) {
	case OPT_LISTEN:
		if (serve_parse_addr(optarg, &cli->listen))
			usage_error(_("--listen needs [ADDR:]PORT with a numeric address and a "
				      "port up to 65535, not '%s'"),
				    optarg);
		cli->o.listen = &cli->listen;
		return 0;
	case OPT_GROUP_BY:
		parse_group_by(optarg, m);
		cli->metrics_opt = "--group-by";
		return 0;
	case OPT_MAX_GROUPS:
		m->max_groups = (unsigned)parse_num("--max-groups", optarg, 1, METRICS_MAX_GROUPS);
		cli->metrics_opt = "--max-groups";
		return 0;
	case OPT_KERNEL_THREADS:
		if (strcmp(optarg, "kernel") && strcmp(optarg, "grouped"))
			usage_error(_("--kernel-threads takes kernel or grouped, not '%s'"),
				    optarg);
		m->kthreads_grouped = !strcmp(optarg, "grouped");
		cli->metrics_opt = "--kernel-threads";
		return 0;
	case OPT_METRICS_CONFIG:
		m->config = optarg;
		cli->metrics_opt = "--metrics-config";
		return 0;
	case OPT_METRICS_NAMES:
		if (!strcmp(optarg, "ptop"))
			m->names = METRICS_NAMES_PTOP;
		else if (!strcmp(optarg, "process-exporter"))
			m->names = METRICS_NAMES_PE;
		else
			usage_error(_("--metrics-names takes ptop or process-exporter, not '%s'"),
				    optarg);
		cli->metrics_opt = "--metrics-names";
		return 0;
	case OPT_TOP_PIDS:
		m->top_pids = (unsigned)parse_num("--top-pids", optarg, 0, METRICS_MAX_TOP_PIDS);
		cli->metrics_opt = "--top-pids";
		return 0;
	case OPT_EXPOSE_CMDLINE:
		m->expose_cmdline = true;
		cli->metrics_opt = "--expose-cmdline";
		return 0;
	case OPT_VIEWER:
		cli->viewer = true;
		cli->metrics_opt = "--viewer";
		return 0;
	}
	return -1;
}

/* Options of counters, breakpoints and perf descriptors; false when c is none. */
static bool take_perf_option(int c, struct cli *cli)
{
	struct batch_opts *o = &cli->o;

	switch (c) {
	case OPT_COUNTERS:
		o->observe.counters = true;
		if (optarg)
			parse_events(optarg, o);
		break;
	case OPT_COUNTER_BUDGET:
		/* 0 would attach counters to nothing, and means the default to the viewer */
		o->observe.budget =
		    (unsigned)parse_num("--counter-budget", optarg, 1, MAX_COUNTER_BUDGET);
		break;
	case OPT_WATCH:
		parse_watch(optarg, o, &cli->watch_cap);
		break;
	case OPT_PERF_FDS:
		o->observe.perf_fds = true;
		break;
	default:
		return false;
	}
	return true;
}

/* Options of recording and replaying; false when c is none. */
static bool take_record_option(int c, struct cli *cli)
{
	struct batch_opts *o = &cli->o;

	switch (c) {
	case OPT_RECORD:
		o->record = optarg;
		break;
	case OPT_KEEP:
		o->keep_days = (unsigned)parse_num("--keep", optarg, 1, 100000);
		cli->keep_given = true;
		break;
	case 'r':
		o->replay = optarg;
		break;
	case OPT_BEGIN:
		o->begin = optarg;
		break;
	case OPT_END:
		o->end = optarg;
		break;
	case OPT_SUMMARY:
		cli->summary = true;
		break;
	default:
		return false;
	}
	return true;
}

/* htop's options that top lacks; false when c is none. */
static bool take_htop_option(int c, struct cli *cli)
{
	int prof;

	switch (c) {
	case 't':
		cli->tree = true;
		break;
	case 'C':
		cli->no_color = true;
		break;
	case 'M':
		cli->no_mouse = true;
		break;
	case OPT_NO_UNICODE:
		cli->no_unicode = true;
		break;
	case 'F':
		/* the viewer's F4 filter; in batch, the rows' commands likewise */
		if (!*optarg)
			usage_error(_("-F/--filter needs the text to look for in commands"));
		cli->o.filter.substr = optarg;
		break;
	case OPT_HIGHLIGHT:
		/* htop's -H, whose letter is top's threads here */
		cli->highlight_delay = optarg ? (int)parse_num("--highlight-changes", optarg, 1,
							       UI_HIGHLIGHT_DELAY_MAX)
					      : UI_HIGHLIGHT_DELAY;
		break;
	case OPT_KEYS:
		prof = keymap_profile_by_name(optarg);
		if (prof < 0)
			usage_error(_("--keys takes htop or top, not '%s'"), optarg);
		cli->keys = prof;
		/* batch text speaks top's language unless htop's is asked for */
		cli->o.view.htop_titles = prof == KEYS_HTOP;
		break;
	default:
		return false;
	}
	return true;
}

static int version(void)
{
	struct sbuf b = {0};

	sbuf_printf(&b, "ptop %s\n", PACKAGE_VERSION);
	sbuf_adds(&b, bpfsrc_built() ? _("frame sources: procfs, bpf, bpf-delta\n")
				     : _("frame sources: procfs (built without BPF)\n"));
	return put_stdout(&b);
}

/*
 * An option getopt did not take: a long one that is ambiguous (a prefix of
 * several) says which it could be, a mistyped one which it may have meant.
 */
static void __attribute__((noreturn)) unknown_option(const char *arg)
{
	char name[64], could[256] = "";
	size_t n, ncould = 0;
	struct suggest sg;

	if (strncmp(arg, "--", 2) || !arg[2])
		usage_error(_("unknown option '%s'"), arg);
	n = strcspn(arg + 2, "=");
	snprintf(name, sizeof(name), "%.*s", (int)n, arg + 2);
	suggest_init(&sg, name);
	for (const struct option *l = longopts; l->name; l++) {
		size_t len = strlen(could);

		suggest_try(&sg, l->name);
		if (!strncmp(l->name, name, strlen(name)) &&
		    len + strlen(l->name) + 4 < sizeof(could))
			snprintf(could + len, sizeof(could) - len, "%s--%s", ncould++ ? ", " : "",
				 l->name);
	}
	if (ncould > 1)
		usage_error(_("option '--%s' is ambiguous: %s"), name, could);
	if (suggest_best(&sg))
		usage_error(_("unknown option '--%s' (did you mean '--%s'?)"), name,
			    suggest_best(&sg));
	usage_error(_("unknown option '--%s'"), name);
}

/* One option c (with optarg) into cli; -1 to go on, or the exit status of
 * --help, --version and -O. A bad value ends ptop with a usage error. */
static int take_option(int c, struct cli *cli, char **argv, int argc)
{
	struct batch_opts *o = &cli->o;

	if (!take_metrics_option(c, cli) || take_perf_option(c, cli) ||
	    take_record_option(c, cli) || take_htop_option(c, cli))
		return -1;
	switch (c) {
	case 'b':
		cli->batch = true;
		break;
	case 'n':
		o->iterations = (long)parse_num("-n/--iterations", optarg, 1, LONG_MAX);
		break;
	case 'd':
		o->delay_s = parse_delay(optarg);
		cli->delay_given = true;
		break;
	case 'p':
		parse_pids(optarg, o, &cli->pids_cap);
		break;
	case 'u':
		parse_user(optarg, o, false);
		break;
	case 'H':
		o->threads = true;
		break;
	case 'c':
		o->view.cmdlines = true;
		break;
	case OPT_FORMAT:
		o->format = output_format_by_name(optarg);
		if (!o->format)
			usage_error(_("unknown output format: '%s' (formats: %s)"), optarg,
				    format_names());
		break;
	case OPT_PROC_ROOT:
		o->root = optarg;
		o->observe.root = optarg;
		break;
	case 'O':
		return list_fields();
	case OPT_EXITED:
		o->exited = true;
		break;
	case OPT_SOURCE:
		if (frame_source_parse(optarg, &o->source))
			usage_error(_("unknown source: '%s' (auto, procfs, bpf or bpf-delta)"),
				    optarg);
		cli->source_given = true;
		break;
	case 'h':
		return help();
	case 'V':
		return version();
	case ':':
		usage_error(_("option '%s' needs a value"), argv[optind - 1]);
	default:
		if (!take_top_option(c, cli, argv, argc))
			unknown_option(argv[optind - 1]);
	}
	return -1;
}

/* Options of recording and replaying that do not go together. */
static void check_record_options(struct cli *cli)
{
	struct batch_opts *o = &cli->o;

	if (o->record && o->replay)
		usage_error(_("--record and -r/--replay do not go together"));
	if (cli->keep_given && !o->record)
		usage_error(_("--keep needs --record DIRECTORY"));
	if ((o->begin || o->end || cli->summary) && !o->replay)
		usage_error(_("--begin, --end and --summary need -r/--replay FILE"));
	/* the viewer opens on the last frame and travels from there */
	if ((o->begin || o->end) && !cli->batch && !cli->summary)
		usage_error(_("--begin and --end need -b or --summary"));
	if (o->record && o->record[0] == '\0')
		usage_error(_("--record needs a file or a directory"));
	/* --record alone records without printing */
	o->quiet = o->record && !cli->batch;
}

/* The viewer, with what the command line gave it. */
static int run_viewer(const struct cli *cli)
{
	const struct batch_opts *o = &cli->o;
	struct ui_opts u = {
	    .root = o->root,
	    .delay_s = cli->delay_given ? o->delay_s : -1,
	    .filter = o->filter,
	    .order = cli->sort_given ? &o->order : NULL,
	    .iterations = o->iterations,
	    .counters = o->observe.counters,
	    .events = o->observe.events,
	    .nevents = o->observe.nevents,
	    .counter_budget = o->observe.budget,
	    .watches = o->watches,
	    .nwatches = o->nwatches,
	    .threads = o->threads,
	    .cmdline = o->view.cmdlines,
	    .cumulative = o->view.cumulative,
	    .secure = cli->secure,
	    .listen = o->listen,
	    .metrics = &o->metrics,
	    .replay = o->replay,
	    .source = o->source,
	    .source_given = cli->source_given,
	    .summary_unit = cli->summary_unit_given ? (int)o->view.summary_unit : -1,
	    .task_unit = cli->task_unit_given ? (int)o->view.task_unit : -1,
	    .keys = cli->keys,
	    .tree = cli->tree,
	    .no_color = cli->no_color,
	    .no_mouse = cli->no_mouse,
	    .no_unicode = cli->no_unicode,
	    .filter_text = o->filter.substr,
	    .highlight_delay = cli->highlight_delay,
	};

	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		fprintf(stderr, _("%s: the viewer needs a terminal; use -b for batch mode\n"),
			progname);
		return 1;
	}
	return ui_run(&u);
}

int main(int argc, char **argv)
{
	struct cli cli = {.keys = -1,
			  .highlight_delay = -1,
			  .o = {
			      .delay_s = 3.0,
			      .order = {.field = FIELD_CPU},
			      .format = &output_format_text,
			      .view = {.summary_unit = UNIT_MIB},
			      .out_fd = STDOUT_FILENO,
			      .observe = {.budget = DEFAULT_COUNTER_BUDGET},
			      .metrics = {.max_groups = METRICS_DEFAULT_GROUPS},
			  }};
	int c, status;

	setup_locale();
	if (argv[0] && *argv[0]) {
		const char *slash = strrchr(argv[0], '/');

		progname = slash ? slash + 1 : argv[0];
	}
	if (argc > 1 && !strcmp(argv[1], "bench")) {
		ignore_sigpipe();
		return bench_main(argc - 1, argv + 1, progname);
	}
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":bn:d:p:u:U:so:Ow::E:e:iS1Hcr:hVtCF:M", longopts,
				NULL)) != -1) {
		status = take_option(c, &cli, argv, argc);
		if (status >= 0)
			return status;
	}
	if (optind < argc)
		usage_error(_("unexpected argument '%s'"), argv[optind]);
	if (!cli.width_given)
		cli.o.view.width = default_width();
	if (cli.metrics_opt && !cli.o.listen)
		usage_error(_("%s needs --listen"), cli.metrics_opt);
	if (cli.viewer && cli.batch)
		usage_error(_("--viewer and -b exclude each other"));
	check_record_options(&cli);
	/* --listen alone serves without writing anything, as a service runs */
	if (!cli.batch && cli.o.listen && !cli.viewer)
		cli.o.quiet = true;
	if (cli.tree && (cli.batch || cli.o.quiet || cli.summary))
		usage_error(_("-t/--tree is the viewer's: batch output is a table, not a tree"));
	if (cli.summary)
		status = replay_summary(cli.o.replay, cli.o.begin, cli.o.end, STDOUT_FILENO);
	else if (cli.batch || cli.o.quiet)
		status = batch_run(&cli.o);
	else
		status = run_viewer(&cli);
	free((int *)cli.o.filter.pids);
	free((void *)cli.o.watches);
	return end_status(status);
}
