/* amdahl.h — Amdahl's law fitted to measured speedups.
 *
 * The model: S(T) = 1 / (s + (1 - s) / min(T, C)), where s is the serial
 * fraction (0 .. 1), T the threads (workers) of a point and C the effective
 * CPUs (a real number: a quota of 1.5 CPUs caps at 1.5).  The fit chooses s
 * in 0 .. 1 by least squares on the speedups themselves (not their
 * inverses), over the points not left out.  Beside it, each point's
 * Karp-Flatt serial fraction e(P) = (1/S - 1/P) / (1 - 1/P) at
 * P = min(T, C), the parallelism the point could have.
 *
 * Points measured while the diagnosis read the box as contended or
 * throttled are added with excluded set: they are counted (excluded) and
 * never enter the fit.  Points with more threads than the whole CPUs
 * (T > ceil(C): oversubscribed) are counted apart (beyond) and never
 * enter it either: the law has them flat at S(C), but what they measure
 * is what threads cost beyond the CPUs (switching, caches), which would
 * read as a larger serial fraction.  Pure arithmetic: no I/O, no clocks. */
#ifndef THREADLAB_AMDAHL_H
#define THREADLAB_AMDAHL_H

#include <stdbool.h>
#include <stddef.h>

#define AMDAHL_POINTS_MAX 64
#define AMDAHL_PRED_MAX	  8

/* The law: the speedup of serial fraction s at threads on cpus (both real
 * numbers; threads below 1 read as 1, cpus <= 0 as no cap). */
double amdahl_speedup(double s, double threads, double cpus);

/* Karp-Flatt's serial fraction of a measured speedup at threads on cpus
 * (at min(threads, cpus); cpus <= 0: no cap); NAN when that is <= 1 or
 * speedup <= 0 (no information there). */
double amdahl_karp_flatt(double speedup, double threads, double cpus);

/* Whether a point of threads on cpus is beyond the fit: more threads than
 * the whole CPUs (cpus <= 0: never). */
bool amdahl_beyond(double threads, double cpus);

struct amdahl_point {
	double threads; /* workers of the point (lab: streams x threads) */
	double speedup; /* against the 1-worker baseline */
	bool excluded;	/* contended or throttled: left out of the fit */
};

/* The points gathered so far (a sweep's rows, the dashboard's scaling
 * points).  Plain value: zero it or call amdahl_set_init. */
struct amdahl_set {
	struct amdahl_point p[AMDAHL_POINTS_MAX];
	size_t n; /* points held; more than AMDAHL_POINTS_MAX are dropped */
};

void amdahl_set_init(struct amdahl_set *set);
/* Adds a point; one with a speedup that is not finite and positive is not
 * added (a row without a rate).  Returns 0, or -ENOSPC when full. */
int amdahl_set_add(struct amdahl_set *set, double threads, double speedup, bool excluded);

struct amdahl_pred {
	double threads; /* threads, on cpus (this box's C, or threads CPUs beyond it) */
	double cpus;
	double speedup;
	bool beyond; /* a prediction for more CPUs than this box has */
};

struct amdahl_fit {
	bool valid;		/* a fit was made: at least one point above 1 worker */
	double serial_fraction; /* s, 0 .. 1 */
	double r2;		/* 1 - SSres/SStot over the points used; NAN when SStot is 0 */
	double kf_min, kf_max;	/* Karp-Flatt over the used points above 1 thread; NAN: none */
	int points_used, points_excluded;
	int points_beyond;	   /* more threads than the whole CPUs: not fitted */
	int points_slower;	   /* fitted points above 1 thread slower than 1 thread
				    * (no law's: overhead, contention or a quota); with
				    * none faster there is no fit (-EDOM) */
	double threads_min, threads_max; /* the thread counts of the points used */
	double cpus; /* C the fit was made for */
	struct amdahl_pred pred[AMDAHL_PRED_MAX];
	size_t npred; /* this box's measured thread counts (up to C), then 2C and 4C CPUs */
};

/* Fits s to set's points on cpus into *out (every field written).  Returns
 * 0, or -EDOM when no point that is neither excluded nor beyond has
 * min(T, C) above 1 (out then is not valid, its counts still set). */
int amdahl_fit(const struct amdahl_set *set, double cpus, struct amdahl_fit *out);

/* The sum of squared residuals of s over set's used points on cpus (what
 * amdahl_fit minimizes; for tests). */
double amdahl_sse(const struct amdahl_set *set, double s, double cpus);

#endif
