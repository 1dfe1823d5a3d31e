/* test-dash-sweep.c — the sweep key's state machine (dash-sweep.h): each
 * step waits for the lab to apply its setting, then measures, and the
 * sweep ends on the best setting; without a terminal. */
#include "config.h"
#include "knobs.h"

#include "tl-test.h"

#include <string.h>

#include "dash-keys.h"
#include "dash-sweep.h"
#include "tl-dash-keys.h"

/* What the lab view made of a lab in which every wanted stream applied
 * epoch e with t threads. */
static void lab_status_at(struct workload_report *st, struct labview *v, uint64_t e, int t,
			  double t0, double steady_s)
{
	memset(st, 0, sizeof(*st));
	st->epoch = e;
	st->applied = true;
	st->streams = 1;
	st->threads = t;
	st->nstreams = 1;
	st->stream[0].threads = t;
	memset(v, 0, sizeof(*v));
	v->steady.epoch = e;
	v->steady.state = 2;
	v->steady.t0 = t0;
	v->steady.t_last = t0 + steady_s;
}

static void test_sweep_state_machine(void **state)
{
	(void)state;
	struct dash d;
	struct settings w = knobs_defaults();
	struct workload_report st;
	struct labview v;
	tl_dash_fresh(&d);
	w.threads = 3;

	int f = dash_keys_handle(&d, &w, &tl_lab_ctx, 's');
	assert_true(f & DASH_KEY_APPLY);
	assert_true(d.sweep.active);
	assert_int_equal(w.threads, 1);
	assert_int_equal(d.sweep.t_max, 4); /* 2 x 2 effective CPUs */

	/* Not applied yet (old epoch in the steady window): waits. */
	lab_status_at(&st, &v, 5, 3, 1, 10);
	st.epoch = 6;
	assert_int_equal(dash_sweep_tick(&d.sweep, &w, &st, &v, 11), 0);
	/* Applied, but the steady window is still short. */
	lab_status_at(&st, &v, 6, 1, 10.5, 1.0);
	assert_int_equal(dash_sweep_tick(&d.sweep, &w, &st, &v, 12), 0);
	/* Long enough: next step. */
	/* A long window that began before the step does not count. */
	lab_status_at(&st, &v, 6, 1, 9, DASH_SWEEP_WINDOW + 3);
	assert_int_equal(dash_sweep_tick(&d.sweep, &w, &st, &v, 13), 0);
	lab_status_at(&st, &v, 6, 1, 10.5, DASH_SWEEP_WINDOW + 0.1);
	f = dash_sweep_tick(&d.sweep, &w, &st, &v, 13);
	assert_true(f & DASH_SWEEP_NEXT);
	assert_true(f & DASH_SWEEP_APPLY);
	assert_int_equal(w.threads, 2);
	/* A step that never settles times out and moves on. */
	lab_status_at(&st, &v, 7, 1, 13.5, 0);
	f = dash_sweep_tick(&d.sweep, &w, &st, &v, 13 + DASH_SWEEP_STEP_MAX + 1);
	assert_true(f & DASH_SWEEP_NEXT);
	assert_int_equal(w.threads, 3);
	assert_int_equal(d.sweep.skipped, 1);
	lab_status_at(&st, &v, 8, 3, 30, 3);
	dash_sweep_tick(&d.sweep, &w, &st, &v, 40);
	assert_int_equal(w.threads, 4);
	lab_status_at(&st, &v, 9, 4, 41, 3);
	f = dash_sweep_tick(&d.sweep, &w, &st, &v, 45);
	assert_true(f & DASH_SWEEP_DONE);
	assert_false(d.sweep.active);
	assert_int_equal(w.threads, 3); /* the user's setting is back */

	/* A knob key during a sweep cancels it from the user's setting. */
	dash_keys_handle(&d, &w, &tl_lab_ctx, 's');
	assert_int_equal(w.threads, 1);
	f = dash_keys_handle(&d, &w, &tl_lab_ctx, '+');
	assert_false(d.sweep.active);
	assert_int_equal(w.threads, 4);
	/* s during a sweep stops it and restores. */
	dash_keys_handle(&d, &w, &tl_lab_ctx, 's');
	dash_keys_handle(&d, &w, &tl_lab_ctx, 's');
	assert_false(d.sweep.active);
	assert_int_equal(w.threads, 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_sweep_state_machine),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
