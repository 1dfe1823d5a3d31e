/* threads.h — the per-thread types of the collectors: one thread at one
 * instant (struct thread_sample), a tick's threads (struct thread_set) and
 * the rates between two ticks (struct thread_rate).  Plain data, filled by
 * the /proc sampler (thread-sampler.h) or the BPF reader (bpf-threads.h);
 * a set's life is thread-set.h's, the rates thread-rates.h's and
 * thread-latency.h's. */
#ifndef THREADLAB_THREADS_H
#define THREADLAB_THREADS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "latency.h"
#include "procparse.h"
#include "sysroot.h"

/* One thread at one instant.  Plain data: copy freely. */
struct thread_sample {
	pid_t pid; /* thread group (process) id */
	pid_t tid;
	char name[TASK_NAME_MAX]; /* stat field 2, raw bytes, NUL-terminated */
	size_t name_len;
	char state;			  /* stat field 3 */
	int cpu;			  /* stat field 39, last CPU */
	uint64_t utime, stime;		  /* stat fields 14, 15, clock ticks */
	uint64_t starttime;		  /* stat field 22, clock ticks */
	uint64_t run_ns, wait_ns, slices; /* schedstat fields 1-3, ns, at sched_time */
	uint64_t wait_open_ns;		  /* of wait_ns, a wait still under way at sched_time,
					   * which schedstat counts only once it ends (the BPF
					   * path; 0 on /proc, which has not counted it) */
	double sched_time;		  /* CLOCK_MONOTONIC s at which schedstat was read;
					   * 0 in hand-made samples (the set's time) */
	uint64_t run0_ns, wait0_ns;	  /* schedstat at sched_time0, the read before */
	double sched_time0;		  /* 0: no read before sched_time yet */
	uint64_t vcsw, ivcsw;	/* status: voluntary / nonvoluntary switches at csw_time */
	double csw_time;	/* CLOCK_MONOTONIC s at which vcsw, ivcsw were exact */
	uint64_t vcsw0, ivcsw0; /* the counts at csw_time0, the point before csw_time */
	double csw_time0;	/* 0: no point before csw_time yet */
	uint32_t lat_ref;	/* run-queue latency since the thread was first traced:
				 * 1 + index into the set's lat; 0 none (not traced, or
				 * the /proc path) */
	/* A process's leader on the BPF path (bpf-tasks.h): stat fields 4
	 * (parent) and 20 (threads) of its process, so that the machine
	 * reader needs no stat line for it; nthreads 0: not read (the /proc
	 * path, or not the leader). */
	pid_t ppid;
	int nthreads;
	/* A process's leader: the run of the whole process, threads that
	 * ended included (the BPF path: signal->sum_sched_runtime and every
	 * thread's run; /proc: utime + stime of proc/PID/stat, to a clock
	 * tick, for processes of at most SAMPLER_PROC_RUN_THREADS threads),
	 * ns; 0: not read.  A thread that starts and ends between two reads
	 * is in no sample, and only this total has its run (snapshot.h). */
	uint64_t proc_run_ns;
	uint64_t proc_child_ns; /* with it, the run of its children it reaped, and of
				 * theirs (stat fields 16 and 17; signal->cutime and
				 * cstime), ns */
};

/* All threads seen in one tick, sorted by (pid, tid). */
struct thread_set {
	double time;		 /* CLOCK_MONOTONIC seconds of the sample */
	struct thread_sample *v; /* owned by the set */
	size_t n, cap;
	size_t nprocs; /* processes the threads belong to */
	/* Run-queue latency (the BPF path, bpf-tasks.h): lat_on says it is
	 * traced at all; a thread's lat_ref names its histogram in lat. */
	bool lat_on;
	struct lat_hist *lat; /* owned */
	size_t nlat, lat_cap;
	uint64_t lat_dropped;  /* events the latency map had no room for, since loading */
	unsigned lat_capacity; /* threads the latency map holds */
};

struct thread_sampler;

/* Rates between two samples of the same target. */
struct thread_rate {
	pid_t pid, tid;
	char name[TASK_NAME_MAX]; /* raw bytes */
	size_t name_len;
	char state;
	int cpu;			/* last CPU */
	double cpu_pct;			/* schedstat run delta / wall, % of one CPU, <= 100 */
	double user_pct, sys_pct;	/* cpu_pct split by the utime:stime tick ratio */
	double wait_pct;		/* schedstat wait delta / wall, %; cpu_pct + wait_pct
					 * <= 100; 100 for a thread in state R at both ends
					 * whose schedstat did not move (it waited all along) */
	double vcsw_per_s, ivcsw_per_s; /* over the samples' csw_time span (thread-sampler.h) */
	bool is_new;			/* not in the previous sample: rates are 0 */
	bool is_reset;			/* schedstat moved more than is possible (a
					 * counter reset or jump): rates are 0 */
	uint32_t lat_ref;		/* the interval's run-queue latency: 1 + index into
					 * the rates' lat (snapshot.h); 0 none */
	struct lat_summary latency;	/* p50, p99, max, mean of it; events 0: none */
	/* Filled by the monitor (monitor/activity.h), 0 from thread_rates(): */
	unsigned char activity; /* what it did most of the interval */
	double input_wait_pct;	/* % of the interval it waited for input */
};

#endif
