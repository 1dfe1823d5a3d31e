/* metrics-impl.h — what metrics.c and the files that write some of its
 * families (metrics-latency.c) share besides the primitives of
 * metrics-expo.h; not for other files. */
#ifndef THREADLAB_METRICS_IMPL_H
#define THREADLAB_METRICS_IMPL_H

#include "metrics-expo.h"
#include "metrics.h"

/* pid and group labels of a thread group. */
void metrics_group_labels(struct metrics_ctx *c, const struct thread_group *g);

#endif
