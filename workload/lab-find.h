/* lab-find.h — where the lab's programs are (lab-find.c).  Directories are
 * written into the caller's buffer; strings returned are static. */
#ifndef THREADLAB_LAB_FIND_H
#define THREADLAB_LAB_FIND_H

#include "lab.h"

/* The directory holding all of the lab's programs (threadlab-anchor,
 * threadlab-gemm, threadlab-burn), never found through $PATH: the one
 * $THREADLAB_LIBEXECDIR names when set; else the build tree this program
 * runs from; else the installed layout next to this program (bindir's
 * relative path to pkglibexecdir); else the configured pkglibexecdir (the
 * order and why: lab-find.c).  Writes the canonical path into out (cap
 * bytes) and, when how is not NULL, how it was found ("build tree",
 * "installed", "configured", "THREADLAB_LIBEXECDIR": static text).
 * Returns 0, -ENOENT when no directory holds them all, -ENAMETOOLONG. */
int lab_find_programs_dir(char *out, size_t cap, const char **how);
/* The pkglibexecdir configure chose (static text). */
const char *lab_find_programs_configured_dir(void);
/* The relative path from directory from to directory to, both absolute
 * ("/usr/bin", "/usr/libexec/threadlab": "../libexec/threadlab"; the same
 * directory: ".").  Pure.  Returns 0, -EINVAL (a relative argument),
 * -ENAMETOOLONG. */
int lab_find_relative(const char *from, const char *to, char *out, size_t cap);

#endif
