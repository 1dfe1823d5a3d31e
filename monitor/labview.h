/* labview.h — the workload's counters turned into the figures people read.
 *
 * Fed once per tick with the lab's status, it keeps a smoothed GFLOP/s, a
 * history for the sparkline, the steady-state GFLOP/s since the last change
 * and, per (streams, threads) pair visited, the best steady-state figure for
 * the scaling chart.  Pure: no I/O.  The feeding, from the lab's status
 * and the threads' rates, is the monitor's own (labview-impl.h). */
#ifndef THREADLAB_LABVIEW_H
#define THREADLAB_LABVIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "rate-cache.h"
#include "roofline.h"
#include "settings.h"
#include "throughput.h"

#define LABVIEW_HISTORY	 256
#define LABVIEW_POINTS	 64
#define LABVIEW_PIDS_MAX 96

/* One inter-op stream (one helper process) of the lab. */
struct workload_stream_report {
	int stream;	    /* index: gemmI */
	pid_t pid;	    /* helper process */
	const char *state;  /* "starting", "running", "paused" (parked too),
			     * "failed", "exited" */
	bool wanted;	    /* stream index < settings.streams (else parked) */
	int threads;	    /* intra-op threads in effect */
	int pool;	    /* OpenBLAS pool threads (never shrinks) */
	double gflops;	    /* this stream over the last interval */
	double useful_cpus; /* CPU time of the helper's threads while inside GEMM
			     * calls / wall: CPUs of useful work */
	double cpu_cpus;    /* CPU time /proc shows for the helper's threads /
			     * wall; above useful_cpus = spinning, overhead */
};

/* The lab's counters since it started, as the last feed read them (the
 * exposition's counters; 0 in a replay). */
struct workload_counters {
	int nslots;			      /* stream slots started (wanted or parked) */
	uint64_t flops[SETTINGS_MAX_STREAMS]; /* FLOPs each slot completed (2 n^3 a GEMM) */
	uint64_t gemms[SETTINGS_MAX_STREAMS]; /* GEMM calls each slot completed */
	uint64_t batches;		      /* input batches the streams took */
	uint64_t input_wait_ns;		      /* time the streams waited for a batch, ns */
	uint64_t loader_cpu_ns;		      /* CPU the loaders spent preparing them, ns */
};

/* What the lab adds to a batch sample (issue: "workload" object). */
struct workload_report {
	int threads, streams, size, workers;
	const char *precision; /* "single" or "double" */
	const char *kernel;    /* "gemm" or "triad" (lab_triad_kernel_name) */
	uint32_t length;       /* the triad's elements per array (0 for GEMM) */
	/* Strings below point into the lab's status the session keeps: valid
	 * until the next session_tick(). */
	double cpus; /* quota asked for, <= 0: none */
	bool paused;
	bool spin_off;
	double interval;	     /* s the figures below cover; 0 on the first feed or
				      * after a counter reset (no history point) */
	double gflops;		     /* smoothed, all streams */
	double gbs;		     /* gflops / the kernel's intensity: its memory traffic
				      * under the roofline's traffic model, GB/s (the triad's
				      * is measured: 24 bytes an element) */
	struct roofline roofline;    /* the kernel against the machine's two roofs */
	double steady_gflops;	     /* steady state since the last change; < 0 unknown */
	double steady_seconds;	     /* the steady window's length, s */
	double ideal_gflops;	     /* single x min(threads x streams, effective) */
	double ceiling_gflops;	     /* single x effective */
	double single_thread_gflops; /* < 0 while not measured yet */
	double single_age_s;	     /* since it was measured, s; < 0 unknown */
	double single_other_cpus;    /* CPUs other processes used then; < 0 unknown */
	bool single_stale;	     /* the box is busier now than it was then: ideal and
				      * ceiling assume CPUs others take (labview_ref_conditions) */
	bool results_checked;	     /* at least one result compared since start */
	bool results_equal;	     /* since start: across every setting visited */
	double max_diff;
	bool epoch_results_checked; /* the same for the setting now in effect */
	bool epoch_results_equal;
	double epoch_max_diff;
	pid_t pids[LABVIEW_PIDS_MAX]; /* every workload and worker process */
	size_t npids;
	pid_t anchor_pid;			 /* the lab's anchor */
	pid_t worker_pids[SETTINGS_MAX_WORKERS]; /* background workers */
	size_t nworkers_pids;
	double useful_cpus; /* summed over streams (see below) */
	double cpu_cpus;    /* summed over streams */
	struct workload_stream_report stream[SETTINGS_MAX_STREAMS];
	int nstreams;		  /* entries in stream[] (slots started) */
	char error[192];	  /* a failed stream's message, "" when none */
	const char *blas_config;  /* openblas_get_config(), "" until known */
	const char *blas_core;	  /* openblas_get_corename() */
	const char *blas_variant; /* "pthreads", "openmp", "sequential" */
	const char *blas;	  /* the build asked for: "pthreads" or "openmp" */
	bool blas_switching;	  /* helpers restarting for another build or spin */
	/* The input pipeline (loaders 0: none; the rates are then 0). */
	int loaders, prep_ms, prefetch;
	double batches_per_s;  /* batches the streams took, over the interval */
	double input_wait_pct; /* share of the wanted streams' time spent waiting for input */
	double loader_cpu_pct; /* CPU of all loaders, % of one CPU (their own clocks) */
	unsigned loader_restarts;
	pid_t loader_pids[SETTINGS_MAX_LOADERS];
	size_t nloader_pids;
	/* The settings epoch: the latest written, and whether every wanted
	 * stream has applied it (the dashboard's sweep waits for that). */
	uint64_t epoch;
	bool applied;
	struct workload_counters totals;
};

/* One visited setting in the scaling chart. */
struct labview_point {
	int streams, threads;
	int size, precision;
	double gflops;	  /* steady-state GFLOP/s */
	double seconds;	  /* length of the steady window it came from */
	double effective; /* effective CPUs it was measured under */
	int workers;	  /* background workers running meanwhile */
	int loaders;	  /* input-pipeline loaders (0: none): a dimension of the chart */
	int prep_ms;	  /* their CPU per batch, with loaders */
	bool left_out;	  /* the diagnosis read the box as contended or throttled while it was
			   * measured: not in the Amdahl fit (sweep-fit.h) */
};

struct labview {
	struct throughput_ewma ewma;
	struct throughput_steady steady; /* public: the dashboard's sweep reads its epoch,
					  * state and window start (throughput.h) */
	double last_t;			 /* time of the previous feed, s; < 0 none */
	uint64_t last_flops;
	uint64_t last_stream_flops[SETTINGS_MAX_STREAMS]; /* per stream, previous feed */
	uint64_t last_stream_busy[SETTINGS_MAX_STREAMS];  /* busy_cpu_ns, previous feed */
	pid_t last_stream_pid[SETTINGS_MAX_STREAMS];	  /* a new pid restarts the deltas */
	double gflops;					  /* smoothed */
	double history[LABVIEW_HISTORY];		  /* smoothed GFLOP/s, oldest first */
	size_t nhistory;
	struct labview_point points[LABVIEW_POINTS];
	size_t npoints;
	double effective;     /* effective CPUs at the last feed */
	int workers;	      /* workers at the last feed */
	int prep_ms;	      /* the pipeline's CPU per batch at the last feed */
	uint64_t ewma_epoch;  /* applied epoch the smoothing belongs to */
	uint32_t failed_mask; /* streams FAILED at the last feed (bit per slot) */
	/* Single-thread rates measured in passing: a stream running one
	 * intra-op thread does flops / CPU-ns inside GEMM = GFLOP/s of one
	 * thread, whatever the quota, workers or other streams (they change
	 * how long it waits, not how fast it computes on a CPU). */
	struct rate_cache single;
	double memory_gbs; /* the machine's bandwidth (lab_status_memory_gbs), GB/s; 0 unknown */
	/* The conditions each of those rates was measured in (labview-ref.c). */
	struct labview_ref {
		uint32_t size, precision;
		double t;     /* when measured, s */
		double other; /* CPUs other processes used then; < 0 unknown */
		bool used;
	} ref[RATE_CACHE_SLOTS];
	double now;	    /* the last labview_ref_conditions() time, s */
	double other_cpus;  /* CPUs other processes use now; < 0 unknown */
	double quiet_since; /* start of the present quiet spell, s; < 0 not quiet */
	uint64_t acc_flops[SETTINGS_MAX_STREAMS], acc_cpu[SETTINGS_MAX_STREAMS];
	/* The pipeline's counters at the previous feed. */
	uint64_t last_batches, last_input_wait, last_loader_cpu;
};

/* Where the lab's programs are and how they were found: lab_find_programs_dir()
 * (0, -ENOENT, -ENAMETOOLONG); the configured directory. */
int labview_programs_dir(char *out, size_t cap, const char **how);
const char *labview_programs_configured_dir(void);

void labview_init(struct labview *v);
/* Forgets the history and the chart (key r). */
void labview_reset(struct labview *v);

/* Adds the figures of w (one interval of the workload, live or recorded)
 * to the history and, when w has a steady figure, to the chart, under the
 * budget's effective CPUs.  labview_feed() calls it; a replay calls it for
 * each recorded sample. */
void labview_note(struct labview *v, const struct workload_report *w, double effective);

#define LABVIEW_QUIET_CPUS  0.25 /* other processes' CPUs below which the box is quiet */
#define LABVIEW_BUSIER_CPUS 0.3	 /* more CPUs others take than then: the rate is stale */

/* The chart point for (streams, threads, loaders) at size/precision
 * measured under the budget, workers and batch cost of the last feed, or
 * NULL. */
const struct labview_point *labview_point_find(const struct labview *v, int streams, int threads,
					       int loaders, int size, int precision);

/* Marks the chart point of settings s (when there is one) as measured
 * while the diagnosis read the box as contended or throttled (left_out)
 * or not: the latest verdict of its window decides. */
void labview_point_mark(struct labview *v, const struct settings *s, bool left_out);

/* Whether a point belongs in the chart now: same size and precision, and
 * measured under the effective CPUs, workers and batch cost (for points
 * with loaders) of the last feed (a point from before a quota change would
 * be drawn against the wrong ceiling).  Points of every loader count are
 * current: the chart shows them side by side. */
bool labview_point_current(const struct labview *v, const struct labview_point *p, int size,
			   int precision);

/* What a thread is to the lab. */
enum labview_mark {
	LABVIEW_MARK_NONE,   /* not a lab thread, or attach mode */
	LABVIEW_MARK_ACTIVE, /* stream driver or pool worker doing GEMMs */
	LABVIEW_MARK_PARKED, /* pool worker beyond the active threads, or a stream
			      * beyond settings.streams */
	LABVIEW_MARK_PAUSED, /* the lab is paused */
	LABVIEW_MARK_WORKER, /* background CPU worker */
	LABVIEW_MARK_ANCHOR, /* the lab's idle parent process */
	LABVIEW_MARK_LOADER, /* input-pipeline loader */
};
/* "", "active", "parked", "paused", "worker", "anchor", "loader". */
const char *labview_mark_name(enum labview_mark m);

#endif
