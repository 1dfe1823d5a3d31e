/* session-diag.c — a live session's census, window and diagnosis.
 *
 * The window: two copies of past snapshots, taken every half window; the
 * older one is between half a window and a window old, so the rates from it
 * to the newest sample cover a sliding stretch of that length.  That keeps
 * the verdict from flipping with each interval (one busy thread seen
 * runnable at one instant and not at the next) while it still follows a
 * change within a window.  Without a window (diag_window 0) the diagnosis
 * judges the last interval, as a batch sample does. */
#include "config.h"

#include "session-diag.h"

#include <string.h>

void session_diag_init(struct session *s)
{
	census_init(&s->census, &s->root);
	snapshot_init(&s->win_old);
	snapshot_init(&s->win_new);
	snapshot_rates_init(&s->win_rates);
}

void session_diag_free(struct session *s)
{
	census_free(&s->census);
	snapshot_free(&s->win_old);
	snapshot_free(&s->win_new);
	snapshot_rates_free(&s->win_rates);
}

/* Moves the window's bases along; returns the rates to judge. */
static const struct snapshot_rates *session_diag_window(struct session *s)
{
	double w = s->cfg.diag_window;
	if (w <= 0)
		return &s->rates;
	if (s->win_new.time <= 0) {
		snapshot_copy(&s->win_old, &s->prev);
		snapshot_copy(&s->win_new, &s->cur);
	} else if (s->cur.time - s->win_new.time >= w / 2) {
		snapshot_move(&s->win_old, &s->win_new);
		snapshot_copy(&s->win_new, &s->cur);
	}
	snapshot_rates(&s->win_old, &s->cur, &s->win_rates);
	return &s->win_rates;
}

void session_diag_tick(struct session *s)
{
	if (!s->have_rates)
		return;
	s->runnable_mean = diagnosis_runnable_mean(&s->rates);
	census_update(&s->census, &s->root, &s->cur.threads, s->cur.time);
	struct diag_input in = {
	    .target = s->target,
	    .budget = &s->cur.budget,
	    .rates = session_diag_window(s),
	    .census = &s->census,
	    .cores = s->census.cores,
	    .lab = s->kind == SESSION_LAB ? &s->lab_status.settings : NULL,
	};
	diagnosis_make(&in, &s->diag);
	s->have_diag = true;
}
