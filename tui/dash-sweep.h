/* dash-sweep.h — the s key: a non-blocking sweep of thread counts.
 *
 * For T = 1 … max(2, 2 × effective CPUs rounded up) the sweep sets the
 * workload's intra-op threads to T, waits until the labview's steady window
 * after that change is DASH_SWEEP_WINDOW seconds long (the labview then
 * holds the chart point), and moves on; at the end the user's thread count
 * is put back.  It advances only when fed a tick, so the dashboard stays
 * responsive; any knob key cancels it. */
#ifndef THREADLAB_DASH_SWEEP_H
#define THREADLAB_DASH_SWEEP_H

#include <stdbool.h>
#include <stddef.h>

#include "labview.h"
#include "settings.h"

#define DASH_SWEEP_WINDOW   2.0	 /* steady seconds per step */
#define DASH_SWEEP_STEP_MAX 15.0 /* a step that takes longer is skipped, s */

struct dash_sweep {
	bool active;
	int t;		   /* thread count being measured */
	int t_max;	   /* last thread count */
	int user_threads;  /* restored at the end */
	double step_start; /* when the current step was applied, s */
	int skipped;	   /* steps that timed out */
};

/* Return bits of dash_sweep_start / dash_sweep_tick. */
#define DASH_SWEEP_APPLY 0x1 /* want changed: apply it */
#define DASH_SWEEP_DONE	 0x2 /* the sweep ended (want restored) */
#define DASH_SWEEP_NEXT	 0x4 /* moved to the next step */

void dash_sweep_init(struct dash_sweep *sw);
/* Starts a sweep at time now (s) from the settings in want; sets
 * want->threads to 1.  Returns DASH_SWEEP_APPLY. */
int dash_sweep_start(struct dash_sweep *sw, struct settings *want, double effective, double now);
/* Advances after a tick at time now with what the lab view made of the
 * workload (w) and the lab view v.  Returns DASH_SWEEP_* bits (0: keep
 * waiting). */
int dash_sweep_tick(struct dash_sweep *sw, struct settings *want, const struct workload_report *w,
		    const struct labview *v, double now);
/* Stops the sweep and restores the user's thread count into want when
 * restore is true.  Returns DASH_SWEEP_APPLY when want changed. */
int dash_sweep_cancel(struct dash_sweep *sw, struct settings *want, bool restore);
/* "sweep 2/4" while active, or "" — into buf (cap bytes). */
const char *dash_sweep_label(const struct dash_sweep *sw, char *buf, size_t cap);

#endif
