/* settings.c — the lab's settings as the model holds them (settings.h),
 * their names, and their conversion for the workload (settings-lab.h). */
#include "config.h"

#include "settings-lab.h"

#include "knobs.h"
#include "lab-settings.h"
#include "lab-status.h"
#include "lab-triad.h"

/* The model's bounds and values are the workload's: one source each. */
_Static_assert(SETTINGS_MAX_THREADS == CTL_MAX_THREADS, "threads bound");
_Static_assert(SETTINGS_MAX_STREAMS == CTL_MAX_STREAMS, "streams bound");
_Static_assert(SETTINGS_MAX_WORKERS == LAB_MAX_WORKERS, "workers bound");
_Static_assert(SETTINGS_MAX_LOADERS == CTL_MAX_LOADERS, "loaders bound");
_Static_assert(SETTINGS_MAX_PREFETCH == CTL_MAX_PREFETCH, "prefetch bound");
_Static_assert(SETTINGS_MAX_PREP_MS == CTL_MAX_PREP_MS, "prep bound");
_Static_assert(SETTINGS_MIN_SIZE == LAB_MIN_SIZE && SETTINGS_MAX_SIZE == LAB_MAX_SIZE,
	       "size range");
_Static_assert(SETTINGS_SINGLE == (int)CTL_SINGLE && SETTINGS_DOUBLE == (int)CTL_DOUBLE,
	       "precisions");
_Static_assert(SETTINGS_GEMM == (int)CTL_GEMM && SETTINGS_TRIAD == (int)CTL_TRIAD, "kernels");
_Static_assert(SETTINGS_BLAS_PTHREADS == (int)LAB_BLAS_PTHREADS &&
		   SETTINGS_BLAS_OPENMP == (int)LAB_BLAS_OPENMP,
	       "builds");

void settings_to_lab(const struct settings *s, struct lab_settings *out)
{
	*out = (struct lab_settings){
	    .threads = s->threads,
	    .streams = s->streams,
	    .size = s->size,
	    .precision = (enum ctl_precision)s->precision,
	    .paused = s->paused,
	    .workers = s->workers,
	    .cpus = s->cpus,
	    .spin_off = s->spin_off,
	    .blas = (enum lab_blas)s->blas,
	    .loaders = s->loaders,
	    .prep_ms = s->prep_ms,
	    .prefetch = s->prefetch,
	    .kernel = (enum ctl_kernel)s->kernel,
	};
}

void settings_from_lab(const struct lab_settings *l, struct settings *out)
{
	*out = (struct settings){
	    .threads = l->threads,
	    .streams = l->streams,
	    .size = l->size,
	    .precision = (enum settings_precision)l->precision,
	    .paused = l->paused,
	    .workers = l->workers,
	    .cpus = l->cpus,
	    .spin_off = l->spin_off,
	    .blas = (enum settings_blas)l->blas,
	    .loaders = l->loaders,
	    .prep_ms = l->prep_ms,
	    .prefetch = l->prefetch,
	    .kernel = (enum settings_kernel)l->kernel,
	};
}

int settings_rate_key(const struct settings *s)
{
	struct lab_settings l;
	settings_to_lab(s, &l);
	return lab_status_rate_key(&l);
}

struct lab_settings settings_lab_defaults(void)
{
	struct settings s = knobs_defaults();
	struct lab_settings l;
	settings_to_lab(&s, &l);
	return l;
}

const char *settings_precision_name(enum settings_precision p)
{
	return p == SETTINGS_DOUBLE ? "double" : "single";
}

const char *settings_blas_name(enum settings_blas b)
{
	return lab_settings_blas_name((enum lab_blas)b);
}

int settings_blas_parse(const char *s, enum settings_blas *out)
{
	enum lab_blas b;
	int rc = lab_settings_blas_parse(s, &b);
	if (rc == 0)
		*out = (enum settings_blas)b;
	return rc;
}

const char *const *settings_blas_names(void)
{
	return lab_settings_blas_names();
}

const char *settings_blas_dir(enum settings_blas b)
{
	return lab_settings_blas_dir((enum lab_blas)b);
}

const char *const *settings_kernel_names(void)
{
	return lab_triad_kernel_names();
}

const char *settings_kernel_name(enum settings_kernel k)
{
	return lab_triad_kernel_name((enum ctl_kernel)k);
}

unsigned settings_triad_length(enum settings_precision p)
{
	return lab_triad_length((enum ctl_precision)p);
}

double settings_triad_mib(enum settings_precision p)
{
	return (double)settings_triad_length(p) * (p == SETTINGS_DOUBLE ? 8 : 4) / 1048576.0;
}
