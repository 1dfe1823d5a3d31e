/* sweep.h — threadlab --sweep: the workload over a list of settings.
 *
 * sweep_run() starts a lab, measures the single-thread rate for the size and
 * precision (a short 1 x 1 calibration, lab.h), then runs each (streams,
 * threads) pair for opts->seconds after opts->warmup seconds, changing one
 * knob at a time (threads go up for one stream count and down for the
 * next), and prints one row per pair as soon as it is measured.  When both
 * lists hold 1, 1 moves to the front of each, so 1 stream x 1 thread is
 * measured first and is the baseline.  The lab is stopped on every path.
 *
 * Baseline: the 1 x 1 row's own GFLOP/s when the sweep has that row (so it
 * reads speedup 1.00, and every row is measured the same way), else the
 * calibrated single-thread rate.  The header says which ("baseline").
 *
 * Row columns (and JSON keys): streams, threads, gflops (GFLOP/s of all
 * streams over the window), speedup (gflops / baseline), efficiency
 * (gflops / ideal(streams x threads) from the baseline, a fraction),
 * ceiling_pct (% of baseline x effective CPUs), wait_pct (run-queue wait of
 * the helpers' threads as % of the time they were runnable: wait / (run +
 * wait)), throttled_pct (% of the quota cgroup's periods throttled; null /
 * empty / "-" without a quota), results_equal (results were checked since
 * the setting took effect and none differed from the reference), max_diff
 * (the largest |difference| since the setting took effect; null / empty /
 * "-" when not finite: a NaN or infinite difference), verdict (the
 * diagnosis of the window; a throttled row is left out of the Amdahl fit,
 * sweep-fit.h).  A header "env"
 * records what the figures belong to.
 *
 * With a list of loaders (--sweep --loaders 1,2,3) the input pipeline is a
 * third dimension, outermost (each loader count runs the whole streams x
 * threads grid, one knob changing per step), and rows also give loaders,
 * batches_per_s, input_wait_pct (share of the wanted streams' time spent
 * waiting for a batch) and loader_cpu_pct (CPU of all loaders, % of one
 * CPU). */
#ifndef THREADLAB_SWEEP_H
#define THREADLAB_SWEEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "diagnosis.h"
#include "environment.h"
#include "labview.h"
#include "settings.h"

#define SWEEP_LIST_MAX 32

struct sweep_opts {
	int threads[SWEEP_LIST_MAX]; /* intra-op threads to try; nthreads 0: 1 .. max(2,
				      * 2 x effective CPUs rounded up) */
	size_t nthreads;
	int streams[SWEEP_LIST_MAX]; /* streams to try; nstreams 0: just 1 */
	size_t nstreams;
	int size; /* n */
	enum settings_precision precision;
	enum settings_kernel kernel;
	double cpus;   /* quota, CPUs; <= 0: none */
	int workers;   /* background workers during the whole sweep */
	bool spin_off; /* --blas-spin off */
	enum settings_blas blas;
	int loaders[SWEEP_LIST_MAX]; /* loader counts; nloaders 0: no pipeline dimension */
	size_t nloaders;
	int prep_ms, prefetch; /* the pipeline's batch cost and ring slots per loader */
	double seconds;	       /* measured per setting, s */
	double warmup;	       /* after each change, before measuring, s */
};

#define SWEEP_SECONDS_DEFAULT 3.0 /* s measured per setting (--seconds) */

/* Defaults: lists empty (see above), no quota, 0 workers, the size,
 * precision, kernel, BLAS build, prep and prefetch of the knob table
 * (knobs_defaults), SWEEP_SECONDS_DEFAULT per setting, 1 s warm-up. */
void sweep_opts_default(struct sweep_opts *o);

/* What the table's figures belong to. */
struct sweep_env {
	struct env_record env; /* machine, budget, BLAS, thread variables, kernel, date */
	const char *spin;      /* "default" or "off" */
	int size;
	const char *precision; /* "single" / "double" */
	const char *kernel;    /* "gemm" / "triad" */
	double seconds, warmup;
	double single_gflops; /* calibrated single-thread rate, GFLOP/s */
	bool baseline_row;    /* speedup etc. use the 1 x 1 row, not single_gflops */
	bool pipeline;	      /* rows carry the loaders columns */
	int prep_ms, prefetch;
};

struct sweep_row {
	int streams, threads;
	double gflops, speedup, efficiency, ceiling_pct, wait_pct;
	double throttled_pct; /* < 0: no quota */
	bool results_equal;   /* checked since the setting took effect, none differed */
	double max_diff;      /* largest |difference| since then; not finite: NaN/inf */
	bool pipeline;	      /* a sweep over loaders: the fields below are meant */
	int loaders;
	double batches_per_s, input_wait_pct, loader_cpu_pct;
	enum verdict verdict; /* the diagnosis of the window (the rest of the machine is not
			       * measured: throttled, never contended); VERDICT_N: none */
	bool crowded;	      /* crowded out by other processes too (an oversubscribed or
			       * throttled window that was contended as well) */
	double gbs;	      /* gflops / the kernel's intensity (roofline.h): the triad's
			       * bandwidth, GEMM's modelled traffic, GB/s */
};

/* Where the rows go: output/sweep-out.c writes them as a table.  Each
 * callback returns 0, -EPIPE (the reader of a pipe has gone: the sweep
 * stops at once, silently) or -EIO (another write error: it stops).  gone
 * and note may be NULL. */
struct sweep_sink {
	void *arg;
	int (*begin)(void *arg, const struct sweep_env *env);
	int (*row)(void *arg, const struct sweep_row *r);
	/* baseline_gflops: what speedups were computed against */
	int (*end)(void *arg, double baseline_gflops);
	/* Polled between rows and while waiting: -EPIPE when the reader has
	 * gone, else 0. */
	int (*gone)(void *arg);
	/* One line for the user (no "threadlab:" prefix, no newline): a
	 * restart, an error, the interruption. */
	void (*note)(void *arg, const char *line);
	/* Each setting's measured window as one sample (a recording of the
	 * sweep); NULL: not wanted.  Returns 0 or -errno like row. */
	int (*sample)(void *arg, const struct model_sample *m, const struct workload_report *w);
};

/* A note formatted as printf does, handed to note(arg, line) (nothing
 * when note is NULL); the command sweep uses it too. */
void sweep_note(void (*note)(void *arg, const char *line), void *arg, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Runs the sweep, handing the environment, each row as soon as it is
 * measured, and the end to the sink.  Returns:
 *   0        every setting measured;
 *   -EINVAL  bad options (-ENOMEM: the matrices would not fit in memory);
 *   -EINTR   stop_signal was set: the rows so far are handed on, end is
 *            called, and a note says "sweep interrupted after N of M
 *            settings";
 *   -EPIPE   the sink's reader has gone: the sweep stops at once;
 *   -EIO     another write error in the sink;
 *   -errno   the workload could not be started or died.
 * The lab is stopped on every path. */
int sweep_run(const struct sweep_opts *o, const struct sweep_sink *sink);

#endif
