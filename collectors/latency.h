/* latency.h — run-queue latency histograms: the time from a thread
 * becoming runnable to running, event by event.
 *
 * The BPF collector (bpf-tasks.h) counts each thread's events into
 * TL_LAT_BUCKETS log-linear buckets (bpf/tl-abi.h: four sub-buckets per
 * power of two above 1 us).  A thread sample holds its thread's counts
 * since the thread was first traced (cumulative, as schedstat's are); the
 * rates between two samples hold the interval's (the difference), from
 * which the p50, p99 and max a person reads come.  Pure functions over the
 * struct: they never read the system. */
#ifndef THREADLAB_LATENCY_H
#define THREADLAB_LATENCY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bpf/tl-abi.h"

#define LAT_BUCKETS TL_LAT_BUCKETS

struct lat_hist {
	uint32_t count[LAT_BUCKETS]; /* events per bucket (latency_bucket_low .. _high) */
	uint64_t events;	     /* sum of count */
	uint64_t sum_ns;	     /* the events' exact sum, ns */
	uint64_t max_ns;	     /* the largest event of the interval (in a sample: since the
				      * reader's previous read), ns; 0 unknown */
};

/* What a person reads of one histogram.  events 0: the quantiles are 0 and
 * mean nothing (no event in the interval). */
struct lat_summary {
	uint64_t events;
	double p50_s, p99_s, max_s, mean_s; /* seconds */
};

/* The bucket of ns, and the range [low, high) of bucket b in ns (the last
 * bucket's high is UINT64_MAX). */
unsigned latency_bucket(uint64_t ns);
uint64_t latency_bucket_low(unsigned b);
uint64_t latency_bucket_high(unsigned b);

void latency_hist_clear(struct lat_hist *h);
/* One event of ns into h. */
void latency_hist_add_ns(struct lat_hist *h, uint64_t ns);
/* dst += src (counts, sums; max the larger). */
void latency_hist_merge(struct lat_hist *dst, const struct lat_hist *src);
/* out = cur - prev for two cumulative histograms of one thread (counts
 * modulo 2^32, as the kernel side's u32 wrap); out->max_ns is cur's, held
 * within the range of out's highest bucket.  Returns false when cur is
 * not a later state of prev (a count fell by more than it can wrap: another
 * thread with the same TID); out is then cleared. */
bool latency_hist_delta(const struct lat_hist *cur, const struct lat_hist *prev,
			struct lat_hist *out);

/* The q-quantile (0 < q <= 1) in ns, linear inside its bucket; the top
 * bucket's part is held to max_ns when that is known.  0 without events. */
double latency_hist_quantile(const struct lat_hist *h, double q);
/* p50, p99, max and mean of h. */
void latency_summarize(const struct lat_hist *h, struct lat_summary *out);

#endif
