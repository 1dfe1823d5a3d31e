/* snapshot.h — everything the collectors know about one target at one tick.
 *
 * A sampler (sampler.h) fills one per tick; snapshot_rates() turns two
 * snapshots into the rates the outputs show.  The faces only ever see these
 * plain structs. */
#ifndef THREADLAB_SNAPSHOT_H
#define THREADLAB_SNAPSHOT_H

#include <stdbool.h>
#include <sys/types.h>

#include "budget.h"
#include "cgroup.h"
#include "cpus.h"
#include "threads.h"

/* How the threads were read (bpf-tasks.h, threads.h). */
enum snapshot_path {
	SNAPSHOT_PROC, /* /proc files, held descriptors */
	SNAPSHOT_BPF,  /* the BPF task iterator, with run-queue latency */
};

struct snapshot {
	double time;	   /* CLOCK_MONOTONIC seconds */
	double wall;	   /* CLOCK_REALTIME seconds (for output "time") */
	double boot;	   /* CLOCK_BOOTTIME seconds (start times' clock); 0: not read */
	bool target_alive; /* false once the target process exited */
	struct budget budget;
	char stat_dir[CGROUP_PATH_MAX]; /* cgroup whose cpu.stat is read (relative to root) */
	/* That cgroup as its hierarchy names it ("/batch.slice") when it is an
	 * ancestor whose tighter quota binds, not the target's own (or the
	 * lab's quota cgroup): its throttling is the target's; "" otherwise. */
	char stat_name[CGROUP_PATH_MAX];
	bool has_cpustat;
	struct cgroup_cpustat cpustat;
	struct psi psi_cgroup;	     /* cpu.pressure of the cgroup (v2, not the root) */
	enum psi_why psi_cgroup_why; /* why psi_cgroup is not available */
	struct psi psi_system;	     /* proc/pressure/cpu */
	struct thread_set threads;   /* owned */
	struct cpu_usage cpus;	     /* busy % since the previous snapshot */
	enum snapshot_path path;     /* how threads were read */
	char path_note[192];	     /* why the path changed at this sample ("" none), raw */
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
	/* CPUs no thread read accounts for: threads and child processes
	 * that started and ended between the snapshots (a pool that makes a
	 * thread per task, make's compilers), in the processes' whole run
	 * and in no sample; beyond two clock ticks of rounding, else 0. */
	double unseen_cpu;
	double unseen_sum_s, unseen_top_s; /* its running sum and highest (snapshot.c) */
	/* Run-queue latency over the interval (the BPF path): each thread's
	 * histogram in lat, named by its lat_ref (threads.h). */
	bool lat_on;
	struct lat_hist *lat; /* owned */
	size_t nlat, lat_cap;
	uint64_t lat_dropped;  /* events the latency map had no room for, in the interval */
	unsigned lat_capacity; /* threads the latency map holds */
};

void snapshot_init(struct snapshot *s);
void snapshot_free(struct snapshot *s);
/* Moves src into dst (dst's old contents are freed; src is left empty). */
void snapshot_move(struct snapshot *dst, struct snapshot *src);
/* Copies src into dst (dst's threads reallocated as needed). */
void snapshot_copy(struct snapshot *dst, const struct snapshot *src);

void snapshot_rates_init(struct snapshot_rates *r);
void snapshot_rates_free(struct snapshot_rates *r);
void snapshot_rates(const struct snapshot *prev, const struct snapshot *cur,
		    struct snapshot_rates *out);

#endif
