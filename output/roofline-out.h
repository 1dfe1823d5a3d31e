/* roofline-out.h — the lab kernel's roofline (roofline.h) as JSON and as a
 * text line, for batch samples. */
#ifndef THREADLAB_ROOFLINE_OUT_H
#define THREADLAB_ROOFLINE_OUT_H

#include <stdio.h>

#include "json-out.h"
#include "roofline.h"

/* The member "roofline": {kernel, intensity_flops_per_byte,
 * compute_roof_gflops, memory_roof_gbs, ridge_flops_per_byte,
 * attainable_gflops, gflops, gbs, bound}; an unknown roof (and what needs
 * it) is null, bound "unknown" then. */
void roofline_out_json(struct json_out *j, const char *kernel, const struct roofline *r);

/* The workload object's members "kernel" (NULL: "gemm", a recording without
 * one), "triad_length" (null for GEMM) and "gbs" (null without a kernel). */
void roofline_out_json_kernel(struct json_out *j, const char *kernel, unsigned length, double gbs);

/* "LEADroofline: triad 0.083 FLOP/B, roofs 90.0 GFLOP/s and 12.1 GB/s
 * (ridge 7.4 FLOP/B): memory-bound, 14.0 GB/s\n". */
void roofline_out_text(FILE *f, const char *lead, const char *kernel, const struct roofline *r);

#endif
