/* environment.c — the environment record (environment.h). */
#include "config.h"

#include "environment-impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "procinfo.h"

_Static_assert(ENVIRONMENT_INFO_LEN == CTL_INFO_LEN, "the BLAS configuration text");

const char *const environment_thread_vars[] = {
    "OMP_NUM_THREADS",	       "OMP_THREAD_LIMIT",	 "OMP_DYNAMIC",
    "OMP_WAIT_POLICY",	       "OMP_PROC_BIND",		 "OMP_PLACES",
    "GOMP_SPINCOUNT",	       "OPENBLAS_NUM_THREADS",	 "GOTO_NUM_THREADS",
    "OPENBLAS_THREAD_TIMEOUT", "MKL_NUM_THREADS",	 "MKL_DYNAMIC",
    "BLIS_NUM_THREADS",	       "KMP_BLOCKTIME",		 "KMP_AFFINITY",
    "TF_NUM_INTRAOP_THREADS",  "TF_NUM_INTEROP_THREADS", "NUMEXPR_NUM_THREADS",
    "OPENCV_FOR_THREADS_NUM",  "VECLIB_MAXIMUM_THREADS", NULL,
};

void environment_fill(struct env_record *e, const struct sysroot *root, const struct budget *b,
		      const struct lab_status *st)
{
	memset(e, 0, sizeof(*e));
	if (gethostname(e->host, sizeof(e->host) - 1) < 0)
		e->host[0] = '\0';
	struct utsname u;
	if (uname(&u) == 0)
		snprintf(e->kernel, sizeof(e->kernel), "%.100s %.100s", u.sysname, u.release);
	time_t t = time(NULL);
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(e->date, sizeof(e->date), "%Y-%m-%dT%H:%M:%SZ", &tm);
	procinfo_cpu_model(root, e->cpu_model, sizeof(e->cpu_model));
	if (b) {
		e->online = b->online;
		e->affinity = b->affinity;
		e->quota_cpus = b->quota.cpus;
		e->effective = b->effective;
	}
	if (st) {
		snprintf(e->blas_config, sizeof(e->blas_config), "%s", st->blas_config);
		snprintf(e->blas_core, sizeof(e->blas_core), "%s", st->blas_core);
		snprintf(e->blas_variant, sizeof(e->blas_variant), "%s",
			 st->blas_variant ? st->blas_variant : "");
	}
	for (size_t i = 0; environment_thread_vars[i] && e->nvars < ENVIRONMENT_VARS_MAX; i++) {
		e->vars[e->nvars].name = environment_thread_vars[i];
		e->vars[e->nvars].value = getenv(environment_thread_vars[i]);
		e->nvars++;
	}
}

const char *environment_var(const struct env_record *e, const char *name)
{
	for (size_t i = 0; i < e->nvars; i++)
		if (strcmp(e->vars[i].name, name) == 0)
			return e->vars[i].value;
	return NULL;
}
