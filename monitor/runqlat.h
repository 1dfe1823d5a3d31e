/* runqlat.h — run-queue latency for the faces: of a process, of a thread
 * (its histogram), and a histogram's buckets as the formats write them.
 *
 * The rows of a sample carry each thread's summary (model.h, latency);
 * what needs histograms (a thread's buckets in a recording, a process's
 * summed, a group's in the exposition) comes through here, in the
 * model's own histogram type. */
#ifndef THREADLAB_RUNQLAT_H
#define THREADLAB_RUNQLAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "model.h"

#define RUNQLAT_BUCKETS 112 /* four sub-buckets per octave above 1 µs (the BPF collector's) */

/* Waits counted by bucket (runqlat_bucket_low .. _high). */
struct runqlat_hist {
	uint32_t count[RUNQLAT_BUCKETS];
	uint64_t events; /* sum of count */
	uint64_t sum_ns; /* the waits' exact sum, ns */
	uint64_t max_ns; /* the longest wait, ns; 0 unknown */
};

/* The interval's latency of process pid's threads in m (their histograms
 * summed).  events 0 when none of them waited or none is traced. */
void runqlat_process(const struct model_sample *m, pid_t pid, struct model_latency *out);
/* The interval histogram of row t of m into out; false (out untouched)
 * when it has none. */
bool runqlat_thread_hist(const struct model_sample *m, const struct model_thread *t,
			 struct runqlat_hist *out);

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
uint64_t runqlat_count_below(const struct runqlat_hist *h, double le_s);

#endif
