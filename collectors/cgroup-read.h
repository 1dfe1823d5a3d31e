/* cgroup-read.h — reading a located cgroup's quota, cpu.stat and pressure
 * files under the root (cgroup-read.c; the types: cgroup.h).  Directories
 * are relative to the struct sysroot given; int returns are 0 or -errno. */
#ifndef THREADLAB_CGROUP_READ_H
#define THREADLAB_CGROUP_READ_H

#include <stdbool.h>

#include "cgroup.h"

/* Whether the v2 directory dir (relative to root) is the hierarchy's real
 * root: the only cgroup without a cgroup.type file (a cgroup namespace's
 * root has one). */
bool cgroup_read_is_root(const struct sysroot *r, const char *dir);

/* The tightest quota over loc->dir and each ancestor up to the mount
 * (struct cgroup_quota). */
int cgroup_read_quota(const struct sysroot *r, const struct cgroup_loc *loc,
		      struct cgroup_quota *out);
/* cpu.stat of the directory dir (relative to root).  -ENOENT when missing. */
int cgroup_read_cpustat(const struct sysroot *r, const char *dir, int version,
			struct cgroup_cpustat *out);
/* cpu.pressure of dir, or "proc/pressure/cpu" for the system (a rel naming
 * a directory reads rel/cpu.pressure, anything else is read as the file).
 * A missing or unreadable file gives out->available = false and returns 0;
 * malformed contents give -EINVAL (available = false). */
int cgroup_read_psi(const struct sysroot *r, const char *rel, struct psi *out);
/* The directory whose cpu.pressure is loc's cgroup's own (loc->v2_dir), or
 * NULL with the reason in *why: the cpu controller on v1 (a hybrid host's
 * unified cgroup is another grouping), or the root cgroup (its pressure is
 * the system's; only the root lacks cgroup.type, a cgroup namespace's root
 * has it).  NULL with PSI_WHY_NONE when there is no unified mount. */
const char *cgroup_read_psi_dir(const struct sysroot *r, const struct cgroup_loc *loc,
				enum psi_why *why);

#endif
