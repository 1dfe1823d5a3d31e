/* runqlat.c — run-queue latency for the faces (runqlat.h), and the
 * model's histogram filled from the collectors' (model-impl.h). */
#include "config.h"

#include "runqlat.h"

#include <math.h>
#include <string.h>

#include "model-impl.h"
#include "runqlat-impl.h"

_Static_assert(RUNQLAT_BUCKETS == LAT_BUCKETS, "latency buckets");

void runqlat_hist_of(const struct lat_hist *h, struct runqlat_hist *out)
{
	memcpy(out->count, h->count, sizeof(out->count));
	out->events = h->events;
	out->sum_ns = h->sum_ns;
	out->max_ns = h->max_ns;
}

void runqlat_hist_add(struct runqlat_hist *dst, const struct lat_hist *src)
{
	for (unsigned b = 0; b < RUNQLAT_BUCKETS; b++)
		dst->count[b] += src->count[b];
	dst->events += src->events;
	dst->sum_ns += src->sum_ns;
	if (src->max_ns > dst->max_ns)
		dst->max_ns = src->max_ns;
}

void runqlat_process(const struct model_sample *m, pid_t pid, struct model_latency *out)
{
	const struct snapshot_rates *r = model_rates(m);
	struct lat_hist h;
	latency_hist_clear(&h);
	/* Rows are sorted by (pid, tid): find the first of pid. */
	size_t lo = 0, hi = m->nthreads;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (m->threads[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; r && i < m->nthreads && m->threads[i].pid == pid; i++) {
		uint32_t ref = m->threads[i].lat_ref;
		if (ref && ref <= r->nlat)
			latency_hist_merge(&h, &r->lat[ref - 1]);
	}
	model_summarize(&h, out);
}

bool runqlat_thread_hist(const struct model_sample *m, const struct model_thread *t,
			 struct runqlat_hist *out)
{
	const struct snapshot_rates *r = model_rates(m);
	if (!r || !t->lat_ref || t->lat_ref > r->nlat)
		return false;
	runqlat_hist_of(&r->lat[t->lat_ref - 1], out);
	return true;
}

unsigned runqlat_buckets(void)
{
	return RUNQLAT_BUCKETS;
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

uint64_t runqlat_count_below(const struct runqlat_hist *h, double le_s)
{
	uint64_t n = 0;
	double le_ns = le_s * 1e9;
	for (unsigned b = 0; b < RUNQLAT_BUCKETS; b++)
		if ((double)latency_bucket_high(b) <= le_ns + 0.5)
			n += h->count[b];
	return n;
}
