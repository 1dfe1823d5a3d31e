/* diagnosis-findings.c — what every verdict carries beside its own words:
 * crowded out by others too, a quota that did not bind, a main process
 * that waits for its workers' input, children doing the work unfollowed.
 *
 * Each finding adds a reason; the input-bound one also puts its
 * suggestion first (more workers, or cheaper items: never fewer threads),
 * and the unfollowed children end the headline with "add --tree". */
#include "config.h"

#include "diagnosis.h"
#include "diagnosis-impl.h"
#include "diagnosis-rules-impl.h"
#include "diagnosis-findings.h"
#include "diagnosis-advice.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Appends to the headline (cut at its size). */
static void diag_headline_add(struct diagnosis *d, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void diag_headline_add(struct diagnosis *d, const char *fmt, ...)
{
	size_t n = strlen(d->headline);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(d->headline + n, sizeof(d->headline) - n, fmt, ap);
	va_end(ap);
}

/* The role the main process waits on: its forked workers, else its
 * children. */
static const struct diag_role *diag_feeders(const struct diagnosis *d)
{
	const struct diag_role *w = diagnosis_advice_role(d, "workers");
	return w ? w : diagnosis_advice_role(d, "children");
}

static void diag_crowded_too(struct diagnosis *d)
{
	if ((d->verdict != VERDICT_OVERSUBSCRIBED && d->verdict != VERDICT_THROTTLED) ||
	    !diagnosis_rules_crowded(d) || d->machine.runnable_mean <= d->machine.online)
		return;
	char others[DIAG_TEXT];
	diagnosis_advice_neighbours_text(d, others, sizeof(others), 2);
	d->also_contended = true;
	diag_headline_add(d, "; crowded out too: others took %.1f CPUs (%s)",
			  diagnosis_rules_others(d), others);
	REASON(d,
	       "contended as well: the machine runs %.1f runnable threads on %d CPUs, and others "
	       "took %.1f CPUs of the ones this job runs on",
	       d->machine.runnable_mean, d->machine.online, diagnosis_rules_others(d));
	/* The larger cause first: what others took, or the job's own excess
	 * (its demand, or its team, beyond its CPUs). */
	double own = (d->team > d->runnable_mean ? d->team : d->runnable_mean) - d->effective;
	if (diagnosis_rules_others(d) > own) {
		diagnosis_advice_suggest_neighbour(d,
						   "first the CPUs others hold, the larger cause");
		diagnosis_advice_suggest_first(d);
	}
}

static void diag_quota_unbound(struct diagnosis *d, const struct diag_input *in)
{
	double q = in->budget->quota.cpus;
	if (q <= 0 || diagnosis_rules_quota_binds(d, in) || !d->machine.valid ||
	    d->runnable_mean < q - 0.05 || d->cpu >= q - 0.1 || diagnosis_rules_others(d) < 0.1)
		return;
	char others[DIAG_TEXT];
	diagnosis_advice_neighbours_text(d, others, sizeof(others), 1);
	REASON(d,
	       "the %.2f-CPU quota did not bind: other processes used %.1f CPUs of the %d (%s), so "
	       "the job got %.2f CPUs; on a free machine its %.1f runnable threads would be "
	       "throttled",
	       q, diagnosis_rules_others(d), d->machine.online, others, d->cpu, d->runnable_mean);
}

void diagnosis_findings_input_bound(struct diagnosis *d, const struct diag_input *in)
{
	/* The main process must do work of its own between waits (a parent
	 * that only waits for its children is no trainer); the lab's anchor
	 * waits on its helpers by design. */
	const struct diag_role *m = diagnosis_advice_role(d, "main");
	d->input_bound = !in->lab && m && diag_feeders(d) && m->cpu_pct >= DIAG_INPUT_MAIN_CPU &&
			 m->input_wait_pct >= DIAG_INPUT_BOUND_PCT;
}

/* More workers when they have CPUs to run on, else cheaper items. */
static void diag_input_advice(struct diagnosis *d)
{
	const struct diag_role *m = diagnosis_advice_role(d, "main"), *w = diag_feeders(d);
	if (!m || !w)
		return;
	int k = w->nprocs;
	REASON(d,
	       "input-bound: the main process waited %.0f%% of the window on its %d %s (blocked "
	       "reading their pipes or sockets for what they send it: batches, or results)",
	       m->input_wait_pct, k, w->name);
	/* Workers that wait for CPUs already are slow for want of CPU, not of
	 * workers: more of them would share the same CPUs.  The verdict's own
	 * advice (fewer threads, fewer workers) stays first. */
	if (diagnosis_advice_role_starved(w)) {
		REASON(d,
		       "the %d %s wait for a CPU themselves (%.2f s/s waiting, %.2f CPUs used): "
		       "more of them would only share those CPUs",
		       k, w->name, w->wait_pct / 100.0, w->cpu_pct / 100.0);
		return;
	}
	double busy = 1.0 - m->input_wait_pct / 100.0;
	if (busy < 0.05)
		busy = 0.05;
	int need = (int)ceil(k / busy - 1e-9);
	double each = k > 0 ? w->cpu_pct / 100.0 / k : 0;
	double mcpu = m->cpu_pct / 100.0;
	int fit = each > 0.02 ? (int)floor((d->effective - mcpu) / each + 1e-9) : need;
	int want = need < fit ? need : fit;
	if (want > k && want <= 4 * k + 16) {
		double after = m->runnable_mean + want * (each > 0 ? each : 0.02);
		if (diagnosis_advice_suggest_fits(
			d, after, d->effective,
			"use %d workers instead of %d: the main loop waits %.0f%% of the time for "
			"input, so about %d would keep it fed; at %.2f CPUs each they need %.1f of "
			"the %.2f CPUs",
			want, k, m->input_wait_pct, need, each, want * each, d->effective)) {
			diagnosis_advice_suggest_first(d);
			return;
		}
	}
	SUGGEST(d,
		"make each item cheaper to prepare: the %d %s use %.2f CPUs (%.2f each) of the "
		"%.2f, so more of them would only share those CPUs; the main loop waits %.0f%% of "
		"the time",
		k, w->name, w->cpu_pct / 100.0, each, d->effective, m->input_wait_pct);
	diagnosis_advice_suggest_first(d);
}

static void diag_children(struct diagnosis *d, const struct diag_input *in)
{
	const struct machine_view *v = &d->machine;
	if (!diagnosis_advice_children_work(d, in))
		return;
	int n = v->children > in->unfollowed ? v->children : in->unfollowed;
	diag_headline_add(d, "; add --tree: its %d child process(es) use %.1f CPUs", n,
			  v->children_cpus);
	bool said = false;
	for (size_t i = 0; i < d->nsuggestions; i++)
		said |= strstr(d->suggestions[i], "add --tree") != NULL;
	if (!said) {
		SUGGEST(d, "add --tree: its %d child process(es) do the work (%.1f CPUs)", n,
			v->children_cpus);
		diagnosis_advice_suggest_first(d);
	}
}

void diagnosis_findings_advise(struct diagnosis *d, const struct diag_input *in)
{
	diag_crowded_too(d);
	diag_quota_unbound(d, in);
	if (d->input_bound)
		diag_input_advice(d);
	diag_children(d, in);
}
