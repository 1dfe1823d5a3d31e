/* triad-run.h — the helper's memory-bound kernel, a STREAM-style triad
 * (triad-run.c), inside threadlab-gemm.  The caller owns the struct and
 * frees it with triad_run_free(). */
#ifndef THREADLAB_TRIAD_RUN_H
#define THREADLAB_TRIAD_RUN_H

#include "gemm.h"

/* Makes r ready for (length, precision): allocates and fills both arrays
 * (nothing done when they are ready already).  0, or -EINVAL / -ENOMEM
 * with a one-line reason in err. */
int triad_run_prepare(struct triad_run *r, uint32_t length, uint32_t precision, char *err,
		      size_t errlen);
/* One call a += s * b with the current OpenBLAS thread count. */
void triad_run_call(struct triad_run *r);
/* Checks the sampled elements of the last call: 0 if each is exactly its
 * value before plus s * b, else 1 and the largest difference in *max_diff. */
int triad_run_compare(const struct triad_run *r, double *max_diff);
/* Frees the arrays (r is then unprepared). */
void triad_run_free(struct triad_run *r);

#endif
