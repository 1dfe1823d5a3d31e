/* lab-quota.h — the lab's CPU-quota cgroup (internal to workload/).
 *
 * Ownership is a lock, not a pid: the owner holds flock(LOCK_EX) on the
 * top directory for as long as it lives (the kernel drops it when the
 * owner dies, even by SIGKILL), and a later run judges a cgroup stale only
 * when it can take that lock itself.  A pid alone cannot say it: a
 * threadlab in a PID namespace names its cgroup after its namespace pid,
 * which another pid namespace reads as some other process, or none.
 * Layout, named after threadlab's pid (with .N added when another live
 * owner, from another PID namespace, holds that name):
 *   v1: <cpu mount>/<place>/threadlab-<pid>
 *       (cpu.cfs_quota_us, cpu.cfs_period_us; processes in cgroup.procs)
 *   v2: <mount>/<place>/threadlab-<pid>/work
 *       +cpu in the subtree_control of every cgroup from the root down to
 *       threadlab-<pid> itself, the quota (cpu.max) on threadlab-<pid>, the
 *       processes in the leaf "work" (the no-internal-process rule).
 * <place> is threadlab's own cgroup when that works, else the nearest parent
 * of it that does, up to the root (on v2 a cgroup holding processes, as
 * threadlab's own usually does, cannot hand the cpu controller to children).
 * threadlab itself never joins.  The v1 cpu hierarchy is used when it is
 * mounted (that is where the cpu controller lives on hybrid hosts); else the
 * v2 hierarchy when "cpu" is in its root's cgroup.controllers.
 *
 * Functions return 0 or -errno; with a message in err for the user. */
#ifndef THREADLAB_LAB_QUOTA_H
#define THREADLAB_LAB_QUOTA_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "lab.h"

#define LAB_QUOTA_PERIOD_US 100000

/* The system the quota code works on.  NULL everywhere means this machine:
 * root "", mkdir(2), rmdir(2) and one write(2) of a control file.  Tests
 * pass a fixture: root is prefixed to /proc/self/mountinfo,
 * /proc/self/cgroup, /proc/PID/stat and to the mount points read from
 * mountinfo; the operations simulate the kernel (mkdir fills in the
 * interface files, rmdir of a populated cgroup gives -EBUSY, ...).  Each
 * operation returns 0 or -errno.  kill(2) of the pids listed in cgroup.procs
 * is always real.  The struct must outlive every lab_quota using it. */
struct lab_quota_sys {
	const char *root;
	int (*mkdir)(const char *path);
	int (*rmdir)(const char *path);
	int (*write)(const char *path, const char *text);
};

struct lab_quota {
	bool created;			 /* the directories exist and are ours */
	int version;			 /* 1 or 2 */
	char top[LAB_PATH_MAX];		 /* absolute: .../threadlab-<pid> */
	char leaf[LAB_PATH_MAX];	 /* absolute: where processes go (= top on v1) */
	double cpus;			 /* in effect; 0 = unlimited */
	bool locked;			 /* lock_fd holds the flock on top */
	int lock_fd;
	const struct lab_quota_sys *sys; /* set by lab_quota_create*; NULL = real */
};

/* Removes every threadlab-<pid>[.N] cgroup (v1 cpu and v2, in threadlab's
 * own cgroup and in each of its parents up to the root) that no live owner
 * holds locked, killing tasks left in it first.  A locked one is never
 * touched, whoever and wherever its owner is.  Returns how many were
 * removed. */
int lab_quota_cleanup_stale(void);
int lab_quota_cleanup_stale_in(const struct lab_quota_sys *sys);

/* Creates the cgroup for owner (threadlab's pid).  On failure err says why
 * and what is needed (root, or a delegated v2 subtree); -ENOENT when no
 * hierarchy has the cpu controller. */
int lab_quota_create(struct lab_quota *q, pid_t owner, char *err, size_t errlen);
int lab_quota_create_in(const struct lab_quota_sys *sys, struct lab_quota *q, pid_t owner,
			char *err, size_t errlen);

/* Whether the cgroup was created but has gone (removed by someone else):
 * then q is reset, so that lab_quota_create() can make it again. */
bool lab_quota_lost(struct lab_quota *q);

/* Sets the quota (cpus > 0, at least 0.01) or removes the limit (cpus <= 0):
 * v2 cpu.max "QUOTA PERIOD" or "max PERIOD", v1 cpu.cfs_quota_us (-1 for
 * none) with cpu.cfs_period_us; the period is LAB_QUOTA_PERIOD_US µs. */
int lab_quota_set(struct lab_quota *q, double cpus, char *err, size_t errlen);

/* Moves process pid (all its threads) into the leaf. */
int lab_quota_add(struct lab_quota *q, pid_t pid);

/* Moves each of the n processes in pids into the leaf, in order.  A process
 * that has gone (-ESRCH) or a pid <= 0 is skipped.  Stops at the first other
 * failure: returns its -errno and puts that pid in *failed (the processes
 * before it stay moved); 0 when every live process is in. */
int lab_quota_add_all(struct lab_quota *q, const pid_t *pids, size_t n, pid_t *failed);

/* SIGKILLs whatever is still in the cgroup, waits up to timeout_ms for it
 * to empty, and removes the directories, leaf first.  Idempotent. */
int lab_quota_destroy(struct lab_quota *q, int timeout_ms);

#endif
