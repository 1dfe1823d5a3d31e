/* runqlat-impl.h — the model's run-queue latency histogram filled from the
 * collectors' (runqlat.c); for monitor/ only (runqlat.h is the faces'). */
#ifndef THREADLAB_RUNQLAT_IMPL_H
#define THREADLAB_RUNQLAT_IMPL_H

#include "model-impl.h"

/* runqlat.c: the model's histogram (runqlat.h) from a collector's, or
 * with one added (counts, sums; max the larger). */
struct runqlat_hist;
void runqlat_hist_of(const struct lat_hist *h, struct runqlat_hist *out);
void runqlat_hist_add(struct runqlat_hist *dst, const struct lat_hist *src);

#endif
