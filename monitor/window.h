/* window.h — thread demand over a sliding window, summed interval by
 * interval.
 *
 * Each tick's interval rates (run and wait per thread over dt) are added to
 * the current half of the window; every half window the halves move on.
 * So a thread that started inside the window counts from its first
 * interval, one that ended keeps what it ran, and the figures are the
 * window's means: a thread's run and wait seconds over the window's
 * length; each thread's run-queue latency histograms (the BPF path) are
 * summed the same way.  The diagnosis judges what window_rates() builds
 * from it. */
#ifndef THREADLAB_WINDOW_H
#define THREADLAB_WINDOW_H

#include <stdbool.h>
#include <stddef.h>

#include "activity.h"
#include "model-impl.h"

struct window_thread {
	pid_t pid, tid;
	uint64_t starttime; /* stat field 22: a reused TID is another thread */
	char name[TASK_NAME_MAX];
	size_t name_len;
	char state; /* at its last interval */
	int cpu;
	double run_s, wait_s;	  /* summed over the half */
	double vcsw, ivcsw;	  /* switches, summed over the half */
	struct lat_hist *lat;	  /* run-queue latency summed over the half (owned), or NULL */
	double act_s[ACTIVITY_N]; /* seconds per activity, summed over the half */
};

struct window_half {
	struct window_thread *v; /* sorted by (pid, tid) */
	size_t n, cap;
	double seconds;		/* intervals summed */
	double throttled_s;	/* throttled seconds (cgroup) */
	double throttled_pct_s; /* throttled_pct x dt, summed */
	double unseen_s;	/* CPU seconds of threads no interval read (unseen_cpu x dt) */
	bool throttle_valid;
};

struct window {
	double length;	/* s; the window covers between length/2 and length */
	double started; /* CLOCK_MONOTONIC s the newer half began */
	struct window_half old, cur;
	int runnable_now;	     /* state R at the last interval */
	bool lat_on;		     /* the last interval traced run-queue latency */
	struct snapshot_rates rates; /* window_rates() builds into this */
};

void window_init(struct window *w, double length);
void window_free(struct window *w);

/* Adds one interval: rates r from prev to the snapshot cur (r's threads
 * are cur's, in the same order), at cur->time; act (may be NULL) the
 * seconds of each thread's activities, ACTIVITY_N per thread of r. */
void window_add(struct window *w, const struct snapshot_rates *r, const struct snapshot *cur,
		const double *act);

/* The window as rates (cpu_pct and wait_pct of each thread over the
 * window's length, throttling averaged over it, its activity the one that
 * took most of its window and its input wait the share of the window);
 * valid until the next window_add(). */
const struct snapshot_rates *window_rates(struct window *w);

#endif
