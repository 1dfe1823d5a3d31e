/* amdahl.c — the serial fraction of Amdahl's law from measured speedups.
 *
 * Least squares on the speedups is not linear in s, so the minimum is
 * found by a scan of 0 .. 1 in steps of 1/AMDAHL_GRID and a golden-section
 * search in the bracket around the best step (the sum is smooth in s; the
 * scan keeps a second local minimum from trapping the search). */
#include "amdahl.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#define AMDAHL_GRID 1000
#define AMDAHL_TOL  1e-12

double amdahl_speedup(double s, double threads, double cpus)
{
	double m = threads < 1 ? 1 : threads;
	if (cpus > 0 && m > cpus)
		m = cpus < 1 ? 1 : cpus;
	return 1.0 / (s + (1 - s) / m);
}

double amdahl_karp_flatt(double speedup, double threads, double cpus)
{
	double p = cpus > 0 && threads > cpus ? cpus : threads;
	if (!(p > 1) || !(speedup > 0) || !isfinite(speedup))
		return (double)NAN;
	return (1 / speedup - 1 / p) / (1 - 1 / p);
}

bool amdahl_beyond(double threads, double cpus)
{
	return cpus > 0 && threads > ceil(cpus - 1e-9);
}

/* Whether the fit takes point p on cpus. */
static bool amdahl_used(const struct amdahl_point *p, double cpus)
{
	return !p->excluded && !amdahl_beyond(p->threads, cpus);
}

void amdahl_set_init(struct amdahl_set *set)
{
	memset(set, 0, sizeof(*set));
}

int amdahl_set_add(struct amdahl_set *set, double threads, double speedup, bool excluded)
{
	if (!isfinite(speedup) || speedup <= 0 || !(threads >= 1))
		return 0;
	if (set->n >= AMDAHL_POINTS_MAX)
		return -ENOSPC;
	set->p[set->n++] = (struct amdahl_point){threads, speedup, excluded};
	return 0;
}

double amdahl_sse(const struct amdahl_set *set, double s, double cpus)
{
	double sse = 0;
	for (size_t i = 0; i < set->n; i++) {
		if (!amdahl_used(&set->p[i], cpus))
			continue;
		double d = set->p[i].speedup - amdahl_speedup(s, set->p[i].threads, cpus);
		sse += d * d;
	}
	return sse;
}

static double amdahl_minimize(const struct amdahl_set *set, double cpus)
{
	int best = 0;
	double fbest = amdahl_sse(set, 0, cpus);
	for (int i = 1; i <= AMDAHL_GRID; i++) {
		double f = amdahl_sse(set, (double)i / AMDAHL_GRID, cpus);
		if (f < fbest) {
			fbest = f;
			best = i;
		}
	}
	double a = (best > 0 ? best - 1 : 0) / (double)AMDAHL_GRID;
	double b = (best < AMDAHL_GRID ? best + 1 : AMDAHL_GRID) / (double)AMDAHL_GRID;
	const double g = (sqrt(5.0) - 1) / 2;
	double x1 = b - g * (b - a), x2 = a + g * (b - a);
	double f1 = amdahl_sse(set, x1, cpus), f2 = amdahl_sse(set, x2, cpus);
	while (b - a > AMDAHL_TOL) {
		if (f1 <= f2) {
			b = x2;
			x2 = x1;
			f2 = f1;
			x1 = b - g * (b - a);
			f1 = amdahl_sse(set, x1, cpus);
		} else {
			a = x1;
			x1 = x2;
			f1 = f2;
			x2 = a + g * (b - a);
			f2 = amdahl_sse(set, x2, cpus);
		}
	}
	double s = (a + b) / 2;
	/* The scan's end points are candidates too (a minimum at s = 0 or 1). */
	return amdahl_sse(set, s, cpus) <= fbest ? s : (double)best / AMDAHL_GRID;
}

static void amdahl_predict(struct amdahl_fit *out, const struct amdahl_set *set)
{
	double c = out->cpus, s = out->serial_fraction;
	for (size_t i = 0; i < set->n && out->npred < AMDAHL_PRED_MAX - 2; i++) {
		double t = set->p[i].threads;
		bool seen = t <= 1;
		for (size_t k = 0; k < out->npred && !seen; k++)
			seen = out->pred[k].threads == t;
		if (!seen)
			out->pred[out->npred++] =
			    (struct amdahl_pred){t, c, amdahl_speedup(s, t, c), c > 0 && t > c};
	}
	double whole = c > 0 ? ceil(c) : 1;
	for (int k = 2; k <= 4; k *= 2) {
		double t = whole * k;
		out->pred[out->npred++] = (struct amdahl_pred){t, t, amdahl_speedup(s, t, t), true};
	}
}

int amdahl_fit(const struct amdahl_set *set, double cpus, struct amdahl_fit *out)
{
	memset(out, 0, sizeof(*out));
	out->cpus = cpus;
	out->serial_fraction = out->r2 = out->kf_min = out->kf_max = NAN;
	out->threads_min = out->threads_max = NAN;
	bool informative = false;
	double mean = 0;
	for (size_t i = 0; i < set->n; i++) {
		const struct amdahl_point *p = &set->p[i];
		if (p->excluded) {
			out->points_excluded++;
			continue;
		}
		if (amdahl_beyond(p->threads, cpus)) {
			out->points_beyond++;
			continue;
		}
		out->points_used++;
		mean += p->speedup;
		if (!(p->threads >= out->threads_min))
			out->threads_min = p->threads;
		if (!(p->threads <= out->threads_max))
			out->threads_max = p->threads;
		/* a point slower than one thread tells no serial fraction
		 * (the law never goes below 1): a fit from such points alone
		 * read s = 1.00 and a Karp-Flatt of 2.95 */
		if (amdahl_speedup(0, p->threads, cpus) > 1) {
			if (p->speedup >= 1)
				informative = true;
			else
				out->points_slower++;
		}
		double kf = amdahl_karp_flatt(p->speedup, p->threads, cpus);
		if (isfinite(kf)) {
			out->kf_min = isnan(out->kf_min) || kf < out->kf_min ? kf : out->kf_min;
			out->kf_max = isnan(out->kf_max) || kf > out->kf_max ? kf : out->kf_max;
		}
	}
	if (!informative)
		return -EDOM;
	mean /= out->points_used;
	out->valid = true;
	out->serial_fraction = amdahl_minimize(set, cpus);
	double tot = 0;
	for (size_t i = 0; i < set->n; i++)
		if (amdahl_used(&set->p[i], cpus))
			tot += (set->p[i].speedup - mean) * (set->p[i].speedup - mean);
	double res = amdahl_sse(set, out->serial_fraction, cpus);
	out->r2 = tot > 0 ? 1 - res / tot : (double)NAN;
	amdahl_predict(out, set);
	return 0;
}
