/* lab-workers.h — the anchor's pool of background CPU workers
 * (lab-workers.c), inside threadlab-anchor. */
#ifndef THREADLAB_LAB_WORKERS_H
#define THREADLAB_LAB_WORKERS_H

#include "lab-anchor.h"

/* Makes the number of running workers equal to want (0..LAB_MAX_WORKERS):
 * starts `burn --name tl-workerK --parent <anchor>` or SIGKILLs and reaps
 * the newest ones.  Publishes pids in shm.  Returns 0 or -errno (first
 * failure; the workers started so far stay). */
int lab_workers_set(struct lab_shm *shm, const char *burn, unsigned want);
/* A child the anchor reaped: if it was a worker, removes it from shm and
 * returns 1; else 0. */
int lab_workers_reaped(struct lab_shm *shm, pid_t pid);

#endif
