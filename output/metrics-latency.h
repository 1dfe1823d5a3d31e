/* metrics-latency.h — threadlab_runqueue_latency_seconds, a histogram per
 * thread group (metrics-latency.c), for metrics.c's exposition. */
#ifndef THREADLAB_METRICS_LATENCY_H
#define THREADLAB_METRICS_LATENCY_H

#include "metrics-impl.h"

/* threadlab_runqueue_latency_seconds (metrics-latency.c). */
void metrics_latency(struct metrics_ctx *c, const struct metrics_target *t, size_t n);

#endif
