/* metrics-impl.h — what metrics.c and the files that write some of its
 * families (metrics-latency.c) share besides the primitives of
 * metrics-expo.h; not for other files. */
#ifndef THREADLAB_METRICS_IMPL_H
#define THREADLAB_METRICS_IMPL_H

#include "metrics-expo.h"
#include "metrics.h"

/* pid and group labels of groups->v[i]; a group whose label would read
 * as an earlier one's of its process (a name holding "\\x1b" literally
 * beside one holding the byte) gets " #2", " #3" after it: no two series
 * of a family share their labels. */
void metrics_group_labels(struct metrics_ctx *c, const struct thread_groups *groups, size_t i);

#endif
