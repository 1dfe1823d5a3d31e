/* diagnosis-advice.c — what to change, for each verdict, and the findings
 * every verdict carries.
 *
 * A suggestion names a real setting and a number, and says what it would
 * give; where it predicts the result (runnable threads on CPUs) the
 * prediction is checked before it is shown (diagnosis_advice_suggest_fits): a change
 * whose own result would be oversubscribed is not offered, "use K of the N
 * workers" needs K < N.  Where the code sets a pool (the pool in effect
 * differs from what the environment implies) the call that sets it comes
 * first, the variable after it.  Where nothing in the job can help
 * (contended), the advice says so and names who holds the CPUs. */
#include "config.h"

#include "diagnosis.h"
#include "diagnosis-impl.h"
#include "diagnosis-rules-impl.h"
#include "diagnosis-advice.h"
#include "diagnosis-runtimes.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

bool diagnosis_advice_prediction_fits(double runnable, double cpus)
{
	return cpus > 0 && runnable <= DIAG_OVER_FACTOR * cpus + 1e-9;
}

bool diagnosis_advice_suggest_fits(struct diagnosis *d, double runnable, double cpus,
				   const char *fmt, ...)
{
	if (!diagnosis_advice_prediction_fits(runnable, cpus) || d->nsuggestions >= DIAG_SUGGEST)
		return false;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(d->suggestions[d->nsuggestions++], DIAG_TEXT, fmt, ap);
	va_end(ap);
	return true;
}

void diagnosis_advice_suggest_first(struct diagnosis *d)
{
	if (d->nsuggestions < 2)
		return;
	char last[DIAG_TEXT];
	memcpy(last, d->suggestions[d->nsuggestions - 1], DIAG_TEXT);
	memmove(d->suggestions[1], d->suggestions[0], (d->nsuggestions - 1) * DIAG_TEXT);
	memcpy(d->suggestions[0], last, DIAG_TEXT);
}

static int diag_floor_cpus(double e)
{
	int n = (int)floor(e + 1e-9);
	return n < 1 ? 1 : n;
}

/* The fewest threads that can spend a quota of q CPUs whole: 2 for 1.5.
 * Cut to floor(q), a job leaves the rest of its quota unused (an
 * engineer's pass: 2 OpenBLAS threads under 1.5 CPUs ran 25 % faster
 * than the 1 the advice said, throttled as they were). */
static int diag_ceil_cpus(double q)
{
	int n = (int)ceil(q - 1e-9);
	return n < 1 ? 1 : n;
}

const struct diag_runtime *diagnosis_advice_main_pool(const struct diagnosis *d)
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
	const struct diag_env *e = diagnosis_runtimes_var(ctx, name);
	return e && e->set ? e->value : NULL;
}

/* The variable that sets pool's size: the one with precedence among those
 * the target has set (OPENBLAS_NUM_THREADS over OMP_NUM_THREADS, say). */
static const char *diag_pool_knob(const struct diagnosis *d, const struct diag_runtime *pool)
{
	struct runtimes_env env = {diag_env_get, d};
	return runtimes_knob(pool->id, pool->variant, &env);
}

/* The call that sets pool's size in code, with n: a framework of the same
 * process first (PyTorch's set_num_threads sizes its OpenMP team). */
static bool diag_pool_call(const struct diagnosis *d, const struct diag_runtime *pool, int n,
			   char *out, size_t cap)
{
	const char *call = runtimes_call(pool->id);
	for (size_t i = 0; i < d->nruntimes; i++) {
		const struct diag_runtime *r = &d->runtimes[i];
		if (r->pid == pool->pid && runtimes_kind(r->id) == RUNTIME_KIND_FRAMEWORK &&
		    (r->id == RUNTIME_TORCH || r->id == RUNTIME_TENSORFLOW))
			call = runtimes_call(r->id);
	}
	if (!call)
		return false;
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
	snprintf(out, cap, call, n);
#pragma GCC diagnostic pop
	return true;
}

const struct diag_role *diagnosis_advice_role(const struct diagnosis *d, const char *kind)
{
	for (size_t i = 0; i < d->nroles; i++)
		if (strcmp(d->roles[i].kind, kind) == 0)
			return &d->roles[i];
	return NULL;
}

bool diagnosis_advice_role_starved(const struct diag_role *r)
{
	return r->wait_pct >= DIAG_STARVED_WAIT * r->cpu_pct && r->wait_pct >= DIAG_STARVED_MIN;
}

void diagnosis_advice_neighbours_text(const struct diagnosis *d, char *out, size_t cap, size_t max)
{
	size_t o = 0;
	out[0] = '\0';
	for (size_t i = 0; i < d->machine.n && i < max; i++) {
		const struct neighbour *x = &d->machine.top[i];
		if (x->cpus_used < 0.05 || !x->shares_cpus)
			continue; /* named only when it took something of the target's CPUs */
		bool cg = x->cgroup[0] && strcmp(x->cgroup, "/") != 0;
		int n = snprintf(out + o, cap - o, "%s%.*s (pid %d, %.1f CPUs%s%s)", o ? ", " : "",
				 (int)x->name_len, x->name, (int)x->pid, x->cpus_used,
				 cg ? ", " : "", cg ? x->cgroup : "");
		if (n < 0 || (size_t)n >= cap - o)
			break;
		o += (size_t)n;
	}
	if (diagnosis_rules_others_unseen(d) >= 0.1 && o + 1 < cap)
		snprintf(out + o, cap - o, "%sprocesses too short-lived to name %.1f CPUs",
			 o ? ", " : "", diagnosis_rules_others_unseen(d));
	else if (!o)
		snprintf(out, cap, "none named");
}

/* The lab's pools follow its knobs, not the environment: keys in the
 * dashboard, start-up flags elsewhere. */
static bool diag_lab_suggest(struct diagnosis *d, const struct diag_input *in, enum verdict v)
{
	const struct settings *l = in->lab;
	if (!l)
		return false;
	double budget = v == VERDICT_THROTTLED ? in->budget->quota.cpus : d->effective;
	int cpus = v == VERDICT_THROTTLED ? diag_ceil_cpus(budget) : diag_floor_cpus(budget);
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

/* Sizes pool to n threads: in the code when the code sets it, else with
 * its variable; runnable is the demand predicted on cpus. */
static void diag_suggest_pool(struct diagnosis *d, const struct diag_runtime *pool, int n,
			      double runnable, double cpus, const char *why)
{
	const char *knob = diag_pool_knob(d, pool);
	char call[96];
	if (pool->code_sets && diag_pool_call(d, pool, n, call, sizeof(call))) {
		diagnosis_advice_suggest_fits(
		    d, runnable, cpus,
		    "call %s in the program: %s runs %d threads, a count its code sets "
		    "(the environment's default would be %d; %s=%d works only where "
		    "the code sets none); %s",
		    call, pool->name, pool->pool, pool->pool_default, knob ? knob : "its variable",
		    n, why);
		return;
	}
	if (knob)
		diagnosis_advice_suggest_fits(d, runnable, cpus,
					      "set %s=%d: %s runs %d threads now; %s", knob, n,
					      pool->name, pool->pool, why);
}

void diagnosis_advice_throttled(struct diagnosis *d, const struct diag_input *in)
{
	double q = in->budget->quota.cpus;
	const struct diag_runtime *pool = diagnosis_advice_main_pool(d);
	REASON(d,
	       "a CPU limit is a time budget, not reserved cores: %.2f CPUs of time per "
	       "second, spent by %.1f runnable threads",
	       q, d->runnable_mean);
	if (diag_lab_suggest(d, in, VERDICT_THROTTLED))
		return;
	int n = diag_ceil_cpus(q);
	/* Forked workers that each run a pool: one thread in each first
	 * (their pools' threads compete for the quota's time as much as for
	 * CPUs); said whatever the quota, as the threads it runs are the
	 * cause the quota only makes visible. */
	const struct diag_role *workers = diagnosis_advice_role(d, "workers");
	const char *wknob = pool && workers && !pool->code_sets ? diag_pool_knob(d, pool) : NULL;
	if (wknob && workers->nprocs > 0 && workers->runnable_mean / workers->nprocs > 1.1) {
		const struct diag_role *m = diagnosis_advice_role(d, "main");
		double w_after = workers->nprocs * 1.0, m_after = m ? fmin(m->runnable_mean, 1) : 0;
		SUGGEST(d,
			"set %s=1 in the %d %s (%s runs %d threads in each): about %.1f runnable "
			"threads in %.2f CPUs of quota, from %.1f",
			wknob, workers->nprocs, workers->name, pool->name, pool->pool, w_after + m_after,
			q, d->runnable_mean);
	} else if (pool && pool->pool > n) {
		double after = d->runnable_mean - (pool->pool - n);
		char why[128];
		if (q < 1)
			/* Below one CPU one thread is the fewest: it still waits
			 * for the quota, but no longer shares it with its pool. */
			snprintf(why, sizeof(why),
				 "about %.1f runnable threads in %.2f CPUs of quota (one thread is the "
				 "fewest: it still waits %.0f%% of each period)",
				 after > n ? after : n, q, (1 - q) * 100);
		else
			snprintf(why, sizeof(why), "about %.1f runnable threads in %.2f CPUs of quota",
				 after > n ? after : n, q);
		/* checked against the n threads it leaves, which the quota
		 * throttles but no CPU is short of */
		diag_suggest_pool(d, pool, n, after > n ? after : n, n, why);
	}
	/* The quota that lets the threads run: their demand, up to a quarter
	 * (not for a mean a few hundredths over one: 2.005 asks for 2.00), and
	 * no more than the CPUs they may run on (more would buy nothing). */
	double want = ceil(d->runnable_mean * 4 - 0.2) / 4;
	const struct budget *b = in->budget;
	double room = b->online;
	if (b->affinity > 0 && b->affinity < room)
		room = b->affinity;
	if (b->cpuset > 0 && b->cpuset < room)
		room = b->cpuset;
	if (room > 0 && want > room)
		want = room;
	if (want > q + 0.01 && diagnosis_advice_prediction_fits(d->runnable_mean, want))
		SUGGEST(d,
			"%sraise the CPU limit from %.2f to %.2f CPUs: %.2f runnable threads want "
			"that much CPU time each second",
			d->nsuggestions ? "or " : "", q, want, d->runnable_mean);
	else if (want > q + 0.01)
		/* all the CPUs it may run on would still be too few: a limit
		 * alone is no fix (never a prediction itself oversubscribed) */
		SUGGEST(d,
			"%sraise the CPU limit from %.2f to %.2f CPUs (all it may run on) only "
			"with fewer threads: %.2f runnable threads want %.1f CPUs",
			d->nsuggestions ? "and " : "", q, want, d->runnable_mean, d->runnable_mean);
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
	const struct diag_role *main_role = diagnosis_advice_role(d, "main");
	double dmain = main_role ? main_role->runnable_mean : 0;
	double per_worker = w > 0 ? workers->runnable_mean / w : 0;
	/* With a pool of 1 a process runs at most one thread: what each would
	 * want then is what it wants now, up to 1 (a worker that waits for
	 * input stays below it). */
	double worker_after = per_worker < 1 ? per_worker : 1;
	double main_after = dmain < 1 ? dmain : 1;
	if (per_worker > 1.1 &&
	    diagnosis_advice_suggest_fits(
		d, dmain + w * worker_after, d->effective,
		"set %s=1 in the %d %s (%s runs %d threads in each): about %.1f "
		"runnable threads on %.2f CPUs",
		knob, w, workers->name, pool->name, pool->pool, dmain + w * worker_after,
		d->effective))
		return;
	if (cpus - w >= 1 && diagnosis_advice_suggest_fits(
				 d, cpus, d->effective,
				 "set %s=1 in the %d %s and %s=%d in the main process: %d runnable "
				 "threads on %.2f CPUs",
				 knob, w, workers->name, knob, cpus - w, cpus, d->effective))
		return;
	/* Every process at one thread, when that fits (workers that mostly
	 * wait count for what they use). */
	double all_one = main_after + w * worker_after;
	if (all_one < dmain + workers->runnable_mean &&
	    diagnosis_advice_suggest_fits(
		d, all_one, d->effective,
		"set %s=1 in the main process and in the %d %s: about %.1f runnable threads on "
		"%.2f CPUs",
		knob, w, workers->name, all_one, d->effective))
		return;
	/* As many workers as fit beside the main process's measured demand
	 * (not a whole thread when it mostly waits).  An input-bound main
	 * process loses nothing by it when the workers wait for CPUs already. */
	int keep = worker_after > 0.05
		       ? (int)floor((DIAG_OVER_FACTOR * d->effective - main_after) / worker_after +
				    1e-9)
		       : w;
	double after = main_after + keep * worker_after;
	if (keep >= 1 && keep < w && (!d->input_bound || diagnosis_advice_role_starved(workers)) &&
	    diagnosis_advice_suggest_fits(
		d, after, d->effective,
		"use %d of the %d %s, with %s=1 in each and in the main process: about "
		"%.1f runnable threads on %.2f CPUs",
		keep, w, workers->name, knob, after, d->effective))
		return;
	/* Not even one thread per process fits: no number to promise. */
	SUGGEST(d,
		"with %s=1 everywhere the main process and the %d %s are still about %.1f "
		"runnable threads on %.2f CPUs: run fewer processes, or give the job more CPUs",
		knob, w, workers->name, all_one, d->effective);
}

void diagnosis_advice_over(struct diagnosis *d, const struct diag_input *in)
{
	int cpus = diag_floor_cpus(d->effective);
	const struct diag_role *workers = diagnosis_advice_role(d, "workers");
	const struct diag_runtime *pool = diagnosis_advice_main_pool(d);
	if (diag_lab_suggest(d, in, VERDICT_OVERSUBSCRIBED))
		return;
	if (pool) {
		const char *knob = diag_pool_knob(d, pool);
		if (knob && workers && !pool->code_sets) {
			diag_suggest_workers(d, knob, workers, pool);
		} else {
			double after = d->runnable_mean - (pool->pool - cpus);
			if (after < cpus)
				after = cpus;
			char why[96];
			snprintf(why, sizeof(why), "about %.1f runnable threads on %.2f CPUs",
				 after, d->effective);
			diag_suggest_pool(d, pool, cpus, after, d->effective, why);
		}
	} else if (workers && (!d->input_bound || diagnosis_advice_role_starved(workers))) {
		const struct diag_role *main_role = diagnosis_advice_role(d, "main");
		double dmain = main_role ? main_role->runnable_mean : 0;
		double each = workers->runnable_mean / workers->nprocs;
		int keep = each > 0 ? (int)floor((DIAG_OVER_FACTOR * d->effective - dmain) / each)
				    : workers->nprocs;
		if (keep >= 1 && keep < workers->nprocs)
			diagnosis_advice_suggest_fits(
			    d, dmain + keep * each, d->effective,
			    "use %d of the %d %s: about %.1f runnable threads on %.2f "
			    "CPUs",
			    keep, workers->nprocs, workers->name, dmain + keep * each,
			    d->effective);
		else
			SUGGEST(
			    d,
			    "fewer threads in the main process (%.1f runnable) and fewer %s (%d, "
			    "%.1f runnable each): %.2f CPUs serve them all",
			    dmain, workers->name, workers->nprocs, each, d->effective);
	} else if (!workers) {
		SUGGEST(d, "run at most %d busy threads: %.1f want to run on %.2f effective CPUs",
			cpus, d->runnable_mean, d->effective);
	}
}

void diagnosis_advice_suggest_neighbour(struct diagnosis *d, const char *lead)
{
	const struct neighbour *top = d->machine.n ? &d->machine.top[0] : NULL;
	if (top && (top->cpus_used < 0.05 || !top->shares_cpus))
		top = NULL;
	if (top)
		SUGGEST(d,
			"%s: %.*s (pid %d) took %.1f CPUs of the ones it waits for; stop, renice "
			"(every thread: renice -n 10 -p $(ls /proc/%d/task)) or move that, or give "
			"this job CPUs of its own (a cpuset)",
			lead, (int)top->name_len, top->name, (int)top->pid, top->cpus_used,
			(int)top->pid);
	else
		SUGGEST(d,
			"%s: processes too short-lived to name (a build?) took %.1f CPUs; run it "
			"when the machine is quieter, or give it CPUs of its own (a cpuset)",
			lead, diagnosis_rules_others_unseen(d));
}

bool diagnosis_advice_children_work(const struct diagnosis *d, const struct diag_input *in)
{
	const struct machine_view *v = &d->machine;
	return (in->unfollowed || v->children) && v->valid && v->children_cpus >= 0.2 &&
	       v->children_cpus > d->cpu;
}

void diagnosis_advice_contended(struct diagnosis *d, const struct diag_input *in)
{
	REASON(d,
	       "its own demand fits: %.1f runnable threads on %.2f effective CPUs; the wait is "
	       "for CPUs other processes hold (%.1f CPUs of the %d)",
	       d->runnable_mean, d->effective, diagnosis_rules_others(d), d->machine.online);
	/* An input-bound job can still help itself (its suggestion comes
	 * first); the wait for CPUs is not its doing either way.  Nothing
	 * seen of a job whose unfollowed children do the work is all of it:
	 * "nothing in this job can help" would contradict "add --tree" (a
	 * Pool's parent). */
	if (d->input_bound)
		diagnosis_advice_suggest_neighbour(d, "the CPU wait is not this job's doing");
	else if (!diagnosis_advice_children_work(d, in))
		diagnosis_advice_suggest_neighbour(d, "nothing in this job can help");
}

void diagnosis_advice_under(struct diagnosis *d, const struct diag_input *in)
{
	int cpus = diag_floor_cpus(d->effective);
	const struct diag_runtime *pool = diagnosis_advice_main_pool(d);
	if (diag_lab_suggest(d, in, VERDICT_UNDERSUBSCRIBED))
		return;
	if (!pool)
		return;
	if (pool->pool > d->runnable_mean + 1) {
		REASON(d,
		       "%s is set up for %d threads, but %.1f are busy: the work is serial, or "
		       "waits elsewhere",
		       pool->name, pool->pool, d->runnable_mean);
		return;
	}
	char why[96];
	snprintf(why, sizeof(why), "to use the %.2f effective CPUs", d->effective);
	diag_suggest_pool(d, pool, cpus, cpus, d->effective, why);
}
