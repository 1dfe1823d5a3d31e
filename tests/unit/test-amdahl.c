/* test-amdahl.c — monitor/amdahl.c: the serial fraction fitted exactly to
 * speedups made from a known one, left-out points, Karp-Flatt, predictions. */
#include "tl-test.h"

#include <errno.h>
#include <math.h>

#include "amdahl.h"
#include "settings-lab.h"
#include "sweep-fit.h"

static void test_law(void **state)
{
	(void)state;
	assert_near(amdahl_speedup(0.2, 2, 8), 1 / 0.6, 1e-12);
	assert_near(amdahl_speedup(0.2, 4, 2), 1 / 0.6, 1e-12); /* capped by the CPUs */
	assert_near(amdahl_speedup(0, 3, 1.5), 1.5, 1e-12);	/* a real number of CPUs */
	assert_near(amdahl_speedup(1, 8, 8), 1, 1e-12);
	assert_near(amdahl_speedup(0.1, 1, 4), 1, 1e-12);
	/* 1/S = 0.6 at 2 threads: e = (0.6 - 0.5) / 0.5 */
	assert_near(amdahl_karp_flatt(1 / 0.6, 2, 0), 0.2, 1e-12);
	assert_near(amdahl_karp_flatt(1 / 0.6, 2, 4), 0.2, 1e-12);
	/* at the parallelism the point could have: 4 threads on 2 CPUs are 2 */
	assert_near(amdahl_karp_flatt(1 / 0.6, 4, 2), 0.2, 1e-12);
	/* 2 threads on 1.5 CPUs: e = (1/1.25 - 1/1.5) / (1 - 1/1.5) = 0.4 */
	assert_near(amdahl_karp_flatt(1.25, 2, 1.5), 0.4, 1e-12);
	assert_true(isnan(amdahl_karp_flatt(1, 1, 0)));
	assert_true(isnan(amdahl_karp_flatt(0, 2, 0)));
	assert_true(isnan(amdahl_karp_flatt(1.5, 2, 1))); /* one CPU: nothing to tell */
	/* beyond: more threads than the whole CPUs */
	assert_false(amdahl_beyond(2, 2));
	assert_true(amdahl_beyond(3, 2));
	assert_false(amdahl_beyond(2, 1.5)); /* 2 threads on a 1.5-CPU quota of 2 cores */
	assert_true(amdahl_beyond(3, 1.5));
	assert_false(amdahl_beyond(64, 0));
}

/* Speedups made from s on C CPUs at threads 1 .. tmax give s back. */
static void check_recovers(double s, double cpus, int tmax)
{
	struct amdahl_set set;
	amdahl_set_init(&set);
	for (int t = 1; t <= tmax; t++)
		assert_int_equal(amdahl_set_add(&set, t, amdahl_speedup(s, t, cpus), false), 0);
	struct amdahl_fit f;
	assert_int_equal(amdahl_fit(&set, cpus, &f), 0);
	assert_true(f.valid);
	assert_near(f.serial_fraction, s, 1e-9);
	if (s < 1)
		assert_near(f.r2, 1, 1e-9);
	else /* every speedup 1: nothing to explain */
		assert_true(isnan(f.r2));
	/* threads above the whole CPUs are counted apart, never fitted */
	int within = tmax < (int)ceil(cpus - 1e-9) ? tmax : (int)ceil(cpus - 1e-9);
	assert_int_equal(f.points_used, within);
	assert_int_equal(f.points_beyond, tmax - within);
	assert_int_equal(f.points_excluded, 0);
	assert_near(f.threads_min, 1, 0);
	assert_near(f.threads_max, within, 0);
}

static void test_exact(void **state)
{
	(void)state;
	check_recovers(0.2, 2, 4);
	check_recovers(0.06, 8, 8);
	check_recovers(0.5, 1.5, 3);
	check_recovers(0, 4, 4);
	check_recovers(1, 4, 4);
	check_recovers(0.3337, 16, 12);
}

/* Points the diagnosis read as contended are counted, not fitted. */
static void test_excluded(void **state)
{
	(void)state;
	struct amdahl_set set;
	amdahl_set_init(&set);
	amdahl_set_add(&set, 1, 1, false);
	amdahl_set_add(&set, 2, amdahl_speedup(0.1, 2, 4), false);
	amdahl_set_add(&set, 3, 0.4, true);
	amdahl_set_add(&set, 4, amdahl_speedup(0.1, 4, 4), false);
	amdahl_set_add(&set, 5, NAN, false); /* no rate: not a point */
	assert_int_equal(set.n, 4);
	struct amdahl_fit f;
	assert_int_equal(amdahl_fit(&set, 4, &f), 0);
	assert_near(f.serial_fraction, 0.1, 1e-9);
	assert_int_equal(f.points_used, 3);
	assert_int_equal(f.points_excluded, 1);
	assert_near(f.kf_min, 0.1, 1e-9);
	assert_near(f.kf_max, 0.1, 1e-9);
	/* Only the left-out point above 1 worker: no fit. */
	amdahl_set_init(&set);
	amdahl_set_add(&set, 1, 1, false);
	amdahl_set_add(&set, 2, 1.5, true);
	assert_int_equal(amdahl_fit(&set, 2, &f), -EDOM);
	assert_false(f.valid);
	assert_int_equal(f.points_excluded, 1);
	/* One CPU: more threads say nothing about s. */
	amdahl_set_add(&set, 2, 1.0, false);
	assert_int_equal(amdahl_fit(&set, 1, &f), -EDOM);
}

/* A sweep over 1 and 2 threads: the fit is the 2-thread row's Karp-Flatt. */
static void test_two_points(void **state)
{
	(void)state;
	struct amdahl_set set;
	amdahl_set_init(&set);
	amdahl_set_add(&set, 1, 1, false);
	amdahl_set_add(&set, 2, 1.61, false);
	struct amdahl_fit f;
	assert_int_equal(amdahl_fit(&set, 2, &f), 0);
	assert_near(f.serial_fraction, amdahl_karp_flatt(1.61, 2, 2), 1e-9);
	assert_near(f.kf_min, f.serial_fraction, 1e-9);
}

/* Noisy speedups: no s nearby does better, and a fine scan of its own
 * finds the same minimum. */
static void test_noisy(void **state)
{
	(void)state;
	const double sp[] = {1.0, 1.71, 2.2, 2.9, 3.05, 3.6};
	struct amdahl_set set;
	amdahl_set_init(&set);
	for (int i = 0; i < 6; i++)
		amdahl_set_add(&set, i + 1, sp[i], false);
	struct amdahl_fit f;
	assert_int_equal(amdahl_fit(&set, 6, &f), 0);
	double s = f.serial_fraction, best = 0, fbest = INFINITY;
	for (int i = 0; i <= 1000000; i++) {
		double e = amdahl_sse(&set, i / 1e6, 6);
		if (e < fbest) {
			fbest = e;
			best = i / 1e6;
		}
	}
	assert_near(s, best, 2e-6);
	assert_true(amdahl_sse(&set, s, 6) <= amdahl_sse(&set, s + 1e-4, 6));
	assert_true(amdahl_sse(&set, s, 6) <= amdahl_sse(&set, s - 1e-4, 6));
	assert_true(f.r2 > 0.9 && f.r2 < 1);
	assert_true(f.kf_min < f.kf_max);
}

/* Predictions: the measured thread counts on this box's CPUs, then 2C and
 * 4C CPUs, marked beyond it. */
static void test_predictions(void **state)
{
	(void)state;
	struct amdahl_set set;
	amdahl_set_init(&set);
	for (int t = 1; t <= 3; t++)
		amdahl_set_add(&set, t, amdahl_speedup(0.06, t, 2), false);
	struct amdahl_fit f;
	assert_int_equal(amdahl_fit(&set, 2, &f), 0);
	assert_int_equal(f.npred, 4);
	assert_near(f.pred[0].threads, 2, 0);
	assert_false(f.pred[0].beyond);
	assert_near(f.pred[0].speedup, 1 / (0.06 + 0.94 / 2), 1e-9);
	assert_near(f.pred[1].threads, 3, 0);
	assert_true(f.pred[1].beyond); /* 3 threads on 2 CPUs: above the box */
	assert_near(f.pred[1].speedup, f.pred[0].speedup, 1e-9);
	assert_near(f.pred[2].cpus, 4, 0);
	assert_true(f.pred[2].beyond);
	assert_near(f.pred[2].speedup, 1 / (0.06 + 0.94 / 4), 1e-9);
	assert_near(f.pred[3].cpus, 8, 0);
}

/* The command sweep's thread knob, and which rows are points. */
static void test_cmd_rows(void **state)
{
	(void)state;
	struct sweep_cmd_opts o;
	char err[128];
	sweep_cmd_opts_default(&o);
	assert_int_equal(sweep_cmd_add_knob(&o, "MODE=a,b", err, sizeof(err)), 0);
	assert_int_equal(sweep_cmd_add_knob(&o, "OMP_DYNAMIC=true,false", err, sizeof(err)), 0);
	assert_int_equal(sweep_fit_cmd_knob(&o), -1);
	assert_int_equal(sweep_cmd_add_knob(&o, "OMP_NUM_THREADS=1,2,4", err, sizeof(err)), 0);
	assert_int_equal(sweep_fit_cmd_knob(&o), 2);
	struct sweep_cmd_row r = {.nknobs = 3,
				  .name = {"MODE", "OMP_DYNAMIC", "OMP_NUM_THREADS"},
				  .value = {"a", "true", "4"}};
	assert_near(sweep_fit_cmd_threads(&o, &r), 4, 0);
	r.value[0] = "b"; /* another knob moved: not a scaling point */
	assert_true(isnan(sweep_fit_cmd_threads(&o, &r)));
	/* A baseline of 2 threads: speedups are not to 1 thread. */
	sweep_cmd_opts_default(&o);
	sweep_cmd_add_knob(&o, "OPENBLAS_NUM_THREADS=2,4", err, sizeof(err));
	struct sweep_cmd_row q = {.nknobs = 1, .name = {"OPENBLAS_NUM_THREADS"}, .value = {"4"}};
	assert_true(isnan(sweep_fit_cmd_threads(&o, &q)));
	assert_near(sweep_fit_cpus(2, 0), 2, 0);
	assert_near(sweep_fit_cpus(2, 1.5), 1.5, 0);
	assert_true(sweep_fit_left_out(VERDICT_CONTENDED, false));
	assert_true(sweep_fit_left_out(VERDICT_THROTTLED, false));
	assert_false(sweep_fit_left_out(VERDICT_OVERSUBSCRIBED, false));
	assert_true(sweep_fit_left_out(VERDICT_OVERSUBSCRIBED, true)); /* crowded out too */
}

/* The caption: predictions on this box, then beyond it, labelled. */
static void test_caption(void **state)
{
	(void)state;
	struct amdahl_set set;
	amdahl_set_init(&set);
	amdahl_set_add(&set, 1, 1, false);
	amdahl_set_add(&set, 2, amdahl_speedup(0.06, 2, 2), false);
	amdahl_set_add(&set, 3, 1.2, true);
	struct amdahl_fit f;
	char buf[512];
	assert_int_equal(amdahl_fit(&set, 2, &f), 0);
	sweep_fit_caption(buf, sizeof(buf), &f);
	printf("# %s\n", buf);
	assert_string_equal(buf,
			    "Amdahl fit: serial fraction 0.06 (Karp-Flatt 0.06-0.06, 2 points at 1-2 "
			    "threads, r2 1.00, 1 left out (marked *): contended or throttled), predicts "
			    "1.9x at 2 "
			    "threads; a prediction beyond this box's 2 CPUs: 3.4x at 4 CPUs, "
			    "5.6x at 8 CPUs");
	set.p[1].excluded = true;
	amdahl_fit(&set, 2, &f);
	sweep_fit_caption(buf, sizeof(buf), &f);
	assert_string_equal(buf, "Amdahl fit: none (2 points left out, contended or throttled; "
				 "none above 1 thread is left)");
	sweep_fit_caption(buf, 20, &f); /* cut, never past the buffer */
	assert_int_equal(strlen(buf), 19);
}

/* A lab sweep of 1 to 4 threads on 2 CPUs: the rows above 2 threads
 * measure what threads cost beyond the CPUs, not the serial fraction; fitted,
 * they made s 0.60 where the 2-thread row alone says 0.08. */
static void test_beyond(void **state)
{
	(void)state;
	struct amdahl_set set;
	amdahl_set_init(&set);
	amdahl_set_add(&set, 1, 1, false);
	amdahl_set_add(&set, 2, 1.85, false);
	amdahl_set_add(&set, 3, 1.39, false);
	amdahl_set_add(&set, 4, 1.11, false);
	struct amdahl_fit f;
	char buf[512];
	assert_int_equal(amdahl_fit(&set, 2, &f), 0);
	assert_near(f.serial_fraction, amdahl_karp_flatt(1.85, 2, 2), 1e-9);
	assert_true(f.serial_fraction < 0.1);
	assert_int_equal(f.points_used, 2);
	assert_int_equal(f.points_beyond, 2);
	assert_near(f.kf_max, f.serial_fraction, 1e-9); /* no Karp-Flatt of 4 threads */
	sweep_fit_caption(buf, sizeof(buf), &f);
	printf("# %s\n", buf);
	assert_non_null(strstr(buf, "2 points at 1-2 threads, r2 1.00, 2 left out (marked *): "
				    "more threads than the 2 CPUs)"));
	sweep_fit_caption_brief(buf, sizeof(buf), &f);
	assert_non_null(strstr(buf, "Amdahl s=0.08 (2 pts, Karp-Flatt 0.08-0.08)"));
	/* the 2-thread row contended as well: nothing left to fit, and why */
	set.p[1].excluded = true;
	assert_int_equal(amdahl_fit(&set, 2, &f), -EDOM);
	sweep_fit_caption(buf, sizeof(buf), &f);
	assert_string_equal(buf, "Amdahl fit: none (3 points left out, 1 contended or throttled, "
				 "2 with more threads than the 2 CPUs; none above 1 thread is "
				 "left)");
	sweep_fit_caption_brief(buf, sizeof(buf), &f);
	assert_string_equal(buf, "Amdahl: no fit (3 left out: contended/throttled, more threads "
				 "than CPUs)");
	set.p[1].excluded = false;
	set.p[1].threads = 3; /* every point above 1 thread beyond the CPUs */
	amdahl_fit(&set, 2, &f);
	sweep_fit_caption_brief(buf, sizeof(buf), &f);
	assert_string_equal(buf, "Amdahl: no fit (3 left out: more threads than CPUs)");
	amdahl_set_init(&set);
	amdahl_set_add(&set, 1, 1, false);
	amdahl_fit(&set, 2, &f);
	sweep_fit_caption_brief(buf, sizeof(buf), &f);
	assert_string_equal(buf, "Amdahl: no fit (no point above 1 thread)");
	/* the lab's 2 streams x 2 threads on 2 CPUs: starred, not fitted */
	assert_true(sweep_fit_marked(sweep_fit_left_out(VERDICT_OVERSUBSCRIBED, false), 4, 2));
	assert_false(sweep_fit_marked(sweep_fit_left_out(VERDICT_FINE, false), 2, 2));
	assert_true(sweep_fit_marked(sweep_fit_left_out(VERDICT_CONTENDED, false), 2, 2));
}

/* The dashboard's chart points: current ones at streams x threads,
 * starred ones and loaders' left out. */
static void test_labview(void **state)
{
	(void)state;
	static struct labview v;
	v.effective = 2;
	const double single = 100;
	struct labview_point pts[] = {
	    {1, 1, 768, 0, single, 2, 2, 0, 0, 0, false},
	    {1, 2, 768, 0, single * amdahl_speedup(0.1, 2, 2), 2, 2, 0, 0, 0, false},
	    {2, 2, 768, 0, single * amdahl_speedup(0.1, 4, 2), 2, 2, 0, 0, 0, false},
	    {1, 3, 768, 0, 20, 2, 2, 0, 0, 0, true},   /* contended */
	    {1, 4, 768, 0, 20, 2, 2, 0, 2, 0, false},  /* with loaders */
	    {1, 5, 1024, 0, 20, 2, 2, 0, 0, 0, false}, /* another size */
	};
	memcpy(v.points, pts, sizeof(pts));
	v.npoints = 6;
	struct amdahl_fit f;
	assert_int_equal(sweep_fit_labview(&v, 768, 0, single, 2, &f), 0);
	assert_near(f.serial_fraction, 0.1, 1e-9);
	assert_int_equal(f.points_used, 2);
	assert_int_equal(f.points_beyond, 1); /* 2 x 2 on 2 CPUs */
	assert_int_equal(f.points_excluded, 1);
	/* Speedups to the chart's own 1x1 bar, as a sweep's are to its 1x1
	 * row: a lab reference of 100 read earlier, on a quieter box, against
	 * bars of 90 and 90 x 1.905 read s = 0.16 (1.71x) where the bars say
	 * s = 0.05. */
	assert_near(sweep_fit_labview_ref(&v, 768, 0, -1), single, 0);
	v.points[0].gflops = 90;
	v.points[1].gflops = 90 * amdahl_speedup(0.05, 2, 2);
	assert_near(sweep_fit_labview_ref(&v, 768, 0, single), 90, 0);
	assert_int_equal(sweep_fit_labview(&v, 768, 0, single, 2, &f), 0);
	assert_near(f.serial_fraction, 0.05, 1e-9);
	/* a 1x1 bar the fit leaves out (contended) is no reference */
	v.points[0].left_out = true;
	assert_near(sweep_fit_labview_ref(&v, 768, 0, single), single, 0);
	v.points[0].left_out = false;
	v.points[0].gflops = single;
	v.points[1].gflops = single * amdahl_speedup(0.1, 2, 2);
	/* no reference at all: no 1x1 bar and no lab reference */
	v.points[0].threads = 7;
	assert_int_equal(sweep_fit_labview(&v, 768, 0, -1, 2, &f), -EDOM);
	/* The triad's figures (the tour's lesson 9) never land on the GEMM
	 * point of the same settings: a chart of n=768 sgemm showed the
	 * triad's 5.0 GFLOP/s as its 1x2 row. */
	labview_init(&v);
	struct workload_report w = {.threads = 2, .streams = 1, .size = 768, .precision = "single",
				    .kernel = settings_kernel_name(SETTINGS_GEMM),
				    .steady_gflops = 150, .steady_seconds = 2, .interval = 1};
	labview_note(&v, &w, 2);
	w.kernel = settings_kernel_name(SETTINGS_TRIAD);
	w.steady_gflops = 5;
	labview_note(&v, &w, 2);
	const struct labview_point *gemm = labview_point_find(&v, 1, 2, 0, 768, 0);
	assert_non_null(gemm);
	assert_near(gemm->gflops, 150, 0);
	struct settings triad = {.kernel = SETTINGS_TRIAD, .size = 768};
	const struct labview_point *t = labview_point_find(&v, 1, 2, 0, settings_rate_key(&triad), 0);
	assert_non_null(t);
	assert_near(t->gflops, 5, 0);
}

/* A point above 1 thread slower than 1 thread is no law's: alone it is no
 * fit (it read "serial fraction 1.00 (Karp-Flatt 2.95-2.95, 1 point at 2
 * threads)", the lab beside a neighbour under a 1.5-CPU quota; a quiet
 * sweep at n=256 reads 2 threads at 0.37x one). */
static void test_slower_than_one(void **state)
{
	(void)state;
	struct amdahl_set set;
	struct amdahl_fit f;
	char cap[512];
	amdahl_set_init(&set);
	amdahl_set_add(&set, 1, 1, false);
	amdahl_set_add(&set, 2, 0.6, false);
	assert_int_equal(amdahl_fit(&set, 1.5, &f), -EDOM);
	assert_int_equal(f.points_slower, 1);
	sweep_fit_caption(cap, sizeof(cap), &f);
	assert_string_equal(cap, "Amdahl fit: none (1 point above 1 thread slower than 1 "
				 "thread: the threads cost more than they share (overhead, "
				 "contention or a quota), which no serial fraction explains)");
	/* the brief one too: it said "no point above 1 thread" */
	sweep_fit_caption_brief(cap, sizeof(cap), &f);
	assert_string_equal(cap, "Amdahl: no fit (1 slower than 1 thread)");
	/* beside a point that is faster, it is fitted as it is */
	amdahl_set_add(&set, 2, 1.8, false);
	assert_int_equal(amdahl_fit(&set, 2, &f), 0);
	assert_true(f.valid);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_law),	     cmocka_unit_test(test_exact),
	    cmocka_unit_test(test_excluded), cmocka_unit_test(test_two_points),
	    cmocka_unit_test(test_noisy),    cmocka_unit_test(test_predictions),
	    cmocka_unit_test(test_cmd_rows), cmocka_unit_test(test_caption),
	    cmocka_unit_test(test_labview),  cmocka_unit_test(test_beyond),
	    cmocka_unit_test(test_slower_than_one),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
