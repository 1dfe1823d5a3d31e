/* rate-cache.c — single-thread rates by (size, precision), a small LRU. */
#include "config.h"

#include "rate-cache.h"

#include <errno.h>
#include <string.h>

void rate_cache_init(struct rate_cache *c)
{
	memset(c, 0, sizeof(*c));
}

void rate_cache_clear(struct rate_cache *c)
{
	rate_cache_init(c);
}

static int cache_find(const struct rate_cache *c, uint32_t size, uint32_t precision)
{
	for (int i = 0; i < RATE_CACHE_SLOTS; i++)
		if (c->slot[i].used && c->slot[i].size == size && c->slot[i].precision == precision)
			return i;
	return -1;
}

int rate_cache_get(struct rate_cache *c, uint32_t size, uint32_t precision, double *gflops)
{
	int i = cache_find(c, size, precision);
	if (i < 0)
		return -ENOENT;
	c->slot[i].used = ++c->clock;
	*gflops = c->slot[i].gflops;
	return 0;
}

void rate_cache_put(struct rate_cache *c, uint32_t size, uint32_t precision, double gflops)
{
	int i = cache_find(c, size, precision);
	if (i < 0) {
		/* An empty slot (used == 0) is the oldest of all. */
		i = 0;
		for (int j = 1; j < RATE_CACHE_SLOTS; j++)
			if (c->slot[j].used < c->slot[i].used)
				i = j;
	}
	c->slot[i].size = size;
	c->slot[i].precision = precision;
	c->slot[i].gflops = gflops;
	c->slot[i].used = ++c->clock;
}
