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

/* Copies a RATE field from the collectors' rates r into the row t (the
 * model's row of a thread, model.c); other kinds are left alone. */
void thread_field_rate_of(const struct thread_field *f, const struct thread_rate *r,
			  struct model_thread *t);

#endif
