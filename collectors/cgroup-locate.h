/* cgroup-locate.h — where a process's cgroup directory is (cgroup-locate.c;
 * the types: cgroup.h).  Paths are relative to the struct sysroot given;
 * int returns are 0 or -errno. */
#ifndef THREADLAB_CGROUP_LOCATE_H
#define THREADLAB_CGROUP_LOCATE_H

#include "cgroup.h"

/* Locates the CPU cgroup of pid (0 = self) using /proc/PID/cgroup and
 * mountinfo under the root: /proc/self/mountinfo on a live root (the
 * directories are opened in our mount namespace), /proc/PID/mountinfo in a
 * fixture tree.  Returns 0, -ESRCH when the process
 * is gone, -ENOENT when no cgroup hierarchy is mounted. */
int cgroup_locate(const struct sysroot *r, pid_t pid, struct cgroup_loc *out);
/* Directory (relative to the root) of pid's cgroup in the v1 hierarchy that
 * holds controller (e.g. "cpuset"), resolved as cgroup_locate does; *fallback
 * (may be NULL) tells that dir is the mount root.  Returns 0, -ESRCH, or
 * -ENOENT when that hierarchy is not mounted or pid has no line for it. */
int cgroup_locate_v1(const struct sysroot *r, pid_t pid, const char *controller, char *dir,
		     size_t cap, bool *fallback);
/* The two files those read, for a caller that reads many processes and
 * keeps what they share: proc/PID/cgroup of pid, and the mountinfo
 * cgroup_locate reads for pid (ours on a live root, so one copy serves
 * every process).  Each returns 0 with a malloc'd text in *out, -ESRCH when
 * the process has gone, or -errno. */
int cgroup_locate_read_file(const struct sysroot *r, pid_t pid, char **out);
int cgroup_locate_read_mountinfo(const struct sysroot *r, pid_t pid, char **out);
/* cgroup_locate and cgroup_locate_v1 on those texts (no -ESRCH). */
int cgroup_locate_text(const struct sysroot *r, const char *cgroup_file, const char *mountinfo,
		       struct cgroup_loc *out);
int cgroup_locate_v1_text(const struct sysroot *r, const char *cgroup_file, const char *mountinfo,
			  const char *controller, char *dir, size_t cap, bool *fallback);

#endif
