/* loader.c — an input-pipeline loader (threadlab-burn --loader K).
 *
 * Stands for a DataLoader worker: a process that prepares batches (decode,
 * augment, collate) while the GEMM streams compute.  It claims an EMPTY
 * slot of the control block's ring (control.h, "the input pipeline"),
 * computes on the slot's data until its own CPU clock has advanced by the
 * settings' prep_us (so a batch costs CPU time, not wall time: under a
 * quota or beside other work it takes longer, as real loading does), marks
 * it READY and wakes the streams.  Loader K only works while
 * K < settings.loaders, and only fills slots below the ring capacity
 * (loaders x prefetch); otherwise it sleeps on the ring's futex words.
 *
 * Lifetime as for the helpers: PR_SET_PDEATHSIG, a getppid() check against
 * --parent, exit 0 on settings.quit. */
#define _GNU_SOURCE
#include "gemm.h"
#include "loader.h"
#include "burn.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#define LOADER_POLL_MS 20 /* longest sleep before the settings are read again */

static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* One pass of "augmentation" over the batch: a damped recurrence that
 * depends on every element, so no pass can be skipped by the compiler. */
static float prep_pass(float *d, unsigned n, uint32_t salt)
{
	float acc = (float)(salt & 0xffu) * 1e-3f;
	for (unsigned i = 0; i < n; i++) {
		acc = acc * 0.999f + d[i] * 1e-3f;
		d[i] = d[i] * 0.5f + acc + (float)((i ^ salt) & 0xffu) * 1e-4f;
	}
	return acc;
}

/* Works on the slot until budget_ns of this thread's CPU time went by,
 * adding the CPU to *spent as it goes (a long batch shows in every
 * interval it spans). */
static void prep(struct ctl_slot *slot, uint64_t budget_ns, uint32_t salt, _Atomic uint64_t *spent)
{
	uint64_t t0 = thread_cpu_ns(), last = t0, t;
	float sum = 0;
	do {
		for (int k = 0; k < 16; k++)
			sum += prep_pass(slot->data, CTL_BATCH_FLOATS, salt + (uint32_t)k);
		t = thread_cpu_ns();
		if (t - last >= 10000000u) { /* every 10 ms of CPU */
			atomic_fetch_add_explicit(spent, t - last, memory_order_relaxed);
			last = t;
		}
	} while (t - t0 < budget_ns);
	atomic_fetch_add_explicit(spent, t - last, memory_order_relaxed);
	slot->data[0] = sum; /* the result is part of the batch */
}

/* Claims an EMPTY slot below cap for loader k, or returns NULL. */
static struct ctl_slot *claim(struct ctl_pipe *p, unsigned cap, unsigned k)
{
	for (unsigned i = 0; i < cap && i < CTL_RING_SLOTS; i++) {
		struct ctl_slot *s = &p->slot[i];
		uint32_t want = CTL_SLOT_EMPTY;
		if (atomic_load_explicit(&s->state, memory_order_relaxed) == CTL_SLOT_EMPTY &&
		    atomic_compare_exchange_strong_explicit(&s->state, &want, CTL_SLOT_FILLING,
							    memory_order_acquire,
							    memory_order_relaxed)) {
			atomic_store_explicit(&s->owner, k + 1, memory_order_relaxed);
			return s;
		}
	}
	return NULL;
}

int loader_main(int ctl_fd, unsigned k, pid_t parent)
{
	char name[16];
	snprintf(name, sizeof(name), "tl-loader%u", k);
	prctl(PR_SET_NAME, name, 0, 0, 0);
	if (parent == 0)
		parent = getppid();
	if (burn_die_with_parent(parent) < 0)
		return 1;
	struct ctl_block *ctl;
	int st = control_map_fd("threadlab-loader", ctl_fd, &ctl);
	if (st)
		return st;
	close(ctl_fd);
	struct ctl_pipe *p = &ctl->pipe;
	struct ctl_loader *me = &p->loader[k];
	atomic_store(&me->pid, (int32_t)getpid());
	atomic_store(&me->state, CTL_STREAM_STARTING);
	uint32_t salt = (uint32_t)getpid();
	while (!atomic_load_explicit(&ctl->settings.quit, memory_order_acquire)) {
		if (getppid() != parent)
			return 1;
		struct ctl_values v;
		control_settings_read(&ctl->settings, &v);
		uint32_t seq = atomic_load_explicit(&p->empty_seq, memory_order_acquire);
		struct ctl_slot *s = k < v.loaders ? claim(p, control_ring_capacity(&v), k) : NULL;
		if (!s) {
			atomic_store(&me->state, CTL_STREAM_PAUSED);
			control_futex_wait(&p->empty_seq, seq, LOADER_POLL_MS);
			continue;
		}
		atomic_store(&me->state, CTL_STREAM_RUNNING);
		prep(s, (uint64_t)v.prep_us * 1000u, salt++, &me->cpu_ns);
		atomic_store_explicit(&s->owner, 0, memory_order_relaxed);
		atomic_store_explicit(&s->state, CTL_SLOT_READY, memory_order_release);
		atomic_fetch_add_explicit(&me->batches, 1, memory_order_relaxed);
		atomic_fetch_add_explicit(&p->ready_seq, 1, memory_order_release);
		control_futex_wake(&p->ready_seq);
	}
	atomic_store(&me->state, CTL_STREAM_EXITED);
	return 0;
}
