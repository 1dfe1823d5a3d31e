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
/* The guided tour's status and caption (d->tour), and the rows they want
 * at cols columns (1 + the caption's, at most DASH_CAPTION_MAX). */
#define DASH_CAPTION_MAX 10
int dash_panels_caption_rows(const struct dash *d, int cols);
void dash_panels_caption(WINDOW *w, const struct dash_rect *r, const struct dash *d,
			 const struct session *s);
void dash_panels_keys(WINDOW *w, const struct dash_rect *r, const struct dash *d,
		      const struct session *s);
void dash_panels_message(WINDOW *w, const struct dash_rect *r, const struct dash *d,
			 const struct session *s);
void dash_panels_help(WINDOW *w, const struct dash *d, const struct session *s);
void dash_panels_too_small(WINDOW *w, int rows, int cols);

#endif
