/* thread-groups-impl.h — thread groups (thread-groups.h) brought up to
 * date from the threads sampled; for monitor/ (and its tests) only, in the
 * collectors' types. */
#ifndef THREADLAB_THREAD_GROUPS_IMPL_H
#define THREADLAB_THREAD_GROUPS_IMPL_H

#include "thread-groups.h"
#include "threads.h"

/* Brings g up to date with cur, the sample after prev (NULL on the first
 * sample).  Both sets are sorted by (pid, tid), as the sampler makes them. */
void thread_groups_update(struct thread_groups *g, const struct thread_set *prev,
			  const struct thread_set *cur);

#endif
