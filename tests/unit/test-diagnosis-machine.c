/* test-diagnosis-machine.c — the diagnosis on a shared machine, on known
 * input: the contended rule and its band, crowded out too, a quota that
 * did not bind, hysteresis, an input-bound main process, pools in effect
 * and the call that sets them, and advice checked against what it
 * predicts. */
#include "tl-test.h"

#include <math.h>

#include "diagnosis-input.h"
#include "tl-rates.h"
#include "tl-scene.h"
#include "diagnosis-advice.h"
#include "diagnosis-rules.h"

/* A machine of 2 CPUs running runnable threads, whose others took others
 * CPUs, the first of them stress-ng (pid 812) with top CPUs. */
static void scene_machine(struct scene *s, struct machine_view *m, double runnable, double others,
			  double top)
{
	memset(m, 0, sizeof(*m));
	m->valid = true;
	m->window_s = 5;
	m->online = 2;
	m->runnable_mean = runnable;
	m->cpus_used = 2;
	m->psi_some = 60;
	m->others_cpus = m->others_shared = others;
	m->n = 1;
	struct neighbour *x = &m->top[0];
	x->pid = 812;
	x->name_len = strlen("stress-ng");
	memcpy(x->name, "stress-ng", x->name_len);
	snprintf(x->cgroup, sizeof(x->cgroup), "/user.slice");
	x->cpus_used = top;
	x->runnable_mean = top + 0.5;
	x->shares_cpus = true;
	s->in.machine = m;
}

/* Every "N runnable threads on X CPUs" a suggestion predicts fits: N is
 * at most 1.2 X. */
static void assert_predictions_fit(const struct diagnosis *d)
{
	for (size_t i = 0; i < d->nsuggestions; i++) {
		const char *p = d->suggestions[i];
		while ((p = strstr(p, " runnable threads on "))) {
			const char *q = p;
			while (q > d->suggestions[i] &&
			       (q[-1] == '.' || (q[-1] >= '0' && q[-1] <= '9')))
				q--;
			double n = atof(q), x = atof(p + strlen(" runnable threads on "));
			if (x > 0 && n > 1.2 * x + 1e-6)
				fail_msg("suggestion predicts %.2f threads on %.2f CPUs: %s", n, x,
					 d->suggestions[i]);
			p++;
		}
		if (strstr(d->suggestions[i], " of the 1 "))
			fail_msg("a suggestion keeps 1 of 1: %s", d->suggestions[i]);
	}
}

static void test_contended(void **state)
{
	(void)state;
	struct scene s;
	struct machine_view m;
	/* One serial thread got 0.36 CPUs and waited 0.64 s/s. */
	scene_make(&s, 1, 36, 64, 2);
	scene_machine(&s, &m, 4.1, 1.6, 2.0);
	diagnosis_make(&s.in, &s.d);
	assert_int_equal(s.d.verdict, VERDICT_CONTENDED);
	assert_string_equal(diagnosis_verdict_name(s.d.verdict), "contended");
	assert_non_null(
	    strstr(s.d.headline,
		   "contended: 1.0 runnable thread got 0.36 CPUs and waited 0.64 s/s; the "
		   "machine runs 4.1 runnable threads on 2 CPUs; others: stress-ng (pid 812, "
		   "2.0 CPUs, /user.slice)"));
	assert_non_null(
	    strstr(s.d.suggestions[0], "nothing in this job can help: stress-ng (pid 812)"));
	assert_int_equal(diagnosis_rules_exit_status(&s.d, false), 1);
	assert_true(fabs(s.d.contention_wait - 0.64) < 1e-9);
	/* crowded out, its waits are slices: 200 switches a second, 3.2 ms each */
	s.t[0].ivcsw_per_s = 200;
	diagnosis_make(&s.in, &s.d);
	assert_int_equal(s.d.verdict, VERDICT_CONTENDED);
	/* the same wait at 3,000 wake-ups a second, 0.21 ms each: the
	 * scheduler's latency (3,000 sleeping threads read contended, exit 1) */
	s.t[0].ivcsw_per_s = 0;
	s.t[0].vcsw_per_s = 3000;
	diagnosis_make(&s.in, &s.d);
	assert_int_equal(s.d.verdict, VERDICT_FINE);
	assert_true(has_text(s.d.reasons, s.d.nreasons,
			     "0.21 ms at each of 3000 switches a second: the scheduler's latency"));
	s.t[0].vcsw_per_s = 0;
	/* 0.4 CPUs no process accounts for: short-lived processes, others'
	 * (contended), or the job's own children (its unseen_cpu: not others) */
	scene_machine(&s, &m, 4.1, 0.1, 0.1);
	m.unseen_cpus = 0.4;
	diagnosis_make(&s.in, &s.d);
	assert_int_equal(s.d.verdict, VERDICT_CONTENDED);
	assert_non_null(strstr(s.d.headline, "processes too short-lived to name 0.4 CPUs"));
	s.r.unseen_cpu = 0.3;
	diagnosis_make(&s.in, &s.d);
	assert_int_equal(s.d.verdict, VERDICT_FINE);
	s.r.unseen_cpu = 0;
	scene_machine(&s, &m, 4.1, 1.6, 2.0);
	/* the same job, the machine not measured or the others idle: fine */
	s.in.machine = NULL;
	diagnosis_make(&s.in, &s.d);
	assert_int_equal(s.d.verdict, VERDICT_FINE);
	scene_machine(&s, &m, 1.2, 0.1, 0.1);
	diagnosis_make(&s.in, &s.d);
	assert_int_equal(s.d.verdict, VERDICT_FINE);
	/* waiting 22 % of its runnable time: inside the band, borderline */
	scene_make(&s, 1, 78, 22, 2);
	scene_machine(&s, &m, 3, 1.0, 1.0);
	diagnosis_make(&s.in, &s.d);
	assert_int_equal(s.d.verdict, VERDICT_FINE);
	assert_int_equal(s.d.borderline, VERDICT_CONTENDED);
	assert_int_equal(diagnosis_rules_exit_status(&s.d, true), 1);
	/* a target that oversubscribes itself is not contended: it says both */
	scene_make(&s, 4, 40, 60, 2);
	scene_machine(&s, &m, 5.5, 0.6, 0.6);
	diagnosis_make(&s.in, &s.d);
	assert_int_equal(s.d.verdict, VERDICT_OVERSUBSCRIBED);
	assert_true(s.d.also_contended);
	assert_non_null(strstr(s.d.headline, "; crowded out too: others took 0.6 CPUs (stress-ng"));
	assert_true(has_text(s.d.reasons, s.d.nreasons, "contended as well"));
	/* a parent whose 2 unfollowed children do the work, beside a busy
	 * neighbour: "add --tree" first, and never "nothing in this job can
	 * help" after it (the job is more than what was seen) */
	scene_make(&s, 1, 36, 64, 2);
	scene_machine(&s, &m, 4.1, 1.6, 2.0);
	m.children = 2;
	m.children_cpus = 1.0;
	s.in.unfollowed = 2;
	diagnosis_make(&s.in, &s.d);
	assert_int_equal(s.d.verdict, VERDICT_CONTENDED);
	assert_non_null(strstr(s.d.suggestions[0], "add --tree: its 2 child process(es) do the work"));
	assert_false(has_text(s.d.suggestions, s.d.nsuggestions, "nothing in this job can help"));
	s.in.unfollowed = 0;
}

static void test_quota_unbound(void **state)
{
	(void)state;
	struct scene s;
	struct machine_view m;
	/* 2 threads under a 1.5-CPU quota got 1.0 CPU: others held the rest */
	scene_make(&s, 2, 50, 50, 1.5);
	s.b.quota.cpus = 1.5;
	s.b.binding = BUDGET_QUOTA;
	s.r.throttle.valid = true;
	scene_machine(&s, &m, 3.5, 1.0, 1.0);
	diagnosis_make(&s.in, &s.d);
	assert_int_equal(s.d.verdict, VERDICT_OVERSUBSCRIBED);
	assert_true(
	    has_text(s.d.reasons, s.d.nreasons,
		     "the 1.50-CPU quota did not bind: other processes used 1.0 CPUs of the 2"));
	/* crowded out more than it oversubscribes itself (1.0 CPUs taken, 0.5
	 * threads of its own too many): the neighbour comes first */
	assert_true(s.d.also_contended);
	assert_non_null(strstr(s.d.suggestions[0], "first the CPUs others hold, the larger cause: "
						   "stress-ng (pid 812)"));
	/* throttled (it bound): not said */
	s.r.throttle.throttled_pct = 90;
	s.r.throttle.throttled_s_per_s = 0.5;
	s.t[0].cpu_pct = s.t[1].cpu_pct = 75;
	s.t[0].wait_pct = s.t[1].wait_pct = 25;
	diagnosis_make(&s.in, &s.d);
	assert_int_equal(s.d.verdict, VERDICT_THROTTLED);
	assert_false(has_text(s.d.reasons, s.d.nreasons, "did not bind"));
	/* its advice: the arithmetic of a larger quota is said */
	assert_true(has_text(s.d.suggestions, s.d.nsuggestions,
			     "raise the CPU limit from 1.50 to 2.00 CPUs: 2.00 runnable threads"));
	/* a mean a hair over 2 asks for 2 (it read 2.25 and 2.00 in turn) */
	s.t[0].wait_pct = 26;
	diagnosis_make(&s.in, &s.d);
	assert_true(has_text(s.d.suggestions, s.d.nsuggestions,
			     "raise the CPU limit from 1.50 to 2.00 CPUs: 2.01 runnable threads"));
	/* 3.5 runnable threads on a 2-CPU box: a limit above 2 buys nothing,
	 * and 2 alone would leave them oversubscribed (it said "3.50 runnable
	 * threads want that much", 2 CPUs) */
	s.t[0].wait_pct = s.t[1].wait_pct = 100;
	diagnosis_make(&s.in, &s.d);
	assert_true(has_text(s.d.suggestions, s.d.nsuggestions,
			     "raise the CPU limit from 1.50 to 2.00 CPUs (all it may run on) only "
			     "with fewer threads: 3.50 runnable threads want 3.5 CPUs"));
	s.t[0].wait_pct = s.t[1].wait_pct = 25;
	/* throttled in 22 % of periods: borderline throttled */
	s.r.throttle.throttled_pct = 22;
	s.r.throttle.throttled_s_per_s = 0.05;
	diagnosis_make(&s.in, &s.d);
	assert_true(s.d.verdict != VERDICT_THROTTLED);
	assert_int_equal(s.d.borderline, VERDICT_THROTTLED);
}

static void test_hysteresis(void **state)
{
	(void)state;
	struct scene s;
	/* 2.5 runnable on 2 CPUs: a factor of 1.25, inside 1.1 to 1.3 */
	scene_make(&s, 5, 40, 10, 2);
	diagnosis_make(&s.in, &s.d);
	assert_int_equal(s.d.verdict, VERDICT_FINE);
	assert_non_null(strstr(s.d.headline, "borderline"));
	s.in.prev = VERDICT_OVERSUBSCRIBED; /* the last window said so: it keeps */
	diagnosis_make(&s.in, &s.d);
	assert_int_equal(s.d.verdict, VERDICT_OVERSUBSCRIBED);
	assert_true(s.d.kept);
	assert_true(
	    has_text(s.d.reasons, s.d.nreasons, "kept from the last window: a factor of 1.25"));
	/* out of the band below: fine whatever came before */
	scene_make(&s, 5, 32, 10, 2);
	s.in.prev = VERDICT_OVERSUBSCRIBED;
	diagnosis_make(&s.in, &s.d);
	assert_int_equal(s.d.verdict, VERDICT_FINE);
	assert_false(s.d.kept);
	/* the bands are documented with the table */
	size_t n;
	const struct diag_rule_doc *r = diagnosis_rules(&n);
	for (size_t i = 0; i < n; i++)
		if (r[i].verdict == VERDICT_OVERSUBSCRIBED)
			assert_string_equal(r[i].band, "a factor of 1.1 to 1.3, or a p99 of 7 to 13 ms");
}

/* A trainer: the main process (pid 100) computes cpu % and waits for
 * input wait % on two forked workers (200, 201) that use wcpu % each. */
static void trainer(struct scene *s, double cpu, double input, double wcpu)
{
	scene_make(s, 0, 0, 0, 2);
	s->t[0] = tl_rate(100, 100, "python3", 'S', cpu);
	s->t[0].input_wait_pct = input;
	s->t[0].activity = ACTIVITY_INPUT_WAIT;
	s->t[1] = tl_rate(200, 200, "python3", 'S', wcpu);
	s->t[2] = tl_rate(201, 201, "python3", 'S', wcpu);
	s->t[1].activity = s->t[2].activity = ACTIVITY_SLEEP;
	s->r.nthreads = 3;
	const char cmd[] = "python3\0train.py\0";
	pid_t pids[] = {100, 200, 201};
	for (int i = 0; i < 3; i++) {
		struct census_proc *p = &s->p[i];
		memset(p, 0, sizeof(*p));
		p->pid = pids[i];
		p->exe_readable = true;
		snprintf(p->exe, sizeof(p->exe), "/usr/bin/python3.11");
		memcpy(p->cmdline, cmd, sizeof(cmd));
		p->cmdline_len = sizeof(cmd);
		p->env = CENSUS_ENV_OK;
	}
	s->c.p = s->p;
	s->c.n = 3;
	s->in.census = &s->c;
	diagnosis_make(&s->in, &s->d);
}

static void test_input_bound(void **state)
{
	(void)state;
	struct scene s;
	trainer(&s, 20, 75, 10);
	assert_true(s.d.input_bound);
	assert_true(fabs(s.d.roles[0].input_wait_pct - 75) < 1e-9);
	assert_int_equal(s.d.roles[0].activity[ACTIVITY_INPUT_WAIT], 1);
	assert_true(
	    has_text(s.d.reasons, s.d.nreasons,
		     "input-bound: the main process waited 75% of the window on its 2 forked "
		     "workers (blocked reading their pipes or sockets for what they send it: "
		     "batches, or results)"));
	/* 2 / (1 - 0.75) = 8 workers keep it fed, at 0.10 CPUs each */
	assert_non_null(strstr(s.d.suggestions[0], "use 8 workers instead of 2"));
	assert_predictions_fit(&s.d);
	/* workers that use the CPUs already: cheaper items, not more workers */
	trainer(&s, 20, 75, 90);
	assert_true(s.d.input_bound);
	assert_non_null(strstr(s.d.suggestions[0], "make each item cheaper to prepare"));
	assert_false(has_text(s.d.suggestions, s.d.nsuggestions, "use 1 of"));
	/* workers starved of CPU (0.4 CPUs each, waiting 1.5 s/s each) and no
	 * pool to size: no "more workers", and still a change to make (the
	 * verdict's: fewer of them), not nothing */
	trainer(&s, 20, 75, 40);
	s.t[1].wait_pct = s.t[2].wait_pct = 150;
	diagnosis_make(&s.in, &s.d);
	assert_true(s.d.input_bound);
	assert_int_equal(s.d.verdict, VERDICT_OVERSUBSCRIBED);
	assert_false(has_text(s.d.suggestions, s.d.nsuggestions, "workers instead of"));
	assert_true(s.d.nsuggestions >= 1);
	assert_non_null(strstr(s.d.suggestions[0], "use 1 of the 2 forked workers"));
	assert_predictions_fit(&s.d);
	/* workers that wait a little at each wake-up (5 % each) are not
	 * starved: more of them is still the advice */
	trainer(&s, 20, 75, 10);
	s.t[1].wait_pct = s.t[2].wait_pct = 5;
	diagnosis_make(&s.in, &s.d);
	assert_non_null(strstr(s.d.suggestions[0], "use 8 workers instead of 2"));
	/* fast workers: the main process hardly waits */
	trainer(&s, 90, 8, 20);
	assert_false(s.d.input_bound);
	assert_false(has_text(s.d.reasons, s.d.nreasons, "input-bound"));
}

/* A process with libgomp whose team of n threads is busy (1.0 runnable
 * each), OMP_NUM_THREADS unset, and maybe PyTorch. */
static void omp_team(struct scene *s, int n, bool torch)
{
	scene_make(s, n, 50, 50, 2);
	scene_census(s, NULL);
	if (torch) {
		struct census_runtime *t = &s->p[0].runtimes[s->p[0].nruntimes++];
		memset(t, 0, sizeof(*t));
		t->id = RUNTIME_TORCH;
		t->variant = "";
		snprintf(t->lib, sizeof(t->lib), "/venv/torch/lib/libtorch_cpu.so");
	}
	diagnosis_make(&s->in, &s->d);
}

static void test_pools_in_effect(void **state)
{
	(void)state;
	struct scene s;
	omp_team(&s, 4, false);
	const struct diag_runtime *g = &s.d.runtimes[0];
	assert_int_equal(g->pool, 4);
	assert_int_equal(g->pool_default, 2);
	assert_int_equal(g->source, POOL_OBSERVED);
	assert_string_equal(diagnosis_pool_source_name(g->source), "observed");
	assert_true(g->code_sets);
	assert_non_null(
	    strstr(g->pool_why, "the code's setting: the environment's default would be 2"));
	assert_int_equal(s.d.verdict, VERDICT_OVERSUBSCRIBED);
	assert_non_null(strstr(s.d.suggestions[0], "call omp_set_num_threads(2) in the program"));
	assert_non_null(strstr(s.d.suggestions[0], "OMP_NUM_THREADS=2 works only where the code"));
	assert_predictions_fit(&s.d);
	/* with PyTorch in the process, the call is PyTorch's */
	omp_team(&s, 4, true);
	assert_non_null(strstr(s.d.suggestions[0], "call torch.set_num_threads(2)"));
	/* PyTorch's pool is its intra-op team, as it runs: 4, not blank or 0 */
	size_t t = 0;
	while (t < s.d.nruntimes && strcmp(s.d.runtimes[t].name, "PyTorch") != 0)
		t++;
	assert_true(t < s.d.nruntimes);
	assert_int_equal(s.d.runtimes[t].pool, 4);
	assert_int_equal(s.d.runtimes[t].source, POOL_OBSERVED);
	assert_true(s.d.runtimes[t].code_sets);
	/* a count read from the process's memory wins over what runs */
	scene_make(&s, 2, 90, 10, 2);
	scene_census(&s, NULL);
	struct census_runtime *rt = &s.p[0].runtimes[0];
	rt->id = RUNTIME_OPENBLAS;
	rt->variant = "pthreads";
	rt->pool_ok = true;
	rt->pool_read = 2;
	diagnosis_make(&s.in, &s.d);
	assert_int_equal(s.d.runtimes[0].pool, 2);
	assert_int_equal(s.d.runtimes[0].source, POOL_MEMORY);
	assert_false(s.d.runtimes[0].code_sets);
	assert_non_null(strstr(s.d.runtimes[0].pool_why, ": 2 threads, read from process"));
	rt->pool_read = 1;
	diagnosis_make(&s.in, &s.d);
	assert_non_null(strstr(s.d.runtimes[0].pool_why, ": 1 thread, read from process"));
	/* nobody working and no default: unknown, never 0 */
	scene_make(&s, 1, 1, 0, 2);
	scene_census(&s, NULL);
	s.p[0].runtimes[0].id = RUNTIME_FLEXIBLAS;
	diagnosis_make(&s.in, &s.d);
	assert_true(s.d.runtimes[0].pool < 0);
	assert_int_equal(s.d.runtimes[0].source, POOL_UNKNOWN);
	assert_null(diagnosis_pool_source_name(s.d.runtimes[0].source));
}

static void test_advice_checked(void **state)
{
	(void)state;
	struct scene s;
	/* 3 busy threads of a process with no pool on 2 CPUs, and every
	 * oversubscribed scene of the other tests: each prediction fits */
	scene_make(&s, 3, 66, 34, 2);
	diagnosis_make(&s.in, &s.d);
	assert_int_equal(s.d.verdict, VERDICT_OVERSUBSCRIBED);
	assert_true(s.d.nsuggestions >= 1);
	assert_predictions_fit(&s.d);
	/* one forked worker with OpenBLAS in both: never "use 1 of the 1" */
	trainer(&s, 50, 0, 50);
	s.t[2] = tl_rate(200, 202, "python3", 'R', 50);
	s.t[3] = tl_rate(100, 101, "python3", 'R', 50);
	for (int i = 0; i < 4; i++)
		s.t[i].wait_pct = 50, s.t[i].input_wait_pct = 0;
	struct thread_rate sorted[4] = {s.t[0], s.t[3], s.t[1], s.t[2]}; /* by (pid, tid) */
	memcpy(s.t, sorted, sizeof(sorted));
	s.r.nthreads = 4;
	s.c.n = 2;
	for (int i = 0; i < 2; i++) {
		struct census_runtime *rt = &s.p[i].runtimes[0];
		s.p[i].nruntimes = 1;
		memset(rt, 0, sizeof(*rt));
		rt->id = RUNTIME_OPENBLAS;
		rt->variant = "pthreads";
		snprintf(rt->lib, sizeof(rt->lib), "/usr/lib/libopenblas.so.0");
	}
	diagnosis_make(&s.in, &s.d);
	assert_int_equal(s.d.verdict, VERDICT_OVERSUBSCRIBED);
	assert_int_equal(s.d.roles[1].nprocs, 1);
	print_message("# 2 + 1 x 2 on 2 CPUs: %s\n", s.d.nsuggestions ? s.d.suggestions[0] : "-");
	assert_predictions_fit(&s.d);
	/* a suggestion whose result would itself be oversubscribed is dropped */
	assert_false(diagnosis_advice_prediction_fits(3.0, 2.0));
	assert_true(diagnosis_advice_prediction_fits(2.4, 2.0));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_contended),	    cmocka_unit_test(test_quota_unbound),
	    cmocka_unit_test(test_hysteresis),	    cmocka_unit_test(test_input_bound),
	    cmocka_unit_test(test_pools_in_effect), cmocka_unit_test(test_advice_checked),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
