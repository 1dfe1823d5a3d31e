/* diagnose.h — threadlab --diagnose: sample a while, print one verdict. */
#ifndef THREADLAB_DIAGNOSE_H
#define THREADLAB_DIAGNOSE_H

#include "options.h"

/* Samples the target (-p PID, -- CMD, or the lab) for --seconds (default
 * 5), prints the diagnosis as text or JSON on stdout.  Returns 0 when the
 * verdict is fine or idle, 1 when it is oversubscribed, throttled or
 * undersubscribed, 2 on error (bad arguments, no target, the target ended
 * before two samples). */
int diagnose_run(const struct options *o);

/* rc, once stdout is flushed; EXIT_USAGE (2, not 1: "a problem found")
 * with a message when it cannot be written. */
int diagnose_flushed(int rc);

#endif
