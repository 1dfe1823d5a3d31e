/* bpf-none.c — the BPF collector's calls in a build without it
 * (./configure --enable-bpf=no, or clang, bpftool or libbpf missing):
 * loading says so, nothing else can be reached. */
#include "config.h"

#include "bpf-tasks.h"
#include "bpf-threads.h"
#include "bpf-load.h"

#include <errno.h>
#include <stdio.h>

bool bpf_load_built(void)
{
	return false;
}

int bpf_load_tasks(unsigned max_threads, struct bpf_tasks **out, char *why, size_t whylen)
{
	(void)max_threads;
	*out = NULL;
	snprintf(why, whylen, "built without BPF support (./configure --enable-bpf)");
	return -ENOTSUP;
}

void bpf_load_free(struct bpf_tasks *b)
{
	(void)b;
}

uint64_t bpf_load_dropped(const struct bpf_tasks *b)
{
	(void)b;
	return 0;
}

unsigned bpf_load_capacity(const struct bpf_tasks *b)
{
	(void)b;
	return 0;
}

uint64_t bpf_load_reads(const struct bpf_tasks *b)
{
	(void)b;
	return 0;
}

uint64_t bpf_load_generation(const struct bpf_tasks *b)
{
	(void)b;
	return 0;
}

int bpf_load_slots_used(const struct bpf_tasks *b)
{
	(void)b;
	return 0;
}

struct bpf_threads *bpf_threads_new(struct bpf_tasks *b, pid_t pid, bool tree, bool all)
{
	(void)b, (void)pid, (void)tree, (void)all;
	errno = ENOTSUP;
	return NULL;
}

struct bpf_threads *bpf_threads_new_machine(struct bpf_tasks *b)
{
	(void)b;
	errno = ENOTSUP;
	return NULL;
}

void bpf_threads_free(struct bpf_threads *t)
{
	(void)t;
}

int bpf_threads_sample(struct bpf_threads *t, double now, struct thread_set *out)
{
	(void)t, (void)now, (void)out;
	return -ENOTSUP;
}

void bpf_threads_set_period(struct bpf_threads *t, double seconds)
{
	(void)t, (void)seconds;
}

void bpf_threads_want(struct bpf_threads *t, const pid_t *tids, size_t n)
{
	(void)t, (void)tids, (void)n;
}

void bpf_threads_last_read(const struct bpf_threads *t, size_t *full, size_t *brief)
{
	(void)t;
	*full = *brief = 0;
}
