/* tl-rates.h — test helpers over the collectors' thread types (threads.h):
 * hand-made rates and looking one up by TID. */
#ifndef THREADLAB_TL_RATES_H
#define THREADLAB_TL_RATES_H

#include <string.h>
#include <sys/types.h>

#include "threads.h"

/* A thread's rate: pid, tid, name (shorter than TASK_NAME_MAX), state and
 * cpu_pct as given, all of it user time (user_pct = cpu_pct), the rest 0. */
static inline struct thread_rate tl_rate(pid_t pid, pid_t tid, const char *name, char state,
					 double cpu_pct)
{
	struct thread_rate r;
	memset(&r, 0, sizeof(r));
	r.pid = pid;
	r.tid = tid;
	r.name_len = strlen(name);
	memcpy(r.name, name, r.name_len);
	r.state = state;
	r.cpu_pct = cpu_pct;
	r.user_pct = cpu_pct;
	return r;
}

/* The rate of tid among v[0..n), or one with tid 0 when there is none. */
static inline const struct thread_rate *tl_find_rate(const struct thread_rate *v, size_t n,
						     pid_t tid)
{
	for (size_t i = 0; i < n; i++)
		if (v[i].tid == tid)
			return &v[i];
	static const struct thread_rate missing; /* tid 0 */
	return &missing;
}

#endif
