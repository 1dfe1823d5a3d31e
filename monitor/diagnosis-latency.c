/* diagnosis-latency.c — the run-queue latency the diagnosis reports: the
 * target's, each role's and each group's, over the window judged.
 *
 * Quantiles do not add: a group's p99 comes from the sum of its threads'
 * histograms, never from their p99s.  Each thread's histogram over the
 * window is the window's (window.h); those of threads the latency map had
 * no room for are missing, and the reason says so (its figures are of the
 * threads traced). */
#include "config.h"

#include "diagnosis.h"
#include "diagnosis-impl.h"
#include "diagnosis-latency.h"

#include <stdlib.h>

#include "xalloc.h"

void diagnosis_latency(struct diagnosis *d, const struct diag_input *in, const signed char *role_of,
		       const signed char *group_of)
{
	const struct snapshot_rates *r = in->rates;
	d->lat_on = r->lat_on;
	if (!r->lat_on)
		return;
	struct lat_hist *all = xcalloc(1, sizeof(*all));
	struct lat_hist *roles = xcalloc(DIAG_ROLES, sizeof(*roles));
	struct lat_hist *groups = xcalloc(DIAG_GROUPS, sizeof(*groups));
	for (size_t i = 0; i < r->nthreads; i++) {
		const struct thread_rate *t = &r->threads[i];
		if (!t->lat_ref)
			continue;
		const struct lat_hist *h = &r->lat[t->lat_ref - 1];
		latency_hist_merge(all, h);
		if (role_of[i] >= 0 && role_of[i] < DIAG_ROLES)
			latency_hist_merge(&roles[role_of[i]], h);
		if (group_of[i] >= 0 && group_of[i] < DIAG_GROUPS)
			latency_hist_merge(&groups[group_of[i]], h);
	}
	model_summarize(all, &d->latency);
	for (size_t k = 0; k < d->nroles; k++)
		model_summarize(&roles[k], &d->roles[k].latency);
	for (size_t k = 0; k < d->ngroups; k++)
		model_summarize(&groups[k], &d->groups[k].latency);
	free(all);
	free(roles);
	free(groups);
}

bool diagnosis_latency_judged(const struct diagnosis *d)
{
	return d->lat_on && d->latency.events >= DIAG_TAIL_EVENTS;
}

bool diagnosis_latency_long_tail(const struct diagnosis *d)
{
	return diagnosis_latency_judged(d) && d->latency.p99_s > DIAG_TAIL_P99_S + DIAG_TAIL_BAND_S;
}

void diagnosis_latency_reason(struct diagnosis *d)
{
	const struct model_latency *l = &d->latency;
	if (!d->lat_on || l->events == 0)
		return;
	/* The group with the longest tail, when there are several. */
	const struct diag_group *worst = NULL;
	for (size_t k = 0; k < d->ngroups && d->ngroups > 1; k++)
		if (d->groups[k].latency.events &&
		    (!worst || d->groups[k].latency.p99_s > worst->latency.p99_s))
			worst = &d->groups[k];
	if (worst)
		REASON(d,
		       "p99 run-queue latency %.1f ms, max %.1f ms (p50 %.2f ms, mean %.2f ms over "
		       "%llu waits); longest tail in %s (pid %d): p99 %.1f ms",
		       l->p99_s * 1e3, l->max_s * 1e3, l->p50_s * 1e3, l->mean_s * 1e3,
		       (unsigned long long)l->events, worst->name, (int)worst->pid,
		       worst->latency.p99_s * 1e3);
	else
		REASON(d,
		       "p99 run-queue latency %.1f ms, max %.1f ms (p50 %.2f ms, mean %.2f ms over "
		       "%llu waits)",
		       l->p99_s * 1e3, l->max_s * 1e3, l->p50_s * 1e3, l->mean_s * 1e3,
		       (unsigned long long)l->events);
}
