// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz_htoprc.c: libFuzzer target for htoprc_import() (src/ui/htoprc.c), an
 * htop user's file read where ptop has no settings of its own. Each input is
 * written to a file of its own and imported over the defaults; whatever the
 * file holds, the import ends with the settings in range: at most
 * UI_MAX_COLUMNS columns, COMMAND last and each column once, known meters
 * each once in one of two columns and a mode they have, a known sort field
 * and a delay ptop accepts, and 1 to 16 screens with names ptop accepts.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../src/ui/rcfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[256], path[300];

static void remove_file(void)
{
	unlink(path);
	rmdir(dir);
}

static void check(const struct ui_config *c)
{
	bool col[FIELD_COUNT] = {false}, met[UI_METERS_MAX] = {false};

	if (!c->ncolumns || c->ncolumns > UI_MAX_COLUMNS ||
	    c->columns[c->ncolumns - 1] != FIELD_COMMAND)
		abort();
	for (size_t i = 0; i < c->ncolumns; i++) {
		if ((unsigned)c->columns[i] >= FIELD_COUNT || col[c->columns[i]])
			abort();
		col[c->columns[i]] = true;
	}
	if (c->nmeters > UI_METERS_MAX)
		abort();
	for (size_t i = 0; i < c->nmeters; i++) {
		const struct ui_meter *m = &c->meters[i];

		if (m->id >= UI_METERS_MAX || met[m->id] || m->column > 1 ||
		    !meter_has_mode(m->id, (enum meter_mode)m->mode))
			abort();
		met[m->id] = true;
	}
	if ((unsigned)c->order.field >= FIELD_COUNT || !(c->delay_s > 0))
		abort();
	/* the screens: one at least, each named as ptop names them, the shown one's
	 * columns those above */
	if (!c->ntabs || c->ntabs > UI_TABS_MAX || c->tab >= c->ntabs)
		abort();
	for (unsigned i = 0; i < c->ntabs; i++) {
		const struct ui_tab *t = &c->tabs[i];

		if (config_tab_name_check(t->name) || !t->ncolumns ||
		    t->ncolumns > UI_MAX_COLUMNS || t->columns[t->ncolumns - 1] != FIELD_COMMAND ||
		    (unsigned)t->order.field >= FIELD_COUNT)
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ui_config c;
	struct sbuf said = {0};
	FILE *f;

	if (!*path) {
		const char *tmp = getenv("TMPDIR");

		snprintf(dir, sizeof(dir), "%s/fuzz_htoprc.XXXXXX", tmp && *tmp ? tmp : "/tmp");
		if (!mkdtemp(dir))
			abort();
		snprintf(path, sizeof(path), "%s/htoprc", dir);
		atexit(remove_file);
	}
	f = fopen(path, "w");
	if (!f)
		return 0;
	if (size && fwrite(data, 1, size, f) != size) {
		fclose(f);
		return 0;
	}
	fclose(f);
	config_defaults(&c);
	if (htoprc_import(path, &c, &said) == 0)
		check(&c);
	sbuf_free(&said);
	return 0;
}
