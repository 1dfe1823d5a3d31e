/* runqlat.h — run-queue latency for the faces: of a process, of a set of
 * threads, and a histogram's buckets as the formats write them.
 *
 * The thread rates carry each thread's summary (threads.h, latency); what
 * needs histograms summed (a process row, a metric's buckets) comes
 * through here, so the faces never call collectors/ (the layer rule). */
#ifndef THREADLAB_RUNQLAT_H
#define THREADLAB_RUNQLAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "model.h"

/* The interval's latency of process pid's threads in r (summed
 * histograms).  events 0 when none of them waited or none is traced. */
void runqlat_process(const struct snapshot_rates *r, pid_t pid, struct lat_summary *out);

/* The interval histogram of thread t of r, or NULL (none). */
const struct lat_hist *runqlat_hist(const struct snapshot_rates *r, const struct thread_rate *t);

/* Buckets: their count, and bucket b's range [low, high) in ns (the last
 * high is UINT64_MAX). */
unsigned runqlat_buckets(void);
uint64_t runqlat_bucket_low(unsigned b);
uint64_t runqlat_bucket_high(unsigned b);
/* The bucket holding ns. */
unsigned runqlat_bucket_of(uint64_t ns);

/* The upper bounds (s) an exposition's histogram uses: bucket edges, each
 * four octaves apart, so each "le" count is exact; n of them, then +Inf. */
const double *runqlat_metric_bounds(size_t *n);
/* Events of h below le_s seconds (le_s one of runqlat_metric_bounds). */
uint64_t runqlat_count_below(const struct lat_hist *h, double le_s);

#endif
