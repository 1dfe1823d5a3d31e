/* cgroup-parse.h — pure parsers of /proc/PID/cgroup, mountinfo, cpu.max
 * (cfs_quota_us, cfs_period_us), cpu.stat, PSI and cpuset lists
 * (cgroup-parse.c; the types: cgroup.h).  Each reads a NUL-terminated
 * buffer, fills the caller's struct and never touches the file system.
 * int returns are 0 or -errno. */
#ifndef THREADLAB_CGROUP_PARSE_H
#define THREADLAB_CGROUP_PARSE_H

#include "cgroup.h"

/* Finds in the contents of /proc/PID/cgroup the v1 line whose controller
 * list holds "cpu" (v1 != 0 asked) or the "0::" line (v1 == 0).
 * Returns 0, -ENOENT when there is no such line, -EINVAL when malformed,
 * -ENAMETOOLONG when the line found does not fit struct cgroup_line (other
 * lines may be any length). */
int cgroup_parse_file(const char *buf, bool v1, struct cgroup_line *out);
/* The same for any v1 controller (e.g. "cpuset"); NULL asks for "0::". */
int cgroup_parse_file_find(const char *buf, const char *controller, struct cgroup_line *out);
/* Finds the mount of the v1 hierarchy holding the "cpu" controller
 * (version 1 asked) or of cgroup2 (version 2).  Returns 0 or -ENOENT. */
int cgroup_parse_mountinfo(const char *buf, int version, struct cgroup_mount *out);
/* The same for any v1 controller (e.g. "cpuset"); NULL asks for cgroup2.
 * The first matching mount wins; malformed lines are skipped. */
int cgroup_parse_mountinfo_find(const char *buf, const char *controller, struct cgroup_mount *out);
/* Quota parsers.  *cpus is the quota in CPUs as a real number, or -1 when
 * unlimited ("max", or cfs_quota_us == -1).  period in µs. */
int cgroup_parse_cpu_max(const char *buf, double *cpus, uint64_t *period_us);
int cgroup_parse_cfs(const char *quota_buf, const char *period_buf, double *cpus,
		     uint64_t *period_us);
/* cpu.stat of a cgroup v1 or v2 (version) into out. */
int cgroup_parse_cpustat(const char *buf, int version, struct cgroup_cpustat *out);
/* A PSI file ("some ...", "full ...") into out. */
int cgroup_parse_psi(const char *buf, struct psi *out);
/* Number of CPUs in a cpuset list such as "0-3,8,10-11"; -EINVAL if bad.
 * An empty list gives 0. */
int cgroup_parse_cpulist_count(const char *buf);
/* The same, and each CPU of the list below bytes x 8 set in set (which the
 * caller zeroes; NULL: count only). */
int cgroup_parse_cpulist_set(const char *buf, uint8_t *set, size_t bytes);
/* Throttling between two cpu.stat readings dt seconds apart. */
void cgroup_parse_throttle_rate(const struct cgroup_cpustat *prev, const struct cgroup_cpustat *cur,
				double dt, struct throttle_rate *out);

#endif
