/* batch.h — threadlab --batch and --budget: samples as text, CSV or JSON. */
#ifndef THREADLAB_BATCH_H
#define THREADLAB_BATCH_H

#include "options.h"

/* Runs batch mode until COUNT samples, the target's exit or a signal.
 * Returns an exit status (options.h); errors are reported on stderr. */
int batch_run(const struct options *o);

/* Prints the effective CPU budget of -p PID (or threadlab itself). */
int batch_budget(const struct options *o);

#endif
