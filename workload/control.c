/* control.c — both sides of the settings sequence lock (control.h).
 *
 * One writer (threadlab) and many readers (the helpers): the epoch is odd
 * while the fields are being stored, so a reader that saw the same even
 * epoch before and after its copy has the fields of exactly one write. */
#include "config.h"

#include "control.h"

#include <sched.h>

void ctl_settings_store(struct ctl_settings *s, const struct ctl_values *v)
{
	atomic_store_explicit(&s->threads, v->threads, memory_order_relaxed);
	atomic_store_explicit(&s->streams, v->streams, memory_order_relaxed);
	atomic_store_explicit(&s->size, v->size, memory_order_relaxed);
	atomic_store_explicit(&s->precision, v->precision, memory_order_relaxed);
	atomic_store_explicit(&s->paused, v->paused, memory_order_relaxed);
	atomic_store_explicit(&s->quit, v->quit, memory_order_release);
}

uint64_t ctl_settings_write(struct ctl_settings *s, const struct ctl_values *v)
{
	atomic_fetch_add_explicit(&s->epoch, 1, memory_order_relaxed);
	atomic_thread_fence(memory_order_release);
	ctl_settings_store(s, v);
	return atomic_fetch_add_explicit(&s->epoch, 1, memory_order_release) + 1;
}

uint64_t ctl_settings_read(struct ctl_settings *s, struct ctl_values *out)
{
	for (;;) {
		uint64_t e1 = atomic_load_explicit(&s->epoch, memory_order_acquire);
		if (e1 & 1) {
			sched_yield(); /* the writer is between its stores */
			continue;
		}
		out->threads = atomic_load_explicit(&s->threads, memory_order_relaxed);
		out->streams = atomic_load_explicit(&s->streams, memory_order_relaxed);
		out->size = atomic_load_explicit(&s->size, memory_order_relaxed);
		out->precision = atomic_load_explicit(&s->precision, memory_order_relaxed);
		out->paused = atomic_load_explicit(&s->paused, memory_order_relaxed);
		out->quit = atomic_load_explicit(&s->quit, memory_order_relaxed);
		atomic_thread_fence(memory_order_acquire);
		if (atomic_load_explicit(&s->epoch, memory_order_relaxed) == e1)
			return e1;
	}
}
