/* options-args.h — what each option's value is: the enumerated values the
 * parser accepts, and the listing the shell completions are made from.
 *
 * `threadlab --list-options` (hidden) prints every option of the parser's
 * table (options_table()), one a line, four fields separated by tabs:
 *
 *     --format<TAB>-<TAB>enum<TAB>text csv json
 *     --pid<TAB>-p<TAB>pid<TAB>-
 *
 * the long name, the short one or "-", the kind of value (none, value, enum,
 * pid, file, dir) and, for enum, the values separated by spaces, else "-".
 * The build turns it into the bash completion (completion/).  An
 * enumerated option's values come from the list the parser checks them
 * against, so the completion cannot offer a value the parser refuses. */
#ifndef THREADLAB_OPTIONS_ARGS_H
#define THREADLAB_OPTIONS_ARGS_H

#include <getopt.h>
#include <stdio.h>

/* A NULL-terminated list of names; a name's index is its value. */
typedef const char *const *options_values_fn(void);

/* --precision: "single", "double" (index: enum ctl_precision). */
const char *const *options_precision_values(void);
/* --blas-spin: "default", "off" (index 1: spinning off). */
const char *const *options_spin_values(void);

/* The index of arg in values, or -1. */
int options_choice(const char *const *values, const char *arg);

/* Prints the listing above for table (terminated by a NULL name).  Returns
 * 0, or -EINVAL when the kinds name an option the table lacks (said on
 * stderr: the kinds went stale). */
int options_list_print(FILE *f, const struct option *table);

#endif
