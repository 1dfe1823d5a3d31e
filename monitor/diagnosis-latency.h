/* diagnosis-latency.h — the run-queue latency a diagnosis reports
 * (diagnosis-latency.c): the target's, each role's and each group's over
 * the window judged.  For the diagnosis' own files (monitor/). */
#ifndef THREADLAB_DIAGNOSIS_LATENCY_H
#define THREADLAB_DIAGNOSIS_LATENCY_H

#include "diagnosis-impl.h"

/* Run-queue latency (diagnosis-latency.c): of the target, of each role and
 * group, given for each thread of in->rates the index of its role and of
 * its group (-1: none). */
void diagnosis_latency(struct diagnosis *d, const struct diag_input *in, const signed char *role_of,
		       const signed char *group_of);
/* The reason that quotes the tail, when latency was traced. */
void diagnosis_latency_reason(struct diagnosis *d);
/* Whether the target's tail is long enough to sharpen a verdict: enough
 * waits, p99 beyond DIAG_TAIL_P99_S + DIAG_TAIL_BAND_S (within the band
 * around DIAG_TAIL_P99_S it is borderline, like any threshold's figure:
 * diagnosis-rules.c). */
#define DIAG_TAIL_P99_S	 0.010
#define DIAG_TAIL_BAND_S 0.003
#define DIAG_TAIL_EVENTS 50
bool diagnosis_latency_long_tail(const struct diagnosis *d);
/* Whether the tail counts at all: latency traced over enough waits. */
bool diagnosis_latency_judged(const struct diagnosis *d);

#endif
