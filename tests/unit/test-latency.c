/* test-latency.c — the run-queue latency histogram: bucket edges, the
 * quantiles read from it, interval differences (collectors/latency.c), and
 * the interval rates of two thread sets (collectors/thread-latency.c).
 *
 * The bucket function is the one the BPF programs run (bpf/tl-abi.h), so
 * its edges are checked against the ranges the readers assume. */
#include "config.h"

#include "tl-test.h"

#include <math.h>

#include "latency.h"
#include "threads.h"
#include "thread-set.h"
#include "thread-rates.h"
#include "thread-latency.h"

/* Every bucket's range holds exactly the values the bucket function puts
 * there, the ranges tile 0..2^64, and none is wider than a quarter of its
 * lower edge above 1 us: so a quantile is good to 12.5 % either way. */
static void test_bucket_edges(void **state)
{
	(void)state;
	assert_int_equal(latency_bucket(0), 0);
	assert_int_equal(latency_bucket(1023), 0);
	assert_int_equal(latency_bucket(1024), 1);
	for (unsigned b = 1; b < LAT_BUCKETS; b++) {
		uint64_t lo = latency_bucket_low(b), hi = latency_bucket_high(b);
		assert_true(lo == latency_bucket_high(b - 1));
		assert_int_equal(latency_bucket(lo), b);
		assert_int_equal(latency_bucket(lo - 1), b - 1);
		if (b + 1 < LAT_BUCKETS) {
			assert_int_equal(latency_bucket(hi - 1), b);
			assert_true((double)(hi - lo) <= 0.25 * (double)lo + 0.5);
		}
	}
	assert_int_equal(latency_bucket(UINT64_MAX), LAT_BUCKETS - 1);
	assert_true(latency_bucket_high(LAT_BUCKETS - 1) == UINT64_MAX);
	/* At least four sub-buckets in each octave. */
	assert_true(latency_bucket(2u << 20) - latency_bucket(1u << 20) >= 4);
}

/* A uniform spread of 1..10 ms and a tail at 40 ms: p50 and p99 land in
 * the right place within a bucket's width, max is the largest event. */
static void test_quantiles(void **state)
{
	(void)state;
	struct lat_hist h;
	latency_hist_clear(&h);
	for (int i = 0; i < 9900; i++)
		latency_hist_add_ns(&h, 1000000ull + (uint64_t)i * 909ull);
	for (int i = 0; i < 100; i++)
		latency_hist_add_ns(&h, 40000000ull + (uint64_t)i * 1000ull);
	struct lat_summary s;
	latency_summarize(&h, &s);
	assert_int_equal(s.events, 10000);
	double p50 = 1e-3 + 4950 * 909e-9;
	assert_true(fabs(s.p50_s - p50) <= 0.125 * p50);
	/* the 9,900th event is the last of the spread: p99 just below 10 ms */
	assert_true(s.p99_s >= 0.875 * 9.9e-3 && s.p99_s <= 1.125 * 10e-3);
	assert_true(fabs(s.max_s - 40.099e-3) < 1e-9);
	assert_true(s.p50_s <= s.p99_s && s.p99_s <= s.max_s);
	double mean = (9900 * (1e-3 + 4949.5 * 909e-9) + 100 * (40e-3 + 49.5e-6)) / 10000;
	assert_true(fabs(s.mean_s - mean) < 1e-9);
	latency_hist_clear(&h);
	latency_summarize(&h, &s);
	assert_int_equal(s.events, 0);
	assert_true(s.p99_s == 0 && s.max_s == 0);
}

/* The difference of two cumulative histograms of one thread is the
 * interval's, counts wrapping modulo 2^32 as the kernel side's do; a
 * histogram that is not a later state of the other is refused. */
static void test_delta(void **state)
{
	(void)state;
	struct lat_hist a, b, d;
	latency_hist_clear(&a);
	for (int i = 0; i < 50; i++)
		latency_hist_add_ns(&a, 5000);
	b = a;
	for (int i = 0; i < 20; i++)
		latency_hist_add_ns(&b, 2000000);
	b.max_ns = 2000000;
	assert_true(latency_hist_delta(&b, &a, &d));
	assert_int_equal(d.events, 20);
	assert_int_equal(d.count[latency_bucket(2000000)], 20);
	assert_int_equal(d.count[latency_bucket(5000)], 0);
	assert_true(d.max_ns == 2000000);
	/* a max the reader missed is held to the top bucket's range */
	b.max_ns = 7000;
	assert_true(latency_hist_delta(&b, &a, &d));
	assert_true(d.max_ns >= latency_bucket_low(latency_bucket(2000000)));
	/* counts near 2^32 wrap */
	a.count[3] = UINT32_MAX - 1;
	b = a;
	b.count[3] += 5; /* wraps to 3 */
	b.events += 5;
	assert_true(latency_hist_delta(&b, &a, &d));
	assert_int_equal(d.count[3], 5);
	/* another thread's, smaller: refused */
	assert_false(latency_hist_delta(&a, &b, &d));
	assert_int_equal(d.events, 0);
}

/* Two sets of the same threads: the interval's latency per thread, none
 * for a thread whose TID another thread took, and all of it for a thread
 * first traced inside the interval. */
static void test_rates_latency(void **state)
{
	(void)state;
	struct thread_set p, c;
	thread_set_init(&p);
	thread_set_init(&c);
	p.time = 1.0, c.time = 2.0;
	p.lat_on = c.lat_on = true;
	struct thread_sample t[3];
	memset(t, 0, sizeof(t));
	for (int i = 0; i < 3; i++) {
		t[i].pid = 10;
		t[i].tid = 10 + i;
		t[i].starttime = 5;
		t[i].name_len = 1;
		t[i].name[0] = 'x';
	}
	p.v = calloc(3, sizeof(*p.v));
	c.v = calloc(3, sizeof(*c.v));
	memcpy(p.v, t, sizeof(t));
	memcpy(c.v, t, sizeof(t));
	p.n = c.n = 3;
	p.lat = calloc(1, sizeof(*p.lat));
	c.lat = calloc(3, sizeof(*c.lat));
	/* thread 10: traced in both; 11: first traced in cur; 12: TID reused */
	for (int i = 0; i < 10; i++)
		latency_hist_add_ns(&p.lat[0], 3000);
	c.lat[0] = p.lat[0];
	for (int i = 0; i < 4; i++)
		latency_hist_add_ns(&c.lat[0], 8000000);
	latency_hist_add_ns(&c.lat[1], 50000);
	latency_hist_add_ns(&c.lat[2], 60000);
	p.nlat = 1;
	c.nlat = 3;
	p.v[0].lat_ref = 1;
	c.v[0].lat_ref = 1, c.v[1].lat_ref = 2, c.v[2].lat_ref = 3;
	c.v[2].starttime = 9;
	struct thread_rate *r = NULL;
	size_t cap = 0, nlat = 0, lcap = 0;
	struct lat_hist *lat = NULL;
	size_t n = thread_rates(&p, &c, &r, &cap);
	thread_latency_rates(&p, &c, r, n, &lat, &nlat, &lcap);
	assert_int_equal(nlat, 2);
	assert_int_equal(r[0].latency.events, 4);
	assert_true(r[0].latency.p50_s > 7e-3 && r[0].latency.p50_s < 9e-3);
	assert_int_equal(r[1].latency.events, 1);
	assert_true(r[2].is_new);
	assert_int_equal(r[2].lat_ref, 0);
	assert_int_equal(r[2].latency.events, 0);
	free(r);
	free(lat);
	thread_set_free(&p);
	thread_set_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_bucket_edges),
	    cmocka_unit_test(test_quantiles),
	    cmocka_unit_test(test_delta),
	    cmocka_unit_test(test_rates_latency),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
