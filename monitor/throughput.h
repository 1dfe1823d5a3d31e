/* throughput.h — GFLOP/s from the workload's counters, and what to compare
 * them with.  Pure arithmetic: no OpenBLAS, no I/O, no clocks (callers pass
 * times in).  Words as in docs/design.md, "Words": single-thread rate, ideal(T), ceiling.
 *
 * Units: times in seconds (double, any monotonic origin), work in FLOPs
 * (uint64_t counters from struct ctl_stream), rates in GFLOP/s, CPU counts
 * as real numbers (1.5 CPUs is valid). */
#ifndef THREADLAB_THROUGHPUT_H
#define THREADLAB_THROUGHPUT_H

#include <stdint.h>

/* ---- smoothed rate --------------------------------------------------- */

/* Exponentially weighted moving average of GFLOP/s fed with counter deltas.
 * Time constant tau_s: a sample dt seconds long gets weight 1 - exp(-dt/tau),
 * so the result does not depend on how often it is fed.  The first sample
 * sets the value directly. */
struct throughput_ewma {
	double tau_s;  /* time constant, s */
	double gflops; /* current smoothed value, GFLOP/s */
	int primed;    /* 0 until the first sample */
};

void throughput_ewma_init(struct throughput_ewma *e, double tau_s);
/* Feeds dflops FLOPs done over dt_s seconds; returns the smoothed GFLOP/s.
 * A sample with dt_s <= 0 is ignored (the current value is returned). */
double throughput_ewma_update(struct throughput_ewma *e, uint64_t dflops, double dt_s);

/* ---- steady state after a setting took effect ------------------------ */

/* Average GFLOP/s over a window that starts warmup_s seconds after the
 * applied epoch last changed.  Feed every sample; the window restarts by
 * itself when the epoch changes or the counter goes backwards (a helper was
 * restarted).  For a total over several streams, pass the smallest applied
 * epoch among the running streams and the sum of their FLOP counters. */
struct throughput_steady {
	double warmup_s;     /* skipped after each epoch change, s */
	uint64_t epoch;	     /* applied epoch being measured */
	int state;	     /* 0 empty, 1 warming up, 2 measuring */
	double t_change;     /* first sample seen with this epoch, s */
	double t0;	     /* start of the window, s */
	uint64_t flops0;     /* counter at t0 */
	double t_last;	     /* last sample, s */
	uint64_t flops_last; /* counter at t_last */
	uint64_t flops_prev; /* counter of the previous sample (any state) */
};

void throughput_steady_init(struct throughput_steady *s, double warmup_s);
/* Feeds one sample: time t_s, the applied epoch, the FLOP counter. */
void throughput_steady_update(struct throughput_steady *s, double t_s, uint64_t applied_epoch,
			      uint64_t flops);
/* Seconds measured so far in the current window (0 while warming up). */
double throughput_steady_seconds(const struct throughput_steady *s);
/* Average GFLOP/s of the window into *gflops.  Returns 0, or -EAGAIN while
 * the window is shorter than min_window_s (or still warming up). */
int throughput_steady_gflops(const struct throughput_steady *s, double min_window_s,
			     double *gflops);

/* ---- comparisons (docs/design.md, "Words") --------------------------------- */

/* single * min(threads, effective).  threads is the number of threads doing
 * GEMM work at once (streams x intra-op threads for the total). */
double throughput_ideal(double single_gflops, double threads, double effective_cpus);
/* single * effective: no thread count beats it. */
double throughput_ceiling(double single_gflops, double effective_cpus);
/* gflops / ideal as a fraction (1.0 = ideal); 0 if ideal <= 0. */
double throughput_efficiency(double gflops, double ideal_gflops);
/* 100 * gflops / ceiling, a percentage; 0 if ceiling <= 0. */
double throughput_ceiling_pct(double gflops, double ceiling_gflops);
/* gflops / single-thread rate; 0 if single <= 0. */
double throughput_speedup(double gflops, double single_gflops);
/* GFLOP/s of a counter delta: dflops / dt_s / 1e9; 0 if dt_s <= 0. */
double throughput_gflops(uint64_t dflops, double dt_s);
/* after - before of a counter that only grows (FLOPs, batches, ns); 0 when
 * it fell (it started again: a helper or the anchor was restarted), never
 * the 2^64-sized number an unsigned wrap gives. */
uint64_t throughput_delta(uint64_t before, uint64_t after);

#endif
