/* tl-rates.h — test helpers over the thread types: hand-made rates of the
 * collectors (threads.h) and rows of the model (model.h), and looking a
 * rate up by TID. */
#ifndef THREADLAB_TL_RATES_H
#define THREADLAB_TL_RATES_H

#include <string.h>
#include <sys/types.h>

#include "model.h"
#include "threads.h"

/* Fills r, a thread's rate or row (their members share names): pid, tid,
 * name (shorter than the name's array), state and cpu_pct as given, all
 * of it user time (user_pct = cpu_pct), the rest 0. */
#define TL_THREAD_FILL(r, pid_, tid_, name_, state_, cpu_pct_)                                     \
	do {                                                                                       \
		memset(&(r), 0, sizeof(r));                                                        \
		(r).pid = (pid_);                                                                  \
		(r).tid = (tid_);                                                                  \
		(r).name_len = strlen(name_);                                                      \
		memcpy((r).name, (name_), (r).name_len);                                           \
		(r).state = (state_);                                                              \
		(r).cpu_pct = (cpu_pct_);                                                          \
		(r).user_pct = (cpu_pct_);                                                         \
	} while (0)

/* A thread's rate (the collectors'), as TL_THREAD_FILL makes it. */
static inline struct thread_rate tl_rate(pid_t pid, pid_t tid, const char *name, char state,
					 double cpu_pct)
{
	struct thread_rate r;
	TL_THREAD_FILL(r, pid, tid, name, state, cpu_pct);
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

/* A thread's row (the model's, as the faces get it), the same way. */
static inline struct model_thread tl_row(pid_t pid, pid_t tid, const char *name, char state,
					 double cpu_pct)
{
	struct model_thread r;
	TL_THREAD_FILL(r, pid, tid, name, state, cpu_pct);
	return r;
}

#endif
