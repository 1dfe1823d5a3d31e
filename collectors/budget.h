/* budget.h — the effective CPU budget of a process.
 *
 * effective = min(online, affinity, cpuset, quota), each term shown and the
 * one that binds named (docs/design.md, "Effective CPUs").  A term that does
 * not apply (no cpuset file, no quota) is reported as unknown/unlimited and
 * never binds. */
#ifndef THREADLAB_BUDGET_H
#define THREADLAB_BUDGET_H

#include <stdbool.h>
#include <sys/types.h>

#include "cgroup.h"
#include "sysroot.h"

enum budget_term {
	BUDGET_ONLINE,
	BUDGET_AFFINITY,
	BUDGET_CPUSET,
	BUDGET_QUOTA,
};

struct budget {
	int online;		   /* sys/devices/system/cpu/online, count */
	int affinity;		   /* proc/PID/status Cpus_allowed_list, count */
	int cpuset;		   /* v2 cpuset.cpus.effective, v1 cpuset.effective_cpus or
				    * cpuset.cpus; 0 when not readable */
	struct cgroup_quota quota; /* quota.cpus < 0: unlimited */
	double effective;	   /* CPUs as a real number */
	enum budget_term binding;
	struct cgroup_loc loc; /* the CPU cgroup the quota and throttling come from */
	char note[256];	       /* human note such as the namespace fallback; "" if none */
};

/* Reads the budget of pid (0 = self).  Returns 0, -ESRCH when the process
 * has gone, -EACCES when it may not be read. */
int budget_read(const struct sysroot *r, pid_t pid, struct budget *out);

/* Where pid's cgroups are, kept between reads: finding them reads
 * proc/PID/cgroup and mountinfo twice, most of a budget read's cost. */
struct budget_where {
	bool valid;
	double time;		      /* when located, s on the caller's clock */
	int loc_rc;		      /* cgroup_locate's result */
	struct cgroup_loc loc;	      /* the CPU cgroup */
	int cpuset_rc;		      /* cgroup_locate_v1's result for cpuset */
	char cpuset[CGROUP_PATH_MAX]; /* the v1 cpuset cgroup */
};

/* As budget_read, locating the cgroups again only when w is not valid, was
 * located more than max_age seconds before now, or its CPU cgroup has gone:
 * a process moved to another cgroup shows within max_age.  The online count, affinity, quota and
 * cpuset files are read every time.  w->valid = false forces the next read to locate. */
int budget_read_where(const struct sysroot *r, pid_t pid, struct budget_where *w, double now,
		      double max_age, struct budget *out);

/* Budgets of many processes read together (the machine's ranking): what
 * the processes of one cgroup share (where their cgroups are, the quota
 * over the ancestors, the cpuset) is read for the first of them only, and
 * mountinfo and the online count once, until budget_cache_clear; each
 * process costs its affinity and its proc/PID/cgroup, and a process moved
 * to another cgroup reads that one's terms.  Plain data: an all-zero
 * cache is not ready, budget_cache_init makes one. */
#define BUDGET_CACHE_MAX 1024 /* cgroups kept; the rest read on their own */
struct budget_shared;	      /* budget.c */
struct budget_cache {
	int online;	 /* < 0: not read yet */
	char *mountinfo; /* live: ours; NULL not read yet */
	struct budget_shared *e;
	size_t n, cap;
};
void budget_cache_init(struct budget_cache *c);
/* Frees what c holds; the next read reads everything again. */
void budget_cache_clear(struct budget_cache *c);
/* As budget_read, with what c holds. */
int budget_read_cached(const struct sysroot *r, pid_t pid, struct budget_cache *c,
		       struct budget *out);

/* Pure: fills effective and binding from the four terms.  Ties go to the
 * earliest term in enum order, so "online" binds on an unlimited box. */
void budget_resolve(struct budget *b);

/* "online", "affinity", "cpuset", "quota".  Inline: a name table is no
 * reason for the faces to call into the collectors. */
static inline const char *budget_term_name(enum budget_term t)
{
	switch (t) {
	case BUDGET_ONLINE:
		return "online";
	case BUDGET_AFFINITY:
		return "affinity";
	case BUDGET_CPUSET:
		return "cpuset";
	case BUDGET_QUOTA:
		return "quota";
	}
	return "?";
}

#endif
