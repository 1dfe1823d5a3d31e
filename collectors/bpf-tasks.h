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
 * waits count in bpf_load_dropped().  Each wait is the one schedstat
 * counts (from sched_info.last_queued to the switch), so the histogram's
 * mean is schedstat's run_delay / pcount.
 *
 * Built without BPF support (./configure --enable-bpf=no) the same calls
 * exist: bpf_load_built() is false and loading fails with -ENOTSUP.  The
 * design: docs/design.md, "The BPF collector". */
#ifndef THREADLAB_BPF_TASKS_H
#define THREADLAB_BPF_TASKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "threads.h"

struct bpf_tasks;

struct bpf_threads;

#endif
