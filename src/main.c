// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * main.c: ptop's entry: options, then dispatch to batch mode (-b) or the
 * interactive viewer. Bad options end here with a usage message and status 2.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ptop/batch.h"

#define EXIT_USAGE 2

static const char *progname = "ptop";

static void __attribute__((noreturn)) usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "%s: ", progname);
	fprintf(stderr, fmt, arg);
	fprintf(stderr, _("\nTry '%s --help' for more information.\n"), progname);
	exit(EXIT_USAGE);
}

static void help(void)
{
	printf(
	    _("Usage: %s [options]\n"
	      "       %s -b [-n N] [-d SECONDS] [-p PID,...] [-u USER] [-s FIELD] [-o FORMAT]\n"
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
	      "  -o, --output=FORMAT      batch format: text (as top -b), json (one object\n"
	      "                           per line and frame) or csv (default: text)\n"
	      "  -h, --help               show this help and exit\n"
	      "  -V, --version            show the version and exit\n"
	      "\n"
	      "Fields: "),
	    progname, progname);
	for (int i = 0; i < FIELD_COUNT; i++)
		printf("%s%s", i ? ", " : "", field_defs[i].name);
	printf(_(".\n\nSee ptop(1) for more.\n"));
}

static void parse_pids(const char *arg, struct batch_opts *o, size_t *cap)
{
	const char *p = arg;

	while (*p) {
		char *end;
		long v;

		errno = 0;
		v = strtol(p, &end, 10);
		if (end == p || errno || v <= 0 || v > INT_MAX || (*end && *end != ','))
			usage_error(_("invalid PID list: '%s'"), arg);
		if (o->filter.npids == *cap) {
			*cap = *cap ? *cap * 2 : 16;
			o->filter.pids = xreallocarray((int *)o->filter.pids, *cap, sizeof(int));
		}
		((int *)o->filter.pids)[o->filter.npids++] = (int)v;
		p = *end ? end + 1 : end;
		if (*end == ',' && !*p)
			usage_error(_("invalid PID list: '%s'"), arg);
	}
	if (!o->filter.npids)
		usage_error(_("invalid PID list: '%s'"), arg);
}

static void parse_user(const char *arg, struct batch_opts *o)
{
	struct passwd *pw = getpwnam(arg);
	char *end;
	unsigned long v;

	if (pw) {
		o->filter.uid = pw->pw_uid;
	} else {
		errno = 0;
		v = strtoul(arg, &end, 10);
		if (!*arg || *end || errno || v > UINT_MAX - 1 || arg[0] == '-')
			usage_error(_("unknown user: '%s'"), arg);
		o->filter.uid = (uid_t)v;
	}
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

static double parse_delay(const char *arg)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (end == arg || *end || errno || !isfinite(v) || v < 0 || v > 86400 * 365)
		usage_error(_("invalid delay: '%s'"), arg);
	return v;
}

static long parse_count(const char *arg)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (end == arg || *end || errno || v < 1)
		usage_error(_("invalid number of iterations: '%s'"), arg);
	return v;
}

enum { OPT_PROC_ROOT = 0x100 };

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
	    {"batch", no_argument, NULL, 'b'},
	    {"iterations", required_argument, NULL, 'n'},
	    {"delay", required_argument, NULL, 'd'},
	    {"pid", required_argument, NULL, 'p'},
	    {"user", required_argument, NULL, 'u'},
	    {"sort", required_argument, NULL, 's'},
	    {"output", required_argument, NULL, 'o'},
	    {"help", no_argument, NULL, 'h'},
	    {"version", no_argument, NULL, 'V'},
	    {"proc-root", required_argument, NULL, OPT_PROC_ROOT},
	    {NULL, 0, NULL, 0},
	};
	struct batch_opts o = {
	    .delay_s = 3.0,
	    .order = {.field = FIELD_CPU},
	    .format = OUTPUT_TEXT,
	    .out_fd = STDOUT_FILENO,
	};
	size_t pids_cap = 0;
	bool batch = false;
	int c, fmt, status;

	setlocale(LC_ALL, "");
	bindtextdomain(PACKAGE, LOCALEDIR);
	textdomain(PACKAGE);
	if (argv[0] && *argv[0]) {
		const char *slash = strrchr(argv[0], '/');

		progname = slash ? slash + 1 : argv[0];
	}

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":bn:d:p:u:s:o:hV", longopts, NULL)) != -1) {
		switch (c) {
		case 'b':
			batch = true;
			break;
		case 'n':
			o.iterations = parse_count(optarg);
			break;
		case 'd':
			o.delay_s = parse_delay(optarg);
			break;
		case 'p':
			parse_pids(optarg, &o, &pids_cap);
			break;
		case 'u':
			parse_user(optarg, &o);
			break;
		case 's':
			parse_sort(optarg, &o.order);
			break;
		case 'o':
			fmt = output_format_by_name(optarg);
			if (fmt < 0)
				usage_error(_("unknown output format: '%s' (text, json or csv)"),
					    optarg);
			o.format = (enum output_format)fmt;
			break;
		case OPT_PROC_ROOT:
			o.root = optarg;
			break;
		case 'h':
			help();
			return 0;
		case 'V':
			printf("ptop %s\n", PACKAGE_VERSION);
			return 0;
		case ':':
			usage_error(_("option '%s' needs a value"), argv[optind - 1]);
		default:
			usage_error(_("unknown option '%s'"), argv[optind - 1]);
		}
	}
	if (optind < argc)
		usage_error(_("unexpected argument '%s'"), argv[optind]);

	if (!batch) {
		fprintf(stderr, _("%s: the interactive viewer is not built yet; use -b\n"),
			progname);
		return 1;
	}
	status = batch_run(&o);
	free((int *)o.filter.pids);
	return status;
}
