/* report.h — samples and budgets as text, CSV or JSON Lines.
 *
 * Pure formatting over the collectors' plain structs: nothing here reads the
 * system.  Foreign names go through text-safe.h (text, CSV) or
 * json_put_string (JSON). */
#ifndef THREADLAB_REPORT_H
#define THREADLAB_REPORT_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include "control.h"
#include "options.h"
#include "snapshot.h"

#define REPORT_PIDS_MAX 96

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

/* What the lab adds to a batch sample (issue: "workload" object). */
struct workload_report {
	int threads, streams, size, workers;
	const char *precision; /* "single" or "double" */
	/* Strings below point into the session's lab_status: valid until the
	 * next session_tick(). */
	double cpus; /* quota asked for, <= 0: none */
	bool paused;
	bool spin_off;
	double gflops;		     /* smoothed, all streams */
	double steady_gflops;	     /* steady state since the last change; < 0 unknown */
	double ideal_gflops;	     /* single x min(threads x streams, effective) */
	double ceiling_gflops;	     /* single x effective */
	double single_thread_gflops; /* < 0 while not measured yet */
	bool results_checked;	     /* at least one result compared since start */
	bool results_equal;	     /* since start: across every setting visited */
	double max_diff;
	bool epoch_results_checked; /* the same for the setting now in effect */
	bool epoch_results_equal;
	double epoch_max_diff;
	pid_t pids[REPORT_PIDS_MAX]; /* every workload and worker process */
	size_t npids;
	double useful_cpus; /* summed over streams (see below) */
	double cpu_cpus;    /* summed over streams */
	struct workload_stream_report stream[CTL_MAX_STREAMS];
	int nstreams;		  /* entries in stream[] (slots started) */
	char error[192];	  /* a failed stream's message, "" when none */
	const char *blas_config;  /* openblas_get_config(), "" until known */
	const char *blas_core;	  /* openblas_get_corename() */
	const char *blas_variant; /* "pthreads", "openmp", "sequential" */
};

/* threadlab --budget. */
void report_budget(FILE *f, enum format fmt, pid_t pid, const struct budget *b);

/* One sample.  prev-to-cur rates in r; w is NULL outside the lab.  CSV
 * prints its header once per FILE when header is true. */
void report_sample(FILE *f, enum format fmt, const struct snapshot *cur,
		   const struct snapshot_rates *r, const struct workload_report *w, bool header);

/* Short names for a term ("online", …) and a cgroup version ("v1"). */
const char *report_version_name(int version);

#endif
