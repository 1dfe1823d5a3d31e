/* triad-run.c — the helper's memory-bound kernel: a STREAM-style triad.
 *
 * Each call is OpenBLAS's axpy a = a + s * b over two arrays of `length`
 * elements: per index 2 FLOPs and 3 transfers (read a, read b, write a),
 * the counts of STREAM's triad a = b + s * c, and OpenBLAS splits it over
 * the same pool threads as the GEMM.  b holds small integers and s = 0.5,
 * so every value a takes is exact (until TRIAD_RESET_CALLS, when a starts
 * again from 0): a sampled element after a call must equal its value
 * before plus s * b, bit for bit, whatever the thread count or FMA use. */
#define _GNU_SOURCE
#include "gemm.h"
#include "triad-run.h"

#include <cblas.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TRIAD_SCALE	  0.5
#define TRIAD_RESET_CALLS (1u << 20) /* 4 x 2^20 < 2^24: exact in single too */

static double triad_get(const struct triad_run *r, const void *v, size_t i)
{
	if (r->precision == CTL_DOUBLE)
		return ((const double *)v)[i];
	return (double)((const float *)v)[i];
}

void triad_run_free(struct triad_run *r)
{
	free(r->a);
	free(r->b);
	memset(r, 0, sizeof(*r));
}

int triad_run_prepare(struct triad_run *r, uint32_t length, uint32_t precision, char *err,
		      size_t errlen)
{
	if (r->length == length && r->precision == precision && r->a)
		return 0;
	triad_run_free(r);
	if (length < TRIAD_SAMPLES) {
		snprintf(err, errlen, "triad length %u: below %d elements", length, TRIAD_SAMPLES);
		return -EINVAL;
	}
	size_t elem = precision == CTL_DOUBLE ? 8 : 4;
	size_t bytes = ((size_t)length * elem + 63) & ~(size_t)63;
	r->a = aligned_alloc(64, bytes);
	r->b = aligned_alloc(64, bytes);
	if (!r->a || !r->b) {
		triad_run_free(r);
		snprintf(err, errlen, "cannot allocate 2 triad arrays of %.0f MiB",
			 (double)bytes / 1048576.0);
		return -ENOMEM;
	}
	/* Written once here, so every page is backed before the first call. */
	memset(r->a, 0, bytes);
	for (size_t i = 0; i < length; i++) {
		double v = (double)(i % 8 + 1);
		if (precision == CTL_DOUBLE)
			((double *)r->b)[i] = v;
		else
			((float *)r->b)[i] = (float)v;
	}
	r->length = length;
	r->precision = precision;
	r->elem = elem;
	for (int j = 0; j < TRIAD_SAMPLES; j++)
		r->sample[j] = (size_t)j * (length / TRIAD_SAMPLES) + (size_t)(j % 8);
	return 0;
}

void triad_run_call(struct triad_run *r)
{
	if (++r->calls >= TRIAD_RESET_CALLS) {
		memset(r->a, 0, r->length * r->elem);
		r->calls = 1;
	}
	for (int j = 0; j < TRIAD_SAMPLES; j++)
		r->before[j] = triad_get(r, r->a, r->sample[j]);
	blasint n = (blasint)r->length;
	if (r->precision == CTL_DOUBLE)
		cblas_daxpy(n, TRIAD_SCALE, r->b, 1, r->a, 1);
	else
		cblas_saxpy(n, (float)TRIAD_SCALE, r->b, 1, r->a, 1);
}

int triad_run_compare(const struct triad_run *r, double *max_diff)
{
	double worst = 0;
	for (int j = 0; j < TRIAD_SAMPLES; j++) {
		size_t i = r->sample[j];
		double want = r->before[j] + TRIAD_SCALE * triad_get(r, r->b, i);
		double d = fabs(triad_get(r, r->a, i) - want);
		if (isnan(d))
			d = INFINITY;
		if (d > worst)
			worst = d;
	}
	*max_diff = worst;
	return worst != 0;
}
