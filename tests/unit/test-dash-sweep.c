/* test-dash-sweep.c — the sweep key and its state machine in the session
 * (session-sweep.h): each step waits for the lab to apply its setting,
 * then measures, and the sweep ends on the user's setting; without a
 * terminal. */
#include "config.h"
#include "knobs.h"

#include "tl-test.h"

#include <string.h>

#include "dash-keys.h"
#include "session-sweep.h"
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
	struct session s; /* a lab session not started: its want, work and view */
	memset(&s, 0, sizeof(s));
	s.kind = SESSION_LAB;
	s.want = knobs_defaults();
	struct settings *w = &s.want;
	struct workload_report *st = &s.work;
	struct labview *v = &s.view;
	struct dash_key_ctx c = tl_lab_ctx;
	c.session = &s;
	tl_dash_fresh(&d);
	w->threads = 3;

	int f = dash_keys_handle(&d, w, &c, 's');
	assert_true(f & DASH_KEY_APPLY);
	assert_true(s.sweep.active);
	assert_int_equal(w->threads, 1);
	assert_int_equal(s.sweep.t_max, 4); /* 2 x 2 effective CPUs */

	/* Not applied yet (old epoch in the steady window): waits. */
	lab_status_at(st, v, 5, 3, 1, 10);
	st->epoch = 6;
	assert_int_equal(session_sweep_tick(&s, 11), 0);
	/* Applied, but the steady window is still short. */
	lab_status_at(st, v, 6, 1, 10.5, 1.0);
	assert_int_equal(session_sweep_tick(&s, 12), 0);
	/* Long enough: next step. */
	/* A long window that began before the step does not count. */
	lab_status_at(st, v, 6, 1, 9, SESSION_SWEEP_WINDOW + 3);
	assert_int_equal(session_sweep_tick(&s, 13), 0);
	lab_status_at(st, v, 6, 1, 10.5, SESSION_SWEEP_WINDOW + 0.1);
	f = session_sweep_tick(&s, 13);
	assert_true(f & SESSION_SWEEP_NEXT);
	assert_true(f & SESSION_SWEEP_APPLY);
	assert_int_equal(w->threads, 2);
	/* A step that never settles times out and moves on. */
	lab_status_at(st, v, 7, 1, 13.5, 0);
	f = session_sweep_tick(&s, 13 + SESSION_SWEEP_STEP_MAX + 1);
	assert_true(f & SESSION_SWEEP_NEXT);
	assert_int_equal(w->threads, 3);
	assert_int_equal(s.sweep.skipped, 1);
	lab_status_at(st, v, 8, 3, 30, 3);
	session_sweep_tick(&s, 40);
	assert_int_equal(w->threads, 4);
	lab_status_at(st, v, 9, 4, 41, 3);
	f = session_sweep_tick(&s, 45);
	assert_true(f & SESSION_SWEEP_DONE);
	assert_false(s.sweep.active);
	assert_int_equal(w->threads, 3); /* the user's setting is back */

	/* A knob key during a sweep cancels it from the user's setting. */
	dash_keys_handle(&d, w, &c, 's');
	assert_int_equal(w->threads, 1);
	f = dash_keys_handle(&d, w, &c, '+');
	assert_false(s.sweep.active);
	assert_int_equal(w->threads, 4);
	/* s during a sweep stops it and restores. */
	dash_keys_handle(&d, w, &c, 's');
	dash_keys_handle(&d, w, &c, 's');
	assert_false(s.sweep.active);
	assert_int_equal(w->threads, 4);

	/* On a large machine the sweep stops at the threads knob's top. */
	c.effective = 1000;
	dash_keys_handle(&d, w, &c, 's');
	assert_int_equal(s.sweep.t_max, (int)knobs_get(KNOB_THREADS)->max);
	dash_keys_handle(&d, w, &c, 's');
	/* Attached to a process, there is no lab to sweep. */
	s.kind = SESSION_ATTACH;
	assert_false(dash_keys_handle(&d, w, &c, 's') & DASH_KEY_APPLY);
	assert_false(s.sweep.active);
	assert_int_equal(w->threads, 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_sweep_state_machine),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
