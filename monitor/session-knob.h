/* session-knob.h — one change of one knob, checked once (knobs.h).
 *
 * A key press is one descent: session_knob_step() takes the knob's next
 * value from the table's step rule, checks it against the table's range
 * and the machine, and changes the settings asked for only when it
 * passes; the caller applies them (session_lab_apply). */
#ifndef THREADLAB_SESSION_KNOB_H
#define THREADLAB_SESSION_KNOB_H

#include <stddef.h>

#include "knobs.h"

struct session;

/* Checks whole settings (at start): the knob table's ranges (knobs_check),
 * the OpenBLAS build asked for, and (s started) the available memory of
 * s's machine and this process's limits.  Returns 0, or -EINVAL / -ENOENT /
 * -ENOMEM with a one-line reason in err. */
int session_knob_check_settings(const struct session *s, const struct settings *want, char *err,
				size_t errlen);

/* One step of lab knob k in *want: dir +1 up, -1 down, 0 a toggle's flip
 * or the quota's removal; online is the quota keys' upper end (CPUs).  s
 * (may be NULL, or not started: the table's checks and this process's limits only) gives
 * the machine's memory.  Returns 1 when *want changed (apply it), 0 when
 * the step was refused and *want is as it was; msg receives what happened
 * in a few words either way ("intra-op threads 2", "intra-op threads stay
 * within 1..64"). */
int session_knob_step(const struct session *s, struct settings *want, enum knob_id k, int dir,
		      int online, char *msg, size_t cap);

#endif
