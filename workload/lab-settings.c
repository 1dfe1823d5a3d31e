/* lab-settings.c — what the lab's settings need of the system: the OpenBLAS
 * build, memory and limits; --cpus parsing.  Their defaults and ranges are
 * the knob table's (monitor/knobs.c). */
#define _GNU_SOURCE
#include "config.h"

#include "lab.h"
#include "lab-triad.h"
#include "lab-settings.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <unistd.h>

const char *const *lab_settings_blas_names(void)
{
	static const char *const names[] = {
	    [LAB_BLAS_PTHREADS] = "pthreads", [LAB_BLAS_OPENMP] = "openmp", NULL};
	return names;
}

const char *lab_settings_blas_name(enum lab_blas b)
{
	return b == LAB_BLAS_OPENMP ? lab_settings_blas_names()[LAB_BLAS_OPENMP]
				    : lab_settings_blas_names()[LAB_BLAS_PTHREADS];
}

int lab_settings_blas_parse(const char *s, enum lab_blas *out)
{
	const char *const *names = lab_settings_blas_names();
	for (int i = 0; names[i]; i++)
		if (strcmp(s, names[i]) == 0) {
			*out = (enum lab_blas)i;
			return 0;
		}
	if (strcmp(s, "pthread") == 0) { /* Debian's directory name */
		*out = LAB_BLAS_PTHREADS;
		return 0;
	}
	return -EINVAL;
}

#ifndef OPENBLAS_LIBROOT
#define OPENBLAS_LIBROOT "/usr/lib/x86_64-linux-gnu"
#endif

const char *lab_settings_blas_dir(enum lab_blas b)
{
	static char dir[2][256];
	const char *leaf = b == LAB_BLAS_OPENMP ? "openblas-openmp" : "openblas-pthread";
	const char *root = getenv("THREADLAB_OPENBLAS_LIBROOT"); /* for other layouts */
	char *d = dir[b == LAB_BLAS_OPENMP];
	snprintf(d, sizeof(dir[0]), "%s/%s", root && *root ? root : OPENBLAS_LIBROOT, leaf);
	char lib[300];
	snprintf(lib, sizeof(lib), "%s/libopenblas.so.0", d);
	return access(lib, R_OK) == 0 ? d : NULL;
}

int lab_settings_check(const struct lab_settings *s, char *err, size_t errlen)
{
	if (s->blas == LAB_BLAS_OPENMP && !lab_settings_blas_dir(LAB_BLAS_OPENMP)) {
		const char *root = getenv("THREADLAB_OPENBLAS_LIBROOT");
		snprintf(err, errlen,
			 "the OpenMP build of OpenBLAS is not installed (%s/openblas-openmp/"
			 "libopenblas.so.0 is missing): apt install libopenblas0-openmp",
			 root && *root ? root : OPENBLAS_LIBROOT);
		return -ENOENT;
	}
	return 0;
}

/* Bytes of one helper's matrices (and triad arrays) for s. */
static double lab_settings_arrays(const struct lab_settings *s)
{
	double elem = s->precision == CTL_DOUBLE ? 8.0 : 4.0;
	double b = 4.0 * (double)s->size * (double)s->size * elem;
	if (s->kernel == CTL_TRIAD)
		b += 2.0 * (double)lab_triad_length(s->precision) * elem;
	return b;
}

int lab_settings_check_mem(const struct lab_settings *s, unsigned long long avail, char *err,
			   size_t errlen)
{
	/* Each stream holds A, B, C and the reference: 4 n^2 elements, and
	 * running the triad its two arrays as well. */
	double need = (double)s->streams * lab_settings_arrays(s);
	if (avail > 0 && need > 0.8 * (double)avail) {
		snprintf(err, errlen,
			 "size %d: %d stream(s) x 4 matrices need %.0f MiB, more than the %.0f MiB "
			 "available; choose a smaller size or fewer streams",
			 s->size, s->streams, need / 1048576.0, (double)avail / 1048576.0);
		return -ENOMEM;
	}
	return 0;
}

int lab_settings_check_limits(const struct lab_settings *s, unsigned long long as,
			      unsigned long long data, char *err, size_t errlen)
{
	double mats = lab_settings_arrays(s);
	double pool = (double)(s->threads > 1 ? s->threads - 1 : 0) * LAB_THREAD_AS_MIB;
	double need = mats + (LAB_HELPER_AS_MIB + pool) * 1048576.0;
	const struct {
		unsigned long long lim;
		const char *what;
	} lims[] = {{as, "address-space limit (RLIMIT_AS, ulimit -v)"},
		    {data, "data-segment limit (RLIMIT_DATA, ulimit -d)"}};
	for (size_t i = 0; i < 2; i++) {
		unsigned long long lim = lims[i].lim;
		if (lim == 0 || lim == (unsigned long long)-1 || need <= (double)lim)
			continue;
		snprintf(err, errlen,
			 "size %d %s: each helper needs about %.0f MiB of memory (4 matrices of "
			 "%.0f MiB and OpenBLAS's %.0f MiB) but the %s is %.0f MiB: raise the "
			 "limit or choose a smaller size",
			 s->size, s->precision == CTL_DOUBLE ? "double" : "single",
			 need / 1048576.0, mats / 4.0 / 1048576.0, LAB_HELPER_AS_MIB + pool,
			 lims[i].what, (double)lim / 1048576.0);
		return -ENOMEM;
	}
	return 0;
}

int lab_settings_check_rlimits(const struct lab_settings *s, char *err, size_t errlen)
{
	struct rlimit as = {RLIM_INFINITY, RLIM_INFINITY}, data = as;
	getrlimit(RLIMIT_AS, &as);
	getrlimit(RLIMIT_DATA, &data);
	return lab_settings_check_limits(s, as.rlim_cur, data.rlim_cur, err, errlen);
}

/* A slow 1-thread rate, GFLOP/s (single precision; double counts twice):
 * a fifth of what this machine's slowest measured case does. */
#define READY_SLOW_GFLOPS 10.0

/* A slow memory bandwidth, GB/s, for the triad's first call (and filling
 * its arrays). */
#define READY_SLOW_GBS 1.0

int lab_settings_ready_timeout_ms(const struct lab_settings *s)
{
	double n = s->size, call_s = 2.0 * n * n * n / (READY_SLOW_GFLOPS * 1e9);
	if (s->precision == CTL_DOUBLE)
		call_s *= 2;
	if (s->kernel == CTL_TRIAD)
		call_s += 3.0 * lab_settings_arrays(s) / (READY_SLOW_GBS * 1e9);
	/* Every stream's reference and first GEMM, the streams sharing CPUs. */
	double t = 2.0 * call_s * (s->streams > 1 ? s->streams : 1);
	/* The first GEMM waits for a batch, and the loaders may all share one
	 * CPU while they make their first ones. */
	if (s->loaders > 0)
		t += (2.0 + s->loaders) * s->prep_ms / 1000.0;
	if (s->cpus > 0 && s->cpus < 1)
		t /= s->cpus;
	t = 10.0 + t;
	return t > 600.0 ? 600000 : (int)(t * 1000);
}

int lab_settings_cpus_parse(const char *arg, double *cpus, char *err, size_t errlen)
{
	if (strcasecmp(arg, "max") == 0 || strcasecmp(arg, "none") == 0) {
		*cpus = 0;
		return 0;
	}
	char *end;
	errno = 0;
	double v = strtod(arg, &end);
	if (errno || end == arg || *end || !isfinite(v) || v <= 0) {
		snprintf(err, errlen,
			 "--cpus %s: give the quota as a number of CPUs above 0, such as 1.5 "
			 "(or \"max\" for none)",
			 arg);
		return -EINVAL;
	}
	*cpus = v;
	return 0;
}
