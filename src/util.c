// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * util.c: allocation wrappers that end the process on exhaustion, the sbuf
 * byte buffer every presenter builds its output in, the one write path of
 * the command-line outputs, and clocks.
 */
#include <dlfcn.h>
#include <errno.h>
#include <ctype.h>
#include <langinfo.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "ptop/util.h"

static void (*fatal_hook)(void);

void util_on_fatal(void (*fn)(void))
{
	fatal_hook = fn;
}

static void __attribute__((noreturn)) out_of_memory(size_t n)
{
	/* The viewer gives the terminal back first: a message printed on its
	 * screen would vanish with it. */
	if (fatal_hook)
		fatal_hook();
	fprintf(stderr, "ptop: out of memory (allocating %zu bytes)\n", n);
	exit(1);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		out_of_memory(n);
	return p;
}

void *xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	if (!p)
		out_of_memory(nmemb * size);
	return p;
}

void *xreallocarray(void *p, size_t nmemb, size_t size)
{
	void *q = reallocarray(p, nmemb ? nmemb : 1, size ? size : 1);

	if (!q)
		out_of_memory(nmemb * size);
	return q;
}

char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(xmalloc(n), s, n);
}

char *sbuf_reserve(struct sbuf *b, size_t n)
{
	if (b->cap - b->len < n + 1) {
		size_t cap = b->cap ? b->cap : 256;

		while (cap - b->len < n + 1)
			cap *= 2;
		b->p = xreallocarray(b->p, cap, 1);
		b->cap = cap;
	}
	return b->p + b->len;
}

void sbuf_reset(struct sbuf *b)
{
	b->len = 0;
}

void sbuf_free(struct sbuf *b)
{
	free(b->p);
	b->p = NULL;
	b->len = b->cap = 0;
}

void sbuf_add(struct sbuf *b, const void *p, size_t n)
{
	void *to = sbuf_reserve(b, n);

	/* p may be NULL when n is 0 (an empty table's strings): memcpy may not take it */
	if (n)
		memcpy(to, p, n);
	b->len += n;
}

void sbuf_addc(struct sbuf *b, char c)
{
	*sbuf_reserve(b, 1) = c;
	b->len++;
}

void sbuf_adds(struct sbuf *b, const char *s)
{
	sbuf_add(b, s, strlen(s));
}

void sbuf_addu(struct sbuf *b, uint64_t v)
{
	char tmp[20];
	int n = 0;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	char *d = sbuf_reserve(b, (size_t)n);
	for (int i = 0; i < n; i++)
		d[i] = tmp[n - 1 - i];
	b->len += (size_t)n;
}

void sbuf_addi(struct sbuf *b, int64_t v)
{
	if (v < 0) {
		sbuf_addc(b, '-');
		sbuf_addu(b, 0 - (uint64_t)v);
	} else {
		sbuf_addu(b, (uint64_t)v);
	}
}

static void addf(struct sbuf *b, double v, int decimals, const char *mark)
{
	static const double scale[] = {1, 10, 100, 1000, 10000, 100000, 1000000};
	uint64_t whole, frac, m;

	if (decimals < 0)
		decimals = 0;
	if (decimals > 6)
		decimals = 6;
	if (v != v) { /* NaN */
		sbuf_addc(b, '0');
		return;
	}
	if (v < 0) {
		sbuf_addc(b, '-');
		v = -v;
	}
	/* past 1e18 a double has no fraction left to show, and %.0f writes no mark */
	if (v > 1e18) {
		sbuf_printf(b, "%.0f", v);
		return;
	}
	m = (uint64_t)(v * scale[decimals] + 0.5);
	whole = m / (uint64_t)scale[decimals];
	frac = m % (uint64_t)scale[decimals];
	sbuf_addu(b, whole);
	if (decimals) {
		char tmp[8];

		sbuf_adds(b, mark);
		for (int i = decimals - 1; i >= 0; i--) {
			tmp[i] = (char)('0' + frac % 10);
			frac /= 10;
		}
		sbuf_add(b, tmp, (size_t)decimals);
	}
}

void sbuf_addf(struct sbuf *b, double v, int decimals)
{
	addf(b, v, decimals, ".");
}

void sbuf_addf_local(struct sbuf *b, double v, int decimals)
{
	/* nl_langinfo is a lookup, cheap enough for every row */
	addf(b, v, decimals, nl_langinfo(RADIXCHAR));
}

double strtod_point(const char *s, char **end)
{
	static locale_t c_locale;

	/* newlocale("C") needs no locale files; failing, strtod is all there is */
	if (!c_locale)
		c_locale = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
	return c_locale ? strtod_l(s, end, c_locale) : strtod(s, end);
}

double strtod_user(const char *s, char **end)
{
	double v = strtod_point(s, end);

	if (**end && *end != s)
		v = strtod(s, end);
	return v;
}

void sbuf_pad(struct sbuf *b, const char *s, size_t n, int width, int right)
{
	size_t pad = width > 0 && (size_t)width > n ? (size_t)width - n : 0;

	if (right)
		memset(sbuf_reserve(b, pad), ' ', pad), b->len += pad;
	sbuf_add(b, s, n);
	if (!right)
		memset(sbuf_reserve(b, pad), ' ', pad), b->len += pad;
}

void sbuf_printf(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n <= 0)
		return;
	va_start(ap, fmt);
	vsnprintf(sbuf_reserve(b, (size_t)n), (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

const char *sbuf_cstr(struct sbuf *b)
{
	*sbuf_reserve(b, 0) = '\0';
	return b->p;
}

int write_all(int fd, const void *buf, size_t n)
{
	const char *p = buf;

	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

int write_out(int fd, const void *buf, size_t n)
{
	int err = write_all(fd, buf, n);

	if (err && err != -EPIPE)
		fprintf(stderr, _("ptop: write error: %s\n"), strerror(-err));
	return err;
}

static double ts_sec(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

double clock_mono(void)
{
	return ts_sec(CLOCK_MONOTONIC);
}

double clock_cpu(void)
{
	return ts_sec(CLOCK_PROCESS_CPUTIME_ID);
}

int util_dlsyms(const char *soname, int flags, const struct dl_sym *syms, size_t n)
{
	void *h = dlopen(soname, RTLD_NOW | RTLD_LOCAL | flags);

	if (!h)
		return -ELIBACC;
	for (size_t i = 0; i < n; i++) {
		*syms[i].addr = dlsym(h, syms[i].name);
		if (!*syms[i].addr)
			return -ELIBACC;
	}
	return 0;
}

bool text_contains(const char *hay, size_t n, const char *needle, bool icase)
{
	size_t m = strlen(needle);

	if (!icase)
		return memmem(hay, n, needle, m) != NULL;
	for (size_t i = 0; i + m <= n; i++)
		if (!strncasecmp(hay + i, needle, m) && !memchr(hay + i, '\0', m))
			return true;
	return false;
}

/* s's letters and digits, lower case, into out (cap bytes, NUL-terminated); its length. */
static size_t fold_word(const char *s, char *out, size_t cap)
{
	size_t n = 0;

	for (; *s && n + 1 < cap; s++)
		if (isalnum((unsigned char)*s))
			out[n++] = (char)tolower((unsigned char)*s);
	out[n] = '\0';
	return n;
}

/* Edits from a to b (lengths below 64): insert, delete, replace, swap two neighbours. */
static unsigned edits(const char *a, size_t la, const char *b, size_t lb)
{
	unsigned d[64][64];

	for (size_t i = 0; i <= la; i++)
		d[i][0] = (unsigned)i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = (unsigned)j;
	for (size_t i = 1; i <= la; i++)
		for (size_t j = 1; j <= lb; j++) {
			unsigned v = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);

			if (d[i - 1][j] + 1 < v)
				v = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	return d[la][lb];
}

void suggest_init(struct suggest *s, const char *word)
{
	size_t n = fold_word(word, s->word, sizeof(s->word));

	s->best = NULL;
	/* what may differ: a third of the word, at least one edit and at most three */
	s->dist = n < 3 ? 1 : n / 3 > 3 ? 3 : (unsigned)(n / 3);
	s->dist++; /* one past the most taken */
}

void suggest_try(struct suggest *s, const char *candidate)
{
	char c[64];
	size_t lc = fold_word(candidate, c, sizeof(c));
	size_t lw = strlen(s->word);
	unsigned d;

	if (!lw || !lc || s->dist == 0)
		return;
	d = edits(s->word, lw, c, lc);
	if (d < s->dist) {
		s->best = candidate;
		s->dist = d;
	}
}

const char *suggest_best(const struct suggest *s)
{
	return s->best;
}
