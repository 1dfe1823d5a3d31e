/* gemm.h — the parts of the workload helper (threadlab-gemm, threadlab-burn)
 * shared between its files.  Internal to the helper: threadlab itself talks
 * to the helper only through control.h and its command line. */
#ifndef THREADLAB_GEMM_H
#define THREADLAB_GEMM_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "control.h"

/* ---- gemm-names.c: names of the helper's threads ----------------------
 *
 * OpenBLAS does not name its pool threads, so the helper does: the driver
 * (the main thread) is "gemmI", pool worker K is "gemmI.wK" while it takes
 * part in GEMM calls (K < active threads) and "gemmI.pK" while it is parked.
 * Workers are numbered in the order OpenBLAS created them (TID order within
 * each growth step), which is the order its server hands out work. */
#define GEMM_NAMES_MAX 256 /* pool workers tracked */

struct gemm_names {
	unsigned stream;		      /* I */
	pid_t driver;			      /* TID of the driver (= the process id) */
	unsigned nworkers;		      /* pool workers found so far */
	pid_t tid[GEMM_NAMES_MAX];	      /* worker K (1-based) is tid[K - 1] */
	unsigned char parked[GEMM_NAMES_MAX]; /* name currently written: 1 = .pK */
	unsigned char named[GEMM_NAMES_MAX];  /* 1 once a name was written */
};

/* ---- gemm-run.c: matrices, the GEMM call, the results check ---------- */

/* One GEMM setting's data: A, B (deterministic), C (each call's result) and
 * the reference (computed once per size/precision with one thread and kept
 * in a small cache inside gemm-run.c). */
struct gemm_run {
	uint32_t n;	    /* 0 = nothing prepared */
	uint32_t precision; /* enum ctl_precision */
	size_t elem;	    /* 4 or 8 bytes */
	void *a, *b, *c;    /* n x n each, owned */
	const void *ref;    /* owned by the cache; valid until the next prepare */
	void *last;	    /* last result that differed from ref (swapped with c) */
	int last_valid;	    /* last holds a result of this (n, precision) */
	double last_diff;   /* its largest |difference| */
};

/* Largest n accepted (the memory check below usually binds first). */
#define GEMM_MAX_SIZE CTL_MAX_SIZE

/* ---- triad-run.c: the memory-bound kernel ---------------------------- */

#define TRIAD_SAMPLES 64 /* elements each call's check looks at */

/* The triad's two arrays (a += s * b, ctl_kernel) and the check's sample. */
struct triad_run {
	uint32_t length;    /* elements per array; 0 = nothing prepared */
	uint32_t precision; /* enum ctl_precision */
	size_t elem;	    /* 4 or 8 bytes */
	void *a, *b;	    /* owned */
	uint32_t calls;	    /* since a was last zeroed */
	size_t sample[TRIAD_SAMPLES];
	double before[TRIAD_SAMPLES]; /* the sampled a[] before the last call */
};

/* ---- burn.c: a background CPU-burning worker --------------------------- */

/* ---- loader.c: an input-pipeline loader (control.h) --------------------- */

/* ---- shared by both programs ------------------------------------------ */

#endif
