/* test-knobs-view.c — the lab's knobs in the workload object
 * (monitor/knobs-view.h): every knob of the experiment log stands there
 * once, under the knob's name (the build under "blas_build", as
 * recordings have it), and a report's settings read back as they were
 * written; a count is kept within a knob's range. */
#include "config.h"

#include "tl-test.h"

#include <string.h>

#include "knobs-view.h"

static void test_every_logged_knob_once(void **state)
{
	(void)state;
	size_t n;
	const struct knobs_view_json *e = knobs_view_json(&n);
	int seen[KNOB_COUNT] = {0};
	for (size_t i = 0; i < n; i++) {
		const struct knob *k = knobs_get(e[i].knob);
		assert_non_null(k);
		assert_true(k->flags & KNOB_LAB);
		seen[e[i].knob]++;
		if (e[i].knob == KNOB_BLAS)
			assert_string_equal(knobs_view_json_key(&e[i]), "blas_build");
		else
			assert_string_equal(knobs_view_json_key(&e[i]), k->name);
	}
	for (int k = KNOB_NONE + 1; k < KNOB_COUNT; k++) {
		const struct knob *x = knobs_get((enum knob_id)k);
		if (x->flags & KNOB_LOGGED)
			assert_int_equal(seen[k], 1);
		else
			assert_true(seen[k] <= 1);
	}
	/* The order recordings have had. */
	static const char *const order[] = {
	    "threads", "streams",   "size",	  "precision", "kernel",  "workers", "cpus",
	    "paused",  "blas_spin", "blas_build", "loaders",   "prep_ms", "prefetch"};
	assert_int_equal(n, sizeof(order) / sizeof(order[0]));
	for (size_t i = 0; i < n; i++)
		assert_string_equal(knobs_view_json_key(&e[i]), order[i]);
}

static void test_report_round_trip(void **state)
{
	(void)state;
	struct settings s = knobs_defaults(), back;
	s.threads = 3, s.streams = 2, s.size = 512, s.precision = SETTINGS_DOUBLE;
	s.workers = 1, s.cpus = 1.5, s.paused = true, s.spin_off = true;
	s.blas = SETTINGS_BLAS_OPENMP, s.loaders = 2, s.prep_ms = 7, s.prefetch = 3;
	struct workload_report w;
	memset(&w, 0, sizeof(w));
	knobs_view_to_report(&s, &w);
	assert_string_equal(w.precision, "double");
	assert_string_equal(w.blas, "openmp");
	knobs_view_of_report(&w, &back);
	for (int k = KNOB_NONE + 1; k < KNOB_COUNT; k++)
		if (k != KNOB_KERNEL && k != KNOB_INTERVAL)
			assert_true(knobs_value(&s, (enum knob_id)k) ==
				    knobs_value(&back, (enum knob_id)k));
	/* A word no value has: the knob's default. */
	assert_int_equal((int)knobs_view_of_word(KNOB_PRECISION, "quad"), SETTINGS_SINGLE);
	assert_int_equal((int)knobs_view_of_word(KNOB_SPIN, "off"), 1);
	assert_int_equal((int)knobs_view_of_word(KNOB_KERNEL, "triad"), SETTINGS_TRIAD);
}

static void test_clamp(void **state)
{
	(void)state;
	int top = (int)knobs_get(KNOB_THREADS)->max;
	assert_int_equal(knobs_view_clamp(KNOB_THREADS, top + 5, 2), top);
	assert_int_equal(knobs_view_clamp(KNOB_THREADS, 1, 2), 2);
	assert_int_equal(knobs_view_clamp(KNOB_THREADS, 0, 0), 1); /* the range's start */
	assert_int_equal(knobs_view_clamp(KNOB_PREP_MS, 0, 1), 1);
	assert_int_equal(knobs_view_clamp(KNOB_NONE, 12345, 0), 12345);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_every_logged_knob_once),
	    cmocka_unit_test(test_report_round_trip),
	    cmocka_unit_test(test_clamp),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
