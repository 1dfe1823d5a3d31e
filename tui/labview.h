/* labview.h — the workload's counters turned into the figures people read.
 *
 * Fed once per tick with the lab's status, it keeps a smoothed GFLOP/s, a
 * history for the sparkline, the steady-state GFLOP/s since the last change
 * and, per (streams, threads) pair visited, the best steady-state figure for
 * the scaling chart.  Pure: no I/O. */
#ifndef THREADLAB_LABVIEW_H
#define THREADLAB_LABVIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lab.h"
#include "report.h"
#include "throughput.h"

#define LABVIEW_HISTORY 256
#define LABVIEW_POINTS	64

/* One visited setting in the scaling chart. */
struct labview_point {
	int streams, threads;
	int size, precision;
	double gflops;	  /* steady-state GFLOP/s */
	double seconds;	  /* length of the steady window it came from */
	double effective; /* effective CPUs it was measured under */
	int workers;	  /* background workers running meanwhile */
};

struct labview {
	struct tp_ewma ewma;
	struct tp_steady steady; /* public: the dashboard's sweep reads its epoch,
				  * state and window start (throughput.h) */
	double last_t;		 /* time of the previous feed, s; < 0 none */
	uint64_t last_flops;
	uint64_t last_stream_flops[CTL_MAX_STREAMS]; /* per stream, previous feed */
	uint64_t last_stream_busy[CTL_MAX_STREAMS];  /* busy_cpu_ns, previous feed */
	pid_t last_stream_pid[CTL_MAX_STREAMS];	     /* a new pid restarts the deltas */
	double gflops;				     /* smoothed */
	double history[LABVIEW_HISTORY];	     /* smoothed GFLOP/s, oldest first */
	size_t nhistory;
	struct labview_point points[LABVIEW_POINTS];
	size_t npoints;
	double effective;    /* effective CPUs at the last feed */
	int workers;	     /* workers at the last feed */
	uint64_t ewma_epoch; /* applied epoch the smoothing belongs to */
	/* Single-thread rates measured in passing: a stream running one
	 * intra-op thread does flops / CPU-ns inside GEMM = GFLOP/s of one
	 * thread, whatever the quota, workers or other streams (they change
	 * how long it waits, not how fast it computes on a CPU). */
	struct tp_cache single;
	uint64_t acc_flops[CTL_MAX_STREAMS], acc_cpu[CTL_MAX_STREAMS];
};

void labview_init(struct labview *v);
/* Forgets the history and the chart (key r). */
void labview_reset(struct labview *v);

/* Feeds one lab status read at time t (s) with the target's effective CPU
 * budget; single is the single-thread rate (<= 0: use the one measured in
 * passing, labview_single(), if any).  Fills
 * *out for the outputs, per stream too, except the CPU time /proc shows
 * (cpu_cpus), which labview_cpu() adds from the thread rates. */
void labview_feed(struct labview *v, const struct lab_status *st, double t, double effective,
		  double single, struct workload_report *out);

/* The single-thread rate measured in passing for size/precision (GFLOP/s),
 * or 0 when no stream has run one thread at that size yet. */
double labview_single(const struct labview *v, int size, int precision);
/* Records a rate measured elsewhere (the lab's start-up calibration). */
void labview_single_put(struct labview *v, int size, int precision, double gflops);

/* Adds to *out the CPU time /proc shows per stream helper (and summed):
 * the thread rates of the interval the last labview_feed() covered. */
void labview_cpu(const struct thread_rate *threads, size_t n, struct workload_report *out);

/* The chart point for (streams, threads) at size/precision measured under
 * the budget and workers of the last feed, or NULL. */
const struct labview_point *labview_point_find(const struct labview *v, int streams, int threads,
					       int size, int precision);

/* Whether a point belongs in the chart now: same size and precision, and
 * measured under the effective CPUs and workers of the last feed (a point
 * from before a quota change would be drawn against the wrong ceiling). */
bool labview_point_current(const struct labview *v, const struct labview_point *p, int size,
			   int precision);

#endif
