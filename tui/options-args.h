/* options-args.h — the enumerated values the parser accepts, as lists the
 * option table (options-table.h) hands to --list-options, so the
 * completions offer exactly what the parser takes. */
#ifndef THREADLAB_OPTIONS_ARGS_H
#define THREADLAB_OPTIONS_ARGS_H

#include <stdbool.h>
#include <stddef.h>

#include "knobs.h"

/* A NULL-terminated list of names; a name's index is its value. */
typedef const char *const *options_values_fn(void);

/* --precision: "single", "double" (index: enum settings_precision). */
const char *const *options_args_precision_values(void);
/* --blas-spin: "default", "off" (index 1: spinning off). */
const char *const *options_args_spin_values(void);

/* The index of arg in values, or -1. */
int options_args_choice(const char *const *values, const char *arg);

/* Whether s is a whole number (or a finite real) within lo..hi, into *out. */
bool options_args_long_int(const char *s, long lo, long hi, long *out);
bool options_args_double(const char *s, double lo, double hi, double *out);
/* "1,2,4" or "1-4" or a mix, each within lo..hi, into list (OPT_LIST_MAX
 * entries at most); returns the count, or 0 when bad. */
size_t options_args_list(const char *s, long lo, long hi, int *list);
/* Knob k's range, from the knob table (monitor/knobs.c): the one source. */
long options_args_knob_lo(enum knob_id k);
long options_args_knob_hi(enum knob_id k);

#endif
