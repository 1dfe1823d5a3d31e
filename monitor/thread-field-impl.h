/* thread-field-impl.h — the recording reader's side of the table of a
 * thread's fields (thread-field.h): a field set in the collectors' thread
 * rate; for monitor/ only. */
#ifndef THREADLAB_THREAD_FIELD_IMPL_H
#define THREADLAB_THREAD_FIELD_IMPL_H

#include "thread-field.h"
#include "threads.h"

/* Sets an INT or RATE field of t to v (an INT truncated); other kinds are
 * left alone. */
void thread_field_set(const struct thread_field *f, struct thread_rate *t, double v);

#endif
