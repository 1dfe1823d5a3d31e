/* bpf-load.h — loading the BPF collector (bpf-load.c; the design:
 * bpf-tasks.h).  One struct bpf_tasks per threadlab process, owned by
 * whoever loaded it and freed with bpf_load_free() after every reader
 * (bpf-threads.h) is freed.  int returns are 0 or -errno. */
#ifndef THREADLAB_BPF_LOAD_H
#define THREADLAB_BPF_LOAD_H

#include "bpf-tasks.h"

/* Whether this build has the BPF collector. */
bool bpf_load_built(void);
/* Loads and attaches the programs, with room for the latency of
 * max_threads threads (0: the bound bpf/threadlab.bpf.c is built with;
 * threadlab passes monitor/collector.h's default).  Returns 0, or -errno
 * with a short reason in why ("not root and no CAP_BPF, CAP_PERFMON", "no
 * kernel BTF (/sys/kernel/btf/vmlinux)", "unprivileged BPF disabled", the
 * verifier's complaint).  Never prints: libbpf's messages go into why. */
int bpf_load_tasks(unsigned max_threads, struct bpf_tasks **out, char *why, size_t whylen);
void bpf_load_free(struct bpf_tasks *b);
/* Latency events the map had no room for since loading. */
uint64_t bpf_load_dropped(const struct bpf_tasks *b);
/* Threads the latency map holds at most. */
unsigned bpf_load_capacity(const struct bpf_tasks *b);
/* Iterator reads since loading, by every reader (for tests: nothing but a
 * sampler reads). */
uint64_t bpf_load_reads(const struct bpf_tasks *b);
/* The read generation (for tests: a read that takes latency moves it, the
 * machine view's untraced reads do not). */
uint64_t bpf_load_generation(const struct bpf_tasks *b);
/* Histogram slots serving a thread now (for tests: threads that exited
 * give theirs back). */
int bpf_load_slots_used(const struct bpf_tasks *b);

#endif
