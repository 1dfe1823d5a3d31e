/* cgroup.h — where a process's CPU cgroup is, and what it says.
 *
 * Covers cgroup v1 (cpu controller mounted on its own hierarchy), v2
 * (unified) and hybrid hosts (v1 cpu controller plus a v2 mount, which may
 * still carry cpu.pressure).  All paths are relative to a struct sysroot.
 *
 * Functions returning int give 0 or -errno.  Parsers are pure functions of
 * a NUL-terminated buffer and never touch the file system. */
#ifndef THREADLAB_CGROUP_H
#define THREADLAB_CGROUP_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "sysroot.h"

#define CGROUP_PATH_MAX 1024

/* ---- parsers (pure) ---------------------------------------------------- */

/* One line of /proc/PID/cgroup: "ID:CONTROLLERS:PATH".  PATH may itself
 * hold colons; it is everything after the second colon. */
struct cgroup_line {
	int id;			    /* hierarchy ID, 0 for v2 */
	char controllers[256];	    /* comma list, "" for v2, may be "name=systemd" */
	char path[CGROUP_PATH_MAX]; /* as seen inside the process's cgroup namespace */
};

/* Finds in the contents of /proc/PID/cgroup the v1 line whose controller
 * list holds "cpu" (v1 != 0 asked) or the "0::" line (v1 == 0).
 * Returns 0, -ENOENT when there is no such line, -EINVAL when malformed,
 * -ENAMETOOLONG when the line found does not fit struct cgroup_line (other
 * lines may be any length). */
int cgroup_file_parse(const char *buf, bool v1, struct cgroup_line *out);
/* The same for any v1 controller (e.g. "cpuset"); NULL asks for "0::". */
int cgroup_file_find(const char *buf, const char *controller, struct cgroup_line *out);

/* One cgroup mount taken from /proc/PID/mountinfo. */
struct cgroup_mount {
	int version;			  /* 1 or 2 */
	char root[CGROUP_PATH_MAX];	  /* field 4: the mount's root inside the hierarchy */
	char mountpoint[CGROUP_PATH_MAX]; /* field 5, octal escapes decoded */
};

/* Finds the mount of the v1 hierarchy holding the "cpu" controller
 * (version 1 asked) or of cgroup2 (version 2).  Returns 0 or -ENOENT. */
int cgroup_mountinfo_parse(const char *buf, int version, struct cgroup_mount *out);
/* The same for any v1 controller (e.g. "cpuset"); NULL asks for cgroup2.
 * The first matching mount wins; malformed lines are skipped. */
int cgroup_mountinfo_find(const char *buf, const char *controller, struct cgroup_mount *out);

/* Quota parsers.  *cpus is the quota in CPUs as a real number, or -1 when
 * unlimited ("max", or cfs_quota_us == -1).  period in µs. */
int cgroup_cpu_max_parse(const char *buf, double *cpus, uint64_t *period_us);
int cgroup_cfs_parse(const char *quota_buf, const char *period_buf, double *cpus,
		     uint64_t *period_us);

/* cpu.stat.  Fields absent in the file stay 0 and has_periods is false
 * (v2 cgroup without the cpu controller shows only usage). */
struct cgroup_cpustat {
	bool has_periods;      /* nr_periods line present */
	uint64_t nr_periods;   /* cpu.stat nr_periods */
	uint64_t nr_throttled; /* cpu.stat nr_throttled */
	double throttled_s;    /* v2 throttled_usec / 1e6, v1 throttled_time / 1e9 */
	double usage_s;	       /* v2 usage_usec / 1e6; v1 0 (cpuacct not read) */
};
int cgroup_cpustat_parse(const char *buf, int version, struct cgroup_cpustat *out);

/* PSI "some avg10=… avg60=… avg300=… total=…" (+ "full …" line). */
struct psi {
	bool available; /* false: file missing or unreadable (EOPNOTSUPP) */
	double some_avg10, some_avg60, some_avg300; /* % */
	uint64_t some_total_us;
	bool has_full;
	double full_avg10;
	uint64_t full_total_us;
};
int cgroup_psi_parse(const char *buf, struct psi *out);

/* Why a cgroup's pressure is not known; PSI_WHY_NONE when it is, or when
 * there is no more to say than that it could not be read. */
enum psi_why {
	PSI_WHY_NONE = 0,
	PSI_WHY_V1,   /* the cpu controller is on cgroup v1: a v1 cgroup has no pressure
		       * file (a hybrid host's unified cgroup is another grouping) */
	PSI_WHY_ROOT, /* the root cgroup: its pressure is the system's */
};
/* (Its notes, as outputs write them: monitor/pressure.h.) */

/* ---- readers ------------------------------------------------------------ */

/* Where the CPU cgroup of a process lives. */
struct cgroup_loc {
	int version;			 /* 1 or 2: the hierarchy that holds the cpu controller
					  * (v1 if mounted, else v2); 0 when none found */
	char path[CGROUP_PATH_MAX];	 /* cgroup path as /proc/PID/cgroup gives it */
	char dir[CGROUP_PATH_MAX];	 /* directory relative to the root, e.g.
					  * "sys/fs/cgroup/cpu/user.slice" */
	char mount_dir[CGROUP_PATH_MAX]; /* the hierarchy's mount point relative to the root */
	bool fallback;			 /* path not visible under the mount (cgroup namespace):
					  * dir is the mount root instead */
	char v2_dir[CGROUP_PATH_MAX];	 /* hybrid/v2: the unified cgroup's directory (for
					  * cpu.pressure); "" when there is no v2 mount */
};

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
int cgroup_read_cgroup_file(const struct sysroot *r, pid_t pid, char **out);
int cgroup_read_mountinfo(const struct sysroot *r, pid_t pid, char **out);

/* cgroup_locate and cgroup_locate_v1 on those texts (no -ESRCH). */
int cgroup_locate_text(const struct sysroot *r, const char *cgroup_file, const char *mountinfo,
		       struct cgroup_loc *out);
int cgroup_locate_v1_text(const struct sysroot *r, const char *cgroup_file, const char *mountinfo,
			  const char *controller, char *dir, size_t cap, bool *fallback);

/* The tightest quota over loc->dir and each ancestor up to the mount. */
struct cgroup_quota {
	double cpus; /* CPUs as a real number; -1 when unlimited */
	uint64_t period_us;
	char dir[CGROUP_PATH_MAX]; /* the cgroup whose quota binds (relative to root);
				    * "" when unlimited */
	bool controller;	   /* false: no quota file anywhere (no cpu controller) */
};
int cgroup_quota_read(const struct sysroot *r, const struct cgroup_loc *loc,
		      struct cgroup_quota *out);

/* cpu.stat of the directory dir (relative to root).  -ENOENT when missing. */
int cgroup_cpustat_read(const struct sysroot *r, const char *dir, int version,
			struct cgroup_cpustat *out);

/* cpu.pressure of dir, or "proc/pressure/cpu" for the system (a rel naming
 * a directory reads rel/cpu.pressure, anything else is read as the file).
 * A missing or unreadable file gives out->available = false and returns 0;
 * malformed contents give -EINVAL (available = false). */
int cgroup_psi_read(const struct sysroot *r, const char *rel, struct psi *out);
/* The directory whose cpu.pressure is loc's cgroup's own (loc->v2_dir), or
 * NULL with the reason in *why: the cpu controller on v1 (a hybrid host's
 * unified cgroup is another grouping), or the root cgroup (its pressure is
 * the system's; only the root lacks cgroup.type, a cgroup namespace's root
 * has it).  NULL with PSI_WHY_NONE when there is no unified mount. */
const char *cgroup_psi_dir(const struct sysroot *r, const struct cgroup_loc *loc,
			   enum psi_why *why);

/* Number of CPUs in a cpuset list such as "0-3,8,10-11"; -EINVAL if bad.
 * An empty list gives 0. */
int cgroup_cpulist_count(const char *buf);
/* The same, and each CPU of the list below bytes x 8 set in set (which the
 * caller zeroes; NULL: count only). */
int cgroup_cpulist_set(const char *buf, uint8_t *set, size_t bytes);

/* Throttling between two cpu.stat readings dt seconds apart. */
struct throttle_rate {
	bool valid;		  /* false when either reading lacks nr_periods */
	double throttled_pct;	  /* nr_throttled delta / nr_periods delta, % */
	double throttled_s_per_s; /* throttled seconds per wall second */
};
void cgroup_throttle_rate(const struct cgroup_cpustat *prev, const struct cgroup_cpustat *cur,
			  double dt, struct throttle_rate *out);

#endif
