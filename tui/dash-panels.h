/* dash-panels.h — drawing the dashboard into a window.
 *
 * Every function draws into the WINDOW it is given, inside the rectangle
 * the layout gave its panel, from the session's plain structs and the
 * dashboard's state; nothing reads the system or a global window, so tests
 * draw into an off-screen window and read it back.  Drawing does not
 * refresh: the caller does wnoutrefresh/doupdate once per pass. */
#ifndef THREADLAB_DASH_PANELS_H
#define THREADLAB_DASH_PANELS_H

#include <curses.h>
#include <stdbool.h>

#include "dash-layout.h"
#include "dash.h"
#include "session.h"

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
void dash_panels_colors_init(void);
/* The attribute for a role: colour pairs only when d->color. */
attr_t dash_panels_attr(const struct dash *d, enum dash_role role);

/* Writes s at (y, x) cut to width columns, with attribute a.  The rows'
 * formatters fit their text first; a cut here is counted in
 * dash_panels_cuts (tests assert that a typical screen needs none). */
void dash_panels_put(WINDOW *w, int y, int x, int width, const char *s, attr_t a);
extern unsigned long dash_panels_cuts;

/* Erases w and draws the whole screen for layout l: the panels, the help
 * screen when d->help, or the "terminal too small" notice. */
void dash_panels_draw(WINDOW *w, const struct dash_layout *l, const struct dash *d,
		      const struct session *s);

/* The panels one by one (each inside its rectangle). */
void dash_panels_header(WINDOW *w, const struct dash_rect *r, const struct dash *d,
			const struct session *s);
void dash_panels_budget(WINDOW *w, const struct dash_rect *r, const struct dash *d,
			const struct session *s);
void dash_panels_pressure(WINDOW *w, const struct dash_rect *r, const struct dash *d,
			  const struct session *s);
void dash_panels_throughput(WINDOW *w, const struct dash_rect *r, const struct dash *d,
			    const struct session *s);
void dash_panels_keys(WINDOW *w, const struct dash_rect *r, const struct dash *d,
		      const struct session *s);
void dash_panels_message(WINDOW *w, const struct dash_rect *r, const struct dash *d,
			 const struct session *s);
void dash_panels_help(WINDOW *w, const struct dash *d, const struct session *s);
void dash_panels_too_small(WINDOW *w, int rows, int cols);

/* dash-table.c: the threads table with its head and summary rows. */
void dash_table_draw(WINDOW *w, const struct dash_rect *r, const struct dash *d,
		     const struct session *s);
/* dash-chart.c: the scaling chart and the per-CPU bars. */
void dash_chart_draw(WINDOW *w, const struct dash_rect *r, const struct dash *d,
		     const struct session *s);
void dash_chart_cpus(WINDOW *w, const struct dash_rect *r, int per_row, const struct dash *d,
		     const struct session *s);

#endif
