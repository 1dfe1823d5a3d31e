/* explog-load.h — reading back the rows an earlier run appended to a --log
 * file (explog-load.c; the log: explog.h).  int returns are 0 or -errno,
 * with a one-line reason in err where one is asked for. */
#ifndef THREADLAB_EXPLOG_LOAD_H
#define THREADLAB_EXPLOG_LOAD_H

#include "explog.h"

/* Appends the rows of a --log file an earlier run wrote (explog-out.h)
 * to l.  Returns how many, 0 when the file does not exist, or -errno when
 * it cannot be read; lines that are not rows are counted in *skipped. */
int explog_load(struct explog *l, const char *path, size_t *skipped);
/* Whether path may be a --log: missing (it is created), empty, or a file
 * with at least one row among its first EXPLOG_CHECK_BYTES.  Returns 0,
 * or -EISDIR, -EINVAL (a file that is not an experiment log: a recording,
 * text) or another -errno, with a one-line message in err. */
#define EXPLOG_CHECK_BYTES (1 << 20)
int explog_load_check(const char *path, char *err, size_t errlen);

#endif
