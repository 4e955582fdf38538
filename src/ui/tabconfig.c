// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tabconfig.c: the Processes pane's screens (htop's, shown as tabs), as
 * settings: the shown one's columns, orders (its list's and its tree's, as
 * htop's .sort_key and .tree_sort_key; the one of the view shown where
 * every reader looks), tree and whether its branches start collapsed are
 * ui_config's own (what the rest of the viewer reads and changes), copied
 * back into its tab when another is shown or the tabs change; adding,
 * removing and moving tabs as Setup's Screens panel does; ptoprc's "screen
 * = NAME | COLUMNS | SORT [reverse] [tree] [collapsed] [| TREESORT
 * [reverse]]" lines, after "screen_tabs = yes|no" (whether their line of
 * tabs is shown; read with config.c's other yes-or-no settings).
 * Curses-free.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "rcfile.h"

_Static_assert(UI_TABS_MAX == 16, "the message on too many screens names the limit");
_Static_assert(UI_TAB_NAME_MAX == 20, "the message on a long name names the limit");

/* o's field and direction, without the view's cumulative */
static struct row_order tab_order(const struct row_order *o)
{
	return (struct row_order){.field = o->field, .reverse = o->reverse};
}

/* The shown tab's columns, orders, tree and collapsed, as c has them, into t. */
static void tab_from(const struct ui_config *c, struct ui_tab *t)
{
	memcpy(t->columns, c->columns, c->ncolumns * sizeof(c->columns[0]));
	t->ncolumns = c->ncolumns;
	t->order = tab_order(c->tree ? &c->other_order : &c->order);
	t->tree_order = tab_order(c->tree ? &c->order : &c->other_order);
	t->tree = c->tree;
	t->collapsed = c->collapsed;
}

void config_tab_save(struct ui_config *c)
{
	tab_from(c, &c->tabs[c->tab]);
}

void config_tab_open(struct ui_config *c, unsigned i)
{
	const struct ui_tab *t = &c->tabs[i];

	c->tab = i;
	memcpy(c->columns, t->columns, t->ncolumns * sizeof(t->columns[0]));
	c->ncolumns = t->ncolumns;
	c->order.field = (t->tree ? t->tree_order : t->order).field;
	c->order.reverse = (t->tree ? t->tree_order : t->order).reverse;
	c->other_order = t->tree ? t->order : t->tree_order;
	c->tree = t->tree;
	c->collapsed = t->collapsed;
}

void config_tree_set(struct ui_config *c, bool on)
{
	struct row_order shown = tab_order(&c->order);

	if (c->tree == on)
		return;
	c->order.field = c->other_order.field;
	c->order.reverse = c->other_order.reverse;
	c->other_order = shown;
	c->tree = on;
}

void config_tab_show(struct ui_config *c, unsigned i)
{
	config_tab_save(c);
	config_tab_open(c, i);
}

const char *config_tab_name_check(const char *name)
{
	if (!*name)
		return N_("a screen needs a name");
	if (strlen(name) > UI_TAB_NAME_MAX)
		return N_("a screen's name is at most 20 bytes");
	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		if (*p < 0x20 || *p == 0x7f || *p == '|')
			return N_("a screen's name has no '|' and no control character");
	return NULL;
}

int config_tab_add(struct ui_config *c, unsigned at)
{
	struct ui_tab *t;

	if (c->ntabs >= UI_TABS_MAX || at > c->ntabs)
		return -ENOSPC;
	config_tab_save(c);
	memmove(&c->tabs[at + 1], &c->tabs[at], (c->ntabs - at) * sizeof(c->tabs[0]));
	c->ntabs++;
	if (at <= c->tab)
		c->tab++;
	t = &c->tabs[at];
	snprintf(t->name, sizeof(t->name), "New");
	t->columns[0] = FIELD_PID;
	t->columns[1] = FIELD_COMMAND;
	t->ncolumns = 2;
	t->order = t->tree_order = (struct row_order){.field = FIELD_PID};
	t->tree = false;
	t->collapsed = false;
	return 0;
}

int config_tab_remove(struct ui_config *c, unsigned i)
{
	unsigned shown = c->tab;

	if (c->ntabs < 2 || i >= c->ntabs)
		return -EINVAL;
	config_tab_save(c);
	memmove(&c->tabs[i], &c->tabs[i + 1], (c->ntabs - i - 1) * sizeof(c->tabs[0]));
	c->ntabs--;
	if (shown > i || shown == c->ntabs)
		shown--;
	config_tab_open(c, shown);
	return 0;
}

int config_tab_move(struct ui_config *c, unsigned i, int dir)
{
	unsigned j = dir < 0 ? i - 1 : i + 1;
	struct ui_tab t;

	if (i >= c->ntabs || j >= c->ntabs)
		return -EINVAL;
	config_tab_save(c);
	t = c->tabs[i];
	c->tabs[i] = c->tabs[j];
	c->tabs[j] = t;
	if (c->tab == i)
		c->tab = j;
	else if (c->tab == j)
		c->tab = i;
	return 0;
}

/* "SORT [reverse] [tree] [collapsed]" into t. */
static const char *parse_sort(char *v, struct ui_tab *t)
{
	char *save = NULL, *tok = strtok_r(v, " \t", &save);
	int id = tok ? field_named(tok, false) : -1;

	if (id < 0)
		return N_("unknown sort field");
	t->order = t->tree_order = (struct row_order){.field = (enum field_id)id};
	t->tree = t->collapsed = false;
	while ((tok = strtok_r(NULL, " \t", &save))) {
		if (!strcmp(tok, "reverse"))
			t->order.reverse = true;
		else if (!strcmp(tok, "tree"))
			t->tree = true;
		else if (!strcmp(tok, "collapsed"))
			t->collapsed = true;
		else
			return N_("after the sort field: reverse, tree or collapsed");
	}
	t->tree_order = t->order;
	return NULL;
}

/* "TREESORT [reverse]", the tree's own, into t. */
static const char *parse_tree_sort(char *v, struct ui_tab *t)
{
	char *save = NULL, *tok = strtok_r(v, " \t", &save);
	int id = tok ? field_named(tok, false) : -1;

	if (id < 0)
		return N_("unknown sort field");
	t->tree_order = (struct row_order){.field = (enum field_id)id};
	while ((tok = strtok_r(NULL, " \t", &save))) {
		if (strcmp(tok, "reverse"))
			return N_("after the tree's sort field: reverse");
		t->tree_order.reverse = true;
	}
	return NULL;
}

const char *config_parse_tab(struct ui_config *c, char *val, unsigned *taken)
{
	char *name = val, *cols, *sort, *tree_sort;
	struct ui_tab t;
	const char *why;

	if (*taken > UI_TABS_MAX)
		return NULL;
	if (*taken == UI_TABS_MAX) {
		++*taken;
		return N_("too many screens (16 at most): this and later ones skipped");
	}
	cols = strchr(name, '|');
	sort = cols ? strchr(cols + 1, '|') : NULL;
	tree_sort = sort ? strchr(sort + 1, '|') : NULL;
	if (!sort || (tree_sort && strchr(tree_sort + 1, '|')))
		return N_("expected NAME | COLUMNS | SORT [reverse] [tree] [collapsed] "
			  "[| TREESORT [reverse]]");
	*cols++ = *sort++ = '\0';
	if (tree_sort)
		*tree_sort++ = '\0';
	name = config_trim(name);
	why = config_tab_name_check(name);
	if (why)
		return why;
	snprintf(t.name, sizeof(t.name), "%s", name);
	if (config_parse_columns(cols, t.columns, &t.ncolumns))
		return N_("unknown or repeated column");
	why = parse_sort(sort, &t);
	if (!why && tree_sort)
		why = parse_tree_sort(tree_sort, &t);
	if (why)
		return why;
	c->tabs[(*taken)++] = t;
	c->ntabs = *taken;
	return NULL;
}

void config_write_tabs(struct sbuf *b, const struct ui_config *c)
{
	sbuf_printf(b, "screen_tabs = %s\n", c->screen_tabs ? "yes" : "no");
	for (unsigned i = 0; i < c->ntabs; i++) {
		const struct ui_tab *t = &c->tabs[i];
		struct ui_tab shown;

		/* the shown tab's own copies may be behind: c's are its */
		if (i == c->tab) {
			shown = *t;
			tab_from(c, &shown);
			t = &shown;
		}
		sbuf_printf(b, "screen = %s | ", t->name);
		for (size_t k = 0; k < t->ncolumns; k++)
			sbuf_printf(b, "%s%s", k ? "," : "", field_defs[t->columns[k]].name);
		sbuf_printf(b, " | %s%s%s%s", field_defs[t->order.field].name,
			    t->order.reverse ? " reverse" : "", t->tree ? " tree" : "",
			    t->collapsed ? " collapsed" : "");
		/* the tree's own sort only where it is not the list's, as older
		 * ptops take no fourth part */
		if (t->tree_order.field != t->order.field ||
		    t->tree_order.reverse != t->order.reverse)
			sbuf_printf(b, " | %s%s", field_defs[t->tree_order.field].name,
				    t->tree_order.reverse ? " reverse" : "");
		sbuf_addc(b, '\n');
	}
}
