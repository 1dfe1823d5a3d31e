/* neighbours-impl.h — the machine reader behind the neighbours
 * (neighbours.h): its sampler and window, in the collectors' types; for
 * monitor/ only (a face reads the machine_view a diagnosis holds). */
#ifndef THREADLAB_NEIGHBOURS_IMPL_H
#define THREADLAB_NEIGHBOURS_IMPL_H

#include "machine.h"
#include "neighbours.h"
#include "sysroot.h"
#include "threads.h"

struct neigh_half; /* neighbours.c */

struct neighbours {
	double length; /* the window, s (0: the last machine interval alone) */
	double started, last;
	struct machine_sampler *ms; /* NULL until the first tick, or when proc/ failed */
	bool ms_lent;		    /* ms is another's (neighbours_borrow): not freed here */
	bool failed;
	struct machine_sample sample;
	struct neigh_half *old, *cur;
	int online;
	double first_period; /* s from the baseline to the first measured sample
			      * (0: NEIGHBOURS_PERIOD_S; a screen that must show
			      * something soon asks for less) */
};

void neighbours_init(struct neighbours *n, double window);
void neighbours_free(struct neighbours *n);

/* Before n's first tick: n reads the machine with from's reader, warm from
 * from's last tick (each process's stat held open, its threads' last
 * readings), so n's first tick costs what changed and already has rates
 * (over the time since from's last tick) instead of reading every thread
 * of the machine for a baseline.  from must not tick while n holds its
 * reader and must outlive n; its own next tick measures from n's last. */
void neighbours_borrow(struct neighbours *n, const struct neighbours *from);

/* Whether neighbours_tick at now would sample (a caller that reads the
 * threads it passes as known reads them only then). */
bool neighbours_due(const struct neighbours *n, double now);

/* Samples the machine under r when NEIGHBOURS_PERIOD_S has passed since
 * the last sample (the first call only sets the baseline), at now
 * (CLOCK_MONOTONIC s).  known (NULL: none): the caller's own sample of the
 * target's threads, used instead of reading them again
 * (machine_sampler_known).  Returns true when it took a sample. */
bool neighbours_tick(struct neighbours *n, const struct sysroot *r, const struct thread_set *known,
		     double now);

/* The view from a target: pids (sorted) are its followed processes,
 * target its root, self threadlab's own pid; cpus the CPUs it may run on
 * (MACHINE_SET_BYTES bytes, none set: any CPU); psi_some the
 * system's pressure (< 0 unknown).  out->valid is false before the first
 * measured interval. */
void neighbours_view(const struct neighbours *n, pid_t target, const pid_t *pids, size_t npids,
		     pid_t self, const uint8_t *cpus, double psi_some, struct machine_view *out);

#endif
