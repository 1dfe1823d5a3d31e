/* diagnosis-rules.c — the verdict table, its thresholds and their bands.
 *
 * The only place where thresholds live (their values are
 * diagnosis-impl.h's); each rule is a predicate over the figures
 * (diagnosis.c) and a writer of its headline (the suggestions are
 * diagnosis-advice.c's).  The first rule that holds gives the verdict:
 *   idle             under 0.05 CPUs in use and under 0.1 runnable threads
 *   throttled        a quota, throttled in >= 20 % of periods (or >= 0.1 s/s),
 *                    and either throttling explains at least half of the
 *                    wait or the runnable threads would fit the CPUs without
 *                    the quota: the quota, not the cores, holds the work back
 *   oversubscribed   factor (runnable / effective CPUs) above 1.2, or a pool's
 *                    team working together (each thread runnable 30 % of the
 *                    window or more) outnumbering the CPUs as much, or above
 *                    1.0 with a long tail: p99 run-queue latency >= 10 ms over
 *                    50 or more waits (the BPF collector): the mean fits, the
 *                    waits do not
 *   contended        its own demand fits (factor at most 1.2), yet it waits
 *                    for CPUs other processes hold: at least 0.1 s/s and a
 *                    fifth of its runnable time, while others took 0.25 CPUs
 *                    or more of the CPUs it runs on, and waits 0.5 ms or
 *                    more at each switch (less: wake-up latency)
 *   undersubscribed  a thread pool, a thread busy >= 90 % of a CPU, yet a whole CPU or
 *                    more of the effective ones unused (runnable <= E - 0.9)
 *   fine             anything else
 * Throttled comes before oversubscribed because a quota that binds makes
 * the wait whatever the thread count; contended after it, because a job
 * that oversubscribes itself must shed threads whoever else runs (it then
 * says both, "crowded out too").
 *
 * Bands: a threshold t with band b holds when the figure is beyond t + b,
 * and is borderline within t - b .. t + b: the rule does not give its
 * verdict (the next rules decide) unless the previous window's verdict was
 * that one, so a live verdict keeps until the figure leaves the band
 * (hysteresis), and a one-shot --diagnose reads borderline the same way in
 * every run. */
#include "config.h"

#include "diagnosis.h"
#include "diagnosis-rules.h"
#include "diagnosis-impl.h"
#include "diagnosis-rules-impl.h"
#include "diagnosis-latency.h"
#include "diagnosis-advice.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

enum diag_hold { HOLD_NO, HOLD_BAND, HOLD_YES };

/* Whether x is above t, with the band b around t. */
static enum diag_hold diag_above(double x, double t, double b)
{
	return x > t + b ? HOLD_YES : x > t - b ? HOLD_BAND : HOLD_NO;
}

static enum diag_hold diag_max(enum diag_hold a, enum diag_hold b)
{
	return a > b ? a : b;
}

static bool diag_has_quota(const struct diag_input *in)
{
	return in->budget->quota.cpus > 0;
}

bool diagnosis_rules_is_idle(double cpu, double runnable)
{
	return cpu < DIAG_IDLE_CPU && runnable < DIAG_IDLE_RUNNABLE;
}

static enum diag_hold rule_idle(const struct diagnosis *d, const struct diag_input *in)
{
	(void)in;
	return d->nthreads == 0 || diagnosis_rules_is_idle(d->cpu, d->runnable_mean) ? HOLD_YES
										     : HOLD_NO;
}

/* The machine reads oversubscribed by the same factor as a job, with no
 * band: it is not a verdict that keeps between windows. */
enum verdict diagnosis_rules_machine(double runnable, double cpus_used, int online, char *headline,
				     size_t cap)
{
	double factor = online > 0 ? runnable / online : 0;
	if (diagnosis_rules_is_idle(cpus_used, runnable)) {
		snprintf(headline, cap, "idle: %.2f CPUs in use, %.2f runnable threads", cpus_used,
			 runnable);
		return VERDICT_IDLE;
	}
	if (factor > DIAG_OVER_FACTOR) {
		snprintf(headline, cap,
			 "oversubscribed: %.2f runnable threads on %d CPUs (factor %.2f), %.2f "
			 "CPUs in use",
			 runnable, online, factor, cpus_used);
		return VERDICT_OVERSUBSCRIBED;
	}
	snprintf(headline, cap,
		 "fine: %.2f runnable threads on %d CPUs (factor %.2f), %.2f CPUs in use", runnable,
		 online, factor, cpus_used);
	return VERDICT_FINE;
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
double diagnosis_rules_cores(const struct budget *b)
{
	int c = b->online;
	if (b->affinity > 0 && b->affinity < c)
		c = b->affinity;
	if (b->cpuset > 0 && b->cpuset < c)
		c = b->cpuset;
	return c;
}

static enum diag_hold diag_throttle_hold(const struct diagnosis *d)
{
	return diag_max(diag_above(d->throttled_pct, DIAG_THROTTLE_PCT, DIAG_THROTTLE_PCT_BAND),
			diag_above(d->throttled_s_per_s, DIAG_THROTTLE_S, DIAG_THROTTLE_S_BAND));
}

static enum diag_hold rule_throttled(const struct diagnosis *d, const struct diag_input *in)
{
	if (!diag_has_quota(in) || !d->throttle_valid)
		return HOLD_NO;
	if (!(d->throttle_wait >= 0.5 * d->wait ||
	      d->runnable_mean <= DIAG_OVER_FACTOR * diagnosis_rules_cores(in->budget)))
		return HOLD_NO;
	return diag_throttle_hold(d);
}

bool diagnosis_rules_quota_binds(const struct diagnosis *d, const struct diag_input *in)
{
	return diag_has_quota(in) && d->throttle_valid && diag_throttle_hold(d) == HOLD_YES;
}

static void say_throttled(struct diagnosis *d, const struct diag_input *in)
{
	snprintf(
	    d->headline, sizeof(d->headline),
	    "throttled by its CPU quota of %.2f CPUs: throttled in %.0f%% of periods, %.2f s/s "
	    "of the %.2f s/s run-queue wait is throttling; %.1f runnable threads on average",
	    in->budget->quota.cpus, d->throttled_pct, d->throttle_wait, d->wait, d->runnable_mean);
	diagnosis_advice_throttled(d, in);
}

/* A pool's team working together outnumbers the CPUs: its threads wait
 * for each other at every barrier even when they sleep there (libgomp stops
 * spinning when its threads outnumber the CPUs, so their mean demand may
 * look low). */
static enum diag_hold diag_team_hold(const struct diagnosis *d)
{
	return d->team >= 2 ? diag_above(d->team_factor, DIAG_OVER_FACTOR, DIAG_OVER_BAND)
			    : HOLD_NO;
}

/* A long tail sharpens a mean that fits: the threads queue, whatever the
 * mean says.  Above a factor of 1.0 only, and with a band of its own
 * around DIAG_TAIL_P99_S, so that a p99 near it does not flip the verdict
 * from window to window. */
static enum diag_hold diag_tail_hold(const struct diagnosis *d)
{
	if (d->factor <= 1.0 || !diagnosis_latency_judged(d))
		return HOLD_NO;
	return diag_above(d->latency.p99_s, DIAG_TAIL_P99_S, DIAG_TAIL_BAND_S);
}

static enum diag_hold rule_over(const struct diagnosis *d, const struct diag_input *in)
{
	(void)in;
	if (d->effective <= 0)
		return HOLD_NO;
	return diag_max(diag_max(diag_above(d->factor, DIAG_OVER_FACTOR, DIAG_OVER_BAND),
				 diag_team_hold(d)),
			diag_tail_hold(d));
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
	/* The team's headline when the team holds it (not a long tail alone). */
	if ((diag_above(d->factor, DIAG_OVER_FACTOR, DIAG_OVER_BAND) == HOLD_NO &&
	     diag_team_hold(d) != HOLD_NO) ||
	    d->team_factor > d->factor + 0.5)
		snprintf(d->headline, sizeof(d->headline),
			 "oversubscribed %.1fx: a team of %d threads working together on %.2f "
			 "effective CPUs (%s binds), waiting for each other: %.1f runnable threads "
			 "on average%s, run-queue wait %.2f s/s",
			 d->team_factor, d->team, d->effective, model_term_name(d->binding),
			 d->runnable_mean, parts, d->wait);
	else
		snprintf(d->headline, sizeof(d->headline),
			 "oversubscribed %.1fx: %.1f runnable threads on average%s on %.2f "
			 "effective CPUs (%s binds); run-queue wait %.2f s/s",
			 d->factor, d->runnable_mean, parts, d->effective,
			 model_term_name(d->binding), d->wait);
	if (d->factor <= DIAG_OVER_FACTOR && diag_team_hold(d) != HOLD_YES &&
	    diagnosis_latency_long_tail(d))
		REASON(d,
		       "the mean alone (factor %.2f) would pass, but the threads queue: p99 "
		       "run-queue latency %.1f ms, several scheduler slices",
		       d->factor, d->latency.p99_s * 1e3);
	diagnosis_advice_over(d, in);
}

/* CPUs others took from the target's CPUs: those that ran on them, and
 * what no process accounts for (processes too short-lived to be read),
 * less what the target's own short-lived threads and children ran. */
double diagnosis_rules_others(const struct diagnosis *d)
{
	if (!d->machine.valid)
		return 0;
	return d->machine.others_shared + diagnosis_rules_others_unseen(d);
}

double diagnosis_rules_others_unseen(const struct diagnosis *d)
{
	double unseen = d->machine.unseen_cpus - d->unseen_cpu;
	return d->machine.valid && unseen > 0 ? unseen : 0;
}

/* The wait at each of its threads' switches is the scheduler's latency at
 * a wake-up, not a slice of CPU others held: 3,000 sleeping threads that
 * wake once a second each wait 0.1 ms, 0.3 s/s in all. */
bool diagnosis_rules_wakeup_waits(const struct diagnosis *d)
{
	return d->switches > 0 && d->contention_wait / d->switches < DIAG_CONTEND_EACH_S;
}

/* Others crowd the target out: they took CPUs it could have used while it
 * waited for one, slices at a time. */
bool diagnosis_rules_crowded(const struct diagnosis *d)
{
	return d->machine.valid && diagnosis_rules_others(d) >= DIAG_CONTEND_OTHERS &&
	       d->contention_wait >= DIAG_CONTEND_WAIT && !diagnosis_rules_wakeup_waits(d);
}

static enum diag_hold rule_contended(const struct diagnosis *d, const struct diag_input *in)
{
	(void)in;
	if (!diagnosis_rules_crowded(d) || d->factor > DIAG_OVER_FACTOR ||
	    (d->team >= 2 && d->team_factor > DIAG_OVER_FACTOR) || d->runnable_mean <= 0)
		return HOLD_NO;
	return diag_above(d->contention_wait / d->runnable_mean, DIAG_CONTEND_SHARE,
			  DIAG_CONTEND_BAND);
}

static void say_contended(struct diagnosis *d, const struct diag_input *in)
{
	char others[DIAG_TEXT];
	diagnosis_advice_neighbours_text(d, others, sizeof(others), 3);
	snprintf(d->headline, sizeof(d->headline),
		 "contended: %.1f runnable thread%s got %.2f CPUs and waited %.2f s/s; the machine "
		 "runs %.1f runnable threads on %d CPUs; others: %s",
		 d->runnable_mean, fabs(d->runnable_mean - 1.0) < 0.05 ? "" : "s", d->cpu,
		 d->contention_wait, d->machine.runnable_mean, d->machine.online, others);
	diagnosis_advice_contended(d, in);
}

static bool diag_busy_thread(const struct diag_input *in)
{
	for (size_t i = 0; i < in->rates->nthreads; i++)
		if (in->rates->threads[i].cpu_pct >= DIAG_BUSY_THREAD_PCT)
			return true;
	return false;
}

/* CPUs unused while a thread is busy: what undersubscribed needs besides a
 * pool to size. */
static enum diag_hold diag_idle_cpus_busy_thread(const struct diagnosis *d,
						 const struct diag_input *in)
{
	if (d->effective < 1.5 || !diag_busy_thread(in))
		return HOLD_NO;
	return diag_above(d->effective - d->runnable_mean, DIAG_UNDER_SLACK, DIAG_UNDER_BAND);
}

static enum diag_hold rule_under(const struct diagnosis *d, const struct diag_input *in)
{
	/* Without a pool to size the work may be serial by design: fine, and
	 * the reason says so. */
	if (!in->lab && !diagnosis_advice_main_pool(d))
		return HOLD_NO;
	return diag_idle_cpus_busy_thread(d, in);
}

static void say_under(struct diagnosis *d, const struct diag_input *in)
{
	snprintf(d->headline, sizeof(d->headline),
		 "undersubscribed: %.1f runnable threads on average on %.2f effective CPUs (%s "
		 "binds): %.1f CPUs stay unused while a thread is busy",
		 d->runnable_mean, d->effective, model_term_name(d->binding),
		 d->effective - d->runnable_mean);
	diagnosis_advice_under(d, in);
}

static enum diag_hold rule_fine(const struct diagnosis *d, const struct diag_input *in)
{
	(void)d, (void)in;
	return HOLD_YES;
}

static void say_fine(struct diagnosis *d, const struct diag_input *in)
{
	snprintf(d->headline, sizeof(d->headline),
		 "fine: %.1f runnable threads on average on %.2f effective CPUs (%s binds), factor "
		 "%.2f%s",
		 d->runnable_mean, d->effective, model_term_name(d->binding), d->factor,
		 d->borderline < VERDICT_N ? ", borderline" : "");
	if (diag_idle_cpus_busy_thread(d, in) == HOLD_YES)
		REASON(d,
		       "no thread pool found: the busy work looks serial, and %.1f of the %.2f "
		       "CPUs stay unused; only splitting it (threads or processes) would use them",
		       d->effective - d->runnable_mean, d->effective);
}

struct diag_rule {
	enum verdict verdict;
	const char *when;
	const char *band;
	enum diag_hold (*holds)(const struct diagnosis *d, const struct diag_input *in);
	void (*say)(struct diagnosis *d, const struct diag_input *in);
};

static const struct diag_rule diag_rules[] = {
    {VERDICT_IDLE, "under 0.05 CPUs in use and under 0.1 runnable threads on average", "",
     rule_idle, say_idle},
    {VERDICT_THROTTLED,
     "a CPU quota, throttled in at least 20% of periods (or 0.1 s/s), and either throttling "
     "explains at least half of the run-queue wait or the mean runnable threads would fit the "
     "CPUs without the quota (at most 1.2 x the least of online, affinity and cpuset CPUs)",
     "15% to 25% of periods (0.07 to 0.13 s/s)", rule_throttled, say_throttled},
    {VERDICT_OVERSUBSCRIBED,
     "mean runnable threads above 1.2 x the effective CPUs, or a thread pool's team working "
     "together (each thread runnable at least 30% of the window) that outnumbers them as much, or "
     "above 1.0 x with a p99 run-queue latency over 13 ms "
     "over at least 50 waits (BPF collector only)",
     "a factor of 1.1 to 1.3, or a p99 of 7 to 13 ms", rule_over, say_over},
    {VERDICT_CONTENDED,
     "its own demand fits (a factor of at most 1.2, and no larger team), yet its threads wait "
     "for CPUs that other processes hold: at least 0.1 s/s and a fifth of their runnable time, "
     "while others took 0.25 CPUs or more of the CPUs it runs on, and 0.5 ms or more at each "
     "switch on average (shorter waits are the scheduler's own latency at wake-ups: 3,000 "
     "threads that each wake once a second wait 0.1 ms each, 0.3 s/s in all, whoever else runs)",
     "a waiting share of 15% to 25%", rule_contended, say_contended},
    {VERDICT_UNDERSUBSCRIBED,
     "a thread pool (a runtime that sizes one, or the lab) and a thread busy at least 90% of a "
     "CPU, yet a whole effective CPU or more unused (mean runnable threads at most effective "
     "CPUs - 0.9)",
     "0.8 to 1.0 CPUs unused", rule_under, say_under},
    {VERDICT_FINE, "none of the above", "", rule_fine, say_fine},
};

#define DIAG_NRULES (sizeof(diag_rules) / sizeof(diag_rules[0]))

const struct diag_rule_doc *diagnosis_rules(size_t *n)
{
	static struct diag_rule_doc docs[DIAG_NRULES];
	*n = DIAG_NRULES;
	for (size_t i = 0; i < *n; i++) {
		docs[i].verdict = diag_rules[i].verdict;
		docs[i].when = diag_rules[i].when;
		docs[i].band = diag_rules[i].band;
	}
	return docs;
}

/* The figure a borderline verdict was judged on, in words. */
static void diag_band_text(const struct diagnosis *d, enum verdict v, char *out, size_t cap)
{
	switch (v) {
	case VERDICT_THROTTLED:
		snprintf(out, cap, "throttled in %.0f%% of periods (%.2f s/s)", d->throttled_pct,
			 d->throttled_s_per_s);
		break;
	case VERDICT_OVERSUBSCRIBED: {
		double f = d->team_factor > d->factor ? d->team_factor : d->factor;
		enum diag_hold tail = diag_tail_hold(d);
		if (tail != HOLD_NO && tail >= diag_above(f, DIAG_OVER_FACTOR, DIAG_OVER_BAND))
			snprintf(out, cap, "a p99 run-queue latency of %.1f ms at a factor of %.2f",
				 d->latency.p99_s * 1e3, d->factor);
		else
			snprintf(out, cap, "a factor of %.2f", f);
		break;
	}
	case VERDICT_CONTENDED:
		snprintf(out, cap, "waiting %.0f%% of its runnable time for CPUs others hold",
			 d->runnable_mean > 0 ? 100 * d->contention_wait / d->runnable_mean : 0);
		break;
	case VERDICT_UNDERSUBSCRIBED:
		snprintf(out, cap, "%.2f CPUs unused", d->effective - d->runnable_mean);
		break;
	default:
		snprintf(out, cap, "%s", diagnosis_verdict_name(v));
		break;
	}
}

static const char *diag_band_of(enum verdict v)
{
	for (size_t i = 0; i < DIAG_NRULES; i++)
		if (diag_rules[i].verdict == v)
			return diag_rules[i].band;
	return "";
}

void diagnosis_rules_apply(struct diagnosis *d, const struct diag_input *in)
{
	char fig[DIAG_TEXT];
	d->borderline = VERDICT_N;
	for (size_t i = 0; i < DIAG_NRULES; i++) {
		const struct diag_rule *r = &diag_rules[i];
		enum diag_hold h = r->holds(d, in);
		if (h == HOLD_BAND && in->prev != r->verdict) {
			if (d->borderline == VERDICT_N)
				d->borderline = r->verdict;
			continue;
		}
		if (h == HOLD_NO)
			continue;
		d->verdict = r->verdict;
		d->kept = h == HOLD_BAND;
		r->say(d, in);
		if (d->kept) {
			diag_band_text(d, r->verdict, fig, sizeof(fig));
			REASON(
			    d,
			    "kept from the last window: %s lies in the band (%s) where the verdict "
			    "does not change",
			    fig, r->band);
		}
		break;
	}
	if (d->borderline < VERDICT_N) {
		diag_band_text(d, d->borderline, fig, sizeof(fig));
		REASON(d,
		       "borderline %s: %s lies in the band (%s) around its threshold, so it reads "
		       "%s; --diagnose --strict counts it as a problem",
		       diagnosis_verdict_name(d->borderline), fig, diag_band_of(d->borderline),
		       diagnosis_verdict_name(d->verdict));
	}
}

int diagnosis_rules_exit_status(const struct diagnosis *d, bool strict)
{
	bool ok = d->verdict == VERDICT_FINE || d->verdict == VERDICT_IDLE;
	if (ok && strict && d->borderline < VERDICT_N)
		ok = false;
	return ok ? 0 : 1;
}
