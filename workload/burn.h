/* burn.h — the background CPU-burning worker, and dying with the parent
 * (burn.c). */
#ifndef THREADLAB_BURN_H
#define THREADLAB_BURN_H

#include "gemm.h"

/* Names the process, dies with parent (PDEATHSIG; parent 0 = getppid() now)
 * and burns CPU until killed.  Returns only on error: an exit status. */
int burn_main(const char *name, pid_t parent);
/* prctl(PR_SET_PDEATHSIG, SIGKILL), then checks that the parent is still
 * expected (0: whatever getppid() says now).  0, or -ESRCH if the parent
 * already changed (it died before the prctl). */
int burn_die_with_parent(pid_t expected);

#endif
