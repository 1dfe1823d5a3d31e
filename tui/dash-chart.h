/* dash-chart.h — the scaling chart and the per-CPU bars. */
#ifndef THREADLAB_DASH_CHART_H
#define THREADLAB_DASH_CHART_H

#include <curses.h>

#include "dash-layout.h"
#include "dash.h"
#include "session.h"

/* One bar per (streams, threads) visited at the current size and
 * precision, on a scale shared with the ideal and the ceiling. */
void dash_chart_draw(WINDOW *w, const struct dash_rect *r, const struct dash *d,
		     const struct session *s);
/* One bar per CPU, per_row bars to a row. */
void dash_chart_cpus(WINDOW *w, const struct dash_rect *r, int per_row, const struct dash *d,
		     const struct session *s);

#endif
