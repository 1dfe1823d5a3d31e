/* activity.h — what each thread is doing: compute, spin, pool-idle,
 * input-wait, io, sleep or waiting-cpu.
 *
 * A thread's interval splits into three parts that schedstat measures
 * exactly: the time it ran, the time it waited on a run queue
 * (waiting-cpu) and the rest, when it was not runnable.  The time it ran
 * is compute, or spin when the evidence says the CPU went to a runtime's
 * spin-wait: instruction pointers sampled inside an OpenMP runtime's code
 * (collectors/ipsample.h, root or CAP_PERFMON), or, in a process with the
 * pthreads OpenBLAS, system time that dominates its CPU with no voluntary
 * switch (its pool threads spin on sched_yield).  The time it was not
 * runnable takes the kind of the last wait the thread was seen in
 * (collectors/blocked.h: the syscall it blocks in, else its wchan; state D
 * is io): a futex is pool-idle (a pool thread parked), a read on a pipe or
 * a socket, or a poll over descriptors, is input-wait, anything else
 * sleep.  A thread's activity is the part that took most of its time,
 * waiting-cpu counting half (a busy thread on a shared CPU still computes
 * when it runs; one that waited twice as long as anything else waits).
 *
 * The blocked kind is read only for threads that ran or woke since they
 * were last read (a thread that has not moved still waits where it did),
 * each at most once in ACTIVITY_LOOK_S, and ACTIVITY_READS_PER_S a second in
 * all (a tick's share: at 0.1 s, 13), so a large process costs little at
 * any refresh: the kinds of 1,000 threads that all keep waking are all read
 * again within 8 s.
 *
 * This header is the faces': the activities and their names.  The
 * tracker that measures them is the monitor's own (activity-impl.h). */
#ifndef THREADLAB_ACTIVITY_H
#define THREADLAB_ACTIVITY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

enum activity {
	ACTIVITY_NONE, /* not known (no interval yet) */
	ACTIVITY_COMPUTE,
	ACTIVITY_SPIN,
	ACTIVITY_POOL_IDLE,
	ACTIVITY_INPUT_WAIT,
	ACTIVITY_IO,
	ACTIVITY_SLEEP,
	ACTIVITY_WAITING_CPU,
	ACTIVITY_N,
};

#define ACTIVITY_READS_PER_S 128
#define ACTIVITY_LOOK_S	     0.9 /* s: a thread's kind read again at most this often */

/* "compute", "spin", "pool-idle", "input-wait", "io", "sleep",
 * "waiting-cpu"; "" for ACTIVITY_NONE. */
const char *activity_name(int a);

/* Its four-column form for narrow tables: "cpu", "spin", "pool", "in",
 * "io", "slp", "wcpu". */
const char *activity_short(int a);

/* The activity of a name (activity_name's), or ACTIVITY_NONE. */
enum activity activity_of_name(const char *name);

/* "3 spin, 1 compute": counts[ACTIVITY_N] of threads by activity, most
 * first, into out; "" when all are 0.  Returns the length. */
size_t activity_summary(const int *counts, char *out, size_t cap);

/* The activity that took most of seconds[ACTIVITY_N], waiting-cpu at half
 * its weight (ACTIVITY_NONE when all are 0). */
enum activity activity_major(const double *seconds);

#endif
