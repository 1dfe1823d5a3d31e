/* environ.h — the environment a process was started with.
 *
 * /proc/PID/environ holds the block execve() put on the new process's
 * stack, NUL-separated: what the process changes later with setenv() does
 * not show there (fs/proc/base.c environ_read).  Reading it needs the
 * ptrace read check (PTRACE_MODE_READ_FSCREDS): another user's process is
 * EACCES unless we have CAP_SYS_PTRACE — "not readable", never "unset". */
#ifndef THREADLAB_ENVIRON_H
#define THREADLAB_ENVIRON_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "sysroot.h"

#define ENVIRON_MAX (4u << 20) /* bytes read at most (ARG_MAX is far below) */

/* Reads proc/PID/environ into *buf (allocated, owned by the caller; a NUL
 * is added after the last byte).  Returns the length (0: empty, e.g. a
 * kernel thread), or -ESRCH, -EACCES.  At most ENVIRON_MAX bytes;
 * *truncated says the block was longer. */
ssize_t environ_read(const struct sysroot *r, pid_t pid, char **buf, bool *truncated);
/* The same through thread tid's view, proc/PID/task/TID/environ (tid 0:
 * proc/PID/environ): the environ of a process whose leader thread has
 * exited (a zombie leader, which reads as "no such process") is still
 * there through a live thread. */
ssize_t environ_read_via(const struct sysroot *r, pid_t pid, pid_t tid, char **buf,
			 bool *truncated);

/* The value of name in a NUL-separated block of len bytes, or NULL when it
 * is not there.  The first of several definitions wins: getenv() in the
 * target (glibc's, libgomp's and OpenBLAS's reads) finds the first in
 * environ[], and a shell exports each name once. */
const char *environ_get(const char *buf, size_t len, const char *name);

#endif
