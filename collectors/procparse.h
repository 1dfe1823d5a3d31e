/* procparse.h — pure parsers for per-task /proc files.
 *
 * Field numbers follow proc(5).  Every parser takes a NUL-terminated buffer
 * and returns 0 or -EINVAL (malformed or truncated). */
#ifndef THREADLAB_PROCPARSE_H
#define THREADLAB_PROCPARSE_H

#include <stddef.h>
#include <stdint.h>

#define PROCPARSE_CPU_MAX 65536 /* above Linux's NR_CPUS limit (8192) */
#define TASK_NAME_MAX 64 /* comm is 15 bytes; room for what fixtures hold */

/* /proc/PID/task/TID/stat.  The name is between the first '(' and the
 * LAST ')', so it may hold ')', spaces or a newline; kept as raw bytes. */
struct stat_line {
	int pid;		  /* field 1 */
	char name[TASK_NAME_MAX]; /* field 2, raw bytes, NUL-terminated */
	size_t name_len;	  /* bytes in name (it may hold NUL-free junk) */
	char state;		  /* field 3 */
	int ppid;		  /* field 4 */
	uint64_t utime;		  /* field 14, clock ticks */
	uint64_t stime;		  /* field 15, clock ticks */
	uint64_t cutime, cstime;  /* fields 16, 17: its reaped children's, clock ticks */
	long num_threads;	  /* field 20 */
	uint64_t starttime;	  /* field 22, clock ticks since boot */
	int processor;		  /* field 39, last CPU; -1 when past PROCPARSE_CPU_MAX */
};
int procparse_stat_line(const char *buf, size_t len, struct stat_line *out);

/* /proc/PID/task/TID/schedstat: "run_ns wait_ns slices". */
struct schedstat {
	uint64_t run_ns;  /* field 1: time on CPU, ns */
	uint64_t wait_ns; /* field 2: time runnable, waiting on a run queue, ns */
	uint64_t slices;  /* field 3: timeslices run */
};
int procparse_schedstat(const char *buf, struct schedstat *out);

/* The parts of /proc/PID/task/TID/status threadlab uses. */
struct status_info {
	uint64_t vcsw;		      /* voluntary_ctxt_switches */
	uint64_t ivcsw;		      /* nonvoluntary_ctxt_switches */
	char cpus_allowed_list[1024]; /* Cpus_allowed_list, "" if absent */
	int tgid;		      /* Tgid, 0 if absent */
};
int procparse_status(const char *buf, struct status_info *out);

/* Only the two switch counts of a status buffer of len bytes, looked for
 * from the end, where the kernel prints them: the same counts as
 * procparse_status gives, without scanning the other fifty-odd lines.  Returns
 * 0, or -EINVAL when either is missing or malformed. */
int procparse_status_switches(const char *buf, size_t len, uint64_t *vcsw, uint64_t *ivcsw);

/* A hash of a process's name (FNV-1a over the first len raw bytes of a
 * stat_line's name, at most TASK_NAME_MAX): the same PID and start time
 * under another name is the same process after an exec, and what it may
 * have changed on the way (its cgroup, its affinity) is read again. */
uint32_t procparse_name_hash(const char *name, size_t len);

#endif
