/* dash-table.h — the threads table: head, rows, summary.
 *
 * In the lab the rows are threads in the chosen order.  For an attached or
 * launched target they are grouped by process: a process row with the
 * totals of its threads (CPU, wait, runnable), then its threads in the
 * chosen order, unless the process is collapsed.  Rows that do not fit
 * scroll (a cursor row is kept in view) and the last row says how many
 * more there are.  The row list comes from a pure function, so tests check
 * it without a terminal. */
#ifndef THREADLAB_DASH_TABLE_H
#define THREADLAB_DASH_TABLE_H

#include <curses.h>
#include <stdbool.h>
#include <stddef.h>

#include "dash-layout.h"
#include "dash.h"
#include "session.h"

struct dash_table_row {
	bool process;		 /* a process row (its totals), else a thread row */
	pid_t pid;		 /* the process */
	size_t thread;		 /* thread rows: the index into the rates' threads */
	int nthreads;		 /* process rows: its threads */
	struct model_thread sum; /* process rows: its threads' rates (thread-field.h's RATE
				  * fields) summed */
	double runnable;	 /* process rows: its mean runnable threads */
	bool collapsed;		 /* process rows: its threads are hidden */
};

struct dash_table_view {
	struct dash_table_row *rows; /* owned: dash_table_view_free() */
	size_t n, cap;
};

void dash_table_view_free(struct dash_table_view *v);

/* The table's rows for rates r in sort order: grouped by process (the
 * target first, then by pid) when grouped, with the threads of collapsed
 * processes left out (all of them when t->collapse_all). */
void dash_table_rows(const struct model_sample *r, enum thread_field_id sort, bool grouped,
		     pid_t target, const struct dash_table_state *t, struct dash_table_view *v);

/* Whether the session's table is grouped by process. */
bool dash_table_grouped(const struct session *s);

/* Rows of the body for a table rectangle of h rows (head and summary
 * aside). */
int dash_table_body(int h);
/* The same for s's table: one row less when a line says why the latency
 * columns are hidden (collector_session_note). */
int dash_table_body_of(const struct session *s, int h);

/* The first row shown: top, moved so that the cursor is visible, and
 * never past the last page.  Pure. */
int dash_table_first(const struct dash_table_state *t, size_t nrows, int body);

/* What a table of h rows shows now: the TIDs of its visible thread rows
 * into tids (cap of them; returns how many), the rows in all, and the
 * process of the cursor's row (0: none). */
size_t dash_table_visible(const struct session *s, const struct dash *d, int h, pid_t *tids,
			  size_t cap, long *nrows, pid_t *cursor_pid);

/* Draws the table inside r from the session's rates, in d's sort order. */
void dash_table_draw(WINDOW *w, const struct dash_rect *r, const struct dash *d,
		     const struct session *s);

#endif
