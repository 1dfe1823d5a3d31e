/* census-impl.h — the census (census.h) read and kept up to date under a
 * root, from the threads sampled or a list of processes; for monitor/ only,
 * in the collectors' types. */
#ifndef THREADLAB_CENSUS_IMPL_H
#define THREADLAB_CENSUS_IMPL_H

#include "census.h"
#include "sysroot.h"
#include "threads.h"

void census_init(struct census *c, const struct sysroot *r);
void census_free(struct census *c);

/* Brings the census to the processes of threads (the pids that appear),
 * at time now (CLOCK_MONOTONIC s): reads new ones, refreshes old ones on
 * the cadence, drops those gone. */
void census_update(struct census *c, const struct sysroot *r, const struct thread_set *threads,
		   double now);
/* The same from a list of pids, sorted (replay: no thread samples; the
 * machine's ranking).  starts (NULL: not known) gives each one's start
 * time (stat field 22): an entry whose start time differs belongs to a
 * process that ended, its PID taken by another, and is read again. */
void census_update_pids(struct census *c, const struct sysroot *r, const pid_t *pids,
			const uint64_t *starts, size_t n, double now);

#endif
