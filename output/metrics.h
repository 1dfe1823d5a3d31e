/* metrics.h — the exposition Prometheus scrapes: every figure of one or
 * more sessions as metric families, in the Prometheus text format 0.0.4 or
 * OpenMetrics text 1.0.0.
 *
 * Families are written whole, one after the other (never interleaved), each
 * with # HELP naming the source and # TYPE.  Counters are the kernel's raw
 * totals in base units (seconds, switches, periods); gauges are the
 * figures of the last interval.  The two formats differ only where they
 * must: OpenMetrics names a counter family without "_total" and an info
 * family without "_info", has the info type, and ends with "# EOF";
 * 0.0.4 types both by their sample names (an info as a gauge).
 *
 * threadlab_verdict is a state set encoded as a gauge in both formats: one
 * sample per state, 1 for the verdict and 0 for the others.  OpenMetrics'
 * stateset type would require its label to be named "threadlab_verdict";
 * the label users query is "verdict", so it stays a gauge.
 *
 * Label values are escaped per the format (backslash, double quote,
 * newline); bytes that are not valid UTF-8, other control characters and
 * DEL become the four characters \xNN, so the exposition stays valid and
 * harmless on a terminal whatever a thread is called. */
#ifndef THREADLAB_METRICS_H
#define THREADLAB_METRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "session.h"

enum metrics_format {
	METRICS_PROMETHEUS,  /* text/plain; version=0.0.4 */
	METRICS_OPENMETRICS, /* application/openmetrics-text; version=1.0.0 */
};

#define METRICS_MAX_THREADS_DEFAULT   500
#define METRICS_MAX_PROCESSES_DEFAULT 50

/* One target: a session and how it was found ("lab", "attach",
 * "command", "match": the target_info mode label). */
struct metrics_target {
	const struct session *s;
	const char *mode;
};

struct metrics_opts {
	size_t max_threads;    /* per-thread series per process; beyond: groups only */
	size_t max_processes;  /* --all: processes with series, in rank order */
	unsigned long samples; /* samples taken so far (threadlab_samples_total) */
};

/* Writes the exposition of targets[0..n) to f.  Returns 0, or -EIO when f
 * failed. */
int metrics_write(FILE *f, enum metrics_format fmt, const struct metrics_target *t, size_t n,
		  const struct metrics_opts *o);

/* The mode label of a session: "lab", "attach" or "command". */
const char *metrics_mode(const struct session *s);

#endif
