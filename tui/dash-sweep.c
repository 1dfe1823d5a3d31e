/* dash-sweep.c — the s key's thread-count sweep as a state machine.
 *
 * One step per thread count: apply T, then wait, tick after tick, until the
 * workload runs T threads with the newest settings and the labview has
 * measured DASH_SWEEP_WINDOW steady seconds since that change (the labview
 * records the chart point itself).  Nothing here blocks or sleeps. */
#include "config.h"

#include "dash-sweep.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "throughput.h"

void dash_sweep_init(struct dash_sweep *sw)
{
	memset(sw, 0, sizeof(*sw));
}

int dash_sweep_start(struct dash_sweep *sw, struct settings *want, double effective, double now)
{
	int top = (int)ceil(2.0 * effective - 1e-9);

	sw->active = true;
	sw->user_threads = want->threads;
	sw->t = 1;
	sw->t_max = top < 2 ? 2 : top > SETTINGS_MAX_THREADS ? SETTINGS_MAX_THREADS : top;
	sw->step_start = now;
	sw->skipped = 0;
	want->threads = 1;
	return DASH_SWEEP_APPLY;
}

int dash_sweep_cancel(struct dash_sweep *sw, struct settings *want, bool restore)
{
	if (!sw->active)
		return 0;
	sw->active = false;
	if (restore && want->threads != sw->user_threads) {
		want->threads = sw->user_threads;
		return DASH_SWEEP_APPLY;
	}
	return 0;
}

/* Whether the current step has its steady window. */
static bool dash_sweep_measured(const struct dash_sweep *sw, const struct settings *want,
				const struct workload_report *w, const struct labview *v)
{
	/* The labview's steady window must belong to the newest settings. */
	if (!w->applied || w->epoch == 0 || v->steady.epoch != w->epoch)
		return false;
	for (int i = 0; i < want->streams && i < SETTINGS_MAX_STREAMS; i++)
		if (i >= w->nstreams || w->stream[i].threads != sw->t)
			return false;
	/* Both clocks are CLOCK_MONOTONIC: the window must have begun after
	 * this step's change, whatever the epochs say. */
	if (v->steady.state != 2 || v->steady.t0 < sw->step_start)
		return false;
	return throughput_steady_seconds(&v->steady) >= DASH_SWEEP_WINDOW;
}

int dash_sweep_tick(struct dash_sweep *sw, struct settings *want, const struct workload_report *w,
		    const struct labview *v, double now)
{
	if (!sw->active)
		return 0;
	bool timed_out = now - sw->step_start > DASH_SWEEP_STEP_MAX;
	if (!dash_sweep_measured(sw, want, w, v) && !timed_out)
		return 0;
	if (timed_out)
		sw->skipped++;
	if (sw->t >= sw->t_max) {
		sw->active = false;
		want->threads = sw->user_threads;
		return DASH_SWEEP_DONE | DASH_SWEEP_APPLY;
	}
	sw->t++;
	sw->step_start = now;
	want->threads = sw->t;
	return DASH_SWEEP_NEXT | DASH_SWEEP_APPLY;
}

const char *dash_sweep_label(const struct dash_sweep *sw, char *buf, size_t cap)
{
	if (!sw->active)
		snprintf(buf, cap, "%s", "");
	else
		snprintf(buf, cap, "sweep %d/%d", sw->t, sw->t_max);
	return buf;
}
