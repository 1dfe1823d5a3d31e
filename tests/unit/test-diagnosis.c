/* test-diagnosis.c — the diagnosis on known input: demand, roles, each
 * rule of the verdict table and its suggestions, and the documents that
 * quote the table. */
#include "tl-test.h"

#include "knobs.h"

#include <math.h>

#include "diagnosis-input.h"
#include "environ.h"
#include "maps.h"
#include "runtimes.h"
#include "tl-rates.h"
#include "tl-scene.h"
#include "diagnosis-rules.h"

static void test_rule_idle(void **state)
{
	(void)state;
	struct scene s;
	scene_make(&s, 3, 0.5, 0, 2);
	diagnosis_make(&s.in, &s.d);
	assert_int_equal(s.d.verdict, VERDICT_IDLE);
	assert_non_null(strstr(s.d.headline, "idle"));
	scene_make(&s, 0, 0, 0, 2);
	diagnosis_make(&s.in, &s.d);
	assert_int_equal(s.d.verdict, VERDICT_IDLE);
}

static void test_rule_oversubscribed(void **state)
{
	(void)state;
	struct scene s;
	scene_make(&s, 6, 33.3, 66.7, 2);
	scene_census(&s, "6");
	diagnosis_make(&s.in, &s.d);
	assert_int_equal(s.d.verdict, VERDICT_OVERSUBSCRIBED);
	assert_true(fabs(s.d.runnable_mean - 6.0) < 0.01);
	assert_true(fabs(s.d.factor - 3.0) < 0.01);
	assert_true(has_text(s.d.suggestions, s.d.nsuggestions, "OMP_NUM_THREADS=2"));
	assert_true(has_text(s.d.reasons, s.d.nreasons, "OMP_NUM_THREADS=6"));
	assert_int_equal(s.d.nruntimes, 1);
	assert_int_equal(s.d.runtimes[0].pool, 6);
	assert_false(has_text(s.d.reasons, s.d.nreasons, "latency at wake-ups"));
	/* The same threads switching 3,000 times a second each (OpenBLAS's
	 * yield loop): short waits each, but the job's own 6 threads queue
	 * for 2 CPUs, not the scheduler's wake-up latency.  One thread that
	 * fits its CPUs and waits as often is that latency. */
	for (int i = 0; i < 6; i++)
		s.t[i].vcsw_per_s = 3000;
	diagnosis_make(&s.in, &s.d);
	assert_int_equal(s.d.verdict, VERDICT_OVERSUBSCRIBED);
	assert_false(has_text(s.d.reasons, s.d.nreasons, "latency at wake-ups"));
	scene_make(&s, 1, 60, 20, 2);
	s.t[0].vcsw_per_s = 3000;
	diagnosis_make(&s.in, &s.d);
	assert_true(has_text(s.d.reasons, s.d.nreasons, "the scheduler's latency at wake-ups"));
	/* 1.2x is the threshold, 1.1 to 1.3 its band: 2.7 runnable on 2 CPUs
	 * is oversubscribed, 2.5 borderline (fine, and said), 2.1 fine. */
	scene_make(&s, 5, 44, 10, 2);
	diagnosis_make(&s.in, &s.d);
	assert_int_equal(s.d.verdict, VERDICT_OVERSUBSCRIBED);
	assert_int_equal(s.d.borderline, VERDICT_N);
	scene_make(&s, 5, 40, 10, 2);
	diagnosis_make(&s.in, &s.d);
	assert_int_equal(s.d.verdict, VERDICT_FINE);
	assert_int_equal(s.d.borderline, VERDICT_OVERSUBSCRIBED);
	assert_true(
	    has_text(s.d.reasons, s.d.nreasons, "borderline oversubscribed: a factor of 1.25"));
	assert_int_equal(diagnosis_rules_exit_status(&s.d, false), 0);
	assert_int_equal(diagnosis_rules_exit_status(&s.d, true), 1);
	scene_make(&s, 5, 32, 10, 2);
	diagnosis_make(&s.in, &s.d);
	assert_int_equal(s.d.verdict, VERDICT_FINE);
	assert_int_equal(s.d.borderline, VERDICT_N);
	assert_int_equal(diagnosis_rules_exit_status(&s.d, true), 0);
}

/* Each thread's interval histogram: n waits of wait_ns (and one of tail_ns). */
static void scene_latency(struct scene *s, struct lat_hist *h, uint64_t wait_ns, int n,
			  uint64_t tail_ns)
{
	s->r.lat_on = true;
	s->r.lat = h;
	s->r.nlat = s->r.nthreads;
	for (size_t i = 0; i < s->r.nthreads; i++) {
		latency_hist_clear(&h[i]);
		for (int k = 0; k < n; k++)
			latency_hist_add_ns(&h[i], wait_ns);
		if (tail_ns)
			latency_hist_add_ns(&h[i], tail_ns);
		s->t[i].lat_ref = (uint32_t)i + 1;
	}
}

/* The tail sharpens the verdict: 2.2 runnable threads on 2 CPUs (factor
 * 1.1) pass on their mean, but not when p99 is 30 ms over enough waits; a
 * p99 of 10 ms lies in the tail's band; a short tail or too few waits
 * change nothing.  The target's, roles' and
 * groups' latency come from the threads' histograms summed, and a reason
 * quotes the tail. */
static void test_rule_tail(void **state)
{
	(void)state;
	struct scene s;
	struct lat_hist h[16];
	scene_make(&s, 4, 30, 25, 2);
	diagnosis_make(&s.in, &s.d);
	assert_int_equal(s.d.verdict, VERDICT_FINE);
	assert_false(s.d.lat_on);
	assert_false(has_text(s.d.reasons, s.d.nreasons, "run-queue latency"));
	scene_latency(&s, h, 30000000, 30, 0); /* 120 waits of 30 ms */
	diagnosis_make(&s.in, &s.d);
	assert_int_equal(s.d.verdict, VERDICT_OVERSUBSCRIBED);
	assert_true(has_text(s.d.reasons, s.d.nreasons, "the mean alone (factor 1.10) would pass"));
	assert_true(has_text(s.d.reasons, s.d.nreasons, "p99 run-queue latency"));
	assert_int_equal(s.d.latency.events, 120);
	assert_true(fabs(s.d.latency.p99_s - 30e-3) < 30e-3 * 0.125);
	assert_int_equal(s.d.groups[0].latency.events, 120);
	assert_int_equal(s.d.roles[0].latency.events, 120);
	/* a short tail: fine */
	scene_latency(&s, h, 2000000, 30, 0);
	diagnosis_make(&s.in, &s.d);
	assert_int_equal(s.d.verdict, VERDICT_FINE);
	assert_true(has_text(s.d.reasons, s.d.nreasons, "p99 run-queue latency 2."));
	/* a p99 inside the tail's band (7 to 13 ms) is borderline: fine from
	 * nothing, kept when the last window read oversubscribed */
	scene_latency(&s, h, 10000000, 30, 0);
	s.in.prev = VERDICT_N;
	diagnosis_make(&s.in, &s.d);
	assert_int_equal(s.d.verdict, VERDICT_FINE);
	assert_int_equal(s.d.borderline, VERDICT_OVERSUBSCRIBED);
	assert_true(has_text(s.d.reasons, s.d.nreasons, "a p99 run-queue latency of"));
	s.in.prev = VERDICT_OVERSUBSCRIBED;
	diagnosis_make(&s.in, &s.d);
	assert_int_equal(s.d.verdict, VERDICT_OVERSUBSCRIBED);
	assert_true(s.d.kept);
	s.in.prev = VERDICT_N;
	/* too few waits to judge a tail: fine */
	scene_latency(&s, h, 30000000, 10, 0);
	diagnosis_make(&s.in, &s.d);
	assert_int_equal(s.d.verdict, VERDICT_FINE);
	/* below factor 1.0 a tail alone is not oversubscription */
	scene_make(&s, 4, 20, 20, 2);
	scene_latency(&s, h, 30000000, 30, 0);
	diagnosis_make(&s.in, &s.d);
	assert_int_equal(s.d.verdict, VERDICT_FINE);
}

static void test_rule_throttled(void **state)
{
	(void)state;
	struct scene s;
	/* One busy thread under a 0.5-CPU quota: run 0.5, wait 0.5, all of it
	 * throttling. */
	scene_make(&s, 1, 50, 50, 0.5);
	s.b.quota.cpus = 0.5;
	s.b.binding = BUDGET_QUOTA;
	s.r.throttle.valid = true;
	s.r.throttle.throttled_pct = 98;
	s.r.throttle.throttled_s_per_s = 0.5;
	scene_census(&s, NULL);
	diagnosis_make(&s.in, &s.d);
	assert_int_equal(s.d.verdict, VERDICT_THROTTLED);
	assert_true(fabs(s.d.runnable_mean - 1.0) < 0.01);
	assert_true(fabs(s.d.throttle_wait - 0.5) < 0.01);
	assert_non_null(strstr(s.d.headline, "quota of 0.50 CPUs"));
	assert_true(has_text(s.d.reasons, s.d.nreasons, "0.50 s/s throttling"));
	assert_true(has_text(s.d.reasons, s.d.nreasons, "quota is not seen"));
	/* Others share the cores too (half the wait is contention): the
	 * one thread would still fit the 2 CPUs without the quota, so the
	 * quota is what holds it back. */
	s.r.throttle.throttled_s_per_s = 0.24;
	diagnosis_make(&s.in, &s.d);
	assert_true(s.d.throttle_wait < 0.5 * s.d.wait);
	assert_int_equal(s.d.verdict, VERDICT_THROTTLED);
	/* Two OpenMP threads under the 0.5-CPU quota: below one CPU, one
	 * thread is the fewest, offered for what it is (it still waits for
	 * the quota) beside a larger limit. */
	scene_make(&s, 2, 25, 75, 0.5);
	s.b.quota.cpus = 0.5;
	s.b.binding = BUDGET_QUOTA;
	s.r.throttle.valid = true;
	s.r.throttle.throttled_pct = 98;
	s.r.throttle.throttled_s_per_s = 1.2;
	scene_census(&s, "2");
	diagnosis_make(&s.in, &s.d);
	assert_int_equal(s.d.verdict, VERDICT_THROTTLED);
	print_message("# 2 threads in 0.5 CPUs: %s\n", s.d.suggestions[0]);
	assert_non_null(strstr(s.d.suggestions[0], "set OMP_NUM_THREADS=1: "));
	assert_non_null(strstr(s.d.suggestions[0], "one thread is the fewest: it still waits 50%"));
	assert_true(has_text(s.d.suggestions, s.d.nsuggestions, "or raise the CPU limit from 0.50"));
	/* Six threads on 2 cores under the quota, throttling a small part of
	 * the wait: the cores would not hold them either. */
	scene_make(&s, 6, 8, 90, 0.5);
	s.b.quota.cpus = 0.5;
	s.b.binding = BUDGET_QUOTA;
	s.r.throttle.valid = true;
	s.r.throttle.throttled_pct = 40;
	s.r.throttle.throttled_s_per_s = 0.2;
	diagnosis_make(&s.in, &s.d);
	assert_true(s.d.throttle_wait < 0.5 * s.d.wait);
	assert_int_equal(s.d.verdict, VERDICT_OVERSUBSCRIBED);
	/* Four threads on two CPUs under a 1-CPU quota: each CPU's queue is
	 * throttled half the time, cpu.stat sums that over both (1 s/s), so
	 * each thread's throttling is 0.5 s/s and the rest of its wait is
	 * contention. */
	scene_make(&s, 4, 25, 75, 1.0);
	for (int i = 0; i < 4; i++)
		s.t[i].cpu = i % 2;
	s.b.quota.cpus = 1.0;
	s.b.binding = BUDGET_QUOTA;
	s.r.throttle.valid = true;
	s.r.throttle.throttled_pct = 100;
	s.r.throttle.throttled_s_per_s = 1.0;
	diagnosis_make(&s.in, &s.d);
	assert_true(fabs(s.d.throttle_wait - 2.0) < 1e-9);
	assert_true(fabs(s.d.wait - 3.0) < 1e-9);
	/* Throttled rarely: the quota is not what holds it back. */
	scene_make(&s, 1, 50, 50, 0.5);
	s.b.quota.cpus = 0.5;
	s.b.binding = BUDGET_QUOTA;
	s.r.throttle.valid = true;
	s.r.throttle.throttled_pct = 5;
	s.r.throttle.throttled_s_per_s = 0.01;
	diagnosis_make(&s.in, &s.d);
	assert_int_not_equal(s.d.verdict, VERDICT_THROTTLED);
}

static void test_rule_undersubscribed(void **state)
{
	(void)state;
	struct scene s;
	scene_make(&s, 1, 99, 0, 4);
	s.b.online = s.b.affinity = 4;
	scene_census(&s, "1");
	diagnosis_make(&s.in, &s.d);
	assert_int_equal(s.d.verdict, VERDICT_UNDERSUBSCRIBED);
	assert_true(has_text(s.d.suggestions, s.d.nsuggestions, "OMP_NUM_THREADS=4"));
	/* Nobody busy: idle or fine, not undersubscribed. */
	scene_make(&s, 2, 30, 0, 4);
	diagnosis_make(&s.in, &s.d);
	assert_int_equal(s.d.verdict, VERDICT_FINE);
}

static void test_rule_fine_and_doc(void **state)
{
	(void)state;
	struct scene s;
	scene_make(&s, 2, 99, 1, 2);
	diagnosis_make(&s.in, &s.d);
	assert_int_equal(s.d.verdict, VERDICT_FINE);
	assert_string_equal(diagnosis_verdict_name(s.d.verdict), "fine");
	size_t n;
	const struct diag_rule_doc *r = diagnosis_rules(&n);
	assert_int_equal(n, 6);
	assert_int_equal(r[n - 1].verdict, VERDICT_FINE);
	/* Each verdict's name is the word the outputs and the docs use (a
	 * name->enum->name round trip would pass with any names at all). */
	static const struct {
		enum verdict v;
		const char *name;
	} words[] = {{VERDICT_FINE, "fine"},
		     {VERDICT_OVERSUBSCRIBED, "oversubscribed"},
		     {VERDICT_THROTTLED, "throttled"},
		     {VERDICT_UNDERSUBSCRIBED, "undersubscribed"},
		     {VERDICT_IDLE, "idle"},
		     {VERDICT_CONTENDED, "contended"}};
	assert_int_equal(sizeof(words) / sizeof(words[0]), VERDICT_N);
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		assert_string_equal(diagnosis_verdict_name(words[i].v), words[i].name);
		assert_int_equal(diagnosis_verdict_of(words[i].name), words[i].v);
	}
	assert_int_equal(diagnosis_verdict_of("no such verdict"), VERDICT_N);
}

/* The verdict table is documented word for word: a docs/diagnosis.md row
 * "| `verdict` | when | band |" and a man page entry ".B verdict" followed
 * by the words ("\-" read as "-") and its band, in the table's order. */
static void test_rules_documented(void **state)
{
	(void)state;
	size_t n;
	const struct diag_rule_doc *r = diagnosis_rules(&n);
	char *doc = tl_slurp_src("docs/diagnosis.md"), *man = tl_slurp_src("man/threadlab.1");
	/* the man page with "\-" as "-" and each entry's lines joined */
	for (char *p = man, *q = man;; p++) {
		if (p[0] == '\\' && p[1] == '-')
			p++;
		*q++ = *p;
		if (!*p)
			break;
	}
	const char *sec = strstr(man, "\n.SH DIAGNOSIS\n");
	assert_non_null(sec);
	const char *prev_md = doc, *prev_man = sec;
	for (size_t i = 0; i < n; i++) {
		const char *v = diagnosis_verdict_name(r[i].verdict);
		char want[1024];
		snprintf(want, sizeof(want), "| `%s` | %s | %s |", v, r[i].when,
			 r[i].band[0] ? r[i].band : "–");
		const char *md = strstr(doc, want);
		if (!md || md < prev_md)
			fail_msg("docs/diagnosis.md lacks, in order, the row: %s", want);
		prev_md = md;
		snprintf(want, sizeof(want), "\n.B %s\n", v);
		const char *m = strstr(prev_man, want);
		if (!m)
			fail_msg("man page DIAGNOSIS lacks, in order, '.B %s'", v);
		m += strlen(want);
		char words[1024];
		size_t o = 0;
		for (; *m && strncmp(m, "\n.", 2) != 0 && o + 1 < sizeof(words); m++)
			words[o++] = *m == '\n' ? ' ' : *m;
		words[o] = '\0';
		if (strcmp(words, r[i].when) != 0)
			fail_msg("man page, %s: '%s', the table says '%s'", v, words, r[i].when);
		if (r[i].band[0]) {
			/* the band follows on a line of its own */
			snprintf(want, sizeof(want), "\n.br\nBand: %s.\n", r[i].band);
			if (strncmp(m, want, strlen(want)) != 0)
				fail_msg("man page, %s: no 'Band: %s.' after it", v, r[i].band);
		}
		prev_man = m;
	}
	free(doc);
	free(man);
}

/* A main process (pid 100) of main_threads threads, each mcpu % and
 * mwait %, the first waiting for input minput % of the window, and nw
 * forked workers (200, 201, ...) of wthreads threads each wcpu % and wwait
 * %, OpenBLAS in every process, on cpus effective CPUs. */
struct pool_job {
	double cpus;
	int main_threads;
	double mcpu, mwait, minput;
	int nw, wthreads;
	double wcpu, wwait;
};

static void pool_scene(struct scene *s, struct pool_job j)
{
	scene_make(s, 0, 0, 0, j.cpus);
	s->b.online = s->b.affinity = (int)ceil(j.cpus);
	size_t k = 0;
	for (int p = 0; p <= j.nw; p++) {
		pid_t pid = p == 0 ? 100 : 199 + p;
		for (int t = 0; t < (p == 0 ? j.main_threads : j.wthreads); t++, k++) {
			s->t[k] = tl_rate(pid, pid + t * 10, "python3", 'R', p ? j.wcpu : j.mcpu);
			s->t[k].wait_pct = p ? j.wwait : j.mwait;
		}
	}
	if (j.minput > 0) {
		s->t[0].input_wait_pct = j.minput;
		s->t[0].activity = ACTIVITY_INPUT_WAIT;
	}
	s->r.nthreads = k;
	const char cmd[] = "python3\0train.py\0";
	for (int i = 0; i <= j.nw; i++) {
		struct census_proc *p = &s->p[i];
		memset(p, 0, sizeof(*p));
		p->pid = i == 0 ? 100 : 199 + i;
		p->exe_readable = true;
		snprintf(p->exe, sizeof(p->exe), "/usr/bin/python3.11");
		memcpy(p->cmdline, cmd, sizeof(cmd));
		p->cmdline_len = sizeof(cmd);
		p->nruntimes = 1;
		p->runtimes[0].id = RUNTIME_OPENBLAS;
		p->runtimes[0].variant = "pthreads";
		snprintf(p->runtimes[0].lib, sizeof(p->runtimes[0].lib),
			 "/usr/lib/x86_64-linux-gnu/openblas-pthread/libopenblasp-r0.3.21.so");
		p->env = CENSUS_ENV_OK;
	}
	s->c.p = s->p;
	s->c.n = (size_t)j.nw + 1;
	s->in.census = &s->c;
	diagnosis_make(&s->in, &s->d);
	assert_int_equal(s->d.verdict, VERDICT_OVERSUBSCRIBED);
	assert_true(s->d.nsuggestions >= 1);
	print_message("# %.2f CPUs, main %d threads, %d workers of %d: %s\n", j.cpus,
		      j.main_threads, j.nw, j.wthreads, s->d.suggestions[0]);
}

/* Two forked workers of 2 threads, every thread busy 40 % and waiting 60 %. */
static void worker_scene(struct scene *s, double cpus, int main_threads)
{
	pool_scene(s, (struct pool_job){.cpus = cpus,
					.main_threads = main_threads,
					.mcpu = 40,
					.mwait = 60,
					.nw = 2,
					.wthreads = 2,
					.wcpu = 40,
					.wwait = 60});
}

/* A scene throttled by a quota of q CPUs on a 2-CPU box. */
static void throttle_scene(struct scene *s, double q)
{
	s->b.online = s->b.affinity = 2;
	s->b.quota.cpus = q;
	s->b.effective = q;
	s->b.binding = BUDGET_QUOTA;
	s->r.throttle.valid = true;
	s->r.throttle.throttled_pct = 95;
	s->r.throttle.throttled_s_per_s = 0.9;
	diagnosis_make(&s->in, &s->d);
	assert_int_equal(s->d.verdict, VERDICT_THROTTLED);
}

/* Under a quota the advice never cuts threads below what can spend it
 * (2 OpenBLAS threads under 1.5 CPUs ran 25 % faster than the 1 the
 * advice named), and forked workers' pools come first. */
static void test_suggest_throttled(void **state)
{
	(void)state;
	struct scene s;
	/* the main process alone, OpenBLAS at 2 threads, quota 1.5 */
	pool_scene(&s, (struct pool_job){.cpus = 1.5, .main_threads = 2, .mcpu = 75, .mwait = 25});
	throttle_scene(&s, 1.5);
	for (size_t i = 0; i < s.d.nsuggestions; i++)
		if (strstr(s.d.suggestions[i], "OPENBLAS_NUM_THREADS=1"))
			fail_msg("a cut to 1 thread under 1.5 CPUs: %s", s.d.suggestions[i]);
	/* at 4 threads: 2, the fewest that spend 1.5 CPUs */
	pool_scene(&s, (struct pool_job){.cpus = 1.5, .main_threads = 4, .mcpu = 37, .mwait = 63});
	throttle_scene(&s, 1.5);
	if (!strstr(s.d.suggestions[0], "openblas_set_num_threads(2) in the program: OpenBLAS "
					"runs 4 threads") ||
	    !strstr(s.d.suggestions[0], "about 2.0 runnable threads in 1.50 CPUs of quota"))
		fail_msg("want a pool of 2 first: %s", s.d.suggestions[0]);
	/* 4 workers of 2 threads in 1 CPU of quota: one thread in each first,
	 * and the limit said for what it is (they want 7.5 CPUs, not 2) */
	pool_scene(&s, (struct pool_job){.cpus = 2,
					 .main_threads = 1,
					 .mcpu = 10,
					 .nw = 4,
					 .wthreads = 2,
					 .wcpu = 12.5,
					 .wwait = 80});
	throttle_scene(&s, 1);
	assert_non_null(strstr(s.d.suggestions[0], "set OPENBLAS_NUM_THREADS=1 in the 4 forked "
						   "workers (OpenBLAS runs 2 threads in each)"));
	bool limit = false;
	for (size_t i = 0; i < s.d.nsuggestions; i++) {
		assert_null(strstr(s.d.suggestions[i], "want that much CPU time"));
		limit = limit || strstr(s.d.suggestions[i], "(all it may run on) only with fewer "
							     "threads");
	}
	assert_true(limit);
}

static void test_suggest_workers(void **state)
{
	(void)state;
	struct scene s;
	/* 2 + 2 x 2 on 2 CPUs: even one thread each is 3; fewer workers. */
	worker_scene(&s, 2, 2);
	assert_non_null(strstr(s.d.suggestions[0], "use 1 of the 2 forked workers, with "
						   "OPENBLAS_NUM_THREADS=1 in each and in the main "
						   "process: about 2.0 runnable threads"));
	/* 4 + 2 x 2 on 4 CPUs: workers at 1, the main process at 2. */
	worker_scene(&s, 4, 4);
	assert_non_null(strstr(s.d.suggestions[0],
			       "set OPENBLAS_NUM_THREADS=1 in the 2 forked workers and "
			       "OPENBLAS_NUM_THREADS=2 in the main process: 4 runnable"));
	/* 1 + 2 x 2 on 3.5 CPUs: the workers' pools alone. */
	worker_scene(&s, 3.5, 1);
	assert_non_null(strstr(s.d.suggestions[0], "set OPENBLAS_NUM_THREADS=1 in the 2 forked "
						   "workers (OpenBLAS runs"));
	assert_non_null(strstr(s.d.suggestions[0], "about 3.0 runnable threads on 3.50 CPUs"));
	/* 1 + 2 x 2 on 1 CPU: no change predicts a fit, so none promises one
	 * (never "2 runnable threads on 1.00 CPUs") */
	worker_scene(&s, 1.0, 1);
	assert_false(has_text(s.d.suggestions, s.d.nsuggestions, "2 runnable threads on 1.00"));
	assert_non_null(
	    strstr(s.d.suggestions[0], "run fewer processes, or give the job more CPUs"));
	/* A pool of 4 workers at OPENBLAS_NUM_THREADS=1 already, each 0.9
	 * runnable, beside a main process that mostly waits (0.3): as many
	 * workers as fit beside what the main process uses, 2 (0.3 + 2 x 0.9
	 * = 2.1), not 1 as if the main process were a whole busy thread. */
	pool_scene(&s, (struct pool_job){.cpus = 2,
					 .main_threads = 1,
					 .mcpu = 10,
					 .mwait = 20,
					 .nw = 4,
					 .wthreads = 1,
					 .wcpu = 40,
					 .wwait = 50});
	assert_non_null(strstr(s.d.suggestions[0], "use 2 of the 4 forked workers, with "
						   "OPENBLAS_NUM_THREADS=1 in each and in the main "
						   "process: about 2.1 runnable threads on 2.00 CPUs"));
	/* A main process of 2 busy threads beside 4 workers that mostly
	 * wait (0.3 runnable each, not starved): one thread everywhere fits
	 * (1 + 4 x 0.3 = 2.2), and is said with that figure, not "still 5
	 * runnable threads". */
	pool_scene(&s, (struct pool_job){.cpus = 2,
					 .main_threads = 2,
					 .mcpu = 70,
					 .mwait = 30,
					 .nw = 4,
					 .wthreads = 1,
					 .wcpu = 25,
					 .wwait = 5});
	assert_non_null(strstr(s.d.suggestions[0], "set OPENBLAS_NUM_THREADS=1 in the main process "
						   "and in the 4 forked workers: about 2.2 runnable "
						   "threads on 2.00 CPUs"));
	/* The same pool waiting on input, its workers at 2 OpenBLAS threads
	 * each and starved for CPU (0.3 CPUs each, 1.45 runnable): the main
	 * loop's wait for input is no reason for more workers: one thread in
	 * each, and as many as fit. */
	pool_scene(&s, (struct pool_job){.cpus = 2,
					 .main_threads = 1,
					 .mcpu = 7,
					 .mwait = 3,
					 .minput = 69,
					 .nw = 4,
					 .wthreads = 2,
					 .wcpu = 15,
					 .wwait = 57.5});
	assert_true(s.d.input_bound);
	assert_false(has_text(s.d.suggestions, s.d.nsuggestions, "workers instead of"));
	assert_non_null(strstr(s.d.suggestions[0], "use 2 of the 4 forked workers, with "
						   "OPENBLAS_NUM_THREADS=1 in each"));
	assert_true(has_text(s.d.reasons, s.d.nreasons,
			     "the 4 forked workers wait for a CPU themselves (4.60 s/s waiting, "
			     "1.20 CPUs used)"));
}

/* The lab's suggestions name its keys in the dashboard and its flags
 * elsewhere (--diagnose, --batch). */
static void test_lab_suggestions(void **state)
{
	(void)state;
	struct scene s;
	struct settings lab = knobs_defaults();
	lab.threads = 3;
	scene_make(&s, 3, 66, 33, 2);
	s.in.lab = &lab;
	s.in.keys = true;
	diagnosis_make(&s.in, &s.d);
	assert_int_equal(s.d.verdict, VERDICT_OVERSUBSCRIBED);
	assert_true(has_text(s.d.suggestions, s.d.nsuggestions, "press - (or [)"));
	s.in.keys = false;
	diagnosis_make(&s.in, &s.d);
	assert_true(
	    has_text(s.d.suggestions, s.d.nsuggestions, "run with --threads 2 --streams 1"));
	assert_false(has_text(s.d.suggestions, s.d.nsuggestions, "press"));
}

/* Roles: the target, its forked workers (same exe and command line), a
 * child running something else. */
static void test_roles(void **state)
{
	(void)state;
	struct scene s;
	scene_make(&s, 0, 0, 0, 2);
	s.t[0] = tl_rate(100, 100, "python3", 'R', 90);
	s.t[1] = tl_rate(100, 101, "python3", 'R', 90);
	s.t[2] = tl_rate(200, 200, "python3", 'R', 50);
	s.t[3] = tl_rate(201, 201, "python3", 'R', 50);
	s.t[4] = tl_rate(300, 300, "ffmpeg", 'S', 5);
	for (int i = 0; i < 5; i++)
		s.t[i].wait_pct = 10;
	s.r.nthreads = 5;
	const char cmd[] = "python3\0train.py\0";
	pid_t pids[] = {100, 200, 201, 300};
	for (int i = 0; i < 4; i++) {
		struct census_proc *p = &s.p[i];
		p->pid = pids[i];
		p->exe_readable = true;
		snprintf(p->exe, sizeof(p->exe),
			 i == 3 ? "/usr/bin/ffmpeg" : "/usr/bin/python3.11");
		memcpy(p->cmdline, cmd, sizeof(cmd));
		p->cmdline_len = sizeof(cmd);
	}
	s.c.p = s.p;
	s.c.n = 4;
	s.in.census = &s.c;
	diagnosis_make(&s.in, &s.d);
	assert_int_equal(s.d.nroles, 3);
	assert_string_equal(s.d.roles[0].name, "python3.11 (main)");
	assert_int_equal(s.d.roles[0].threads, 2);
	assert_string_equal(s.d.roles[1].kind, "workers");
	assert_int_equal(s.d.roles[1].nprocs, 2);
	assert_true(fabs(s.d.roles[1].runnable_mean - 1.2) < 0.01);
	assert_string_equal(s.d.roles[2].name, "ffmpeg");
	/* The roles add up to the whole. */
	double sum = 0;
	for (size_t i = 0; i < s.d.nroles; i++)
		sum += s.d.roles[i].runnable_mean;
	assert_true(fabs(sum - s.d.runnable_mean) < 1e-9);
	/* Groups by process and stem. */
	assert_int_equal(s.d.ngroups, 4);
	assert_int_equal(s.d.groups[0].threads, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_rule_idle),
	    cmocka_unit_test(test_rule_oversubscribed),
	    cmocka_unit_test(test_rule_throttled),
	    cmocka_unit_test(test_rule_undersubscribed),
	    cmocka_unit_test(test_rule_fine_and_doc),
	    cmocka_unit_test(test_rules_documented),
	    cmocka_unit_test(test_rule_tail),
	    cmocka_unit_test(test_suggest_workers),
	    cmocka_unit_test(test_suggest_throttled),
	    cmocka_unit_test(test_lab_suggestions),
	    cmocka_unit_test(test_roles),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
