/* diagnosis-advice.h — each verdict's suggestions and the words they
 * share (diagnosis-advice.c).  For the diagnosis' own files (monitor/):
 * it speaks the collectors' types through diagnosis-impl.h.  Text goes
 * into the struct diagnosis given (cut at DIAG_TEXT); nothing is kept. */
#ifndef THREADLAB_DIAGNOSIS_ADVICE_H
#define THREADLAB_DIAGNOSIS_ADVICE_H

#include "diagnosis-impl.h"
#include "diagnosis.h"

/* A suggestion whose outcome is predicted: added only when the predicted
 * demand (runnable threads) fits the predicted CPUs (not itself
 * oversubscribed).  Returns whether it was added. */
bool diagnosis_advice_suggest_fits(struct diagnosis *d, double runnable, double cpus,
				   const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* Moves the last suggestion to the front (the one to try first). */
void diagnosis_advice_suggest_first(struct diagnosis *d);
/* The role of that kind ("main", "workers", "children"), or NULL. */
const struct diag_role *diagnosis_advice_role(const struct diagnosis *d, const char *kind);
/* Whether a role's threads wait for CPUs a good part of what they run
 * (DIAG_STARVED_WAIT): the CPU they use is what they got, not what they
 * would use. */
bool diagnosis_advice_role_starved(const struct diag_role *r);
/* Whether the target's children, not followed, use more CPU than it (0.2
 * CPUs at least): what was seen is part of the job ("add --tree"). */
bool diagnosis_advice_children_work(const struct diagnosis *d, const struct diag_input *in);
/* diagnosis-advice.c: the runtime whose pool the user configures, the
 * neighbours in words ("stress (pid 812, 2.0 CPUs, /user.slice), ...", at
 * most max of them, raw bytes), and each verdict's suggestions. */
const struct diag_runtime *diagnosis_advice_main_pool(const struct diagnosis *d);
void diagnosis_advice_neighbours_text(const struct diagnosis *d, char *out, size_t cap, size_t max);
void diagnosis_advice_throttled(struct diagnosis *d, const struct diag_input *in);
void diagnosis_advice_over(struct diagnosis *d, const struct diag_input *in);
void diagnosis_advice_contended(struct diagnosis *d, const struct diag_input *in);
/* "LEAD: stress (pid 812) took 2.0 CPUs of the ones it waits for; ...":
 * the neighbour that holds the CPUs, as a suggestion. */
void diagnosis_advice_suggest_neighbour(struct diagnosis *d, const char *lead);
void diagnosis_advice_under(struct diagnosis *d, const struct diag_input *in);
/* Whether a suggestion's predicted result fits: runnable threads at most
 * the oversubscription threshold times cpus (a suggestion that fails it
 * is not shown). */
bool diagnosis_advice_prediction_fits(double runnable, double cpus);

#endif
