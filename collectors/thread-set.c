/* thread-set.c — a tick's threads: init, free, copy (threads.h). */
#include "config.h"

#include "threads.h"
#include "thread-set.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

void thread_set_init(struct thread_set *s)
{
	memset(s, 0, sizeof(*s));
}

void thread_set_free(struct thread_set *s)
{
	free(s->v);
	free(s->lat);
	thread_set_init(s);
}

void thread_set_clear(struct thread_set *s)
{
	struct thread_set keep = *s;
	thread_set_init(s);
	s->v = keep.v;
	s->cap = keep.cap;
	s->lat = keep.lat;
	s->lat_cap = keep.lat_cap;
}

void thread_set_copy(struct thread_set *dst, const struct thread_set *src)
{
	if (dst == src)
		return;
	dst->v = xreallocarray_grow(dst->v, &dst->cap, src->n, sizeof(*dst->v));
	if (src->n)
		memcpy(dst->v, src->v, src->n * sizeof(*src->v));
	dst->n = src->n;
	dst->time = src->time;
	dst->nprocs = src->nprocs;
	if (src->nlat) {
		dst->lat =
		    xreallocarray_grow(dst->lat, &dst->lat_cap, src->nlat, sizeof(*dst->lat));
		memcpy(dst->lat, src->lat, src->nlat * sizeof(*src->lat));
	}
	dst->nlat = src->nlat;
	dst->lat_on = src->lat_on;
	dst->lat_dropped = src->lat_dropped;
	dst->lat_capacity = src->lat_capacity;
}

int thread_set_cmp(const void *a, const void *b)
{
	const struct thread_sample *x = a, *y = b;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return (x->tid > y->tid) - (x->tid < y->tid);
}

const struct thread_sample *thread_set_find(const struct thread_set *s, pid_t pid, pid_t tid)
{
	const struct thread_sample key = {.pid = pid, .tid = tid};
	return s->n ? bsearch(&key, s->v, s->n, sizeof(*s->v), thread_set_cmp) : NULL;
}

size_t thread_set_process(const struct thread_set *s, size_t i, size_t *lead)
{
	size_t j = i;
	*lead = SIZE_MAX;
	for (; j < s->n && s->v[j].pid == s->v[i].pid; j++)
		if (s->v[j].tid == s->v[j].pid)
			*lead = j;
	return j;
}
