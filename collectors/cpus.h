/* cpus.h — per-CPU utilisation of the machine, from libproc2's stat API. */
#ifndef THREADLAB_CPUS_H
#define THREADLAB_CPUS_H

#include <stddef.h>

#define CPUS_MAX 1024

struct cpu_usage {
	size_t n;		   /* CPUs reported */
	int id[CPUS_MAX];	   /* CPU number */
	double busy_pct[CPUS_MAX]; /* non-idle share since the previous call, % */
	double total_busy_pct;	   /* over all CPUs, % of the whole machine */
};

struct cpus_sampler;

/* Returns NULL and sets errno when /proc/stat cannot be read. */
struct cpus_sampler *cpus_sampler_new(void);
void cpus_sampler_free(struct cpus_sampler *cs);

/* Fills out with busy % since the previous call (the first call measures
 * since boot).  Returns 0 or -errno. */
int cpus_sample(struct cpus_sampler *cs, struct cpu_usage *out);

#endif
