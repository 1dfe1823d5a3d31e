/* dash-roof.h — the roofline panel (key o): the lab kernel's point under
 * the machine's two roofs on log-log axes, with a caption saying whether
 * it is compute- or memory-bound and what that means for more threads. */
#ifndef THREADLAB_DASH_ROOF_H
#define THREADLAB_DASH_ROOF_H

#include <curses.h>
#include <stddef.h>

#include "dash.h"
#include "roofline.h"
#include "session.h"

#define DASH_ROOF_X_MIN_LOG2 (-5) /* the x axis: 1/32 ... */
#define DASH_ROOF_X_MAX_LOG2 10	  /* ... 1024 FLOPs per byte */
#define DASH_ROOF_MARGIN     7	  /* columns of the y labels and the axis */

/* Draws the chart into grid, rows lines of cols characters each (every
 * line NUL-terminated, so the stride is cols + 1): plain ASCII, '/' the
 * memory roof, '-' the compute roof, 'X' the kernel's point, '^' the ridge
 * on the x axis, decade labels on both axes, and each roof's figure by
 * it.  Needs rows >= 6 and cols >= 30 (else -EINVAL); 0 otherwise.  Pure. */
int dash_roof_plot(char *grid, int rows, int cols, const struct roofline *r);

/* The caption: the kernel, its intensity against the ridge, compute- or
 * memory-bound and what more threads would do, with the figures the chart
 * shows; or what is still being measured.  Returns the length.  Pure. */
size_t dash_roof_caption(char *out, size_t cap, const char *kernel, int size,
			 const struct roofline *r);

/* The panel over the whole screen but the key bar and message line. */
void dash_roof_draw(WINDOW *w, const struct dash *d, const struct session *s);

#endif
