/* diagnosis-runtimes.h — the runtimes part of a diagnosis
 * (diagnosis-runtimes.c), for diagnosis.c and its siblings; not for other
 * files (they use diagnosis.h). */
#ifndef THREADLAB_DIAGNOSIS_RUNTIMES_H
#define THREADLAB_DIAGNOSIS_RUNTIMES_H

#include "diagnosis-input.h"

/* Fills d->runtimes: each thread-pool runtime of in->census (the target's
 * first), its default pool for affinity CPUs and the pool in effect; also
 * d->maps_truncated, d->maps_unreadable and d->unfollowed. */
void diagnosis_runtimes(struct diagnosis *d, const struct diag_input *in, int affinity);
/* d->team (the largest team of an OpenMP or BLAS pool seen working) and
 * d->team_factor against d->effective; after diagnosis_runtimes. */
void diagnosis_runtimes_team(struct diagnosis *d);
/* Fills d->env: the target's thread variables as its initial environment
 * gives them, and d->env_state, d->env_denied. */
void diagnosis_runtimes_env(struct diagnosis *d, const struct diag_input *in);
/* The target's entry for the thread variable name, or NULL when name is not
 * one of environment_thread_vars. */
const struct diag_env *diagnosis_runtimes_var(const struct diagnosis *d, const char *name);
/* The reason that names the thread variables a user looks at first
 * ("initial environment: OMP_NUM_THREADS=6, ..."), or why they are not
 * known. */
void diagnosis_runtimes_env_reason(struct diagnosis *d);

#endif
