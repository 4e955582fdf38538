// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * recorder.c: the recorder presenter (ptop --record): each frame it is given
 * goes to the recording file, or in directory mode to that day's file, with
 * files past the retention removed when a day begins. Also the parser of the
 * times users give --begin, --end and the replay viewer's g. Touches the
 * recording files and directory only.
 */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ptop/record.h"
#include "ptop/safefile.h"

struct recorder {
	char *path;
	bool dir;
	unsigned keep_days;
	int day; /* yyyymmdd of the open file, in directory mode */
	struct record_writer *w;
};

static int local_day(time_t t)
{
	struct tm tm;

	localtime_r(&t, &tm);
	return (tm.tm_year + 1900) * 10000 + (tm.tm_mon + 1) * 100 + tm.tm_mday;
}

/* Remove DIR/ptop-YYYY-MM-DD.rec files of days before `oldest` (yyyymmdd). */
static void expire(const char *dir, int oldest)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d))) {
		int y, m, dd, n = 0;
		char full[4096];

		if (sscanf(de->d_name, "ptop-%4d-%2d-%2d.rec%n", &y, &m, &dd, &n) != 3 ||
		    de->d_name[n] || y * 10000 + m * 100 + dd >= oldest)
			continue;
		if (snprintf(full, sizeof(full), "%s/%s", dir, de->d_name) < (int)sizeof(full))
			unlink(full);
	}
	closedir(d);
}

/* The file for day (yyyymmdd) in directory mode, older days removed. */
static int open_day(struct recorder *r, time_t t, struct record_error *e)
{
	int day = local_day(t), err;
	char name[4096];

	if (r->w && day == r->day)
		return 0;
	if (r->w) {
		err = record_writer_close(r->w, e);
		r->w = NULL;
		if (err)
			return err;
	}
	snprintf(name, sizeof(name), "%s/ptop-%04d-%02d-%02d.rec", r->path, day / 10000,
		 day / 100 % 100, day % 100);
	err = record_writer_open(name, &r->w, e);
	if (err)
		return err;
	r->day = day;
	if (r->keep_days)
		expire(r->path, local_day(t - (time_t)r->keep_days * 86400));
	return 0;
}

int recorder_open(const char *path, unsigned keep_days, struct recorder **out,
		  struct record_error *e)
{
	struct recorder *r = xcalloc(1, sizeof(*r));
	struct stat st;
	int fd, err = 0;

	*out = NULL;
	r->path = xstrdup(path);
	r->keep_days = keep_days;
	/* a directory or a file to record into: looked at without opening anything else */
	fd = safefile_open(path, O_RDONLY, SAFEFILE_DIR, &st);
	if (fd >= 0)
		close(fd);
	if (fd < 0 && fd != -ENOENT) {
		if (safefile_refused(fd, &st, SAFEFILE_DIR))
			snprintf(e->msg, sizeof(e->msg), "ptop: %s: %s: %s", path,
				 safefile_why(fd, &st, SAFEFILE_DIR), _("not recorded into"));
		else
			snprintf(e->msg, sizeof(e->msg), "ptop: %s: %s", path, strerror(-fd));
		err = fd;
		goto fail;
	}
	r->dir = fd >= 0 && S_ISDIR(st.st_mode);
	if (r->dir)
		err = open_day(r, time(NULL), e);
	else
		err = record_writer_open(path, &r->w, e);
	if (err) {
	fail:
		free(r->path);
		free(r);
		return err;
	}
	*out = r;
	return 0;
}

int recorder_frame(struct recorder *r, const struct frame *f, struct record_error *e)
{
	if (r->dir) {
		int err = open_day(r, f->time.tv_sec, e);

		if (err)
			return err;
	}
	return record_write(r->w, f, e);
}

int recorder_close(struct recorder *r, struct record_error *e)
{
	int err;

	if (!r)
		return 0;
	err = record_writer_close(r->w, e);
	free(r->path);
	free(r);
	return err;
}

int record_parse_time(const char *s, int64_t ref_ns, int64_t *out)
{
	time_t ref = (time_t)(ref_ns / 1000000000);
	struct tm tm;
	int y, mo, d, h = 0, mi = 0, sec = 0, n = 0;
	time_t t;

	localtime_r(&ref, &tm);
	if (sscanf(s, "%4d-%2d-%2d%n", &y, &mo, &d, &n) == 3 &&
	    (!s[n] || s[n] == 'T' || s[n] == ' ')) {
		tm.tm_year = y - 1900;
		tm.tm_mon = mo - 1;
		tm.tm_mday = d;
		s += n + (s[n] != '\0');
		if (!*s) {
			tm.tm_hour = tm.tm_min = tm.tm_sec = 0;
			goto done;
		}
	}
	n = 0;
	if (sscanf(s, "%2d:%2d%n", &h, &mi, &n) != 2)
		return -EINVAL;
	if (s[n] == ':') {
		int m = 0;

		if (sscanf(s + n, ":%2d%n", &sec, &m) != 1)
			return -EINVAL;
		n += m;
	}
	if (s[n] || h > 23 || mi > 59 || sec > 60 || h < 0 || mi < 0 || sec < 0)
		return -EINVAL;
	tm.tm_hour = h;
	tm.tm_min = mi;
	tm.tm_sec = sec;
done:
	if (tm.tm_mon < 0 || tm.tm_mon > 11 || tm.tm_mday < 1 || tm.tm_mday > 31)
		return -EINVAL;
	tm.tm_isdst = -1;
	t = mktime(&tm);
	if (t == (time_t)-1)
		return -EINVAL;
	/* a frame's time is int64 ns: 1677-09-21 to 2262-04-11 */
	if (t > INT64_MAX / 1000000000 || t < INT64_MIN / 1000000000)
		return -ERANGE;
	*out = (int64_t)t * 1000000000;
	return 0;
}
