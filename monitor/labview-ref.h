/* labview-ref.h — the single-thread reference behind ideal and ceiling, and
 * the conditions it was measured in (labview-ref.c; the view: labview.h).
 * Rates in GFLOP/s, bandwidth in GB/s, times CLOCK_MONOTONIC seconds. */
#ifndef THREADLAB_LABVIEW_REF_H
#define THREADLAB_LABVIEW_REF_H

#include "labview.h"

/* The single-thread rate measured in passing for size/precision (GFLOP/s),
 * or 0 when no stream has run one thread at that size yet. */
double labview_ref_single(const struct labview *v, int size, int precision);
/* Records a measured single-thread rate (in passing, or the lab's start-up
 * calibration) under the conditions labview_ref_conditions() last gave.  A
 * busy box only ever lowers a rate, so a lower one is kept only when the
 * box is quiet (other processes below LABVIEW_QUIET_CPUS) and the rate
 * held was measured before this quiet spell: the reference is measured
 * again when the box is quiet. */
void labview_ref_single_put(struct labview *v, int size, int precision, double gflops);
/* The machine's memory bandwidth for the roofline (lab_status_memory_gbs), GB/s:
 * the best of it and of every steady triad figure fed since (a bandwidth
 * measured in passing: only a busy box lowers one). */
void labview_ref_memory_put(struct labview *v, double gbs);
/* The single-thread GEMM rate the compute roof uses: size's when measured,
 * else the best GEMM rate of that precision measured so far; 0 none. */
double labview_ref_single_gemm(const struct labview *v, int size, int precision);
/* The conditions now (time t, s, and the CPUs other processes used over the
 * last interval; < 0 unknown), for labview_ref_single_put() and for the
 * staleness labview_feed() reports. */
void labview_ref_conditions(struct labview *v, double t, double other_cpus);
/* Fills out's single_age_s, single_other_cpus and single_stale for the
 * rate of size/precision (labview_feed() calls it). */
void labview_ref_single_report(const struct labview *v, int size, int precision,
			       struct workload_report *out);

#endif
