/* environment.h — what a measurement belongs to: the environment record.
 *
 * Written at the head of a sweep table and of a recording (and, later,
 * beside every experiment-log row), so that figures can be compared and
 * reproduced: the machine, the CPU budget, the BLAS the workload runs on,
 * the thread-related environment variables, the kernel and the date.
 * Strings are raw bytes (made safe by whoever writes them). */
#ifndef THREADLAB_ENVIRONMENT_H
#define THREADLAB_ENVIRONMENT_H

#include <stddef.h>

#define ENVIRONMENT_VARS_MAX 32
#define ENVIRONMENT_INFO_LEN 160 /* the workload's BLAS configuration text */

/* The thread-related variables every runtime threadlab knows reads, in
 * the order they are reported; NULL-terminated. */
extern const char *const environment_thread_vars[];

struct env_record {
	char host[256];				/* gethostname */
	char kernel[256];			/* uname: "Linux 6.1.0-…" */
	char date[64];				/* now, ISO 8601 UTC */
	char cpu_model[256];			/* proc/cpuinfo "model name" */
	int online, affinity;			/* CPUs (budget) */
	double quota_cpus;			/* <= 0: none */
	double effective;			/* CPUs as a real number */
	char blas_config[ENVIRONMENT_INFO_LEN]; /* the workload's openblas_get_config(); "" outside
						 * the lab
						 */
	char blas_core[64];
	char blas_variant[16]; /* "pthreads", "openmp", "sequential", "" */
	size_t nvars;
	struct {
		const char *name;  /* one of environment_thread_vars */
		const char *value; /* getenv(): NULL when unset; valid while the
				    * environment is not changed */
	} vars[ENVIRONMENT_VARS_MAX];
};

/* The value of name in e (NULL when unset or not recorded). */
const char *environment_var(const struct env_record *e, const char *name);

#endif
