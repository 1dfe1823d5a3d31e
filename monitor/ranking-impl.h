/* ranking-impl.h — what a ranking (ranking.h) keeps to rank the machine:
 * its reader of the machine, the budgets and throttling it read, the
 * census of the offenders; for monitor/ (and its tests) only, in the
 * collectors' types. */
#ifndef THREADLAB_RANKING_IMPL_H
#define THREADLAB_RANKING_IMPL_H

#include "budget.h"
#include "census-impl.h"
#include "diagnosis.h"
#include "neighbours-impl.h"
#include "ranking.h"
#include "sysroot.h"
#include "threads.h"

struct rank_cache;    /* ranking.c: a process's budget */
struct rank_throttle; /* ranking.c: a quota cgroup's cpu.stat */

struct ranking_impl {
	struct sysroot root; /* the caller's, copied, or opened by ranking_open */
	bool own_root;
	struct neighbours machine;
	struct rank_cache *cache; /* sorted by (pid, starttime) */
	size_t ncache, cache_cap;
	struct rank_throttle *thr;
	size_t nthr, thr_cap;
	struct diagnosis *scratch;   /* one diagnosis at a time */
	struct budget *budget;	     /* one budget at a time (read, or judged against) */
	struct budget_cache budgets; /* what the cgroups share, since budget_epoch */
	double budget_epoch;	     /* s; budgets read before it are due; < 0 none */
	struct census census;	     /* of the explained offenders */
	/* The BPF path (collector.h): every thread of the machine in one
	 * read at each machine sample, handed to the machine reader as
	 * known, so it reads one stat line a process and no thread's files;
	 * NULL on /proc, or after a read failed (the ranking's note says so). */
	struct bpf_threads *bt;
	struct thread_set bset;
};

/* root must outlive the ranking. */
void ranking_init(struct ranking *k, const struct sysroot *root, bool kernel);

#endif
