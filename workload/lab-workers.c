/* lab-workers.c — the anchor's pool of
 * background CPU workers (threadlab-burn) that compete with the GEMMs.
 *
 * Workers run inside the anchor's process group and cgroup, so they share
 * the workload's quota.  They are numbered tl-worker0, tl-worker1 … in start
 * order; lowering the count kills the newest first, so the survivors keep
 * their names. */
#define _GNU_SOURCE
#include "lab-anchor.h"
#include "lab-workers.h"
#include "spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

/* nworkers, never beyond the array (the block is shared memory). */
static unsigned workers_count(const struct lab_shm *shm)
{
	unsigned k = atomic_load(&shm->nworkers);
	return k > LAB_MAX_WORKERS ? LAB_MAX_WORKERS : k;
}

static int workers_start_one(struct lab_shm *shm, const char *burn)
{
	unsigned k = workers_count(shm);
	if (k >= LAB_MAX_WORKERS)
		return -EINVAL;
	char name[16], parent[24];
	snprintf(name, sizeof(name), "tl-worker%u", k);
	snprintf(parent, sizeof(parent), "%ld", (long)getpid());
	char *argv[] = {(char *)"threadlab-burn", (char *)"--name", name,
			(char *)"--parent",	  parent,	    NULL};
	pid_t pid = spawn_start(burn, argv, NULL);
	if (pid < 0)
		return (int)pid;
	atomic_store(&shm->worker_pid[k], (int32_t)pid);
	atomic_store(&shm->nworkers, k + 1);
	return 0;
}

static void workers_stop_newest(struct lab_shm *shm)
{
	unsigned k = workers_count(shm);
	if (k == 0)
		return;
	pid_t pid = atomic_load(&shm->worker_pid[k - 1]);
	atomic_store(&shm->nworkers, k - 1);
	atomic_store(&shm->worker_pid[k - 1], 0);
	if (pid > 0) {
		kill(pid, SIGKILL);
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
	}
}

int lab_workers_set(struct lab_shm *shm, const char *burn, unsigned want)
{
	if (want > LAB_MAX_WORKERS)
		want = LAB_MAX_WORKERS;
	while (workers_count(shm) > want)
		workers_stop_newest(shm);
	while (workers_count(shm) < want) {
		int rc = workers_start_one(shm, burn);
		if (rc < 0)
			return rc;
	}
	return 0;
}

int lab_workers_reaped(struct lab_shm *shm, pid_t pid)
{
	unsigned n = workers_count(shm);
	for (unsigned i = 0; i < n; i++) {
		if (atomic_load(&shm->worker_pid[i]) != pid)
			continue;
		/* A worker died on its own: close the gap, keep the order. */
		for (unsigned j = i; j + 1 < n; j++)
			atomic_store(&shm->worker_pid[j], atomic_load(&shm->worker_pid[j + 1]));
		atomic_store(&shm->worker_pid[n - 1], 0);
		atomic_store(&shm->nworkers, n - 1);
		return 1;
	}
	return 0;
}
