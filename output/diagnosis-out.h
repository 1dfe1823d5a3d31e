/* diagnosis-out.h — the diagnosis as JSON, one text line, or a report.
 *
 * JSON (in every batch sample, and what --diagnose --format json prints):
 * verdict, factor, runnable_mean, runnable_now, effective_cpus, binding,
 * window_s, cpus_used, wait_s_per_s, throttle_wait_s_per_s,
 * throttled_pct, headline, reasons [], suggestions [], roles [{role, kind,
 * pids, processes, threads, runnable_mean, cpu_pct, wait_pct}], runtimes
 * [{name, library, pid, variant, processes, pool, why}], env {NAME: value,
 * null when unset, "unreadable"}, groups [{pid, name, threads,
 * runnable_mean, cpu_pct, wait_pct}].  Names and paths are raw bytes,
 * escaped by the JSON writer; text is made safe by text_safe(). */
#ifndef THREADLAB_DIAGNOSIS_OUT_H
#define THREADLAB_DIAGNOSIS_OUT_H

#include <stdio.h>

#include "diagnosis.h"
#include "json-out.h"

/* The "diagnosis" object's value. */
void diagnosis_out_json(struct json_out *j, const struct diagnosis *d);

/* The headline, made safe, as one line (no newline) into buf. */
void diagnosis_out_line(char *buf, size_t cap, const struct diagnosis *d);

/* The whole diagnosis for a person: verdict, reasons, suggestions,
 * roles, runtimes, variables and the busiest groups. */
void diagnosis_out_text(FILE *f, const struct diagnosis *d);

#endif
