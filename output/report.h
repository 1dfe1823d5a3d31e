/* report.h — samples and budgets as text, CSV or JSON Lines.
 *
 * Pure formatting over the model's plain structs (model.h): nothing here
 * reads the system.  Foreign names go through text-safe.h (text),
 * csv-out.h (CSV) or json-out.h (JSON). */
#ifndef THREADLAB_REPORT_H
#define THREADLAB_REPORT_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include "format.h"
#include "diagnosis.h"
#include "labview.h"
#include "model.h"
#include "progress.h"

/* threadlab --budget. */
void report_budget(FILE *f, enum format fmt, pid_t pid, const struct model_budget *b);

/* One sample m (its rows' rates over the interval before it); w is NULL
 * outside the lab; diag NULL when there is no diagnosis (JSON then writes
 * "diagnosis": null and runnable_mean from the rates).  CSV prints its
 * header once per FILE when header is true. */
void report_sample(FILE *f, enum format fmt, const struct model_sample *m,
		   const struct workload_report *w, const struct diagnosis *diag, bool header);

/* The same with the job's progress (p NULL or not on: none): JSON adds
 * "progress" {count, rate, steady_rate, matches, last_line}, text a line. */
void report_sample_progress(FILE *f, enum format fmt, const struct model_sample *m,
			    const struct workload_report *w, const struct diagnosis *diag,
			    const struct progress *p, bool header);

/* A cgroup version's short name: "v1", "v2", "none". */
const char *report_version_name(int version);

/* wall (CLOCK_REALTIME seconds) as "2026-12-01T08:17:03.123Z", to the
 * millisecond, rounded. */
void report_time_iso(double wall, char *buf, size_t cap);

#endif
