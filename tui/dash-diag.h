/* dash-diag.h — the diagnosis on screen: the verdict with its evidence,
 * the roles and pools, and the history of demand.
 *
 * Row text comes from pure formatters (tested without a terminal); the
 * draw functions paint them into their rectangles (dash-paint.h). */
#ifndef THREADLAB_DASH_DIAG_H
#define THREADLAB_DASH_DIAG_H

#include <curses.h>
#include <stdbool.h>
#include <stddef.h>

#include "dash-layout.h"
#include "dash.h"
#include "session.h"

/* The verdict in one row: "diagnosis: oversubscribed 2.0x, 4.0 runnable on
 * 2.00 CPUs, wait 1.00 s/s, try: set ..."; the suggestion (with_try) is
 * dropped whole when it does not fit. */
size_t dash_diag_verdict_row(char *out, size_t cap, int width, const struct diagnosis *d,
			     bool with_try);
/* "roles: python3 (main) 2.0 | 2 forked workers 0.9" fitted to width
 * (runnable threads on average per role). */
size_t dash_diag_roles_row(char *out, size_t cap, int width, const struct diagnosis *d);
/* "pools: OpenBLAS (pthreads) 2 | libgomp 4 | OMP_NUM_THREADS unset". */
size_t dash_diag_pools_row(char *out, size_t cap, int width, const struct diagnosis *d);
/* Both on one row: the roles first, the pools where room is left. */
size_t dash_diag_both_row(char *out, size_t cap, int width, const struct diagnosis *d);
/* One role in full: "python3 (main): 1 process, 8 threads, 2.0 runnable,
 * CPU 190%, wait 10%". */
size_t dash_diag_role_row(char *out, size_t cap, int width, const struct diag_role *r);
/* The four sparklines in one row: "runnable ▁▂▄ 2.9/2.00 | CPU ▃▄ 1.9 |
 * wait ▂▃ 0.90 s/s | throttled ▁ 0%". */
size_t dash_diag_spark_row(char *out, size_t cap, int width, const struct history *h, bool utf8);
/* One series across the width: "runnable threads ▁▂▄▆ 2.9 (effective 2.00)". */
size_t dash_diag_series_row(char *out, size_t cap, int width, const struct history *h,
			    enum history_series s, bool utf8);

/* The verdict panel: the lab's one row, or attach mode's rows. */
void dash_diag_draw(WINDOW *w, const struct dash_rect *r, const struct dash *d,
		    const struct session *s);
/* Roles and pools (attach). */
void dash_diag_roles(WINDOW *w, const struct dash_rect *r, const struct dash *d,
		     const struct session *s);
/* The history sparklines (attach). */
void dash_diag_spark(WINDOW *w, const struct dash_rect *r, const struct dash *d,
		     const struct session *s);

#endif
