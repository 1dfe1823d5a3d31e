/* tl-proc.h — test helpers that write /proc files: stat lines with known
 * fields, and finding a thread's sample by TID.  Each test program has its
 * own copy of stat_nthreads. */
#ifndef THREADLAB_TL_PROC_H
#define THREADLAB_TL_PROC_H

#include <stdio.h>
#include <string.h>

#include "threads.h"

static unsigned long long stat_nthreads = 20; /* field 20 of make_stat's lines */

/* A stat line whose fields 4..52 are "4+k" (field 39 is 1) after NAME. */
static inline size_t make_stat(char *buf, size_t cap, int pid, const char *name, size_t name_len,
			       unsigned long long start)
{
	size_t n = (size_t)snprintf(buf, cap, "%d (", pid);
	memcpy(buf + n, name, name_len);
	n += name_len;
	n += (size_t)snprintf(buf + n, cap - n, ") S");
	for (int f = 4; f <= 52; f++) {
		unsigned long long v = (unsigned long long)f;
		if (f == 22)
			v = start;
		else if (f == 20)
			v = stat_nthreads;
		else if (f == 39)
			v = 1;
		n += (size_t)snprintf(buf + n, cap - n, " %llu", v);
	}
	n += (size_t)snprintf(buf + n, cap - n, "\n");
	return n;
}

static inline const struct thread_sample *find(const struct thread_set *s, pid_t tid)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i].tid == tid)
			return &s->v[i];
	static const struct thread_sample missing; /* tid 0 */
	return &missing;
}

#endif
