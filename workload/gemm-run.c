/* gemm-run.c — the helper's matrices, its GEMM call and the results check.
 *
 * Inputs come from a fixed LCG, so every run and every helper multiplies the
 * same matrices for a given (size, precision).  The reference result is
 * computed once per (size, precision) with one OpenBLAS thread and kept in a
 * small cache bounded in bytes, so switching back and forth between sizes
 * does not recompute it; every later result is compared with it. */
#define _GNU_SOURCE
#include "gemm.h"
#include "gemm-run.h"

#include <cblas.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define REF_SLOTS	8
#define REF_CACHE_BYTES ((size_t)512 << 20) /* older references dropped beyond this */

static struct {
	uint32_t n, precision;
	void *ref; /* NULL = empty slot */
	size_t bytes;
	uint64_t used;
} ref_cache[REF_SLOTS];
static uint64_t ref_clock;

static size_t round_up64(size_t x)
{
	return (x + 63) & ~(size_t)63;
}

static void *matrix_alloc(size_t bytes)
{
	return aligned_alloc(64, round_up64(bytes));
}

/* Values in [-1, 1) with 24 significant bits, the same on every run. */
static void fill(void *m, uint32_t n, uint32_t precision, uint64_t seed)
{
	uint64_t x = seed * 0x9E3779B97F4A7C15ull + n;
	size_t count = (size_t)n * n;
	for (size_t i = 0; i < count; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		double v = (double)((x >> 40) & 0xffffff) / (double)(1 << 23) - 1.0;
		if (precision == CTL_DOUBLE)
			((double *)m)[i] = v;
		else
			((float *)m)[i] = (float)v;
	}
}

static void gemm(uint32_t n, uint32_t precision, const void *a, const void *b, void *c)
{
	blasint k = (blasint)n;
	if (precision == CTL_DOUBLE)
		cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, k, k, k, 1.0, a, k, b, k,
			    0.0, c, k);
	else
		cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, k, k, k, 1.0f, a, k, b, k,
			    0.0f, c, k);
}

static int ref_find(uint32_t n, uint32_t precision)
{
	for (int i = 0; i < REF_SLOTS; i++)
		if (ref_cache[i].ref && ref_cache[i].n == n && ref_cache[i].precision == precision)
			return i;
	return -1;
}

/* Drops least recently used references until `need` more bytes fit. */
static int ref_make_room(size_t need)
{
	for (;;) {
		size_t total = 0;
		int oldest = -1, empty = -1;
		for (int i = 0; i < REF_SLOTS; i++) {
			if (!ref_cache[i].ref) {
				empty = i;
				continue;
			}
			total += ref_cache[i].bytes;
			if (oldest < 0 || ref_cache[i].used < ref_cache[oldest].used)
				oldest = i;
		}
		if (empty >= 0 && (total + need <= REF_CACHE_BYTES || oldest < 0))
			return empty;
		free(ref_cache[oldest].ref);
		ref_cache[oldest].ref = NULL;
	}
}

static void run_release(struct gemm_run *r)
{
	free(r->a);
	free(r->b);
	free(r->c);
	free(r->last);
	r->a = r->b = r->c = r->last = NULL;
	r->last_valid = 0;
	r->ref = NULL;
	r->n = 0;
}

int gemm_run_prepare(struct gemm_run *r, uint32_t n, uint32_t precision, char *err, size_t errlen)
{
	openblas_set_num_threads(1);
	if (r->n == n && r->precision == precision && r->ref)
		return 0;
	if (n < 1 || n > GEMM_MAX_SIZE || (precision != CTL_SINGLE && precision != CTL_DOUBLE)) {
		snprintf(err, errlen, "size %u or precision %u out of range (1..%u, 0|1)", n,
			 precision, GEMM_MAX_SIZE);
		return -EINVAL;
	}
	size_t elem = precision == CTL_DOUBLE ? sizeof(double) : sizeof(float);
	size_t bytes = (size_t)n * n * elem;
	/* A, B, C and the reference; refuse what would push the machine into
	 * swapping or the OOM killer rather than fail later on first touch. */
	long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);
	double phys = pages > 0 && psize > 0 ? (double)pages * (double)psize : 0;
	if (phys > 0 && 4.0 * (double)bytes > phys / 2) {
		snprintf(err, errlen, "size %u needs %.0f MiB, more than half of memory (%.0f MiB)",
			 n, 4.0 * (double)bytes / 1048576, phys / 1048576);
		return -ENOMEM;
	}
	run_release(r);
	r->a = matrix_alloc(bytes);
	r->b = matrix_alloc(bytes);
	r->c = matrix_alloc(bytes);
	if (!r->a || !r->b || !r->c) {
		run_release(r);
		snprintf(err, errlen, "size %u: cannot allocate 3 x %.0f MiB", n,
			 (double)bytes / 1048576);
		return -ENOMEM;
	}
	fill(r->a, n, precision, 1);
	fill(r->b, n, precision, 2);
	r->elem = elem;
	int slot = ref_find(n, precision);
	if (slot < 0) {
		slot = ref_make_room(bytes);
		void *ref = matrix_alloc(bytes);
		if (!ref) {
			run_release(r);
			snprintf(err, errlen, "size %u: cannot allocate the reference (%.0f MiB)",
				 n, (double)bytes / 1048576);
			return -ENOMEM;
		}
		gemm(n, precision, r->a, r->b, ref);
		ref_cache[slot].n = n;
		ref_cache[slot].precision = precision;
		ref_cache[slot].ref = ref;
		ref_cache[slot].bytes = bytes;
	}
	ref_cache[slot].used = ++ref_clock;
	r->ref = ref_cache[slot].ref;
	r->n = n;
	r->precision = precision;
	return 0;
}

void gemm_run_call(struct gemm_run *r)
{
	gemm(r->n, r->precision, r->a, r->b, r->c);
}

int gemm_run_compare(struct gemm_run *r, double *max_diff)
{
	size_t count = (size_t)r->n * r->n, bytes = count * r->elem;
	if (memcmp(r->c, r->ref, bytes) == 0)
		return 0;
	if (r->last_valid && memcmp(r->c, r->last, bytes) == 0) {
		*max_diff = r->last_diff;
		return 1;
	}
	double worst = 0;
	for (size_t i = 0; i < count; i++) {
		double d;
		if (r->precision == CTL_DOUBLE)
			d = fabs(((const double *)r->c)[i] - ((const double *)r->ref)[i]);
		else
			d = fabs((double)((const float *)r->c)[i] -
				 (double)((const float *)r->ref)[i]);
		/* NaN compares false: count it as the worst possible difference. */
		if (!(d <= worst))
			worst = isnan(d) ? HUGE_VAL : d;
	}
	*max_diff = worst;
	/* Keep this result for the next compare; the next call writes the
	 * other buffer.  No memory for it: simply recompute next time. */
	if (!r->last)
		r->last = matrix_alloc(bytes);
	if (r->last) {
		void *t = r->last;
		r->last = r->c;
		r->c = t;
		r->last_valid = 1;
		r->last_diff = worst;
	}
	return 1;
}

void gemm_run_free(struct gemm_run *r)
{
	run_release(r);
	for (int i = 0; i < REF_SLOTS; i++) {
		free(ref_cache[i].ref);
		ref_cache[i].ref = NULL;
	}
}
