/* runqlat.c — run-queue latency for the faces (runqlat.h). */
#include "config.h"

#include "runqlat.h"

#include <math.h>

void runqlat_process(const struct snapshot_rates *r, pid_t pid, struct lat_summary *out)
{
	struct lat_hist h;
	latency_hist_clear(&h);
	/* Rates are sorted by (pid, tid): find the first of pid. */
	size_t lo = 0, hi = r->nthreads;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (r->threads[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i < r->nthreads && r->threads[i].pid == pid; i++)
		if (r->threads[i].lat_ref)
			latency_hist_merge(&h, &r->lat[r->threads[i].lat_ref - 1]);
	latency_summarize(&h, out);
}

const struct lat_hist *runqlat_hist(const struct snapshot_rates *r, const struct thread_rate *t)
{
	return t->lat_ref && t->lat_ref <= r->nlat ? &r->lat[t->lat_ref - 1] : NULL;
}

unsigned runqlat_buckets(void)
{
	return LAT_BUCKETS;
}

uint64_t runqlat_bucket_low(unsigned b)
{
	return latency_bucket_low(b);
}

uint64_t runqlat_bucket_high(unsigned b)
{
	return latency_bucket_high(b);
}

unsigned runqlat_bucket_of(uint64_t ns)
{
	return latency_bucket(ns);
}

/* 2^10, 2^12, ... 2^34 ns: 1.024 us to 17.2 s. */
static double runqlat_bounds[13];

const double *runqlat_metric_bounds(size_t *n)
{
	*n = sizeof(runqlat_bounds) / sizeof(runqlat_bounds[0]);
	if (runqlat_bounds[0] == 0)
		for (size_t i = 0; i < *n; i++)
			runqlat_bounds[i] = ldexp(1.0, 10 + 2 * (int)i) / 1e9;
	return runqlat_bounds;
}

uint64_t runqlat_count_below(const struct lat_hist *h, double le_s)
{
	uint64_t n = 0;
	double le_ns = le_s * 1e9;
	for (unsigned b = 0; b < LAT_BUCKETS; b++)
		if ((double)latency_bucket_high(b) <= le_ns + 0.5)
			n += h->count[b];
	return n;
}
