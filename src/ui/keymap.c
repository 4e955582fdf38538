// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * keymap.c: which key does what. htop's keys where the two differ, top's
 * letters too. The help screen is drawn from these tables, so a binding
 * added here is documented there without further work.
 */
#include <curses.h>

#include "ptop/ui.h"

const struct action_def action_defs[ACT_COUNT] = {
    [ACT_NONE] = {""},
    [ACT_QUIT] = {N_("Quit")},
    [ACT_HELP] = {N_("This help")},
    [ACT_UP] = {N_("Select the previous process")},
    [ACT_DOWN] = {N_("Select the next process")},
    [ACT_PAGE_UP] = {N_("Page up")},
    [ACT_PAGE_DOWN] = {N_("Page down")},
    [ACT_HOME] = {N_("Select the first process")},
    [ACT_END] = {N_("Select the last process")},
    [ACT_SORT_CPU] = {N_("Sort by %CPU")},
    [ACT_SORT_MEM] = {N_("Sort by %MEM")},
    [ACT_SORT_TIME] = {N_("Sort by TIME+")},
    [ACT_SORT_PID] = {N_("Sort by PID")},
    [ACT_SORT_PREV] = {N_("Sort by the column to the left")},
    [ACT_SORT_NEXT] = {N_("Sort by the column to the right")},
    [ACT_SORT_MENU] = {N_("Choose the sort column")},
    [ACT_SORT_REVERSE] = {N_("Reverse the sort order")},
    [ACT_SEARCH] = {N_("Search for a name")},
    [ACT_SEARCH_NEXT] = {N_("Next search match")},
    [ACT_FILTER] = {N_("Filter by name (Enter keeps, Esc clears)")},
    [ACT_USER] = {N_("Show one user's processes")},
    [ACT_FOLLOW] = {N_("Follow the selected process")},
    [ACT_KILL] = {N_("Send a signal to the selected process")},
    [ACT_RENICE] = {N_("Renice the selected process")},
    [ACT_NICE_DOWN] = {N_("Nice - 1 (higher priority)")},
    [ACT_NICE_UP] = {N_("Nice + 1 (lower priority)")},
    [ACT_PAUSE] = {N_("Pause or resume updates")},
    [ACT_DELAY] = {N_("Set the update delay")},
    [ACT_WRITE_CONFIG] = {N_("Write the settings to ptoprc")},
    [ACT_COLUMNS] = {N_("Choose and order columns")},
    [ACT_CMDLINE] = {N_("Show full command lines")},
    [ACT_THREADS] = {N_("Show threads")},
    [ACT_TREE] = {N_("Tree view")},
    [ACT_COLLAPSE] = {N_("Collapse the selected branch")},
    [ACT_EXPAND] = {N_("Expand the selected branch")},
    [ACT_PANE_NEXT] = {N_("Next pane")},
    [ACT_PANE_PREV] = {N_("Previous pane")},
    [ACT_REDRAW] = {N_("Redraw the screen")},
    [ACT_WATCH] = {N_("Watch an address of the selected process (breakpoint)")},
    [ACT_DISARM] = {N_("Disarm the selected breakpoint")},
};

const struct key_binding keymap[] = {
    {'h', ACT_HELP, "h"},
    {'?', ACT_HELP, "?"},
    {KEY_F(1), ACT_HELP, "F1"},
    {'q', ACT_QUIT, "q"},
    {KEY_F(10), ACT_QUIT, "F10"},
    {KEY_CTRL('c'), ACT_QUIT, "^C"},
    {KEY_UP, ACT_UP, "Up"},
    {KEY_DOWN, ACT_DOWN, "Down"},
    {KEY_PPAGE, ACT_PAGE_UP, "PgUp"},
    {KEY_NPAGE, ACT_PAGE_DOWN, "PgDn"},
    {KEY_HOME, ACT_HOME, "Home"},
    {KEY_END, ACT_END, "End"},
    {'P', ACT_SORT_CPU, "P"},
    {'M', ACT_SORT_MEM, "M"},
    {'T', ACT_SORT_TIME, "T"},
    {'N', ACT_SORT_PID, "N"},
    {'<', ACT_SORT_PREV, "<"},
    {'>', ACT_SORT_NEXT, ">"},
    {KEY_F(6), ACT_SORT_MENU, "F6"},
    {'R', ACT_SORT_REVERSE, "R"},
    {'/', ACT_SEARCH, "/"},
    {KEY_F(3), ACT_SEARCH_NEXT, "F3"},
    {'n', ACT_SEARCH_NEXT, "n"},
    {'\\', ACT_FILTER, "\\"},
    {KEY_F(4), ACT_FILTER, "F4"},
    {'u', ACT_USER, "u"},
    {'F', ACT_FOLLOW, "F"},
    {'k', ACT_KILL, "k"},
    {KEY_F(9), ACT_KILL, "F9"},
    {'r', ACT_RENICE, "r"},
    {KEY_F(7), ACT_NICE_DOWN, "F7"},
    {KEY_F(8), ACT_NICE_UP, "F8"},
    {' ', ACT_PAUSE, "Space"},
    {'d', ACT_DELAY, "d"},
    {'s', ACT_DELAY, "s"},
    {'W', ACT_WRITE_CONFIG, "W"},
    {'f', ACT_COLUMNS, "f"},
    {KEY_F(2), ACT_COLUMNS, "F2"},
    {'c', ACT_CMDLINE, "c"},
    {'H', ACT_THREADS, "H"},
    {'t', ACT_TREE, "t"},
    {KEY_F(5), ACT_TREE, "F5"},
    {'-', ACT_COLLAPSE, "-"},
    {'+', ACT_EXPAND, "+"},
    {'\t', ACT_PANE_NEXT, "Tab"},
    {KEY_BTAB, ACT_PANE_PREV, "S-Tab"},
    {KEY_CTRL('l'), ACT_REDRAW, "^L"},
    {'w', ACT_WATCH, "w"},
    {KEY_DC, ACT_DISARM, "Del"},
};
const size_t keymap_len = sizeof(keymap) / sizeof(keymap[0]);

enum ui_action keymap_lookup(int key)
{
	for (size_t i = 0; i < keymap_len; i++)
		if (keymap[i].key == key)
			return keymap[i].action;
	return ACT_NONE;
}
