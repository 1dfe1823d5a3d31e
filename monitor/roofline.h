/* roofline.h — the roofline model of the lab's kernels.
 *
 * Attainable GFLOP/s = min(compute roof, memory roof x intensity), where
 * the intensity is FLOPs per byte of memory traffic.  The traffic model is
 * the compulsory one (each operand crosses the memory bus once, Williams,
 * Waterman and Patterson, "Roofline", CACM 52(4), 2009):
 *
 *   GEMM C = A x B, n x n, e bytes an element: 2 n^3 FLOPs over reading A
 *   and B and writing C, 3 n^2 e bytes: intensity 2n / (3e).  Real blocked
 *   GEMMs move more (the model is an upper bound on intensity).
 *   triad a += s x b: 2 FLOPs over 3 transfers (read a, read b, write a),
 *   3e bytes an element: 2 / 24 in double (STREAM's count; write-allocate
 *   traffic is not counted, as STREAM does not).
 *
 * Both roofs are the machine's, whatever threads the lab runs now: the
 * compute roof is the measured single-thread GEMM rate x the effective CPUs
 * (the ceiling the header shows), the memory roof the bandwidth the triad
 * measured on every CPU (lab_status_memory_gbs).  The ridge is their
 * ratio: a kernel whose intensity is below it is memory-bound (threads
 * beyond what saturates the bandwidth add nothing), above it compute-bound
 * (threads add FLOPs up to the CPUs).  Pure arithmetic: no I/O. */
#ifndef THREADLAB_ROOFLINE_H
#define THREADLAB_ROOFLINE_H

#include "settings.h"

enum roofline_bound {
	ROOFLINE_UNKNOWN = 0, /* a roof is not measured yet */
	ROOFLINE_COMPUTE,
	ROOFLINE_MEMORY,
};

/* "unknown", "compute", "memory". */
const char *roofline_bound_name(enum roofline_bound b);

/* FLOPs per byte of kernel k under the traffic model above, for matrix
 * size n (GEMM) and elem bytes an element (4 or 8); <= 0 for bad input. */
double roofline_intensity(enum settings_kernel k, int n, int elem);

struct roofline {
	enum settings_kernel kernel;
	double intensity;    /* FLOPs per byte */
	double compute_roof; /* GFLOP/s; <= 0 unknown */
	double memory_roof;  /* GB/s; <= 0 unknown */
	double ridge;	     /* compute_roof / memory_roof, FLOPs per byte; 0 unknown */
	double attainable;   /* GFLOP/s the roofs allow at intensity; 0 unknown */
	double gflops;	     /* the kernel's measured point, GFLOP/s; < 0 none */
	double gbs;	     /* gflops / intensity: its traffic, GB/s; < 0 none */
	enum roofline_bound bound;
};

/* Fills r.  single: the single-thread GEMM rate, GFLOP/s (<= 0 unknown);
 * effective: CPUs (<= 0 unknown: the roof is then one CPU's); memory_gbs
 * (<= 0 unknown); gflops: measured (< 0 none).  The bound needs both
 * roofs; at the ridge it reads compute-bound. */
void roofline_make(struct roofline *r, enum settings_kernel k, int n, int elem, double single,
		   double effective, double memory_gbs, double gflops);

#endif
