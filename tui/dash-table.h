/* dash-table.h — the threads table: head, one row per thread, summary. */
#ifndef THREADLAB_DASH_TABLE_H
#define THREADLAB_DASH_TABLE_H

#include <curses.h>

#include "dash-layout.h"
#include "dash.h"
#include "session.h"

/* Draws the table inside r from the session's rates, in d's sort order. */
void dash_table_draw(WINDOW *w, const struct dash_rect *r, const struct dash *d,
		     const struct session *s);

#endif
