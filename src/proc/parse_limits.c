// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * parse_limits.c: small parsers of per-process files: two the metrics'
 * process-exporter families read, /proc/PID/limits (one line, "Max open
 * files", whose soft limit bounds the descriptors a process may open) and
 * /proc/PID/smaps_rollup (proportional and private sizes: the metrics' and
 * the PSS, PSan, PSfd, PSsh, USS and PSSWP columns'), and the
 * one number of /proc/PID/oom_score and oom_score_adj (the OOM columns),
 * the symbol of /proc/PID/wchan (the WCHAN column), the line of
 * /proc/PID/autogroup (AGID, AGNI), the label of /proc/PID/attr/current
 * (SECATTR), the uid of /proc/PID/loginuid (LOGID), a NUMA node's CPU list
 * (sysfs's cpulist, for NU), and the inode in a /proc/PID/ns link's target
 * (nsIPC ...). Pure: no I/O.
 */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "ptop/proc.h"
#include "num.h"

#define NOFILE_NAME "Max open files"

static const char *skip_spaces(const char *p, const char *end)
{
	while (p < end && *p == ' ')
		p++;
	return p;
}

/* "unlimited" or a number, then a space: the soft limit of one limits line. */
static int limit_value(const char **pp, const char *eol, uint64_t *out)
{
	const char *p = *pp;
	int err;

	if ((size_t)(eol - p) >= 9 && !memcmp(p, "unlimited", 9)) {
		*out = UINT64_MAX;
		p += 9;
	} else {
		err = num_u64(&p, eol, out);
		if (err)
			return err;
	}
	if (p >= eol || *p != ' ')
		return -EINVAL;
	*pp = p;
	return 0;
}

int proc_parse_limits_nofile(const char *buf, size_t len, uint64_t *soft)
{
	const char *p = buf, *end = buf + len;
	bool found = false;

	*soft = 0;
	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p)), *q;
		uint64_t v;
		int err;

		if (!eol)
			return -EINVAL; /* cut mid-line */
		if ((size_t)(eol - p) > sizeof(NOFILE_NAME) - 1 &&
		    !memcmp(p, NOFILE_NAME, sizeof(NOFILE_NAME) - 1) &&
		    p[sizeof(NOFILE_NAME) - 1] == ' ') {
			if (found)
				return -EINVAL; /* twice: not the kernel's text */
			q = skip_spaces(p + sizeof(NOFILE_NAME) - 1, eol);
			err = limit_value(&q, eol, &v);
			if (err)
				return err;
			*soft = v;
			found = true;
		}
		p = eol + 1;
	}
	return found ? 0 : -EINVAL;
}

/* "Name:" then spaces, a number and " kB": *out, or -errno. */
static int rollup_kb(const char *p, const char *eol, uint64_t *out)
{
	int err;

	p = skip_spaces(p, eol);
	err = num_u64(&p, eol, out);
	if (err)
		return err;
	if (eol - p != 3 || memcmp(p, " kB", 3))
		return -EINVAL;
	return 0;
}

/* The lines of smaps_rollup a proc_rollup keeps: Pss first, required; the rest each in a group. */
static const struct rollup_line {
	const char *name;
	unsigned group; /* PROC_ROLLUP_*, 0 for Pss */
	size_t off;
} rollup_lines[] = {
    {"Pss", 0, offsetof(struct proc_rollup, pss_kb)},
    {"Pss_Anon", PROC_ROLLUP_SPLIT, offsetof(struct proc_rollup, pss_anon_kb)},
    {"Pss_File", PROC_ROLLUP_SPLIT, offsetof(struct proc_rollup, pss_file_kb)},
    {"Pss_Shmem", PROC_ROLLUP_SPLIT, offsetof(struct proc_rollup, pss_shmem_kb)},
    {"Private_Clean", PROC_ROLLUP_PRIVATE, offsetof(struct proc_rollup, private_clean_kb)},
    {"Private_Dirty", PROC_ROLLUP_PRIVATE, offsetof(struct proc_rollup, private_dirty_kb)},
    {"SwapPss", PROC_ROLLUP_SWAPPSS, offsetof(struct proc_rollup, swap_pss_kb)},
    {"Rss", PROC_ROLLUP_RSS, offsetof(struct proc_rollup, rss_kb)},
};
#define ROLLUP_LINES (sizeof(rollup_lines) / sizeof(rollup_lines[0]))

int proc_parse_rollup(const char *buf, size_t len, struct proc_rollup *out)
{
	const char *p = buf, *end = buf + len, *eol;
	unsigned seen = 0, groups = 0, missing = 0;

	memset(out, 0, sizeof(*out));
	if (!len)
		return -ENODATA;
	/* the heading: the range the rollup covers, "[rollup]" */
	eol = memchr(p, '\n', len);
	if (!eol || (size_t)(eol - p) < 8 || memcmp(eol - 8, "[rollup]", 8))
		return -EINVAL;
	for (p = eol + 1; p < end; p = eol + 1) {
		const char *colon;
		size_t i;
		int err;

		eol = memchr(p, '\n', (size_t)(end - p));
		if (!eol)
			return -EINVAL;
		colon = memchr(p, ':', (size_t)(eol - p));
		if (!colon || colon == p)
			return -EINVAL;
		for (i = 0; i < ROLLUP_LINES; i++)
			if ((size_t)(colon - p) == strlen(rollup_lines[i].name) &&
			    !memcmp(p, rollup_lines[i].name, (size_t)(colon - p)))
				break;
		if (i == ROLLUP_LINES)
			continue;
		if (seen & 1u << i)
			return -EINVAL;
		seen |= 1u << i;
		err = rollup_kb(colon + 1, eol, (uint64_t *)((char *)out + rollup_lines[i].off));
		if (err)
			return err;
	}
	if (!(seen & 1u))
		return -EINVAL;
	/* a group holds when all its lines were there */
	for (size_t i = 1; i < ROLLUP_LINES; i++) {
		groups |= rollup_lines[i].group;
		if (!(seen & 1u << i))
			missing |= rollup_lines[i].group;
	}
	out->have = groups & ~missing;
	return 0;
}

int proc_parse_oom(const char *buf, size_t len, int *out)
{
	const char *p = buf, *end = buf + len;
	int64_t v;
	int err;

	*out = 0;
	err = num_s64(&p, end, &v);
	if (err)
		return err;
	/* the kernel prints one number and a newline: anything else is not its text */
	if (end - p != 1 || *p != '\n')
		return -EINVAL;
	if (v < INT_MIN || v > INT_MAX)
		return -ERANGE;
	*out = (int)v;
	return 0;
}

int proc_parse_loginuid(const char *buf, size_t len, uint32_t *uid)
{
	const char *p = buf, *end = buf + len;
	uint64_t v;
	int err;

	*uid = 0;
	err = num_u64(&p, end, &v);
	if (err)
		return err;
	/* the kernel prints the number alone, without a newline */
	if (p != end)
		return -EINVAL;
	if (v > UINT32_MAX)
		return -ERANGE;
	*uid = (uint32_t)v;
	return 0;
}

/* One CPU number of a list, below max. */
static int cpu_num(const char **p, const char *end, unsigned max, unsigned *cpu)
{
	uint64_t v;
	int err = num_u64(p, end, &v);

	if (err)
		return err;
	if (v >= max)
		return -ERANGE;
	*cpu = (unsigned)v;
	return 0;
}

int proc_parse_cpulist(const char *buf, size_t len, uint8_t *set, unsigned max)
{
	const char *p = buf, *end = buf + len;

	if (!len || buf[len - 1] != '\n')
		return -EINVAL;
	end--;
	while (p < end) {
		unsigned lo, hi;
		int err = cpu_num(&p, end, max, &lo);

		if (err)
			return err;
		hi = lo;
		if (p < end && *p == '-') {
			p++;
			err = cpu_num(&p, end, max, &hi);
			if (err)
				return err;
			if (hi < lo)
				return -EINVAL;
		}
		for (unsigned c = lo; c <= hi; c++)
			set[c / 8] |= (uint8_t)(1u << (c % 8));
		/* a ',' between two, never last */
		if (p < end && (*p != ',' || ++p == end))
			return -EINVAL;
	}
	return 0;
}

/* What a kernel symbol name is made of: C identifiers, and the compiler's suffixes
 * (".constprop.0", ".isra.0", "$x" on some architectures). */
static bool symbol_byte(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '.' || c == '$';
}

int proc_parse_wchan(const char *buf, size_t len, const char **name, size_t *n)
{
	*name = buf;
	*n = 0;
	if (!len)
		return -EINVAL;
	if (len >= PROC_WCHAN_MAX)
		return -ERANGE;
	for (size_t i = 0; i < len; i++)
		if (!symbol_byte((unsigned char)buf[i]))
			return -EINVAL;
	/* "0": running, no symbol, or not ours to look at; the kernel does not say which */
	if (len == 1 && buf[0] == '0')
		return 0;
	*n = len;
	return 0;
}

#define AUTOGROUP_PREFIX "/autogroup-"
#define AUTOGROUP_NICE " nice "

int proc_parse_autogroup(const char *buf, size_t len, int64_t *id, int *nice)
{
	const char *p = buf, *end = buf + len;
	int64_t v;
	int err;

	*id = 0;
	*nice = 0;
	if (!len)
		return -ENODATA; /* the kernel prints nothing for the root task group */
	if (len < sizeof(AUTOGROUP_PREFIX) - 1 ||
	    memcmp(p, AUTOGROUP_PREFIX, sizeof(AUTOGROUP_PREFIX) - 1))
		return -EINVAL;
	p += sizeof(AUTOGROUP_PREFIX) - 1;
	/* "%ld": the id may print with a sign, though the kernel counts up from 1 */
	err = num_s64(&p, end, id);
	if (err)
		return err;
	if (*id < 0) {
		*id = 0;
		return -ERANGE;
	}
	if ((size_t)(end - p) < sizeof(AUTOGROUP_NICE) - 1 ||
	    memcmp(p, AUTOGROUP_NICE, sizeof(AUTOGROUP_NICE) - 1))
		return -EINVAL;
	p += sizeof(AUTOGROUP_NICE) - 1;
	err = num_s64(&p, end, &v);
	if (err)
		return err;
	if (end - p != 1 || *p != '\n')
		return -EINVAL;
	if (v < -20 || v > 19)
		return -ERANGE;
	*nice = (int)v;
	return 0;
}

int proc_parse_secattr(const char *buf, size_t len, const char **label, size_t *n)
{
	/* AppArmor ends its label with a newline, SELinux with a NUL */
	while (len && (buf[len - 1] == '\n' || buf[len - 1] == '\0'))
		len--;
	*label = buf;
	*n = 0;
	if (!len)
		return -ENODATA;
	if (memchr(buf, '\n', len) || memchr(buf, '\0', len))
		return -EINVAL;
	*n = len;
	return 0;
}

int proc_parse_ns_link(const char *buf, size_t len, uint64_t *ino)
{
	const char *q = memchr(buf, '[', len), *end = buf + len;
	uint64_t v = 0;

	*ino = 0;
	if (!q || q == buf || end - q < 3 || end[-1] != ']')
		return -EINVAL;
	for (q++; q < end - 1; q++) {
		if (*q < '0' || *q > '9')
			return -EINVAL;
		if (v > (UINT64_MAX - (uint64_t)(*q - '0')) / 10)
			return -ERANGE;
		v = v * 10 + (uint64_t)(*q - '0');
	}
	if (!v)
		return -ERANGE;
	*ino = v;
	return 0;
}
