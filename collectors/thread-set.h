/* thread-set.h — a tick's threads, struct thread_set (threads.h): its
 * life (thread-set.c).  A set owns its arrays; init before use, free once. */
#ifndef THREADLAB_THREAD_SET_H
#define THREADLAB_THREAD_SET_H

#include "threads.h"

void thread_set_init(struct thread_set *s);
void thread_set_free(struct thread_set *s);
void thread_set_copy(struct thread_set *dst, const struct thread_set *src);

#endif
