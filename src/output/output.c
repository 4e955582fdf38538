// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * output.c: the table of batch output formats, what a presenter may choose
 * of them (columns, units), and encodings they share: JSON strings that keep every byte of a process name, and RFC 3339 times.
 */
#include <string.h>
#include <strings.h>
#include <time.h>

#include "ptop/output.h"

const struct output_format_def *const output_formats[] = {
    &output_format_text,
    &output_format_json,
    &output_format_csv,
    NULL,
};

const struct output_view output_view_default = {.summary_unit = UNIT_MIB};

int mem_unit_by_letter(char c)
{
	static const char letters[] = "kmgtpe";
	const char *at = c ? strchr(letters, c | 0x20) : NULL;

	return at ? (int)(at - letters) : -1;
}

static const char *const unit_names[UNIT_COUNT] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};

const char *mem_unit_name(enum mem_unit u)
{
	return unit_names[u < UNIT_COUNT ? u : UNIT_KIB];
}

int mem_unit_by_name(const char *s)
{
	for (int u = 0; u < UNIT_COUNT; u++)
		if (!strcasecmp(s, unit_names[u]))
			return u;
	return s[0] && !s[1] ? mem_unit_by_letter(s[0]) : -1;
}

size_t output_columns(const struct output_view *v, const enum field_id *fallback, size_t n,
		      const enum field_id **out)
{
	if (v && v->columns) {
		*out = v->columns;
		return v->ncolumns;
	}
	*out = fallback;
	return n;
}

const struct output_format_def *output_format_by_name(const char *name)
{
	for (const struct output_format_def *const *f = output_formats; *f; f++)
		if (!strcasecmp(name, (*f)->name))
			return *f;
	return NULL;
}

void output_format_names(struct sbuf *b)
{
	for (const struct output_format_def *const *f = output_formats; *f; f++)
		sbuf_printf(b, "%s%s", f == output_formats ? "" : ", ", (*f)->name);
}

size_t utf8_len_multi(const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t len;
	uint32_t cp;

	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (len > n)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* overlong forms, surrogates, beyond U+10FFFF */
	if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

void json_string(struct sbuf *b, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0;

	sbuf_addc(b, '"');
	while (i < n) {
		unsigned char c = u[i];
		size_t l;

		if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
			sbuf_addc(b, (char)c);
			i++;
			continue;
		}
		switch (c) {
		case '"':
			sbuf_adds(b, "\\\"");
			i++;
			continue;
		case '\\':
			sbuf_adds(b, "\\\\");
			i++;
			continue;
		case '\n':
			sbuf_adds(b, "\\n");
			i++;
			continue;
		case '\t':
			sbuf_adds(b, "\\t");
			i++;
			continue;
		case '\r':
			sbuf_adds(b, "\\r");
			i++;
			continue;
		}
		if (c < 0x20) {
			char e[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};

			sbuf_add(b, e, sizeof(e));
			i++;
			continue;
		}
		l = utf8_len(s + i, n - i);
		if (l) {
			sbuf_add(b, s + i, l);
			i += l;
		} else {
			/* Not UTF-8: a lone low surrogate carries the byte, losslessly. */
			char e[6] = {'\\', 'u', 'd', 'c', hex[c >> 4], hex[c & 15]};

			sbuf_add(b, e, sizeof(e));
			i++;
		}
	}
	sbuf_addc(b, '"');
}

size_t fmt_time_rfc3339(char out[RFC3339_LEN + 1], const struct timespec *ts)
{
	struct tm tm;
	size_t n;

	gmtime_r(&ts->tv_sec, &tm);
	n = strftime(out, RFC3339_LEN + 1, "%Y-%m-%dT%H:%M:%S", &tm);
	if (n != RFC3339_LEN - 5) { /* a year past 9999 */
		memcpy(out, "9999-12-31T23:59:59", RFC3339_LEN - 5);
		n = RFC3339_LEN - 5;
	}
	out[n++] = '.';
	out[n++] = (char)('0' + ts->tv_nsec / 100000000 % 10);
	out[n++] = (char)('0' + ts->tv_nsec / 10000000 % 10);
	out[n++] = (char)('0' + ts->tv_nsec / 1000000 % 10);
	out[n++] = 'Z';
	out[n] = '\0';
	return n;
}
