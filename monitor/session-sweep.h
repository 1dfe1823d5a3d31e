/* session-sweep.h — the dashboard's s key: a non-blocking sweep of the
 * lab's thread counts, in the session.
 *
 * For T = 1 … max(2, 2 × effective CPUs rounded up, within the threads
 * knob's range) the sweep sets the lab's intra-op threads (s->want) to T,
 * waits until the labview's steady window after that change is
 * SESSION_SWEEP_WINDOW seconds long (the labview then holds the chart
 * point), and moves on; at the end the user's thread count is put back.
 * The sweep and the thread count it restores are the session's (s->sweep):
 * a face starts, ticks and cancels it, applies s->want when told
 * (session_lab_apply) and reads s->sweep to say where it is.  It advances only
 * when ticked, so the face stays responsive; any lab knob's key cancels
 * it. */
#ifndef THREADLAB_SESSION_SWEEP_H
#define THREADLAB_SESSION_SWEEP_H

#include <stdbool.h>
#include <stddef.h>

#define SESSION_SWEEP_WINDOW   2.0  /* steady seconds per step */
#define SESSION_SWEEP_STEP_MAX 15.0 /* a step that takes longer is skipped, s */

struct session_sweep {
	bool active;
	int t;		   /* thread count being measured */
	int t_max;	   /* last thread count */
	int user_threads;  /* restored at the end */
	double step_start; /* when the current step was applied, s */
	int skipped;	   /* steps that timed out */
};

/* Return bits of session_sweep_start / _tick / _cancel. */
#define SESSION_SWEEP_APPLY 0x1 /* s->want changed: apply it */
#define SESSION_SWEEP_DONE  0x2 /* the sweep ended (the user's threads back) */
#define SESSION_SWEEP_NEXT  0x4 /* moved to the next step */

struct session;

/* Starts a sweep of a lab session at time now (s), effective CPUs giving
 * its range; sets s->want's threads to 1.  Returns SESSION_SWEEP_APPLY, or
 * 0 (nothing started) for a session that is not a lab's. */
int session_sweep_start(struct session *s, double effective, double now);
/* Advances after a tick at time now with what the lab view made of the
 * workload (s->work, s->view).  Returns SESSION_SWEEP_* bits (0: keep
 * waiting, or no sweep). */
int session_sweep_tick(struct session *s, double now);
/* Stops the sweep and puts the user's thread count back into s->want when
 * restore is true.  Returns SESSION_SWEEP_APPLY when s->want changed. */
int session_sweep_cancel(struct session *s, bool restore);
/* "sweep 2/4" while active, or "" — into buf (cap bytes). */
const char *session_sweep_label(const struct session *s, char *buf, size_t cap);

#endif
