/* diagnosis-rules-impl.h — the verdict table's side for the diagnosis'
 * own files (diagnosis-rules.c): the rules applied and the predicates the
 * advice asks again.  For monitor/ only (the collectors' types); the
 * faces' side is diagnosis-rules.h. */
#ifndef THREADLAB_DIAGNOSIS_RULES_IMPL_H
#define THREADLAB_DIAGNOSIS_RULES_IMPL_H

#include "diagnosis-impl.h"

/* Sets d->verdict, its headline, reasons and suggestions: the first rule of
 * the table that holds (diagnosis-rules.c). */
void diagnosis_rules_apply(struct diagnosis *d, const struct diag_input *in);
/* diagnosis-rules.c's predicates, for the advice. */
double diagnosis_rules_cores(const struct budget *b);
bool diagnosis_rules_quota_binds(const struct diagnosis *d, const struct diag_input *in);
double diagnosis_rules_others(const struct diagnosis *d);
/* Of those, what no process accounts for, the target's own short-lived
 * threads and children (its unseen_cpu) left out. */
double diagnosis_rules_others_unseen(const struct diagnosis *d);
bool diagnosis_rules_crowded(const struct diagnosis *d);
bool diagnosis_rules_wakeup_waits(const struct diagnosis *d);

#endif
