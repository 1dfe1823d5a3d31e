/* settings.h — the lab's settings as the model holds them: the knobs a
 * face shows, changes with a key (session_knob_step) and passes at start
 * (session_config).
 *
 * The model's own type, not the workload's: the session converts it for
 * the workload in one place (settings-lab.h), so a face never names the
 * control block or the lab manager.  The bounds below are the workload's
 * own (its arrays' sizes), checked equal where the two meet
 * (settings.c); the ranges a knob accepts are the knob table's
 * (knobs.h). */
#ifndef THREADLAB_SETTINGS_H
#define THREADLAB_SETTINGS_H

#include <stdbool.h>

#define SETTINGS_MAX_THREADS  64    /* intra-op threads per stream */
#define SETTINGS_MAX_STREAMS  16    /* inter-op streams (helper processes) */
#define SETTINGS_MAX_WORKERS  64    /* background CPU workers */
#define SETTINGS_MAX_LOADERS  16    /* input-pipeline loaders */
#define SETTINGS_MAX_PREFETCH 8	    /* ring slots per loader */
#define SETTINGS_MAX_PREP_MS  10000 /* CPU a loader spends on one batch, ms */
#define SETTINGS_MIN_SIZE     64    /* n of the n x n GEMM */
#define SETTINGS_MAX_SIZE     4096

enum settings_precision {
	SETTINGS_SINGLE = 0, /* sgemm */
	SETTINGS_DOUBLE = 1, /* dgemm */
};

enum settings_kernel {
	SETTINGS_GEMM = 0,  /* C = A x B, n x n */
	SETTINGS_TRIAD = 1, /* a += s * b over arrays twice the largest cache */
};

/* Which of Debian's OpenBLAS builds the helpers load. */
enum settings_blas {
	SETTINGS_BLAS_PTHREADS = 0,
	SETTINGS_BLAS_OPENMP = 1,
};

struct settings {
	int threads;			   /* intra-op OpenBLAS threads per GEMM */
	int streams;			   /* inter-op streams (helper processes) */
	int size;			   /* n of the n x n x n GEMM */
	enum settings_precision precision; /* single (sgemm) or double (dgemm) */
	bool paused;			   /* helpers finish their GEMM and wait */
	int workers;			   /* background CPU burners */
	double cpus;			   /* quota in CPUs as a real number; <= 0: none */
	bool spin_off;			   /* idle pool threads sleep instead of spinning
					    * (a change restarts the helpers) */
	enum settings_blas blas;	   /* OpenBLAS build (a change restarts the helpers) */
	int loaders;			   /* input-pipeline loaders; 0: GEMMs need no input */
	int prep_ms;			   /* CPU time per batch, ms */
	int prefetch;			   /* ring slots per loader */
	enum settings_kernel kernel;	   /* GEMM, or the triad (size then unused) */
};

/* "single", "double". */
const char *settings_precision_name(enum settings_precision p);
/* "pthreads", "openmp"; parse: 0 or -EINVAL (also takes "pthread"). */
const char *settings_blas_name(enum settings_blas b);
int settings_blas_parse(const char *s, enum settings_blas *out);
/* Every build's name, NULL-terminated; a name's index is its enum
 * settings_blas (--blas's values). */
const char *const *settings_blas_names(void);
/* The directory holding that build's libopenblas.so.0, or NULL when the
 * build is not installed (static storage). */
const char *settings_blas_dir(enum settings_blas b);
/* "gemm", "triad"; NULL-terminated, a name's index is its enum
 * settings_kernel (--kernel's values). */
const char *const *settings_kernel_names(void);
const char *settings_kernel_name(enum settings_kernel k);
/* The size of one triad array in MiB for precision p (twice the largest
 * cache of CPU 0, at least 128 MiB). */
double settings_triad_mib(enum settings_precision p);
/* The triad's elements per array for precision p. */
unsigned settings_triad_length(enum settings_precision p);

#endif
