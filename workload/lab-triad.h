/* lab-triad.h — the lab's kernels: their names and the triad's length
 * (lab-triad.c). */
#ifndef THREADLAB_LAB_TRIAD_H
#define THREADLAB_LAB_TRIAD_H

#include "lab.h"

#define LAB_TRIAD_MIN_MIB 128 /* each triad array holds at least this much */
/* "gemm", "triad"; NULL-terminated, a name's index is its enum ctl_kernel. */
const char *const *lab_triad_kernel_names(void);
const char *lab_triad_kernel_name(enum ctl_kernel k);
/* A cache size as sysfs writes it ("480M", "4096K", "32768"), bytes; 0 when
 * it does not read.  Pure. */
unsigned long long lab_triad_cache_parse(const char *text);
/* The largest cache under cpu_dir/cache/index* /size, bytes; 0 when none
 * reads (cpu_dir: "/sys/devices/system/cpu/cpu0", or a fixture). */
unsigned long long lab_triad_largest_cache(const char *cpu_dir);
/* Elements per triad array for precision p: 2 x the largest cache of CPU 0,
 * at least LAB_TRIAD_MIN_MIB, a multiple of 64 (read once per process). */
uint32_t lab_triad_length(enum ctl_precision p);

#endif
