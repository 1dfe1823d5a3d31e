/* activity-impl.h — what each thread does, measured (activity.h): the
 * split of an interval, and the tracker that reads the blocked kinds and
 * instruction pointers; for monitor/ only, in the collectors' types. */
#ifndef THREADLAB_ACTIVITY_IMPL_H
#define THREADLAB_ACTIVITY_IMPL_H

#include "activity.h"
#include "snapshot.h"
#include "sysroot.h"

/* Splits one interval of a thread into seconds per activity (adds to
 * out[ACTIVITY_N]): its rate r over dt, the fraction of its run time that
 * was spin (0..1), and the kind its not-runnable time takes. */
void activity_split(const struct thread_rate *r, double dt, double spin_share,
		    enum activity blocked, double *out);

struct activity_tracker;

/* Follows the threads of one session; live reads under r (copied, its
 * descriptor must outlive the tracker).  sample_ips: whether to sample
 * instruction pointers to tell spin from compute (live roots only). */
struct activity_tracker *activity_tracker_new(const struct sysroot *r, bool sample_ips);
void activity_tracker_free(struct activity_tracker *t);

/* The runtimes of a process that tell spin from compute: the address
 * ranges of its OpenMP runtimes' code, and whether it runs the pthreads
 * OpenBLAS.  ranges are [start, end) pairs (n pairs); copied. */
void activity_tracker_runtime(struct activity_tracker *t, pid_t pid, const uint64_t *ranges,
			      size_t n, bool openblas_pthreads);

/* A process that only waits for commands and for its children (the lab's
 * anchor, in poll() on its bell and a signalfd): its waits in poll or a
 * read are sleep, not input-wait.  0: none. */
void activity_tracker_supervisor(struct activity_tracker *t, pid_t pid);

/* One tick: reads what it needs of cur's threads (prev the sample before,
 * both sorted by (pid, tid); rates prev -> cur) and writes each rate's
 * activity, and its split into out_seconds (ACTIVITY_N per rate, in the
 * rates' order; may be NULL). */
void activity_tracker_tick(struct activity_tracker *t, const struct thread_set *prev,
			   const struct thread_set *cur, struct snapshot_rates *rates,
			   double *out_seconds);

/* Whether instruction pointers are being sampled (false: not asked, or
 * perf_event_open refused: spin is then told only by system time). */
bool activity_tracker_samples_ips(const struct activity_tracker *t);

#endif
