/* proctree.h — processes and their descendants, through libproc2.
 *
 * libproc2 is broad but not cheap, so threadlab asks it only for process
 * level facts (the tree, names, start times), never for every thread on every
 * tick.  proctree_descendants is live root only: against a fixture root it
 * returns -ENOTSUP.  proctree_check works under any root. */
#ifndef THREADLAB_PROCTREE_H
#define THREADLAB_PROCTREE_H

#include <stddef.h>
#include <sys/types.h>

#include "sysroot.h"

/* Fills *out with pid and all its descendants (pid first).  *out is
 * (re)allocated and owned by the caller.  Returns the count, or -errno
 * (-ESRCH when pid does not exist). */
ssize_t proctree_descendants(const struct sysroot *r, pid_t pid, pid_t **out, size_t *cap);

/* Checks that pid exists and that its task directory can be read.
 * Returns 0, -ESRCH or -EACCES. */
int proctree_check(const struct sysroot *r, pid_t pid);

/* The command name (comm) of pid, raw bytes, into buf.  Returns 0 or -errno. */
int proctree_name(pid_t pid, char *buf, size_t cap);

#endif
