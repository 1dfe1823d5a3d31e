/* roofline-out.c — the roofline as JSON and text (roofline-out.h). */
#include "config.h"

#include "roofline-out.h"

#include <math.h>

static double known(double v)
{
	return v > 0 ? v : (double)NAN;
}

void roofline_out_json(struct json_out *j, const char *kernel, const struct roofline *r)
{
	json_out_key(j, "roofline");
	json_out_object(j);
	json_out_kstr(j, "kernel", kernel);
	json_out_knum(j, "intensity_flops_per_byte", known(r->intensity), 4);
	json_out_knum(j, "compute_roof_gflops", known(r->compute_roof), 2);
	json_out_knum(j, "memory_roof_gbs", known(r->memory_roof), 2);
	json_out_knum(j, "ridge_flops_per_byte", known(r->ridge), 4);
	json_out_knum(j, "attainable_gflops", known(r->attainable), 2);
	json_out_knum(j, "gflops", r->gflops >= 0 ? r->gflops : (double)NAN, 2);
	json_out_knum(j, "gbs", r->gbs >= 0 ? r->gbs : (double)NAN, 2);
	json_out_kstr(j, "bound", roofline_bound_name(r->bound));
	json_out_end(j);
}

void roofline_out_json_kernel(struct json_out *j, const char *kernel, unsigned length, double gbs)
{
	json_out_kstr(j, "kernel", kernel ? kernel : "gemm");
	json_out_knum(j, "triad_length", length ? (double)length : (double)NAN, 0);
	json_out_knum(j, "gbs", kernel ? gbs : (double)NAN, 2);
}

void roofline_out_text(FILE *f, const char *lead, const char *kernel, const struct roofline *r)
{
	fprintf(f, "%sroofline: %s %.3g FLOP/B, roofs ", lead, kernel, r->intensity);
	if (r->compute_roof > 0)
		fprintf(f, "%.1f GFLOP/s", r->compute_roof);
	else
		fputs("? GFLOP/s", f);
	if (r->memory_roof > 0)
		fprintf(f, " and %.1f GB/s", r->memory_roof);
	else
		fputs(" and ? GB/s (--roofline measures it)", f);
	if (r->ridge > 0)
		fprintf(f, " (ridge %.3g FLOP/B)", r->ridge);
	fprintf(f, ": %s",
		r->bound == ROOFLINE_UNKNOWN   ? "bound unknown"
		: r->bound == ROOFLINE_COMPUTE ? "compute-bound"
					       : "memory-bound");
	if (r->gflops >= 0)
		fprintf(f, ", %.1f GFLOP/s %.1f GB/s", r->gflops, r->gbs);
	fputc('\n', f);
}
