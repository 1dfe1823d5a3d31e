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
#define DIAG_UNDER_SLACK       0.9
#define DIAG_UNDER_BAND	       0.1
#define DIAG_BUSY_THREAD_PCT   90.0
#define DIAG_INPUT_BOUND_PCT   50.0 /* the main process waits for input this much */
#define DIAG_INPUT_MAIN_CPU    5.0  /* % of a CPU the main process works between waits, at least */
#define DIAG_TEAM_RUNNABLE     0.3  /* a thread "working" in a team: runnable this share */

/* The runnable threads thread t stood for over the window: (CPU % + wait
 * %) / 100. */
double diagnosis_demand(const struct thread_rate *t);
/* Appends a formatted line to list (of *n, at most max), cut at DIAG_TEXT. */
void diagnosis_add(char list[][DIAG_TEXT], size_t *n, size_t max, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
#define REASON(d, ...) diagnosis_add((d)->reasons, &(d)->nreasons, DIAG_REASONS, __VA_ARGS__)
#define SUGGEST(d, ...)                                                                            \
	diagnosis_add((d)->suggestions, &(d)->nsuggestions, DIAG_SUGGEST, __VA_ARGS__)

/* A suggestion whose outcome is predicted: added only when the predicted
 * demand (runnable threads) fits the predicted CPUs (not itself
 * oversubscribed).  Returns whether it was added. */
bool diagnosis_suggest_fits(struct diagnosis *d, double runnable, double cpus, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Moves the last suggestion to the front (the one to try first). */
void diagnosis_suggest_first(struct diagnosis *d);

/* Sets d->verdict, its headline, reasons and suggestions: the first rule of
 * the table that holds (diagnosis-rules.c). */
void diagnosis_rules_apply(struct diagnosis *d, const struct diag_input *in);

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
/* diagnosis-rules.c's predicates, for the advice. */
double diagnosis_cores(const struct budget *b);
bool diagnosis_quota_binds(const struct diagnosis *d, const struct diag_input *in);
double diagnosis_others(const struct diagnosis *d);
bool diagnosis_crowded(const struct diagnosis *d);

/* diagnosis-advice.c: the runtime whose pool the user configures, the
 * neighbours in words ("stress (pid 812, 2.0 CPUs, /user.slice), ...", at
 * most max of them, raw bytes), and each verdict's suggestions. */
const struct diag_runtime *diagnosis_main_pool(const struct diagnosis *d);
void diagnosis_neighbours_text(const struct diagnosis *d, char *out, size_t cap, size_t max);
void diagnosis_advise_throttled(struct diagnosis *d, const struct diag_input *in);
void diagnosis_advise_over(struct diagnosis *d, const struct diag_input *in);
void diagnosis_advise_contended(struct diagnosis *d, const struct diag_input *in);
/* "LEAD: stress (pid 812) took 2.0 CPUs of the ones it waits for; ...":
 * the neighbour that holds the CPUs, as a suggestion. */
void diagnosis_suggest_neighbour(struct diagnosis *d, const char *lead);
void diagnosis_advise_under(struct diagnosis *d, const struct diag_input *in);
/* Sets d->input_bound from the roles (before the rules: the advice of
 * oversubscribed never offers fewer workers to an input-bound job). */
void diagnosis_input_bound(struct diagnosis *d, const struct diag_input *in);
/* The findings every verdict carries: crowded out too, a quota that did
 * not bind, an input-bound main process, children left out. */
void diagnosis_advise_findings(struct diagnosis *d, const struct diag_input *in);

#endif
