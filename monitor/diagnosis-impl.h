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

#endif
