/* session-sweep.c — the s key's thread-count sweep as a state machine
 * (session-sweep.h).
 *
 * One step per thread count: apply T, then wait, tick after tick, until the
 * workload runs T threads with the newest settings and the labview has
 * measured SESSION_SWEEP_WINDOW steady seconds since that change (the
 * labview records the chart point itself).  Nothing here blocks or
 * sleeps. */
#include "config.h"

#include "session-sweep.h"

#include <math.h>
#include <stdio.h>

#include "knobs-view.h"
#include "session.h"
#include "throughput.h"

int session_sweep_start(struct session *s, double effective, double now)
{
	struct session_sweep *sw = &s->sweep;
	if (s->kind != SESSION_LAB)
		return 0;
	sw->active = true;
	sw->user_threads = s->want.threads;
	sw->t = 1;
	sw->t_max = knobs_view_clamp(KNOB_THREADS, (int)ceil(2.0 * effective - 1e-9), 2);
	sw->step_start = now;
	sw->skipped = 0;
	s->want.threads = 1;
	return SESSION_SWEEP_APPLY;
}

int session_sweep_cancel(struct session *s, bool restore)
{
	struct session_sweep *sw = &s->sweep;
	if (!sw->active)
		return 0;
	sw->active = false;
	if (restore && s->want.threads != sw->user_threads) {
		s->want.threads = sw->user_threads;
		return SESSION_SWEEP_APPLY;
	}
	return 0;
}

/* Whether the current step has its steady window. */
static bool session_sweep_measured(const struct session *s)
{
	const struct session_sweep *sw = &s->sweep;
	const struct workload_report *w = &s->work;
	const struct labview *v = &s->view;
	/* The labview's steady window must belong to the newest settings. */
	if (!w->applied || w->epoch == 0 || v->steady.epoch != w->epoch)
		return false;
	for (int i = 0; i < s->want.streams && i < SETTINGS_MAX_STREAMS; i++)
		if (i >= w->nstreams || w->stream[i].threads != sw->t)
			return false;
	/* Both clocks are CLOCK_MONOTONIC: the window must have begun after
	 * this step's change, whatever the epochs say. */
	if (v->steady.state != 2 || v->steady.t0 < sw->step_start)
		return false;
	return throughput_steady_seconds(&v->steady) >= SESSION_SWEEP_WINDOW;
}

int session_sweep_tick(struct session *s, double now)
{
	struct session_sweep *sw = &s->sweep;
	if (!sw->active)
		return 0;
	bool timed_out = now - sw->step_start > SESSION_SWEEP_STEP_MAX;
	if (!session_sweep_measured(s) && !timed_out)
		return 0;
	if (timed_out)
		sw->skipped++;
	if (sw->t >= sw->t_max) {
		sw->active = false;
		s->want.threads = sw->user_threads;
		return SESSION_SWEEP_DONE | SESSION_SWEEP_APPLY;
	}
	sw->t++;
	sw->step_start = now;
	s->want.threads = sw->t;
	return SESSION_SWEEP_NEXT | SESSION_SWEEP_APPLY;
}

const char *session_sweep_label(const struct session *s, char *buf, size_t cap)
{
	if (!s->sweep.active)
		snprintf(buf, cap, "%s", "");
	else
		snprintf(buf, cap, "sweep %d/%d", s->sweep.t, s->sweep.t_max);
	return buf;
}
