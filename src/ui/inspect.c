// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * inspect.c: one process looked at closely, as htop's e, l and a do: its
 * environment, its open files (src/proc/inspect.c) and its CPU affinity, each
 * in a scrollable panel over the whole screen that Esc or q closes. The
 * affinity panel also sets it, on the task fixed when the panel opened
 * (action.c). strace is strace.c's.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysinfo.h>

#include "ptop/proc.h"
#include "tui.h"

enum inspect_kind { INSPECT_TEXT, INSPECT_AFFINITY };

static struct {
	enum inspect_kind kind;
	char title[256];
	char heading[128]; /* over the lines, or empty */
	struct sbuf text;  /* the lines, each ended by '\n' */
	struct sbuf raw;   /* what the environment panel read, before escaping */
	size_t *starts;	   /* where each line starts in text */
	size_t nlines, cap;
	size_t top;		   /* the first line shown */
	struct proc_target target; /* the affinity panel's task, fixed when it opened */
	cpu_set_t cpus;		   /* the affinity being edited */
	int ncpus, sel;		   /* the affinity panel's rows, the one selected */
} panel = {.target = {.pidfd = -1}};

/* Index the lines of panel.text. */
static void index_lines(void)
{
	panel.nlines = 0;
	for (size_t i = 0; i < panel.text.len;) {
		const char *nl = memchr(panel.text.p + i, '\n', panel.text.len - i);

		if (panel.nlines == panel.cap) {
			panel.cap = panel.cap ? panel.cap * 2 : 64;
			panel.starts =
			    xreallocarray(panel.starts, panel.cap, sizeof(*panel.starts));
		}
		panel.starts[panel.nlines++] = i;
		i = nl ? (size_t)(nl - panel.text.p) + 1 : panel.text.len;
	}
}

static unsigned inspect_key(struct ui *ui, int key);
static void inspect_draw(struct ui *ui);

static void inspect_closed(struct ui *ui)
{
	(void)ui;
	control_close(&panel.target);
}

static const struct ui_screen inspect_screen = {
    .key = inspect_key, .draw = inspect_draw, .full = true, .closed = inspect_closed};

static void panel_open(struct ui *ui, enum inspect_kind kind)
{
	panel.kind = kind;
	panel.top = 0;
	panel.sel = 0;
	index_lines();
	screen_push(ui, &inspect_screen);
}

/* "1234 (name)" of row p, printable. */
static void proc_label(char *out, size_t n, const struct frame_proc *p)
{
	snprintf(out, n, "%d (%.*s)", p->pid, (int)p->comm_len, p->comm);
	for (char *c = out; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
}

static void add_escaped(struct sbuf *b, const char *s, size_t n);

static void show_environ(struct ui *ui, const struct frame_proc *p, const char *who)
{
	int tgid = p->tgid ? p->tgid : p->pid, err;
	size_t vars = 0;

	struct sbuf *raw = &panel.raw;

	sbuf_reset(raw);
	sbuf_reset(&panel.text);
	err = proc_environ(ui->opts->root, tgid, raw);
	if (err) {
		ui_status(ui, _("Cannot read the environment of %s: %s"), who, strerror(-err));
		return;
	}
	/* one variable a line, each NUL-terminated (the last may be cut short) */
	for (size_t i = 0; i < raw->len;) {
		const char *end = memchr(raw->p + i, '\0', raw->len - i);
		size_t n = end ? (size_t)(end - (raw->p + i)) : raw->len - i;

		add_escaped(&panel.text, raw->p + i, n);
		sbuf_addc(&panel.text, '\n');
		vars++;
		i += n + 1;
	}
	if (!panel.text.len)
		sbuf_printf(&panel.text, "%s\n", _("(no environment: a kernel thread)"));
	snprintf(
	    panel.title, sizeof(panel.title),
	    ngettext("Environment of %s: %zu variable", "Environment of %s: %zu variables", vars),
	    who, vars);
	panel.heading[0] = '\0';
	panel_open(ui, INSPECT_TEXT);
}

/* r, w or u (both) for the access mode, as lsof marks it. */
static char fd_mode(const struct proc_fd *f)
{
	if (!f->has_info)
		return ' ';
	switch (f->flags & O_ACCMODE) {
	case O_RDONLY:
		return 'r';
	case O_WRONLY:
		return 'w';
	default:
		return 'u';
	}
}

/*
 * Text as the panels show it: a file name may hold any byte but '/' and NUL,
 * an environment variable any but NUL, and a newline in one would start what
 * looks like another line (another descriptor, another variable). Control
 * bytes are escaped (newline as \n, the rest as \xNN) and a backslash
 * doubled, so that two texts never show alike.
 */
static void add_escaped(struct sbuf *b, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '\n')
			sbuf_adds(b, "\\n");
		else if (c == '\\')
			sbuf_adds(b, "\\\\");
		else if (c < 0x20 || c == 0x7f)
			sbuf_printf(b, "\\x%02x", c);
		else
			sbuf_addc(b, (char)c);
	}
}

static void add_path(struct sbuf *b, const char *s)
{
	add_escaped(b, s, strlen(s));
}

static void show_files(struct ui *ui, const struct frame_proc *p, const char *who)
{
	int tgid = p->tgid ? p->tgid : p->pid, err;
	struct proc_fd *fds;
	size_t n;

	err = proc_fds(ui->opts->root, tgid, &fds, &n);
	if (err) {
		ui_status(ui, _("Cannot list the open files of %s: %s"), who, strerror(-err));
		return;
	}
	sbuf_reset(&panel.text);
	for (size_t i = 0; i < n; i++) {
		const struct proc_fd *f = &fds[i];

		sbuf_printf(&panel.text, "%5d%c %-7s ", f->fd, fd_mode(f), f->type);
		if (f->has_info)
			sbuf_printf(&panel.text, "%12llu %07o ", (unsigned long long)f->pos,
				    f->flags);
		else
			sbuf_printf(&panel.text, "%12s %7s ", "-", "-");
		add_path(&panel.text, f->path);
		sbuf_addc(&panel.text, '\n');
	}
	if (!n)
		sbuf_printf(&panel.text, "%s\n", _("(no open files)"));
	proc_fds_free(fds, n);
	snprintf(
	    panel.title, sizeof(panel.title),
	    ngettext("Open files of %s: %zu descriptor", "Open files of %s: %zu descriptors", n),
	    who, n);
	/* lsof's headings, which are not translated either */
	snprintf(panel.heading, sizeof(panel.heading), "%5s  %-7s %12s %-7s %s", "FD", "TYPE",
		 "POS", "FLAGS", "PATH");
	panel_open(ui, INSPECT_TEXT);
}

/* The affinity panel's lines: one per CPU, checked when the task may run there. */
static void affinity_lines(void)
{
	sbuf_reset(&panel.text);
	for (int c = 0; c < panel.ncpus; c++)
		sbuf_printf(&panel.text, "[%c] CPU %d\n", CPU_ISSET(c, &panel.cpus) ? 'x' : ' ', c);
	index_lines();
}

static void show_affinity(struct ui *ui, const struct frame_proc *p, const char *who)
{
	int err;

	if (ui->opts->root && strcmp(ui->opts->root, "/proc")) {
		ui_status(
		    ui, _("CPU affinity is only known of live processes (not under --proc-root)"));
		return;
	}
	err = action_target_open(&panel.target, ui->opts->root, p);
	if (!err) /* sched_getaffinity takes a PID, as the setting will */
		err = control_before(&panel.target);
	if (!err && sched_getaffinity(p->pid, sizeof(panel.cpus), &panel.cpus) < 0)
		err = errno == ESRCH ? -ESRCH : -errno;
	if (err) {
		control_close(&panel.target);
		ui_status(ui, _("Cannot read the CPU affinity of %s: %s"), who,
			  control_strerror(err));
		return;
	}
	panel.ncpus = get_nprocs_conf();
	if (panel.ncpus > CPU_SETSIZE)
		panel.ncpus = CPU_SETSIZE;
	snprintf(panel.title, sizeof(panel.title),
		 ui->opts->secure
		     ? _("CPU affinity of %s (secure mode: shown only)")
		     : _("CPU affinity of %s: Space toggles a CPU, Enter sets, Esc cancels"),
		 who);
	panel.heading[0] = '\0';
	panel_open(ui, INSPECT_AFFINITY);
	affinity_lines();
}

_Static_assert(PROC_CGROUP_PSI == PSI_RESOURCES, "a cgroup has the machine's pressure files");

/* Why a cgroup's pressure file gave nothing, in the words of what it means. */
static const char *cgroup_psi_why(const struct proc_cgroup_psi *cg, int err)
{
	switch (err) {
	case -ENOENT:
		return cg->off ? _("PSI is off for this cgroup (its cgroup.pressure is 0)")
			       : _("no such file: a kernel without PSI (CONFIG_PSI)");
	case -EOPNOTSUPP:
		return _("PSI is off: the kernel was booted with psi=0 (EOPNOTSUPP)");
	case -EINVAL:
		return _("not a pressure file as the kernel writes it");
	default:
		return strerror(-err);
	}
}

/* "some  1.25%  0.50%  0.10%  (3.214 s stalled)" */
static void pressure_line(struct sbuf *b, const char *kind, const struct proc_pressure_line *l)
{
	sbuf_printf(b, "  %-5s", kind);
	for (int i = 0; i < 3; i++)
		sbuf_printf(b, " %3u.%02u%%", l->avg_x100[i] / 100, l->avg_x100[i] % 100);
	sbuf_printf(b, _("   %.3f s stalled\n"), (double)l->total_us / 1e6);
}

static void show_cgroup_pressure(struct ui *ui, const struct frame_proc *p, const char *who)
{
	static const char *const names[PSI_RESOURCES] = {
	    [PSI_CPU] = N_("CPU"), [PSI_MEMORY] = N_("memory"), [PSI_IO] = N_("I/O")};
	struct proc_cgroup_psi *cg;
	int err;

	/* the pressure files are this machine's, whatever the proc root */
	if (ui->opts->root && strcmp(ui->opts->root, "/proc")) {
		ui_status(ui, _("Cgroup pressure is only known of live processes (not under "
				"--proc-root)"));
		return;
	}
	cg = xmalloc(sizeof(*cg));
	err = proc_cgroup_pressure(ui->opts->root, NULL, p->tgid ? p->tgid : p->pid, cg);
	if (err) {
		const char *why = err == -ENOENT ? _("it is in no cgroup of the unified hierarchy")
				  : err == -ENODEV ? _("no unified (cgroup2) hierarchy is mounted")
						   : strerror(-err);

		ui_status(ui, _("Cannot read the cgroup pressure of %s: %s"), who, why);
		free(cg);
		return;
	}
	sbuf_reset(&panel.text);
	sbuf_adds(&panel.text, _("Read from "));
	add_path(&panel.text, cg->dir);
	sbuf_printf(&panel.text, "%s\n\n",
		    cg->hybrid ? _(" (a hybrid hierarchy: its unified part)") : "");
	/* the kernel's own words for the columns */
	sbuf_printf(&panel.text, "%7s %7s %7s %7s\n", "", "avg10", "avg60", "avg300");
	for (int r = 0; r < PSI_RESOURCES; r++) {
		sbuf_printf(&panel.text, "%s\n", _(names[r]));
		if (cg->error[r]) {
			sbuf_printf(&panel.text, _("  not available: %s\n"),
				    cgroup_psi_why(cg, cg->error[r]));
			continue;
		}
		pressure_line(&panel.text, "some", &cg->res[r].some);
		if (cg->res[r].has_full)
			pressure_line(&panel.text, "full", &cg->res[r].full);
	}
	snprintf(panel.title, sizeof(panel.title), _("Cgroup pressure of %s: %s"), who, cg->path);
	for (char *c = panel.title; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
	panel.heading[0] = '\0';
	free(cg);
	panel_open(ui, INSPECT_TEXT);
}

unsigned inspect_action(struct ui *ui, enum ui_action act)
{
	const struct frame_proc *p;
	char who[PROC_COMM_MAX + 32];

	if (act != ACT_ENVIRON && act != ACT_FILES && act != ACT_STRACE && act != ACT_AFFINITY &&
	    act != ACT_CGROUP_PSI)
		return UI_IGNORED;
	if (ui->replay) {
		ui_status(ui, _("Replaying a recording: its processes cannot be inspected"));
		return UI_HANDLED;
	}
	p = procs_selected(ui);
	if (!p) {
		ui_status(ui, _("Select a process first"));
		return UI_HANDLED;
	}
	proc_label(who, sizeof(who), p);
	if (act == ACT_ENVIRON)
		show_environ(ui, p, who);
	else if (act == ACT_FILES)
		show_files(ui, p, who);
	else if (act == ACT_AFFINITY)
		show_affinity(ui, p, who);
	else if (act == ACT_CGROUP_PSI)
		show_cgroup_pressure(ui, p, who);
	else
		inspect_strace(ui, p, who);
	return UI_HANDLED;
}

/* Enter in the affinity panel: set it on the task it opened on, and only that one. */
static void affinity_set(struct ui *ui)
{
	int err;

	if (ui->opts->secure) {
		ui_status(ui, _("Secure mode (-s): the CPU affinity stays"));
		return;
	}
	if (!CPU_COUNT(&panel.cpus)) {
		ui_status(ui, _("Choose at least one CPU"));
		return;
	}
	err = control_affinity(&panel.target, &panel.cpus);
	if (err == -ESRCH)
		ui_status(ui, _("Process %d (%s) is gone: nothing set"), panel.target.pid,
			  panel.target.name);
	else if (err)
		ui_status(ui, _("Cannot set the CPU affinity of %d (%s): %s"), panel.target.pid,
			  panel.target.name, control_strerror(err));
	else
		ui_status(ui, _("CPU affinity of %d (%s) set to %d CPUs"), panel.target.pid,
			  panel.target.name, CPU_COUNT(&panel.cpus));
	screen_pop(ui);
}

/* Up, Down, Page Up/Down, Home, End move the selection (affinity) or the view. */
static bool panel_move(int key, size_t page)
{
	long n = panel.kind == INSPECT_AFFINITY ? panel.ncpus : (long)panel.nlines;
	long at = panel.kind == INSPECT_AFFINITY ? panel.sel : (long)panel.top;

	switch (key) {
	case KEY_UP:
		at--;
		break;
	case KEY_DOWN:
		at++;
		break;
	case KEY_PPAGE:
		at -= (long)page;
		break;
	case KEY_NPAGE:
	case ' ':
		if (key == ' ' && panel.kind == INSPECT_AFFINITY)
			return false;
		at += (long)page;
		break;
	case KEY_HOME:
		at = 0;
		break;
	case KEY_END:
		at = n;
		break;
	default:
		return false;
	}
	if (panel.kind == INSPECT_TEXT)
		n -= (long)page; /* the last page stays full */
	if (at >= n)
		at = n - 1;
	if (at < 0)
		at = 0;
	if (panel.kind == INSPECT_AFFINITY)
		panel.sel = (int)at;
	else
		panel.top = (size_t)at;
	return true;
}

/* Rows for lines between the title (and heading) and the status line. */
static size_t panel_rows(void)
{
	int rows = LINES - 2 - (panel.heading[0] ? 1 : 0);

	return rows > 1 ? (size_t)rows : 1;
}

static unsigned inspect_key(struct ui *ui, int key)
{
	if (key == KEY_ESC || key == 'q') {
		screen_pop(ui);
		return UI_HANDLED;
	}
	if (panel_move(key, panel_rows()))
		return UI_HANDLED;
	if (panel.kind == INSPECT_AFFINITY && key == ' ') {
		if (CPU_ISSET(panel.sel, &panel.cpus))
			CPU_CLR(panel.sel, &panel.cpus);
		else
			CPU_SET(panel.sel, &panel.cpus);
		affinity_lines();
	} else if (panel.kind == INSPECT_AFFINITY &&
		   (key == '\r' || key == '\n' || key == KEY_ENTER)) {
		affinity_set(ui);
	}
	return UI_HANDLED;
}

static void inspect_draw(struct ui *ui)
{
	int y = 0;
	size_t rows = panel_rows();

	erase();
	attron(A_BOLD);
	ui_put(ui, y++, 0, COLS, panel.title, strlen(panel.title));
	attroff(A_BOLD);
	if (panel.heading[0]) {
		attron(ui_attr(ui, COLOR_TABLE_HEADER, A_REVERSE));
		mvhline(y, 0, ' ', COLS);
		ui_put(ui, y++, 0, COLS, panel.heading, strlen(panel.heading));
		attroff(ui_attr(ui, COLOR_TABLE_HEADER, A_REVERSE));
	}
	if (panel.kind == INSPECT_AFFINITY && (size_t)panel.sel >= panel.top + rows)
		panel.top = (size_t)panel.sel - rows + 1;
	if (panel.kind == INSPECT_AFFINITY && (size_t)panel.sel < panel.top)
		panel.top = (size_t)panel.sel;
	for (size_t i = panel.top; i < panel.nlines && i < panel.top + rows; i++, y++) {
		size_t end = i + 1 < panel.nlines ? panel.starts[i + 1] : panel.text.len;
		bool sel = panel.kind == INSPECT_AFFINITY && (int)i == panel.sel;

		if (end > panel.starts[i] && panel.text.p[end - 1] == '\n')
			end--;
		if (sel)
			attron(ui_attr(ui, COLOR_SELECTED, A_REVERSE));
		ui_put(ui, y, 0, COLS, panel.text.p + panel.starts[i], end - panel.starts[i]);
		if (sel)
			attroff(ui_attr(ui, COLOR_SELECTED, A_REVERSE));
	}
	if (ui->status[0] && clock_mono() < ui->status_until) {
		ui_draw_status(ui);
		return;
	}
	attron(A_REVERSE);
	mvhline(LINES - 1, 0, ' ', COLS);
	mvaddnstr(LINES - 1, 0, _("Esc or q closes; Up, Down, PgUp, PgDn, Home, End scroll"), COLS);
	attroff(A_REVERSE);
}

void inspect_free(void)
{
	control_close(&panel.target);
	sbuf_free(&panel.text);
	sbuf_free(&panel.raw);
	free(panel.starts);
	panel.starts = NULL;
	panel.cap = panel.nlines = 0;
}
