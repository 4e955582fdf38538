// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * keymap.c: which key does what, in two profiles. A key htop binds does what
 * htop does with it, a key only top binds what top does; where they differ,
 * the top profile (ptoprc keys = top) gives top's meaning instead. A key whose
 * meaning ptop lacks in one program takes the other's. The help screen is
 * drawn from these tables, so a binding added here is documented there.
 */
#include <curses.h>
#include <strings.h>

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
    [ACT_SCROLL_LEFT] = {N_("Scroll command lines left")},
    [ACT_SCROLL_RIGHT] = {N_("Scroll command lines right")},
    [ACT_SORT_CPU] = {N_("Sort by %CPU")},
    [ACT_SORT_MEM] = {N_("Sort by %MEM")},
    [ACT_SORT_TIME] = {N_("Sort by TIME+")},
    [ACT_SORT_PID] = {N_("Sort by PID")},
    [ACT_SORT_PID_TOP] = {N_("Sort by PID, highest first unless R reversed the order")},
    [ACT_SORT_PREV] = {N_("Sort by the column to the left")},
    [ACT_SORT_NEXT] = {N_("Sort by the column to the right")},
    [ACT_SORT_MENU] = {N_("Choose the sort column")},
    [ACT_SORT_REVERSE] = {N_("Reverse the sort order")},
    [ACT_SEARCH] = {N_("Search for a command, in any case (in the bar, F3: next match)")},
    [ACT_SEARCH_NEXT] = {N_("Next search match")},
    [ACT_FILTER] = {N_("Filter by command, in any case (Enter keeps, Esc clears)")},
    [ACT_USER] = {N_("Show one user's processes (a menu of users)")},
    [ACT_USER_PROMPT] = {N_("Show one user's processes: a name or uid, ! for all but that "
			    "user, blank for all (effective user)")},
    [ACT_USER_ANY_PROMPT] = {N_("As u, matching the real, effective, saved or file system user")},
    [ACT_IDLE] = {N_("Hide the processes that used no CPU in the interval, or show them")},
    [ACT_CUMULATIVE] = {N_("Cumulative time: TIME+ with the dead children's time, or without")},
    [ACT_FIELD_FILTER] = {N_("Filter by a field: %CPU>5.0, COMMAND=foo, ! negates (any case)")},
    [ACT_FIELD_FILTER_CASE] = {N_("Filter by a field, exact case")},
    [ACT_FOLLOW] = {N_("Follow the selected process")},
    [ACT_KILL] = {N_("Send a signal to the tagged processes, or the selected one")},
    [ACT_RENICE] = {N_("Renice the tagged processes, or the selected one")},
    [ACT_KILL_PID] = {N_("Send a signal to a PID: the selected process by default, then the "
			 "signal by number or name (TERM by default)")},
    [ACT_RENICE_PID] = {N_("Renice a PID: the selected process by default, then the nice value")},
    [ACT_NICE_DOWN] = {N_("Nice - 1 (higher priority)")},
    [ACT_NICE_UP] = {N_("Nice + 1 (lower priority)")},
    [ACT_PAUSE] = {N_("Pause or resume updates")},
    [ACT_REFRESH] = {N_("Update now")},
    [ACT_TAG] = {N_("Tag or untag the selected process, then select the next")},
    [ACT_TAG_CHILDREN] = {N_("Tag the selected process and its descendants")},
    [ACT_UNTAG_ALL] = {N_("Untag all processes")},
    [ACT_DELAY] = {N_("Set the update delay")},
    [ACT_WRITE_CONFIG] = {N_("Write the settings to ptoprc")},
    [ACT_COLUMNS] = {N_("Choose and order columns")},
    [ACT_SETUP] = {N_("Setup: meters, display options, colours, columns")},
    [ACT_CMDLINE] = {N_("Show full command lines")},
    [ACT_THREADS] = {N_("Show threads instead of processes")},
    [ACT_USER_THREADS] = {N_("Show or hide the threads of user processes, after each process")},
    [ACT_TREE] = {N_("Tree view")},
    [ACT_TREE_ALL] = {N_("Collapse every branch, or expand them all")},
    [ACT_HIDE_KTHREADS] = {N_("Hide or show kernel threads")},
    [ACT_COLLAPSE] = {N_("Collapse the selected branch")},
    [ACT_EXPAND] = {N_("Expand the selected branch")},
    [ACT_PANE_NEXT] = {N_("Next screen of the Processes pane, then next pane")},
    [ACT_PANE_PREV] = {N_("Previous screen of the Processes pane, then previous pane")},
    [ACT_REDRAW] = {N_("Redraw the screen")},
    [ACT_COLOR] = {N_("Colour or monochrome")},
    [ACT_WATCH] = {N_("Watch an address of the selected process (breakpoint)")},
    [ACT_DISARM] = {N_("Disarm the selected breakpoint")},
    [ACT_ENVIRON] = {N_("Show the environment of the selected process")},
    [ACT_FILES] = {N_("List the open files of the selected process")},
    [ACT_STRACE] = {N_("Trace the selected process's system calls (strace)")},
    [ACT_AFFINITY] = {N_("Show or set the CPU affinity of the selected process")},
    [ACT_CGROUP_PSI] = {N_("Show the pressure of the selected process's cgroup")},
    [ACT_MEMORY_DISPLAY] = {N_("Memory and swap as bars, as text lines, or hidden")},
    [ACT_TASK_UNITS] = {N_("Memory columns from KiB, MiB, GiB, TiB, PiB or EiB up")},
    [ACT_SUMMARY_UNITS] = {N_("Memory lines in KiB, MiB, GiB, TiB, PiB or EiB; on the Counters "
			      "pane: choose the events to count (W saves them)")},
    [ACT_LOAD_LINE] = {N_("Show or hide the uptime and load average line")},
};

#define B KEYMAP_BOTH
#define H KEYMAP_HTOP
#define T KEYMAP_TOP

const struct key_binding keymap[] = {
    {'h', ACT_HELP, "h", B},
    {'?', ACT_HELP, "?", B},
    {KEY_F(1), ACT_HELP, "F1", B},
    {'q', ACT_QUIT, "q", B},
    {KEY_F(10), ACT_QUIT, "F10", B},
    {KEY_CTRL('c'), ACT_QUIT, "^C", B},
    {KEY_UP, ACT_UP, "Up", B},
    {KEY_DOWN, ACT_DOWN, "Down", B},
    {KEY_PPAGE, ACT_PAGE_UP, "PgUp", B},
    {KEY_NPAGE, ACT_PAGE_DOWN, "PgDn", B},
    {KEY_HOME, ACT_HOME, "Home", B},
    {KEY_END, ACT_END, "End", B},
    {KEY_LEFT, ACT_SCROLL_LEFT, "Left", B},
    {KEY_RIGHT, ACT_SCROLL_RIGHT, "Right", B},
    {'P', ACT_SORT_CPU, "P", B},
    {'M', ACT_SORT_MEM, "M", B},
    {'T', ACT_SORT_TIME, "T", B},
    {'N', ACT_SORT_PID, "N", H},
    {'N', ACT_SORT_PID_TOP, "N", T},
    {'<', ACT_SORT_PREV, "<", T},
    {'>', ACT_SORT_NEXT, ">", T},
    {KEY_F(6), ACT_SORT_MENU, "F6", B},
    {'<', ACT_SORT_MENU, "<", H},
    {'>', ACT_SORT_MENU, ">", H},
    {',', ACT_SORT_MENU, ",", B},
    {'.', ACT_SORT_MENU, ".", B},
    {'I', ACT_SORT_REVERSE, "I", B},
    {'R', ACT_SORT_REVERSE, "R", B},
    {'/', ACT_SEARCH, "/", B},
    {'L', ACT_SEARCH, "L", B},
    {KEY_F(3), ACT_SEARCH, "F3", B},
    {'&', ACT_SEARCH_NEXT, "&", B},
    {'\\', ACT_FILTER, "\\", B},
    {KEY_F(4), ACT_FILTER, "F4", B},
    {'u', ACT_USER, "u", H},
    {'u', ACT_USER_PROMPT, "u", T},
    {'i', ACT_IDLE, "i", B},
    {'o', ACT_FIELD_FILTER, "o", B},
    {'O', ACT_FIELD_FILTER_CASE, "O", B},
    {'U', ACT_USER_ANY_PROMPT, "U", T},
    {'F', ACT_FOLLOW, "F", H},
    {'k', ACT_KILL, "k", H},
    {'k', ACT_KILL_PID, "k", T},
    {KEY_F(9), ACT_KILL, "F9", B},
    {'r', ACT_RENICE, "r", H},
    {'r', ACT_RENICE_PID, "r", T},
    {KEY_F(7), ACT_NICE_DOWN, "F7", B},
    {']', ACT_NICE_DOWN, "]", B},
    {KEY_F(8), ACT_NICE_UP, "F8", B},
    {'[', ACT_NICE_UP, "[", B},
    {' ', ACT_TAG, "Space", H},
    {'c', ACT_TAG_CHILDREN, "c", H},
    {'U', ACT_UNTAG_ALL, "U", H},
    {'Z', ACT_PAUSE, "Z", B},
    {' ', ACT_REFRESH, "Space", T},
    {'\r', ACT_REFRESH, "Enter", B},
    {'d', ACT_DELAY, "d", B},
    {'s', ACT_DELAY, "s", T},
    {'W', ACT_WRITE_CONFIG, "W", B},
    {'f', ACT_COLUMNS, "f", B},
    {'F', ACT_COLUMNS, "F", T},
    {KEY_F(2), ACT_SETUP, "F2", B},
    {'C', ACT_COLUMNS, "C", B},
    {'S', ACT_SETUP, "S", H},
    {'S', ACT_CUMULATIVE, "S", T},
    {'p', ACT_CMDLINE, "p", B},
    {'c', ACT_CMDLINE, "c", T},
    {'H', ACT_USER_THREADS, "H", H},
    {'H', ACT_THREADS, "H", T},
    {'t', ACT_TREE, "t", B},
    {'V', ACT_TREE, "V", B},
    {KEY_F(5), ACT_TREE, "F5", B},
    {'*', ACT_TREE_ALL, "*", B},
    {'K', ACT_HIDE_KTHREADS, "K", B},
    {'-', ACT_COLLAPSE, "-", B},
    {'+', ACT_EXPAND, "+", B},
    {'\t', ACT_PANE_NEXT, "Tab", B},
    {KEY_BTAB, ACT_PANE_PREV, "S-Tab", B},
    {KEY_CTRL('l'), ACT_REDRAW, "^L", B},
    {'z', ACT_COLOR, "z", B},
    {'D', ACT_WATCH, "D", B},
    {KEY_DC, ACT_DISARM, "Del", B},
    {'e', ACT_ENVIRON, "e", H},
    {'l', ACT_FILES, "l", H},
    {'s', ACT_STRACE, "s", H},
    {'a', ACT_AFFINITY, "a", B},
    {'G', ACT_CGROUP_PSI, "G", B},
    {'m', ACT_MEMORY_DISPLAY, "m", B},
    {'e', ACT_TASK_UNITS, "e", T},
    {'E', ACT_SUMMARY_UNITS, "E", B},
    {'l', ACT_LOAD_LINE, "l", T},
};
const size_t keymap_len = sizeof(keymap) / sizeof(keymap[0]);

#undef B
#undef H
#undef T

static const char *const profile_names[KEYS_PROFILE_COUNT] = {
    [KEYS_HTOP] = "htop",
    [KEYS_TOP] = "top",
};

const char *keymap_profile_name(enum key_profile p)
{
	return profile_names[p < KEYS_PROFILE_COUNT ? p : KEYS_HTOP];
}

int keymap_profile_by_name(const char *name)
{
	for (int p = 0; p < KEYS_PROFILE_COUNT; p++)
		if (!strcasecmp(name, profile_names[p]))
			return p;
	return -1;
}

enum ui_action keymap_lookup(int key, enum key_profile prof)
{
	for (size_t i = 0; i < keymap_len; i++)
		if (keymap[i].key == key && keymap[i].profiles & (1u << prof))
			return keymap[i].action;
	return ACT_NONE;
}
