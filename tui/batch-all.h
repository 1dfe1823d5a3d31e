/* batch-all.h — threadlab --all --batch: the machine's processes ranked by
 * their demand against their budgets, as text, CSV or JSON Lines. */
#ifndef THREADLAB_BATCH_ALL_H
#define THREADLAB_BATCH_ALL_H

#include "options.h"

/* Runs until COUNT samples or a signal.  Returns an exit status
 * (options.h); errors are reported on stderr. */
int batch_all_run(const struct options *o);

#endif
