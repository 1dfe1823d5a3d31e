/* knobs-view.h — what other monitor files read of the knob table
 * (knobs.h) beyond its entries: a value brought within a knob's range. */
#ifndef THREADLAB_KNOBS_VIEW_H
#define THREADLAB_KNOBS_VIEW_H

#include "knobs.h"

/* v within knob k's range (knobs.h: min..max), and at least lo where lo
 * is above the range's start (a caller's own floor: the tour's lessons
 * want 2 threads, the sweep 2 steps).  A KNOB_NONE or unknown k: v. */
int knobs_view_clamp(enum knob_id k, int v, int lo);

#endif
