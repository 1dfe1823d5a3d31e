/* cgroup.h — where a process's CPU cgroup is, and what it says.
 *
 * Covers cgroup v1 (cpu controller mounted on its own hierarchy), v2
 * (unified) and hybrid hosts (v1 cpu controller plus a v2 mount, which may
 * still carry cpu.pressure).  All paths are relative to a struct sysroot.
 *
 * The types here; the calls: cgroup-parse.h (pure parsers of the files'
 * text), cgroup-locate.h (where a process's cgroup is), cgroup-read.h (its
 * quota, cpu.stat and pressure). */
#ifndef THREADLAB_CGROUP_H
#define THREADLAB_CGROUP_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "sysroot.h"

#define CGROUP_PATH_MAX 1024

/* ---- what the files say ------------------------------------------------ */

/* One line of /proc/PID/cgroup: "ID:CONTROLLERS:PATH".  PATH may itself
 * hold colons; it is everything after the second colon. */
struct cgroup_line {
	int id;			    /* hierarchy ID, 0 for v2 */
	char controllers[256];	    /* comma list, "" for v2, may be "name=systemd" */
	char path[CGROUP_PATH_MAX]; /* as seen inside the process's cgroup namespace */
};

/* One cgroup mount taken from /proc/PID/mountinfo. */
struct cgroup_mount {
	int version;			  /* 1 or 2 */
	char root[CGROUP_PATH_MAX];	  /* field 4: the mount's root inside the hierarchy */
	char mountpoint[CGROUP_PATH_MAX]; /* field 5, octal escapes decoded */
};

/* cpu.stat.  Fields absent in the file stay 0 and has_periods is false
 * (v2 cgroup without the cpu controller shows only usage). */
struct cgroup_cpustat {
	bool has_periods;      /* nr_periods line present */
	uint64_t nr_periods;   /* cpu.stat nr_periods */
	uint64_t nr_throttled; /* cpu.stat nr_throttled */
	double throttled_s;    /* v2 throttled_usec / 1e6, v1 throttled_time / 1e9 */
	double usage_s;	       /* v2 usage_usec / 1e6; v1 0 (cpuacct not read) */
};

/* PSI "some avg10=… avg60=… avg300=… total=…" (+ "full …" line). */
struct psi {
	bool available; /* false: file missing or unreadable (EOPNOTSUPP) */
	double some_avg10, some_avg60, some_avg300; /* % */
	uint64_t some_total_us;
	bool has_full;
	double full_avg10;
	uint64_t full_total_us;
};

/* Why a cgroup's pressure is not known; PSI_WHY_NONE when it is, or when
 * there is no more to say than that it could not be read. */
enum psi_why {
	PSI_WHY_NONE = 0,
	PSI_WHY_V1,   /* the cpu controller is on cgroup v1: a v1 cgroup has no pressure
		       * file (a hybrid host's unified cgroup is another grouping) */
	PSI_WHY_ROOT, /* the root cgroup: its pressure is the system's */
};
/* (Its notes, as outputs write them: monitor/pressure.h.) */

/* ---- where a cgroup is, and its quota ----------------------------------- */

/* What the directory found for a cgroup is. */
enum cgroup_seen {
	CGROUP_SEEN_OWN = 0, /* its own */
	CGROUP_SEEN_ANCESTOR, /* its nearest ancestor that is there (it was removed:
			       * " (deleted)", or is not there yet) */
	CGROUP_SEEN_HIDDEN    /* none: it lies outside what the mount shows (another
			       * cgroup namespace); dir is "" and nothing is read */
};

/* Where the CPU cgroup of a process lives. */
struct cgroup_loc {
	int version;			 /* 1 or 2: the hierarchy that holds the cpu controller
					  * (v1 if mounted, else v2); 0 when none found */
	char path[CGROUP_PATH_MAX];	 /* cgroup path as /proc/PID/cgroup gives it */
	char dir[CGROUP_PATH_MAX];	 /* directory relative to the root, e.g.
					  * "sys/fs/cgroup/cpu/user.slice" */
	char mount_dir[CGROUP_PATH_MAX]; /* the hierarchy's mount point relative to the root */
	enum cgroup_seen seen;		 /* what dir is (cgroup-locate.c) */
	bool fallback;			 /* seen is not the cgroup's own directory */
	char v2_dir[CGROUP_PATH_MAX];	 /* hybrid/v2: the unified cgroup's directory (for
					  * cpu.pressure); "" when there is no v2 mount */
};

/* Throttling between two cpu.stat readings dt seconds apart. */
struct throttle_rate {
	bool valid;		  /* false when either reading lacks nr_periods */
	double throttled_pct;	  /* nr_throttled delta / nr_periods delta, % */
	double throttled_s_per_s; /* throttled seconds per wall second */
};

/* The tightest quota over loc->dir and each ancestor up to the mount. */
struct cgroup_quota {
	double cpus; /* CPUs as a real number; -1 when unlimited */
	uint64_t period_us;
	char dir[CGROUP_PATH_MAX]; /* the cgroup whose quota binds (relative to root);
				    * "" when unlimited */
	bool controller;	   /* false: no quota file anywhere (no cpu controller) */
	bool unknown;		   /* the cgroup cannot be seen (loc->seen hidden): no
				    * figure, cpus -1 */
	char skipped[CGROUP_PATH_MAX]; /* a cgroup whose quota file did not read (left
					* out; its ancestors' count), "" when none */
};

#endif
