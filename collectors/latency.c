/* latency.c — run-queue latency histograms (latency.h).
 *
 * The bucket function is the one the BPF programs run (bpf/tl-abi.h), so
 * a bucket means the same range on both sides.  Quantiles interpolate
 * linearly inside a bucket: with four sub-buckets per octave that is at
 * worst the bucket's width, a quarter of its lower bound. */
#include "config.h"

#include "latency.h"

#include <string.h>

unsigned latency_bucket(uint64_t ns)
{
	return tl_lat_bucket(ns);
}

uint64_t latency_bucket_low(unsigned b)
{
	if (b == 0)
		return 0;
	if (b >= LAT_BUCKETS)
		b = LAT_BUCKETS - 1;
	unsigned k = TL_LAT_MIN_LOG + (b - 1) / TL_LAT_SUB, sub = (b - 1) % TL_LAT_SUB;
	return (1ull << k) + (uint64_t)sub * (1ull << (k - TL_LAT_SUB_BITS));
}

uint64_t latency_bucket_high(unsigned b)
{
	if (b + 1 >= LAT_BUCKETS)
		return UINT64_MAX;
	return latency_bucket_low(b + 1);
}

void latency_hist_clear(struct lat_hist *h)
{
	memset(h, 0, sizeof(*h));
}

void latency_hist_add_ns(struct lat_hist *h, uint64_t ns)
{
	h->count[latency_bucket(ns)]++;
	h->events++;
	h->sum_ns += ns;
	if (ns > h->max_ns)
		h->max_ns = ns;
}

void latency_hist_merge(struct lat_hist *dst, const struct lat_hist *src)
{
	if (src->max_ns > dst->max_ns)
		dst->max_ns = src->max_ns;
	if (src->events == 0)
		return; /* no counts to add (most threads' intervals) */
	for (unsigned b = 0; b < LAT_BUCKETS; b++)
		dst->count[b] += src->count[b];
	dst->events += src->events;
	dst->sum_ns += src->sum_ns;
}

/* The highest bucket with an event, or -1. */
static int lat_top(const struct lat_hist *h)
{
	for (int b = LAT_BUCKETS - 1; b >= 0; b--)
		if (h->count[b])
			return b;
	return -1;
}

bool latency_hist_delta(const struct lat_hist *cur, const struct lat_hist *prev,
			struct lat_hist *out)
{
	uint64_t events = 0;
	memset(out, 0, sizeof(*out));
	if (cur->events < prev->events || cur->sum_ns < prev->sum_ns)
		return false;
	for (unsigned b = 0; b < LAT_BUCKETS; b++) {
		out->count[b] = cur->count[b] - prev->count[b]; /* modulo 2^32 */
		events += out->count[b];
	}
	/* The counts cannot hold more events than the totals say happened:
	 * a histogram that does is another thread's. */
	if (events > cur->events - prev->events + LAT_BUCKETS) {
		memset(out, 0, sizeof(*out));
		return false;
	}
	out->events = events;
	out->sum_ns = cur->sum_ns - prev->sum_ns;
	int top = lat_top(out);
	if (top >= 0) {
		/* The reader's max may miss an event (several readers, or an
		 * event racing the read): the top bucket bounds it. */
		uint64_t lo = latency_bucket_low((unsigned)top),
			 hi = latency_bucket_high((unsigned)top);
		uint64_t m = cur->max_ns;
		out->max_ns = m < lo ? lo : m >= hi ? hi - 1 : m;
	}
	return true;
}

/* The value at rank (1-based, fractional) of h, whose highest non-empty
 * bucket is top, linear inside its bucket; the top bucket's part is held
 * to max_ns when that is known. */
static double lat_at_rank(const struct lat_hist *h, int top, int b, double below, double rank)
{
	double c = h->count[b];
	double lo = (double)latency_bucket_low((unsigned)b);
	double hi = b == top && h->max_ns > 0 ? (double)h->max_ns + 1
		    : b + 1 >= LAT_BUCKETS    ? lo * 1.25
					      : (double)latency_bucket_high((unsigned)b);
	if (hi < lo)
		hi = lo;
	double x = lo + (hi - lo) * (rank - below) / c;
	return b == top && h->max_ns > 0 && x > (double)h->max_ns ? (double)h->max_ns : x;
}

/* Quantiles q[0..n) (ascending) of h into out[], in one pass. */
static void lat_quantiles(const struct lat_hist *h, const double *q, double *out, int n)
{
	int top = lat_top(h), k = 0;
	double seen = 0;
	for (int i = 0; i < n; i++)
		out[i] = 0;
	if (h->events == 0 || top < 0)
		return;
	for (int b = 0; b <= top && k < n; b++) {
		double c = h->count[b];
		if (c <= 0)
			continue;
		while (k < n && seen + c >= (q[k] > 1 ? 1 : q[k]) * (double)h->events) {
			out[k] =
			    lat_at_rank(h, top, b, seen, (q[k] > 1 ? 1 : q[k]) * (double)h->events);
			k++;
		}
		seen += c;
	}
	for (; k < n; k++) /* counts torn against events: the top of the histogram */
		out[k] =
		    h->max_ns > 0 ? (double)h->max_ns : (double)latency_bucket_low((unsigned)top);
}

double latency_hist_quantile(const struct lat_hist *h, double q)
{
	double v;
	lat_quantiles(h, &q, &v, 1);
	return v;
}

void latency_summarize(const struct lat_hist *h, struct lat_summary *out)
{
	static const double q[2] = {0.50, 0.99};
	double v[2];
	memset(out, 0, sizeof(*out));
	out->events = h->events;
	if (h->events == 0)
		return;
	lat_quantiles(h, q, v, 2);
	out->p50_s = v[0] / 1e9;
	out->p99_s = v[1] / 1e9;
	int top = lat_top(h);
	double max = h->max_ns > 0 ? (double)h->max_ns
		     : top >= 0	   ? (double)latency_bucket_high((unsigned)top)
				   : 0;
	out->max_s = max / 1e9;
	if (out->max_s < out->p99_s)
		out->max_s = out->p99_s;
	out->mean_s = (double)h->sum_ns / (double)h->events / 1e9;
}
