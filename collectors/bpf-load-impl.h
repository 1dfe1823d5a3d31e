/* bpf-load-impl.h — what bpf-load.c gives bpf-threads.c; not for other
 * files (they use bpf-tasks.h). */
#ifndef THREADLAB_BPF_LOAD_IMPL_H
#define THREADLAB_BPF_LOAD_IMPL_H

#include "bpf-tasks.h"

struct threadlab_bpf;

struct bpf_tasks {
	struct threadlab_bpf *skel; /* bpftool's skeleton: programs, maps, .bss */
	unsigned capacity;	    /* slots of the histogram array */
	uint64_t reads;		    /* iterator reads by every reader */
	uint64_t fail_read;	    /* THREADLAB_BPF_FAIL_READ: this read fails (tests) */
	int readers_all;	    /* readers with all: latency of every thread */
	struct bpf_tasks_traced {   /* kernel tgids traced, sorted, with readers per tgid */
		pid_t tgid;
		int readers;
	} * traced;
	size_t ntraced, traced_cap;
};

/* The skeleton's pieces, for the reader (bpf-load.c owns the skeleton
 * type, from the generated header). */
int bpf_load_iter_fd(struct bpf_tasks *b);	 /* a new iterator: -errno */
int bpf_load_hist_fd(const struct bpf_tasks *b); /* the histogram slots, by slot */
/* One reader more (delta +1) or fewer (-1) wanting kernel tgid traced. */
void bpf_load_trace(struct bpf_tasks *b, pid_t tgid, int delta);
/* A read's cadence (threadlab.bpf.c, not_due()): with lite, a thread that
 * does not lead its process, whose phase is outside [due_lo, due_lo +
 * due_span), that started at or before new_after (CLOCK_BOOTTIME ns) and
 * whose TID is not in want gets a short record. */
struct bpf_tasks_cadence {
	bool lite;
	uint32_t due_lo;
	uint64_t due_span;
	uint64_t new_after;
	const uint32_t *want;
	size_t nwant;
};

/* The .bss variables of threadlab.bpf.c a read sets (c NULL: no cadence,
 * every record in full); returns the new gen.  since UINT64_MAX: a read
 * that takes no latency (the machine view's), which leaves the generation
 * alone: each bump moves the per-generation maxima the traced readers
 * take their interval's largest wait from, and two bumps between a traced
 * reader's reads would lose it. */
uint64_t bpf_load_begin(struct bpf_tasks *b, uint64_t since, pid_t root, bool tree, bool all,
			const struct bpf_tasks_cadence *c);
void bpf_load_trace_all(struct bpf_tasks *b, bool on);

#endif
