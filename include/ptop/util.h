/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * util.h: allocation that fails loudly, and a growable byte buffer.
 *
 * The x-allocators never return NULL: on exhaustion they print one line and
 * end the process with status 1, as tmux's xmalloc.c does, so callers need no
 * error path for memory. A struct sbuf is the one buffer a presenter builds a
 * frame's output in; sbuf_reset() keeps its capacity (the contract of redis'
 * sdsclear), so a steady-state refresh allocates nothing.
 */
#ifndef PTOP_UTIL_H
#define PTOP_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gettext.h"

void *xmalloc(size_t n);
void *xcalloc(size_t nmemb, size_t size);
void *xreallocarray(void *p, size_t nmemb, size_t size);
char *xstrdup(const char *s);
/* Run fn (or nothing, when NULL) before a fatal message is printed and the
 * process ends: the viewer restores the terminal there, so the message is seen. */
void util_on_fatal(void (*fn)(void));

struct sbuf {
	char *p;    /* bytes, not NUL-terminated unless sbuf_cstr() was called */
	size_t len; /* bytes in use */
	size_t cap; /* bytes allocated */
};

/* Make room for at least n more bytes; returns where they start. */
char *sbuf_reserve(struct sbuf *b, size_t n);
void sbuf_reset(struct sbuf *b);
void sbuf_free(struct sbuf *b);
void sbuf_add(struct sbuf *b, const void *p, size_t n);
void sbuf_addc(struct sbuf *b, char c);
void sbuf_adds(struct sbuf *b, const char *s);
void sbuf_addu(struct sbuf *b, uint64_t v);
void sbuf_addi(struct sbuf *b, int64_t v);
/* Fixed-point decimal with `decimals` digits after the point (0..6), rounded. */
void sbuf_addf(struct sbuf *b, double v, int decimals);
/*
 * As sbuf_addf, with the decimal mark of the locale (LC_NUMERIC), as printf's
 * %f writes it: for text that people read, never for JSON or CSV.
 */
void sbuf_addf_local(struct sbuf *b, double v, int decimals);

/*
 * strtod with a point for the decimal mark whatever LC_NUMERIC says: for
 * files and protocols. errno as strtod's.
 */
double strtod_point(const char *s, char **end);
/*
 * A number a person typed: with a point, or with the locale's decimal mark
 * ("0,5" under German), as top's -d takes both. errno as strtod's.
 */
double strtod_user(const char *s, char **end);
/* Right- or left-justify s (n bytes, counted as n columns) in width columns. */
void sbuf_pad(struct sbuf *b, const char *s, size_t n, int width, int right);
__attribute__((format(printf, 2, 3))) void sbuf_printf(struct sbuf *b, const char *fmt, ...);
/* NUL-terminate (not counted in len) and return the bytes. */
const char *sbuf_cstr(struct sbuf *b);

/*
 * Write all of buf to fd, retrying on EINTR and short writes.
 * Returns 0, or -errno (-EPIPE when the reader went away).
 */
int write_all(int fd, const void *buf, size_t n);

/*
 * write_all() for ptop's command-line outputs (batch frames, `ptop bench`,
 * --help): a reader that went away has read what it wanted (`ptop -b | head`),
 * so -EPIPE comes back without a word; any other failure is reported on
 * stderr as "ptop: write error: REASON". Returns 0 or -errno. The caller
 * stops writing on either error and ends with status 0 after -EPIPE, 1 after
 * any other; SIGPIPE must be ignored for -EPIPE to come back at all.
 */
int write_out(int fd, const void *buf, size_t n);

/* A symbol to resolve, and where its address goes. */
struct dl_sym {
	const char *name;
	void **addr;
};

/*
 * Open the library soname with dlopen(soname, RTLD_NOW | RTLD_LOCAL | flags)
 * (flags: 0, or RTLD_NOLOAD for one already loaded) and resolve each of the
 * n symbols into its addr. The libraries ptop loads only when their feature
 * starts (libpfm4, libmicrohttpd) come through here. Returns 0, or -ELIBACC
 * when the library or one of the symbols is missing: then no addr may be used.
 */
int util_dlsyms(const char *soname, int flags, const struct dl_sym *syms, size_t n);

/* Whether needle occurs in hay[0..n), in any case when icase. */
bool text_contains(const char *hay, size_t n, const char *needle, bool icase);

/*
 * "Did you mean": the candidate nearest a word a person mistyped. Words are
 * compared by their letters and digits only, in any case ("CPU%" is "%CPU",
 * "sort_key" is "sort-key"), by edit distance with swaps of two neighbours
 * as one edit ("sourec": "source"). suggest_init(), then suggest_try() with
 * each candidate, then suggest_best(): the nearest within a third of the
 * word's length (at least 1, at most 3), the first of equals, or NULL. A
 * candidate that is the word up to case and marks wins outright.
 */
struct suggest {
	char word[64]; /* the word's letters and digits, lower case */
	const char *best;
	unsigned dist;
};
void suggest_init(struct suggest *s, const char *word);
void suggest_try(struct suggest *s, const char *candidate);
const char *suggest_best(const struct suggest *s);

/* Seconds of CLOCK_MONOTONIC and of this process's CPU time (user + system). */
double clock_mono(void);
double clock_cpu(void);

#endif
