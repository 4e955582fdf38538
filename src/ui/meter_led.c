// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * meter_led.c: the LED mode of a meter (htop's LED meters): its figures in
 * digits three rows high, like a seven-segment display, its caption on the
 * middle row and what is not a digit (a point, "%", a unit) on the bottom
 * one. Heavy box-drawing lines in UTF-8, underscores and bars without it.
 * One row on a short screen: the figures as text. Touches no kernel
 * interface: the meter says its figures.
 */
#include <stdio.h>
#include <string.h>

#include "meter.h"

/* Columns a digit takes, and the blank after it. */
#define LED_DIGIT_W 3
#define LED_GAP 1

/* Row r of digit d, in UTF-8: segments as heavy lines, three columns wide. */
static const char *const led_utf8[METER_LED_ROWS][10] = {
    {"┏━┓", "  ╻", "╺━┓", "╺━┓", "╻ ╻", "┏━╸", "┏━╸", "╺━┓", "┏━┓", "┏━┓"},
    {"┃ ┃", "  ┃", "┏━┛", " ━┫", "┗━┫", "┗━┓", "┣━┓", "  ┃", "┣━┫", "┗━┫"},
    {"┗━┛", "  ╹", "┗━╸", "╺━┛", "  ╹", "╺━┛", "┗━┛", "  ╹", "┗━┛", "╺━┛"},
};

/* The same in ASCII: a calculator's segments. */
static const char *const led_ascii[METER_LED_ROWS][10] = {
    {" _ ", "   ", " _ ", " _ ", "   ", " _ ", " _ ", " _ ", " _ ", " _ "},
    {"| |", "  |", " _|", " _|", "|_|", "|_ ", "|_ ", "  |", "|_|", "|_|"},
    {"|_|", "  |", "|_ ", " _|", "  |", " _|", "|_|", "  |", "|_|", " _|"},
};

void meter_led_draw(struct ui *ui, const struct meter_at *at, const struct meter_def *m)
{
	/* kept across frames: a steady refresh allocates nothing */
	static struct sbuf fig;

	sbuf_reset(&fig);
	m->figures(ui, &fig);
	meter_led_text(ui, at, m->label, &fig);
}

void meter_led_text(struct ui *ui, const struct meter_at *at, const char *label,
		    const struct sbuf *fig)
{
	const char *const(*digits)[10] = ui->utf8 ? led_utf8 : led_ascii;
	int x = at->x, end = at->x + at->w, lw = (int)strlen(label) + 1;

	if (at->h < METER_LED_ROWS) {
		char spaced[32];

		snprintf(spaced, sizeof(spaced), "%s ", label);
		meter_line(ui, at, spaced, fig);
		return;
	}
	for (int r = 0; r < at->h; r++)
		mvprintw(at->y + r, x, "%*s", at->w, "");
	attron(ui_attr(ui, COLOR_LABEL, A_BOLD));
	mvaddnstr(at->y + 1, x, label, at->w);
	attroff(ui_attr(ui, COLOR_LABEL, A_BOLD));
	x += lw;
	attron(ui_attr(ui, COLOR_BAR_USER, A_BOLD));
	for (size_t i = 0; i < fig->len; i++) {
		char c = fig->p[i];

		if (c >= '0' && c <= '9') {
			if (x + LED_DIGIT_W > end)
				break;
			for (int r = 0; r < METER_LED_ROWS; r++)
				mvaddstr(at->y + r, x, digits[r][c - '0']);
			x += LED_DIGIT_W + LED_GAP;
		} else {
			if (x + 1 > end)
				break;
			mvaddch(at->y + METER_LED_ROWS - 1, x++, (chtype)(unsigned char)c);
		}
	}
	attroff(ui_attr(ui, COLOR_BAR_USER, A_BOLD));
}
