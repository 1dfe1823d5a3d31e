/* diagnosis-findings.h — what every verdict carries beside its own words
 * (diagnosis-findings.c): crowded out too, a quota that did not bind, an
 * input-bound main process, children left out.  For the diagnosis' own
 * files (monitor/). */
#ifndef THREADLAB_DIAGNOSIS_FINDINGS_H
#define THREADLAB_DIAGNOSIS_FINDINGS_H

#include "diagnosis-impl.h"

/* Sets d->input_bound from the roles (before the rules: the advice of
 * oversubscribed never offers fewer workers to an input-bound job). */
void diagnosis_findings_input_bound(struct diagnosis *d, const struct diag_input *in);
/* The findings every verdict carries: crowded out too, a quota that did
 * not bind, an input-bound main process, children left out. */
void diagnosis_findings_advise(struct diagnosis *d, const struct diag_input *in);

#endif
