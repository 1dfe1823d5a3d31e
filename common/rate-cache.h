/* rate-cache.h — the single-thread rate (GFLOP/s of one thread) for each
 * matrix size and precision measured so far.  A plain value type: no I/O,
 * no allocation.  The lab keeps one (lab.h), the monitor's lab view another
 * (rates measured in passing): a value type two layers share, so it lives
 * in common/. */
#ifndef THREADLAB_RATE_CACHE_H
#define THREADLAB_RATE_CACHE_H

#include <stdint.h>

/* ---- single-thread rates, cached by (size, precision) ---------------- */

#define RATE_CACHE_SLOTS 16

/* A fixed-size cache; when full, the least recently stored or read entry is
 * replaced.  Plain value type: embed it, no free needed. */
struct rate_cache {
	struct {
		uint32_t size;	    /* n */
		uint32_t precision; /* 0 single, 1 double */
		double gflops;	    /* single-thread rate, GFLOP/s */
		uint64_t used;	    /* 0 = empty slot, else last use stamp */
	} slot[RATE_CACHE_SLOTS];
	uint64_t clock; /* use stamp counter */
};

void rate_cache_init(struct rate_cache *c);
/* Returns 0 and the rate in *gflops, or -ENOENT. */
int rate_cache_get(struct rate_cache *c, uint32_t size, uint32_t precision, double *gflops);
/* Stores or replaces the rate for (size, precision). */
void rate_cache_put(struct rate_cache *c, uint32_t size, uint32_t precision, double gflops);
/* Forgets every entry (for example when the CPU budget changed). */
void rate_cache_clear(struct rate_cache *c);

#endif
