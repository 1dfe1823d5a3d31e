/* settings-lab.h — the model's settings (settings.h) and the lab manager's
 * (workload/lab.h), converted where the session and the sweep talk to the
 * workload; internal to monitor/, never for a face. */
#ifndef THREADLAB_SETTINGS_LAB_H
#define THREADLAB_SETTINGS_LAB_H

#include "lab.h"
#include "settings.h"

void settings_to_lab(const struct settings *s, struct lab_settings *out);
void settings_from_lab(const struct lab_settings *l, struct settings *out);
/* The rate-cache key of the kernel in s (lab_status_rate_key): its n for GEMM,
 * LAB_TRIAD_KEY for the triad. */
int settings_rate_key(const struct settings *s);
/* The knob table's defaults (knobs_defaults) for the lab manager: the
 * settings a workload test or benchmark starts from. */
struct lab_settings settings_lab_defaults(void);

#endif
