// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_config.c: ptoprc, the viewer's settings file (src/ui/config.c). The
 * defaults are top's; config_write() then config_read() gives back every
 * setting, creating the directories on the way; damaged files (unknown keys,
 * bad values, lines without '=', over-long lines, binary bytes, an empty
 * file) are read line by line, each bad line reported once as
 * "ptoprc:LINE: why" while the good lines around it still apply; a missing
 * file is -ENOENT and changes nothing; config_path() follows
 * $XDG_CONFIG_HOME, then $HOME. Hostile files: a FIFO, a link to /dev/zero
 * and a 2 MiB file are refused at once (under an alarm, so a regression fails
 * rather than hangs); a hundred bad lines are reported as the first few and a
 * count. Writing never follows a link planted at the temporary name, writes
 * through the user's own link to the user's own file, refuses any other link,
 * keeps the file's mode and leaves nothing behind when it fails. The
 * Processes pane's screens: their lines read back as written, each bad one
 * said (an unknown column, no name, a name too long), past 16 one line for
 * the rest; Setup's add, remove and move keep the shown one shown; htoprc's
 * screens all taken, a hundred of them cut to 16 with a word. Files live
 * in a mkdtemp() directory; a name as argument runs the tests matching it.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "ptop/ui.h"
#include "../src/ui/rcfile.h"

struct tmp {
	char dir[256];
	char path[512];
};

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static int setup(void **state)
{
	const char *base = getenv("TMPDIR");
	struct tmp *t = calloc(1, sizeof(*t));

	if (!t)
		return -1;
	snprintf(t->dir, sizeof(t->dir), "%s/ptop-config-XXXXXX", base && *base ? base : "/tmp");
	if (!mkdtemp(t->dir)) {
		free(t);
		return -1;
	}
	snprintf(t->path, sizeof(t->path), "%s/ptoprc", t->dir);
	*state = t;
	return 0;
}

static int teardown(void **state)
{
	struct tmp *t = *state;

	nftw(t->dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	free(t);
	return 0;
}

static void write_file(const char *path, const void *data, size_t n)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	assert_true(fd >= 0);
	assert_int_equal(write_all(fd, data, n), 0);
	assert_int_equal(close(fd), 0);
}

static void write_text(const char *path, const char *text)
{
	write_file(path, text, strlen(text));
}

static void assert_config_equal(const struct ui_config *a, const struct ui_config *b)
{
	assert_int_equal(a->ncolumns, b->ncolumns);
	for (size_t i = 0; i < a->ncolumns; i++)
		assert_int_equal(a->columns[i], b->columns[i]);
	assert_int_equal(a->order.field, b->order.field);
	assert_int_equal(a->order.reverse, b->order.reverse);
	assert_true(a->delay_s == b->delay_s);
	assert_int_equal(a->color, b->color);
	assert_int_equal(a->tree, b->tree);
	assert_int_equal(a->threads, b->threads);
	assert_int_equal(a->user_threads, b->user_threads);
	assert_int_equal(a->hide_kthreads, b->hide_kthreads);
	assert_int_equal(a->per_cpu, b->per_cpu);
	assert_int_equal(a->cmdline, b->cmdline);
	assert_int_equal(a->pane, b->pane);
	assert_int_equal(a->keys, b->keys);
	assert_int_equal(a->memory, b->memory);
	assert_int_equal(a->summary_unit, b->summary_unit);
	assert_int_equal(a->task_unit, b->task_unit);
	assert_int_equal(a->load_line, b->load_line);
	assert_int_equal(a->screen_tabs, b->screen_tabs);
	assert_int_equal(a->ncounters, b->ncounters);
	for (int i = 0; i < a->ncounters; i++)
		assert_string_equal(a->counters[i], b->counters[i]);
	assert_int_equal(a->scheme, b->scheme);
	assert_int_equal(a->nmeters, b->nmeters);
	assert_memory_equal(a->meters, b->meters, a->nmeters * sizeof(a->meters[0]));
}

/*
 * Every line of errors starts "ptoprc:N: " with N from lines[], in order, one
 * each; a 0 in lines[] stands for the "ptoprc: and N more" line.
 */
static void assert_error_lines(struct sbuf *errors, const unsigned *lines, size_t n)
{
	const char *p = errors->len ? sbuf_cstr(errors) : "";
	size_t seen = 0;

	while (*p) {
		const char *nl = strchr(p, '\n');
		char want[32];

		assert_non_null(nl);
		if (seen >= n)
			fail_msg("unexpected error line: %.*s", (int)(nl - p), p);
		if (lines[seen])
			snprintf(want, sizeof(want), "ptoprc:%u: ", lines[seen]);
		else
			snprintf(want, sizeof(want), "ptoprc: and ");
		if (strncmp(p, want, strlen(want)))
			fail_msg("expected \"%s...\", got: %.*s", want, (int)(nl - p), p);
		seen++;
		p = nl + 1;
	}
	if (seen != n)
		fail_msg("%zu error lines, expected %zu:\n%s", seen, n,
			 errors->len ? sbuf_cstr(errors) : "");
}

static bool has_line(struct sbuf *errors, const char *line)
{
	const char *s = errors->len ? sbuf_cstr(errors) : "";
	size_t n = strlen(line);

	for (const char *p = s; (p = strstr(p, line)); p++)
		if ((p == s || p[-1] == '\n') && p[n] == '\n')
			return true;
	return false;
}

static void test_defaults(void **state)
{
	static const enum field_id top[] = {
	    FIELD_PID, FIELD_USER,  FIELD_PR,  FIELD_NI,  FIELD_VIRT, FIELD_RES,
	    FIELD_SHR, FIELD_STATE, FIELD_CPU, FIELD_MEM, FIELD_TIME, FIELD_COMMAND,
	};
	struct ui_config c;

	(void)state;
	memset(&c, 0xa5, sizeof(c));
	config_defaults(&c);
	assert_int_equal(c.ncolumns, sizeof(top) / sizeof(top[0]));
	for (size_t i = 0; i < c.ncolumns; i++)
		assert_int_equal(c.columns[i], top[i]);
	assert_int_equal(c.order.field, FIELD_CPU);
	assert_false(c.order.reverse);
	assert_true(c.delay_s == 3.0);
	assert_true(c.color);
	assert_false(c.tree);
	assert_false(c.threads);
	assert_false(c.user_threads);  /* unlike htop: reading every thread costs */
	assert_false(c.hide_kthreads); /* as top, and ptop -b */
	assert_false(c.per_cpu);
	assert_false(c.cmdline);
	assert_int_equal(c.pane, ui_pane_by_name("processes"));
	/* top's units and htop's bars; the load line shown */
	assert_int_equal(c.memory, MEM_BARS);
	assert_int_equal(c.summary_unit, UNIT_MIB);
	assert_int_equal(c.task_unit, UNIT_KIB);
	assert_true(c.load_line);
	/* htop's tabs' line, as htop shows it without an htoprc */
	assert_true(c.screen_tabs);
}

static void round_trip(struct tmp *t, const char *rel, const struct ui_config *want,
		       const struct ui_config *start)
{
	char path[768], tmp[800];
	struct ui_config got = *start;
	struct sbuf errors = {0};
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", t->dir, rel);
	assert_int_equal(config_write(path, want), 0);
	assert_int_equal(stat(path, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	/* written beside and renamed: nothing left over */
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	assert_int_equal(access(tmp, F_OK), -1);
	assert_int_equal(config_read(path, &got, &errors), 0);
	if (errors.len)
		fail_msg("errors reading back: %s", sbuf_cstr(&errors));
	assert_config_equal(&got, want);
	sbuf_free(&errors);
}

static void test_round_trip(void **state)
{
	struct tmp *t = *state;
	struct ui_config def, all;
	static const enum field_id cols[] = {
	    FIELD_MEM,	FIELD_PID,   FIELD_SWAP,      FIELD_THREADS,
	    FIELD_PPID, FIELD_STATE, FIELD_PROCESSOR, FIELD_COMMAND,
	};

	(void)state;
	config_defaults(&def);
	config_defaults(&all);
	memcpy(all.columns, cols, sizeof(cols));
	all.ncolumns = sizeof(cols) / sizeof(cols[0]);
	all.order = (struct row_order){.field = FIELD_TIME, .reverse = true};
	all.delay_s = 0.25;
	all.color = false;
	all.tree = true;
	all.threads = true;
	all.user_threads = true;
	all.hide_kthreads = true;
	all.per_cpu = true;
	all.cmdline = true;
	all.pane = (unsigned)ui_pane_by_name("bench");
	all.keys = KEYS_TOP;
	all.memory = MEM_HIDDEN;
	all.summary_unit = UNIT_GIB;
	all.task_unit = UNIT_EIB;
	all.load_line = false;
	all.screen_tabs = false;
	all.scheme = UI_SCHEME_LIGHT;
	/* both columns, in an order the file keeps (left ones first), modes not the default */
	all.nmeters = 6;
	all.meters[0] =
	    (struct ui_meter){.id = (unsigned char)meter_by_name("cpu"), .mode = METER_TEXT};
	all.meters[1] =
	    (struct ui_meter){.id = (unsigned char)meter_by_name("psi_cpu"), .mode = METER_TEXT};
	all.meters[2] =
	    (struct ui_meter){.id = (unsigned char)meter_by_name("swap"), .mode = METER_GRAPH};
	all.meters[3] = (struct ui_meter){
	    .id = (unsigned char)meter_by_name("psi_io"), .column = 1, .mode = METER_TEXT};
	all.meters[4] = (struct ui_meter){
	    .id = (unsigned char)meter_by_name("memory"), .column = 1, .mode = METER_TEXT};
	all.meters[5] = (struct ui_meter){
	    .id = (unsigned char)meter_by_name("load"), .column = 1, .mode = METER_LED};
	assert_null(
	    config_parse_counters("context-switches, page-faults,skl::INST_RETIRED:ANY_P", &all));

	/* the directories do not exist yet: config_write makes them */
	round_trip(t, "a/b/c/ptop/ptoprc", &all, &def);
	/* every setting is written: defaults read over the opposite restore them all */
	round_trip(t, "a/b/c/ptop/ptoprc", &def, &all);
	round_trip(t, "ptoprc", &all, &def);
}

static void test_round_trip_each_value(void **state)
{
	struct tmp *t = *state;
	struct ui_config c;
	static const double delays[] = {0, 0.1, 0.5, 1, 2.5, 3, 60, 86400};

	config_defaults(&c);
	for (unsigned p = 0; p < ui_pane_count(); p++) {
		c.pane = p;
		round_trip(t, "x/ptoprc", &c,
			   &(struct ui_config){.pane = (unsigned)ui_pane_by_name("counters")});
	}
	config_defaults(&c);
	for (int k = 0; k < KEYS_PROFILE_COUNT; k++) {
		c.keys = (enum key_profile)k;
		round_trip(t, "x/ptoprc", &c, &(struct ui_config){.keys = (enum key_profile) !k});
	}
	assert_int_equal(keymap_profile_by_name("TOP"), KEYS_TOP);
	assert_int_equal(keymap_profile_by_name("htop"), KEYS_HTOP);
	assert_int_equal(keymap_profile_by_name("emacs"), -1);
	/* m, E and e as W saves them: each display and each unit */
	config_defaults(&c);
	for (int d = 0; d < MEM_DISPLAY_COUNT; d++) {
		c.memory = (enum mem_display)d;
		round_trip(
		    t, "x/ptoprc", &c,
		    &(struct ui_config){.memory = (enum mem_display)((d + 1) % MEM_DISPLAY_COUNT)});
	}
	for (int u = 0; u < UNIT_COUNT; u++) {
		c.summary_unit = (enum mem_unit)u;
		c.task_unit = (enum mem_unit)(UNIT_COUNT - 1 - u);
		c.load_line = u & 1;
		round_trip(
		    t, "x/ptoprc", &c,
		    &(struct ui_config){.summary_unit = (enum mem_unit)((u + 1) % UNIT_COUNT),
					.load_line = !(u & 1)});
	}
	config_defaults(&c);
	for (int f = 0; f < FIELD_COUNT; f++) {
		c.order = (struct row_order){.field = (enum field_id)f, .reverse = f & 1};
		round_trip(t, "x/ptoprc", &c, &(struct ui_config){.delay_s = 1});
	}
	config_defaults(&c);
	for (size_t i = 0; i < sizeof(delays) / sizeof(delays[0]); i++) {
		struct ui_config start;

		config_defaults(&start);
		c.delay_s = delays[i];
		round_trip(t, "x/ptoprc", &c, &start);
	}
	/* every column, in reverse table order, COMMAND last */
	c.ncolumns = 0;
	for (int f = FIELD_COUNT - 1; f >= 0; f--)
		if (f != FIELD_COMMAND)
			c.columns[c.ncolumns++] = (enum field_id)f;
	c.columns[c.ncolumns++] = FIELD_COMMAND;
	assert_int_equal(c.ncolumns, FIELD_COUNT);
	round_trip(t, "x/ptoprc", &c, &(struct ui_config){0});
	/* only COMMAND */
	c.columns[0] = FIELD_COMMAND;
	c.ncolumns = 1;
	round_trip(t, "x/ptoprc", &c, &(struct ui_config){0});
}

static void test_written_text(void **state)
{
	struct tmp *t = *state;
	struct ui_config c;
	char buf[2048];
	ssize_t n;
	int fd;

	config_defaults(&c);
	assert_int_equal(config_write(t->path, &c), 0);
	fd = open(t->path, O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	assert_true(n > 0);
	buf[n] = '\0';
	assert_non_null(
	    strstr(buf, "\ncolumns = pid,user,pr,ni,virt,res,shr,state,cpu,mem,time,command\n"));
	assert_non_null(strstr(buf, "\nsort = cpu\n"));
	assert_non_null(strstr(buf, "\ndelay = 3\n"));
	assert_non_null(strstr(buf, "\npane = processes\n"));
	/* htop's meanings unless ptoprc asks for top's */
	assert_int_equal(c.keys, KEYS_HTOP);
	assert_non_null(strstr(buf, "\nkeys = htop\n"));
	assert_non_null(strstr(buf, "\nmemory = bars\n"));
	assert_non_null(strstr(buf, "\nsummary_unit = MiB\n"));
	assert_non_null(strstr(buf, "\ntask_unit = KiB\n"));
	assert_non_null(strstr(buf, "\nload_line = yes\n"));
	assert_non_null(strstr(buf, "\nscreen_tabs = yes\nscreen = Main | "));
	/* htop's header: two columns */
	assert_non_null(strstr(buf, "\nmeters = cpu,memory,swap | tasks,load,uptime\n"));
}

static void test_write_fails_under_a_file(void **state)
{
	struct tmp *t = *state;
	struct ui_config c;
	char path[768];

	config_defaults(&c);
	write_text(t->path, "not a directory\n");
	snprintf(path, sizeof(path), "%s/ptop/ptoprc", t->path);
	assert_int_equal(config_write(path, &c), -ENOTDIR);
}

static void test_missing_file(void **state)
{
	struct tmp *t = *state;
	struct ui_config c, before;
	struct sbuf errors = {0};
	char path[768];

	config_defaults(&c);
	c.delay_s = 7;
	c.tree = true;
	before = c;
	snprintf(path, sizeof(path), "%s/nosuch/ptoprc", t->dir);
	assert_int_equal(config_read(path, &c, &errors), -ENOENT);
	assert_int_equal(errors.len, 0);
	assert_config_equal(&c, &before);
	assert_int_equal(config_read(t->path, &c, &errors), -ENOENT);
	assert_config_equal(&c, &before);
}

static void test_unreadable(void **state)
{
	/* a directory opens for reading but cannot be read: an error, not an empty file */
	struct tmp *t = *state;
	struct ui_config c, before;
	struct sbuf errors = {0}, want = {0};

	config_defaults(&c);
	c.per_cpu = true;
	before = c;
	assert_int_equal(config_read(t->dir, &c, &errors), -EISDIR);
	sbuf_printf(&want, "%s: not a regular file, not read", t->dir);
	assert_true(has_line(&errors, sbuf_cstr(&want)));
	assert_config_equal(&c, &before);
	sbuf_free(&errors);
	sbuf_free(&want);
}

static void test_empty_file(void **state)
{
	struct tmp *t = *state;
	struct ui_config c, def;
	struct sbuf errors = {0};

	config_defaults(&c);
	config_defaults(&def);
	write_text(t->path, "");
	assert_int_equal(config_read(t->path, &c, &errors), 0);
	assert_int_equal(errors.len, 0);
	assert_config_equal(&c, &def);
	/* only comments, blank lines and whitespace: nothing to say either */
	write_text(t->path, "# ptop\n\n   \n\t# indented comment\n\r\n");
	assert_int_equal(config_read(t->path, &c, &errors), 0);
	assert_int_equal(errors.len, 0);
	assert_config_equal(&c, &def);
}

static void test_bad_lines(void **state)
{
	struct tmp *t = *state;
	struct ui_config c, def;
	struct sbuf file = {0}, errors = {0};
	/* the first CONFIG_MAX_REPORTED of the 11 bad lines, then a count */
	static const unsigned bad[] = {3, 4, 5, 6, 7, 0};

	sbuf_adds(&file, "# written by hand\n"	  /* 1 */
			 "delay = 1.5\n"	  /* 2 */
			 "delay=abc\n"		  /* 3 */
			 "delay=-1\n"		  /* 4 */
			 "columns=nosuch\n"	  /* 5 */
			 "columns=pid,user,pid\n" /* 6 */
			 "sort=nosuch\n"	  /* 7 */
			 "tree=maybe\n"		  /* 8 */
			 "pane=nosuch\n"	  /* 9 */
			 "no equals sign here\n"  /* 10 */
			 "frobnicate = 1\n"	  /* 11 */
			 "cmdline = yes");	  /* 12, padded past any line buffer */
	for (int i = 0; i < 2000; i++)
		sbuf_addc(&file, ' ');
	sbuf_adds(&file, "#\n"
			 "sort = mem\n"	   /* 13 */
			 "threads = 1 2\n" /* 14 */
			 "\n"		   /* 15 */
			 "tree = yes\n");  /* 16 */
	write_file(t->path, file.p, file.len);

	config_defaults(&c);
	config_defaults(&def);
	assert_int_equal(config_read(t->path, &c, &errors), 0);
	assert_int_equal(CONFIG_MAX_REPORTED, 5);
	assert_error_lines(&errors, bad, sizeof(bad) / sizeof(bad[0]));
	assert_true(has_line(&errors, "ptoprc:3: delay: delay must be a number of seconds"));
	assert_true(has_line(&errors, "ptoprc:4: delay: delay must be a number of seconds"));
	assert_true(has_line(&errors, "ptoprc:5: columns: unknown or repeated column"));
	assert_true(has_line(&errors, "ptoprc:6: columns: unknown or repeated column"));
	assert_true(has_line(&errors, "ptoprc:7: sort: unknown sort field"));
	assert_true(has_line(&errors, "ptoprc: and 6 more"));

	/* the good lines applied, the bad ones changed nothing */
	assert_true(c.delay_s == 1.5);
	assert_int_equal(c.order.field, FIELD_MEM);
	assert_true(c.tree);
	assert_false(c.cmdline);
	assert_false(c.threads);
	assert_int_equal(c.pane, ui_pane_by_name("processes"));
	assert_int_equal(c.ncolumns, def.ncolumns);
	for (size_t i = 0; i < c.ncolumns; i++)
		assert_int_equal(c.columns[i], def.columns[i]);
	sbuf_free(&file);
	sbuf_free(&errors);
}

static void test_bad_line_messages(void **state)
{
	/* each reason, alone in a file after a comment */
	struct tmp *t = *state;
	static const struct {
		const char *line, *why;
	} cases[] = {
	    {"tree=maybe", "ptoprc:2: tree: expected yes or no"},
	    {"pane=nosuch", "ptoprc:2: pane: unknown pane"},
	    {"keys = vi", "ptoprc:2: keys: keys must be htop or top"},
	    {"no equals sign here", "ptoprc:2: expected key = value"},
	    {"frobnicate = 1", "ptoprc:2: frobnicate: unknown setting"},
	    {"threads = 1 2", "ptoprc:2: threads: expected yes or no"},
	    {"cmdline = yes", "ptoprc:2: line too long"},
	    {"counters = cycles,,page-faults",
	     "ptoprc:2: counters: an empty event name (two commas?)"},
	    {"counters = cycles,", "ptoprc:2: counters: an empty event name (two commas?)"},
	    {"counters = a,b,c,d,e,f,g,h,i", "ptoprc:2: counters: at most 8 events (ctr1..ctr8)"},
	    {"counters = cycles;page-faults",
	     "ptoprc:2: counters: event names are letters, digits and _ - . : = / +"},
	    {"counters = cycles,cycles", "ptoprc:2: counters: an event named twice"},
	    {"counters = "
	     "a123456789012345678901234567890123456789012345678901234567890123456789",
	     "ptoprc:2: counters: an event name too long"},
	    {"screen = Main | pid,nosuch,command | cpu",
	     "ptoprc:2: screen: unknown or repeated column"},
	    {"screen = Main | pid,pid | cpu", "ptoprc:2: screen: unknown or repeated column"},
	    {"screen =  | pid,command | cpu", "ptoprc:2: screen: a screen needs a name"},
	    {"screen = Main", "ptoprc:2: screen: expected NAME | COLUMNS | SORT [reverse] [tree] "
			      "[collapsed] [| TREESORT [reverse]]"},
	    {"screen = a | pid | cpu | pid | tree",
	     "ptoprc:2: screen: expected NAME | COLUMNS | SORT [reverse] [tree] [collapsed] [| "
	     "TREESORT [reverse]]"},
	    {"screen = a | pid | cpu | tree", "ptoprc:2: screen: unknown sort field"},
	    {"screen = a | pid | cpu |", "ptoprc:2: screen: unknown sort field"},
	    {"screen = a | pid | cpu tree | pid tree",
	     "ptoprc:2: screen: after the tree's sort field: reverse"},
	    {"screen = Main | pid | nosuch", "ptoprc:2: screen: unknown sort field"},
	    {"screen = Main | pid |", "ptoprc:2: screen: unknown sort field"},
	    {"screen = Main | pid | cpu sideways",
	     "ptoprc:2: screen: after the sort field: reverse, tree or collapsed"},
	    {"screen = Main | pid | cpu tree collapsed=1",
	     "ptoprc:2: screen: after the sort field: reverse, tree or collapsed"},
	    {"screen = Main | pid | collapsed", "ptoprc:2: screen: unknown sort field"},
	    {"screen = A name far longer than twenty | pid | cpu",
	     "ptoprc:2: screen: a screen's name is at most 20 bytes"},
	    {"screen = tab\ttab | pid | cpu",
	     "ptoprc:2: screen: a screen's name has no '|' and no control character"},
	    {"screen_tabs = maybe", "ptoprc:2: screen_tabs: expected yes or no"},
	    {"screen_tabs =", "ptoprc:2: screen_tabs: expected yes or no"},
	    {"screen_tabs = 2", "ptoprc:2: screen_tabs: expected yes or no"},
	    {"screen_tabs = no no", "ptoprc:2: screen_tabs: expected yes or no"},
	    {"screen_tabs = no # hidden", "ptoprc:2: screen_tabs: expected yes or no"},
	    {"screen_tabs = n\033[0m", "ptoprc:2: screen_tabs: expected yes or no"},
	    {"screen_tabs | no", "ptoprc:2: expected key = value"},
	    {"screen_tab = no", "ptoprc:2: screen_tab: unknown setting"},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ui_config c, def;
		struct sbuf file = {0}, errors = {0};
		static const unsigned line2[] = {2};

		sbuf_printf(&file, "# case %zu\n%s", i, cases[i].line);
		if (strstr(cases[i].why, "line too long"))
			for (int k = 0; k < 2000; k++)
				sbuf_addc(&file, ' ');
		sbuf_adds(&file, "\n");
		write_file(t->path, file.p, file.len);
		config_defaults(&c);
		config_defaults(&def);
		assert_int_equal(config_read(t->path, &c, &errors), 0);
		assert_error_lines(&errors, line2, 1);
		if (!has_line(&errors, cases[i].why))
			fail_msg("expected \"%s\", got: %s", cases[i].why, sbuf_cstr(&errors));
		assert_config_equal(&c, &def);
		assert_int_equal(c.ntabs, 1);
		assert_string_equal(c.tabs[0].name, "Main");
		sbuf_free(&file);
		sbuf_free(&errors);
	}
}

static void assert_tab(const struct ui_tab *t, const char *name, const enum field_id *cols,
		       size_t n, enum field_id sort, bool reverse, bool tree)
{
	assert_string_equal(t->name, name);
	assert_int_equal(t->ncolumns, n);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(t->columns[i], cols[i]);
	assert_int_equal(t->order.field, sort);
	assert_int_equal(t->order.reverse, reverse);
	assert_int_equal(t->tree, tree);
}

/*
 * Three screens written while the second shows (its columns changed in
 * place, as the viewer changes them) read back as three, the first shown
 * with its columns, whatever the columns line says; names keep their
 * spaces and UTF-8 within.
 */
static void test_tabs_round_trip(void **state)
{
	static const enum field_id main_cols[] = {FIELD_PID, FIELD_USER, FIELD_CPU, FIELD_COMMAND};
	static const enum field_id mine[] = {FIELD_PID, FIELD_PPID, FIELD_COMMAND};
	static const enum field_id io[] = {FIELD_PID, FIELD_IO_RATE, FIELD_COMMAND};
	struct tmp *t = *state;
	struct ui_config c, got;
	struct sbuf errors = {0};

	config_defaults(&c);
	memcpy(c.columns, main_cols, sizeof(main_cols));
	c.ncolumns = 4;
	assert_int_equal(config_tab_add(&c, 1), 0);
	assert_int_equal(config_tab_add(&c, 2), 0);
	assert_int_equal(c.tab, 0);
	config_tab_show(&c, 2);
	snprintf(c.tabs[2].name, sizeof(c.tabs[2].name), "I/O");
	memcpy(c.columns, io, sizeof(io));
	c.ncolumns = 3;
	c.order = (struct row_order){.field = FIELD_IO_RATE, .reverse = true};
	config_tab_show(&c, 1);
	snprintf(c.tabs[1].name, sizeof(c.tabs[1].name), "my tab é");
	memcpy(c.columns, mine, sizeof(mine));
	c.ncolumns = 3;
	c.tree = true;
	c.collapsed = true;
	assert_int_equal(config_write(t->path, &c), 0);

	config_defaults(&got);
	assert_int_equal(config_read(t->path, &got, &errors), 0);
	if (errors.len)
		fail_msg("errors reading back: %s", sbuf_cstr(&errors));
	assert_int_equal(got.ntabs, 3);
	assert_int_equal(got.tab, 0);
	assert_tab(&got.tabs[0], "Main", main_cols, 4, FIELD_CPU, false, false);
	assert_tab(&got.tabs[1], "my tab é", mine, 3, FIELD_PID, false, true);
	assert_tab(&got.tabs[2], "I/O", io, 3, FIELD_IO_RATE, true, false);
	assert_false(got.tabs[0].collapsed);
	assert_true(got.tabs[1].collapsed);
	assert_false(got.tabs[2].collapsed);
	/* the first one shows */
	assert_int_equal(got.ncolumns, 4);
	assert_memory_equal(got.columns, main_cols, sizeof(main_cols));
	assert_int_equal(got.order.field, FIELD_CPU);
	assert_false(got.tree);
	assert_false(got.collapsed);
	/* a tree sorted otherwise than its list: a fourth part, kept */
	c.tabs[2].tree_order = (struct row_order){.field = FIELD_PID, .reverse = true};
	config_tree_set(&c, false); /* the shown one, my tab é, back to its list */
	assert_int_equal(c.order.field, FIELD_PID);
	c.order = (struct row_order){.field = FIELD_MEM};
	assert_int_equal(config_write(t->path, &c), 0);
	config_defaults(&got);
	assert_int_equal(config_read(t->path, &got, &errors), 0);
	assert_int_equal(errors.len, 0);
	assert_int_equal(got.tabs[1].order.field, FIELD_MEM);
	assert_int_equal(got.tabs[1].tree_order.field, FIELD_PID);
	assert_false(got.tabs[1].tree);
	assert_int_equal(got.tabs[2].order.field, FIELD_IO_RATE);
	assert_int_equal(got.tabs[2].tree_order.field, FIELD_PID);
	assert_true(got.tabs[2].tree_order.reverse);
	/* the words after the sort in any order; collapsed without tree too */
	write_text(t->path, "screen = A | pid | cpu collapsed tree reverse\n"
			    "screen = B | pid | cpu  collapsed\n");
	assert_int_equal(config_read(t->path, &got, &errors), 0);
	assert_int_equal(errors.len, 0);
	assert_int_equal(got.ntabs, 2);
	assert_true(got.collapsed && got.tree && got.order.reverse);
	assert_true(got.tabs[1].collapsed);
	assert_false(got.tabs[1].tree);
	sbuf_free(&errors);
}

/* A hundred screen lines: the first 16 kept, one line said about the rest. */
static void test_tabs_too_many(void **state)
{
	static const unsigned lines[] = {17};
	struct tmp *t = *state;
	struct sbuf file = {0}, errors = {0};
	struct ui_config c;

	for (int i = 0; i < 100; i++)
		sbuf_printf(&file, "screen = s%d | pid,user,command | pid%s\n", i,
			    i % 2 ? " tree" : "");
	write_file(t->path, file.p, file.len);
	config_defaults(&c);
	assert_int_equal(config_read(t->path, &c, &errors), 0);
	assert_error_lines(&errors, lines, 1);
	assert_true(has_line(&errors, "ptoprc:17: screen: too many screens (16 at most): this and "
				      "later ones skipped"));
	assert_int_equal(c.ntabs, UI_TABS_MAX);
	assert_string_equal(c.tabs[15].name, "s15");
	assert_true(c.tabs[15].tree);
	assert_int_equal(c.ncolumns, 3);
	sbuf_free(&file);
	sbuf_free(&errors);
}

/* Setup's operations: the shown screen stays shown, its columns kept, never none left. */
static void test_tab_ops(void **state)
{
	struct ui_config c;

	(void)state;
	config_defaults(&c);
	assert_int_equal(config_tab_remove(&c, 0), -EINVAL);
	assert_int_equal(config_tab_move(&c, 0, 1), -EINVAL);
	assert_int_equal(config_tab_move(&c, 0, -1), -EINVAL);
	/* a new one after Main: htop's PID and Command, by PID */
	assert_int_equal(config_tab_add(&c, 1), 0);
	assert_int_equal(c.ntabs, 2);
	assert_string_equal(c.tabs[1].name, "New");
	assert_int_equal(c.tabs[1].ncolumns, 2);
	assert_int_equal(c.tabs[1].order.field, FIELD_PID);
	assert_false(c.tabs[1].collapsed);
	/* the shown one's collapsed goes with it, and comes back */
	c.collapsed = true;
	config_tab_show(&c, 1);
	assert_false(c.collapsed);
	config_tab_show(&c, 0);
	assert_true(c.collapsed);
	/* t: the tree's own order comes, and the list's comes back */
	c.order = (struct row_order){.field = FIELD_CPU, .reverse = true, .cumulative = true};
	config_tree_set(&c, true);
	assert_true(c.tree);
	assert_int_equal(c.order.field, FIELD_CPU); /* a new tree's is the list's */
	c.order = (struct row_order){.field = FIELD_PID, .cumulative = true};
	config_tree_set(&c, true);
	assert_int_equal(c.order.field, FIELD_PID);
	config_tree_set(&c, false);
	assert_false(c.tree);
	assert_int_equal(c.order.field, FIELD_CPU);
	assert_true(c.order.reverse);
	assert_true(c.order.cumulative); /* the view's, not the tab's */
	config_tab_show(&c, 1);
	config_tab_show(&c, 0);
	assert_int_equal(c.order.field, FIELD_CPU);
	config_tree_set(&c, true);
	assert_int_equal(c.order.field, FIELD_PID);
	assert_false(c.order.reverse);
	config_tree_set(&c, false);
	/* one before the shown one moves it */
	c.columns[0] = FIELD_PPID; /* Main's, changed in place */
	assert_int_equal(config_tab_add(&c, 0), 0);
	assert_int_equal(c.tab, 1);
	assert_string_equal(c.tabs[1].name, "Main");
	assert_int_equal(c.columns[0], FIELD_PPID);
	/* moved: it stays shown where it went */
	assert_int_equal(config_tab_move(&c, 1, -1), 0);
	assert_int_equal(c.tab, 0);
	assert_string_equal(c.tabs[0].name, "Main");
	assert_int_equal(c.tabs[0].columns[0], FIELD_PPID);
	/* the shown one removed: its neighbour shows */
	assert_int_equal(config_tab_remove(&c, 0), 0);
	assert_int_equal(c.tab, 0);
	assert_int_equal(c.ncolumns, 2);
	assert_int_equal(c.columns[0], FIELD_PID);
	/* the last one removed while shown: the one before shows */
	config_tab_show(&c, 1);
	assert_int_equal(config_tab_remove(&c, 1), 0);
	assert_int_equal(c.tab, 0);
	assert_int_equal(c.ntabs, 1);
	while (c.ntabs < UI_TABS_MAX)
		assert_int_equal(config_tab_add(&c, c.ntabs), 0);
	assert_int_equal(config_tab_add(&c, 0), -ENOSPC);
	assert_null(config_tab_name_check("I/O"));
	assert_non_null(config_tab_name_check(""));
	assert_non_null(config_tab_name_check("a|b"));
	assert_non_null(config_tab_name_check("123456789012345678901"));
	assert_null(config_tab_name_check("12345678901234567890"));
}

static void test_bad_values(void **state)
{
	struct tmp *t = *state;
	static const char *const bad[] = {
	    "delay = ",
	    "delay = inf",
	    "delay = nan",
	    "delay = 86401",
	    "delay = 1s",
	    "delay = -0.5",
	    "sort = ",
	    "sort = cpu,mem",
	    "columns = pid;user",
	    "color = 2",
	    "per_cpu = ",
	    "pane = 5",
	    "sort_reverse = y",
	    " = yes",
	    "=",
	    "memory = graph",
	    "memory = ",
	    "summary_unit = KB",
	    "summary_unit = x",
	    "task_unit = ",
	    "task_unit = MiBs",
	    "load_line = maybe",
	    "meters = cpu,bogus",
	    "meters = cpu,cpu",
	    "meters = cpu | memory,cpu",
	    "meters = cpu | tasks | load",
	    "meters = uptime:graph",
	    "meters = uptime:bar",
	    "meters = disk:led",
	    "meters = cpu:sparkle",
	    "meters = cpu:",
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct ui_config c, def;
		struct sbuf errors = {0}, file = {0};
		static const unsigned line2[] = {2};

		config_defaults(&c);
		config_defaults(&def);
		sbuf_printf(&file, "# case %zu\n%s\n", i, bad[i]);
		write_file(t->path, file.p, file.len);
		assert_int_equal(config_read(t->path, &c, &errors), 0);
		assert_error_lines(&errors, line2, 1);
		assert_config_equal(&c, &def);
		sbuf_free(&errors);
		sbuf_free(&file);
	}
}

/* The meters line: one column (ptop's before there were two), or htop's two
 * halves split at '|', each meter with its mode where it is not the default. */
static void test_meters_layout(void **state)
{
	struct tmp *t = *state;
	struct ui_config c;
	struct sbuf errors = {0};

	config_defaults(&c);
	assert_false(c.meters_chosen);
	write_text(t->path, "meters = uptime,cpu\n");
	assert_int_equal(config_read(t->path, &c, &errors), 0);
	assert_int_equal(errors.len, 0);
	assert_true(c.meters_chosen);
	assert_int_equal(c.nmeters, 2);
	assert_int_equal(c.meters[0].id, meter_by_name("uptime"));
	assert_int_equal(c.meters[0].column, 0);
	assert_int_equal(c.meters[1].id, meter_by_name("cpu"));
	assert_int_equal(c.meters[1].column, 0);
	assert_int_equal(c.meters[1].mode, METER_BAR);

	write_text(t->path, "meters =memory:text , swap:bar|\ttasks,cost\n");
	assert_int_equal(config_read(t->path, &c, &errors), 0);
	assert_int_equal(errors.len, 0);
	assert_int_equal(c.nmeters, 4);
	assert_int_equal(c.meters[0].id, meter_by_name("memory"));
	assert_int_equal(c.meters[0].mode, METER_TEXT);
	assert_int_equal(c.meters[1].mode, METER_BAR);
	assert_int_equal(c.meters[1].column, 0);
	assert_int_equal(c.meters[2].id, meter_by_name("tasks"));
	assert_int_equal(c.meters[2].column, 1);
	assert_int_equal(c.meters[2].mode, METER_TEXT);
	assert_int_equal(c.meters[3].column, 1);

	/* htop's graph and LED, where the meter has them; load is text unless told */
	write_text(t->path, "meters = cpu:graph,memory:led | load,tasks:led,uptime:led\n");
	assert_int_equal(config_read(t->path, &c, &errors), 0);
	assert_int_equal(errors.len, 0);
	assert_int_equal(c.nmeters, 5);
	assert_int_equal(c.meters[0].mode, METER_GRAPH);
	assert_int_equal(c.meters[1].mode, METER_LED);
	assert_int_equal(c.meters[2].mode, METER_TEXT);
	assert_int_equal(c.meters[3].mode, METER_LED);
	assert_int_equal(c.meters[4].mode, METER_LED);

	/* an empty header, and one with its left half empty */
	write_text(t->path, "meters =\n");
	assert_int_equal(config_read(t->path, &c, &errors), 0);
	assert_int_equal(c.nmeters, 0);
	write_text(t->path, "meters = | load\n");
	assert_int_equal(config_read(t->path, &c, &errors), 0);
	assert_int_equal(errors.len, 0);
	assert_int_equal(c.nmeters, 1);
	assert_int_equal(c.meters[0].column, 1);
	sbuf_free(&errors);
}

static void test_good_spellings(void **state)
{
	struct tmp *t = *state;
	struct ui_config c;
	struct sbuf errors = {0};

	config_defaults(&c);
	/* CRLF, tabs, case in values, later lines win, booleans in every spelling */
	write_text(t->path, "delay\t=\t0.5\r\n"
			    "delay = 2\n"
			    "color = OFF\n"
			    "tree = on\n"
			    "threads = TRUE\n"
			    "user_threads = on\n"
			    "hide_kernel_threads = yes\n"
			    "per_cpu = 1\n"
			    "cmdline = Yes\n"
			    "sort_reverse = no\n"
			    "sort = PID\n"
			    "pane = Counters\n"
			    "memory = TEXT\n"
			    "summary_unit = gib\n"
			    "task_unit = m\n"
			    "load_line = off\n"
			    "screen_tabs=OFF \t\r\n"
			    "columns = PID , user\tcpu\n");
	assert_int_equal(config_read(t->path, &c, &errors), 0);
	if (errors.len)
		fail_msg("unexpected errors: %s", sbuf_cstr(&errors));
	assert_true(c.delay_s == 2);
	assert_false(c.color);
	assert_true(c.tree);
	assert_true(c.threads);
	assert_true(c.user_threads);
	assert_true(c.hide_kthreads);
	assert_true(c.per_cpu);
	assert_true(c.cmdline);
	assert_false(c.order.reverse);
	assert_int_equal(c.order.field, FIELD_PID);
	assert_int_equal(c.pane, ui_pane_by_name("counters"));
	assert_int_equal(c.memory, MEM_TEXT);
	assert_int_equal(c.summary_unit, UNIT_GIB);
	assert_int_equal(c.task_unit, UNIT_MIB);
	assert_false(c.load_line);
	assert_false(c.screen_tabs);
	assert_int_equal(c.ncolumns, 4);
	assert_int_equal(c.columns[0], FIELD_PID);
	assert_int_equal(c.columns[1], FIELD_USER);
	assert_int_equal(c.columns[2], FIELD_CPU);
	assert_int_equal(c.columns[3], FIELD_COMMAND);
	sbuf_free(&errors);
}

static void test_command_always_last(void **state)
{
	struct tmp *t = *state;
	static const struct {
		const char *line;
		enum field_id want[4];
		size_t n;
	} cases[] = {
	    {"columns = command,pid,user", {FIELD_PID, FIELD_USER, FIELD_COMMAND}, 3},
	    {"columns = pid,command,user", {FIELD_PID, FIELD_USER, FIELD_COMMAND}, 3},
	    {"columns = pid", {FIELD_PID, FIELD_COMMAND}, 2},
	    {"columns = command", {FIELD_COMMAND}, 1},
	    {"columns = ", {FIELD_COMMAND}, 1},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ui_config c;
		struct sbuf errors = {0};

		config_defaults(&c);
		write_text(t->path, cases[i].line);
		assert_int_equal(config_read(t->path, &c, &errors), 0);
		assert_int_equal(errors.len, 0);
		assert_int_equal(c.ncolumns, cases[i].n);
		for (size_t k = 0; k < cases[i].n; k++)
			assert_int_equal(c.columns[k], cases[i].want[k]);
		sbuf_free(&errors);
	}
}

/* A small deterministic generator: the same garbage on every run. */
static unsigned char next_byte(unsigned *seed)
{
	*seed = *seed * 1103515245u + 12345u;
	return (unsigned char)(*seed >> 16);
}

static void test_binary_garbage(void **state)
{
	struct tmp *t = *state;
	struct ui_config c;
	struct sbuf file = {0}, errors = {0};
	unsigned seed = 42;
	static const unsigned bad[] = {2, 3, 4, 5, 6};

	sbuf_adds(&file, "delay = 2\n"); /* 1 */
	/* 2: long garbage that starts with NUL and holds more NULs */
	sbuf_addc(&file, '\0');
	for (int i = 0; i < 3000; i++) {
		unsigned char b = next_byte(&seed);

		sbuf_addc(&file, b == '\n' ? 0 : (char)b);
	}
	sbuf_adds(&file, "\n");
	sbuf_add(&file, "\0tree = yes\n", 12);		  /* 3: would apply, but for the NUL */
	sbuf_add(&file, "\x01\x02\0cmdline = yes\n", 17); /* 4 */
	sbuf_add(&file, "\xff\xfe\xfd\x80\n", 5);	  /* 5 */
	sbuf_add(&file, "color = n\0o\n", 12);		  /* 6 */
	sbuf_adds(&file, "sort = pid\n");		  /* 7 */
	write_file(t->path, file.p, file.len);

	config_defaults(&c);
	assert_int_equal(config_read(t->path, &c, &errors), 0);
	assert_error_lines(&errors, bad, sizeof(bad) / sizeof(bad[0]));
	assert_true(c.delay_s == 2);
	assert_int_equal(c.order.field, FIELD_PID);
	assert_false(c.tree);
	assert_false(c.cmdline);
	assert_true(c.color);
	sbuf_free(&file);
	sbuf_free(&errors);
}

static void test_random_files(void **state)
{
	/* whole files of noise: never a crash, errors well formed, line numbers rising */
	struct tmp *t = *state;

	for (unsigned seed0 = 1; seed0 <= 50; seed0++) {
		struct ui_config c;
		struct sbuf file = {0}, errors = {0};
		unsigned seed = seed0, lines = 1, last = 0;
		size_t len = 1 + seed0 * 97 % 5000;
		const char *p;

		for (size_t i = 0; i < len; i++) {
			unsigned char b = next_byte(&seed);

			/* plenty of line ends and '=' to reach the value parsers */
			if (b % 17 == 0)
				b = '\n';
			else if (b % 13 == 0)
				b = '=';
			lines += b == '\n';
			sbuf_addc(&file, (char)b);
		}
		write_file(t->path, file.p, file.len);
		config_defaults(&c);
		assert_int_equal(config_read(t->path, &c, &errors), 0);
		p = errors.len ? sbuf_cstr(&errors) : "";
		for (unsigned shown = 0; *p; shown++) {
			unsigned n;

			/* past the first few, one line counts the rest, and is the last */
			if (shown == CONFIG_MAX_REPORTED) {
				assert_int_equal(sscanf(p, "ptoprc: and %u more\n", &n), 1);
				assert_true(n > 0 && n <= lines - last);
				assert_string_equal(strchr(p, '\n'), "\n");
				break;
			}
			assert_int_equal(sscanf(p, "ptoprc:%u: ", &n), 1);
			assert_true(strncmp(p, "ptoprc:", 7) == 0);
			assert_true(n > last);
			assert_true(n <= lines);
			last = n;
			p = strchr(p, '\n');
			assert_non_null(p);
			p++;
		}
		assert_int_equal(c.columns[c.ncolumns - 1], FIELD_COMMAND);
		sbuf_free(&file);
		sbuf_free(&errors);
	}
}

/* ---- hostile files: links, FIFOs, devices, huge files, many bad lines ---- */

static void on_alarm(int sig)
{
	static const char msg[] = "test_config: deadline passed: config_read blocked or spun\n";

	(void)sig;
	if (write(STDERR_FILENO, msg, sizeof(msg) - 1) < 0)
		_exit(2);
	_exit(1);
}

/* A regression that blocks or spins ends the program with a message instead of hanging. */
static void deadline(unsigned s)
{
	signal(SIGALRM, s ? on_alarm : SIG_DFL);
	alarm(s);
}

static char *slurp(const char *path)
{
	struct sbuf b = {0};
	char buf[4096];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	assert_true(fd >= 0);
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		sbuf_add(&b, buf, (size_t)n);
	assert_int_equal(n, 0);
	close(fd);
	sbuf_cstr(&b);
	return b.p;
}

static void assert_is_link_to(const char *link, const char *target)
{
	char buf[1024];
	struct stat st;
	ssize_t n;

	assert_int_equal(lstat(link, &st), 0);
	if (!S_ISLNK(st.st_mode))
		fail_msg("%s is no longer a symbolic link", link);
	n = readlink(link, buf, sizeof(buf) - 1);
	assert_true(n > 0);
	buf[n] = '\0';
	assert_string_equal(buf, target);
}

static void assert_settings_file(const char *path)
{
	char *text = slurp(path);

	if (!strstr(text, "\nsort = time\n") || !strstr(text, "\ntree = yes\n"))
		fail_msg("%s does not hold the settings: %s", path, text);
	free(text);
}

/* Settings unlike the defaults, so that a write is seen in the file. */
static void some_settings(struct ui_config *c)
{
	config_defaults(c);
	c->order.field = FIELD_TIME;
	c->tree = true;
}

/* Names in dir other than those in keep[]: what a write left behind. */
static void assert_dir_holds(const char *dir, const char *const *keep, size_t n)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	assert_non_null(d);
	while ((e = readdir(d))) {
		bool known = !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..");

		for (size_t i = 0; i < n && !known; i++)
			known = !strcmp(e->d_name, keep[i]);
		if (!known)
			fail_msg("%s/%s was left behind", dir, e->d_name);
	}
	closedir(d);
}

static void test_write_ignores_planted_tmp_link(void **state)
{
	/* the temporary file is made anew: a link planted where it goes is not followed */
	struct tmp *t = *state;
	struct ui_config c;
	char victim[768], planted[768];
	char *text;

	some_settings(&c);
	snprintf(victim, sizeof(victim), "%s/victim", t->dir);
	write_text(victim, "root only\n");
	assert_int_equal(chmod(victim, 0600), 0);
	snprintf(planted, sizeof(planted), "%s.tmp", t->path);
	assert_int_equal(symlink(victim, planted), 0);

	assert_int_equal(config_write(t->path, &c), 0);
	text = slurp(victim);
	assert_string_equal(text, "root only\n");
	free(text);
	assert_settings_file(t->path);
	assert_is_link_to(planted, victim);
}

static void test_write_through_own_link(void **state)
{
	/* dotfiles kept elsewhere: the target is updated, in place of it, and the link stays */
	struct tmp *t = *state;
	struct ui_config c;
	char dir[768], target[800];
	struct stat st;

	some_settings(&c);
	snprintf(dir, sizeof(dir), "%s/dotfiles", t->dir);
	assert_int_equal(mkdir(dir, 0700), 0);
	snprintf(target, sizeof(target), "%s/ptoprc", dir);
	write_text(target, "delay = 5\n");
	assert_int_equal(chmod(target, 0600), 0);
	assert_int_equal(symlink(target, t->path), 0);

	assert_int_equal(config_write(t->path, &c), 0);
	assert_is_link_to(t->path, target);
	assert_settings_file(target);
	assert_int_equal(stat(target, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0600);
	/* the temporary file went beside the target, and is gone */
	assert_dir_holds(dir, (const char *const[]){"ptoprc"}, 1);
	assert_dir_holds(t->dir, (const char *const[]){"ptoprc", "dotfiles"}, 2);
}

static void test_write_refuses_link_to_others_file(void **state)
{
	/* root with another user's XDG_CONFIG_HOME: a link there must not lead it anywhere */
	struct tmp *t = *state;
	struct ui_config c;
	struct sbuf why = {0}, want = {0};
	char other[768], mine[768];
	char *text;

	if (geteuid() != 0) {
		print_message("not root: cannot make a file owned by another user\n");
		skip();
	}
	some_settings(&c);
	snprintf(other, sizeof(other), "%s/other", t->dir);
	write_text(other, "theirs\n");
	assert_int_equal(chown(other, 65534, 65534), 0);
	assert_int_equal(symlink(other, t->path), 0);

	assert_int_equal(config_write_why(t->path, &c, &why), -EPERM);
	sbuf_printf(&want, "%s is a symbolic link to %s, which is another user's: not written",
		    t->path, other);
	assert_string_equal(sbuf_cstr(&why), sbuf_cstr(&want));
	assert_is_link_to(t->path, other);
	text = slurp(other);
	assert_string_equal(text, "theirs\n");
	free(text);

	/* my file, but the link was planted by another user: not followed either */
	snprintf(mine, sizeof(mine), "%s/mine", t->dir);
	write_text(mine, "mine\n");
	assert_int_equal(unlink(t->path), 0);
	assert_int_equal(symlink(mine, t->path), 0);
	assert_int_equal(lchown(t->path, 65534, 65534), 0);
	sbuf_reset(&why);
	sbuf_reset(&want);
	assert_int_equal(config_write_why(t->path, &c, &why), -EPERM);
	sbuf_printf(&want, "%s is a symbolic link made by another user: not followed", t->path);
	assert_string_equal(sbuf_cstr(&why), sbuf_cstr(&want));
	assert_is_link_to(t->path, mine);
	text = slurp(mine);
	assert_string_equal(text, "mine\n");
	free(text);
	assert_dir_holds(t->dir, (const char *const[]){"ptoprc", "other", "mine"}, 3);
	sbuf_free(&why);
	sbuf_free(&want);
}

static void test_write_refuses_link_to_non_file(void **state)
{
	/* a link to nothing or to a directory: said, and the link left as it was */
	struct tmp *t = *state;
	struct ui_config c;
	struct sbuf why = {0};
	char target[768];

	some_settings(&c);
	snprintf(target, sizeof(target), "%s/nosuch", t->dir);
	assert_int_equal(symlink(target, t->path), 0);
	assert_int_equal(config_write_why(t->path, &c, &why), -ENOENT);
	assert_non_null(strstr(sbuf_cstr(&why), "is a symbolic link to nothing: not written"));
	assert_is_link_to(t->path, target);
	assert_int_equal(access(target, F_OK), -1);

	assert_int_equal(unlink(t->path), 0);
	snprintf(target, sizeof(target), "%s/dir", t->dir);
	assert_int_equal(mkdir(target, 0700), 0);
	assert_int_equal(symlink(target, t->path), 0);
	sbuf_reset(&why);
	assert_int_equal(config_write_why(t->path, &c, &why), -EISDIR);
	assert_non_null(strstr(sbuf_cstr(&why), "which is not a regular file: not written"));
	assert_is_link_to(t->path, target);
	assert_dir_holds(target, NULL, 0);
	assert_dir_holds(t->dir, (const char *const[]){"ptoprc", "dir"}, 2);
	sbuf_free(&why);
}

static void test_write_keeps_mode(void **state)
{
	struct tmp *t = *state;
	struct ui_config c;
	struct stat st;

	some_settings(&c);
	write_text(t->path, "delay = 5\n");
	assert_int_equal(chmod(t->path, 0600), 0);
	assert_int_equal(config_write(t->path, &c), 0);
	assert_int_equal(stat(t->path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0600);
	assert_settings_file(t->path);
	/* permissions, not set-ID bits: root must not make a set-user-ID file of its own */
	assert_int_equal(chmod(t->path, 04755), 0);
	assert_int_equal(config_write(t->path, &c), 0);
	assert_int_equal(stat(t->path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0755);
}

static void test_write_failure_leaves_nothing(void **state)
{
	/* the write itself fails (a file size limit): the old file stays, no temporary file */
	struct tmp *t = *state;
	struct ui_config c;
	struct rlimit old, small = {.rlim_cur = 16};
	char *text;

	some_settings(&c);
	write_text(t->path, "delay = 5\n");
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
	small.rlim_max = old.rlim_max;
	signal(SIGXFSZ, SIG_IGN);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
	assert_int_equal(config_write(t->path, &c), -EFBIG);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
	signal(SIGXFSZ, SIG_DFL);
	text = slurp(t->path);
	assert_string_equal(text, "delay = 5\n");
	free(text);
	assert_dir_holds(t->dir, (const char *const[]){"ptoprc"}, 1);
}

static void test_read_fifo(void **state)
{
	/* nobody writes to it: reading must not wait for a writer */
	struct tmp *t = *state;
	struct ui_config c, def;
	struct sbuf errors = {0};

	config_defaults(&c);
	config_defaults(&def);
	assert_int_equal(mkfifo(t->path, 0600), 0);
	deadline(20);
	assert_true(config_read(t->path, &c, &errors) < 0);
	deadline(0);
	assert_non_null(strstr(sbuf_cstr(&errors), ": not a regular file, not read\n"));
	assert_config_equal(&c, &def);
	sbuf_free(&errors);
}

static void test_read_link_to_dev_zero(void **state)
{
	/* endless NUL bytes: an error at once, not a loop over them */
	struct tmp *t = *state;
	struct ui_config c, def;
	struct sbuf errors = {0};

	config_defaults(&c);
	config_defaults(&def);
	assert_int_equal(symlink("/dev/zero", t->path), 0);
	deadline(20);
	assert_true(config_read(t->path, &c, &errors) < 0);
	deadline(0);
	assert_non_null(strstr(sbuf_cstr(&errors), ": not a regular file, not read\n"));
	assert_config_equal(&c, &def);
	sbuf_free(&errors);
}

static void test_read_huge_file(void **state)
{
	/* 2 MiB, good settings first: refused whole, nothing applied */
	struct tmp *t = *state;
	struct ui_config c, def;
	struct sbuf file = {0}, errors = {0};

	sbuf_adds(&file, "delay = 7\ntree = yes\n");
	while (file.len < 2u << 20)
		sbuf_adds(&file, "# padding padding padding padding padding padding padding\n");
	write_file(t->path, file.p, file.len);
	config_defaults(&c);
	config_defaults(&def);
	deadline(20);
	assert_int_equal(config_read(t->path, &c, &errors), -EFBIG);
	deadline(0);
	assert_non_null(strstr(sbuf_cstr(&errors), ": larger than 1 MiB, not read\n"));
	assert_config_equal(&c, &def);
	sbuf_free(&file);
	sbuf_free(&errors);
}

static void test_read_many_bad_lines(void **state)
{
	/* the first few bad lines by number, then how many more; the good lines apply */
	struct tmp *t = *state;
	struct ui_config c;
	struct sbuf file = {0}, errors = {0};
	unsigned line = 0;
	char want[64];

	for (int i = 0; i < 100; i++) {
		sbuf_printf(&file, "foo%d = 1\n", i);
		line++;
		if (i == 10) {
			sbuf_adds(&file, "delay = 9\n");
			line++;
		}
		if (i == 90) {
			sbuf_adds(&file, "sort = mem\n");
			line++;
		}
	}
	sbuf_adds(&file, "tree = yes\n");
	write_file(t->path, file.p, file.len);
	config_defaults(&c);
	assert_int_equal(config_read(t->path, &c, &errors), 0);
	assert_true(c.delay_s == 9);
	assert_int_equal(c.order.field, FIELD_MEM);
	assert_true(c.tree);
	for (unsigned n = 1; n <= 5; n++) {
		snprintf(want, sizeof(want), "ptoprc:%u: foo%u: unknown setting", n, n - 1);
		if (!has_line(&errors, want))
			fail_msg("no \"%s\" in:\n%s", want, sbuf_cstr(&errors));
	}
	assert_true(has_line(&errors, "ptoprc: and 95 more"));
	{
		unsigned nl = 0;

		for (size_t i = 0; i < errors.len; i++)
			nl += errors.p[i] == '\n';
		assert_int_equal(nl, 6);
	}
	sbuf_free(&file);
	sbuf_free(&errors);
}

static void test_config_path(void **state)
{
	char *p;

	(void)state;
	setenv("HOME", "/home/someone", 1);
	setenv("XDG_CONFIG_HOME", "/xdg/conf", 1);
	p = config_path();
	assert_non_null(p);
	assert_string_equal(p, "/xdg/conf/ptop/ptoprc");
	free(p);

	/* a relative XDG_CONFIG_HOME is to be ignored (XDG base directory spec) */
	setenv("XDG_CONFIG_HOME", "relative/conf", 1);
	p = config_path();
	assert_non_null(p);
	assert_string_equal(p, "/home/someone/.config/ptop/ptoprc");
	free(p);

	setenv("XDG_CONFIG_HOME", "", 1);
	p = config_path();
	assert_non_null(p);
	assert_string_equal(p, "/home/someone/.config/ptop/ptoprc");
	free(p);

	unsetenv("XDG_CONFIG_HOME");
	p = config_path();
	assert_non_null(p);
	assert_string_equal(p, "/home/someone/.config/ptop/ptoprc");
	free(p);

	setenv("HOME", "", 1);
	assert_null(config_path());
	unsetenv("HOME");
	assert_null(config_path());

	setenv("XDG_CONFIG_HOME", "/only/xdg", 1);
	p = config_path();
	assert_non_null(p);
	assert_string_equal(p, "/only/xdg/ptop/ptoprc");
	free(p);
	unsetenv("XDG_CONFIG_HOME");
}

/* htoprc fixture name imported over the defaults into c; the status line's sentence. */
static void import_htoprc(const char *name, struct ui_config *c, struct sbuf *said)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/htoprc/%s", FIXTURES, name);
	config_defaults(c);
	assert_int_equal(htoprc_import(path, c, said), 0);
	sbuf_cstr(said);
}

/* An htoprc of n bytes of text written at path and imported over the defaults into c. */
static void import_text(const char *path, const char *text, size_t n, struct ui_config *c,
			struct sbuf *said)
{
	write_file(path, text, n);
	config_defaults(c);
	assert_int_equal(htoprc_import(path, c, said), 0);
}

static void assert_columns(const struct ui_config *c, const enum field_id *want, size_t n)
{
	assert_int_equal(c->ncolumns, n);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(c->columns[i], want[i]);
}

/* want: "name" in the left column, "|name" in the right one */
static void assert_meters(const struct ui_config *c, const char *const *want, size_t n)
{
	assert_int_equal(c->nmeters, n);
	for (size_t i = 0; i < n; i++) {
		bool right = *want[i] == '|';

		assert_int_equal(c->meters[i].id, meter_by_name(want[i] + right));
		assert_int_equal(c->meters[i].column, right);
	}
}

/*
 * htop 2's own file, as it writes it: the columns and the sort by number
 * (htop's field numbers less one), the meters as left_meters and
 * right_meters (htop's two columns). Its defaults are top's: the same
 * columns, CPU highest first.
 */
static void test_htoprc_htop2(void **state)
{
	static const enum field_id cols[] = {
	    FIELD_PID, FIELD_USER,  FIELD_PR,  FIELD_NI,  FIELD_VIRT, FIELD_RES,
	    FIELD_SHR, FIELD_STATE, FIELD_CPU, FIELD_MEM, FIELD_TIME, FIELD_COMMAND,
	};
	static const char *const meters[] = {"cpu",   "memory",	 "swap", "|tasks",
					     "|load", "|uptime", "|cost"};
	struct ui_config c;
	struct sbuf said = {0};

	(void)state;
	import_htoprc("htop-2.2", &c, &said);
	assert_columns(&c, cols, sizeof(cols) / sizeof(cols[0]));
	assert_int_equal(c.order.field, FIELD_CPU);
	assert_false(c.order.reverse);
	assert_meters(&c, meters, sizeof(meters) / sizeof(meters[0]));
	assert_true(c.hide_kthreads);
	assert_false(c.tree);
	assert_true(c.color);
	assert_true(c.delay_s == 1.5);
	/* htop 3.2 reading a file without screen_tabs shows no tabs */
	assert_false(c.screen_tabs);
	assert_null(strstr(said.p, "no such"));
	sbuf_free(&said);
}

/*
 * Before htop 3.0, sort_direction 1 is the field's own direction and -1 the
 * other: -1 on PID is highest first. Fields ptop lacks are named by htop's
 * name, or by the number where htop has none.
 */
static void test_htoprc_htop2_changed(void **state)
{
	/* htop 2's M_DT (DIRTY) is statm's dirty count, top's nDRT */
	static const enum field_id cols[] = {FIELD_PID, FIELD_PPID, FIELD_USER,
					     FIELD_RES, FIELD_NDRT, FIELD_COMMAND};
	static const char *const meters[] = {"cpu", "memory", "|tasks", "|cost"};
	struct ui_config c;
	struct sbuf said = {0};

	(void)state;
	import_htoprc("htop-2.2-sorted", &c, &said);
	assert_columns(&c, cols, sizeof(cols) / sizeof(cols[0]));
	assert_int_equal(c.order.field, FIELD_PID);
	assert_true(c.order.reverse);
	assert_meters(&c, meters, sizeof(meters) / sizeof(meters[0]));
	assert_true(c.tree);
	assert_false(c.color);
	assert_false(c.hide_kthreads);
	assert_true(c.delay_s == 3.0);
	assert_non_null(strstr(said.p, "no such column in ptop: GPU_TIME"));
	assert_non_null(strstr(said.p, "no such meter in ptop: Hostname"));
	sbuf_free(&said);
}

/* htop 3.0 and 3.1 (reader version 2): numbers still, the direction as screens have it. */
static void test_htoprc_htop30(void **state)
{
	static const enum field_id cols[] = {
	    FIELD_PID,	 FIELD_USER, FIELD_PR,	FIELD_NI,	 FIELD_VIRT,	FIELD_RES,
	    FIELD_STATE, FIELD_CPU,  FIELD_MEM, FIELD_PROCESSOR, FIELD_THREADS, FIELD_COMMAND,
	};
	struct ui_config c;
	struct sbuf said = {0};

	(void)state;
	import_htoprc("htop-3.0.5", &c, &said);
	assert_columns(&c, cols, sizeof(cols) / sizeof(cols[0]));
	assert_int_equal(c.order.field, FIELD_MEM);
	assert_false(c.order.reverse); /* -1: highest first, MEM's own order */
	assert_false(c.user_threads);
	sbuf_free(&said);
}

/*
 * Numbers that name nothing (negative, past htop's last field, a gap in its
 * list, text, hex, too big for a long) are listed as what ptop lacks; a
 * field given twice is taken once; a switch with no value is off; a sort
 * key that names nothing leaves the sort as it was.
 */
static void test_htoprc_hostile_numbers(void **state)
{
	static const enum field_id cols[] = {FIELD_PID, FIELD_CPU, FIELD_COMMAND};
	static const char *const meters[] = {"|tasks", "|cost"};
	struct ui_config c;
	struct sbuf said = {0};

	(void)state;
	import_htoprc("hostile", &c, &said);
	assert_columns(&c, cols, sizeof(cols) / sizeof(cols[0]));
	assert_int_equal(c.order.field, FIELD_CPU);
	assert_false(c.order.reverse);
	assert_false(c.tree);
	assert_meters(&c, meters, sizeof(meters) / sizeof(meters[0]));
	assert_non_null(strstr(said.p, "no such column in ptop: #-1, #99999999999999999999, "
				       "#138, #8, #abc, #0x2e"));
	assert_non_null(strstr(said.p, "no such meter in ptop: NoSuchMeter"));
	sbuf_free(&said);
}

/*
 * htop 3.2's screens, every one a tab with its own columns, sort and tree
 * view; one without a name is skipped and said; a name's '|' and control
 * bytes become '?', and a long one is cut; a column ptop lacks is named once
 * however many screens have it.
 */
static void test_htoprc_screens(void **state)
{
	static const enum field_id main_cols[] = {FIELD_PID, FIELD_USER, FIELD_MEM, FIELD_RES,
						  FIELD_COMMAND};
	static const enum field_id io[] = {FIELD_PID, FIELD_USER, FIELD_IOPRIO, FIELD_IO_RATE,
					   FIELD_COMMAND};
	static const enum field_id odd[] = {FIELD_PID, FIELD_COMMAND};
	struct ui_config c;
	struct sbuf said = {0};

	(void)state;
	import_htoprc("htop-3.2.2-screens", &c, &said);
	assert_int_equal(c.ntabs, 3);
	assert_int_equal(c.tab, 0);
	assert_true(c.screen_tabs); /* screen_tabs=1 */
	assert_tab(&c.tabs[1], "I/O", io, 5, FIELD_IO_RATE, false, false);
	assert_tab(&c.tabs[2], "a?b?c 45678901234567", odd, 2, FIELD_PID, true, true);
	/* its tree ordered as htop orders it, by its tree sort (PID ascending
	 * unless told), not by .sort_direction=-1 */
	assert_int_equal(c.tabs[2].tree_order.field, FIELD_PID);
	assert_false(c.tabs[2].tree_order.reverse);
	/* .all_branches_collapsed, each screen's own */
	assert_true(c.tabs[2].collapsed);
	assert_false(c.tabs[1].collapsed);
	assert_false(c.collapsed);
	/* the first one shows */
	assert_columns(&c, main_cols, 5);
	assert_int_equal(c.order.field, FIELD_MEM);
	assert_false(c.order.reverse);
	assert_false(c.tree);
	assert_non_null(strstr(said.p, "; no such column in ptop: GPU_TIME;"));
	assert_non_null(strstr(said.p, "; 1 screens without a name skipped"));
	sbuf_free(&said);
}

/* A hundred screens: the first 16 taken, the status line says so. */
static void test_htoprc_many_screens(void **state)
{
	struct tmp *t = *state;
	struct sbuf file = {0}, said = {0};
	struct ui_config c;

	for (int i = 0; i < 100; i++)
		sbuf_printf(&file, "screen:S%d=PID NOSUCH Command\n.sort_key=PID\n", i);
	import_text(t->path, file.p, file.len, &c, &said);
	sbuf_cstr(&said);
	assert_int_equal(c.ntabs, UI_TABS_MAX);
	assert_string_equal(c.tabs[15].name, "S15");
	assert_non_null(strstr(said.p, "; no such column in ptop: NOSUCH;"));
	assert_non_null(strstr(said.p, "; 100 screens, of which ptop keeps 16"));
	sbuf_free(&file);
	sbuf_free(&said);
}

/*
 * htoprc's screen_tabs as htop reads it: a number, so 0, nothing and text
 * are off and any other number on; the last line wins; a file without the
 * line has no tabs, but an empty file is none to htop, which shows them.
 */
static void test_htoprc_screen_tabs(void **state)
{
	struct tmp *t = *state;
	static const struct {
		const char *text;
		bool tabs;
	} cases[] = {
	    {"screen_tabs=1\n", true},
	    {"screen_tabs=0\n", false},
	    {"screen_tabs=2\n", true},
	    {"screen_tabs=-1\n", true},
	    {"screen_tabs=\n", false},
	    {"screen_tabs=yes\n", false},
	    {"screen_tabs=1\nscreen_tabs=0\n", false},
	    {"delay=15\nscreen:Main=PID Command\n", false},
	    {"\n", false},
	    {"", true},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sbuf said = {0};
		struct ui_config c;

		import_text(t->path, cases[i].text, strlen(cases[i].text), &c, &said);
		if (c.screen_tabs != cases[i].tabs)
			fail_msg("\"%s\": screen_tabs %d", cases[i].text, c.screen_tabs);
		sbuf_free(&said);
	}
}

/*
 * all_branches_collapsed: each screen's ".all_branches_collapsed" after its
 * line (one before any screen belongs to none), or, in a file before
 * screens, the top-level key, which a file with screens does not use (as
 * htop reads it only from files of reader version 2 and before).
 */
static void test_htoprc_collapsed(void **state)
{
	struct tmp *t = *state;
	static const struct {
		const char *text;
		bool first, second;
	} cases[] = {
	    {"screen:A=PID Command\n.all_branches_collapsed=1\nscreen:B=PID Command\n", true,
	     false},
	    {".all_branches_collapsed=1\nscreen:A=PID Command\nscreen:B=PID Command\n"
	     ".all_branches_collapsed=7\n",
	     false, true},
	    {"screen:A=PID Command\n.all_branches_collapsed=yes\n", false, false},
	    {"fields=0 1\nall_branches_collapsed=1\n", true, false},
	    {"all_branches_collapsed=1\nscreen:A=PID Command\n", false, false},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sbuf said = {0};
		struct ui_config c;

		import_text(t->path, cases[i].text, strlen(cases[i].text), &c, &said);
		/* the first shows: its own in c */
		if (c.collapsed != cases[i].first ||
		    (c.ntabs > 1 && c.tabs[1].collapsed != cases[i].second))
			fail_msg("case %zu: collapsed %d %d", i, c.collapsed, c.tabs[1].collapsed);
		sbuf_free(&said);
	}
}

/*
 * A screen's tree takes htop's tree sort, which is what htop orders that
 * tree by: .tree_sort_key and .tree_sort_direction (PID ascending, as a new
 * htop screen, when not given; PID for a key htop does not know, as htop),
 * PID with .tree_view_always_by_pid; its list keeps .sort_key.
 */
static void test_htoprc_tree_sort(void **state)
{
	struct tmp *t = *state;
	static const struct {
		const char *text;
		enum field_id field;
		bool reverse, tree;
	} cases[] = {
	    {".tree_view=1\n", FIELD_PID, false, true},
	    {".tree_view=1\n.tree_sort_key=PERCENT_CPU\n.tree_sort_direction=-1\n", FIELD_CPU,
	     false, true},
	    {".tree_view=1\n.tree_sort_key=PERCENT_CPU\n.tree_sort_direction=1\n", FIELD_CPU, true,
	     true},
	    {".tree_view=1\n.tree_sort_key=PERCENT_CPU\n.tree_view_always_by_pid=1\n", FIELD_PID,
	     false, true},
	    {".tree_view=1\n.tree_view_always_by_pid=1\n.tree_sort_direction=-1\n", FIELD_PID, true,
	     true},
	    {".tree_view=1\n.tree_sort_key=NOSUCH\n", FIELD_PID, false, true},
	    {".tree_view=0\n.tree_sort_key=PID\n.tree_view_always_by_pid=1\n", FIELD_MEM, false,
	     false},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sbuf file = {0}, said = {0};
		struct ui_config c;

		sbuf_printf(&file,
			    "screen:Main=PID PERCENT_MEM Command\n.sort_key=PERCENT_MEM\n"
			    ".sort_direction=-1\n%s",
			    cases[i].text);
		import_text(t->path, file.p, file.len, &c, &said);
		/* the shown view's order, and the other's: the list's by MEM% */
		if (c.order.field != cases[i].field || c.order.reverse != cases[i].reverse ||
		    c.tree != cases[i].tree ||
		    (c.tree && (c.other_order.field != FIELD_MEM || c.other_order.reverse)))
			fail_msg("case %zu: %s %d %d", i, field_defs[c.order.field].name,
				 c.order.reverse, c.tree);
		sbuf_free(&file);
		sbuf_free(&said);
	}
}

/*
 * Two screens of one name, as htop's Setup lets a rename make (it checks no
 * name against the others) and its htoprc then holds: both kept, from
 * htoprc and through ptoprc, each with its own columns.
 */
static void test_tabs_same_name(void **state)
{
	struct tmp *t = *state;
	struct ui_config c, got;
	struct sbuf said = {0}, errors = {0};
	static const char two[] = "screen:Main=PID Command\n.sort_key=PID\n"
				  "screen:Main=PID USER Command\n.sort_key=USER\n";

	import_text(t->path, two, strlen(two), &c, &said);
	assert_int_equal(c.ntabs, 2);
	assert_string_equal(c.tabs[0].name, "Main");
	assert_string_equal(c.tabs[1].name, "Main");
	assert_int_equal(c.tabs[1].order.field, FIELD_USER);
	assert_int_equal(config_write(t->path, &c), 0);
	config_defaults(&got);
	assert_int_equal(config_read(t->path, &got, &errors), 0);
	assert_int_equal(errors.len, 0);
	assert_int_equal(got.ntabs, 2);
	assert_string_equal(got.tabs[1].name, "Main");
	assert_int_equal(got.tabs[1].ncolumns, 3);
	assert_int_equal(got.tabs[1].columns[1], FIELD_USER);
	assert_int_equal(got.ncolumns, 2);
	sbuf_free(&said);
	sbuf_free(&errors);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_defaults),
	    cmocka_unit_test_setup_teardown(test_round_trip, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_round_trip_each_value, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_written_text, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_write_fails_under_a_file, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_missing_file, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_unreadable, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_empty_file, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_bad_lines, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_bad_line_messages, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_bad_values, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_tabs_round_trip, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_tabs_too_many, setup, teardown),
	    cmocka_unit_test(test_tab_ops),
	    cmocka_unit_test(test_htoprc_screens),
	    cmocka_unit_test_setup_teardown(test_htoprc_many_screens, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_htoprc_screen_tabs, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_htoprc_collapsed, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_htoprc_tree_sort, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_tabs_same_name, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_good_spellings, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_command_always_last, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_binary_garbage, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_random_files, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_write_ignores_planted_tmp_link, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_write_through_own_link, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_write_refuses_link_to_others_file, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_write_refuses_link_to_non_file, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_write_keeps_mode, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_write_failure_leaves_nothing, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_read_fifo, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_read_link_to_dev_zero, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_read_huge_file, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_read_many_bad_lines, setup, teardown),
	    cmocka_unit_test(test_config_path),
	    cmocka_unit_test(test_htoprc_htop2),
	    cmocka_unit_test(test_htoprc_htop2_changed),
	    cmocka_unit_test(test_htoprc_htop30),
	    cmocka_unit_test(test_htoprc_hostile_numbers),
	    cmocka_unit_test_setup_teardown(test_meters_layout, setup, teardown),
	};

	if (argc > 1)
		cmocka_set_test_filter(argv[1]);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
