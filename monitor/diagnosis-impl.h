/* diagnosis-impl.h — what diagnosis.c and diagnosis-rules.c share; not for
 * other files (they use diagnosis.h). */
#ifndef THREADLAB_DIAGNOSIS_IMPL_H
#define THREADLAB_DIAGNOSIS_IMPL_H

#include "diagnosis.h"

/* Appends a formatted line to list (of *n, at most max), cut at DIAG_TEXT. */
void diag_add(char list[][DIAG_TEXT], size_t *n, size_t max, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
#define REASON(d, ...)	diag_add((d)->reasons, &(d)->nreasons, DIAG_REASONS, __VA_ARGS__)
#define SUGGEST(d, ...) diag_add((d)->suggestions, &(d)->nsuggestions, DIAG_SUGGEST, __VA_ARGS__)

/* The target's entry for the thread variable name, or NULL when name is not
 * one of environment_thread_vars. */
const struct diag_env *diag_var(const struct diagnosis *d, const char *name);
/* Sets d->verdict, its headline, reasons and suggestions: the first rule of
 * the table that holds. */
void diag_rules_apply(struct diagnosis *d, const struct diag_input *in);

/* Run-queue latency (diagnosis-latency.c): of the target, of each role and
 * group, given for each thread of in->rates the index of its role and of
 * its group (-1: none). */
void diag_latency(struct diagnosis *d, const struct diag_input *in, const signed char *role_of,
		  const signed char *group_of);
/* The reason that quotes the tail, when latency was traced. */
void diag_latency_reason(struct diagnosis *d);
/* Whether the target's tail is long enough to sharpen a verdict: enough
 * waits, p99 at least DIAG_TAIL_P99_S. */
#define DIAG_TAIL_P99_S	 0.010
#define DIAG_TAIL_EVENTS 50
bool diag_latency_long_tail(const struct diagnosis *d);

#endif
