/* loader.h — an input-pipeline loader, threadlab-burn --loader K
 * (loader.c). */
#ifndef THREADLAB_LOADER_H
#define THREADLAB_LOADER_H

#include "gemm.h"

/* Prepares batches into the ring of the control block behind ctl_fd as
 * loader k (named tl-loaderK) until settings.quit (exit status 0) or the
 * parent's death (1); 2 for a bad block. */
int loader_main(int ctl_fd, unsigned k, pid_t parent);

#endif
