/* threads.h — per-thread samples of a process (or a process tree).
 *
 * A struct thread_sampler follows one target across ticks.  It lists
 * proc/PID/task/ for the target (and, with tree, each descendant that
 * libproc2 finds), keeps a descriptor per thread for schedstat, stat and
 * status, and re-reads them with pread at offset 0.  Later ticks list task/
 * again only when the leader's thread count (stat field 20) differs from
 * the threads kept: a thread that exited fails its reads.  A thread whose
 * schedstat is unchanged since the last tick has neither run nor been
 * woken, so its stat and status are not read again.  Threads that vanish
 * mid-read are dropped silently; a TID reused by a new thread is told apart
 * by its start time (stat field 22).  A new thread shows from the tick after
 * it starts at the latest.
 *
 * status, the dearest file, only gives the voluntary and involuntary switch
 * counts, so a thread that keeps running has it re-read about once per
 * status period P (default 1 s), not every tick: at the first tick after a
 * boundary of its own, spread over P by TID so each tick reads an even
 * share.  Staleness bound, with T the longest interval between ticks: the
 * switch counts of a thread that has run since they were read are at most
 * P + T old; its switch rates describe the interval between its last two
 * reads, so a change of rate shows in full within 2 (P + T).  A thread that
 * has not run since its status was read has exact counts, and its rates
 * fall to 0 on the next tick; one that runs again after such an idle tick,
 * or that is new, has status read on that tick, so no rate is a false 0.
 * Schedstat is read every tick by default: CPU %, wait % and the demand
 * they make are as fresh as ever.  With a sched period set
 * (thread_sampler_set_sched_period), a thread that is not wanted (see
 * below), does not lead its process and is not new has no file read at all
 * except at its own phase boundary of that period; in between its sample
 * stands and its rates are those of its last read interval (rates carried,
 * as for switch counts).  So with a period P, the CPU %, wait % and demand
 * of a thread that is not wanted describe an interval of at most P + T
 * that ended at most P + T ago, and a thread that starts or ends shows
 * within P + T: its count in the leader's stat still shows every tick, but
 * an exit and a start in the same interval only when the exited one's read
 * fails.  Totals over a window of several P stay right.  Such threads
 * also have status read at 4 times the status period: their switch counts
 * only feed totals, and status costs most.
 *
 * stat (state, last CPU, name, utime/stime) follows a cadence too when a
 * stat period is set (thread_sampler_set_stat_period; default 0: every
 * thread that ran, every tick): a thread that ran has it read at its own
 * phase boundary of the period, or at once when it is among the TIDs the
 * caller wants (the rows shown, thread_sampler_want), when it is new,
 * or when it leads its process (a zombie leader is how a dead process
 * shows).  So with a period P, a state or last CPU shown for a thread that
 * is not wanted is at most P + T old. */
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

void thread_set_init(struct thread_set *s);
void thread_set_free(struct thread_set *s);
void thread_set_copy(struct thread_set *dst, const struct thread_set *src);

struct thread_sampler;

/* Follows pid (and its descendants when tree).  Returns NULL and sets errno
 * (ESRCH: no such process, EACCES: may not read it, ENOTSUP: tree under a
 * fixture root).  r is copied; its descriptor must outlive the sampler.
 * Three descriptors are held per thread, up to 64 below RLIMIT_NOFILE's
 * soft limit; threads beyond that are read by path (slower).  A program
 * following large processes should raise the soft limit to the hard one. */
struct thread_sampler *thread_sampler_new(const struct sysroot *r, pid_t pid, bool tree);
void thread_sampler_free(struct thread_sampler *ts);

/* Fills out (replacing its contents).  Returns 0, or -ESRCH once the target
 * process has exited (out then holds no threads). */
int thread_sampler_sample(struct thread_sampler *ts, struct thread_set *out);

/* As thread_sampler_sample, with the sample time given instead of read from
 * CLOCK_MONOTONIC (seconds, > 0, increasing from call to call): lets tests
 * drive the status cadence with a clock of their own. */
int thread_sampler_sample_at(struct thread_sampler *ts, double now, struct thread_set *out);

/* Sets the status period P in seconds (see the top of this file); 0 reads
 * status of every thread that ran on every tick.  A caller that needs exact
 * switch rates between two samples less than P apart should set 0. */
void thread_sampler_set_status_period(struct thread_sampler *ts, double seconds);

/* Sets the stat period in seconds (see the top of this file); 0 (the
 * default) reads stat of every thread that ran on every tick. */
void thread_sampler_set_stat_period(struct thread_sampler *ts, double seconds);
/* Sets the sched period in seconds (see the top of this file); 0 (the
 * default) reads schedstat of every thread on every tick. */
void thread_sampler_set_sched_period(struct thread_sampler *ts, double seconds);
/* The TIDs read on every tick, whatever the periods: schedstat always and
 * stat whenever they ran (copied; n 0 clears). */
void thread_sampler_want(struct thread_sampler *ts, const pid_t *tids, size_t n);

/* Files read since thread_sampler_new (for the benchmark and tests). */
struct thread_sampler_reads {
	uint64_t listings;		  /* task/ directories listed */
	uint64_t schedstat, stat, status; /* preads of each file */
};
void thread_sampler_read_counts(const struct thread_sampler *ts, struct thread_sampler_reads *out);

/* Open descriptors currently held (for the benchmark and tests). */
size_t thread_sampler_fds(const struct thread_sampler *ts);

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
	double vcsw_per_s, ivcsw_per_s; /* over the samples' csw_time span (see the top) */
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

/* Computes one rate per thread in cur.  A thread absent from prev (or whose
 * start time differs: a reused TID) gets is_new and zero rates.  Switch
 * rates are the count deltas over the csw_time deltas; when status was not
 * read between prev and cur (same csw_time), cur's own last interval
 * (csw_time0 to csw_time) is carried, so a rate is never 0 merely because
 * status was not read.  Both sets must be sorted by (pid, tid).  *out is
 * (re)allocated by the call and owned by the caller; returns the count. */
size_t thread_rates(const struct thread_set *prev, const struct thread_set *cur,
		    struct thread_rate **out, size_t *cap);

/* The interval's run-queue latency of each rate r[0..n) (thread_rates of
 * prev and cur): the difference of its thread's histograms into a new
 * entry of *lat (reallocated; *nlat reset to the count), its lat_ref and
 * latency set.  A thread new in cur, or whose TID another thread took, has
 * none.  Does nothing when cur does not trace latency. */
void thread_rates_latency(const struct thread_set *prev, const struct thread_set *cur,
			  struct thread_rate *r, size_t n, struct lat_hist **lat, size_t *nlat,
			  size_t *cap);

#endif
