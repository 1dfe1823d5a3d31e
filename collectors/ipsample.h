/* ipsample.h — where busy threads spend their CPU: user instruction
 * pointers sampled by the kernel.
 *
 * One software perf event per watched thread (PERF_COUNT_SW_TASK_CLOCK,
 * a sample every IPSAMPLE_PERIOD_NS of the thread's own CPU time, user
 * space only, PERF_SAMPLE_IP) writes into a small ring of its own; a read
 * takes what arrived since the last one.  No hardware counter is needed.
 * Opening one needs the target's user with kernel.perf_event_paranoid <=
 * 2 (user space only), or CAP_PERFMON; a refused open is said once by the
 * caller and the thread is simply not watched.  The kernel's cost is one
 * hrtimer interrupt per sample (250 a second for a thread at 100 %). */
#ifndef THREADLAB_IPSAMPLE_H
#define THREADLAB_IPSAMPLE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define IPSAMPLE_PERIOD_NS 4000000ULL /* 4 ms of the thread's CPU time */
#define IPSAMPLE_MAX	   64	      /* threads watched at once */

struct ipsample;

/* An empty set of watched threads. */
struct ipsample *ipsample_new(void);
void ipsample_free(struct ipsample *s);

/* Starts sampling thread tid.  0, -EEXIST (watched already), -ENOSPC
 * (IPSAMPLE_MAX watched), or perf_event_open's -errno (-EACCES, -ENOENT
 * when the kernel has no perf events, -ESRCH when the thread has gone). */
int ipsample_watch(struct ipsample *s, pid_t tid);
/* Stops sampling tid (nothing when it is not watched). */
void ipsample_unwatch(struct ipsample *s, pid_t tid);
/* Whether tid is watched. */
int ipsample_watched(const struct ipsample *s, pid_t tid);
size_t ipsample_count(const struct ipsample *s);

/* Copies the instruction pointers sampled for tid since the last read
 * into ips (at most cap; the rest are dropped) and returns how many, or
 * -ENOENT when tid is not watched.  *lost (may be NULL) gets the samples
 * the ring lost since the last read. */
ssize_t ipsample_read(struct ipsample *s, pid_t tid, uint64_t *ips, size_t cap, uint64_t *lost);

#endif
