/* tour-out.h — a tour step as text or as one JSON object (--tour --batch,
 * and the dashboard's --tour-notes file).
 *
 * JSON (one object per line): lesson, lessons (the total), step, steps,
 * title, what, caption, skipped, settings {threads, streams, size,
 * precision, cpus (null: none), loaders, prep_ms, prefetch, blas,
 * blas_spin}, figures {seconds, gflops, single_thread_gflops, speedup,
 * ideal_gflops, ceiling_gflops, ceiling_pct, effective_cpus, online_cpus,
 * affinity_cpus, wait_pct, involuntary_switches_per_s, throttled_pct (null:
 * no quota), throttled_s_per_s, batches_per_s, input_wait_pct,
 * loader_cpu_pct, useful_cpus, cpu_cpus, spin_cpus, other_cpus,
 * psi_some_pct (null: unknown), results_checked, results_equal, max_diff,
 * blas_variant}; figures is null for a skipped step.  Text: a heading line,
 * the settings, the caption wrapped at 78 columns, a blank line.  Strings
 * are threadlab's own but go through the JSON writer and text_safe()
 * anyway (a caption may quote a workload error). */
#ifndef THREADLAB_TOUR_OUT_H
#define THREADLAB_TOUR_OUT_H

#include <stdio.h>

#include "format.h"
#include "tour.h"

/* Writes step i of t to f; returns 0, or -EPIPE / -EIO after a failed
 * flush. */
int tour_out_step(FILE *f, enum format fmt, const struct tour *t, size_t i);

#endif
