/* snapshot.c — snapshots and the rates between two of them.
 *
 * Rates are computed from two snapshots here, never inside the sampler
 * (sampler.c), so batch output and the dashboard agree on every figure. */
#include "config.h"

#include "snapshot.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "xalloc.h"
#include "clock.h"
#include "cgroup-parse.h"
#include "thread-latency.h"
#include "thread-rates.h"
#include "thread-set.h"

void snapshot_init(struct snapshot *s)
{
	memset(s, 0, sizeof(*s));
	thread_set_init(&s->threads);
}

void snapshot_free(struct snapshot *s)
{
	thread_set_free(&s->threads);
	snapshot_init(s);
}

void snapshot_move(struct snapshot *dst, struct snapshot *src)
{
	thread_set_free(&dst->threads);
	*dst = *src;
	snapshot_init(src);
}

void snapshot_copy(struct snapshot *dst, const struct snapshot *src)
{
	if (dst == src)
		return;
	struct thread_set keep = dst->threads;
	*dst = *src;
	dst->threads = keep;
	thread_set_copy(&dst->threads, &src->threads);
}

void snapshot_rates_init(struct snapshot_rates *r)
{
	memset(r, 0, sizeof(*r));
}

void snapshot_rates_free(struct snapshot_rates *r)
{
	free(r->threads);
	free(r->lat);
	snapshot_rates_init(r);
}

/* The whole run of the processes of set whose leader's is read: their
 * threads' (ended ones too) and their reaped children's, ns. */
static uint64_t snapshot_whole(const struct thread_sample *lead)
{
	return lead->proc_run_ns + lead->proc_child_ns;
}

/* Whether lead's whole run was read (threads.h). */
static bool snapshot_has_whole(const struct thread_sample *lead)
{
	return lead && lead->proc_run_ns;
}

/* The same process (PID and start) in set, or NULL. */
static const struct thread_sample *snapshot_same(const struct thread_set *set,
						 const struct thread_sample *lead)
{
	const struct thread_sample *x = thread_set_find(set, lead->pid, lead->pid);
	return x && x->starttime == lead->starttime ? x : NULL;
}

/* What the processes' whole run gained between the sets beyond their
 * threads' run in the rates r (one per thread of cur, in its order), in
 * CPUs: threads, and child processes, that started and ended between two
 * reads.  Kept as a running sum in r (the session's rates are the same
 * struct from one sample to the next) whose rises above its highest so far
 * are what is said: a process that ended drops out of the sum at once, and
 * its run comes back in its parent's reaped children only when the parent
 * waits for it, later (or never, when an ancestor outside the target
 * reaps it: the figure errs low).  A process born since the last read
 * counts whole; one seen only later than that starts from where it is
 * first seen (its run before is no interval's).  A process some of whose
 * threads were not read again this time (a cadence carries their rates)
 * sits the interval out: its whole run is fresh, its threads' run not. */
static double snapshot_unseen_cpu(const struct snapshot *ps, const struct snapshot *cs,
				  struct snapshot_rates *r)
{
	const struct thread_set *prev = &ps->threads, *cur = &cs->threads;
	double hz = (double)clock_ticks_per_s();
	if (r->dt <= 0)
		return 0;
	double gained = 0, seen = 0;
	for (size_t i = 0, j; i < r->nthreads; i = j) {
		pid_t pid = r->threads[i].pid;
		double run = 0;
		bool carried = false;
		for (j = i; j < r->nthreads && r->threads[j].pid == pid; j++) {
			run += r->threads[j].cpu_pct / 100 * r->dt;
			const struct thread_sample *t = j < cur->n ? &cur->v[j] : NULL;
			carried |= t && t->tid == r->threads[j].tid && t->sched_time > 0 &&
				   t->sched_time <= ps->time;
		}
		const struct thread_sample *b = thread_set_find(cur, pid, pid);
		const struct thread_sample *a = b ? snapshot_same(prev, b) : NULL;
		if (!a && snapshot_has_whole(b) && ps->boot > 0 &&
		    (double)b->starttime / hz >= ps->boot) {
			gained += (double)snapshot_whole(b) / 1e9; /* born inside: all of it */
			continue;
		}
		if (!snapshot_has_whole(a) || !snapshot_has_whole(b) || carried)
			continue; /* seen late, its whole run not read, or threads carried */
		gained += ((double)snapshot_whole(b) - (double)snapshot_whole(a)) / 1e9;
		seen += run;
	}
	/* Ended: its run moves to an ancestor's reaped children, followed or
	 * not, now or later; without its whole run read (the /proc path's
	 * thread limit), what its threads had run. */
	for (size_t i = 0, j, at; i < prev->n; i = j) {
		j = thread_set_process(prev, i, &at);
		const struct thread_sample *a = at == SIZE_MAX ? NULL : &prev->v[at];
		if (!a || snapshot_same(cur, a))
			continue;
		uint64_t threads = 0;
		for (size_t k = i; k < j; k++)
			threads += prev->v[k].run_ns;
		gained -= (double)(snapshot_has_whole(a) ? snapshot_whole(a) : threads) / 1e9;
	}
	r->unseen_sum_s += gained - seen;
	double rise = r->unseen_sum_s - r->unseen_top_s;
	if (rise <= 2.0 / hz)
		return 0;
	r->unseen_top_s = r->unseen_sum_s;
	return rise / r->dt;
}

void snapshot_rates(const struct snapshot *prev, const struct snapshot *cur,
		    struct snapshot_rates *out)
{
	out->dt = cur->time - prev->time;
	if (prev->has_cpustat && cur->has_cpustat && strcmp(prev->stat_dir, cur->stat_dir) == 0)
		cgroup_parse_throttle_rate(&prev->cpustat, &cur->cpustat, out->dt, &out->throttle);
	else
		memset(&out->throttle, 0, sizeof(out->throttle));
	out->nthreads = thread_rates(&prev->threads, &cur->threads, &out->threads, &out->cap);
	thread_latency_rates(&prev->threads, &cur->threads, out->threads, out->nthreads, &out->lat,
			     &out->nlat, &out->lat_cap);
	out->lat_on = cur->threads.lat_on;
	out->lat_capacity = cur->threads.lat_capacity;
	out->lat_dropped = cur->threads.lat_dropped >= prev->threads.lat_dropped
			       ? cur->threads.lat_dropped - prev->threads.lat_dropped
			       : 0;
	out->total_cpu_pct = 0;
	out->total_wait_pct = 0;
	out->runnable = 0;
	for (size_t i = 0; i < out->nthreads; i++) {
		out->total_cpu_pct += out->threads[i].cpu_pct;
		out->total_wait_pct += out->threads[i].wait_pct;
		if (out->threads[i].state == 'R')
			out->runnable++;
	}
	out->unseen_cpu = snapshot_unseen_cpu(prev, cur, out);
}
