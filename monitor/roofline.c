/* roofline.c — the roofline model (roofline.h). */
#include "config.h"

#include "roofline.h"
#include "throughput.h"

#include <string.h>

const char *roofline_bound_name(enum roofline_bound b)
{
	return b == ROOFLINE_COMPUTE ? "compute" : b == ROOFLINE_MEMORY ? "memory" : "unknown";
}

double roofline_intensity(enum settings_kernel k, int n, int elem)
{
	if (elem <= 0)
		return 0;
	if (k == SETTINGS_TRIAD)
		return 2.0 / (3.0 * elem);
	if (n <= 0)
		return 0;
	/* 2 n^3 / (3 n^2 e) */
	return 2.0 * n / (3.0 * elem);
}

void roofline_make(struct roofline *r, enum settings_kernel k, int n, int elem, double single,
		   double effective, double memory_gbs, double gflops)
{
	memset(r, 0, sizeof(*r));
	r->kernel = k;
	r->intensity = roofline_intensity(k, n, elem);
	r->compute_roof = single > 0 ? throughput_ceiling(single, effective > 0 ? effective : 1) : 0;
	r->memory_roof = memory_gbs > 0 ? memory_gbs : 0;
	r->gflops = gflops >= 0 ? gflops : -1;
	r->gbs = gflops >= 0 && r->intensity > 0 ? gflops / r->intensity : -1;
	if (r->compute_roof <= 0 || r->memory_roof <= 0 || r->intensity <= 0)
		return;
	r->ridge = r->compute_roof / r->memory_roof;
	double mem = r->memory_roof * r->intensity;
	r->attainable = mem < r->compute_roof ? mem : r->compute_roof;
	r->bound = r->intensity >= r->ridge ? ROOFLINE_COMPUTE : ROOFLINE_MEMORY;
}
