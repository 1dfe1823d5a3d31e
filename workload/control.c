/* control.c — both sides of the settings sequence lock (control.h).
 *
 * One writer (threadlab) and many readers (the helpers): the epoch is odd
 * while the fields are being stored, so a reader that saw the same even
 * epoch before and after its copy has the fields of exactly one write. */
#include "config.h"

#include "control.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <linux/futex.h>
#include <sched.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

void control_settings_store(struct ctl_settings *s, const struct ctl_values *v)
{
	atomic_store_explicit(&s->threads, v->threads, memory_order_relaxed);
	atomic_store_explicit(&s->streams, v->streams, memory_order_relaxed);
	atomic_store_explicit(&s->size, v->size, memory_order_relaxed);
	atomic_store_explicit(&s->precision, v->precision, memory_order_relaxed);
	atomic_store_explicit(&s->paused, v->paused, memory_order_relaxed);
	atomic_store_explicit(&s->loaders, v->loaders, memory_order_relaxed);
	atomic_store_explicit(&s->prep_us, v->prep_us, memory_order_relaxed);
	atomic_store_explicit(&s->prefetch, v->prefetch, memory_order_relaxed);
	atomic_store_explicit(&s->kernel, v->kernel, memory_order_relaxed);
	atomic_store_explicit(&s->length, v->length, memory_order_relaxed);
	atomic_store_explicit(&s->quit, v->quit, memory_order_release);
}

uint64_t control_settings_write(struct ctl_settings *s, const struct ctl_values *v)
{
	atomic_fetch_add_explicit(&s->epoch, 1, memory_order_relaxed);
	atomic_thread_fence(memory_order_release);
	control_settings_store(s, v);
	return atomic_fetch_add_explicit(&s->epoch, 1, memory_order_release) + 1;
}

uint64_t control_settings_read(struct ctl_settings *s, struct ctl_values *out)
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
		out->loaders = atomic_load_explicit(&s->loaders, memory_order_relaxed);
		out->prep_us = atomic_load_explicit(&s->prep_us, memory_order_relaxed);
		out->prefetch = atomic_load_explicit(&s->prefetch, memory_order_relaxed);
		out->kernel = atomic_load_explicit(&s->kernel, memory_order_relaxed);
		out->length = atomic_load_explicit(&s->length, memory_order_relaxed);
		atomic_thread_fence(memory_order_acquire);
		if (atomic_load_explicit(&s->epoch, memory_order_relaxed) == e1)
			return e1;
	}
}

unsigned control_ring_capacity(const struct ctl_values *v)
{
	unsigned l = v->loaders > CTL_MAX_LOADERS ? CTL_MAX_LOADERS : v->loaders;
	unsigned k = v->prefetch < 1		      ? 1
		     : v->prefetch > CTL_MAX_PREFETCH ? CTL_MAX_PREFETCH
						      : v->prefetch;
	return l * k;
}

void control_futex_wait(_Atomic uint32_t *word, uint32_t val, int timeout_ms)
{
	struct timespec ts = {timeout_ms / 1000, (long)(timeout_ms % 1000) * 1000000L};
	/* Not FUTEX_PRIVATE: the word is shared between processes. */
	syscall(SYS_futex, (uint32_t *)word, FUTEX_WAIT, val, &ts, NULL, 0);
}

void control_futex_wake(_Atomic uint32_t *word)
{
	syscall(SYS_futex, (uint32_t *)word, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
}

int control_map_fd(const char *prog, int fd, struct ctl_block **out)
{
	struct stat st;
	if (fstat(fd, &st) < 0) {
		fprintf(stderr, "%s: --ctl-fd %d: %s (threadlab passes its control block there)\n",
			prog, fd, strerror(errno));
		return 2;
	}
	if (st.st_size < (off_t)sizeof(struct ctl_block)) {
		fprintf(stderr, "%s: --ctl-fd %d: %lld bytes, a control block needs %zu\n", prog,
			fd, (long long)st.st_size, sizeof(struct ctl_block));
		return 2;
	}
	void *p = mmap(NULL, sizeof(struct ctl_block), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		fprintf(stderr, "%s: --ctl-fd %d: cannot map it: %s\n", prog, fd, strerror(errno));
		return 2;
	}
	struct ctl_block *ctl = p;
	if (ctl->magic != CTL_MAGIC || ctl->version != CTL_VERSION) {
		fprintf(stderr,
			"%s: --ctl-fd %d: not a threadlab control block of version %u "
			"(magic %#x, version %u); threadlab and its helper must come from the "
			"same build\n",
			prog, fd, CTL_VERSION, ctl->magic, ctl->version);
		munmap(p, sizeof(struct ctl_block));
		return 2;
	}
	*out = ctl;
	return 0;
}
