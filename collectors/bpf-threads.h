/* bpf-threads.h — one target's threads through the loaded BPF
 * collector (bpf-threads.c; the design: bpf-tasks.h).  A struct
 * bpf_threads is owned by its caller and must be freed before the struct
 * bpf_tasks it reads through.  Times are CLOCK_MONOTONIC seconds; int
 * returns are 0 or -errno. */
#ifndef THREADLAB_BPF_THREADS_H
#define THREADLAB_BPF_THREADS_H

#include "bpf-tasks.h"

/* A reader of pid (with tree: and its descendants; with all: every thread
 * of the machine, pid ignored) through b, which must outlive it.  Returns
 * NULL and sets errno (ENOMEM, or what registering the target failed
 * with). */
struct bpf_threads *bpf_threads_new(struct bpf_tasks *b, pid_t pid, bool tree, bool all);
/* A reader of every thread of the machine that traces none (the machine
 * view, whose rows show no latency: tracing every switch of the machine
 * would cost every process on it for figures nobody reads).  Its samples
 * have lat_on false.  NULL and errno as bpf_threads_new. */
struct bpf_threads *bpf_threads_new_machine(struct bpf_tasks *b);
void bpf_threads_free(struct bpf_threads *t);
/* Fills out (replacing its contents) at time now (CLOCK_MONOTONIC s):
 * out->time, its samples' time, is that of the read itself (now plus the
 * moments between the call and the read), and its figures are as of then:
 * a thread queued for a CPU has its wait so far, one on a CPU its run so
 * far (see threadlab.bpf.c, pending).  Returns 0; -ESRCH once the target
 * has no thread that is not a zombie (out then holds no threads); -ENOENT
 * when the first read does not show the target at all (a process hidden
 * from BPF, such as a sandbox's init); another -errno when the read
 * failed.  On either of the last two the caller falls back to /proc; out
 * holds no threads. */
int bpf_threads_sample(struct bpf_threads *t, double now, struct thread_set *out);
/* The cadence, as the /proc path's sched period (threads.h): with a period
 * of seconds > 0, a thread that does not lead its process, did not start
 * since the last read and is not wanted is read in full once a period, at
 * the first read after its own phase boundary (spread by TID); at the
 * other reads the program writes only its IDs and its sample of the last
 * full read stands: its rates are those of its last read interval, its
 * state, last CPU and latency those of then (the interval's largest wait
 * of such a thread may be missed: the histogram's top bucket still bounds
 * it, latency_hist_delta).  So a thread not wanted shows figures at most
 * seconds + the interval old, as on /proc.  0 (the default): every thread
 * in full at every read. */
void bpf_threads_set_period(struct bpf_threads *t, double seconds);
/* The TIDs (as this namespace's /proc shows them) read in full at every
 * read: a face passes the rows it shows (copied; n 0 clears). */
void bpf_threads_want(struct bpf_threads *t, const pid_t *tids, size_t n);
/* The records of the last read that were in full and short (for tests
 * and the benchmarks). */
void bpf_threads_last_read(const struct bpf_threads *t, size_t *full, size_t *brief);

#endif
