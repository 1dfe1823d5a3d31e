/* options-all.h — the command line of issue 19: the whole machine (--all)
 * instead of one target, how many of its processes are listed (--top N)
 * and whether kernel threads are among them (--kernel-threads).
 * options.c hands these over, as it does options-diag.h's. */
#ifndef THREADLAB_OPTIONS_ALL_H
#define THREADLAB_OPTIONS_ALL_H

#include <stdio.h>

#include "options.h"

/* One option c (OPT_ALL_FIRST <= c < OPT_ALL_END).  EXIT_OK, or
 * EXIT_USAGE with a one-line message. */
int options_all_one(struct options *o, int c, const char *arg, char *err, size_t errlen);

/* The checks of these options against the mode and the other targets.
 * EXIT_OK, or EXIT_USAGE with a one-line message. */
int options_all_check(const struct options *o, char *err, size_t errlen);

#endif
