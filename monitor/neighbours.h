/* neighbours.h — the rest of the machine beside a target, over the
 * diagnosis's window: which other processes took CPU, and how busy the
 * machine was.
 *
 * A struct neighbours samples the whole machine (collectors/machine.h) at
 * most every NEIGHBOURS_PERIOD_S seconds — the diagnosis's cadence, not the
 * dashboard's ticks — and sums each process's CPU and wait seconds over a
 * sliding window made of two halves, as window.h does for threads: a
 * process that ended inside the window keeps what it took.  A view is then
 * made against one target: its followed processes are left out, so are
 * threadlab itself and the target's descendants that are not followed
 * (without --tree), which are counted apart ("add --tree"); the rest are
 * the neighbours, ranked by the CPU they took, those that ran on a CPU the
 * target may use first. */
#ifndef THREADLAB_NEIGHBOURS_H
#define THREADLAB_NEIGHBOURS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "machine.h"
#include "sysroot.h"

#define NEIGHBOURS_PERIOD_S  1.0  /* s between machine samples at most */
#define NEIGHBOURS_SLACK_S   0.05 /* a tick this early still samples: a caller on a 1 s
				   * cadence that wakes a little early is not skipped */
#define NEIGHBOURS_TOP	     5	 /* neighbours named */
#define NEIGHBOUR_CGROUP_MAX 256 /* bytes of a cgroup path kept (longer ones are cut) */

/* Another process, over the window. */
struct neighbour {
	pid_t pid;
	char name[TASK_NAME_MAX]; /* raw bytes */
	size_t name_len;
	char cgroup[NEIGHBOUR_CGROUP_MAX]; /* "" unknown */
	double cpus_used;		   /* CPUs it took on average */
	double runnable_mean;		   /* its threads' run + wait, threads */
	bool shares_cpus;		   /* ran on a CPU the target may run on */
};

/* The machine over the window, seen from one target. */
struct machine_view {
	bool valid;	      /* at least one interval measured */
	double window_s;      /* s the figures cover */
	int online;	      /* CPUs online */
	double cpus_used;     /* CPUs busy (proc/stat), every process and interrupt */
	double runnable_mean; /* CPUs busy plus every process's run-queue wait: threads */
	double psi_some;      /* system CPU pressure, some avg10 %; < 0 unknown */
	double others_cpus;   /* CPUs taken by processes other than the target's */
	double others_shared; /* of those, by processes that ran on the target's CPUs */
	double unseen_cpus;   /* busy CPUs no process read accounts for: processes born and
			       * gone between two samples (a build's compilers), interrupts */
	int children;	      /* descendants of the target not followed (no --tree) */
	double children_cpus; /* the CPUs they took */
	size_t n;
	struct neighbour top[NEIGHBOURS_TOP]; /* the ones sharing CPUs first, then by CPU */
};

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
