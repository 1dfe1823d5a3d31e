/* gemm-names.c — naming the helper's driver and OpenBLAS pool threads.
 *
 * A thread's name is its /proc/self/task/TID/comm; any thread of a process
 * may write another's.  OpenBLAS creates its pool when it loads (online CPUs
 * - 1 workers, or OPENBLAS_NUM_THREADS - 1) and adds workers when
 * openblas_set_num_threads asks for more, never removing any; the helper's
 * only other thread is the driver, so every task that is not the driver is a
 * pool worker, and new TIDs after a growth step are the new workers. */
#define _GNU_SOURCE
#include "gemm.h"
#include "gemm-names.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

static int names_known(const struct gemm_names *n, pid_t tid)
{
	for (unsigned i = 0; i < n->nworkers; i++)
		if (n->tid[i] == tid)
			return 1;
	return 0;
}

static int cmp_pid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;
	return (x > y) - (x < y);
}

/* Drops workers whose task is gone (libgomp ends surplus team threads). */
static void names_prune(struct gemm_names *n)
{
	unsigned k = 0;
	for (unsigned i = 0; i < n->nworkers; i++) {
		char path[64];
		snprintf(path, sizeof(path), "/proc/self/task/%d", (int)n->tid[i]);
		if (access(path, F_OK) < 0 && errno == ENOENT)
			continue;
		n->tid[k] = n->tid[i];
		n->named[k] = n->named[i];
		n->parked[k] = n->parked[i];
		/* A worker that moved down a place gets its new number. */
		if (k != i)
			n->named[k] = 0;
		k++;
	}
	n->nworkers = k;
}

int gemm_names_scan(struct gemm_names *n)
{
	names_prune(n);
	DIR *d = opendir("/proc/self/task");
	if (!d)
		return -errno;
	pid_t fresh[GEMM_NAMES_MAX];
	unsigned nfresh = 0;
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		pid_t tid = (pid_t)strtol(e->d_name, NULL, 10);
		if (tid == n->driver || names_known(n, tid))
			continue;
		if (n->nworkers + nfresh < GEMM_NAMES_MAX)
			fresh[nfresh++] = tid;
	}
	closedir(d);
	/* Within one growth step OpenBLAS creates workers in index order. */
	qsort(fresh, nfresh, sizeof(fresh[0]), cmp_pid);
	for (unsigned i = 0; i < nfresh; i++) {
		unsigned k = n->nworkers++;
		n->tid[k] = fresh[i];
		n->named[k] = 0;
		n->parked[k] = 0;
	}
	return (int)n->nworkers;
}

int gemm_names_init(struct gemm_names *n, unsigned stream)
{
	memset(n, 0, sizeof(*n));
	n->stream = stream;
	n->driver = getpid();
	char name[32]; /* the kernel keeps 15 bytes */
	snprintf(name, sizeof(name), "gemm%u", stream);
	if (prctl(PR_SET_NAME, name, 0, 0, 0) < 0)
		return -errno;
	int r = gemm_names_scan(n);
	return r < 0 ? r : 0;
}

static int write_comm(pid_t tid, const char *name)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/task/%d/comm", (int)tid);
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ssize_t w = write(fd, name, strlen(name));
	int err = w < 0 ? -errno : 0;
	close(fd);
	return err;
}

void gemm_names_apply(struct gemm_names *n, unsigned active)
{
	for (unsigned i = 0; i < n->nworkers; i++) {
		unsigned k = i + 1;
		unsigned char parked = k >= active;
		if (n->named[i] && n->parked[i] == parked)
			continue;
		char name[32]; /* the kernel keeps 15 bytes */
		snprintf(name, sizeof(name), "gemm%u.%c%u", n->stream, parked ? 'p' : 'w', k);
		/* A worker that is gone cannot be named; try again next time. */
		if (write_comm(n->tid[i], name) == 0) {
			n->named[i] = 1;
			n->parked[i] = parked;
		}
	}
}
