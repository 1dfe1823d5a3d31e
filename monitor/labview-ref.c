/* labview-ref.c — the single-thread reference behind ideal and ceiling, and
 * the conditions it was measured in (labview.h).
 *
 * A single-thread rate is FLOPs per CPU-ns inside GEMM: other work on the
 * box makes it wait, not compute slower, except through the caches and
 * memory it shares, so a busy box lowers a reading and a quiet box's is
 * kept.  Ideal and ceiling (rate x CPUs) assume those CPUs are the lab's:
 * when other processes take more CPUs now than when the rate was measured,
 * the figures are older than the conditions, and the report says so.  When
 * the box is quiet again the first measurement of that quiet spell
 * replaces the reference, even if lower: what was measured then may be
 * another machine state (a frequency, a neighbour on a sibling core). */
#include "labview-impl.h"
#include "lab-status.h"
#include "labview-ref.h"

#include <string.h>

static const struct labview_ref *labview_ref_get(const struct labview *v, int size, int precision)
{
	for (size_t i = 0; i < RATE_CACHE_SLOTS; i++) {
		const struct labview_ref *r = &v->ref[i];
		if (r->used && r->size == (uint32_t)size && r->precision == (uint32_t)precision)
			return r;
	}
	return NULL;
}

/* The entry of size/precision, a new one (a free slot, else the oldest). */
static struct labview_ref *labview_ref_add(struct labview *v, int size, int precision)
{
	struct labview_ref *pick = NULL;
	for (size_t i = 0; i < RATE_CACHE_SLOTS; i++) {
		struct labview_ref *r = &v->ref[i];
		if (r->used && r->size == (uint32_t)size && r->precision == (uint32_t)precision)
			return r;
		if (!pick || (pick->used && (!r->used || r->t < pick->t)))
			pick = r;
	}
	memset(pick, 0, sizeof(*pick));
	pick->used = true;
	pick->size = (uint32_t)size;
	pick->precision = (uint32_t)precision;
	pick->other = -1;
	return pick;
}

double labview_ref_single(const struct labview *v, int size, int precision)
{
	double r;
	struct rate_cache c = v->single; /* get() stamps the entry: work on a copy */
	return rate_cache_get(&c, (uint32_t)size, (uint32_t)precision, &r) == 0 ? r : 0;
}

void labview_ref_single_put(struct labview *v, int size, int precision, double gflops)
{
	if (!(gflops > 0))
		return;
	double old = labview_ref_single(v, size, precision);
	const struct labview_ref *ref = labview_ref_get(v, size, precision);
	bool quiet = v->quiet_since >= 0;
	bool before_spell = ref && quiet && ref->t < v->quiet_since;
	if (old > 0 && gflops <= old && !before_spell)
		return;
	rate_cache_put(&v->single, (uint32_t)size, (uint32_t)precision, gflops);
	struct labview_ref *put = labview_ref_add(v, size, precision);
	put->t = v->now;
	put->other = v->other_cpus;
}

void labview_ref_memory_put(struct labview *v, double gbs)
{
	if (gbs > v->memory_gbs)
		v->memory_gbs = gbs;
}

double labview_ref_single_gemm(const struct labview *v, int size, int precision)
{
	double r = size != LAB_TRIAD_KEY ? labview_ref_single(v, size, precision) : 0;
	for (size_t i = 0; r <= 0 && i < RATE_CACHE_SLOTS; i++)
		if (v->single.slot[i].used && v->single.slot[i].size != LAB_TRIAD_KEY &&
		    v->single.slot[i].precision == (uint32_t)precision &&
		    v->single.slot[i].gflops > r)
			r = v->single.slot[i].gflops;
	return r;
}

void labview_ref_conditions(struct labview *v, double t, double other_cpus)
{
	v->now = t;
	v->other_cpus = other_cpus;
	if (other_cpus >= 0 && other_cpus < LABVIEW_QUIET_CPUS) {
		if (v->quiet_since < 0)
			v->quiet_since = t;
	} else {
		v->quiet_since = -1;
	}
	/* A rate measured before the first conditions (the start-up
	 * calibration) was measured in the first ones. */
	for (size_t i = 0; i < RATE_CACHE_SLOTS; i++)
		if (v->ref[i].used && v->ref[i].other < 0 && other_cpus >= 0) {
			v->ref[i].other = other_cpus;
			v->ref[i].t = t;
		}
}

void labview_ref_single_report(const struct labview *v, int size, int precision,
			       struct workload_report *out)
{
	const struct labview_ref *ref = labview_ref_get(v, size, precision);
	out->single_age_s = -1;
	out->single_other_cpus = -1;
	out->single_stale = false;
	if (!ref || out->single_thread_gflops <= 0)
		return;
	out->single_age_s = v->now >= ref->t ? v->now - ref->t : 0;
	out->single_other_cpus = ref->other;
	out->single_stale = ref->other >= 0 && v->other_cpus >= ref->other + LABVIEW_BUSIER_CPUS;
}
