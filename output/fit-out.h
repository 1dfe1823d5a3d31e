/* fit-out.h — a sweep's Amdahl fit (sweep-fit.h) as a text line and as
 * JSON, shared by the lab sweep and the command sweep. */
#ifndef THREADLAB_FIT_OUT_H
#define THREADLAB_FIT_OUT_H

#include <stdio.h>

#include "json-out.h"
#include "sweep-fit.h"

/* "LEADAmdahl fit: …\n" (sweep_fit_caption), made safe. */
void fit_out_text(FILE *f, const char *lead, const struct amdahl_fit *fit);

/* The member "fit": {serial_fraction, r2, points_used, points_left_out
 * (contended, throttled, or beyond the CPUs), points_beyond_cpus,
 * threads_min, threads_max (of the points used), cpus, karp_flatt_min,
 * karp_flatt_max, predicted: [{threads, cpus, speedup, prediction}]};
 * figures null when no fit was made, prediction true for more CPUs than
 * this box has. */
void fit_out_json(struct json_out *j, const struct amdahl_fit *fit);

/* The member "karp_flatt" of a row: e(min(threads, cpus)) of speedup,
 * null when threads is not a number or that is at most 1. */
void fit_out_json_row(struct json_out *j, double speedup, double threads, double cpus);

#endif
