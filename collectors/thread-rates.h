/* thread-rates.h — the rates between two thread sets (thread-rates.c):
 * CPU %, wait % (of one CPU), switches per second, from the struct
 * thread_set of threads.h into the struct thread_rate of threads.h. */
#ifndef THREADLAB_THREAD_RATES_H
#define THREADLAB_THREAD_RATES_H

#include "threads.h"

/* Computes one rate per thread in cur.  A thread absent from prev (or whose
 * start time differs: a reused TID) gets is_new and zero rates.  Switch
 * rates are the count deltas over the csw_time deltas; when status was not
 * read between prev and cur (same csw_time), cur's own last interval
 * (csw_time0 to csw_time) is carried, so a rate is never 0 merely because
 * status was not read.  Both sets must be sorted by (pid, tid).  *out is
 * (re)allocated by the call and owned by the caller; returns the count. */
size_t thread_rates(const struct thread_set *prev, const struct thread_set *cur,
		    struct thread_rate **out, size_t *cap);

#endif
