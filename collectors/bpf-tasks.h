/* bpf-tasks.h — the BPF collector: every thread of a target in one read,
 * and each thread's run-queue latency.
 *
 * struct bpf_tasks is the loaded programs (bpf/threadlab.bpf.c), one per
 * threadlab process: loading needs CAP_BPF and CAP_PERFMON (or root), and
 * happens once, before the program drops them; reading afterwards needs no
 * capability, only the descriptors.  struct bpf_threads reads one target
 * through it, as struct thread_sampler (threads.h) reads one through
 * /proc: each bpf_threads_sample() runs the task iterator once (see the
 * cadence below for the rare second run) and fills a struct thread_set
 * with the same fields (state, last CPU, name, CPU time,
 * run-queue wait and time slices from the scheduler's own counters,
 * voluntary and involuntary switches, start time), plus each traced
 * thread's latency histogram since it was first traced.  Figures equal
 * /proc's within one scheduler tick: a running thread's CPU time is its
 * sum_exec_runtime, which the kernel brings up to date at each tick and
 * switch, where /proc adds the part of the current slice.
 *
 * Latency is traced for the threads of the processes readers follow (their
 * root, and with tree the descendants seen at each read, from the read
 * after they appear), each in a slot of an array of a bounded number of
 * histograms, given back when the thread exits; a thread that finds no
 * free slot has no histogram (its figures are unknown, not 0) and its
 * waits count in bpf_tasks_dropped().  Each wait is the one schedstat
 * counts (from sched_info.last_queued to the switch), so the histogram's
 * mean is schedstat's run_delay / pcount.
 *
 * Built without BPF support (./configure --enable-bpf=no) the same calls
 * exist: bpf_tasks_built() is false and loading fails with -ENOTSUP.  The
 * design: docs/design.md, "The BPF collector". */
#ifndef THREADLAB_BPF_TASKS_H
#define THREADLAB_BPF_TASKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "threads.h"

#define BPF_TASKS_THREADS_DEFAULT 16384 /* threads whose latency the map holds */

struct bpf_tasks;

/* Whether this build has the BPF collector. */
bool bpf_tasks_built(void);

/* Loads and attaches the programs, with room for the latency of
 * max_threads threads (0: BPF_TASKS_THREADS_DEFAULT).  Returns 0, or -errno
 * with a short reason in why ("not root and no CAP_BPF, CAP_PERFMON", "no
 * kernel BTF (/sys/kernel/btf/vmlinux)", "unprivileged BPF disabled", the
 * verifier's complaint).  Never prints: libbpf's messages go into why. */
int bpf_tasks_load(unsigned max_threads, struct bpf_tasks **out, char *why, size_t whylen);
void bpf_tasks_free(struct bpf_tasks *b);

/* Latency events the map had no room for since loading. */
uint64_t bpf_tasks_dropped(const struct bpf_tasks *b);
/* Threads the latency map holds at most. */
unsigned bpf_tasks_capacity(const struct bpf_tasks *b);
/* Iterator reads since loading, by every reader (for tests: nothing but a
 * sampler reads). */
uint64_t bpf_tasks_reads(const struct bpf_tasks *b);
/* Histogram slots serving a thread now (for tests: threads that exited
 * give theirs back). */
int bpf_tasks_slots_used(const struct bpf_tasks *b);

struct bpf_threads;

/* A reader of pid (with tree: and its descendants; with all: every thread
 * of the machine, pid ignored) through b, which must outlive it.  Returns
 * NULL and sets errno (ENOMEM, or what registering the target failed
 * with). */
struct bpf_threads *bpf_threads_new(struct bpf_tasks *b, pid_t pid, bool tree, bool all);
void bpf_threads_free(struct bpf_threads *t);

/* Fills out (replacing its contents) at time now (CLOCK_MONOTONIC s).
 * Returns 0; -ESRCH once the target has no thread that is not a zombie
 * (out then holds no threads); -ENOENT when the first read does not show
 * the target at all (a process hidden from BPF, such as a sandbox's init);
 * another -errno when the read failed.  On either of the last two the
 * caller falls back to /proc; out holds no threads. */
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
