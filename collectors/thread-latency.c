/* thread-latency.c — each thread's run-queue latency over an interval
 * (threads.h thread_latency_rates).
 *
 * A sample holds a thread's histogram since it was first traced; the
 * interval's is the difference of two samples of the same thread (same
 * TID and start time).  A thread that was in prev without a histogram
 * (its first event came within the interval, or the map had no room
 * before) has all its counts in the interval; a thread new in cur has no
 * rates, so no latency either. */
#include "config.h"

#include "threads.h"
#include "thread-latency.h"

#include <string.h>

#include "xalloc.h"

static int thread_latency_cmp(const struct thread_sample *a, pid_t pid, pid_t tid)
{
	if (a->pid != pid)
		return a->pid < pid ? -1 : 1;
	return (a->tid > tid) - (a->tid < tid);
}

void thread_latency_rates(const struct thread_set *prev, const struct thread_set *cur,
			  struct thread_rate *r, size_t n, struct lat_hist **lat, size_t *nlat,
			  size_t *cap)
{
	*nlat = 0;
	if (!cur->lat_on)
		return;
	size_t j = 0;
	for (size_t i = 0; i < n && i < cur->n; i++) {
		const struct thread_sample *c = &cur->v[i];
		r[i].lat_ref = 0;
		memset(&r[i].latency, 0, sizeof(r[i].latency));
		while (prev && j < prev->n && thread_latency_cmp(&prev->v[j], c->pid, c->tid) < 0)
			j++;
		const struct thread_sample *p =
		    prev && j < prev->n && thread_latency_cmp(&prev->v[j], c->pid, c->tid) == 0
			? &prev->v[j]
			: NULL;
		if (!c->lat_ref || !p || p->starttime != c->starttime || r[i].is_new ||
		    r[i].is_reset)
			continue;
		static const struct lat_hist none;
		const struct lat_hist *before = p->lat_ref ? &prev->lat[p->lat_ref - 1] : &none;
		const struct lat_hist *now = &cur->lat[c->lat_ref - 1];
		if (before->events == now->events && before->sum_ns == now->sum_ns)
			continue; /* no wait in the interval: nothing to difference */
		*lat = xreallocarray_grow(*lat, cap, *nlat + 1, sizeof(**lat));
		struct lat_hist *d = &(*lat)[*nlat];
		if (!latency_hist_delta(now, before, d))
			continue;
		r[i].lat_ref = (uint32_t)++ * nlat;
		latency_summarize(d, &r[i].latency);
	}
}
