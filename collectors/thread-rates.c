/* thread-rates.c — the rates between two thread sets.
 *
 * CPU % and run-queue wait % come from schedstat's nanosecond counters over
 * the wall-clock time between the samples, so they are exact even at 20 ms
 * intervals.  utime and stime are only clock ticks (10 ms), too coarse for a
 * rate, so they only split cpu_pct into user and system: by the ratio of
 * their deltas when a tick passed, else by the ratio of their totals.
 *
 * Each thread's CPU % and wait % are at most 100 together: schedstat
 * charges a long wait to the interval in which the wait ends, and a thread
 * that stayed runnable without running shows its wait while it lasts (see
 * rate_one).
 *
 * A run delta longer than the interval cannot happen: the counter was
 * reset or is garbage, and that thread's sample is dropped (is_reset).
 *
 * A thread the sampler did not read this tick (its sched period,
 * threads.h) carries the rates of its last read interval, as switch counts
 * do.
 *
 * Switch counts come from status, which the sampler reads on a cadence of
 * its own (threads.h): each sample says when its counts were exact
 * (csw_time), so a rate is the count delta over that time delta, and when
 * status was not read in between, the sample's own last interval is carried
 * rather than showing a false 0. */
#include "config.h"

#include "threads.h"
#include "thread-rates.h"

#include <stdlib.h>
#include <string.h>

#include "thread-set.h"
#include "xalloc.h"

/* A counter that went backwards (should not happen) counts as no change. */
static double delta(uint64_t now, uint64_t before)
{
	return now > before ? (double)(now - before) : 0.0;
}

/* Samples made without a csw_time (hand-made ones) count as exact at
 * their set's time. */
static void switch_rates(const struct thread_sample *p, double ptime, const struct thread_sample *c,
			 double ctime, struct thread_rate *r)
{
	double pt = p->csw_time > 0 ? p->csw_time : ptime;
	double ct = c->csw_time > 0 ? c->csw_time : ctime;
	if (ct > pt) {
		r->vcsw_per_s = delta(c->vcsw, p->vcsw) / (ct - pt);
		r->ivcsw_per_s = delta(c->ivcsw, p->ivcsw) / (ct - pt);
	} else if (c->csw_time0 > 0 && c->csw_time > c->csw_time0) {
		double dt = c->csw_time - c->csw_time0;
		r->vcsw_per_s = delta(c->vcsw, c->vcsw0) / dt;
		r->ivcsw_per_s = delta(c->ivcsw, c->ivcsw0) / dt;
	}
}

static void rate_one(const struct thread_sample *p, double ptime, const struct thread_sample *c,
		     double ctime, struct thread_rate *r)
{
	double pt = p->sched_time > 0 ? p->sched_time : ptime;
	double ct = c->sched_time > 0 ? c->sched_time : ctime;
	double run, wait, ns;
	bool carried = false;
	if (ct > pt) {
		run = delta(c->run_ns, p->run_ns);
		wait = delta(c->wait_ns, p->wait_ns);
		ns = (ct - pt) * 1e9;
	} else if (c->sched_time0 > 0 && c->sched_time > c->sched_time0) {
		/* Not read this tick (the sched period): its last interval. */
		run = delta(c->run_ns, c->run0_ns);
		wait = delta(c->wait_ns, c->wait0_ns);
		ns = (c->sched_time - c->sched_time0) * 1e9;
		carried = true;
	} else {
		return;
	}
	/* A thread cannot run longer than the interval: a run delta of twice
	 * it (a counter that jumped, to 2^64-1 say) is a reset, and the sample
	 * is dropped as for a new thread.  Less than that is the lag between
	 * reading the clock and schedstat, clamped below. */
	if (run > ns * 2 + 20e6) {
		r->is_reset = true;
		return;
	}
	r->cpu_pct = 100.0 * run / ns;
	r->wait_pct = 100.0 * wait / ns;
	/* The kernel adds run-queue wait to schedstat only when the thread
	 * gets the CPU: a thread runnable (state R at both ends) whose counters
	 * did not move waited the whole interval, and the wait that lands in
	 * one interval later may span several.  A thread cannot use more than
	 * the interval, running and waiting together. */
	if (!carried && run == 0 && wait == 0 && c->state == 'R' && p->state == 'R')
		r->wait_pct = 100.0;
	if (r->cpu_pct > 100.0)
		r->cpu_pct = 100.0;
	if (r->wait_pct > 100.0 - r->cpu_pct)
		r->wait_pct = 100.0 - r->cpu_pct;

	double du = delta(c->utime, p->utime), ds = delta(c->stime, p->stime);
	if (du + ds <= 0) {
		du = (double)c->utime;
		ds = (double)c->stime;
	}
	double user_share = du + ds > 0 ? du / (du + ds) : 1.0;
	r->user_pct = r->cpu_pct * user_share;
	r->sys_pct = r->cpu_pct - r->user_pct;
}

size_t thread_rates(const struct thread_set *prev, const struct thread_set *cur,
		    struct thread_rate **out, size_t *cap)
{
	*out = xreallocarray_grow(*out, cap, cur->n, sizeof(**out));
	double dt = prev ? cur->time - prev->time : 0;
	size_t j = 0; /* both sets are sorted: one merge walk, no search */
	for (size_t i = 0; i < cur->n; i++) {
		const struct thread_sample *c = &cur->v[i];
		struct thread_rate *r = &(*out)[i];
		memset(r, 0, sizeof(*r));
		r->pid = c->pid;
		r->tid = c->tid;
		memcpy(r->name, c->name, sizeof(r->name));
		r->name_len = c->name_len;
		r->state = c->state;
		r->cpu = c->cpu;

		const struct thread_sample *p = NULL;
		while (prev && j < prev->n && thread_set_cmp(&prev->v[j], c) < 0)
			j++;
		if (prev && j < prev->n && thread_set_cmp(&prev->v[j], c) == 0)
			p = &prev->v[j];
		/* Same TID, other start time: the TID was reused by a new thread. */
		if (!p || p->starttime != c->starttime || dt <= 0) {
			r->is_new = p == NULL || p->starttime != c->starttime;
			continue;
		}
		rate_one(p, prev->time, c, cur->time, r);
		switch_rates(p, prev->time, c, cur->time, r);
	}
	return cur->n;
}
