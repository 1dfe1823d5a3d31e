/* tl-dash-keys.h — test helpers for the dashboard's keys (tui/dash-keys.h):
 * a fresh dashboard and the key context of a lab on 2 CPUs. */
#ifndef THREADLAB_TL_DASH_KEYS_H
#define THREADLAB_TL_DASH_KEYS_H

#include <string.h>

#include "dash-keys.h"

/* A dashboard as it starts: nothing set, a 1 s interval, sorted by the
 * first of the sort cycle. */
static inline void tl_dash_fresh(struct dash *d)
{
	memset(d, 0, sizeof(*d));
	d->interval = 1.0;
	d->sort = thread_field_sort_next(THREAD_FIELD_N, +1, false);
}

/* The lab's mode on 2 online, 2 effective CPUs, at t = 10 s. */
static const struct dash_key_ctx tl_lab_ctx = {.lab = true, .online = 2, .effective = 2, .now = 10};

#endif
