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
#include <unistd.h>

#include "xalloc.h"
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

/* The leader of process pid in set, or NULL. */
static const struct thread_sample *snapshot_leader(const struct thread_set *set, pid_t pid)
{
	size_t lo = 0, hi = set->n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		const struct thread_sample *t = &set->v[mid];
		if (t->pid < pid || (t->pid == pid && t->tid < pid))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < set->n && set->v[lo].pid == pid && set->v[lo].tid == pid ? &set->v[lo] : NULL;
}

/* What each process's stat total gained between the sets beyond its
 * threads' run in the rates r (one per thread of cur, in its order), in
 * CPUs: the threads that ran and ended unseen. */
static double snapshot_unseen_cpu(const struct thread_set *prev, const struct thread_set *cur,
				  const struct snapshot_rates *r)
{
	static long hz;
	if (!hz)
		hz = sysconf(_SC_CLK_TCK) > 0 ? sysconf(_SC_CLK_TCK) : 100;
	if (r->dt <= 0)
		return 0;
	double sum = 0;
	for (size_t i = 0, j; i < r->nthreads; i = j) {
		pid_t pid = r->threads[i].pid;
		double seen = 0;
		for (j = i; j < r->nthreads && r->threads[j].pid == pid; j++)
			seen += r->threads[j].cpu_pct / 100 * r->dt;
		const struct thread_sample *a = snapshot_leader(prev, pid), *b = snapshot_leader(cur, pid);
		if (!a || !b || !a->proc_run_ns || b->proc_run_ns < a->proc_run_ns ||
		    a->starttime != b->starttime)
			continue;
		double gained = (double)(b->proc_run_ns - a->proc_run_ns) / 1e9;
		if (gained - seen > 2.0 / (double)hz)
			sum += gained - seen;
	}
	return sum / r->dt;
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
	out->unseen_cpu = snapshot_unseen_cpu(&prev->threads, &cur->threads, out);
}
