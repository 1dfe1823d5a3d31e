/* thread-entry.h — what thread-sampler.c and thread-entry.c share: the
 * sampler's state and one thread's entry in it; not for other files (they
 * use threads.h). */
#ifndef THREADLAB_THREAD_ENTRY_H
#define THREADLAB_THREAD_ENTRY_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "sysroot.h"
#include "threads.h"
#include "thread-sampler.h"

/* The files of a thread an entry reads, in the order of its descriptors. */
enum thread_entry_file {
	THREAD_ENTRY_SCHEDSTAT,
	THREAD_ENTRY_STAT,
	THREAD_ENTRY_STATUS,
	THREAD_ENTRY_NFILES
};

struct thread_entry {
	int fd[THREAD_ENTRY_NFILES]; /* held descriptors; -1: read by path each time */
	bool no_schedstat;	     /* kernel without schedstat: run time from stat ticks */
	bool have;		     /* s holds a complete sample */
	bool csw_stale;		     /* ran since status was read: s.vcsw, s.ivcsw lag */
	bool csw_idle;	  /* s.csw_time0..csw_time saw no run, or there is no csw_time0 */
	double stat_time; /* CLOCK_MONOTONIC s at which stat was last read */
	long nthreads;	  /* stat field 20 when stat was last read */
	struct thread_sample s;
};

struct thread_sampler {
	struct sysroot root; /* copy; the caller's root must outlive the sampler */
	pid_t pid;
	bool tree;
	int piddir;		/* proc/PID, O_PATH: bound to the process, not the number */
	struct thread_entry *e; /* entries of the last tick, sorted by (pid, tid) */
	size_t n, cap;
	struct thread_entry *ne; /* entries being built this tick */
	size_t nn, ncap;
	pid_t *pids; /* processes followed this tick */
	size_t pids_cap;
	pid_t *tids; /* TIDs listed for one process */
	size_t ntids, tids_cap;
	size_t nfds;		   /* descriptors held over all entries */
	int fd_ceiling;		   /* descriptors at or above this are not held */
	long hz;		   /* clock ticks per second, for kernels without schedstat */
	double now;		   /* CLOCK_MONOTONIC seconds of this tick */
	uint64_t status_period_ns; /* 0: status of every thread that ran, each tick */
	uint64_t stat_period_ns;   /* 0: stat of every thread that ran, each tick */
	uint64_t sched_period_ns;  /* 0: schedstat of every thread, each tick */
	pid_t *want;		   /* TIDs whose stat is read whenever they ran, sorted */
	size_t nwant, want_cap;
	struct thread_sampler_reads reads;
	char dents[32768]; /* getdents64 buffer */
	char buf[4096];	   /* file contents */
};

/* Orders pid_t values (qsort, bsearch). */
int thread_entry_pid_cmp(const void *a, const void *b);

/* Opens the entry's descriptors under taskfd (proc/PID/task), as many as
 * the sampler's descriptor ceiling leaves room for (ts->nfds counts them);
 * a file without one is read by path each time. */
void thread_entry_open(struct thread_sampler *ts, int taskfd, struct thread_entry *e);
/* Closes the entry's descriptors (ts->nfds follows). */
void thread_entry_close(struct thread_sampler *ts, struct thread_entry *e);
/* Reads the entry's files that are due at ts->now.  Returns 0, or -errno
 * when the thread is gone or its files are malformed (either way the caller
 * drops it). */
int thread_entry_update(struct thread_sampler *ts, int taskfd, struct thread_entry *e);

#endif
