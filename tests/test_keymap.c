// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_keymap.c: the viewer's key map (src/ui/keymap.c). Every key the man
 * page and the help screen document is looked up and must give its action;
 * a key nobody bound gives ACT_NONE; the table binds no key twice; and every
 * action has a help line and at least one key, because the help screen is
 * drawn from these tables and an action without either would be invisible.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>
#include <curses.h>

#include "../src/ui/tui.h"
#include "ptop/ui.h"

#undef CTRL
#define CTRL(c) ((c)&0x1f)

/* The keys the man page documents, in each profile: a key htop binds does
 * htop's action by default, top's in the top profile where the two differ. */
static const struct {
	int key;
	enum ui_action htop, top;
} documented[] = {
    {'q', ACT_QUIT, ACT_QUIT},
    {KEY_F(10), ACT_QUIT, ACT_QUIT},
    {CTRL('c'), ACT_QUIT, ACT_QUIT},
    {'h', ACT_HELP, ACT_HELP},
    {'?', ACT_HELP, ACT_HELP},
    {KEY_F(1), ACT_HELP, ACT_HELP},
    {KEY_UP, ACT_UP, ACT_UP},
    {KEY_DOWN, ACT_DOWN, ACT_DOWN},
    {KEY_PPAGE, ACT_PAGE_UP, ACT_PAGE_UP},
    {KEY_NPAGE, ACT_PAGE_DOWN, ACT_PAGE_DOWN},
    {KEY_HOME, ACT_HOME, ACT_HOME},
    {KEY_END, ACT_END, ACT_END},
    {KEY_LEFT, ACT_SCROLL_LEFT, ACT_SCROLL_LEFT},
    {KEY_RIGHT, ACT_SCROLL_RIGHT, ACT_SCROLL_RIGHT},
    {'P', ACT_SORT_CPU, ACT_SORT_CPU},
    {'M', ACT_SORT_MEM, ACT_SORT_MEM},
    {'T', ACT_SORT_TIME, ACT_SORT_TIME},
    {'N', ACT_SORT_PID, ACT_SORT_PID_TOP},
    {'<', ACT_SORT_MENU, ACT_SORT_PREV},
    {'>', ACT_SORT_MENU, ACT_SORT_NEXT},
    {',', ACT_SORT_MENU, ACT_SORT_MENU},
    {'.', ACT_SORT_MENU, ACT_SORT_MENU},
    {KEY_F(6), ACT_SORT_MENU, ACT_SORT_MENU},
    {'R', ACT_SORT_REVERSE, ACT_SORT_REVERSE},
    {'I', ACT_SORT_REVERSE, ACT_SORT_REVERSE},
    {'/', ACT_SEARCH, ACT_SEARCH},
    {'L', ACT_SEARCH, ACT_SEARCH},
    {KEY_F(3), ACT_SEARCH, ACT_SEARCH},
    {'&', ACT_SEARCH_NEXT, ACT_SEARCH_NEXT},
    {'\\', ACT_FILTER, ACT_FILTER},
    {KEY_F(4), ACT_FILTER, ACT_FILTER},
    {'u', ACT_USER, ACT_USER_PROMPT},
    {'i', ACT_IDLE, ACT_IDLE},
    {'o', ACT_FIELD_FILTER, ACT_FIELD_FILTER},
    {'O', ACT_FIELD_FILTER_CASE, ACT_FIELD_FILTER_CASE},
    {'U', ACT_UNTAG_ALL, ACT_USER_ANY_PROMPT},
    {'F', ACT_FOLLOW, ACT_COLUMNS},
    {'k', ACT_KILL, ACT_KILL_PID},
    {KEY_F(9), ACT_KILL, ACT_KILL},
    {'r', ACT_RENICE, ACT_RENICE_PID},
    {KEY_F(7), ACT_NICE_DOWN, ACT_NICE_DOWN},
    {']', ACT_NICE_DOWN, ACT_NICE_DOWN},
    {KEY_F(8), ACT_NICE_UP, ACT_NICE_UP},
    {'[', ACT_NICE_UP, ACT_NICE_UP},
    {' ', ACT_TAG, ACT_REFRESH},
    {'\r', ACT_REFRESH, ACT_REFRESH},
    {'c', ACT_TAG_CHILDREN, ACT_CMDLINE},
    {'Z', ACT_PAUSE, ACT_PAUSE},
    {'d', ACT_DELAY, ACT_DELAY},
    {'s', ACT_STRACE, ACT_DELAY},
    {'e', ACT_ENVIRON, ACT_TASK_UNITS},
    {'l', ACT_FILES, ACT_LOAD_LINE},
    {'m', ACT_MEMORY_DISPLAY, ACT_MEMORY_DISPLAY},
    {'E', ACT_SUMMARY_UNITS, ACT_SUMMARY_UNITS},
    {'a', ACT_AFFINITY, ACT_AFFINITY},
    {'G', ACT_CGROUP_PSI, ACT_CGROUP_PSI},
    {'W', ACT_WRITE_CONFIG, ACT_WRITE_CONFIG},
    {'f', ACT_COLUMNS, ACT_COLUMNS},
    {KEY_F(2), ACT_SETUP, ACT_SETUP},
    {'C', ACT_COLUMNS, ACT_COLUMNS},
    {'S', ACT_SETUP, ACT_CUMULATIVE},
    {'p', ACT_CMDLINE, ACT_CMDLINE},
    {'H', ACT_USER_THREADS, ACT_THREADS},
    {'t', ACT_TREE, ACT_TREE},
    {'V', ACT_TREE, ACT_TREE},
    {KEY_F(5), ACT_TREE, ACT_TREE},
    {'*', ACT_TREE_ALL, ACT_TREE_ALL},
    {'K', ACT_HIDE_KTHREADS, ACT_HIDE_KTHREADS},
    {'-', ACT_COLLAPSE, ACT_COLLAPSE},
    {'+', ACT_EXPAND, ACT_EXPAND},
    {'\t', ACT_PANE_NEXT, ACT_PANE_NEXT},
    {KEY_BTAB, ACT_PANE_PREV, ACT_PANE_PREV},
    {CTRL('l'), ACT_REDRAW, ACT_REDRAW},
    {'z', ACT_COLOR, ACT_COLOR},
    {'D', ACT_WATCH, ACT_WATCH},
    {KEY_DC, ACT_DISARM, ACT_DISARM},
};

static void test_documented_keys(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(documented) / sizeof(documented[0]); i++) {
		enum ui_action h = keymap_lookup(documented[i].key, KEYS_HTOP);
		enum ui_action t = keymap_lookup(documented[i].key, KEYS_TOP);

		if (h != documented[i].htop || t != documented[i].top)
			fail_msg("key %d (entry %zu): actions %d/%d, expected %d/%d",
				 documented[i].key, i, (int)h, (int)t, (int)documented[i].htop,
				 (int)documented[i].top);
	}
}

/* Every binding is documented above: a key added to the map without a row here
 * (and so, by the same review, in the man page) fails. */
static void test_every_binding_documented(void **state)
{
	(void)state;
	for (size_t k = 0; k < keymap_len; k++) {
		bool found = false;

		for (size_t i = 0; i < sizeof(documented) / sizeof(documented[0]); i++)
			found |= documented[i].key == keymap[k].key;
		if (!found)
			fail_msg("key %s is bound but not documented", keymap[k].label);
	}
}

static void test_profile_names(void **state)
{
	(void)state;
	assert_string_equal(keymap_profile_name(KEYS_HTOP), "htop");
	assert_string_equal(keymap_profile_name(KEYS_TOP), "top");
	assert_int_equal(keymap_profile_by_name("Top"), KEYS_TOP);
	assert_int_equal(keymap_profile_by_name("HTOP"), KEYS_HTOP);
	assert_int_equal(keymap_profile_by_name("vi"), -1);
	assert_int_equal(keymap_profile_by_name(""), -1);
}

/* 1..4 show the panes in their order; the key is on each pane's descriptor, and
 * no binding of the key map takes it first. Their ptoprc names come back. */
static void test_pane_keys(void **state)
{
	static const char *const names[] = {"processes", "counters", "breakpoints", "bench"};

	(void)state;
	assert_int_equal(ui_pane_count(), sizeof(names) / sizeof(names[0]));
	assert_null(ui_panes[ui_pane_count()]);
	for (int i = 0; ui_panes[i]; i++) {
		assert_non_null(ui_panes[i]);
		assert_int_equal(ui_panes[i]->hotkey, '1' + i);
		assert_int_equal(keymap_lookup(ui_panes[i]->hotkey, KEYS_HTOP), ACT_NONE);
		assert_int_equal(keymap_lookup(ui_panes[i]->hotkey, KEYS_TOP), ACT_NONE);
		assert_non_null(ui_panes[i]->key_help);
		assert_string_equal(ui_pane_name((unsigned)i), names[i]);
		assert_int_equal(ui_pane_by_name(names[i]), i);
		for (int j = 0; j < i; j++)
			assert_int_not_equal(ui_panes[i]->hotkey, ui_panes[j]->hotkey);
	}
	assert_int_equal(ui_pane_by_name("COUNTERS"), 1);
	assert_string_equal(ui_pane_name(99), "processes");
	assert_int_equal(ui_pane_by_name("nope"), -1);
}

static void test_unbound_keys(void **state)
{
	/* keys no binding uses: letters top users might try, and oddities */
	static const int unbound[] = {'X', '0', '9', 'n', 'Q', 27, 0, -1, KEY_F(11), KEY_F(12)};

	(void)state;
	for (size_t i = 0; i < sizeof(unbound) / sizeof(unbound[0]); i++) {
		assert_int_equal(keymap_lookup(unbound[i], KEYS_HTOP), ACT_NONE);
		assert_int_equal(keymap_lookup(unbound[i], KEYS_TOP), ACT_NONE);
	}
}

static void test_no_key_bound_twice(void **state)
{
	(void)state;
	assert_true(keymap_len > 0);
	for (size_t i = 0; i < keymap_len; i++) {
		assert_true(keymap[i].profiles & KEYMAP_BOTH);
		assert_int_equal(keymap[i].profiles & ~KEYMAP_BOTH, 0);
		for (size_t j = i + 1; j < keymap_len; j++)
			if (keymap[i].key == keymap[j].key &&
			    (keymap[i].profiles & keymap[j].profiles))
				fail_msg("key %s bound twice in a profile (entries %zu and %zu)",
					 keymap[i].label, i, j);
		/* a lookup finds the entry itself, not an earlier one */
		for (int p = 0; p < KEYS_PROFILE_COUNT; p++)
			if (keymap[i].profiles & (1u << p))
				assert_int_equal(keymap_lookup(keymap[i].key, (enum key_profile)p),
						 keymap[i].action);
	}
}

static void test_bindings_are_well_formed(void **state)
{
	(void)state;
	for (size_t i = 0; i < keymap_len; i++) {
		assert_true(keymap[i].action > ACT_NONE);
		assert_true(keymap[i].action < ACT_COUNT);
		assert_non_null(keymap[i].label);
		assert_true(keymap[i].label[0] != '\0');
	}
}

static void test_every_action_documented_and_bound(void **state)
{
	(void)state;
	for (int a = ACT_NONE + 1; a < ACT_COUNT; a++) {
		size_t keys = 0;

		if (!action_defs[a].help || !action_defs[a].help[0])
			fail_msg("action %d has no help text", a);
		for (size_t k = 0; k < keymap_len; k++)
			keys += keymap[k].action == (enum ui_action)a;
		if (!keys)
			fail_msg("action %d (%s) has no key", a, action_defs[a].help);
	}
	/* ACT_NONE is what an unbound key gives: nothing may be bound to it */
	for (size_t k = 0; k < keymap_len; k++)
		assert_int_not_equal(keymap[k].action, ACT_NONE);
}

static void test_labels_name_their_keys(void **state)
{
	/* the help screen shows labels: a printable key is labelled by itself */
	(void)state;
	for (size_t k = 0; k < keymap_len; k++) {
		int key = keymap[k].key;

		if (key > ' ' && key < 0x7f) {
			assert_int_equal(strlen(keymap[k].label), 1);
			assert_int_equal(keymap[k].label[0], key);
		}
	}
	assert_int_equal(keymap_lookup(KEY_F(1), KEYS_HTOP), ACT_HELP);
	for (size_t k = 0; k < keymap_len; k++)
		if (keymap[k].key == KEY_F(9))
			assert_string_equal(keymap[k].label, "F9");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_documented_keys),
	    cmocka_unit_test(test_every_binding_documented),
	    cmocka_unit_test(test_profile_names),
	    cmocka_unit_test(test_pane_keys),
	    cmocka_unit_test(test_unbound_keys),
	    cmocka_unit_test(test_no_key_bound_twice),
	    cmocka_unit_test(test_bindings_are_well_formed),
	    cmocka_unit_test(test_every_action_documented_and_bound),
	    cmocka_unit_test(test_labels_name_their_keys),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
