/* thread-groups.h — a target's threads grouped by name stem, with totals that
 * never go back.
 *
 * A group is (process, stem): pool workers usually share a stem ("gemm0.w"
 * of "gemm0.w1", "gemm0.w2").  Its CPU and run-queue wait totals are the sum
 * over its threads now plus what its threads that ended had when last
 * seen, so they only grow: a Prometheus counter that fell would read as a
 * reset and a spike.  A thread whose name changes stem (the lab's parked
 * "gemm0.p1" was "gemm0.w1") leaves its old group as if it had ended, and
 * the new one counts only what it does from then on: its CPU is never
 * counted in two groups.  Groups of
 * a process that has gone are dropped (their series stop).  The update from
 * the threads sampled is the monitor's own (thread-groups-impl.h). */
#ifndef THREADLAB_GROUPS_H
#define THREADLAB_GROUPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "runqlat.h"

#define GROUP_STEM_MAX 64

struct thread_group {
	pid_t pid;
	char stem[GROUP_STEM_MAX]; /* raw bytes of the name, trailing digits cut */
	size_t stem_len;
	int threads;			   /* threads in it now (0 when all ended) */
	double user_s, system_s;	   /* CPU totals (stat utime, stime), s */
	double wait_s;			   /* run-queue wait total (schedstat field 2), s */
	double gone_user_s, gone_system_s; /* of the threads that ended, when last seen */
	double gone_wait_s;
	/* What threads that joined it by a change of name had then (counted in
	 * their old group): taken off, never counted twice. */
	double moved_user_s, moved_system_s, moved_wait_s;
	/* Run-queue latency since its threads were traced (the BPF path),
	 * counts that only grow as the totals above: each update adds what its
	 * threads' histograms gained since the sample before (a thread new to
	 * the group brings its whole histogram), so what ended threads had
	 * stays.  has_lat: some thread had one. */
	bool has_lat;
	struct runqlat_hist lat;
};

struct thread_groups {
	struct thread_group *v; /* sorted by (pid, stem) */
	size_t n, cap;
	long hz; /* clock ticks per second of utime and stime */
};

void thread_groups_init(struct thread_groups *g);
void thread_groups_free(struct thread_groups *g);

#endif
