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
 * "-" when not finite: a NaN or infinite difference).  A header "env"
 * records what the figures belong to. */
#ifndef THREADLAB_SWEEP_H
#define THREADLAB_SWEEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "control.h"

#define SWEEP_LIST_MAX 32

enum sweep_format {
	SWEEP_TEXT,
	SWEEP_CSV,
	SWEEP_JSON,
};

struct sweep_opts {
	int threads[SWEEP_LIST_MAX]; /* intra-op threads to try; nthreads 0: 1 .. max(2,
				      * 2 x effective CPUs rounded up) */
	size_t nthreads;
	int streams[SWEEP_LIST_MAX]; /* streams to try; nstreams 0: just 1 */
	size_t nstreams;
	int size; /* n */
	enum ctl_precision precision;
	double cpus;	/* quota, CPUs; <= 0: none */
	int workers;	/* background workers during the whole sweep */
	bool spin_off;	/* --blas-spin off */
	double seconds; /* measured per setting, s */
	double warmup;	/* after each change, before measuring, s */
	enum sweep_format format;
};

/* Defaults: lists empty (see above), size 768, single, no quota, 0 workers,
 * 3 s per setting, 1 s warm-up, text. */
void sweep_opts_default(struct sweep_opts *o);

/* Runs the sweep, writing the table to out; out is flushed after every
 * row.  Errors go to stderr as one line saying what was wrong ("threadlab:
 * ...").  Returns:
 *   0        every setting measured;
 *   -EINVAL  bad options (-ENOMEM: the matrices would not fit in memory);
 *   -EINTR   session_stop_signal was set: the rows so far are written (JSON
 *            closed), and stderr says "sweep interrupted after N of M
 *            settings";
 *   -EPIPE   out is a pipe whose reader has gone (seen on a write, or by
 *            polling out's descriptor between rows and while waiting): the
 *            sweep stops at once, silently;
 *   -EIO     any other write error on out (e.g. ENOSPC): stops, with a
 *            message on stderr;
 *   -errno   the workload could not be started or died. */
int sweep_run(const struct sweep_opts *o, FILE *out);

/* ---- sweep-out.c: the table in text, CSV or JSON ---------------------- */

struct sweep_env {
	char cpu_model[256];		/* raw bytes */
	int online, affinity;		/* CPUs */
	double quota_cpus;		/* <= 0: none */
	double effective;		/* CPUs as a real number */
	char blas_config[CTL_INFO_LEN]; /* raw bytes from the helper */
	char blas_core[64];
	const char *blas_variant;
	const char *spin; /* "default" or "off" */
	const char *omp_num_threads, *openblas_num_threads, *mkl_num_threads; /* NULL: unset */
	char kernel[256];						      /* uname -sr */
	char date[64];							      /* ISO 8601, UTC */
	int size;
	const char *precision; /* "single" / "double" */
	double seconds, warmup;
	double single_gflops; /* calibrated single-thread rate, GFLOP/s */
	bool baseline_row;    /* speedup etc. use the 1 x 1 row, not single_gflops */
};

struct sweep_row {
	int streams, threads;
	double gflops, speedup, efficiency, ceiling_pct, wait_pct;
	double throttled_pct; /* < 0: no quota */
	bool results_equal;   /* checked since the setting took effect, none differed */
	double max_diff;      /* largest |difference| since then; not finite: NaN/inf */
};

/* Each writes its part and flushes f.  0, -EPIPE (the reader of a pipe has
 * gone) or -EIO (another write error; errno says which). */
int sweep_out_begin(FILE *f, enum sweep_format fmt, const struct sweep_env *env);
int sweep_out_row(FILE *f, enum sweep_format fmt, const struct sweep_row *r, bool first);
/* baseline_gflops: what speedups were computed against (JSON only). */
int sweep_out_end(FILE *f, enum sweep_format fmt, double baseline_gflops);

/* The text table's header line and one row, without newline, into buf;
 * columns right-aligned to the same widths.  Pure, for tests. */
void sweep_text_head(char *buf, size_t cap);
void sweep_text_row(char *buf, size_t cap, const struct sweep_row *r);

#endif
