/* test-dash-rows.c — the dashboard's one-line panels as fitted text: what
 * each row says, and that from 80 columns up every row fits its width by
 * shortening labels and dropping minor fields, never by cutting a word. */
#include "config.h"
#include "knobs.h"
#include "session-impl.h"
#include "session-lab-impl.h"

#include "tl-test.h"

#include <string.h>

#include "dash-diag.h"
#include "dash-format.h"
#include "dash-rows.h"
#include "dash-keys.h"
#include "text-safe.h"
#include "tl-dash.h"
#include "session-lab.h"

static const int widths[] = {80, 100, 120, 200};
#define NWIDTHS (sizeof(widths) / sizeof(widths[0]))

/* Fits width and was not cut (no ellipsis added). */
static void assert_fits_whole(const char *out, int width)
{
	if (dash_fit_width(out) > width)
		fail_msg("%d columns > %d: '%s'", dash_fit_width(out), width, out);
	if (strstr(out, "\u2026") || strstr(out, "..."))
		if (!strstr(out, "measuring..."))
			fail_msg("cut at %d: '%s'", width, out);
}

static void test_header_widths(void **state)
{
	(void)state;
	char out[512];
	struct settings want = knobs_defaults();
	struct dash_header h = {.mode = "lab", .want = &want, .interval = 1};

	dash_rows_header(out, sizeof(out), 200, &h);
	assert_string_equal(out,
			    "threadlab lab | sgemm n=768 | threads 1 | streams 1 | workers 0 | "
			    "pthreads | quota none | every 1s");
	dash_rows_header(out, sizeof(out), 80, &h);
	assert_string_equal(
	    out, "threadlab lab | sgemm n=768 | thr 1 | str 1 | wrk 0 | quota none | every 1s");
	/* Another build, loaders and their pending marks stay at 80 columns. */
	want.blas = SETTINGS_BLAS_OPENMP;
	want.loaders = 2;
	h.pending = SESSION_PEND_BLAS | SESSION_PEND_LOADERS;
	dash_rows_header(out, sizeof(out), 80, &h);
	assert_fits_whole(out, 80);
	assert_non_null(strstr(out, "mp*")); /* openmp* or omp* */
	assert_non_null(strstr(out, "ld 2*"));
	dash_rows_header(out, sizeof(out), 200, &h);
	assert_non_null(strstr(out, "loaders 2* x 20 ms | openmp*"));
	want.blas = SETTINGS_BLAS_PTHREADS;
	want.loaders = 0;
	/* Pending marks, a pause, a sweep (never both: a sweep needs the
	 * workload running) survive at 80 columns. */
	want.threads = 3;
	want.workers = 2;
	want.cpus = 1.5;
	h.pending = SESSION_PEND_THREADS | SESSION_PEND_QUOTA | SESSION_PEND_WORKERS;
	h.interval = 0.25;
	for (int sweep = 0; sweep < 2; sweep++) {
		want.paused = !sweep;
		h.sweep = sweep ? "sweep 3/4" : NULL;
		for (size_t i = 0; i < NWIDTHS; i++) {
			dash_rows_header(out, sizeof(out), widths[i], &h);
			assert_fits_whole(out, widths[i]);
			assert_non_null(strstr(out, "3* | "));
			assert_non_null(strstr(out, "2* | "));
			assert_non_null(strstr(out, "quota 1.5*"));
			assert_non_null(strstr(out, sweep ? "3/4" : "PAUSED"));
			assert_non_null(strstr(out, "0.25s"));
		}
	}
	/* Attach with a long command line: only its first word when narrow. */
	struct dash_header a = {.mode = "command",
				.pid = 4321,
				.target = "python3 train.py --epochs 100 --batch-size 256 "
					  "--workers 8 --data /very/long/path/to/the/dataset",
				.tree = true,
				.interval = 1};
	dash_rows_header(out, sizeof(out), 80, &a);
	assert_true(dash_fit_width(out) <= 80);
	assert_non_null(strstr(out, "threadlab command 4321 python3\u2026 (tree) | every 1s"));
	dash_rows_header(out, sizeof(out), 200, &a);
	assert_non_null(strstr(out, "--data /very/long/path/to/the/dataset (tree) | every 1s"));
	a.gone = true;
	dash_rows_header(out, sizeof(out), 80, &a);
	assert_non_null(strstr(out, "EXITED"));
	/* Replayed, the pid is a field of its own after the speed. */
	a.gone = false;
	a.replay = "2026-12-06 02:39:35 UTC";
	a.replay_speed = 2;
	a.replay_paused = true;
	dash_rows_header(out, sizeof(out), 200, &a);
	assert_non_null(strstr(out, "| 2x PAUSED | 4321 python3 train.py"));
	dash_rows_header(out, sizeof(out), 80, &a);
	assert_true(dash_fit_width(out) <= 80);
	assert_non_null(strstr(out, "02:39:35 UTC"));
	assert_null(strstr(out, "PAUSED 4321"));
}

static void test_header_pending(void **state)
{
	(void)state;
	char out[512];
	struct settings want = knobs_defaults();
	struct lab_status st;
	memset(&st, 0, sizeof(st));
	settings_to_lab(&want, &st.settings);
	st.applied = true;
	st.stream[0].state = CTL_STREAM_RUNNING;
	st.stream[0].threads = 1;
	st.stream[0].size = 768;
	st.stream[0].precision = CTL_SINGLE;
	assert_int_equal(session_lab_pending_of(&want, &st), 0);

	want.threads = 2;
	st.settings.threads = 2;
	st.applied = false;
	unsigned p = session_lab_pending_of(&want, &st);
	assert_true(p & SESSION_PEND_THREADS);
	struct dash_header h = {.mode = "lab", .want = &want, .pending = p, .interval = 1};
	dash_rows_header(out, sizeof(out), 120, &h);
	assert_non_null(strstr(out, "threads 2*"));
	assert_non_null(strstr(out, "sgemm n=768"));
	assert_non_null(strstr(out, "every 1s"));

	st.stream[0].threads = 2;
	st.applied = true;
	p = session_lab_pending_of(&want, &st);
	assert_int_equal(p, 0);
	h.pending = p;
	dash_rows_header(out, sizeof(out), 120, &h);
	assert_non_null(strstr(out, "threads 2 "));

	/* A quota asked for but refused is an error, not pending. */
	want.cpus = 1.5;
	assert_true(session_lab_pending_of(&want, &st) & SESSION_PEND_QUOTA);
	snprintf(st.quota_error, sizeof(st.quota_error), "needs root");
	assert_false(session_lab_pending_of(&want, &st) & SESSION_PEND_QUOTA);
	h.pending = 0;
	dash_rows_header(out, sizeof(out), 120, &h);
	assert_non_null(strstr(out, "quota 1.5 |"));
}

static void test_budget(void **state)
{
	(void)state;
	char out[512];
	struct model_budget b;
	memset(&b, 0, sizeof(b));
	b.online = 2;
	b.affinity = 2;
	b.quota.controller = true;
	b.quota.cpus = 1.5;
	b.effective = 1.5;
	b.binding = MODEL_TERM_QUOTA;
	dash_rows_budget(out, sizeof(out), 200, &b);
	assert_string_equal(out, "CPU budget: online 2 | affinity 2 | cpuset n/a | quota 1.50 | "
				 "effective 1.50 (quota binds)");
	dash_rows_budget(out, sizeof(out), 80, &b);
	assert_string_equal(out, "budget: online 2 | aff 2 | cpuset n/a | quota 1.50 | "
				 "eff 1.50 (quota binds)");
	/* A note shows where there is room and goes first where there is not. */
	snprintf(b.note, sizeof(b.note), "cgroup path not visible in this namespace");
	dash_rows_budget(out, sizeof(out), 200, &b);
	assert_non_null(strstr(out, "(quota binds) | cgroup path not visible"));
	for (size_t i = 0; i < NWIDTHS; i++) {
		dash_rows_budget(out, sizeof(out), widths[i], &b);
		assert_fits_whole(out, widths[i]);
		assert_non_null(strstr(out, " 1.50 (quota binds)"));
	}
}

static void test_pressure_wait_next_to_throttling(void **state)
{
	(void)state;
	char out[512];
	struct model_sample m;
	memset(&m, 0, sizeof(m));

	dash_rows_pressure(out, sizeof(out), 120, &m, false);
	assert_non_null(strstr(out, "measuring"));
	assert_non_null(strstr(out, "cgroup unavailable"));
	m.throttle.valid = true;
	m.throttle.throttled_pct = 48;
	m.throttle.throttled_s_per_s = 0.5;
	m.total_wait_pct = 55;
	m.psi_system.available = true;
	m.psi_system.some_avg10 = 20.31;
	dash_rows_pressure(out, sizeof(out), 200, &m, true);
	assert_string_equal(out, "run-queue wait 0.55 s/s | throttled 0.50 s/s (48% of periods, "
				 "a wait for each queued thread) | PSI some: cgroup unavailable "
				 "system 20.3%");
	/* At every width the throttled figure sits right after the wait. */
	for (size_t i = 0; i < NWIDTHS; i++) {
		dash_rows_pressure(out, sizeof(out), widths[i], &m, true);
		assert_fits_whole(out, widths[i]);
		assert_non_null(strstr(out, "wait 0.55 s/s | throttled 0.50 s/s ("));
		assert_non_null(strstr(out, "PSI"));
	}
	dash_rows_pressure(out, sizeof(out), 80, &m, true);
	assert_string_equal(
	    out, "run-queue wait 0.55 s/s | throttled 0.50 s/s (48%) | PSI cg n/a sys 20%");
	/* At 120 the throttling keeps its words; PSI is the one shortened. */
	dash_rows_pressure(out, sizeof(out), 120, &m, true);
	assert_string_equal(out, "run-queue wait 0.55 s/s | throttled 0.50 s/s (48% of periods, "
				 "a wait for each queued thread) | PSI cg n/a sys 20%");
	/* Not throttled: no "a wait for each queued thread". */
	m.throttle.throttled_pct = 0;
	m.throttle.throttled_s_per_s = 0;
	dash_rows_pressure(out, sizeof(out), 200, &m, true);
	assert_non_null(strstr(out, "throttled 0.00 s/s (0% of periods) |"));
}

static void test_throughput_line(void **state)
{
	(void)state;
	char out[512];
	struct workload_report w;
	memset(&w, 0, sizeof(w));
	w.gflops = 150;
	w.single_thread_gflops = -1;
	w.threads = 1;
	dash_rows_throughput(out, sizeof(out), 80, &w);
	assert_non_null(strstr(out, "GFLOP/s 150.0"));
	assert_non_null(strstr(out, "ceiling measuring"));
	/* More threads: the rate is measured only on a visit to one thread. */
	w.threads = 2;
	dash_rows_throughput(out, sizeof(out), 120, &w);
	assert_non_null(strstr(out, "ceiling ? (needs a 1-thread run"));
	w.single_thread_gflops = 104;
	w.ideal_gflops = 208;
	w.ceiling_gflops = 208;
	w.epoch_results_checked = true;
	w.epoch_results_equal = true;
	dash_rows_throughput(out, sizeof(out), 80, &w);
	assert_string_equal(
	    out, "GFLOP/s 150.0 | ideal 208.0 | ceiling 208.0 | 72% of ideal | results equal");
	w.epoch_results_equal = false;
	w.epoch_max_diff = 1e-6;
	dash_rows_throughput(out, sizeof(out), 120, &w);
	assert_non_null(strstr(out, "results differ 1e-06"));
	/* The worst case keeps every figure at 80 columns. */
	w.gflops = 9999.9;
	w.ideal_gflops = w.ceiling_gflops = 9999.9;
	w.epoch_max_diff = 2.4812345e-05;
	dash_rows_throughput(out, sizeof(out), 80, &w);
	assert_fits_whole(out, 80);
	assert_non_null(strstr(out, "differ 2.5e-05"));
	assert_non_null(strstr(out, "ideal 9999.9"));
}

static struct workload_report mk_work(int streams)
{
	static const double gf[] = {76.14, 85.2, 80};
	struct workload_report w;
	memset(&w, 0, sizeof(w));
	w.streams = streams;
	w.nstreams = streams;
	for (int i = 0; i < streams; i++) {
		w.stream[i].stream = i;
		w.stream[i].state = "running";
		w.stream[i].wanted = true;
		w.stream[i].gflops = gf[i];
		w.stream[i].useful_cpus = 0.98;
		w.stream[i].cpu_cpus = 1.0;
		w.useful_cpus += 0.98;
		w.cpu_cpus += 1.0;
	}
	return w;
}

static void test_work_line_spin_and_streams(void **state)
{
	(void)state;
	char out[512];
	struct workload_report w;
	memset(&w, 0, sizeof(w));
	dash_rows_work(out, sizeof(out), 80, &w);
	assert_string_equal(out, "work measuring...");

	/* One stream: useful CPU next to busy CPU, the difference is spin. */
	w = mk_work(1);
	w.useful_cpus = 1.96;
	w.cpu_cpus = 2.0;
	dash_rows_work(out, sizeof(out), 120, &w);
	assert_string_equal(out, "work 1.96 of 2.00 CPUs busy (0.04 spin/overhead) | "
				 "--blas-spin default");
	assert_null(strstr(out, "s0"));

	/* Two streams: per-stream GFLOP/s, short at 80 columns. */
	w = mk_work(2);
	for (size_t i = 0; i < NWIDTHS; i++) {
		dash_rows_work(out, sizeof(out), widths[i], &w);
		assert_fits_whole(out, widths[i]);
		assert_non_null(strstr(out, "spin"));
	}
	dash_rows_work(out, sizeof(out), 80, &w);
	assert_string_equal(out, "work 1.96 of 2.00 CPUs busy (0.04 spin/overhead) | s0 76 s1 85");
	dash_rows_work(out, sizeof(out), 200, &w);
	assert_non_null(strstr(out, "per stream GFLOP/s: s0 76.1 s1 85.2"));
	assert_non_null(strstr(out, "per stream in GEMM/busy: s0 0.98/1.00 s1 0.98/1.00"));

	/* A parked stream is left out; a failed one is said, even alone. */
	w = mk_work(3);
	w.streams = 2;
	w.stream[2].wanted = false;
	dash_rows_work(out, sizeof(out), 80, &w);
	assert_null(strstr(out, "s2"));
	w.stream[1].state = "failed";
	dash_rows_work(out, sizeof(out), 80, &w);
	assert_non_null(strstr(out, "s1 FAILED"));

	/* Idle pool threads spinning: CPU beyond the work is said as spin. */
	w = mk_work(1);
	w.useful_cpus = 0.86;
	w.cpu_cpus = 1.35;
	dash_rows_work(out, sizeof(out), 120, &w);
	assert_non_null(strstr(out, "work 0.86 of 1.35 CPUs busy (0.49 spin/overhead)"));
}

static void test_summary_and_restart(void **state)
{
	(void)state;
	char out[256];
	struct model_sample r;
	memset(&r, 0, sizeof(r));
	r.runnable = 3;
	r.nthreads = 7;
	r.total_cpu_pct = 150;
	r.total_wait_pct = 250;
	/* The factor is the mean runnable threads' (4.0 here), not the count
	 * in state R at the sample (3). */
	dash_rows_summary(out, sizeof(out), 200, &r, 4.0, 2.0, VERDICT_N);
	assert_string_equal(out, "runnable 4.00 of 7 threads on average on 2.00 effective CPUs: "
				 "2.00x oversubscribed | 3 in state R now | total CPU 150% wait "
				 "250%");
	dash_rows_summary(out, sizeof(out), 80, &r, 3.0, 2.0, VERDICT_N);
	assert_fits_whole(out, 80);
	assert_non_null(strstr(out, "1.50x oversubscribed"));
	dash_rows_summary(out, sizeof(out), 80, &r, 2.0, 2.0, VERDICT_N);
	assert_non_null(strstr(out, "1.00x"));
	assert_null(strstr(out, "oversubscribed"));
	/* The verdict's word wins: a quota-bound thread is throttled. */
	dash_rows_summary(out, sizeof(out), 80, &r, 2.0, 1.5, VERDICT_THROTTLED);
	assert_non_null(strstr(out, "1.33x throttled"));
	assert_null(strstr(out, "oversubscribed"));
	dash_rows_summary(out, sizeof(out), 80, &r, 2.5, 2.0, VERDICT_FINE);
	assert_null(strstr(out, "oversubscribed"));

	session_lab_restart_text(out, sizeof(out), 1, 2, "helper killed by signal 9");
	assert_string_equal(out, "stream 1: helper killed by signal 9, restarted (restart 2)");
	session_lab_restart_text(out, sizeof(out), 0, 1, "");
	assert_string_equal(out, "stream 0: helper died, restarted (restart 1)");
}

/* The one-row verdict keeps the verdict and its figures and drops the
 * suggestion whole when it does not fit; the target's text is made safe. */
static void test_verdict_row(void **state)
{
	(void)state;
	static struct diagnosis d;
	char out[2048];
	d.verdict = VERDICT_OVERSUBSCRIBED;
	d.factor = 2.04;
	d.runnable_mean = 4.08;
	d.effective = 2.0;
	d.wait = 1.5;
	d.nsuggestions = 1;
	snprintf(d.suggestions[0], sizeof(d.suggestions[0]),
		 "set OMP_NUM_THREADS=1 in the 4 workers (each runs a libgomp pool of 2)\x1b[2J");
	for (size_t i = 0; i < NWIDTHS; i++) {
		dash_diag_verdict_row(out, sizeof(out), widths[i], &d, true);
		assert_fits_whole(out, widths[i]);
		assert_non_null(strstr(out, "oversubscribed 2.0x"));
		assert_null(strchr(out, '\x1b'));
		if (widths[i] >= 160)
			assert_non_null(strstr(out, "try: set OMP_NUM_THREADS=1 in the 4 workers"));
	}
	dash_diag_verdict_row(out, sizeof(out), 80, &d, true);
	assert_non_null(strstr(out, "4.1 runnable on 2.00 CPUs"));
	assert_null(strstr(out, "try:"));
	d.verdict = VERDICT_FINE;
	d.nsuggestions = 0;
	dash_diag_verdict_row(out, sizeof(out), 80, &d, true);
	assert_non_null(strstr(out, "diagnosis: fine, 4.1 runnable"));
}

static void test_key_bar_and_chart_title(void **state)
{
	(void)state;
	char out[512];
	for (size_t i = 0; i < NWIDTHS; i++) {
		dash_keys_bar(out, sizeof(out), widths[i], DASH_KEYS_MODE_LAB);
		assert_fits_whole(out, widths[i]);
		assert_true(strncmp(out, "F1 help  +- threads", 19) == 0);
		assert_non_null(strstr(out, "q quit"));
		dash_rows_chart_title(out, sizeof(out), widths[i] * 3 / 5, 768, 0, 208, false, true);
		assert_fits_whole(out, widths[i] * 3 / 5);
		assert_non_null(strstr(out, "Scaling n=768 sgemm"));
		assert_non_null(strstr(out, "ceiling 208.0"));
	}
	/* the fit's mark in the legend where the bars show it; a ceiling not
	 * known yet is "?" (it read "ceiling 0.0") */
	dash_rows_chart_title(out, sizeof(out), 120, 768, 0, 208, true, true);
	assert_non_null(strstr(out, "ceiling 208.0, \u25c6 Amdahl fit"));
	dash_rows_chart_title(out, sizeof(out), 120, 768, 0, 0, false, false);
	assert_non_null(strstr(out, "| ceiling ? |"));
	dash_keys_bar(out, sizeof(out), 200, DASH_KEYS_MODE_LAB);
	/* 200 columns: A (priority 2) stays where iI refresh (3) goes. */
	assert_non_null(strstr(out, "e log  A machine  q quit"));
	assert_null(strstr(out, "iI refresh"));
	dash_keys_bar(out, sizeof(out), 80, DASH_KEYS_MODE_ATTACH);
	assert_string_equal(out,
			    "F1 help  Tab sort  c collapse  m mark  e log  iI refresh  A machine  q quit");
	dash_keys_bar(out, sizeof(out), 80, DASH_KEYS_MODE_MACHINE);
	assert_string_equal(out, "F1 help  A machine  Tab sort  g group  Enter attach  q quit");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_header_widths),
	    cmocka_unit_test(test_header_pending),
	    cmocka_unit_test(test_budget),
	    cmocka_unit_test(test_pressure_wait_next_to_throttling),
	    cmocka_unit_test(test_throughput_line),
	    cmocka_unit_test(test_work_line_spin_and_streams),
	    cmocka_unit_test(test_summary_and_restart),
	    cmocka_unit_test(test_verdict_row),
	    cmocka_unit_test(test_key_bar_and_chart_title),
	};
	return cmocka_run_group_tests(tests, tl_setup_utf8, NULL);
}
