/* options-usage.h — the --help text, made from the option table
 * (options-table.h): the synopsis, then each section's options with their
 * help lines wrapped to 85 columns, then the exit statuses. */
#ifndef THREADLAB_OPTIONS_USAGE_H
#define THREADLAB_OPTIONS_USAGE_H

#include <stdio.h>

/* Prints the --help text on f. */
void options_usage(FILE *f);

#endif
