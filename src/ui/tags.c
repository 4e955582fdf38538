// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tags.c: tagged processes (htop's tags). A tag names a process by PID and
 * start time, so a PID reused after the process ended is never tagged by
 * accident; the kill, renice and nice keys act on every tagged process
 * (action.c fixes each one when its menu or prompt opens). Space tags the
 * selected row and moves down, c tags it with its descendants, U untags all.
 */
#include <stdio.h>
#include <string.h>

#include "tui.h"

bool tags_has(const struct ui *ui, const struct frame_proc *p)
{
	for (size_t i = 0; i < ui->ntags; i++)
		if (ui->tags[i].pid == p->pid && ui->tags[i].start_ticks == p->start_ticks)
			return true;
	return false;
}

static bool tag_add(struct ui *ui, const struct frame_proc *p)
{
	struct ui_tag *t;

	if (tags_has(ui, p))
		return true;
	if (ui->ntags >= UI_TAGS_MAX) {
		ui_status(ui, _("Cannot tag more than %d processes"), UI_TAGS_MAX);
		return false;
	}
	t = &ui->tags[ui->ntags++];
	t->pid = p->pid;
	t->start_ticks = p->start_ticks;
	snprintf(t->name, sizeof(t->name), "%.*s", (int)p->comm_len, p->comm);
	return true;
}

static void tag_remove(struct ui *ui, const struct frame_proc *p)
{
	for (size_t i = 0; i < ui->ntags; i++) {
		if (ui->tags[i].pid == p->pid && ui->tags[i].start_ticks == p->start_ticks) {
			ui->tags[i] = ui->tags[--ui->ntags];
			return;
		}
	}
}

void tags_drop(struct ui *ui, int pid, uint64_t start_ticks)
{
	struct frame_proc p = {.pid = pid, .start_ticks = start_ticks};

	tag_remove(ui, &p);
}

/* Tag p and every process below it: passes over the frame until no parent is
 * found tagged whose child is not, since the frame is in no particular order. */
static void tag_children(struct ui *ui, const struct frame_proc *top)
{
	const struct frame *f = &ui->frame;
	bool more = tag_add(ui, top);

	while (more) {
		more = false;
		for (size_t i = 0; i < f->nprocs; i++) {
			const struct frame_proc *c = &f->procs[i];

			if (c->pid == c->ppid || tags_has(ui, c))
				continue;
			for (size_t j = 0; j < f->nprocs; j++) {
				if (f->procs[j].pid != c->ppid || !tags_has(ui, &f->procs[j]))
					continue;
				if (!tag_add(ui, c))
					return;
				more = true;
				break;
			}
		}
	}
}

unsigned tags_key(struct ui *ui, enum ui_action act)
{
	const struct frame_proc *p = procs_selected(ui);

	switch (act) {
	case ACT_TAG:
		if (!p)
			break;
		if (tags_has(ui, p))
			tag_remove(ui, p);
		else
			tag_add(ui, p);
		if (ui->sel + 1 < ui->nrows)
			procs_select_row(ui, ui->sel + 1);
		break;
	case ACT_TAG_CHILDREN:
		if (p)
			tag_children(ui, p);
		break;
	case ACT_UNTAG_ALL:
		ui->ntags = 0;
		break;
	default:
		return UI_IGNORED;
	}
	return UI_HANDLED;
}
