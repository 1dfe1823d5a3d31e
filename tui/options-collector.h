/* options-collector.h — the command line of the collector path:
 * --collector auto|bpf|proc and --bpf-threads N (collector.h).  options.c
 * hands these over and asks for the checks, as for options-tune.h. */
#ifndef THREADLAB_OPTIONS_COLLECTOR_H
#define THREADLAB_OPTIONS_COLLECTOR_H

#include <stdio.h>

#include "collector.h"
#include "options.h"

/* One option c (OPT_COLLECTOR_FIRST <= c < OPT_COLLECTOR_END).  EXIT_OK,
 * or EXIT_USAGE with a one-line message. */
int options_collector_one(struct options *o, int c, const char *arg, char *err, size_t errlen);

/* The checks against the mode.  EXIT_OK, or EXIT_USAGE with a message. */
int options_collector_check(const struct options *o, char *err, size_t errlen);

/* Whether o's mode samples live threads (and so chooses a collector). */
bool options_collector_live(const struct options *o);

/* What collector_choose() is asked for o. */
void options_collector_opts(const struct options *o, struct collector_opts *co);

#endif
