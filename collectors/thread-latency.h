/* thread-latency.h — each thread's run-queue latency over an interval
 * (thread-latency.c), from the histograms two thread sets carry (the BPF
 * path, bpf-tasks.h). */
#ifndef THREADLAB_THREAD_LATENCY_H
#define THREADLAB_THREAD_LATENCY_H

#include "threads.h"

/* The interval's run-queue latency of each rate r[0..n) (thread_rates of
 * prev and cur): the difference of its thread's histograms into a new
 * entry of *lat (reallocated; *nlat reset to the count), its lat_ref and
 * latency set.  A thread new in cur, or whose TID another thread took, has
 * none.  Does nothing when cur does not trace latency. */
void thread_latency_rates(const struct thread_set *prev, const struct thread_set *cur,
			  struct thread_rate *r, size_t n, struct lat_hist **lat, size_t *nlat,
			  size_t *cap);

#endif
