/* metrics-lab.h — the lab's families (metrics-lab.c), for metrics.c; not
 * for other files (they use metrics.h). */
#ifndef THREADLAB_METRICS_LAB_H
#define THREADLAB_METRICS_LAB_H

#include <stddef.h>

#include "metrics-expo.h"
#include "metrics.h"

/* threadlab_workload_*: the series of the lab targets among t[0..n), one
 * family after another (nothing for a target that is not a lab). */
void metrics_lab(struct metrics_ctx *c, const struct metrics_target *t, size_t n);

#endif
