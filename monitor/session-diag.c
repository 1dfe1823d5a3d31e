/* session-diag.c — a live session's census, window and diagnosis.
 *
 * The window (window.h) sums each interval's demand per thread over the
 * last half window to a whole one: that keeps the verdict from flipping
 * with each interval (one busy thread seen runnable at one instant and not
 * at the next) while it still follows a change within a window, and counts
 * threads that started or ended inside it.  Without a window (diag_window
 * 0) the diagnosis judges the last interval, as a batch sample does. */
#include "config.h"

#include "session-diag.h"
#include "window.h"

#include <stdlib.h>
#include <string.h>

#include "proctree.h"

#define SESSION_UNFOLLOWED_S 5.0

void session_diag_init(struct session *s)
{
	census_init(&s->census, &s->root);
	history_init(&s->history);
	window_init(&s->window, s->cfg.diag_window);
}

void session_diag_free(struct session *s)
{
	census_free(&s->census);
	window_free(&s->window);
}

/* The rates to judge: the window's, or the last interval's. */
static const struct snapshot_rates *session_diag_window(struct session *s)
{
	if (s->cfg.diag_window <= 0)
		return &s->rates;
	window_add(&s->window, &s->rates, &s->cur);
	return window_rates(&s->window);
}

/* Descendants of an attached or launched target that is not followed with
 * its tree, counted again every few seconds (a scan of every process). */
static int session_diag_unfollowed(struct session *s)
{
	if (s->tree || s->kind == SESSION_LAB || !s->root.live)
		return 0;
	if (s->unfollowed_at > 0 && s->cur.time - s->unfollowed_at < SESSION_UNFOLLOWED_S)
		return s->unfollowed;
	pid_t *pids = NULL;
	size_t cap = 0;
	ssize_t n = proctree_descendants(&s->root, s->target, &pids, &cap);
	free(pids);
	s->unfollowed = n > 1 ? (int)n - 1 : 0;
	s->unfollowed_at = s->cur.time;
	return s->unfollowed;
}

void session_diag_tick(struct session *s)
{
	if (!s->have_rates)
		return;
	s->runnable_mean = diagnosis_runnable_mean(&s->rates);
	const struct snapshot_rates *r = &s->rates;
	history_push(&s->history, s->runnable_mean, r->total_cpu_pct / 100.0,
		     r->total_wait_pct / 100.0, r->throttle.valid ? r->throttle.throttled_pct : 0,
		     s->cur.budget.effective);
	census_update(&s->census, &s->root, &s->cur.threads, s->cur.time);
	struct diag_input in = {
	    .target = s->target,
	    .budget = &s->cur.budget,
	    .rates = session_diag_window(s),
	    .census = &s->census,
	    .cores = s->census.cores,
	    .lab = s->kind == SESSION_LAB ? &s->lab_status.settings : NULL,
	    .keys = s->cfg.keys,
	    .unfollowed = session_diag_unfollowed(s),
	};
	diagnosis_make(&in, &s->diag);
	s->have_diag = true;
}
