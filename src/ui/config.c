// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * config.c: ptoprc, the settings `W` writes and ptop reads at start:
 * "key = value" lines, '#' comments. A line ptop cannot use is described
 * once and skipped, so an old or damaged file never stops ptop from starting.
 * The file may sit in a directory another user controls (root with a user's
 * XDG_CONFIG_HOME), so reading takes only a bounded regular file and never
 * blocks, and writing creates its temporary file afresh in the directory it
 * opened, follows only the user's own links and renames over the old file.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ptop/ui.h"

static const enum field_id default_columns[] = {
    FIELD_PID, FIELD_USER,  FIELD_PR,  FIELD_NI,  FIELD_VIRT, FIELD_RES,
    FIELD_SHR, FIELD_STATE, FIELD_CPU, FIELD_MEM, FIELD_TIME, FIELD_COMMAND,
};

void config_defaults(struct ui_config *c)
{
	memset(c, 0, sizeof(*c));
	memcpy(c->columns, default_columns, sizeof(default_columns));
	c->ncolumns = sizeof(default_columns) / sizeof(default_columns[0]);
	c->order.field = FIELD_CPU;
	c->delay_s = 3.0;
	c->color = true;
	c->pane = 0; /* Processes */
	c->summary_unit = UNIT_MIB;
	c->load_line = true;
}

char *config_path(void)
{
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
	struct sbuf b = {0};

	if (xdg && *xdg == '/')
		sbuf_printf(&b, "%s/ptop/ptoprc", xdg);
	else if (home && *home)
		sbuf_printf(&b, "%s/.config/ptop/ptoprc", home);
	else
		return NULL;
	sbuf_cstr(&b);
	return b.p;
}

static int parse_bool(const char *v, bool *out)
{
	if (!strcasecmp(v, "yes") || !strcasecmp(v, "true") || !strcmp(v, "1") ||
	    !strcasecmp(v, "on"))
		*out = true;
	else if (!strcasecmp(v, "no") || !strcasecmp(v, "false") || !strcmp(v, "0") ||
		 !strcasecmp(v, "off"))
		*out = false;
	else
		return -EINVAL;
	return 0;
}

/* "pid,user,...": known names, no repeats; COMMAND moved last, as the table needs. */
static int parse_columns(char *v, struct ui_config *c)
{
	enum field_id cols[UI_MAX_COLUMNS];
	bool used[FIELD_COUNT] = {false};
	size_t n = 0;
	char *save = NULL;

	for (char *tok = strtok_r(v, ", \t", &save); tok; tok = strtok_r(NULL, ", \t", &save)) {
		int id = field_by_name(tok);

		if (id < 0 || used[id])
			return -EINVAL;
		used[id] = true;
		if (id != FIELD_COMMAND)
			cols[n++] = (enum field_id)id;
	}
	cols[n++] = FIELD_COMMAND;
	memcpy(c->columns, cols, n * sizeof(cols[0]));
	c->ncolumns = n;
	return 0;
}

static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r' || e[-1] == '\n'))
		*--e = '\0';
	return s;
}

/* Apply one "key = value"; a translatable reason on failure. */
static const char *apply(struct ui_config *c, const char *key, char *val)
{
	const char *why;
	bool b;
	int id;

	if (!strcmp(key, "columns"))
		return parse_columns(val, c) ? N_("unknown or repeated column") : NULL;
	if (!strcmp(key, "sort")) {
		id = field_by_name(val);
		if (id < 0)
			return N_("unknown sort field");
		c->order.field = (enum field_id)id;
		return NULL;
	}
	if (!strcmp(key, "delay")) {
		char *end;
		double d = strtod_point(val, &end);

		if (end == val || *end || !isfinite(d) || d < 0 || d > 86400)
			return N_("delay must be a number of seconds");
		c->delay_s = d;
		return NULL;
	}
	if (!strcmp(key, "keys")) {
		int prof = keymap_profile_by_name(val);

		if (prof < 0)
			return N_("keys must be htop or top");
		c->keys = (enum key_profile)prof;
		return NULL;
	}
	if (!strcmp(key, "source"))
		return frame_source_parse(val, &c->source)
			   ? N_("source must be auto, procfs or bpf")
			   : NULL;
	if (!strcmp(key, "counters"))
		return config_parse_counters(val, c);
	if (config_parse_display(c, key, val, &why))
		return why;
	if (!strcmp(key, "pane")) {
		int pane = ui_pane_by_name(val);

		if (pane < 0)
			return N_("unknown pane");
		c->pane = (unsigned)pane;
		return NULL;
	}
	{
		static const struct {
			const char *key;
			size_t off;
		} flags[] = {
		    {"sort_reverse", offsetof(struct ui_config, order.reverse)},
		    {"color", offsetof(struct ui_config, color)},
		    {"tree", offsetof(struct ui_config, tree)},
		    {"threads", offsetof(struct ui_config, threads)},
		    {"user_threads", offsetof(struct ui_config, user_threads)},
		    {"hide_kernel_threads", offsetof(struct ui_config, hide_kthreads)},
		    {"per_cpu", offsetof(struct ui_config, per_cpu)},
		    {"cmdline", offsetof(struct ui_config, cmdline)},
		    {"load_line", offsetof(struct ui_config, load_line)},
		};

		for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
			if (strcmp(key, flags[i].key))
				continue;
			if (parse_bool(val, &b))
				return N_("expected yes or no");
			*(bool *)((char *)c + flags[i].off) = b;
			return NULL;
		}
	}
	return N_("unknown setting");
}

/* Where the reader says what it skipped: the first few lines by number, then a count. */
struct bad_lines {
	struct sbuf *errors;
	unsigned n;
};

static void bad_line(struct bad_lines *bad, unsigned lineno, const char *key, const char *why)
{
	if (bad->n++ >= CONFIG_MAX_REPORTED)
		return;
	if (key)
		sbuf_printf(bad->errors, "ptoprc:%u: %s: %s\n", lineno, key, _(why));
	else
		sbuf_printf(bad->errors, "ptoprc:%u: %s\n", lineno, _(why));
}

/* text[0..len) is the whole file; it is cut into lines in place. */
static void parse(struct ui_config *c, char *text, size_t len, struct sbuf *errors)
{
	struct bad_lines bad = {.errors = errors};
	char line[1024];
	unsigned lineno = 0;

	for (size_t off = 0; off < len;) {
		char *start = text + off, *nl = memchr(start, '\n', len - off);
		size_t n = nl ? (size_t)(nl - start) : len - off;
		char *key, *val, *eq;
		const char *why;

		off += n + 1;
		lineno++;
		if (n >= sizeof(line)) {
			bad_line(&bad, lineno, NULL, N_("line too long"));
			continue;
		}
		/* a NUL would end the line early and let the garbage after it pass */
		if (memchr(start, '\0', n)) {
			bad_line(&bad, lineno, NULL, N_("not text (a NUL byte)"));
			continue;
		}
		memcpy(line, start, n);
		line[n] = '\0';
		key = trim(line);
		if (!*key || *key == '#')
			continue;
		eq = strchr(key, '=');
		if (!eq) {
			bad_line(&bad, lineno, NULL, N_("expected key = value"));
			continue;
		}
		*eq = '\0';
		val = trim(eq + 1);
		key = trim(key);
		why = apply(c, key, val);
		if (why)
			bad_line(&bad, lineno, key, why);
	}
	if (bad.n > CONFIG_MAX_REPORTED) {
		sbuf_adds(errors, "ptoprc: ");
		sbuf_printf(errors, _("and %u more"), bad.n - CONFIG_MAX_REPORTED);
		sbuf_addc(errors, '\n');
	}
}

_Static_assert(CONFIG_MAX_SIZE == 1 << 20, "the message below says 1 MiB");

static int not_regular(const char *path, const struct stat *st, struct sbuf *errors)
{
	sbuf_printf(errors, _("%s: not a regular file, not read\n"), path);
	return S_ISDIR(st->st_mode) ? -EISDIR : -EINVAL;
}

/* The whole of a regular file of at most CONFIG_MAX_SIZE bytes into text. */
static int read_whole(const char *path, struct sbuf *text, struct sbuf *errors)
{
	struct stat st;
	int fd, err = 0;

	/* Looked at before it is opened: opening a FIFO waits for a writer, a device may act. */
	if (stat(path, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode))
		return not_regular(path, &st, errors);
	/* O_NONBLOCK all the same, should it have been swapped for a FIFO since */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0) {
		err = -errno;
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		err = not_regular(path, &st, errors);
		goto out;
	}
	/* one byte past the limit, so that a file still growing is caught too */
	while (st.st_size <= CONFIG_MAX_SIZE && text->len <= CONFIG_MAX_SIZE) {
		size_t want = CONFIG_MAX_SIZE + 1 - text->len;
		ssize_t n;

		if (want > 65536)
			want = 65536;
		n = read(fd, sbuf_reserve(text, want), want);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = -errno;
			goto out;
		}
		if (n == 0)
			break;
		text->len += (size_t)n;
	}
	if (st.st_size > CONFIG_MAX_SIZE || text->len > CONFIG_MAX_SIZE) {
		sbuf_printf(errors, _("%s: larger than 1 MiB, not read\n"), path);
		err = -EFBIG;
	}
out:
	close(fd);
	return err;
}

int config_read(const char *path, struct ui_config *c, struct sbuf *errors)
{
	struct sbuf text = {0};
	int err = read_whole(path, &text, errors);

	if (!err)
		parse(c, text.p, text.len, errors);
	sbuf_free(&text);
	return err;
}

static int mkdir_parents(const char *path)
{
	char *dir = xstrdup(path);
	int err = 0;

	for (char *p = dir + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(dir, 0755) < 0 && errno != EEXIST) {
			err = -errno;
			break;
		}
		*p = '/';
	}
	free(dir);
	return err;
}

/*
 * Where a write goes: the directory (open, so that every later step names the
 * same one however its path changes) and the name in it. A link is followed
 * only when it and its target are the user's own, and the target is a regular
 * file: root running with another user's XDG_CONFIG_HOME must not be led to
 * replace its own files. The target's permissions are kept; a new file gets
 * 0644 less the umask.
 */
struct dest {
	int dirfd;
	char *dir, *name; /* malloc'd */
	bool exists;
	mode_t mode; /* of the existing file */
	uid_t uid;
};

static int dest_open(struct dest *d, const char *path, struct sbuf *why)
{
	char *slash = strrchr(path, '/');
	struct stat st;

	if (slash) {
		d->dir = slash == path ? xstrdup("/") : xstrdup(path);
		if (slash != path)
			d->dir[slash - path] = '\0';
		d->name = xstrdup(slash + 1);
	} else {
		d->dir = xstrdup(".");
		d->name = xstrdup(path);
	}
	d->dirfd = open(d->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (d->dirfd < 0)
		return -errno;
	if (fstatat(d->dirfd, d->name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return errno == ENOENT ? 0 : -errno;
	d->exists = true;
	/* not set-ID bits: a file another user planted must not pass them to root's */
	d->mode = st.st_mode & 0777;
	d->uid = st.st_uid;
	if (S_ISREG(st.st_mode))
		return 0;
	if (S_ISDIR(st.st_mode))
		return -EISDIR;
	if (!S_ISLNK(st.st_mode)) {
		sbuf_printf(why, _("%s is not a regular file: not written"), path);
		return -EINVAL;
	}
	if (st.st_uid != geteuid()) {
		sbuf_printf(why, _("%s is a symbolic link made by another user: not followed"),
			    path);
		return -EPERM;
	}
	return 1;
}

static void dest_close(struct dest *d)
{
	if (d->dirfd >= 0)
		close(d->dirfd);
	free(d->dir);
	free(d->name);
	*d = (struct dest){.dirfd = -1};
}

/* path is the user's own link: aim d at its target, if that is the user's own file. */
static int dest_follow(struct dest *d, const char *path, struct sbuf *why)
{
	char *real = realpath(path, NULL);
	int err;

	if (!real) {
		err = -errno;
		if (err == -ENOENT)
			sbuf_printf(why, _("%s is a symbolic link to nothing: not written"), path);
		return err;
	}
	dest_close(d);
	err = dest_open(d, real, why);
	/* a link again, or gone: the path changed since realpath() looked */
	if (err > 0 || (!err && !d->exists) || err == -EISDIR) {
		sbuf_printf(
		    why, _("%s is a symbolic link to %s, which is not a regular file: not written"),
		    path, real);
		err = err > 0 ? -ELOOP : err ? err : -ENOENT;
	} else if (!err && d->uid != geteuid()) {
		sbuf_printf(why,
			    _("%s is a symbolic link to %s, which is another user's: not written"),
			    path, real);
		err = -EPERM;
	}
	free(real);
	return err;
}

/* A new file in d's directory, created, never opened through a link; its name into *tmp. */
static int dest_create_tmp(struct dest *d, struct sbuf *tmp)
{
	for (int tries = 0; tries < 100; tries++) {
		unsigned long r;
		int fd;

		if (getrandom(&r, sizeof(r), GRND_NONBLOCK) != sizeof(r))
			r = (unsigned long)getpid() * 2654435761u ^
			    (unsigned long)(clock_mono() * 1e9);
		sbuf_reset(tmp);
		sbuf_printf(tmp, "%s.%08lx.tmp", d->name, r & 0xffffffffu);
		/* 0600 until the final mode is set: the old file may have been private */
		fd = openat(d->dirfd, sbuf_cstr(tmp),
			    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			    d->exists ? 0600 : 0644);
		if (fd >= 0 || errno != EEXIST)
			return fd >= 0 ? fd : -errno;
	}
	return -EEXIST;
}

static void settings_text(struct sbuf *b, const struct ui_config *c)
{
	sbuf_adds(b, "# ptop settings, written by the W key\ncolumns = ");
	for (size_t i = 0; i < c->ncolumns; i++)
		sbuf_printf(b, "%s%s", i ? "," : "", field_defs[c->columns[i]].name);
	sbuf_printf(b, "\nsort = %s\nsort_reverse = %s\n", field_defs[c->order.field].name,
		    c->order.reverse ? "yes" : "no");
	sbuf_printf(b, "delay = %g\ncolor = %s\ntree = %s\nthreads = %s\n", c->delay_s,
		    c->color ? "yes" : "no", c->tree ? "yes" : "no", c->threads ? "yes" : "no");
	sbuf_printf(b, "user_threads = %s\nhide_kernel_threads = %s\n",
		    c->user_threads ? "yes" : "no", c->hide_kthreads ? "yes" : "no");
	sbuf_printf(b, "per_cpu = %s\ncmdline = %s\npane = %s\n", c->per_cpu ? "yes" : "no",
		    c->cmdline ? "yes" : "no", ui_pane_name(c->pane));
	sbuf_printf(b, "keys = %s\nload_line = %s\n", keymap_profile_name(c->keys),
		    c->load_line ? "yes" : "no");
	config_write_display(b, c);
	if (c->source != FRAME_SOURCE_AUTO)
		sbuf_printf(b, "source = %s\n", frame_source_name(c->source));
	config_write_counters(b, c);
}

int config_write_why(const char *path, const struct ui_config *c, struct sbuf *why)
{
	struct sbuf b = {0}, tmp = {0}, scratch = {0};
	struct dest d = {.dirfd = -1};
	size_t said;
	int fd, err;

	if (!why)
		why = &scratch;
	said = why->len;
	settings_text(&b, c);
	err = mkdir_parents(path);
	if (!err)
		err = dest_open(&d, path, why);
	if (err > 0)
		err = dest_follow(&d, path, why);
	if (err)
		goto out;
	/* Written whole beside it, then renamed over it: a crash never leaves half a file. */
	fd = dest_create_tmp(&d, &tmp);
	if (fd < 0) {
		err = fd;
		goto out;
	}
	if (d.exists && fchmod(fd, d.mode) < 0)
		err = -errno;
	if (!err)
		err = write_all(fd, b.p, b.len);
	if (!err && fsync(fd) < 0)
		err = -errno;
	if (close(fd) < 0 && !err)
		err = -errno;
	if (!err && renameat(d.dirfd, tmp.p, d.dirfd, d.name) < 0)
		err = -errno;
	if (err) {
		unlinkat(d.dirfd, tmp.p, 0);
		goto out;
	}
	/* the rename itself is on disk only once the directory is; some file systems cannot */
	if (fsync(d.dirfd) < 0 && errno != EINVAL)
		err = -errno;
out:
	if (err && why->len == said)
		sbuf_printf(why, _("Cannot write %s: %s"), path, strerror(-err));
	dest_close(&d);
	sbuf_free(&b);
	sbuf_free(&tmp);
	sbuf_free(&scratch);
	return err;
}

int config_write(const char *path, const struct ui_config *c)
{
	return config_write_why(path, c, NULL);
}
