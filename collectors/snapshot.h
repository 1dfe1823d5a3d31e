/* snapshot.h — everything the collectors know about one target at one tick.
 *
 * struct sampler ties the collectors together for one target process (or
 * process tree): each sampler_sample() reads the budget, the cgroup's
 * cpu.stat and pressure, the system pressure, every thread and the per-CPU
 * usage into a struct snapshot.  snapshot_rates() turns two snapshots into
 * the rates the outputs show.  The TUI and batch mode only ever see these
 * plain structs. */
#ifndef THREADLAB_SNAPSHOT_H
#define THREADLAB_SNAPSHOT_H

#include <stdbool.h>
#include <sys/types.h>

#include "budget.h"
#include "cgroup.h"
#include "cpus.h"
#include "threads.h"

struct snapshot {
	double time;	   /* CLOCK_MONOTONIC seconds */
	double wall;	   /* CLOCK_REALTIME seconds (for output "time") */
	bool target_alive; /* false once the target process exited */
	struct budget budget;
	char stat_dir[CGROUP_PATH_MAX]; /* cgroup whose cpu.stat is read (relative to root) */
	bool has_cpustat;
	struct cgroup_cpustat cpustat;
	struct psi psi_cgroup;	   /* cpu.pressure of the cgroup (v2 or hybrid) */
	struct psi psi_system;	   /* proc/pressure/cpu */
	struct thread_set threads; /* owned */
	struct cpu_usage cpus;	   /* busy % since the previous snapshot */
};

/* Rates from two consecutive snapshots. */
struct snapshot_rates {
	double dt; /* seconds between the snapshots */
	struct throttle_rate throttle;
	struct thread_rate *threads; /* owned; one per thread in the newer snapshot */
	size_t nthreads, cap;
	double total_cpu_pct;  /* sum of thread cpu_pct */
	double total_wait_pct; /* sum of thread wait_pct */
	int runnable;	       /* threads in state 'R' */
};

void snapshot_init(struct snapshot *s);
void snapshot_free(struct snapshot *s);
/* Moves src into dst (dst's old contents are freed; src is left empty). */
void snapshot_move(struct snapshot *dst, struct snapshot *src);

void snapshot_rates_init(struct snapshot_rates *r);
void snapshot_rates_free(struct snapshot_rates *r);
void snapshot_rates(const struct snapshot *prev, const struct snapshot *cur,
		    struct snapshot_rates *out);

struct sampler;

/* Follows pid (tree: and its descendants).  stat_dir_override, when not
 * NULL, names the cgroup directory (relative to root) whose cpu.stat and
 * cpu.pressure to read instead of the target's own (the lab's quota cgroup).
 * Returns NULL and sets errno (ESRCH, EACCES). */
struct sampler *sampler_new(const struct sysroot *r, pid_t pid, bool tree);
void sampler_free(struct sampler *s);
void sampler_set_cgroup_override(struct sampler *s, const char *dir, int version);

/* Fills out.  Returns 0, or -ESRCH when the target has exited (out then has
 * target_alive false and no threads, but budget from the last good read). */
int sampler_sample(struct sampler *s, struct snapshot *out);

#endif
