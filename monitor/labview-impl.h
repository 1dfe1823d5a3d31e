/* labview-impl.h — the lab view (labview.h) fed from the lab's status and
 * the threads' rates; for monitor/ (and its tests) only, in the
 * workload's and the collectors' types. */
#ifndef THREADLAB_LABVIEW_IMPL_H
#define THREADLAB_LABVIEW_IMPL_H

#include <sys/types.h>

#include "lab.h"
#include "labview.h"
#include "threads.h"

/* Feeds one lab status read at time t (s) with the target's effective CPU
 * budget; single is the single-thread rate (<= 0: use the one measured in
 * passing, labview_ref_single(), if any).  Fills
 * *out for the outputs, per stream too, except the CPU time /proc shows
 * (cpu_cpus), which labview_cpu() adds from the thread rates. */
void labview_feed(struct labview *v, const struct lab_status *st, double t, double effective,
		  double single, struct workload_report *out);

/* Adds to *out the CPU time /proc shows per stream helper (and summed):
 * the thread rates of the interval the last labview_feed() covered. */
void labview_cpu(const struct thread_rate *threads, size_t n, struct workload_report *out);

/* Classifies a thread of the lab: by its process (anchor, worker, stream
 * helper: st->stream[i].pid) and its name (gemmI.pK parked, gemmI / gemmI.wK
 * active).  st NULL (attach mode) gives LABVIEW_MARK_NONE. */
enum labview_mark labview_mark(pid_t pid, const char *name, size_t name_len,
			       const struct lab_status *st);

#endif
