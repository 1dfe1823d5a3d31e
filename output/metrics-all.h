/* metrics-all.h — the exposition of --serve --all: the machine and its
 * ranked processes (metrics-all.c).  Writes to the caller's stream; never
 * closes it. */
#ifndef THREADLAB_METRICS_ALL_H
#define THREADLAB_METRICS_ALL_H

#include "metrics.h"

struct ranking;
/* Writes the exposition of the whole machine's ranking (--serve --all,
 * output/metrics-all.c): the machine's gauges and those of its first
 * o->max_processes ranked processes, labelled pid, name and cgroup (the
 * full path, as threadlab_target_info's).  0, or -EIO / -ENOMEM. */
int metrics_all_write_ranking(FILE *f, enum metrics_format fmt, const struct ranking *k,
			      const struct metrics_opts *o);

#endif
