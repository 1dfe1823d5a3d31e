/* lab-quota.h — the lab's CPU-quota cgroup (internal to workload/).
 *
 * Layout, named after threadlab's pid so that a later run can tell a stale
 * one (its pid no longer a live process started before the cgroup):
 *   v1: <cpu mount>/<threadlab's cgroup or root>/threadlab-<pid>
 *       (cpu.cfs_quota_us, cpu.cfs_period_us)
 *   v2: <mount>/<threadlab's cgroup or root>/threadlab-<pid>/work
 *       +cpu in threadlab-<pid>'s parent's and its own subtree_control, the
 *       quota (cpu.max) on threadlab-<pid>, the processes in the leaf "work"
 *       (the no-internal-process rule).
 * threadlab itself never joins.  The v1 cpu hierarchy is preferred when it
 * is mounted (that is where the cpu controller lives on hybrid hosts).
 *
 * Functions return 0 or -errno; with a message in err for the user. */
#ifndef THREADLAB_LAB_QUOTA_H
#define THREADLAB_LAB_QUOTA_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "lab.h"

#define LAB_QUOTA_PERIOD_US 100000

struct lab_quota {
	bool created;		 /* the directories exist and are ours */
	int version;		 /* 1 or 2 */
	char top[LAB_PATH_MAX];	 /* absolute: .../threadlab-<pid> */
	char leaf[LAB_PATH_MAX]; /* absolute: where processes go (= top on v1) */
	double cpus;		 /* in effect; 0 = unlimited */
};

/* Removes every threadlab-<pid> cgroup (v1 cpu and v2, under threadlab's
 * own cgroup and under the root) whose pid is dead or younger than the
 * cgroup, killing tasks left in it first.  Returns how many were removed. */
int lab_quota_cleanup_stale(void);

/* Creates the cgroup for owner (threadlab's pid).  On failure err says why
 * and what is needed (root, or a delegated v2 subtree). */
int lab_quota_create(struct lab_quota *q, pid_t owner, char *err, size_t errlen);

/* Sets the quota (cpus > 0) or removes the limit (cpus <= 0). */
int lab_quota_set(struct lab_quota *q, double cpus, char *err, size_t errlen);

/* Moves process pid (all its threads) into the leaf. */
int lab_quota_add(struct lab_quota *q, pid_t pid);

/* SIGKILLs whatever is still in the cgroup, waits up to timeout_ms for it
 * to empty, and removes the directories.  Idempotent. */
int lab_quota_destroy(struct lab_quota *q, int timeout_ms);

#endif
