/* diagnosis-rules.c — the verdict table.
 *
 * The only place where thresholds live; each rule is a predicate over the
 * figures (diagnosis.c) and a writer of its headline, reasons and
 * suggestions.  The first rule that holds gives the verdict:
 *   idle             under 0.05 CPUs in use and under 0.1 runnable threads
 *   throttled        a quota, throttled in >= 20 % of periods (or >= 0.1 s/s),
 *                    and either throttling explains at least half of the
 *                    wait or the runnable threads would fit the CPUs without
 *                    the quota (runnable <= 1.2 x min(online, affinity,
 *                    cpuset)): the quota, not the cores, holds the work back
 *   oversubscribed   factor (runnable / effective CPUs) above 1.2, or above 1.0
 *                    with a long tail: p99 run-queue latency >= 10 ms over 50 or
 *                    more waits (the BPF collector): the mean fits, the waits
 *                    do not
 *   undersubscribed  a thread pool, a thread busy >= 90 % of a CPU, yet a whole CPU or
 *                    more of the effective ones unused (runnable <= E - 0.9)
 *   fine             anything else */
#include "config.h"

#include "diagnosis.h"
#include "diagnosis-impl.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define DIAG_OVER_FACTOR     1.2
#define DIAG_IDLE_CPU	     0.05
#define DIAG_IDLE_RUNNABLE   0.10
#define DIAG_THROTTLE_PCT    20.0
#define DIAG_THROTTLE_S	     0.10
#define DIAG_UNDER_SLACK     0.9
#define DIAG_BUSY_THREAD_PCT 90.0

static bool diag_has_quota(const struct diag_input *in)
{
	return in->budget->quota.cpus > 0;
}

static int diag_floor_cpus(double e)
{
	int n = (int)floor(e + 1e-9);
	return n < 1 ? 1 : n;
}

/* The runtime whose pool the user configures: an OpenMP runtime or a BLAS
 * of the target, the largest pool first. */
static const struct diag_runtime *diag_main_pool(const struct diagnosis *d)
{
	const struct diag_runtime *best = NULL;
	for (size_t i = 0; i < d->nruntimes; i++) {
		const struct diag_runtime *r = &d->runtimes[i];
		enum runtime_kind k = runtimes_kind(r->id);
		if ((k != RUNTIME_KIND_OPENMP && k != RUNTIME_KIND_BLAS) || r->pool_unknown)
			continue;
		if (!best || r->pool > best->pool)
			best = r;
	}
	return best;
}

static const char *diag_env_get(const void *ctx, const char *name)
{
	const struct diag_env *e = diag_var(ctx, name);
	return e && e->set ? e->value : NULL;
}

/* The variable that sets pool's size, or NULL: the one with precedence
 * among those the target has set (OPENBLAS_NUM_THREADS over
 * OMP_NUM_THREADS for OpenBLAS, say). */
static const char *diag_pool_knob(const struct diagnosis *d, const struct diag_runtime *pool)
{
	struct runtimes_env env = {diag_env_get, d};
	return runtimes_knob(pool->id, pool->variant, &env);
}

static const struct diag_role *diag_role_kind(const struct diagnosis *d, const char *kind)
{
	for (size_t i = 0; i < d->nroles; i++)
		if (strcmp(d->roles[i].kind, kind) == 0)
			return &d->roles[i];
	return NULL;
}

/* The lab's pools follow its knobs, not the environment: keys in the
 * dashboard, start-up flags elsewhere. */
static bool diag_lab_suggest(struct diagnosis *d, const struct diag_input *in, enum verdict v)
{
	const struct lab_settings *l = in->lab;
	if (!l)
		return false;
	double budget = v == VERDICT_THROTTLED ? in->budget->quota.cpus : d->effective;
	int cpus = diag_floor_cpus(budget);
	int streams = l->streams > 0 ? l->streams : 1;
	int busy = l->threads * streams;
	if (v == VERDICT_UNDERSUBSCRIBED) {
		int want = cpus / streams > l->threads ? cpus / streams : l->threads + 1;
		if (in->keys)
			SUGGEST(
			    d,
			    "press + for %d intra-op threads (now %d x %d stream(s) on %.2f CPUs)",
			    want, l->threads, streams, d->effective);
		else
			SUGGEST(d, "run with --threads %d (now %d x %d stream(s) on %.2f CPUs)",
				want, l->threads, streams, d->effective);
		return true;
	}
	if (busy > cpus) {
		int s = streams <= cpus ? streams : cpus;
		int t = cpus / s > 0 ? cpus / s : 1;
		if (in->keys)
			SUGGEST(d,
				"press - (or [) until threads x streams is %d: now %d x %d = %d on "
				"%.2f CPUs",
				cpus, l->threads, streams, busy, budget);
		else
			SUGGEST(d,
				"run with --threads %d --streams %d: now %d x %d = %d on %.2f CPUs",
				t, s, l->threads, streams, busy, budget);
	}
	if (l->workers > 0) {
		if (in->keys)
			SUGGEST(d, "press W: %d background worker(s) take CPU from the GEMMs",
				l->workers);
		else
			SUGGEST(d,
				"run with --workers 0: %d background worker(s) take CPU from the "
				"GEMMs",
				l->workers);
	}
	if (v == VERDICT_THROTTLED) {
		if (in->keys)
			SUGGEST(d, "press } to raise the quota (now %.2f CPUs) or u to lift it",
				in->budget->quota.cpus);
		else
			SUGGEST(d, "run with a larger --cpus (now %.2f) or without it",
				in->budget->quota.cpus);
	}
	return true;
}

static bool rule_idle(const struct diagnosis *d, const struct diag_input *in)
{
	(void)in;
	return d->nthreads == 0 ||
	       (d->cpu < DIAG_IDLE_CPU && d->runnable_mean < DIAG_IDLE_RUNNABLE);
}

static void say_idle(struct diagnosis *d, const struct diag_input *in)
{
	snprintf(d->headline, sizeof(d->headline),
		 "idle: %.2f CPUs in use and %.2f runnable threads on average, not enough activity "
		 "to judge",
		 d->cpu, d->runnable_mean);
	if (in->unfollowed)
		SUGGEST(d,
			"add --tree: the target's %d descendant process(es) may be where the work "
			"runs",
			in->unfollowed);
}

/* The CPUs the target would have without its quota: the least of online,
 * affinity and cpuset. */
static double diag_cores(const struct budget *b)
{
	int c = b->online;
	if (b->affinity > 0 && b->affinity < c)
		c = b->affinity;
	if (b->cpuset > 0 && b->cpuset < c)
		c = b->cpuset;
	return c;
}

static bool rule_throttled(const struct diagnosis *d, const struct diag_input *in)
{
	return diag_has_quota(in) && d->throttle_valid &&
	       (d->throttled_pct >= DIAG_THROTTLE_PCT || d->throttled_s_per_s >= DIAG_THROTTLE_S) &&
	       (d->throttle_wait >= 0.5 * d->wait ||
		d->runnable_mean <= DIAG_OVER_FACTOR * diag_cores(in->budget));
}

static void say_throttled(struct diagnosis *d, const struct diag_input *in)
{
	double q = in->budget->quota.cpus;
	const struct diag_runtime *pool = diag_main_pool(d);
	snprintf(
	    d->headline, sizeof(d->headline),
	    "throttled by its CPU quota of %.2f CPUs: throttled in %.0f%% of periods, %.2f s/s "
	    "of the %.2f s/s run-queue wait is throttling; %.1f runnable threads on average",
	    q, d->throttled_pct, d->throttle_wait, d->wait, d->runnable_mean);
	REASON(d,
	       "a CPU limit is a time budget, not reserved cores: %.2f CPUs of time per "
	       "second, spent by %.1f runnable threads",
	       q, d->runnable_mean);
	if (diag_lab_suggest(d, in, VERDICT_THROTTLED))
		return;
	if (pool && pool->pool > diag_floor_cpus(q)) {
		const char *knob = diag_pool_knob(d, pool);
		if (knob)
			SUGGEST(d, "set %s=%d: the quota gives %.2f CPUs, %s runs %d threads", knob,
				diag_floor_cpus(q), q, pool->name, pool->pool);
	}
	int want = (int)ceil(d->runnable_mean - 1e-9) < 1 ? 1 : (int)ceil(d->runnable_mean - 1e-9);
	SUGGEST(d, "%sraise the CPU limit to %d CPU%s (the %.1f threads that want to run)",
		d->nsuggestions ? "or " : "", want, want == 1 ? "" : "s", d->runnable_mean);
}

/* Oversubscribed with forked workers and a pool: the change that brings the
 * demand within the CPUs, checked by arithmetic: one pool thread per worker
 * (unless they run one already), then the main process's pool cut to what
 * the workers leave, then fewer workers.  Each worker counts as at most 1
 * runnable thread once its pool is 1, the main process as its pool. */
static void diag_suggest_workers(struct diagnosis *d, const char *knob,
				 const struct diag_role *workers, const struct diag_runtime *pool)
{
	int cpus = diag_floor_cpus(d->effective);
	int w = workers->nprocs;
	const struct diag_role *main_role = diag_role_kind(d, "main");
	double dmain = main_role ? main_role->runnable_mean : 0;
	double per_worker = w > 0 ? workers->runnable_mean / w : 0;
	double fit = DIAG_OVER_FACTOR * d->effective;
	if (per_worker > 1.1 && dmain + w <= fit) {
		SUGGEST(d,
			"set %s=1 in the %d %s (%s runs %d threads in each): about %.1f "
			"runnable threads on %.2f CPUs",
			knob, w, workers->name, pool->name, pool->pool, dmain + w, d->effective);
		return;
	}
	if (cpus - w >= 1) {
		SUGGEST(d,
			"set %s=1 in the %d %s and %s=%d in the main process: %d runnable threads "
			"on %.2f CPUs",
			knob, w, workers->name, knob, cpus - w, cpus, d->effective);
		return;
	}
	int keep = cpus > 1 ? cpus - 1 : 1;
	SUGGEST(d,
		"use %d of the %d %s, with %s=1 in each and in the main process: %d runnable "
		"threads on %.2f CPUs",
		keep, w, workers->name, knob, keep + 1, d->effective);
}

static bool rule_over(const struct diagnosis *d, const struct diag_input *in)
{
	(void)in;
	return d->effective > 0 &&
	       (d->factor > DIAG_OVER_FACTOR || (d->factor > 1.0 && diag_latency_long_tail(d)));
}

static void say_over(struct diagnosis *d, const struct diag_input *in)
{
	char parts[DIAG_TEXT] = "";
	size_t o = 0;
	for (size_t i = 0; i < d->nroles && d->nroles > 1; i++) {
		const struct diag_role *r = &d->roles[i];
		int n = r->nprocs > 1
			    ? snprintf(parts + o, sizeof(parts) - o, "%s%d %s %.1f",
				       o ? ", " : " (", r->nprocs, r->name, r->runnable_mean)
			    : snprintf(parts + o, sizeof(parts) - o, "%s%s %.1f", o ? ", " : " (",
				       r->name, r->runnable_mean);
		if (n > 0 && (size_t)n < sizeof(parts) - o)
			o += (size_t)n;
	}
	if (o && o + 1 < sizeof(parts))
		parts[o++] = ')', parts[o] = '\0';
	snprintf(d->headline, sizeof(d->headline),
		 "oversubscribed %.1fx: %.1f runnable threads on average%s on %.2f effective CPUs "
		 "(%s binds); run-queue wait %.2f s/s",
		 d->factor, d->runnable_mean, parts, d->effective, budget_term_name(d->binding),
		 d->wait);
	if (d->factor <= DIAG_OVER_FACTOR)
		REASON(d,
		       "the mean alone (factor %.2f) would pass, but the threads queue: p99 "
		       "run-queue latency %.1f ms, several scheduler slices",
		       d->factor, d->latency.p99_s * 1e3);
	int cpus = diag_floor_cpus(d->effective);
	const struct diag_role *workers = diag_role_kind(d, "workers");
	const struct diag_runtime *pool = diag_main_pool(d);
	if (diag_lab_suggest(d, in, VERDICT_OVERSUBSCRIBED))
		return;
	if (pool) {
		const char *knob = diag_pool_knob(d, pool);
		if (knob && workers)
			diag_suggest_workers(d, knob, workers, pool);
		else if (knob)
			SUGGEST(d, "set %s=%d, the effective CPUs (%s runs %d threads now)", knob,
				cpus, pool->name, pool->pool);
	} else if (workers) {
		const struct diag_role *main_role = diag_role_kind(d, "main");
		double dmain = main_role ? main_role->runnable_mean : 0;
		double each = workers->runnable_mean / workers->nprocs;
		int keep = each > 0 ? (int)floor((DIAG_OVER_FACTOR * d->effective - dmain) / each)
				    : workers->nprocs;
		if (keep >= 1 && keep < workers->nprocs)
			SUGGEST(d, "use %d of the %d %s: about %.1f runnable threads on %.2f CPUs",
				keep, workers->nprocs, workers->name, dmain + keep * each,
				d->effective);
		else
			SUGGEST(
			    d,
			    "fewer threads in the main process (%.1f runnable) and fewer %s (%d, "
			    "%.1f runnable each): %.2f CPUs serve them all",
			    dmain, workers->name, workers->nprocs, each, d->effective);
	} else {
		SUGGEST(d, "run at most %d busy threads: %.1f want to run on %.2f effective CPUs",
			cpus, d->runnable_mean, d->effective);
	}
}

/* A thread that keeps a CPU busy. */
static bool diag_busy_thread(const struct diag_input *in)
{
	for (size_t i = 0; i < in->rates->nthreads; i++)
		if (in->rates->threads[i].cpu_pct >= DIAG_BUSY_THREAD_PCT)
			return true;
	return false;
}

/* CPUs unused while a thread is busy: what undersubscribed needs besides a
 * pool to size. */
static bool diag_idle_cpus_busy_thread(const struct diagnosis *d, const struct diag_input *in)
{
	return d->effective >= 1.5 && d->runnable_mean <= d->effective - DIAG_UNDER_SLACK &&
	       diag_busy_thread(in);
}

static bool rule_under(const struct diagnosis *d, const struct diag_input *in)
{
	/* Without a pool to size the work may be serial by design: fine, and
	 * the reason says so. */
	return diag_idle_cpus_busy_thread(d, in) && (in->lab || diag_main_pool(d));
}

static void say_under(struct diagnosis *d, const struct diag_input *in)
{
	int cpus = diag_floor_cpus(d->effective);
	snprintf(d->headline, sizeof(d->headline),
		 "undersubscribed: %.1f runnable threads on average on %.2f effective CPUs (%s "
		 "binds): %.1f CPUs stay unused while a thread is busy",
		 d->runnable_mean, d->effective, budget_term_name(d->binding),
		 d->effective - d->runnable_mean);
	const struct diag_runtime *pool = diag_main_pool(d);
	if (diag_lab_suggest(d, in, VERDICT_UNDERSUBSCRIBED))
		return;
	if (pool) {
		const char *knob = diag_pool_knob(d, pool);
		if (pool->pool > d->runnable_mean + 1)
			REASON(d,
			       "%s is set up for %d threads, but %.1f are busy: the work is "
			       "serial, or waits elsewhere",
			       pool->name, pool->pool, d->runnable_mean);
		else if (knob)
			SUGGEST(d, "set %s=%d to use the %.2f effective CPUs (%s runs %d now)",
				knob, cpus, d->effective, pool->name, pool->pool);
	}
}

static bool rule_fine(const struct diagnosis *d, const struct diag_input *in)
{
	(void)d, (void)in;
	return true;
}

static void say_fine(struct diagnosis *d, const struct diag_input *in)
{
	snprintf(d->headline, sizeof(d->headline),
		 "fine: %.1f runnable threads on average on %.2f effective CPUs (%s binds), factor "
		 "%.2f",
		 d->runnable_mean, d->effective, budget_term_name(d->binding), d->factor);
	if (diag_idle_cpus_busy_thread(d, in))
		REASON(d,
		       "no thread pool found: the busy work looks serial, and %.1f of the %.2f "
		       "CPUs stay unused; only splitting it (threads or processes) would use them",
		       d->effective - d->runnable_mean, d->effective);
}

struct diag_rule {
	enum verdict verdict;
	const char *when;
	bool (*holds)(const struct diagnosis *d, const struct diag_input *in);
	void (*say)(struct diagnosis *d, const struct diag_input *in);
};

static const struct diag_rule diag_rules[] = {
    {VERDICT_IDLE, "under 0.05 CPUs in use and under 0.1 runnable threads on average", rule_idle,
     say_idle},
    {VERDICT_THROTTLED,
     "a CPU quota, throttled in at least 20% of periods (or 0.1 s/s), and either throttling "
     "explains at least half of the run-queue wait or the mean runnable threads would fit the "
     "CPUs without the quota (at most 1.2 x the least of online, affinity and cpuset CPUs)",
     rule_throttled, say_throttled},
    {VERDICT_OVERSUBSCRIBED,
     "mean runnable threads above 1.2 x the effective CPUs, or above 1.0 x with a p99 run-queue "
     "latency of 10 ms or more over at least 50 waits (BPF collector only)",
     rule_over, say_over},
    {VERDICT_UNDERSUBSCRIBED,
     "a thread pool (a runtime that sizes one, or the lab) and a thread busy at least 90% of a "
     "CPU, yet a whole effective CPU or more unused (mean runnable threads at most effective "
     "CPUs - 0.9)",
     rule_under, say_under},
    {VERDICT_FINE, "none of the above", rule_fine, say_fine},
};

const struct diag_rule_doc *diagnosis_rules(size_t *n)
{
	static struct diag_rule_doc docs[sizeof(diag_rules) / sizeof(diag_rules[0])];
	*n = sizeof(diag_rules) / sizeof(diag_rules[0]);
	for (size_t i = 0; i < *n; i++) {
		docs[i].verdict = diag_rules[i].verdict;
		docs[i].when = diag_rules[i].when;
	}
	return docs;
}

void diag_rules_apply(struct diagnosis *d, const struct diag_input *in)
{
	for (size_t i = 0; i < sizeof(diag_rules) / sizeof(diag_rules[0]); i++) {
		const struct diag_rule *r = &diag_rules[i];
		if (!r->holds(d, in))
			continue;
		d->verdict = r->verdict;
		r->say(d, in);
		return;
	}
}
