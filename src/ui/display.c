// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * display.c: how the header and the memory columns show what the frame
 * holds, as top's keys change it: m cycles the memory meters between htop's
 * bars, top's two text lines and nothing; E picks the text lines' unit, e the
 * unit the memory columns start from (top's -E and -e, through the frame's
 * output_view); l shows or hides the uptime and load line.
 */
#include "tui.h"

static const char *const unit_names[UNIT_COUNT] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};

static unsigned memory_display(struct ui *ui)
{
	static const char *const shown[] = {
	    [MEM_BARS] = N_("Memory: bars"),
	    [MEM_TEXT] = N_("Memory: text lines"),
	    [MEM_HIDDEN] = N_("Memory: hidden"),
	};

	ui->mem_display = ui->mem_display == MEM_HIDDEN ? MEM_BARS : ui->mem_display + 1;
	ui_status(ui, "%s", _(shown[ui->mem_display]));
	return UI_HANDLED;
}

unsigned display_key(struct ui *ui, enum ui_action act)
{
	switch (act) {
	case ACT_MEMORY_DISPLAY:
		return memory_display(ui);
	case ACT_TASK_UNITS:
		ui->view.task_unit = (ui->view.task_unit + 1) % UNIT_COUNT;
		ui_status(ui, _("Memory columns from %s up"), unit_names[ui->view.task_unit]);
		return UI_HANDLED;
	case ACT_SUMMARY_UNITS:
		ui->view.summary_unit = (ui->view.summary_unit + 1) % UNIT_COUNT;
		if (ui->mem_display != MEM_TEXT)
			ui->mem_display = MEM_TEXT; /* the unit shows only in the text lines */
		ui_status(ui, _("Memory lines in %s"), unit_names[ui->view.summary_unit]);
		return UI_HANDLED;
	case ACT_LOAD_LINE:
		ui->hide_load = !ui->hide_load;
		return UI_HANDLED;
	default:
		return UI_IGNORED;
	}
}
