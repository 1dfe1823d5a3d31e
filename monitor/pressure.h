/* pressure.h — what the model says when a cgroup's CPU pressure is not
 * known (the reason comes from the sampler, model.h: model_psi_why),
 * as every output writes it and a recording reads it back. */
#ifndef THREADLAB_PRESSURE_H
#define THREADLAB_PRESSURE_H

#include "model.h"

/* The note for why (a static string), NULL for MODEL_PSI_WHY_NONE. */
const char *pressure_note(enum model_psi_why why);

/* The reason a note names; MODEL_PSI_WHY_NONE for NULL or an unknown note. */
enum model_psi_why pressure_why_of(const char *note);

#endif
