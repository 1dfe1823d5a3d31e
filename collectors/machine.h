/* machine.h — every process of the machine over an interval: the CPU it
 * took, its run-queue wait, its cgroup and the CPUs it ran on.
 *
 * A struct machine_sampler walks proc/ under its root at each call, on the
 * caller's cadence (the diagnosis reads it about once a second, never on
 * every tick: one call costs a directory listing and two or three small
 * reads per process).  Per process it reads stat (name, parent, start
 * time, threads, last CPU), held open from call to call on a live root
 * (one descriptor a process, under half of RLIMIT_NOFILE; a descriptor
 * whose process ended reads ESRCH, even when its PID was taken again),
 * and the schedstat of every thread: the
 * process's own proc/PID/schedstat when it has one thread, else each
 * task/TID/schedstat.  A thread's CPU and wait over the interval are the
 * deltas of its run and wait nanoseconds, so a process's figures are
 * exact for the threads alive at both ends; a thread that ended inside
 * the interval loses what it ran since the previous call.  A process not
 * running now (stat state other than R) whose CPU time (utime + stime)
 * and thread count did not change has its threads' readings kept without
 * reading them: a thread of it may have waited briefly, not run a tick.
 * A thread's stat (its last CPU) is read only when it ran.  The cgroup
 * (proc/PID/cgroup: the cgroup v1 cpu controller's path, else the unified
 * one) is read when a process is first seen, when its name changes (an
 * exec) and again every MACHINE_CGROUP_S seconds.
 *
 * Processes and threads that vanish between the listing and a read are
 * skipped silently.  A PID whose start time changed is another process.
 * A process seen for the first time has no rates (is_new), unless it
 * started after the previous call: then its whole life lies inside the
 * interval and its totals are its rates.
 *
 * The machine's busy CPU time comes from proc/stat, so it counts the
 * processes that were born and died between two calls, which no
 * per-process reading can.  Every path is relative to the root, so tests
 * point it at a fixture tree (proc/uptime stands for the boot clock). */
#ifndef THREADLAB_MACHINE_H
#define THREADLAB_MACHINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "cgroup.h"
#include "procparse.h"
#include "sysroot.h"
#include "threads.h"

#define MACHINE_CGROUP_S  10.0 /* s between reads of a process's cgroup */
#define MACHINE_CPUS_MAX  1024 /* CPUs the ran_on sets can name */
#define MACHINE_SET_BYTES (MACHINE_CPUS_MAX / 8)

/* One process over the interval.  Plain data. */
struct machine_proc {
	pid_t pid, ppid;	  /* stat fields 1, 4 */
	uint64_t starttime;	  /* stat field 22, clock ticks since boot */
	char name[TASK_NAME_MAX]; /* stat field 2, raw bytes */
	size_t name_len;
	uint32_t name_hash;		   /* procparse_name_hash of name: a change is an exec */
	char cgroup[CGROUP_PATH_MAX];	   /* proc/PID/cgroup, as the process sees it; "" unknown */
	bool kernel;			   /* a kernel thread (kthreadd or one of its children) */
	int threads;			   /* stat field 20 */
	bool is_new;			   /* first seen now: no rates */
	bool born;			   /* first seen now, started since the last call:
					    * its rates are its whole life */
	double cpus; /* schedstat run ns over the interval, per second of the time
		      * between this process's two reads (near dt): CPUs */
	double wait; /* schedstat run-queue wait over the interval, s/s, the same way */
	uint8_t ran_on[MACHINE_SET_BYTES]; /* bit c: a thread that ran was last on CPU c
					    * (stat field 39) */
};

/* The machine at one call. */
struct machine_sample {
	double time;		/* the caller's clock, s */
	double dt;		/* since the previous call, s; 0 on the first */
	struct machine_proc *v; /* sorted by pid; owned */
	size_t n, cap;
	size_t nthreads;   /* threads read */
	int online;	   /* CPUs online (sys/devices/system/cpu/online); 0 unknown */
	bool busy_valid;   /* proc/stat read at both ends */
	double busy_cpus;  /* proc/stat: CPUs busy over the interval (all but idle, iowait) */
	double cpus, wait; /* sums of the processes' cpus and wait (those with rates) */
};

struct machine_sampler;

/* Reads the machine under r (copied; its descriptor must outlive the
 * sampler).  Returns NULL and sets errno when proc/ cannot be listed. */
struct machine_sampler *machine_sampler_new(const struct sysroot *r);
void machine_sampler_free(struct machine_sampler *m);

/* Reads every process into out (replacing its contents), at now (the
 * caller's monotonic clock, s, increasing from call to call, taken as the
 * call starts).  Each process's rates are over the time between its own
 * two reads: on a live root its stamp is now plus the time since the call
 * began, when it was read, or known->time for one given (below).  Returns
 * 0 or -errno when proc/ cannot be listed. */
int machine_sample(struct machine_sampler *m, double now, struct machine_sample *out);

/* For the next machine_sample call only: the processes with threads in
 * known (a caller's sample of them, sorted by (pid, tid) as a struct
 * thread_set is) are not read thread by thread: their threads' run and
 * wait nanoseconds and last CPUs are taken from known, which is how a
 * session that samples its target anyway spares the thousands of reads
 * its threads would cost here.  Only their leader thread's stat (not the
 * process's, which the kernel makes by walking every thread) and their
 * cgroup are read.  known->time (when above 0, on the caller's clock) is
 * when its figures were read.
 * known must stay valid until that call; NULL: read every process. */
void machine_sampler_known(struct machine_sampler *m, const struct thread_set *known);

void machine_sample_init(struct machine_sample *s);
void machine_sample_free(struct machine_sample *s);

/* Whether CPU c is in a ran_on set. */
static inline bool machine_ran_on(const uint8_t *set, int c)
{
	return c >= 0 && c < MACHINE_CPUS_MAX && (set[c / 8] & (1u << (c % 8)));
}

/* Files read since machine_sampler_new (the benchmark's figure). */
uint64_t machine_sampler_reads(const struct machine_sampler *m);

/* Pure: the busy and total clock ticks of the first "cpu " line of a
 * proc/stat buffer (busy: user, nice, system, irq, softirq, steal; total
 * adds idle and iowait).  0 or -EINVAL. */
int machine_stat_parse(const char *buf, uint64_t *busy, uint64_t *total);

/* Pure: the cgroup a process is in, from its proc/PID/cgroup buffer: the
 * v1 line holding "cpu" when there is one, else the "0::" line.  0,
 * -ENOENT (no such line) or -EINVAL. */
int machine_cgroup_parse(const char *buf, char *out, size_t cap);

#endif
