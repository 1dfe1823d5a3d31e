/* gemm-names.h — naming the helper's driver and OpenBLAS pool threads
 * (gemm-names.c), inside threadlab-gemm. */
#ifndef THREADLAB_GEMM_NAMES_H
#define THREADLAB_GEMM_NAMES_H

#include "gemm.h"

/* Names the calling (driver) thread and records the pool workers that exist
 * now (those OpenBLAS created when it loaded).  0 or -errno. */
int gemm_names_init(struct gemm_names *n, unsigned stream);
/* Finds pool workers created since the last call (after the pool grew).
 * Returns how many are known in all, or -errno. */
int gemm_names_scan(struct gemm_names *n);
/* Writes .wK for workers K < active and .pK for the others, where active
 * counts the driver (active = intra-op threads).  Only changed names are
 * written.  A worker that vanished is skipped. */
void gemm_names_apply(struct gemm_names *n, unsigned active);

#endif
