/* options-args.h — the enumerated values the parser accepts, as lists the
 * option table (options-table.h) hands to --list-options, so the
 * completions offer exactly what the parser takes. */
#ifndef THREADLAB_OPTIONS_ARGS_H
#define THREADLAB_OPTIONS_ARGS_H

/* A NULL-terminated list of names; a name's index is its value. */
typedef const char *const *options_values_fn(void);

/* --precision: "single", "double" (index: enum ctl_precision). */
const char *const *options_precision_values(void);
/* --blas-spin: "default", "off" (index 1: spinning off). */
const char *const *options_spin_values(void);

/* The index of arg in values, or -1. */
int options_choice(const char *const *values, const char *arg);

#endif
