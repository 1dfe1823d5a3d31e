/* dash-paint.c — colours, attributes and cut-to-width writing for every
 * panel.  Colours are a hint only: every role has a meaning without them. */
#include "config.h"

#include "dash-paint.h"

#include <stdio.h>
#include <string.h>

#include "dash-fit.h"

enum {
	DASH_PAIR_GOOD = 1,
	DASH_PAIR_WARN,
	DASH_PAIR_BAD,
	DASH_PAIR_BAR,
};

void dash_paint_colors_init(void)
{
	/* -1: the terminal's default background (use_default_colors). */
	init_pair(DASH_PAIR_GOOD, COLOR_GREEN, -1);
	init_pair(DASH_PAIR_WARN, COLOR_YELLOW, -1);
	init_pair(DASH_PAIR_BAD, COLOR_RED, -1);
	init_pair(DASH_PAIR_BAR, COLOR_CYAN, -1);
}

attr_t dash_paint_attr(const struct dash *d, enum dash_role role)
{
	bool c = d->color;

	switch (role) {
	case DASH_ROLE_TITLE:
		return A_REVERSE;
	case DASH_ROLE_GOOD:
		return c ? COLOR_PAIR(DASH_PAIR_GOOD) : A_NORMAL;
	case DASH_ROLE_WARN:
		return c ? COLOR_PAIR(DASH_PAIR_WARN) : A_BOLD;
	case DASH_ROLE_BAD:
		return c ? COLOR_PAIR(DASH_PAIR_BAD) | A_BOLD : A_BOLD;
	case DASH_ROLE_BAR:
		return c ? COLOR_PAIR(DASH_PAIR_BAR) : A_NORMAL;
	case DASH_ROLE_DIM:
		return A_DIM;
	case DASH_ROLE_BOLD:
		return A_BOLD;
	case DASH_ROLE_PLAIN:
		break;
	}
	return A_NORMAL;
}

unsigned long dash_paint_cuts;

void dash_paint_put(WINDOW *w, int y, int x, int width, const char *s, attr_t a)
{
	char buf[2048];
	int rows, cols;

	getmaxyx(w, rows, cols);
	if (y < 0 || y >= rows || x < 0 || x >= cols || width <= 0)
		return;
	if (width > cols - x)
		width = cols - x;
	if (dash_fit_width(s) > width)
		dash_paint_cuts++;
	dash_fit(buf, sizeof(buf), s, width, false, false);
	wattrset(w, a);
	mvwaddstr(w, y, x, buf);
	wattrset(w, A_NORMAL);
}

/* Fills a row of the rectangle with spaces in attribute a (title bars). */
void dash_paint_fill(WINDOW *w, const struct dash_rect *r, int row, attr_t a)
{
	char buf[1024];
	int n = r->w < (int)sizeof(buf) - 1 ? r->w : (int)sizeof(buf) - 1;

	memset(buf, ' ', (size_t)n);
	buf[n] = '\0';
	dash_paint_put(w, r->y + row, r->x, r->w, buf, a);
}

/* Writes s from row y, wrapped at spaces to cols, continuation rows
 * indented by indent; what does not fit the last row ends at a word with
 * an ellipsis.  Returns the next free row.  With no window it only counts
 * (the rows s takes). */
int dash_paint_wrap(WINDOW *w, int y, int rows, int cols, int indent, const char *s, attr_t a)
{
	return dash_paint_wrap_at(w, y, 0, rows, cols, indent, s, a);
}

int dash_paint_wrap_at(WINDOW *w, int y, int x0, int rows, int cols, int indent, const char *s,
		       attr_t a)
{
	char part[512];
	int x = 0;

	while (*s && y < rows) {
		int width = cols - x;
		size_t n = strlen(s);
		if (y == rows - 1 && dash_fit_width(s) > width) {
			dash_fit_words(part, sizeof(part), s, width);
			if (w)
				dash_paint_put(w, y, x0 + x, width, part, a);
			y++;
			break;
		}
		if (dash_fit_width(s) > width) {
			/* The last space that keeps the part within width. */
			size_t cut = 0;
			for (size_t i = 1; i < n; i++) {
				snprintf(part, sizeof(part), "%.*s", (int)i, s);
				if (dash_fit_width(part) > width)
					break;
				if (s[i] == ' ')
					cut = i;
			}
			n = cut ? cut : n;
		}
		snprintf(part, sizeof(part), "%.*s", (int)n, s);
		if (w)
			dash_paint_put(w, y, x0 + x, width, part, a);
		y++;
		s += n;
		while (*s == ' ')
			s++;
		x = indent;
	}
	return y;
}
