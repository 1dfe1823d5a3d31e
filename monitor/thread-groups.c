/* thread-groups.c — thread groups by name stem with totals that only grow
 * (thread-groups.h).
 *
 * Each update lists one part per thread of cur (its totals now) and one per
 * thread of prev that ended or left its group (its totals then, "gone"),
 * sorts the parts by (pid, stem) and merges them with the groups kept, which
 * are sorted the same way: O(n log n) in the threads, whatever the number
 * of groups. */
#include "config.h"

#include "thread-groups-impl.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diagnosis.h"
#include "model-impl.h"
#include "runqlat-impl.h"
#include "xalloc.h"
#include "clock.h"

struct group_part {
	pid_t pid;
	char stem[GROUP_STEM_MAX];
	size_t stem_len;
	bool gone;
	bool moved; /* a thread of cur that was in another group in prev */
	double user_s, system_s, wait_s;
	double was_user_s, was_system_s, was_wait_s; /* moved: its totals in prev */
	const struct lat_hist *lat;	 /* the thread's, or NULL */
	const struct lat_hist *prev_lat; /* the same thread's in the sample before, or NULL */
};

void thread_groups_init(struct thread_groups *g)
{
	memset(g, 0, sizeof(*g));
	g->hz = clock_ticks_per_s();
}

void thread_groups_free(struct thread_groups *g)
{
	free(g->v);
	memset(g, 0, sizeof(*g));
}

static int group_key_cmp(pid_t pa, const char *sa, size_t la, pid_t pb, const char *sb, size_t lb)
{
	if (pa != pb)
		return pa < pb ? -1 : 1;
	size_t n = la < lb ? la : lb;
	int c = memcmp(sa, sb, n);
	if (c)
		return c;
	return (la > lb) - (la < lb);
}

static int group_part_cmp(const void *a, const void *b)
{
	const struct group_part *x = a, *y = b;
	return group_key_cmp(x->pid, x->stem, x->stem_len, y->pid, y->stem, y->stem_len);
}

static void group_part_of(const struct thread_set *set, const struct thread_sample *t, long hz,
			  bool gone, struct group_part *p)
{
	p->lat = t->lat_ref && t->lat_ref <= set->nlat ? &set->lat[t->lat_ref - 1] : NULL;
	p->prev_lat = NULL;
	p->pid = t->pid;
	p->stem_len = diagnosis_stem(t->name, t->name_len, p->stem, sizeof(p->stem));
	p->gone = gone;
	p->moved = false;
	p->was_user_s = p->was_system_s = p->was_wait_s = 0;
	p->user_s = (double)t->utime / (double)hz;
	p->system_s = (double)t->stime / (double)hz;
	p->wait_s = (double)t->wait_ns / 1e9;
}

static int sample_cmp(const struct thread_sample *a, const struct thread_sample *b)
{
	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	return (a->tid > b->tid) - (a->tid < b->tid);
}

/* The parts: every thread of cur, and every thread of prev that is not in
 * cur as the same thread (same start time) under the same stem. */
static size_t group_parts(const struct thread_groups *g, const struct thread_set *prev,
			  const struct thread_set *cur, struct group_part **out, size_t *cap)
{
	size_t n = 0, j = 0;
	for (size_t i = 0; i < cur->n; i++) {
		*out = xreallocarray_grow(*out, cap, n + 1, sizeof(**out));
		group_part_of(cur, &cur->v[i], g->hz, false, &(*out)[n++]);
	}
	for (size_t i = 0; prev && i < prev->n; i++) {
		const struct thread_sample *p = &prev->v[i];
		while (j < cur->n && sample_cmp(&cur->v[j], p) < 0)
			j++;
		struct group_part part;
		group_part_of(prev, p, g->hz, true, &part);
		if (j < cur->n && sample_cmp(&cur->v[j], p) == 0 &&
		    cur->v[j].starttime == p->starttime) {
			char stem[GROUP_STEM_MAX];
			size_t len =
			    diagnosis_stem(cur->v[j].name, cur->v[j].name_len, stem, sizeof(stem));
			/* cur's parts come first, in order: j is this thread's */
			(*out)[j].prev_lat = part.lat;
			if (len == part.stem_len && memcmp(stem, part.stem, len) == 0)
				continue; /* the same thread, still in its group */
			/* renamed: its old group keeps what it had, its new one
			 * counts from here */
			(*out)[j].moved = true;
			(*out)[j].was_user_s = part.user_s;
			(*out)[j].was_system_s = part.system_s;
			(*out)[j].was_wait_s = part.wait_s;
		}
		*out = xreallocarray_grow(*out, cap, n + 1, sizeof(**out));
		(*out)[n++] = part;
	}
	qsort(*out, n, sizeof(**out), group_part_cmp);
	return n;
}

static bool pid_alive(const struct thread_set *cur, pid_t pid)
{
	size_t lo = 0, hi = cur->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (cur->v[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < cur->n && cur->v[lo].pid == pid;
}

static bool group_part_same(const struct group_part *a, const struct group_part *b)
{
	return group_part_cmp(a, b) == 0;
}

/* What a thread's histogram gained since the sample before, into its
 * group (its whole histogram when it is new to the process; a thread
 * renamed into the group brings only its gain).  A sleeping
 * thread gained nothing: no pass over its buckets. */
static void group_lat_add(struct thread_group *x, const struct group_part *p)
{
	if (!p->lat)
		return;
	x->has_lat = true;
	const struct lat_hist *was = p->prev_lat;
	if (was && was->events == p->lat->events && was->sum_ns == p->lat->sum_ns)
		return;
	if (!was || was->events > p->lat->events) {
		runqlat_hist_add(&x->lat, p->lat);
		return;
	}
	for (unsigned b = 0; b < RUNQLAT_BUCKETS; b++)
		x->lat.count[b] += p->lat->count[b] - was->count[b]; /* modulo 2^32 */
	x->lat.events += p->lat->events - was->events;
	x->lat.sum_ns += p->lat->sum_ns - was->sum_ns;
}

/* The group of the parts [i, end) (one key), its kept state in kept (NULL
 * for a new group). */
static struct thread_group group_of_parts(const struct group_part *parts, size_t i, size_t end,
					  const struct thread_group *kept)
{
	struct thread_group x;
	memset(&x, 0, sizeof(x));
	if (kept)
		x = *kept;
	x.pid = parts[i].pid;
	memcpy(x.stem, parts[i].stem, parts[i].stem_len + 1);
	x.stem_len = parts[i].stem_len;
	x.threads = 0;
	double user = 0, system = 0, wait = 0;
	for (; i < end; i++) {
		if (parts[i].gone) {
			x.gone_user_s += parts[i].user_s;
			x.gone_system_s += parts[i].system_s;
			x.gone_wait_s += parts[i].wait_s;
		} else {
			group_lat_add(&x, &parts[i]);
			if (parts[i].moved) {
				x.moved_user_s += parts[i].was_user_s;
				x.moved_system_s += parts[i].was_system_s;
				x.moved_wait_s += parts[i].was_wait_s;
			}
			x.threads++;
			user += parts[i].user_s;
			system += parts[i].system_s;
			wait += parts[i].wait_s;
		}
	}
	x.user_s = user + x.gone_user_s - x.moved_user_s;
	x.system_s = system + x.gone_system_s - x.moved_system_s;
	x.wait_s = wait + x.gone_wait_s - x.moved_wait_s;
	return x;
}

void thread_groups_update(struct thread_groups *g, const struct thread_set *prev,
			  const struct thread_set *cur)
{
	struct group_part *parts = NULL;
	size_t pcap = 0;
	size_t np = group_parts(g, prev, cur, &parts, &pcap);
	struct thread_group *next = NULL;
	size_t nn = 0, ncap = 0, k = 0;
	for (size_t i = 0; i < np || k < g->n;) {
		int c = i >= np	    ? 1
			: k >= g->n ? -1
				    : group_key_cmp(parts[i].pid, parts[i].stem, parts[i].stem_len,
						    g->v[k].pid, g->v[k].stem, g->v[k].stem_len);
		struct thread_group x;
		if (c > 0) { /* a kept group none of whose threads is here now */
			x = g->v[k++];
			x.threads = 0;
			x.user_s = x.gone_user_s - x.moved_user_s;
			x.system_s = x.gone_system_s - x.moved_system_s;
			x.wait_s = x.gone_wait_s - x.moved_wait_s;
		} else {
			size_t end = i + 1;
			while (end < np && group_part_same(&parts[end], &parts[i]))
				end++;
			x = group_of_parts(parts, i, end, c == 0 ? &g->v[k] : NULL);
			k += c == 0;
			i = end;
		}
		if (!pid_alive(cur, x.pid))
			continue; /* the process has gone: its series stop */
		next = xreallocarray_grow(next, &ncap, nn + 1, sizeof(*next));
		next[nn++] = x;
	}
	free(parts);
	free(g->v);
	g->v = next;
	g->n = nn;
	g->cap = ncap;
}
