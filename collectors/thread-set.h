/* thread-set.h — a tick's threads, struct thread_set (threads.h): its
 * life (thread-set.c).  A set owns its arrays; init before use, free once. */
#ifndef THREADLAB_THREAD_SET_H
#define THREADLAB_THREAD_SET_H

#include "threads.h"

void thread_set_init(struct thread_set *s);
void thread_set_free(struct thread_set *s);
/* Empties s and keeps its arrays for the next fill: a sampler that fills
 * the same storage each tick touches no fresh pages (10,000 threads are
 * 2.5 MB; first touches of fresh pages were most of a BPF read's user
 * time). */
void thread_set_clear(struct thread_set *s);
void thread_set_copy(struct thread_set *dst, const struct thread_set *src);

/* The order of a set: by (pid, tid); qsort and bsearch take it. */
int thread_set_cmp(const void *a, const void *b);
/* The sample of tid of process pid in s, or NULL. */
const struct thread_sample *thread_set_find(const struct thread_set *s, pid_t pid, pid_t tid);
/* The threads of the process whose first is s->v[i]: returns the index
 * past its last; *lead is its leader's index (tid == pid), or SIZE_MAX. */
size_t thread_set_process(const struct thread_set *s, size_t i, size_t *lead);

#endif
