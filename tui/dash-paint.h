/* dash-paint.h — the painting every panel uses: roles, colours, cut writes.
 *
 * Panels (dash-panels.c), the threads table (dash-table.c) and the chart
 * (dash-chart.c) all paint through these; none of them includes another's
 * header, so the drawing code has no include circle. */
#ifndef THREADLAB_DASH_PAINT_H
#define THREADLAB_DASH_PAINT_H

#include <curses.h>
#include <stdbool.h>

#include "dash-layout.h"
#include "dash.h"

/* Roles drawn with a colour when colours are on, an attribute otherwise. */
enum dash_role {
	DASH_ROLE_PLAIN,
	DASH_ROLE_TITLE, /* header and key bar: reverse video */
	DASH_ROLE_GOOD,	 /* near ideal, active threads */
	DASH_ROLE_WARN,	 /* throttling, workers, pending */
	DASH_ROLE_BAD,	 /* oversubscribed, far below ideal, errors */
	DASH_ROLE_BAR,	 /* bars and sparkline */
	DASH_ROLE_DIM,	 /* parked threads */
	DASH_ROLE_BOLD,	 /* column heads, the message line */
};

/* Sets up the colour pairs (after start_color and use_default_colors:
 * the terminal's own background stays). */
void dash_paint_colors_init(void);
/* The attribute for a role: colour pairs only when d->color. */
attr_t dash_paint_attr(const struct dash *d, enum dash_role role);

/* Writes s at (y, x) cut to width columns, with attribute a.  The rows'
 * formatters fit their text first; a cut here is counted in
 * dash_paint_cuts (tests assert that a typical screen needs none). */
void dash_paint_put(WINDOW *w, int y, int x, int width, const char *s, attr_t a);
extern unsigned long dash_paint_cuts;

/* Fills row `row` of rectangle r with spaces in attribute a (title bars). */
void dash_paint_fill(WINDOW *w, const struct dash_rect *r, int row, attr_t a);

/* Writes s from row y, wrapped at spaces to cols columns (from column 0),
 * continuation rows indented by indent, stopping before row rows (what
 * the last row cannot hold ends at a word with an ellipsis); returns the
 * next free row.  w NULL: nothing is drawn, the rows are counted (from
 * row y, stopping before rows as when drawn). */
int dash_paint_wrap(WINDOW *w, int y, int rows, int cols, int indent, const char *s, attr_t a);
/* The same from column x0: cols columns from there. */
int dash_paint_wrap_at(WINDOW *w, int y, int x0, int rows, int cols, int indent, const char *s,
		       attr_t a);

#endif
