/* session-lab.h — the lab as a face drives it (session-lab.c): the settings
 * wanted applied, the ones still pending, the anchor's restarts, a thread's
 * mark.  The face changes s->want only through the knob calls
 * (session-knob.h) and calls these; the session owns everything. */
#ifndef THREADLAB_SESSION_LAB_H
#define THREADLAB_SESSION_LAB_H

#include "knobs.h"
#include "session.h"

/* Lab only: applies s->want (after a key or a flag changed it).  Returns 0
 * or -errno; a message says what happened in a few words either way. */
int session_lab_apply(struct session *s);
/* The lab's settings asked for but not yet in effect, as SESSION_PEND_*
 * bits, one a knob of the knob table (knobs.h); 0 outside the lab. */
#define SESSION_PEND_OF(k)     (1u << (k))
#define SESSION_PEND_THREADS   SESSION_PEND_OF(KNOB_THREADS)
#define SESSION_PEND_STREAMS   SESSION_PEND_OF(KNOB_STREAMS)
#define SESSION_PEND_SIZE      SESSION_PEND_OF(KNOB_SIZE)
#define SESSION_PEND_PRECISION SESSION_PEND_OF(KNOB_PRECISION)
#define SESSION_PEND_PAUSED    SESSION_PEND_OF(KNOB_PAUSED)
#define SESSION_PEND_WORKERS   SESSION_PEND_OF(KNOB_WORKERS)
#define SESSION_PEND_QUOTA     SESSION_PEND_OF(KNOB_CPUS)
#define SESSION_PEND_BLAS                                                                          \
	SESSION_PEND_OF(KNOB_BLAS) /* helpers restarting: another build                            \
				    * or spin */
#define SESSION_PEND_LOADERS SESSION_PEND_OF(KNOB_LOADERS)
#define SESSION_PEND_KERNEL  SESSION_PEND_OF(KNOB_KERNEL)
_Static_assert(KNOB_COUNT <= 32, "a pending bit a knob");
unsigned session_lab_pending(const struct session *s);
/* Between ticks: reads the workload's status again (lab only), so that a
 * pending mark clears as soon as a setting took effect.  Returns the
 * pending bits afterwards. */
unsigned session_lab_poll(struct session *s);
/* The message for a helper the lab restarted: "stream 1: helper killed by
 * signal 9, restarted (restart 2)"; failure is lab_stream_status
 * last_failure ("" or NULL: "helper died").  Returns the bytes written. */
size_t session_lab_restart_text(char *out, size_t cap, int stream, unsigned restarts,
				const char *failure);
/* Whether the lab's workload runs (a lab session, not a replay, not gone). */
bool session_lab_live(const struct session *s);
/* What a thread of the newest sample is to the lab (labview.h):
 * LABVIEW_MARK_NONE outside the lab. */
enum labview_mark session_lab_thread_mark(const struct session *s, const struct model_thread *t);

#endif
