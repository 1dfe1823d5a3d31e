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

/* Names the calling (driver) thread and records the pool workers that exist
 * now (those OpenBLAS created when it loaded).  0 or -errno. */
int gemm_names_init(struct gemm_names *n, unsigned stream);
/* Finds pool workers created since the last call (after the pool grew).
 * Returns how many are known in all, or -errno. */
int gemm_names_scan(struct gemm_names *n);
/* Writes .wK for workers K < active and .pK for the others, where active
 * counts the driver (active = intra-op threads).  Only changed names are
 * written.  A worker that vanished is skipped. */
void gemm_names_apply(struct gemm_names *n, unsigned active);

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

/* Makes r ready for (n, precision): allocates and fills A and B, and
 * computes the reference with one OpenBLAS thread if it is not cached.
 * Leaves OpenBLAS at one thread: the caller sets its thread count after.
 * 0, or -EINVAL / -ENOMEM with a one-line reason in err. */
int gemm_run_prepare(struct gemm_run *r, uint32_t n, uint32_t precision, char *err, size_t errlen);
/* One GEMM call C = A x B with the current OpenBLAS thread count. */
void gemm_run_call(struct gemm_run *r);
/* Compares C with the reference: 0 if bitwise equal, else 1 and the largest
 * |C - ref| in *max_diff.  memcmp first, so an equal result costs one pass;
 * a result equal to the previous differing one (OpenBLAS is deterministic
 * for a given thread count) reuses its difference instead of recomputing. */
int gemm_run_compare(struct gemm_run *r, double *max_diff);
/* Frees r's matrices and the reference cache. */
void gemm_run_free(struct gemm_run *r);

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

/* Makes r ready for (length, precision): allocates and fills both arrays
 * (nothing done when they are ready already).  0, or -EINVAL / -ENOMEM
 * with a one-line reason in err. */
int triad_run_prepare(struct triad_run *r, uint32_t length, uint32_t precision, char *err,
		      size_t errlen);
/* One call a += s * b with the current OpenBLAS thread count. */
void triad_run_call(struct triad_run *r);
/* Checks the sampled elements of the last call: 0 if each is exactly its
 * value before plus s * b, else 1 and the largest difference in *max_diff. */
int triad_run_compare(const struct triad_run *r, double *max_diff);
/* Frees the arrays (r is then unprepared). */
void triad_run_free(struct triad_run *r);

/* ---- burn.c: a background CPU-burning worker --------------------------- */

/* Names the process, dies with parent (PDEATHSIG; parent 0 = getppid() now)
 * and burns CPU until killed.  Returns only on error: an exit status. */
int burn_main(const char *name, pid_t parent);

/* ---- loader.c: an input-pipeline loader (control.h) --------------------- */

/* Prepares batches into the ring of the control block behind ctl_fd as
 * loader k (named tl-loaderK) until settings.quit (exit status 0) or the
 * parent's death (1); 2 for a bad block. */
int loader_main(int ctl_fd, unsigned k, pid_t parent);

/* ---- shared by both programs ------------------------------------------ */

/* prctl(PR_SET_PDEATHSIG, SIGKILL), then checks that the parent is still
 * expected (0: whatever getppid() says now).  0, or -ESRCH if the parent
 * already changed (it died before the prctl). */
int burn_die_with_parent(pid_t expected);

#endif
