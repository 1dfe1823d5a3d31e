/* gemm-run.h — the helper's matrices, its GEMM call and the results check
 * (gemm-run.c), inside threadlab-gemm.  The caller owns the struct and
 * frees it with gemm_run_free(). */
#ifndef THREADLAB_GEMM_RUN_H
#define THREADLAB_GEMM_RUN_H

#include "gemm.h"

/* Makes r ready for (n, precision): allocates and fills A and B, and
 * computes the reference with one OpenBLAS thread if it is not cached.
 * Leaves OpenBLAS at one thread: the caller sets its thread count after.
 * 0, or -EINVAL / -ENOMEM with a one-line reason in err. */
int gemm_run_prepare(struct gemm_run *r, uint32_t n, uint32_t precision, char *err, size_t errlen);
/* One GEMM call C = A x B with the current OpenBLAS thread count. */
void gemm_run_call(struct gemm_run *r);
/* Compares C with the reference: 0 if bitwise equal, else 1 and the largest
 * |C - ref| in *max_diff.  memcmp first, so an equal result costs one pass;
 * a result equal to the previous differing one (OpenBLAS is deterministic
 * for a given thread count) reuses its difference instead of recomputing. */
int gemm_run_compare(struct gemm_run *r, double *max_diff);
/* Frees r's matrices and the reference cache. */
void gemm_run_free(struct gemm_run *r);

#endif
