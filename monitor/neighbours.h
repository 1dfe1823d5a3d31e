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
 * target may use first.
 *
 * This header is the faces': what a diagnosis reports of the machine
 * (struct machine_view).  The reader and its window, in the collectors'
 * types, are the monitor's own (neighbours-impl.h). */
#ifndef THREADLAB_NEIGHBOURS_H
#define THREADLAB_NEIGHBOURS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "model.h"

#define NEIGHBOURS_PERIOD_S 1.0 /* s between machine samples at most */
#define NEIGHBOURS_SLACK_S                                                                         \
	0.05			 /* a tick this early still samples: a caller on a 1 s             \
				  * cadence that wakes a little early is not skipped */
#define NEIGHBOURS_TOP	     5	 /* neighbours named */
#define NEIGHBOUR_CGROUP_MAX 256 /* bytes of a cgroup path kept (longer ones are cut) */

/* Another process, over the window. */
struct neighbour {
	pid_t pid;
	char name[MODEL_NAME_MAX]; /* raw bytes */
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

#endif
