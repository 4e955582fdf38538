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
#include <unistd.h>

#include "ptop/batch.h"
#include "ptop/bench.h"
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

static int help(void)
{
	struct sbuf b = {0};

	sbuf_printf(
	    &b,
	    _("Usage: %s [options]\n"
	      "       %s -b [-n N] [-d SECONDS] [-p PID,...] [-u USER] [-s FIELD] [-H] [-c]\n"
	      "             [-o FORMAT]\n"
	      "       %s bench list | all | NAME [options]   (see '%s bench --help')\n"
	      "\n"
	      "A process viewer that shows what observing costs.\n"
	      "\n"
	      "Options:\n"
	      "  -b, --batch              write frames to standard output instead of the viewer\n"
	      "  -n, --iterations=N       stop after N frames (default: until interrupted)\n"
	      "  -d, --delay=SECONDS      time between frames, may be fractional (default 3)\n"
	      "  -p, --pid=PID[,PID...]   show only these processes (repeatable)\n"
	      "  -u, --user=USER          show only processes of USER (name or uid)\n"
	      "  -s, --sort=[+|-]FIELD    sort by FIELD; + ascending, - descending\n"
	      "  -H, --threads            a row per thread instead of per process\n"
	      "  -c, --cmdline            command lines instead of program names\n"
	      "  -o, --output=FORMAT      batch format: text (as top -b), json (one object\n"
	      "                           per line and frame) or csv (default: text)\n"
	      "      --counters[=EVENT,...]  per-process counters (default: cycles,\n"
	      "                           instructions, cache-misses, branch-misses; software\n"
	      "                           events where the machine has no PMU)\n"
	      "      --counter-budget=N   attach counters to N processes at most (default 32)\n"
	      "      --perf-fds           count each process's perf_event descriptors\n"
	      "      --watch=PID:ADDR[:LEN[:TYPE]]  arm a hardware breakpoint (repeatable);\n"
	      "                           ADDR in hex or REGION+OFFSET such as [heap]+0x40,\n"
	      "                           LEN 1, 2, 4 or 8, TYPE r, w, rw or x (default 4, w)\n"
	      "      --source=SOURCE      read processes from auto (BPF when privileged, else\n"
	      "                           /proc; the default), procfs or bpf\n"
	      "  -h, --help               show this help and exit\n"
	      "  -V, --version            show the version and exit\n"
	      "\n"
	      "Fields: "),
	    progname, progname, progname, progname);
	for (int i = 0; i < FIELD_COUNT; i++)
		sbuf_printf(&b, "%s%s", i ? ", " : "", field_defs[i].name);
	sbuf_adds(&b, _(".\n\nSee ptop(1) for more.\n"));
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

static void parse_user(const char *arg, struct batch_opts *o)
{
	if (users_parse(arg, &o->filter.uid))
		usage_error(_("unknown user: '%s'"), arg);
	o->filter.by_uid = true;
}

static void parse_sort(const char *arg, struct row_order *ord)
{
	const char *name = arg;
	int id;
	char dir = 0;

	if (*name == '+' || *name == '-')
		dir = *name++;
	id = field_by_name(name);
	if (id < 0)
		usage_error(_("unknown sort field: '%s'"), arg);
	ord->field = (enum field_id)id;
	ord->reverse = dir && (dir == '+') != field_defs[id].ascending;
}

#define MAX_DELAY_S (86400 * 365)

static double parse_delay(const char *arg)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
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
	OPT_SOURCE
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
    {"sort", required_argument, NULL, 's'},
    {"output", required_argument, NULL, 'o'},
    {"threads", no_argument, NULL, 'H'},
    {"cmdline", no_argument, NULL, 'c'},
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, 'V'},
    {"proc-root", required_argument, NULL, OPT_PROC_ROOT},
    {"counters", optional_argument, NULL, OPT_COUNTERS},
    {"counter-budget", required_argument, NULL, OPT_COUNTER_BUDGET},
    {"watch", required_argument, NULL, OPT_WATCH},
    {"perf-fds", no_argument, NULL, OPT_PERF_FDS},
    {"source", required_argument, NULL, OPT_SOURCE},
    {NULL, 0, NULL, 0},
};

/* What the command line asked for. */
struct cli {
	struct batch_opts o; /* the viewer takes its part of these too */
	size_t pids_cap, watch_cap;
	bool batch, delay_given, sort_given, source_given;
};

/* One option c (with optarg) into cli; -1 to go on, or the exit status of
 * --help and --version. A bad value ends ptop with a usage error. */
static int take_option(int c, struct cli *cli, char **argv)
{
	struct batch_opts *o = &cli->o;
	int fmt;

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
		parse_user(optarg, o);
		break;
	case 's':
		parse_sort(optarg, &o->order);
		cli->sort_given = true;
		break;
	case 'H':
		o->threads = true;
		break;
	case 'c':
		o->cmdline = true;
		break;
	case 'o':
		fmt = output_format_by_name(optarg);
		if (fmt < 0)
			usage_error(_("unknown output format: '%s' (text, json or csv)"), optarg);
		o->format = (enum output_format)fmt;
		break;
	case OPT_PROC_ROOT:
		o->root = optarg;
		o->observe.root = optarg;
		break;
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
	case OPT_SOURCE:
		if (frame_source_parse(optarg, &o->source))
			usage_error(_("unknown source: '%s' (auto, procfs or bpf)"), optarg);
		cli->source_given = true;
		break;
	case 'h':
		return help();
	case 'V': {
		struct sbuf b = {0};

		sbuf_printf(&b, "ptop %s\n", PACKAGE_VERSION);
		sbuf_adds(&b, bpfsrc_built() ? _("frame sources: procfs, bpf\n")
					     : _("frame sources: procfs (built without BPF)\n"));
		return put_stdout(&b);
	}
	case ':':
		usage_error(_("option '%s' needs a value"), argv[optind - 1]);
	default:
		usage_error(_("unknown option '%s'"), argv[optind - 1]);
	}
	return -1;
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
	    .events = o->observe.events,
	    .nevents = o->observe.nevents,
	    .counter_budget = o->observe.budget,
	    .watches = o->watches,
	    .nwatches = o->nwatches,
	    .threads = o->threads,
	    .cmdline = o->cmdline,
	    .source = o->source,
	    .source_given = cli->source_given,
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
	struct cli cli = {.o = {
			      .delay_s = 3.0,
			      .order = {.field = FIELD_CPU},
			      .format = OUTPUT_TEXT,
			      .out_fd = STDOUT_FILENO,
			      .observe = {.budget = DEFAULT_COUNTER_BUDGET},
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
	while ((c = getopt_long(argc, argv, ":bn:d:p:u:s:o:HchV", longopts, NULL)) != -1) {
		status = take_option(c, &cli, argv);
		if (status >= 0)
			return status;
	}
	if (optind < argc)
		usage_error(_("unexpected argument '%s'"), argv[optind]);
	status = cli.batch ? batch_run(&cli.o) : run_viewer(&cli);
	free((int *)cli.o.filter.pids);
	free((void *)cli.o.watches);
	return end_status(status);
}
