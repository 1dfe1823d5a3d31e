/* sampler.h — every collector, once per tick, for one target.
 *
 * struct sampler ties the collectors together for one target process (or
 * process tree): each sampler_sample() reads the budget, the cgroup's
 * cpu.stat and pressure, the system pressure, every thread and the per-CPU
 * usage into a struct snapshot (snapshot.h).  Threads come from /proc
 * (threads.h) or, once sampler_use_bpf() is called, from the BPF task
 * iterator (bpf-tasks.h): the same fields either way. */
#ifndef THREADLAB_SAMPLER_H
#define THREADLAB_SAMPLER_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "bpf-tasks.h"
#include "snapshot.h"
#include "sysroot.h"

/* On /proc, the processes whose whole run (threads that ended included)
 * is read at each sample: those of at most this many threads (threads.h,
 * proc_run_ns). */
#define SAMPLER_PROC_RUN_THREADS 256

struct sampler;

/* Follows pid (tree: and its descendants) under r, whose descriptor must
 * outlive the sampler.  Returns NULL and sets errno (ESRCH, EACCES). */
struct sampler *sampler_new(const struct sysroot *r, pid_t pid, bool tree);
void sampler_free(struct sampler *s);
/* Names the cgroup directory (relative to the root, cgroup version 1 or 2)
 * whose cpu.stat and cpu.pressure to read instead of the target's own: the
 * lab's quota cgroup.  dir NULL goes back to the target's own. */
void sampler_set_cgroup_override(struct sampler *s, const char *dir, int version);

/* The cadence of the threads not wanted (threads.h): schedstat every
 * seconds (the sched period), stat every 2 x seconds (the stat period);
 * and the TIDs read on every tick: a face that shows only some threads
 * passes those. */
void sampler_set_detail_period(struct sampler *s, double seconds);
void sampler_want(struct sampler *s, const pid_t *tids, size_t n);

/* Reads the threads through the BPF collector b (which must outlive the
 * sampler) instead of /proc: one iterator read a tick, with run-queue
 * latency.  Only on the live root.  Returns 0, or -errno when the target
 * could not be registered (the sampler stays on /proc).  A read that fails
 * later puts the sampler back on /proc for good; that sample's path_note
 * says why. */
int sampler_use_bpf(struct sampler *s, struct bpf_tasks *b);

/* Fills out.  Returns 0, or -ESRCH when the target has exited (out then has
 * target_alive false and no threads, but budget from the last good read). */
int sampler_sample(struct sampler *s, struct snapshot *out);

#endif
