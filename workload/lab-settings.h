/* lab-settings.h — what the lab's settings need of the system: the
 * OpenBLAS build, memory and limits, --cpus parsing (lab-settings.c; the
 * settings: lab.h).  Checks return 0 or -errno with a one-line reason in
 * err. */
#ifndef THREADLAB_LAB_SETTINGS_H
#define THREADLAB_LAB_SETTINGS_H

#include "lab.h"

/* "pthreads", "openmp"; parse: 0 or -EINVAL (also takes "pthread"). */
const char *lab_settings_blas_name(enum lab_blas b);
int lab_settings_blas_parse(const char *s, enum lab_blas *out);
/* Every build's name, NULL-terminated; a name's index is its enum lab_blas. */
const char *const *lab_settings_blas_names(void);
/* The directory holding that build's libopenblas.so.0, or NULL when the
 * build is not installed (the pthreads build then falls back to the
 * library the helper was linked against). */
const char *lab_settings_blas_dir(enum lab_blas b);
/* The settings' defaults and ranges are the knob table's (monitor/knobs.h:
 * knobs_defaults, knobs_check); the workload takes settings that passed
 * it and keeps its arrays' bounds (CTL_MAX_*, LAB_MAX_*) whatever it gets.
 * What only the system can say: the OpenBLAS build asked for is installed.
 * On error writes one line into err saying what to do and returns
 * -ENOENT, else 0.  Memory is checked apart (lab_settings_check_mem),
 * against a MemAvailable the caller reads. */
int lab_settings_check(const struct lab_settings *s, char *err, size_t errlen);
/* The memory check, against avail bytes (MemAvailable;
 * 0: unknown, always fits): -ENOMEM with a message when the matrices need
 * more than 80 % of it, else 0.  Pure, for tests. */
int lab_settings_check_mem(const struct lab_settings *s, unsigned long long avail, char *err,
			   size_t errlen);
/* The per-process limits: each helper holds its stream's 4 matrices and
 * OpenBLAS's own address space (LAB_HELPER_AS_MIB for the library, its
 * buffers and the driver, and LAB_THREAD_AS_MIB per pool thread: stacks
 * and buffers; measured on Debian 12's OpenBLAS 0.3.21).  as and data are
 * RLIMIT_AS and RLIMIT_DATA in bytes (RLIM_INFINITY or 0: none).  -ENOMEM
 * with a message naming the limit when a helper cannot fit, else 0.  Pure. */
#define LAB_HELPER_AS_MIB 320
#define LAB_THREAD_AS_MIB 16
int lab_settings_check_limits(const struct lab_settings *s, unsigned long long as,
			      unsigned long long data, char *err, size_t errlen);
/* The same against this process's limits (the helpers inherit them). */
int lab_settings_check_rlimits(const struct lab_settings *s, char *err, size_t errlen);
/* A generous timeout for lab_status_wait_ready() after starting or changing to s,
 * ms: the 1-thread reference and a first GEMM of every stream at a slow
 * rate, stretched by a quota below 1 CPU.  At least 10 s. */
int lab_settings_ready_timeout_ms(const struct lab_settings *s);
/* Parses a --cpus argument: a real number > 0, or "max"/"none" for no
 * quota (*cpus = 0).  0, negative or non-numbers give -EINVAL with a
 * message in err. */
int lab_settings_cpus_parse(const char *arg, double *cpus, char *err, size_t errlen);

#endif
