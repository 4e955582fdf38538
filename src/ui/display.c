// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * display.c: how the header and the memory columns show what the frame
 * holds, as top's keys change it: m cycles the memory meters between htop's
 * bars, top's two text lines and nothing; E picks the text lines' unit, e the
 * unit the memory columns start from (top's -E and -e, through the viewer's
 * output_view); l shows or hides the uptime and load line. The choices are
 * settings (ui->cfg), so W keeps them in ptoprc. top's S (cumulative time, as
 * -S) is the view's alone, as -S is a way of showing times in batch mode.
 */
#include "tui.h"

void display_apply(struct ui *ui)
{
	ui->view.summary_unit = ui->cfg.summary_unit;
	ui->view.task_unit = ui->cfg.task_unit;
	ui->view.cmdlines = ui->cfg.cmdline;
	ui->view.translate = true;
	ui->view.htop_titles = ui->cfg.keys == KEYS_HTOP;
}

static unsigned memory_display(struct ui *ui)
{
	static const char *const shown[] = {
	    [MEM_BARS] = N_("Memory: bars"),
	    [MEM_TEXT] = N_("Memory: text lines"),
	    [MEM_HIDDEN] = N_("Memory: hidden"),
	};

	ui->cfg.memory = (ui->cfg.memory + 1) % MEM_DISPLAY_COUNT;
	ui_status(ui, "%s", _(shown[ui->cfg.memory]));
	return UI_HANDLED;
}

unsigned display_key(struct ui *ui, enum ui_action act)
{
	struct ui_config *c = &ui->cfg;

	switch (act) {
	case ACT_MEMORY_DISPLAY:
		return memory_display(ui);
	case ACT_TASK_UNITS:
		c->task_unit = (c->task_unit + 1) % UNIT_COUNT;
		display_apply(ui);
		ui_status(ui, _("Memory columns from %s up"), mem_unit_name(c->task_unit));
		return UI_HANDLED;
	case ACT_SUMMARY_UNITS:
		c->summary_unit = (c->summary_unit + 1) % UNIT_COUNT;
		c->memory = MEM_TEXT; /* the unit shows only in the text lines */
		display_apply(ui);
		ui_status(ui, _("Memory lines in %s"), mem_unit_name(c->summary_unit));
		return UI_HANDLED;
	case ACT_LOAD_LINE:
		c->load_line = !c->load_line;
		return UI_HANDLED;
	case ACT_CUMULATIVE:
		/* the view's, as -S: a way of showing times, not a setting W writes */
		ui->view.cumulative = !ui->view.cumulative;
		ui_status(ui, ui->view.cumulative ? _("Cumulative time on: TIME+ with the "
						      "dead children's time")
						  : _("Cumulative time off"));
		return UI_HANDLED | UI_REBUILD; /* sorted by a time, the order changes */
	default:
		return UI_IGNORED;
	}
}
