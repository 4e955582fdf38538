/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pecfg.h: prometheus-process-exporter's configuration file (pecfg.c), so
 * that a fleet that groups its processes with one can group them the same
 * way with ptop: `process_names:`, a list of rules tried in order, each with
 * `comm` (names, exact), `exe` (program names, or full paths when they hold
 * a '/', against the first word of the command line), `cmdline` (regular
 * expressions that must all match the command line's words joined by
 * spaces; their named groups are the template's .Matches) and `name`, a
 * template of {{.Comm}}, {{.ExeBase}}, {{.ExeFull}}, {{.Username}},
 * {{.PID}}, {{.StartTime}}, {{.Cgroups}}, {{.Cwd}} and {{.Matches.NAME}}
 * ({{.ExeBase}} when none is given). The first rule that matches names the
 * group. YAML is read by libyaml, the expressions (RE2's syntax, whose
 * named groups (?P<name>...) POSIX lacks) compiled by PCRE2.
 */
#ifndef PTOP_PECFG_H
#define PTOP_PECFG_H

#include <stdbool.h>
#include <stddef.h>

#include "ptop/util.h"

struct pecfg;

/* What a rule looks at in one process. */
struct pecfg_proc {
	const char *comm;
	const char *const *argv; /* the command line's words; argc 0 for a kernel thread */
	size_t argc;
	const char *user; /* the user's name (or uid as text) */
	long pid;
	double start_time; /* seconds since the epoch */
	const char *const *cgroups;
	size_t ncgroups;
	const char *cwd; /* NULL when unknown */
};

/*
 * The configuration in text (len bytes; name for messages): 0 with *out, or
 * -EINVAL with one line per fault in *why ("NAME:LINE: why"). Keys a rule
 * does not know are skipped, as process-exporter skips them, with a line in
 * *warn (may be NULL).
 */
int pecfg_parse(const char *text, size_t len, const char *name, struct pecfg **out,
		struct sbuf *why, struct sbuf *warn);

/* The file at path (a regular file of at most 1 MiB), as pecfg_parse(); -errno when unread. */
int pecfg_read(const char *path, struct pecfg **out, struct sbuf *why, struct sbuf *warn);

/* What a rule may look at beyond a row's comm, user, PID and start (bits of pecfg_needs()). */
#define PECFG_NEEDS_ARGV 0x1u	 /* the command line's words: an exe or cmdline matcher, .Exe* */
#define PECFG_NEEDS_CGROUPS 0x2u /* .Cgroups */
#define PECFG_NEEDS_CWD 0x4u	 /* .Cwd */
unsigned pecfg_needs(const struct pecfg *c);

/* How many rules. */
size_t pecfg_rules(const struct pecfg *c);

/* Whether a rule matches p; its group's name appended to *name when one does. */
bool pecfg_name(const struct pecfg *c, const struct pecfg_proc *p, struct sbuf *name);

void pecfg_free(struct pecfg *c);

#endif
