/* diagnosis-impl.h — what diagnosis.c and its siblings (diagnosis-rules.c,
 * -advice.c, -latency.c, -findings.c, -runtimes.c) share; not for other
 * files (they use diagnosis.h). */
#ifndef THREADLAB_DIAGNOSIS_IMPL_H
#define THREADLAB_DIAGNOSIS_IMPL_H

#include "diagnosis-input.h"

/* The thresholds of the verdict table (diagnosis-rules.c) and the bands
 * around them. */
#define DIAG_OVER_FACTOR       1.2
#define DIAG_OVER_BAND	       0.1
#define DIAG_IDLE_CPU	       0.05
#define DIAG_IDLE_RUNNABLE     0.10
#define DIAG_THROTTLE_PCT      20.0
#define DIAG_THROTTLE_PCT_BAND 5.0
#define DIAG_THROTTLE_S	       0.10
#define DIAG_THROTTLE_S_BAND   0.03
#define DIAG_CONTEND_SHARE     0.20 /* contention wait / runnable threads */
#define DIAG_CONTEND_BAND      0.05
#define DIAG_CONTEND_WAIT      0.10 /* s/s */
#define DIAG_CONTEND_OTHERS    0.25 /* CPUs others took */
/* A wait at each switch shorter than this is the scheduler's own latency
 * (a wake-up's), not CPUs others hold: crowded-out threads wait slices. */
#define DIAG_CONTEND_EACH_S    0.0005
#define DIAG_UNDER_SLACK       0.9
#define DIAG_UNDER_BAND	       0.1
#define DIAG_BUSY_THREAD_PCT   90.0
#define DIAG_INPUT_BOUND_PCT   50.0 /* the main process waits for input this much */
#define DIAG_INPUT_MAIN_CPU    5.0  /* % of a CPU the main process works between waits, at least */
#define DIAG_TEAM_RUNNABLE     0.3  /* a thread "working" in a team: runnable this share */
/* A role whose threads wait for a CPU at least this share of the time they
 * run gets less CPU than it would use: its CPU is no measure of its demand. */
#define DIAG_STARVED_WAIT      0.5
/* ... and at least this much in all (% of a CPU): the scheduler's own
 * wake-up latency, a few % a thread, is no starvation. */
#define DIAG_STARVED_MIN       50.0

/* The runnable threads thread t stood for over the window: (CPU % + wait
 * %) / 100. */
double diagnosis_demand(const struct thread_rate *t);
/* Appends a formatted line to list (of *n, at most max), cut at DIAG_TEXT. */
void diagnosis_add(char list[][DIAG_TEXT], size_t *n, size_t max, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
#define REASON(d, ...) diagnosis_add((d)->reasons, &(d)->nreasons, DIAG_REASONS, __VA_ARGS__)
#define SUGGEST(d, ...)                                                                            \
	diagnosis_add((d)->suggestions, &(d)->nsuggestions, DIAG_SUGGEST, __VA_ARGS__)

#endif
