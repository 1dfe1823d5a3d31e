/* thread-sampler.h — per-thread samples of a process (or a process tree),
 * read from /proc (thread-sampler.c; the types: threads.h).
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
#ifndef THREADLAB_THREAD_SAMPLER_H
#define THREADLAB_THREAD_SAMPLER_H

#include "threads.h"

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

#endif
