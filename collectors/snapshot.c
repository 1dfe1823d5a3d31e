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
}
